//! `pagelevel train`: fits the node classifier (boosted trees or per-area-bucket regressions)
//! and writes the model JSON;
//! `--cv` also reports out-of-fold word-F1 (folds by site). Deterministic.

use std::collections::BTreeMap;

use clap::ValueEnum;
use std::path::PathBuf;

use pagelevel::boost::BoostParams;
use pagelevel::pipeline::Options;
use pagelevel::segment::Variant;
use pagelevel::site::RunOptions;
use pagelevel::train::{
    collect, cross_validate, fit, validate, Classifier, FeatureSet, FitOptions, LabelSource,
    TrainOptions,
};

use crate::pipeline_args::PipelineArgs;

/// Arguments of `pagelevel train`.
#[derive(clap::Args)]
pub struct Args {
    /// The data folder holding `<set>/manifest.jsonl`.
    #[arg(long, default_value = "../shared/data")]
    data: PathBuf,
    /// Sets whose pages give samples.
    #[arg(
        long,
        value_delimiter = ',',
        default_value = "sites,wcxb-dev,l3s-gn1,chaos,readability,cleaneval-dev"
    )]
    sets: Vec<String>,
    /// Label source: sitelevel (the paper), gold (aligned gold text) or both.
    #[arg(long, value_enum, default_value_t = LabelSource::Both)]
    labels: LabelSource,
    /// Feature set: paper (the paper's and boilerpipe's) or all.
    #[arg(long, value_enum, default_value_t = FeatureSet::All)]
    features: FeatureSet,
    /// Classifier: lr (the paper's per-area-bucket logistic regressions) or boost (gradient-boosted trees).
    #[arg(long, value_enum, default_value_t = Classifier::Boost)]
    classifier: Classifier,
    /// Boosting: number of trees.
    #[arg(long, default_value_t = BoostParams::default().trees)]
    trees: usize,
    /// Boosting: depth of every tree.
    #[arg(long, default_value_t = BoostParams::default().depth)]
    depth: u32,
    /// Boosting: shrinkage per tree.
    #[arg(long, default_value_t = BoostParams::default().learning_rate)]
    learning_rate: f32,
    /// Boosting: share of the samples each tree sees.
    #[arg(long, default_value_t = BoostParams::default().subsample)]
    subsample: f64,
    /// Where to write the model (trained on all pages).
    #[arg(long, short, default_value = "data/model.json")]
    out: PathBuf,
    /// Also report out-of-fold word-F1 per set (and per page type), folds by site.
    #[arg(long)]
    cv: bool,
    /// With --cv: also score these decoding variants with the same fold models and print a
    /// table of mean word-F1 per set, one column per variant (and per --cv-switch-penalties λ
    /// for the Viterbi variants); --variant stays the first column.
    #[arg(long, value_enum, value_delimiter = ',')]
    cv_variants: Vec<Variant>,
    /// With --cv-variants: the switch penalties λ the Viterbi variants are run with (default:
    /// --switch-penalty).
    #[arg(long, value_delimiter = ',')]
    cv_switch_penalties: Vec<f64>,
    /// With --cv: also write each page's out-of-fold P/R/F1 as JSON Lines to this file.
    #[arg(long)]
    pages: Option<PathBuf>,
    /// Write nothing; only report.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let manifests: Vec<PathBuf> = args
        .sets
        .iter()
        .map(|s| args.data.join(s).join("manifest.jsonl"))
        .collect();
    let opts = TrainOptions {
        manifests,
        run: RunOptions::default(),
        labels: args.labels,
        features: args.features,
    };
    let fo = FitOptions {
        labels: args.labels,
        features: args.features,
        classifier: args.classifier,
        boost: BoostParams {
            trees: args.trees,
            depth: args.depth,
            learning_rate: args.learning_rate,
            subsample: args.subsample,
            ..BoostParams::default()
        },
    };
    let records = collect(&opts)?;
    let samples: usize = records.iter().map(|r| r.samples.len()).sum();
    let sites: std::collections::BTreeSet<&str> = records.iter().map(|r| r.site.as_str()).collect();
    eprintln!(
        "train: {} pages, {samples} samples, {} sites",
        records.len(),
        sites.len()
    );

    let held = fit(&records, |r| r.fold() != 0, &fo, String::new())?;
    let report = validate(&held, &records, |r| r.fold() == 0, args.labels);
    println!("Per-bucket validation (trained on folds 1-4, validated on fold 0's sites):\n");
    println!("| bucket | area px² | train samples (balanced) | validation samples (template share) | accuracy | AUC |");
    println!("|---|---|---:|---:|---:|---:|");
    for r in &report {
        // The boosted model is one model over all buckets: no per-bucket training set.
        let train = match r.train.0 {
            0 => "– (boosted: one model)".to_string(),
            n => n.to_string(),
        };
        println!(
            "| {} | {:.0} – {:.0} | {train} | {} ({:.2}) | {:.3} | {:.3} |",
            r.bucket, r.range.0, r.range.1, r.val.0, r.val.1, r.accuracy, r.auc
        );
    }
    if args.cv {
        let columns = cv_columns(&args);
        let opts: Vec<Options> = columns.iter().map(|c| c.1.clone()).collect();
        let all = cross_validate(&records, &fo, &opts, &args.pipeline.limits.limits())?;
        let scored = &all[0];
        if let Some(path) = &args.pages {
            let mut out = String::new();
            for (k, (i, prf)) in scored.iter().enumerate() {
                let e = &records[*i].entry;
                let mut line = serde_json::json!({
                    "id": e.id, "set": e.set, "site": records[*i].site, "type": e.page_type,
                    "html": e.html, "fold": records[*i].fold(), "precision": prf.precision, "recall": prf.recall, "f1": prf.f1,
                });
                // Every variant scores the same pages (same fold split, same readable pages).
                if columns.len() > 1 {
                    let by: serde_json::Map<String, serde_json::Value> = columns
                        .iter()
                        .zip(&all)
                        .map(|(c, s)| (c.0.clone(), s[k].1.f1.into()))
                        .collect();
                    line["f1_by_variant"] = by.into();
                }
                out += &line.to_string();
                out.push('\n');
            }
            std::fs::write(path, out)?;
        }
        let groups = by_group(&records, scored);
        println!(
            "\nOut-of-fold word-F1 ({} folds by site; labels {:?}, features {:?}, classifier {:?}, variant {:?}):\n",
            pagelevel::train::FOLDS,
            args.labels,
            args.features,
            args.classifier,
            args.pipeline.variant
        );
        println!("| set | pages | mean F1 | median F1 |");
        println!("|---|---:|---:|---:|");
        for (g, mut v) in groups {
            v.sort_by(f64::total_cmp);
            let mean = v.iter().sum::<f64>() / v.len() as f64;
            println!(
                "| {g} | {} | {:.3} | {:.3} |",
                v.len(),
                mean,
                v[v.len() / 2]
            );
        }
        if columns.len() > 1 {
            println!("\nOut-of-fold mean word-F1 per decoding variant (same fold models, 4 decimals to compare them):\n");
            let names: Vec<&str> = columns.iter().map(|c| c.0.as_str()).collect();
            println!("| set | pages | {} |", names.join(" | "));
            println!("|---|---:|{}", "---:|".repeat(names.len()));
            let tables: Vec<_> = all.iter().map(|s| by_group(&records, s)).collect();
            for (g, v) in &tables[0] {
                let means: Vec<String> = tables
                    .iter()
                    .map(|t| format!("{:.4}", t[g].iter().sum::<f64>() / t[g].len() as f64))
                    .collect();
                println!("| {g} | {} | {} |", v.len(), means.join(" | "));
            }
        }
    }
    if !args.dry_run {
        let provenance = format!(
            "pagelevel train --sets {} --labels {:?} --features {:?} --classifier {:?}{} (all pages)",
            args.sets.join(","),
            args.labels,
            args.features,
            args.classifier,
            match args.classifier {
                Classifier::Boost => format!(
                    " --trees {} --depth {} --learning-rate {} --subsample {}",
                    args.trees, args.depth, args.learning_rate, args.subsample
                ),
                Classifier::Lr => String::new(),
            }
        )
        .to_lowercase();
        let mut model = fit(&records, |_| true, &fo, provenance)?;
        for (b, r) in model.buckets.iter_mut().zip(&report) {
            b.val_accuracy = Some((r.accuracy * 1e4).round() / 1e4);
            b.val_auc = Some((r.auc * 1e4).round() / 1e4);
        }
        let mut json = serde_json::to_string_pretty(&model)?;
        json.push('\n');
        std::fs::write(&args.out, json)?;
        eprintln!("train: wrote {}", args.out.display());
    }
    Ok(0)
}

