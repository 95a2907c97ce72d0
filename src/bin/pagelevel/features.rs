//! `pagelevel features`: per-element geometry, features and block content share.

use std::path::PathBuf;

/// Arguments of `pagelevel features`.
#[derive(clap::Args)]
pub struct Args {
    /// HTML pages (.html or .html.gz).
    #[arg(required = true)]
    pages: Vec<PathBuf>,
    /// The pages' URL, for intra-site link features.
    #[arg(long)]
    url: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let _ = (&args.pages, &args.url);
    Ok(0)
}
