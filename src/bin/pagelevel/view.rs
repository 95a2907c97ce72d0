//! `pagelevel view`: one page as a self-contained HTML file with its segments outlined.

use std::path::PathBuf;

use anyhow::Context as _;
use pagelevel::output::view::{render, ViewOptions};
use pagelevel::pipeline::analyze_within;
use pagelevel::Page;

use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel view`.
#[derive(clap::Args)]
pub struct Args {
    /// The HTML page (.html or .html.gz); not a WARC file (extract its records instead).
    page: PathBuf,
    /// Where to write the view (an inert HTML file: no script, no navigation, no loads).
    #[arg(short = 'o', long = "output")]
    output: PathBuf,
    /// The page's URL (for the intra-site link feature and the URL's shape: thread, date, slug, depth).
    #[arg(long)]
    url: Option<String>,
    /// Also draw each segment's estimated box (what the classifier saw) as a dashed layer.
    #[arg(long)]
    boxes_overlay: bool,
    /// Drop the page's own style sheets and style attributes.
    #[arg(long)]
    no_page_styles: bool,
    /// Let the page load http(s) images, style sheets and fonts (never scripts, frames or
    /// navigation).
    #[arg(long)]
    allow_remote: bool,
    #[command(flatten)]
    pipeline: PipelineArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    refuse_warc(&args.page)?;
    let model = args.pipeline.model()?;
    let opts = args.pipeline.options();
    let limits = args.timeout.with(args.pipeline.limits.limits());
    let deadline = limits.deadline();
    let page = match Page::from_path(
        &args.page,
        &pagelevel::PageOptions {
            url: args.url.as_deref(),
            limits,
            deadline: Some(&deadline),
            spans: pagelevel::Spans::Keep,
            parser: args.pipeline.limits.parser(),
            ..Default::default()
        },
    ) {
        Ok(p) => p,
        // The read error already names the path.
        Err(e @ pagelevel::Error::Io { .. }) => return Err(e.into()),
        Err(e) => return Err(anyhow::Error::new(e).context(args.page.display().to_string())),
    };
    let analysis = analyze_within(page, &model, &opts, &deadline)
        .with_context(|| args.page.display().to_string())?;
    let view = ViewOptions {
        label: args.page.display().to_string(),
        variant: opts.segment.variant,
        threshold: analysis.segmentation.threshold,
        boxes_overlay: args.boxes_overlay,
        page_styles: !args.no_page_styles,
        allow_remote: args.allow_remote,
    };
    let html = render(&analysis, &view).with_context(|| args.page.display().to_string())?;
    std::fs::write(&args.output, html)
        .with_context(|| format!("{}: cannot write", args.output.display()))?;
    let segs = &analysis.segmentation.segments;
    eprintln!(
        "{}: {} segments ({} template) -> {}",
        args.page.display(),
        segs.len(),
        segs.iter().filter(|s| s.template).count(),
        args.output.display()
    );
    Ok(0)
}

/// An error when `page` is a WARC file (by its name, or a regular file by its first bytes):
/// `view` draws one page, and a crawl would be parsed as one huge page.
fn refuse_warc(page: &std::path::Path) -> anyhow::Result<()> {
    let name = page.to_string_lossy().to_ascii_lowercase();
    let named = name.ends_with(".warc") || name.ends_with(".warc.gz");
    let regular = std::fs::metadata(page).is_ok_and(|m| m.is_file());
    if named || (regular && pagelevel::input::warc::is_warc(page)) {
        anyhow::bail!(
            "{}: a WARC file: `view` draws one HTML page (`extract` and `segment` read WARC records)",
            page.display()
        );
    }
    Ok(())
}
