//! `pagelevel features`: one JSON object per element with its path, tag, box, features and
//! the block classifier's content share.

use std::io::Write;
use std::path::PathBuf;

use pagelevel::features::{self, FeatureOptions};
use pagelevel::Page;

/// Arguments of `pagelevel features`.
#[derive(clap::Args)]
pub struct Args {
    /// HTML pages (.html or .html.gz).
    #[arg(required = true)]
    pages: Vec<PathBuf>,
    /// The pages' URL, for the intra-site link feature.
    #[arg(long)]
    url: Option<String>,
    /// A JSON file of browser-rendered boxes keyed by node path, overriding the estimate.
    #[arg(long)]
    boxes: Option<PathBuf>,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let boxes = match &args.boxes {
        Some(p) => Some(pagelevel::geometry::read_boxes(p)?),
        None => None,
    };
    let limits = args.timeout.with(args.limits.limits());
    let summary = crate::batch::run(
        &args.pages,
        |path| crate::batch::file_size(path),
        |path| {
            let deadline = limits.deadline();
            let page = Page::from_path(
                path,
                &pagelevel::PageOptions {
                    url: args.url.as_deref(),
                    limits,
                    deadline: Some(&deadline),
                    parser: args.limits.parser_for(pagelevel::Spans::Skip),
                    ..Default::default()
                },
            )?;
            let dom = &page.dom;
            let pf = features::compute_within(
                dom,
                page.url.as_deref(),
                &FeatureOptions::default(),
                boxes.as_ref(),
                &deadline,
            )?;
            let mut out = Vec::new();
            let name = path.display().to_string();
            pagelevel::output::features::write_rows(dom, &pf, &name, &deadline, &mut out)?;
            Ok(out)
        },
        |path, e| {
            let message = crate::pipeline_args::without_path(path, e);
            eprintln!("pagelevel: {}: {message}", path.display());
            Vec::new()
        },
    )?;
    std::io::stdout().flush()?;
    Ok(summary.failed)
}
