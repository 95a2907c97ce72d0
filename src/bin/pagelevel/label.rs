//! `pagelevel label`: the gold-alignment labels that `train` learns from, written as a data
//! set (JSON Lines, one object per node; see docs/label.md).

use std::path::PathBuf;

use pagelevel::align::align;
use pagelevel::features::{self, FeatureOptions, NAMES};
use pagelevel::manifest::{Entry, Manifest};
use pagelevel::train::{gold_label, sample_nodes};
use pagelevel::{Limits, Page};

use crate::extract::line;

/// Arguments of `pagelevel label`.
#[derive(clap::Args)]
#[command(after_help = "\
One JSON object per line and node, pages in manifest order, nodes in document order:
  {\"page\", \"path\", \"tag\", \"words\", \"aligned\", \"share\", \"template\", \"features\"}
The nodes are those train samples from (visible elements of <body> with an estimated area of
at least 2,000 px²), all of them (train keeps at most 250 per page). \"words\" are the node's
visible words, \"aligned\" those aligned with the gold text, \"share\" = aligned / words (null
without words), \"template\" = share < 0.5 (train's gold label, null without words),
\"features\" the feature row by name. Entries without gold text are skipped (counted on
stderr); a page that cannot be read is reported on stderr and the others go on.
See docs/label.md.")]
pub struct Args {
    /// Manifest with gold texts (e.g. ../shared/data/wcxb-dev/manifest.jsonl).
    #[arg(long)]
    manifest: PathBuf,
    /// Folder the manifest's paths are relative to (default: found next to the manifest).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Write the labels to this file instead of stdout.
    #[arg(short, long)]
    out: Option<PathBuf>,
}

/// The label lines of one page.
fn page_lines(m: &Manifest, e: &Entry) -> anyhow::Result<Vec<u8>> {
    let gold_path = m
        .gold_path(e)
        .ok_or_else(|| anyhow::anyhow!("no gold text"))?;
    let gold = std::fs::read_to_string(&gold_path)
        .map_err(|err| anyhow::anyhow!("{}: {err}", gold_path.display()))?;
    let page = Page::from_path(&m.html_path(e), e.url.as_deref(), &Limits::default())?;
    let dom = &page.dom;
    let pf = features::compute(dom, page.url.as_deref(), &FeatureOptions::default());
    let a = align(dom, &pf.visible, &gold);
    let mut out = Vec::new();
    for i in sample_nodes(&page, &pf) {
        let share = a.share(i);
        let feats: serde_json::Map<String, serde_json::Value> = NAMES
            .iter()
            .zip(pf.matrix.row(i))
            .map(|(name, &v)| (name.to_string(), serde_json::json!(v)))
            .collect();
        out.extend(line(&serde_json::json!({
            "page": e.id,
            "path": dom.path(i),
            "tag": dom.tag_name(i),
            "words": a.words[i],
            "aligned": a.aligned[i],
            // In f64 so that 29/40 prints as 0.725, not as the f32 nearest it.
            "share": share.map(|_| a.aligned[i] as f64 / a.words[i] as f64),
            "template": share.map(gold_label),
            "features": feats,
        }))?);
    }
    Ok(out)
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = Manifest::load(&args.manifest, args.root.as_deref())?;
    let with_gold: Vec<&Entry> = m.entries.iter().filter(|e| e.gold.is_some()).collect();
    let skipped = m.entries.len() - with_gold.len();
    if skipped > 0 {
        eprintln!("label: {skipped} entries without gold text skipped");
    }
    let job = |e: &&Entry| page_lines(&m, e);
    let on_error = |e: &&Entry, err: &anyhow::Error| {
        eprintln!("label: {}: {err:#}", e.html);
        Vec::new()
    };
    let summary = match &args.out {
        Some(path) => {
            let file = std::fs::File::create(path)
                .map_err(|err| anyhow::anyhow!("{}: {err}", path.display()))?;
            crate::batch::run_into(file, &with_gold, job, on_error)?
        }
        None => crate::batch::run(&with_gold, job, on_error)?,
    };
    Ok(summary.failed)
}
