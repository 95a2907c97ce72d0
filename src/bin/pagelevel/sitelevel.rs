//! `pagelevel sitelevel`: SiteLevel(θ) template labels (or the text outside templates) for the
//! pages of many sites, one JSON line per page, statistics per site on stderr.

use std::io::Write;
use std::path::PathBuf;

use ::sitelevel::{HashOptions, HrefQuery, LabelOptions, SiteLevelOptions};
use anyhow::Context;
use pagelevel::input::manifest::Manifest;
use pagelevel::site::{self, GoldCheck, GoldTotals, Outcome, RunOptions, SiteGroup, SitePage};
use serde::Serialize;

/// Arguments of `pagelevel sitelevel`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).args(["manifest", "site_dir", "warc"])))]
pub struct Args {
    /// Manifest (JSON Lines in the ../shared/data format); pages are grouped by their `site`.
    #[arg(long, value_name = "M")]
    manifest: Option<PathBuf>,
    /// Folder the manifest's paths are relative to (default: the manifest's folder if they resolve there, else its parent).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    root: Option<PathBuf>,
    /// A folder holding one folder of pages per site (instead of --manifest).
    #[arg(long, value_name = "DIR")]
    site_dir: Option<PathBuf>,
    /// WARC files (.warc, .warc.gz): their HTML responses, grouped into sites by the registrable
    /// domain of the target URI wherever the records are in a file (docs/warc.md).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    warc: Vec<PathBuf>,
    /// With --warc: a site is a run of consecutive records (one streaming pass holding one run's
    /// record list), for files already written host by host. By default a first pass lists every
    /// record (id, URI, offset) and a site gathers its records from the whole file.
    #[arg(long, requires = "warc")]
    contiguous: bool,
    /// θ: a subtree is template if it occurs on at least max(2, ⌈θ·N⌉) of a site's N pages.
    #[arg(long, default_value_t = ::sitelevel::DEFAULT_THETA)]
    theta: f64,
    /// Sites with fewer distinct pages are reported and left unlabelled.
    #[arg(long, default_value_t = ::sitelevel::DEFAULT_MIN_PAGES)]
    min_pages: usize,
    /// A node is template if more than this share of its HTML bytes lies in template subtrees.
    #[arg(long, default_value_t = ::sitelevel::DEFAULT_MIN_TEMPLATE_SHARE)]
    share: f64,
    /// Hash the `id` attribute of elements too.
    #[arg(long)]
    hash_id: bool,
    /// Hash the `class` attribute of elements too.
    #[arg(long)]
    hash_class: bool,
    /// Hash the `href` attribute of elements too (query string per --href-query).
    #[arg(long)]
    hash_href: bool,
    /// Query strings of hashed hrefs: keep, drop-tracking (utm_*, session ids, …) or drop-all.
    #[arg(long, value_enum, default_value = "drop-tracking")]
    href_query: HrefQueryArg,
    /// Keep digits in text as they are (default: each digit run hashes as one `0`).
    #[arg(long)]
    keep_text_digits: bool,
    /// Keep digits in hashed id/class values as they are.
    #[arg(long)]
    keep_attr_digits: bool,
    /// Hash the text inside <script> and <style> too.
    #[arg(long)]
    script_text: bool,
    /// Print {"path", "page", "text"}: the visible text outside templates, instead of labels.
    #[arg(long)]
    extract: bool,
    /// Compare with the manifest's gold texts and print per-site quality on stderr.
    #[arg(long)]
    gold: bool,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum HrefQueryArg {
    Keep,
    DropTracking,
    DropAll,
}

impl Args {
    fn options(&self) -> RunOptions {
        let hash = HashOptions {
            id: self.hash_id,
            class: self.hash_class,
            href: self.hash_href,
            mask_attr_digits: !self.keep_attr_digits,
            href_query: match self.href_query {
                HrefQueryArg::Keep => HrefQuery::Keep,
                HrefQueryArg::DropTracking => HrefQuery::DropTracking,
                HrefQueryArg::DropAll => HrefQuery::DropAll,
            },
            mask_text_digits: !self.keep_text_digits,
            script_style_text: self.script_text,
        };
        RunOptions {
            sitelevel: SiteLevelOptions {
                theta: self.theta,
                min_pages: self.min_pages,
                hash,
                label: LabelOptions {
                    min_template_share: self.share,
                },
                ..SiteLevelOptions::default()
            },
            limits: self.timeout.with(self.limits.limits()),
            ..RunOptions::default()
        }
    }
}

/// What the job computes per page: the JSON line, and the gold check when asked for.
struct PageOut {
    line: Vec<u8>,
    gold: Option<Result<GoldCheck, String>>,
}

fn pct(a: u64, b: u64) -> f64 {
    if b == 0 {
        0.0
    } else {
        100.0 * a as f64 / b as f64
    }
}

fn json_line(value: &impl Serialize) -> Vec<u8> {
    let mut v = serde_json::to_vec(value).unwrap_or_default();
    v.push(b'\n');
    v
}

fn page_job(
    args: &Args,
    site_name: &str,
    p: &SitePage,
    page: &pagelevel::Page,
    labels: &[bool],
) -> PageOut {
    let (dom, warc) = (&page.dom, !args.warc.is_empty());
    let line = if args.extract {
        site::extract_line(p, dom, labels, warc)
    } else {
        site::labels_line(p, site_name, dom, labels, warc)
    };
    let gold = if args.gold {
        p.gold
            .as_ref()
            .map(|g| site::check_gold_file(dom, labels, g))
    } else {
        None
    };
    PageOut { line, gold }
}

fn groups(args: &Args) -> anyhow::Result<Vec<SiteGroup>> {
    if let Some(m) = &args.manifest {
        let manifest = Manifest::load(m, args.root.as_deref())
            .with_context(|| format!("reading manifest {}", m.display()))?;
        Ok(site::group_manifest(&manifest))
    } else if let Some(d) = &args.site_dir {
        Ok(site::group_site_dir(d)?)
    } else {
        anyhow::bail!("give --manifest or --site-dir")
    }
}

/// Runs the subcommand; returns the number of pages that failed.
pub fn run(args: Args) -> anyhow::Result<usize> {
    let options = args.options();
    ::sitelevel::min_pages_for(1, options.sitelevel.theta)?;
    let groups = if args.warc.is_empty() {
        groups(&args)?
    } else {
        Vec::new()
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    let mut all_gold = GoldTotals::default();
    let mut gold_rows = Vec::new();
    let mut io_error: Option<std::io::Error> = None;
    // Sites that came back in a WARC file after other sites (their runs are labelled apart).
    let mut seen_sites: std::collections::HashSet<String> = std::collections::HashSet::new();
    let mut split_sites = 0usize;
    let mut one_site = |g: &SiteGroup,
                        load: &(dyn Fn(usize, &SitePage) -> pagelevel::Result<pagelevel::Page>
                              + Sync)|
     -> anyhow::Result<()> {
        let mut gold = GoldTotals::default();
        let summary = site::run_site_with(
            g,
            &options,
            load,
            |p, page, labels| page_job(&args, &g.name, p, page, labels),
            |p, outcome| {
                let line = match outcome {
                    Outcome::Labelled(o) => {
                        match o.gold {
                            Some(Ok(c)) => gold.add(&c),
                            Some(Err(m)) => eprintln!("pagelevel sitelevel: {m}"),
                            None => {}
                        }
                        o.line
                    }
                    Outcome::Failed(m) => {
                        let m = crate::pipeline_args::strip_path(&p.path, &m);
                        eprintln!("pagelevel sitelevel: {}: {m}", p.path);
                        json_line(
                            &serde_json::json!({"path": p.path, "page": p.id, "site": g.name, "error": m}),
                        )
                    }
                    Outcome::Skipped(m) => json_line(
                        &serde_json::json!({"path": p.path, "page": p.id, "site": g.name, "skipped": m}),
                    ),
                };
                if io_error.is_none() {
                    if let Err(e) = out.write_all(&line) {
                        io_error = Some(e);
                    }
                }
            },
        );
        if let Some(e) = io_error.take() {
            return Err(anyhow::Error::new(e).context("writing output"));
        }
        failed += summary.failed;
        let s = &summary.stats;
        match &summary.skipped {
            Some(why) => eprintln!(
                "site {}: skipped, no labels: {why} ({} pages given, {} failed)",
                summary.name, summary.pages, summary.failed
            ),
            None => eprintln!(
                "site {}: {} pages ({} labelled, {} failed, {} distinct), {} nodes, {} template ({:.1}%), \
                 template share of the text {:.1}% of {} words, {} template hashes",
                summary.name,
                summary.pages,
                summary.labelled,
                summary.failed,
                summary.distinct_pages,
                s.nodes,
                s.template_nodes,
                pct(s.template_nodes, s.nodes),
                pct(s.template_words, s.words),
                s.words,
                summary.template_hashes
            ),
        }
        if args.gold {
            all_gold.merge(&gold);
            gold_rows.push((summary.name.clone(), s.template_nodes, gold));
        }
        Ok(())
    };
    for g in &groups {
        one_site(g, &|_, p| {
            let limits = &options.limits;
            pagelevel::Page::from_path(
                &p.file,
                &pagelevel::PageOptions {
                    url: p.url.as_deref(),
                    limits: *limits,
                    deadline: Some(&limits.deadline()),
                    ..Default::default()
                },
            )
        })?;
    }
    for path in &args.warc {
        let limits = options.limits;
        site::warc_sites(path, &limits, args.contiguous, |run| {
            if !seen_sites.insert(run.group.name.clone()) {
                split_sites += 1;
            }
            one_site(&run.group, &|k, p| run.load(k, p, &limits))
        })?;
    }
    if split_sites > 0 {
        eprintln!(
            "pagelevel sitelevel: {split_sites} site run(s) came after other sites' records and were labelled \
             apart from the site's earlier records (group a WARC's records by host for one run per site)"
        );
    }
    out.flush().context("writing output")?;
    if args.gold {
        let total_template: u64 = gold_rows.iter().map(|r| r.1).sum();
        eprintln!(
            "{:<14} {:>5} {:>9} {:>8} {:>9} {:>9} {:>10} {:>6} {:>6} {:>6}",
            "site",
            "pages",
            "tmpl-nodes",
            "gold-on",
            "gold∩T",
            "gold-lost",
            "other-in-T",
            "F1",
            "P",
            "R"
        );
        let row = |name: &str, nodes: u64, t: &GoldTotals| {
            let n = t.pages.max(1) as f64;
            eprintln!(
                "{:<14} {:>5} {:>9} {:>7.1}% {:>8.2}% {:>8.2}% {:>9.1}% {:>6.3} {:>6.3} {:>6.3}",
                name,
                t.pages,
                nodes,
                pct(t.gold_on_page, t.gold_words),
                pct(t.gold_in_template, t.gold_words),
                pct(t.gold_lost, t.gold_words),
                pct(t.other_in_template, t.other_words),
                t.f1 / n,
                t.precision / n,
                t.recall / n
            );
        };
        for (name, nodes, t) in &gold_rows {
            row(name, *nodes, t);
        }
        row("all", total_template, &all_gold);
    }
    Ok(failed)
}
