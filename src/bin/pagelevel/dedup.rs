//! `pagelevel dedup`: near-duplicate pages by the paper's shingling ([`pagelevel::dedup`]) over
//! one of three texts of each page: all its visible text, the SiteLevel baseline text or the
//! PageLevel main text. Prints one JSON line per duplicate pair (or per page with `--sketches`,
//! per cluster of near-duplicates with `--clusters`, per page to keep with `--keep-first`), or
//! with `--evaluate` measures the three texts on pairs whose gold texts say whether they are
//! duplicates (the paper's Table 2).
//!
//! Every page's sketch is computed in parallel (its text dropped once sketched) and gathered in
//! input order, pairs are sorted and clusters are connected components listed in input order,
//! so the output is the same for any `-j`.

use std::io::Write;
use std::path::PathBuf;

use pagelevel::dedup;
use pagelevel::dedup::lines::Report;
use pagelevel::dedup::texts::{Inputs, Mode, Source, Texts, MODES};

use crate::extract::line;
use crate::pages::InputList;
use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel dedup`.
#[derive(clap::Args)]
pub struct Args {
    /// HTML pages (.html or .html.gz), WARC files (.warc, .warc.gz: their HTML responses) and
    /// folders (walked as `extract` walks them); instead, give --manifest or --site-dir.
    #[arg(conflicts_with_all = ["manifest", "site_dir"], required_unless_present_any = ["manifest", "site_dir", "input_list"])]
    pages: Vec<PathBuf>,
    #[command(flatten)]
    list: InputList,
    /// Which text is shingled: all visible text, the SiteLevel text or the PageLevel main text.
    #[arg(long, value_enum, default_value_t = Mode::Pagelevel)]
    mode: Mode,
    /// Manifest(s) in the ../shared/data format; pages are grouped by site within each manifest.
    #[arg(long, value_name = "M", num_args = 1.., conflicts_with_all = ["site_dir", "input_list"])]
    manifest: Vec<PathBuf>,
    /// Folder the manifests' paths are relative to (default: found next to each manifest).
    #[arg(long, value_name = "DIR", requires = "manifest")]
    root: Option<PathBuf>,
    /// A folder holding one folder of pages per site (instead of --manifest or PAGE...).
    #[arg(long, value_name = "DIR", conflicts_with = "input_list")]
    site_dir: Option<PathBuf>,
    /// The pages' URL (for the intra-site link feature and the URL's shape), for PAGE... and listed pages without
    /// their own.
    #[arg(long)]
    url: Option<String>,
    /// Print one line per page with its sketch, {"path", "words", "sketch"}, instead of pairs.
    #[arg(long, conflicts_with_all = ["evaluate", "clusters", "keep_first"])]
    sketches: bool,
    /// Print each cluster of near-duplicates once (connected through pairs), {"cluster",
    /// "size", "members"}: its pages in input order, the first to keep.
    #[arg(long, conflicts_with_all = ["evaluate", "keep_first"])]
    clusters: bool,
    /// Print only the pages to keep, {"path", "duplicates"} (and the record id and URL of WARC
    /// records): the first page of each cluster and every page with no duplicate.
    #[arg(long, conflicts_with = "evaluate")]
    keep_first: bool,
    /// Measure all three modes on pairs labelled by the manifests' gold texts; print a table.
    #[arg(long, requires = "manifest")]
    evaluate: bool,
    /// With --evaluate: cross-site pairs drawn at random (seeded) as further non-duplicates.
    #[arg(long, default_value_t = 2000, requires = "evaluate")]
    sample: usize,
    #[command(flatten)]
    pipeline: PipelineArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let ctx = Texts {
        model: args.pipeline.model()?,
        opts: args.pipeline.options(),
        limits: args.timeout.with(args.pipeline.limits.limits()),
    };
    // Pages by path go through the page commands' input code: folders walked, the list read;
    // a bad line of the list is reported as its input's failure and the run goes on.
    let files = if args.site_dir.is_none() && args.manifest.is_empty() {
        args.list.inputs(&args.pages)?
    } else {
        Vec::new()
    };
    let mut failed = 0;
    for i in &files {
        if let Some(p) = &i.problem {
            eprintln!("pagelevel: {}: {p}", i.path.display());
            failed += 1;
        }
    }
    let source = if let Some(dir) = &args.site_dir {
        Source::SiteDir(dir)
    } else if !args.manifest.is_empty() {
        Source::Manifests {
            paths: &args.manifest,
            root: args.root.as_deref(),
        }
    } else {
        Source::Files {
            inputs: &files,
            url: args.url.as_deref(),
        }
    };
    let inputs = Inputs::load(source)?;
    if args.evaluate {
        return Ok(failed + evaluate(&args, &ctx, &inputs)?);
    }
    let report = if args.sketches {
        Report::Sketches
    } else if args.clusters {
        Report::Clusters
    } else if args.keep_first {
        Report::KeepFirst
    } else {
        Report::Pairs
    };
    let bar = crate::batch::progress(inputs.pages.len());
    let sketches = ctx.sketches(&inputs, args.mode, &|k| bar.inc(k));
    bar.finish_and_clear();
    let lines = dedup::lines::lines(&inputs, sketches?, report);
    for e in lines.notes.iter().chain(&lines.errors) {
        eprintln!("pagelevel: {e}");
    }
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for l in &lines.lines {
        out.write_all(&line(l)?)?;
    }
    out.flush()?;
    Ok(failed + lines.errors.len())
}

/// Measures the three modes on gold-labelled pairs; prints Markdown tables on stdout.
fn evaluate(args: &Args, ctx: &Texts, inputs: &Inputs) -> anyhow::Result<usize> {
    let bar = crate::batch::progress(2 * inputs.pages.len());
    let ev = dedup::evaluate::evaluate(ctx, inputs, &args.manifest, args.sample, &|k| bar.inc(k));
    bar.finish_and_clear();
    let ev = ev?;
    for n in &ev.notes {
        eprintln!("pagelevel: {n}");
    }
    for e in ev.error_lines(inputs) {
        eprintln!("pagelevel: {e}");
    }
    let failed = ev.errors.len();
    let names: Vec<String> = args
        .manifest
        .iter()
        .map(|m| m.display().to_string())
        .collect();
    println!("Manifests: {}", names.join(", "));
    println!(
        "Ground truth: exact 6-word shingle resemblance r of the gold texts; duplicate when r ≥ {}, \
         non-duplicate when r < {}, dropped otherwise or when a gold text has fewer than {} words.",
        dedup::TRUTH_DUPLICATE,
        dedup::TRUTH_DISTINCT,
        dedup::TRUTH_MIN_WORDS
    );
    println!(
        "Pages judged only when their gold text has at least {} words and at least {:.0}% of its shingles \
         occur in the page's full text; {} page(s) failed; gold not on the page ({}): {}.",
        dedup::TRUTH_MIN_WORDS,
        dedup::TRUTH_MIN_COVERAGE * 100.0,
        failed,
        ev.off_page.len(),
        ev.off_page.join(", ")
    );
    println!(
        "Candidates: {} pairs; judged {}; dropped {} (ambiguous resemblance, or a page not judged).\n",
        ev.candidates,
        ev.judged(),
        ev.ambiguous
    );
    println!("| pairs | count | full text | SiteLevel | PageLevel |");
    println!("|---|---:|---:|---:|---:|");
    let row = |label: &str, c: &dedup::evaluate::Cell| {
        println!(
            "| {label} | {} | {} | {} | {} |",
            c.pairs, c.right[0], c.right[1], c.right[2]
        );
    };
    row("**duplicates** (found)", &ev.total[1]);
    row("**non-duplicates** (not flagged)", &ev.total[0]);
    println!("\nBy kind of pair:\n");
    println!("| kind | truth | count | full text | SiteLevel | PageLevel |");
    println!("|---|---|---:|---:|---:|---:|");
    for ((k, dup), c) in &ev.by_kind {
        println!(
            "| {} | {} | {} | {} | {} | {} |",
            k.name(),
            if *dup { "duplicate" } else { "non-duplicate" },
            c.pairs,
            c.right[0],
            c.right[1],
            c.right[2]
        );
    }
    println!("\nDuplicate pairs (matching hashes of 8 per mode):\n");
    println!("| a | b | kind | gold r | full | SiteLevel | PageLevel |");
    println!("|---|---|---|---:|---:|---:|---:|");
    for p in &ev.duplicates {
        let m = p.matches;
        println!(
            "| {} | {} | {} | {:.2} | {} | {} | {} |",
            p.a,
            p.b,
            p.kind.name(),
            p.gold_r,
            m[0],
            m[1],
            m[2]
        );
    }
    for (x, mode) in MODES.iter().enumerate() {
        let fpx = &ev.false_positives[x];
        println!(
            "\nNon-duplicates flagged by {mode:?} ({}){}",
            fpx.len(),
            if fpx.is_empty() { "" } else { ":" }
        );
        for p in fpx.iter().take(15) {
            println!(
                "- {} ~ {} ({}, gold r = {:.2}, {}/8)",
                p.a,
                p.b,
                p.kind.name(),
                p.gold_r,
                p.matches[x]
            );
        }
        if fpx.len() > 15 {
            println!("- … and {} more", fpx.len() - 15);
        }
    }
    Ok(failed)
}
