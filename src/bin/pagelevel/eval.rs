//! `pagelevel eval`: WCXB word-F1 of the extracted text against a manifest's gold texts.

use std::collections::BTreeMap;
use std::path::PathBuf;

use pagelevel::manifest::{Entry, Manifest};
use pagelevel::metrics::{word_prf, Prf};
use pagelevel::pipeline::analyze;
use pagelevel::{Limits, Page};
use rayon::prelude::*;

use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel eval`.
#[derive(clap::Args)]
pub struct Args {
    /// Manifest with gold texts (e.g. ../shared/data/wcxb-dev/manifest.jsonl).
    #[arg(long)]
    manifest: PathBuf,
    /// Folder the manifest's paths are relative to (default: found next to the manifest).
    #[arg(long)]
    root: Option<PathBuf>,
    /// Write per-page scores as JSON Lines to this file.
    #[arg(long)]
    pages: Option<PathBuf>,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

/// One page's result.
struct Scored {
    entry: Entry,
    prf: Prf,
    error: Option<String>,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = Manifest::load(&args.manifest, args.root.as_deref())?;
    let model = args.pipeline.model()?;
    let opts = args.pipeline.options();
    let limits = Limits::default();
    let with_gold: Vec<&Entry> = m.entries.iter().filter(|e| e.gold.is_some()).collect();
    let bar = crate::batch::progress(with_gold.len());
    let scored: Vec<Scored> = with_gold
        .par_iter()
        .map(|e| {
            let gold = m.gold_path(e).map(std::fs::read_to_string).transpose();
            let r = (|| -> anyhow::Result<Prf> {
                let gold = gold?.unwrap_or_default();
                let page = Page::from_path(&m.html_path(e), e.url.as_deref(), &limits)?;
                Ok(word_prf(&analyze(page, &model, &opts).main_text(), &gold))
            })();
            bar.inc(1);
            match r {
                Ok(prf) => Scored { entry: (*e).clone(), prf, error: None },
                Err(err) => Scored {
                    entry: (*e).clone(),
                    prf: Prf::default(),
                    error: Some(format!("{err:#}")),
                },
            }
        })
        .collect();
    bar.finish_and_clear();
    if let Some(p) = &args.pages {
        let mut out = Vec::new();
        for s in &scored {
            let mut v = serde_json::json!({
                "id": s.entry.id, "html": s.entry.html, "type": s.entry.page_type,
                "precision": s.prf.precision, "recall": s.prf.recall, "f1": s.prf.f1,
            });
            if let Some(e) = &s.error {
                v["error"] = e.clone().into();
            }
            out.extend(serde_json::to_vec(&v)?);
            out.push(b'\n');
        }
        std::fs::write(p, out)?;
    }
    let failed = scored.iter().filter(|s| s.error.is_some()).count();
    println!(
        "{}: {} pages with gold, {} failed (scored 0); variant {:?}\n",
        args.manifest.display(),
        scored.len(),
        failed,
        opts.segment.variant
    );
    println!("| group | pages | P mean | R mean | F1 mean | F1 median |");
    println!("|---|---:|---:|---:|---:|---:|");
    let mut groups: BTreeMap<String, Vec<Prf>> = BTreeMap::new();
    for s in &scored {
        groups.entry("all".into()).or_default().push(s.prf);
        if let Some(t) = &s.entry.page_type {
            groups.entry(format!("type: {t}")).or_default().push(s.prf);
        }
    }
    for (g, v) in &groups {
        let mean = |f: fn(&Prf) -> f64| v.iter().map(f).sum::<f64>() / v.len().max(1) as f64;
        let mut f1: Vec<f64> = v.iter().map(|p| p.f1).collect();
        f1.sort_by(f64::total_cmp);
        let median = if f1.is_empty() { 0.0 } else { f1[f1.len() / 2] };
        println!(
            "| {g} | {} | {:.3} | {:.3} | {:.3} | {:.3} |",
            v.len(),
            mean(|p| p.precision),
            mean(|p| p.recall),
            mean(|p| p.f1),
            median
        );
    }
    Ok(failed)
}
