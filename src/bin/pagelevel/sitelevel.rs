//! `pagelevel sitelevel`: SiteLevel(θ) template labels (or the text outside templates) for the
//! pages of many sites, one JSON line per page, statistics per site on stderr.
//!
//! A site too small for SiteLevel (fewer pages than `--min-pages`) is not left without text:
//! its pages go through the PageLevel pipeline (what `extract` does) and their lines say
//! `"sitelevel": false`; the pages SiteLevel labelled say `"sitelevel": true`. Such pages are
//! gathered across sites and run in parallel a window at a time, the output staying in input
//! order.

use std::io::Write;
use std::path::PathBuf;

use ::sitelevel::{HashOptions, HrefQuery, LabelOptions, SiteLevelOptions};
use anyhow::Context;
use pagelevel::input::manifest::Manifest;
use pagelevel::input::warc::{self, Place};
use pagelevel::site::report::{self, Fallback, GoldTable, LineOptions, SiteRuns};
use pagelevel::site::{self, GoldTotals, Outcome, RunOptions, SiteGroup, SitePage};
use rayon::prelude::*;

use crate::pages::InputList;
use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel sitelevel`.
#[derive(clap::Args, Debug)]
#[command(group(clap::ArgGroup::new("input").required(true).multiple(true).args(["pages", "manifest", "site_dir", "warc", "input_list"])))]
pub struct Args {
    /// HTML pages and folders of pages (walked recursively); a page's site is the folder it is
    /// in. WARC files given here are read as with --warc.
    #[arg(value_name = "PAGE|DIR", conflicts_with_all = ["manifest", "site_dir"])]
    pages: Vec<PathBuf>,
    // Pages, folders and WARC files as PAGE|DIR, one a line (`PATH<TAB>URL`: the page's URL).
    #[command(flatten)]
    list: InputList,
    /// Manifest (JSON Lines in the ../shared/data format); pages are grouped by their `site`.
    #[arg(long, value_name = "M", conflicts_with = "input_list")]
    manifest: Option<PathBuf>,
    /// Folder the manifest's paths are relative to (default: the manifest's folder if they resolve there, else its parent).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    root: Option<PathBuf>,
    /// A folder holding one folder of pages per site (instead of --manifest).
    #[arg(long, value_name = "DIR", conflicts_with_all = ["manifest", "input_list"])]
    site_dir: Option<PathBuf>,
    /// WARC files (.warc, .warc.gz): their HTML responses, grouped into sites by the registrable
    /// domain of the target URI wherever the records are in a file (docs/warc.md).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    warc: Vec<PathBuf>,
    /// With WARC files: a site is a run of consecutive records (one streaming pass holding one
    /// run's record list), for files already written host by host. By default a first pass lists
    /// every record (id, URI, offset) and a site gathers its records from the whole file.
    #[arg(long)]
    contiguous: bool,
    /// θ: a subtree is template if it occurs on at least max(2, ⌈θ·N⌉) of a site's N pages.
    #[arg(long, default_value_t = ::sitelevel::DEFAULT_THETA)]
    theta: f64,
    /// Sites with fewer distinct pages are too small for SiteLevel: their pages get PageLevel's
    /// text or labels, marked "sitelevel": false.
    #[arg(long, default_value_t = ::sitelevel::DEFAULT_MIN_PAGES)]
    min_pages: usize,
    /// Leave the pages of sites too small for SiteLevel without text or labels (a line with
    /// "skipped" and the reason) instead of running PageLevel on them.
    #[arg(long)]
    no_fallback: bool,
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
    /// Print {"path", "page", "site", "sitelevel", "text"}: the visible text outside templates
    /// (PageLevel's main text where "sitelevel" is false), instead of labels.
    #[arg(long)]
    extract: bool,
    /// Compare with the manifest's gold texts and print per-site quality on stderr.
    #[arg(long)]
    gold: bool,
    /// The PageLevel pipeline of the pages of sites too small for SiteLevel.
    #[command(flatten)]
    pipeline: PipelineArgs,
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
            limits: self.timeout.with(self.pipeline.limits.limits()),
            parser: self.pipeline.limits.parser(),
            ..RunOptions::default()
        }
    }
}

/// The sites of the pages given by path (folders walked) and then of the input list's pages,
/// each with its URL.
fn groups(
    args: &Args,
    pages: &[PathBuf],
    listed: Vec<(PathBuf, Option<String>)>,
) -> anyhow::Result<Vec<SiteGroup>> {
    if let Some(m) = &args.manifest {
        let manifest = Manifest::load(m, args.root.as_deref())
            .with_context(|| format!("reading manifest {}", m.display()))?;
        Ok(site::group_manifest(&manifest))
    } else if let Some(d) = &args.site_dir {
        Ok(site::group_site_dir(d)?)
    } else {
        let given = site::page_files(pages)?.into_iter().map(|f| (f, None));
        Ok(site::group_files(given.chain(listed)))
    }
}

/// A page waiting for its line: the PageLevel fallback of a site too small for SiteLevel, or
/// the error of a page of such a site that failed already.
struct Pending {
    site: String,
    page: SitePage,
    place: Option<Place>,
    failed: Option<String>,
}

/// Where the lines go, and what was counted on the way.
struct Output<W: Write> {
    out: W,
    lines: LineOptions,
    /// Pages that failed.
    failed: usize,
    /// Pages with SiteLevel's labels or text.
    by_sitelevel: usize,
    /// Pages with PageLevel's (sites too small).
    by_pagelevel: usize,
    /// Pages left without (`--no-fallback`).
    skipped: usize,
    /// Fallback pages waiting, in input order.
    pending: Vec<Pending>,
}

impl<W: Write> Output<W> {
    fn write(&mut self, line: &[u8]) -> anyhow::Result<()> {
        self.out.write_all(line).context("writing output")
    }

    /// Writes the line of a page's outcome, counting it; its warning goes to stderr.
    fn outcome(
        &mut self,
        p: &SitePage,
        site: &str,
        outcome: Outcome<report::PageOut>,
        gold: &mut GoldTotals,
    ) -> anyhow::Result<()> {
        match &outcome {
            Outcome::Labelled(_) => self.by_sitelevel += 1,
            Outcome::Failed(_) => {}
            Outcome::Skipped(_) => self.skipped += 1,
        }
        let (line, warning) = report::outcome_line(p, site, outcome, gold);
        if let Some(w) = warning {
            eprintln!("pagelevel sitelevel: {w}");
        }
        self.write(&line)
    }

    /// Runs PageLevel on the pending pages (in parallel) and writes their lines in order.
    fn flush(&mut self, fallback: &Fallback) -> anyhow::Result<()> {
        let pending = std::mem::take(&mut self.pending);
        let lines = &self.lines;
        let done: Vec<Result<Vec<u8>, String>> = pending
            .par_iter()
            .map(|w| match &w.failed {
                Some(m) => Err(m.clone()),
                None => fallback.line(&w.page, w.place, &w.site, lines),
            })
            .collect();
        for (w, r) in pending.iter().zip(done) {
            match r {
                Ok(line) => {
                    self.by_pagelevel += 1;
                    self.write(&line)?;
                }
                Err(m) => {
                    self.failed += 1;
                    let mut unused = GoldTotals::default();
                    self.outcome(&w.page, &w.site, Outcome::Failed(m), &mut unused)?;
                }
            }
        }
        Ok(())
    }
}

/// Runs the subcommand; returns the number of pages that failed.
pub fn run(args: Args) -> anyhow::Result<usize> {
    let options = args.options();
    ::sitelevel::min_pages_for(1, options.sitelevel.theta)?;
    let model = args.pipeline.model()?;
    let pipeline = args.pipeline.options();
    let fallback = Fallback {
        model: &model,
        options: &pipeline,
        limits: options.limits,
    };
    let (warcs, pages): (Vec<PathBuf>, Vec<PathBuf>) =
        args.pages.iter().cloned().partition(|p| warc::is_warc(p));
    let mut warcs: Vec<PathBuf> = args.warc.iter().cloned().chain(warcs).collect();
    // The input list is read as the page commands read it; its WARC files join --warc's, its
    // pages those given by path, and a bad line is reported as that input's failure.
    let mut problems = Vec::new();
    let mut listed = Vec::new();
    for i in args.list.listed()? {
        match i.problem {
            Some(p) => problems.push((i.path, p)),
            None if warc::is_warc(&i.path) => warcs.push(i.path),
            None => listed.push((i.path, i.url)),
        }
    }
    let by_path = !pages.is_empty() || !listed.is_empty();
    let groups = if args.manifest.is_some() || args.site_dir.is_some() || by_path {
        groups(&args, &pages, listed)?
    } else {
        Vec::new()
    };
    let stdout = std::io::stdout();
    let mut out = Output {
        out: std::io::BufWriter::new(stdout.lock()),
        lines: LineOptions {
            extract: args.extract,
            warc: false,
            gold: args.gold,
        },
        failed: 0,
        by_sitelevel: 0,
        by_pagelevel: 0,
        skipped: 0,
        pending: Vec::new(),
    };
    for (path, problem) in problems {
        eprintln!("pagelevel sitelevel: {}: {problem}", path.display());
        let path = path.to_string_lossy();
        out.write(&crate::extract::line(
            &serde_json::json!({"path": path, "error": problem}),
        )?)?;
        out.failed += 1;
    }
    let with_fallback = !args.no_fallback;
    let min_pages = options.sitelevel.min_pages;
    let window = options.window.max(1);
    let mut table = GoldTable::default();
    let mut runs = SiteRuns::default();
    let mut one_site = |out: &mut Output<_>,
                        g: &SiteGroup,
                        places: Option<&[Place]>,
                        load: &(dyn Fn(usize, &SitePage) -> pagelevel::Result<pagelevel::Page>
                              + Sync)|
     -> anyhow::Result<()> {
        let place = |k: usize| places.map(|p| p[k]);
        if with_fallback && g.pages.len() < min_pages {
            // Too few pages for SiteLevel whatever they hold: no hashing pass.
            eprintln!(
                "site {}: {} page(s), SiteLevel needs at least {min_pages}: PageLevel text",
                g.name,
                g.pages.len()
            );
            for (k, p) in g.pages.iter().enumerate() {
                out.pending.push(Pending {
                    site: g.name.clone(),
                    page: p.clone(),
                    place: place(k),
                    failed: None,
                });
            }
            if out.pending.len() >= window {
                out.flush(&fallback)?;
            }
            return Ok(());
        }
        out.flush(&fallback)?;
        let lines = out.lines;
        let mut gold = GoldTotals::default();
        let mut result = Ok(());
        // Refused sites (fewer distinct pages than needed) hold their pages for the fallback.
        let mut held: Vec<(usize, Outcome<report::PageOut>)> = Vec::new();
        let mut k = 0;
        let summary = site::run_site_with(
            g,
            &options,
            load,
            |p, page, labels| report::page_out(p, &g.name, page, labels, &lines),
            |p, outcome| {
                let i = k;
                k += 1;
                if with_fallback && (matches!(outcome, Outcome::Skipped(_)) || !held.is_empty()) {
                    held.push((i, outcome));
                } else if result.is_ok() {
                    result = out.outcome(p, &g.name, outcome, &mut gold);
                }
            },
        );
        result?;
        out.failed += summary.failed;
        if held.is_empty() {
            eprintln!("{}", report::site_line(&summary));
        } else {
            eprintln!(
                "site {}: {}: PageLevel text",
                g.name,
                summary.skipped.as_deref().unwrap_or("not labelled")
            );
            // The failures are counted in the summary already; the flush counts them again.
            out.failed -= held
                .iter()
                .filter(|(_, o)| matches!(o, Outcome::Failed(_)))
                .count();
            for (i, o) in held {
                out.pending.push(Pending {
                    site: g.name.clone(),
                    page: g.pages[i].clone(),
                    place: place(i),
                    failed: match o {
                        Outcome::Failed(m) => Some(m),
                        _ => None,
                    },
                });
            }
            out.flush(&fallback)?;
        }
        if args.gold && summary.skipped.is_none() {
            table.add(&summary, gold);
        }
        Ok(())
    };
    for g in &groups {
        one_site(&mut out, g, None, &|_, p| {
            site::load(p, &options.limits, options.parser)
        })?;
    }
    out.flush(&fallback)?;
    for path in &warcs {
        let (limits, parser) = (options.limits, options.parser);
        out.lines.warc = true;
        site::warc_sites(path, &limits, args.contiguous, |run| {
            runs.add(&run.group.name);
            one_site(&mut out, &run.group, Some(&run.places), &|k, p| {
                run.load(k, p, &limits, parser)
            })
        })?;
        out.flush(&fallback)?;
    }
    if let Some(w) = runs.warning() {
        eprintln!("pagelevel sitelevel: {w}");
    }
    out.out.flush().context("writing output")?;
    eprintln!(
        "pagelevel sitelevel: {} page(s) by SiteLevel, {} by PageLevel (sites too small), {} \
         without text (--no-fallback), {} failed",
        out.by_sitelevel, out.by_pagelevel, out.skipped, out.failed
    );
    if args.gold {
        eprint!("{table}");
    }
    Ok(out.failed)
}
