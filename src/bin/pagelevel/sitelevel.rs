//! `pagelevel sitelevel`: SiteLevel(θ) template labels (or the text outside templates) for the
//! pages of many sites, one JSON line per page, statistics per site on stderr.

use std::io::Write;
use std::path::PathBuf;

use ::sitelevel::{HashOptions, HrefQuery, LabelOptions, SiteLevelOptions};
use anyhow::Context;
use pagelevel::input::manifest::Manifest;
use pagelevel::site::report::{self, GoldTable, LineOptions, SiteRuns};
use pagelevel::site::{self, GoldTotals, RunOptions, SiteGroup, SitePage};

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
            parser: self.limits.parser_for(pagelevel::Spans::Skip),
            ..RunOptions::default()
        }
    }
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
    let lines = LineOptions {
        extract: args.extract,
        warc: !args.warc.is_empty(),
        gold: args.gold,
    };
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    let mut table = GoldTable::default();
    let mut io_error: Option<std::io::Error> = None;
    let mut runs = SiteRuns::default();
    let mut one_site = |g: &SiteGroup,
                        load: &(dyn Fn(usize, &SitePage) -> pagelevel::Result<pagelevel::Page>
                              + Sync)|
     -> anyhow::Result<()> {
        let mut gold = GoldTotals::default();
        let summary = site::run_site_with(
            g,
            &options,
            load,
            |p, page, labels| report::page_out(p, &g.name, page, labels, &lines),
            |p, outcome| {
                let (line, warning) = report::outcome_line(p, &g.name, outcome, &mut gold);
                if let Some(w) = warning {
                    eprintln!("pagelevel sitelevel: {w}");
                }
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
        eprintln!("{}", report::site_line(&summary));
        if args.gold {
            table.add(&summary, gold);
        }
        Ok(())
    };
    for g in &groups {
        one_site(g, &|_, p| site::load(p, &options.limits, options.parser))?;
    }
    for path in &args.warc {
        let (limits, parser) = (options.limits, options.parser);
        site::warc_sites(path, &limits, args.contiguous, |run| {
            runs.add(&run.group.name);
            one_site(&run.group, &|k, p| run.load(k, p, &limits, parser))
        })?;
    }
    if let Some(w) = runs.warning() {
        eprintln!("pagelevel sitelevel: {w}");
    }
    out.flush().context("writing output")?;
    if args.gold {
        eprint!("{table}");
    }
    Ok(failed)
}
