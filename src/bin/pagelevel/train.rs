//! `pagelevel train`: fits the node classifier (boosted trees or per-area-bucket regressions)
//! and writes the model JSON;
//! `--cv` also reports out-of-fold word-F1 (folds by site). Deterministic.

use std::path::PathBuf;

use pagelevel::input::manifest::set_manifests;
use pagelevel::model::boost::BoostParams;
use pagelevel::model::threshold::{FitParams as ThresholdParams, DEFAULT_GRID};
use pagelevel::rules::Rule;
use pagelevel::segment::Variant;
use pagelevel::site::RunOptions;
use pagelevel::train::cv::{cross_validate_plan, CvPlan};
use pagelevel::train::report::{
    counts, cv_columns, describe_fit, fit_final, group_rows, provenance, validate_held_out,
    MeansRow, ThresholdFit, ThresholdTableRow,
};
use pagelevel::train::{
    collect, feature_mask, Classifier, FeatureSet, FitOptions, FoldBy, LabelSource, PageNorm,
    SampleOrder, Sampling, Targets, TrainOptions, WordWeight,
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
    /// Boosting: number of trees (of the first stage when --stages is 2; 60 + 60 costs what
    /// one stage of 120 does).
    #[arg(long, default_value_t = 60)]
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
    /// Boosting: share of the features each tree may split on (both stages; seeded per tree).
    #[arg(long, default_value_t = BoostParams::default().colsample)]
    colsample: f64,
    /// Boosting: seed of the row subsampling (both stages). Retraining with other seeds
    /// measures how much of a difference between two runs is noise.
    #[arg(long, default_value_t = BoostParams::default().seed)]
    seed: u64,
    /// Stages: 1 (one forest) or 2 (stacked: a second forest over the node's features and
    /// features of the first stage's scores around it, trained on first-stage scores
    /// cross-fitted by site fold; see `src/model/stack.rs`). --trees sets the first stage's trees.
    /// Default: 2 with boosted trees, 1 with the regressions (which cannot be stacked).
    #[arg(long, value_parser = clap::value_parser!(u8).range(1..=2))]
    stages: Option<u8>,
    /// Boosting, second stage: number of trees.
    #[arg(long, default_value_t = 60)]
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
    /// Also report out-of-fold word-F1 per set (and per page type).
    #[arg(long)]
    cv: bool,
    /// With --cv: hold pages out by site (5 folds by a hash of the site) or by set (leave one
    /// set out: each set scored by a model trained on all the others).
    #[arg(long, value_enum, default_value_t = FoldBy::Site)]
    cv_by: FoldBy,
    /// With --cv: also score these decoding variants with the same fold models and print a
    /// table of mean word-F1 per set, one column per variant (and per --cv-switch-penalties λ
    /// for the Viterbi variants); --variant stays the first column.
    #[arg(long, value_enum, value_delimiter = ',')]
    cv_variants: Vec<Variant>,
    /// With --cv-variants: the switch penalties λ the Viterbi variants are run with (default:
    /// --switch-penalty).
    #[arg(long, value_delimiter = ',')]
    cv_switch_penalties: Vec<f64>,
    /// With --cv: also score the out-of-fold pages with each of these rules switched off (the
    /// same fold models and segments as --variant) and print the mean word-F1 per set beside
    /// the full pipeline's; `RULE+RULE…` switches a group off together, as one column.
    #[arg(long, value_name = "RULE", value_delimiter = ',', value_parser = rule_group)]
    cv_without_rule: Vec<Vec<Rule>>,
    /// With --cv: as --cv-without-rule, once for every rule that runs.
    #[arg(long, conflicts_with = "cv_without_rule")]
    cv_rules_ablation: bool,
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
    let stages = *args.stages.get_or_insert(args.classifier.default_stages());
    let opts = TrainOptions {
        manifests: set_manifests(&args.data, &args.sets),
        run: RunOptions {
            parser: args.pipeline.limits.parser(),
            ..RunOptions::default()
        },
        labels: args.labels,
        features: args.features,
        keep_trees: stages >= 2,
        sampling: Sampling {
            max: args.max_samples,
            order: args.sampling,
        },
    };
    let boost = BoostParams {
        trees: args.trees,
        depth: args.depth,
        learning_rate: args.learning_rate,
        subsample: args.subsample,
        colsample: args.colsample,
        lambda: args.lambda,
        min_child_hessian: args.min_child_hessian,
        seed: args.seed,
    };
    let fo = FitOptions {
        labels: args.labels,
        features: args.features,
        classifier: args.classifier,
        boost,
        without: feature_mask(&args.without_features)?,
        stages,
        stage2: boost.second_stage(args.stage2_trees, args.stage2_depth),
        targets: args.targets,
        word_weight: args.sample_weight,
        page_norm: args.page_norm,
    };
    let records = collect(&opts)?;
    let (pages, samples, sites) = counts(&records);
    eprintln!("train: {pages} pages, {samples} samples, {sites} sites");

    let report = validate_held_out(&records, &fo)?;
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
        let base = args.pipeline.options();
        let plan = CvPlan {
            columns: cv_columns(&base, &args.cv_variants, &args.cv_switch_penalties),
            limits: args.pipeline.limits.limits(),
            by: args.cv_by,
            ablate: match args.cv_rules_ablation {
                true => base.rules.iter().map(|r| vec![r]).collect(),
                false => args.cv_without_rule.clone(),
            },
            threshold: args.pipeline.threshold_model.then(|| ThresholdFit {
                grid: args.threshold_grid.clone(),
                params: ThresholdParams {
                    depth: args.threshold_depth,
                    min_pages: args.threshold_min_pages,
                    ..ThresholdParams::default()
                },
                nested: args.threshold_nested,
            }),
        };
        let cv = cross_validate_plan(&records, &fo, &plan, &|m| eprintln!("train: {m}"))?;
        if let Some(path) = &args.pages {
            cv.write_pages(&records, path)?;
        }
        let held = match args.cv_by {
            FoldBy::Site => format!("{} folds by site", cv.folds.count()),
            FoldBy::Set => "leave one set out".to_string(),
        };
        println!(
            "\nOut-of-fold word-F1 ({held}; {}):\n",
            describe_fit(&fo, args.pipeline.variant, &opts.sampling)
        );
        println!("| set | pages | mean F1 | median F1 |");
        println!("|---|---:|---:|---:|");
        for r in group_rows(&records, &cv.all[0]) {
            println!(
                "| {} | {} | {:.3} | {:.3} |",
                r.group, r.pages, r.mean, r.median
            );
        }
        if cv.names.len() > 1 {
            println!("\nOut-of-fold mean word-F1 per decoding variant (same fold models, 4 decimals to compare them):\n");
            means_table(&cv.names, &cv.variant_means(&records));
        }
        if !cv.ablate.is_empty() {
            println!(
                "\nOut-of-fold mean word-F1 with each rule switched off (same fold models and segments as {}):\n",
                cv.names[0]
            );
            let (heads, rows) = cv.ablation_means(&records);
            means_table(&heads, &rows);
        }
        if let Some(table) = cv.threshold_table(&records) {
            print_thresholds(&args.threshold_grid, &table);
        }
        threshold_part = cv.learned.map(|l| l.all);
    }
    if !args.dry_run {
        let provenance = provenance(&args.sets, &fo, &opts.sampling, &args.without_features);
        let model = fit_final(&records, &fo, provenance, threshold_part, &report)?;
        let mut json = serde_json::to_string_pretty(&model)?;
        json.push('\n');
        std::fs::write(&args.out, json)?;
        eprintln!("train: wrote {}", args.out.display());
    }
    Ok(0)
}