/// The variants --cv scores: --variant first, then each of --cv-variants (the Viterbi ones
/// once per --cv-switch-penalties λ), each with its column name.
fn cv_columns(args: &Args) -> Vec<(String, Options)> {
    let base = args.pipeline.options();
    let name = |v: Variant| {
        v.to_possible_value()
            .map_or_else(String::new, |p| p.get_name().to_string())
    };
    let label = |o: &Options| match o.segment.variant.decodes() {
        true => format!("{} λ={}", name(o.segment.variant), o.segment.switch_penalty),
        false => name(o.segment.variant),
    };
    let mut out = vec![(label(&base), base.clone())];
    let lambdas = match args.cv_switch_penalties.is_empty() {
        true => vec![base.segment.switch_penalty],
        false => args.cv_switch_penalties.clone(),
    };
    for &v in &args.cv_variants {
        let ls: &[f64] = match v.decodes() {
            true => &lambdas,
            false => &[base.segment.switch_penalty],
        };
        for &l in ls {
            let mut o = base.clone();
            o.segment.variant = v;
            o.segment.switch_penalty = l;
            out.push((label(&o), o));
        }
    }
    out
}

/// Word-F1 values per set, and per page type for wcxb-dev.
fn by_group(
    records: &[pagelevel::train::PageRecord],
    scored: &[(usize, pagelevel::metrics::Prf)],
) -> BTreeMap<String, Vec<f64>> {
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (i, prf) in scored {
        let e = &records[*i].entry;
        let set = e.set.clone().unwrap_or_default();
        groups.entry(set.clone()).or_default().push(prf.f1);
        if set == "wcxb-dev" {
            if let Some(t) = &e.page_type {
                groups
                    .entry(format!("wcxb-dev: {t}"))
                    .or_default()
                    .push(prf.f1);
            }
        }
    }
    groups
}
