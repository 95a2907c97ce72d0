//! `pagelevel train`: fits the node classifier (boosted trees or per-area-bucket regressions)
//! and writes the model JSON;
//! `--cv` also reports out-of-fold word-F1 (folds by site). Deterministic.

use std::collections::BTreeMap;

use clap::ValueEnum;
use std::path::PathBuf;

use pagelevel::model::boost::BoostParams;
use pagelevel::model::threshold::{
    self, FitParams as ThresholdParams, ThresholdModel, DEFAULT_GRID,
};
use pagelevel::pipeline::Options;
use pagelevel::segment::Variant;
use pagelevel::site::RunOptions;
use pagelevel::train::{
    collect, cross_validate_with, feature_mask, fit, fold_threshold_rows, validate, Classifier,
    FeatureSet, FitOptions, LabelSource, PageNorm, PageRecord, SampleOrder, Sampling, Targets,
    ThresholdRow, TrainOptions, WordWeight,
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
    /// Feature set: paper (the paper's and boilerpipe's), all, or context (all plus the context columns).
    #[arg(long, value_enum, default_value_t = FeatureSet::Context)]
    features: FeatureSet,
    /// Features of the set left out, by name (ablations), e.g. `in_main_region,above_main_region`.
    #[arg(long, value_delimiter = ',')]
    without_features: Vec<String>,
    /// Classifier: lr (the paper's per-area-bucket logistic regressions) or boost (gradient-boosted trees).
    #[arg(long, value_enum, default_value_t = Classifier::Boost)]
    classifier: Classifier,
    /// Boosting: number of trees (of the first stage when --stages is 2; 50 + 50 costs what
    /// one stage of 100 does).
    #[arg(long, default_value_t = 50)]
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
    /// Boosting: seed of the row subsampling (both stages). Retraining with other seeds
    /// measures how much of a difference between two runs is noise.
    #[arg(long, default_value_t = BoostParams::default().seed)]
    seed: u64,
    /// Stages: 1 (one forest) or 2 (stacked: a second forest over the node's features and
    /// features of the first stage's scores around it, trained on first-stage scores
    /// cross-fitted by site fold; see `src/stack.rs`). --trees sets the first stage's trees.
    /// Default: 2 with boosted trees, 1 with the regressions (which cannot be stacked).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    stages: Option<u8>,
    /// Boosting, second stage: number of trees.
    #[arg(long, default_value_t = 50)]
    stage2_trees: usize,
    /// Boosting, second stage: depth of every tree.
    #[arg(long, default_value_t = BoostParams::default().depth)]
    stage2_depth: u32,
    /// Boosting: L2 regularisation λ of the leaf values.
    #[arg(long, default_value_t = BoostParams::default().lambda)]
    lambda: f64,
    /// Boosting: smallest hessian sum in a child.
    #[arg(long, default_value_t = BoostParams::default().min_child_hessian)]
    min_child_hessian: f64,
    /// Boosting: targets, hard (0/1 labels) or soft (the node's template word share).
    #[arg(long, value_enum, default_value_t = Targets::Hard)]
    targets: Targets,
    /// Boosting: how a sample's words scale its weight: equal, log (ln(2 + words)) or sqrt (√(1 + words)).
    #[arg(long, value_enum, default_value_t = WordWeight::Log)]
    sample_weight: WordWeight,
    /// Boosting: normalise the weights so every page's samples sum to the same (page) or not (none).
    #[arg(long, value_enum, default_value_t = PageNorm::Page)]
    page_norm: PageNorm,
    /// Most samples per page (0: every scored node).
    #[arg(long, default_value_t = Sampling::default().max)]
    max_samples: usize,
    /// Which nodes of a larger page are kept: every k-th in document, area (descending) or depth order.
    #[arg(long, value_enum, default_value_t = Sampling::default().order)]
    sampling: SampleOrder,
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
    /// Threshold model (with --threshold-model): the grid of thresholds its leaves choose from.
    #[arg(long, value_delimiter = ',', default_values_t = DEFAULT_GRID)]
    threshold_grid: Vec<f32>,
    /// Threshold model: most levels of splits.
    #[arg(long, default_value_t = ThresholdParams::default().depth)]
    threshold_depth: u32,
    /// Threshold model: fewest training pages in a leaf.
    #[arg(long, default_value_t = ThresholdParams::default().min_pages)]
    threshold_min_pages: usize,
    /// Threshold model: fit each fold's tree on rows from inner models that never saw that
    /// fold (for outer fold k and every j ≠ k, a model fitted without folds k and j scores
    /// fold j: 20 more fits). Without it, the other folds' rows come from the usual fold
    /// models, which did see fold k's sites in training.
    #[arg(long)]
    threshold_nested: bool,
    /// Write nothing; only report.
    #[arg(long)]
    dry_run: bool,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

pub fn run(mut args: Args) -> anyhow::Result<usize> {
    let stages = *args.stages.get_or_insert(match args.classifier {
        Classifier::Boost => 2,
        Classifier::Lr => 1,
    });
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
        keep_trees: stages >= 2,
        sampling: Sampling {
            max: args.max_samples,
            order: args.sampling,
        },
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
            lambda: args.lambda,
            min_child_hessian: args.min_child_hessian,
            seed: args.seed,
        },
        without: feature_mask(&args.without_features)?,
        stages,
        stage2: BoostParams {
            trees: args.stage2_trees,
            depth: args.stage2_depth,
            learning_rate: args.learning_rate,
            subsample: args.subsample,
            seed: args.seed,
            ..BoostParams::default()
        },
        targets: args.targets,
        word_weight: args.sample_weight,
        page_norm: args.page_norm,
    };
    let records = collect(&opts)?;
    let samples: usize = records.iter().map(|r| r.samples.len()).sum();
    let sites: std::collections::BTreeSet<&str> = records.iter().map(|r| r.site.as_str()).collect();
    eprintln!(
        "train: {} pages, {samples} samples, {} sites",
        records.len(),
        sites.len()
    );

    // The per-bucket table is the first stage's (a stacked fit here would cost five more).
    let fo1 = FitOptions { stages: 1, ..fo };
    let held = fit(&records, |r| r.fold() != 0, &fo1, String::new())?;
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
    if args.pipeline.threshold_model && !args.cv {
        anyhow::bail!("--threshold-model is fitted from out-of-fold scores: it needs --cv");
    }
    let mut threshold_part = None;
    if args.cv {
        let columns = cv_columns(&args);
        let opts: Vec<Options> = columns.iter().map(|c| c.1.clone()).collect();
        let grid: &[f32] = match args.pipeline.threshold_model {
            true => &args.threshold_grid,
            false => &[],
        };
        let (all, rows) =
            cross_validate_with(&records, &fo, &opts, &args.pipeline.limits.limits(), grid)?;
        let scored = &all[0];
        let learned = match rows.is_empty() {
            true => None,
            false => Some(learned_thresholds(&args, &records, &rows, &fo, &opts[0])?),
        };
        if let Some(path) = &args.pages {
            let mut out = String::new();
            for (k, (i, prf)) in scored.iter().enumerate() {
                let e = &records[*i].entry;
                let mut line = serde_json::json!({
                    "id": e.id, "set": e.set, "site": records[*i].site, "type": e.page_type,
                    "html": e.html, "fold": records[*i].fold(), "precision": prf.precision, "recall": prf.recall, "f1": prf.f1,
                });
                // Every variant scores the same pages (same fold split, same readable pages).
                if columns.len() > 1 || learned.is_some() {
                    let mut by: serde_json::Map<String, serde_json::Value> = columns
                        .iter()
                        .zip(&all)
                        .map(|(c, s)| (c.0.clone(), s[k].1.f1.into()))
                        .collect();
                    // The threshold rows are the same pages in the same order.
                    if let Some(l) = &learned {
                        let (j, row) = &rows[k];
                        debug_assert_eq!(j, i);
                        for (t, f) in args.threshold_grid.iter().zip(&row.f1) {
                            by.insert(format!("t={t}"), (*f).into());
                        }
                        by.insert("learned".into(), l.oof[k].1.into());
                        line["learned_threshold"] = l.oof[k].0.into();
                    }
                    line["f1_by_variant"] = by.into();
                }
                out += &line.to_string();
                out.push('\n');
            }
            std::fs::write(path, out)?;
        }
        let groups = by_group(&records, scored);
        println!(
            "\nOut-of-fold word-F1 ({} folds by site; labels {:?}, features {:?}, classifier {:?}, stages {}, variant {:?}; targets {:?}, sample weight {:?}, page norm {:?}, samples ≤ {} by {:?}, λ {}, min child hessian {}, subsample {}):\n",
            pagelevel::train::FOLDS,
            args.labels,
            args.features,
            args.classifier,
            stages,
            args.pipeline.variant,
            args.targets,
            args.sample_weight,
            args.page_norm,
            args.max_samples,
            args.sampling,
            args.lambda,
            args.min_child_hessian,
            args.subsample
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
        if let Some(l) = learned {
            print_thresholds(&args, &records, &rows, &l);
            threshold_part = Some(l.all);
        }
    }
    if !args.dry_run {
        let provenance = format!(
            "pagelevel train --sets {}{} --labels {:?} --features {:?} --classifier {:?}{} (all pages)",
            args.sets.join(","),
            sampling_options(&args),
            args.labels,
            args.features,
            args.classifier,
            match args.classifier {
                Classifier::Boost => format!(
                    " --trees {} --depth {} --learning-rate {} --subsample {}{}",
                    args.trees,
                    args.depth,
                    args.learning_rate,
                    args.subsample,
                    boost_options(&args)
                ),
                Classifier::Lr => String::new(),
            }
        )
        .to_lowercase()
            + &match stages {
                1 => String::new(),
                s => format!(
                    " --stages {s} --stage2-trees {} --stage2-depth {}",
                    args.stage2_trees, args.stage2_depth
                ),
            }
        .to_lowercase()
            + &if args.without_features.is_empty() {
                String::new()
            } else {
                format!(" --without-features {}", args.without_features.join(","))
            };
        let mut model = fit(&records, |_| true, &fo, provenance)?;
        if let Some(t) = threshold_part {
            model.threshold = Some(t);
            model.version = model.version.max(pagelevel::model::VERSION_THRESHOLD);
        }
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

/// The boosting options beyond the first four that differ from their defaults, as train arguments
/// (the provenance of a default run stays what the embedded model records).
fn boost_options(args: &Args) -> String {
    let b = BoostParams::default();
    let mut out = String::new();
    if args.lambda != b.lambda {
        out += &format!(" --lambda {}", args.lambda);
    }
    if args.min_child_hessian != b.min_child_hessian {
        out += &format!(" --min-child-hessian {}", args.min_child_hessian);
    }
    if args.targets != Targets::Hard {
        out += &format!(" --targets {:?}", args.targets);
    }
    if args.sample_weight != WordWeight::Log {
        out += &format!(" --sample-weight {:?}", args.sample_weight);
    }
    if args.page_norm != PageNorm::None {
        out += &format!(" --page-norm {:?}", args.page_norm);
    }
    out
}

/// The sampling options that differ from their defaults, as train arguments.
fn sampling_options(args: &Args) -> String {
    let s = Sampling::default();
    let mut out = String::new();
    if args.max_samples != s.max {
        out += &format!(" --max-samples {}", args.max_samples);
    }
    if args.sampling != s.order {
        out += &format!(" --sampling {:?}", args.sampling);
    }
    out
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

/// The table rows a page counts in: its set, and for wcxb-dev also its page type.
fn groups_of(r: &PageRecord) -> impl Iterator<Item = String> {
    let set = set_of(r);
    let page_type = match (set == "wcxb-dev", &r.entry.page_type) {
        (true, Some(t)) => Some(format!("wcxb-dev: {t}")),
        _ => None,
    };
    std::iter::once(set).chain(page_type)
}

/// Word-F1 values per set, and per page type for wcxb-dev.
fn by_group(
    records: &[pagelevel::train::PageRecord],
    scored: &[(usize, pagelevel::eval::metrics::Prf)],
) -> BTreeMap<String, Vec<f64>> {
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (i, prf) in scored {
        for g in groups_of(&records[*i]) {
            groups.entry(g).or_default().push(prf.f1);
        }
    }
    groups
}

/// The learned threshold measured out of fold, and fitted on every page.
struct Learned {
    /// Per threshold row (same order): the threshold chosen by the tree fitted without the
    /// page's fold, and the page's word-F1 there.
    oof: Vec<(f32, f64)>,
    /// The tree fitted on every page's row (what the model file stores).
    all: ThresholdModel,
}

/// Fits the threshold trees: one per fold on the other folds' rows (each page's row comes
/// from the fold model that did not see its site), and one on all rows. Pages weigh
/// 1 / pages of their set, so each set counts the same in the objective.
fn learned_thresholds(
    args: &Args,
    records: &[PageRecord],
    rows: &[(usize, ThresholdRow)],
    fo: &FitOptions,
    opts: &Options,
) -> anyhow::Result<Learned> {
    let mut per_set: BTreeMap<String, usize> = BTreeMap::new();
    for (i, _) in rows {
        *per_set.entry(set_of(&records[*i])).or_default() += 1;
    }
    let train_page = |i: usize, r: &ThresholdRow| threshold::TrainPage {
        x: r.summary.values(),
        f1: r.f1.clone(),
        weight: 1.0 / per_set[&set_of(&records[i])] as f64,
    };
    let pages: Vec<threshold::TrainPage> = rows.iter().map(|(i, r)| train_page(*i, r)).collect();
    let params = ThresholdParams {
        depth: args.threshold_depth,
        min_pages: args.threshold_min_pages,
        ..ThresholdParams::default()
    };
    let grid = &args.threshold_grid;
    let mut oof = vec![(0.0f32, 0.0f64); rows.len()];
    for k in 0..pagelevel::train::FOLDS {
        let in_fold = |j: usize| records[rows[j].0].fold() == k;
        let train: Vec<threshold::TrainPage> = match args.threshold_nested {
            false => (0..rows.len())
                .filter(|&j| !in_fold(j))
                .map(|j| pages[j].clone())
                .collect(),
            true => {
                let mut inner = Vec::new();
                for j in (0..pagelevel::train::FOLDS).filter(|&j| j != k) {
                    let limits = args.pipeline.limits.limits();
                    let part = fold_threshold_rows(records, fo, opts, &limits, grid, &[k, j], j)?;
                    inner.extend(part.iter().map(|(i, r)| train_page(*i, r)));
                }
                inner
            }
        };
        let tree = threshold::fit(&train, grid, &params, String::new())?;
        eprintln!(
            "train: threshold tree without fold {k}: {}",
            describe(&tree)
        );
        for j in (0..rows.len()).filter(|&j| in_fold(j)) {
            let t = tree.choose(&rows[j].1.summary);
            oof[j] = (t, rows[j].1.f1[grid_index(grid, t)]);
        }
    }
    let provenance = format!(
        "pagelevel train --cv --threshold-model --threshold-grid {} --threshold-depth {} --threshold-min-pages {} (out-of-fold rows of every page, set weights 1/pages)",
        grid.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(","),
        params.depth,
        params.min_pages
    );
    let all = threshold::fit(&pages, grid, &params, provenance)?;
    eprintln!("train: threshold tree on all pages: {}", describe(&all));
    Ok(Learned { oof, all })
}

/// The grid index of threshold `t` (the nearest grid value).
fn grid_index(grid: &[f32], t: f32) -> usize {
    (0..grid.len())
        .min_by(|&a, &b| (grid[a] - t).abs().total_cmp(&(grid[b] - t).abs()))
        .unwrap_or(0)
}

/// A one-line form of a threshold tree, e.g. `mean_y < 0.31 ? 0.6 : (… ? … : …)`.
fn describe(tree: &ThresholdModel) -> String {
    // Iterative: a stack of pending pieces (node index or literal text).
    enum Piece {
        Node(usize),
        Text(&'static str),
    }
    let mut out = String::new();
    let mut stack = vec![Piece::Node(0)];
    while let Some(p) = stack.pop() {
        match p {
            Piece::Text(t) => out.push_str(t),
            Piece::Node(k) => match tree.nodes[k] {
                threshold::Node::Leaf { threshold } => out.push_str(&format!("{threshold}")),
                threshold::Node::Split {
                    feature,
                    value,
                    left,
                    right,
                } => {
                    out.push_str(&format!(
                        "({} < {value:.3} ? ",
                        threshold::SUMMARY_NAMES[feature]
                    ));
                    stack.push(Piece::Text(")"));
                    stack.push(Piece::Node(right));
                    stack.push(Piece::Text(" : "));
                    stack.push(Piece::Node(left));
                }
            },
        }
    }
    out
}

fn set_of(r: &PageRecord) -> String {
    r.entry.set.clone().unwrap_or_default()
}

/// Prints the out-of-fold table: fixed thresholds of the grid, the learned one, the per-page
/// best (an upper bound no page-level rule can pass), per set and wcxb-dev page type.
fn print_thresholds(
    args: &Args,
    records: &[PageRecord],
    rows: &[(usize, ThresholdRow)],
    l: &Learned,
) {
    let grid = &args.threshold_grid;
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (j, (i, _)) in rows.iter().enumerate() {
        for g in groups_of(&records[*i]) {
            groups.entry(g).or_default().push(j);
        }
    }
    println!(
        "\nOut-of-fold mean word-F1 by threshold (same fold models; learned: a tree per fold fitted on the other folds' pages; best: each page's best grid threshold):\n"
    );
    let heads: Vec<String> = grid.iter().map(|t| format!("t={t}")).collect();
    println!(
        "| set | pages | {} | learned | mean learned t | best |",
        heads.join(" | ")
    );
    println!("|---|---:|{}---:|---:|---:|", "---:|".repeat(grid.len()));
    for (g, js) in &groups {
        let n = js.len() as f64;
        let fixed: Vec<String> = (0..grid.len())
            .map(|k| {
                format!(
                    "{:.4}",
                    js.iter().map(|&j| rows[j].1.f1[k]).sum::<f64>() / n
                )
            })
            .collect();
        let learned = js.iter().map(|&j| l.oof[j].1).sum::<f64>() / n;
        let mean_t = js.iter().map(|&j| l.oof[j].0 as f64).sum::<f64>() / n;
        let best = js
            .iter()
            .map(|&j| rows[j].1.f1.iter().copied().fold(0.0, f64::max))
            .sum::<f64>()
            / n;
        println!(
            "| {g} | {} | {} | {learned:.4} | {mean_t:.3} | {best:.4} |",
            js.len(),
            fixed.join(" | ")
        );
    }
}
