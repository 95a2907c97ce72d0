//! `pagelevel train`: fits the per-area-bucket classifiers on SiteLevel labels and writes the
//! model JSON. Deterministic: the same data give the same file.

use std::path::PathBuf;

use pagelevel::site::RunOptions;
use pagelevel::train::{collect, train, TrainOptions};

/// Arguments of `pagelevel train`.
#[derive(clap::Args)]
pub struct Args {
    /// The data folder holding `<set>/manifest.jsonl`.
    #[arg(long, default_value = "../shared/data")]
    data: PathBuf,
    /// Sets whose multi-page sites give SiteLevel labels.
    #[arg(long, value_delimiter = ',', default_value = "sites,wcxb-dev,l3s-gn1,chaos")]
    sets: Vec<String>,
    /// Where to write the model.
    #[arg(long, short, default_value = "data/model.json")]
    out: PathBuf,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let manifests: Vec<PathBuf> =
        args.sets.iter().map(|s| args.data.join(s).join("manifest.jsonl")).collect();
    let opts = TrainOptions {
        manifests,
        run: RunOptions::default(),
    };
    let samples = collect(&opts)?;
    let sites: std::collections::BTreeSet<&str> = samples.iter().map(|s| s.site.as_str()).collect();
    eprintln!("train: {} samples from {} sites", samples.len(), sites.len());
    let provenance = format!(
        "pagelevel train --data <data> --sets {} (SiteLevel θ=0.1 labels, word-share > 1/2; validation: 1 site in {} by name hash)",
        args.sets.join(","),
        pagelevel::train::VALIDATION_EVERY
    );
    let (model, report) = train(&samples, provenance)?;
    println!("| bucket | area px² | train samples (template share) | validation samples (template share) | val accuracy | val AUC |");
    println!("|---|---|---:|---:|---:|---:|");
    for r in &report {
        println!(
            "| {} | {:.0} – {:.0} | {} ({:.2}) | {} ({:.2}) | {:.3} | {:.3} |",
            r.bucket, r.range.0, r.range.1, r.train.0, r.train.1, r.val.0, r.val.1, r.accuracy, r.auc
        );
    }
    let mut json = serde_json::to_string_pretty(&model)?;
    json.push('\n');
    std::fs::write(&args.out, json)?;
    eprintln!("train: wrote {}", args.out.display());
    Ok(0)
}