/// Prints a table of mean word-F1 per group, one column per name.
fn means_table(names: &[String], rows: &[MeansRow]) {
    println!("| set | pages | {} |", names.join(" | "));
    println!("|---|---:|{}", "---:|".repeat(names.len()));
    for r in rows {
        let means: Vec<String> = r.means.iter().map(|m| format!("{m:.4}")).collect();
        println!("| {} | {} | {} |", r.group, r.pages, means.join(" | "));
    }
}

/// Prints the out-of-fold table: fixed thresholds of the grid, the learned one, the per-page
/// best (an upper bound no page-level rule can pass), per set and wcxb-dev page type.
fn print_thresholds(grid: &[f32], table: &[ThresholdTableRow]) {
    println!(
        "\nOut-of-fold mean word-F1 by threshold (same fold models; learned: a tree per fold fitted on the other folds' pages; best: each page's best grid threshold):\n"
    );
    let heads: Vec<String> = grid.iter().map(|t| format!("t={t}")).collect();
    println!(
        "| set | pages | {} | learned | mean learned t | best |",
        heads.join(" | ")
    );
    println!("|---|---:|{}---:|---:|---:|", "---:|".repeat(grid.len()));
    for r in table {
        let fixed: Vec<String> = r.fixed.iter().map(|f| format!("{f:.4}")).collect();
        println!(
            "| {} | {} | {} | {:.4} | {:.3} | {:.4} |",
            r.group,
            r.pages,
            fixed.join(" | "),
            r.learned,
            r.mean_threshold,
            r.best
        );
    }
}

/// A `--cv-without-rule` value: one rule's name, or several joined by `+`.
fn rule_group(s: &str) -> Result<Vec<Rule>, String> {
    s.split('+')
        .map(|name| {
            Rule::from_name(name.trim())
                .ok_or_else(|| format!("no rule {name:?} (`pagelevel --rules` lists them)"))
        })
        .collect()
}
