//! What `pagelevel train` reports and writes beside the fit: the out-of-fold tables per set
//! (and per wcxb-dev page type), the decoding variants and rule ablations scored with the same
//! fold models, the learned threshold, each page's scores, and the model file's provenance,
//! validation figures and format version.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::eval::metrics::Prf;
use crate::model::boost::BoostParams;
use crate::model::threshold::{self, FitParams, ThresholdModel};
use crate::model::{Model, VERSION_THRESHOLD};
use crate::pipeline::Options;
use crate::segment::Variant;
use crate::train::{
    fit, fold_threshold_rows, validate, BucketReport, Classifier, FitOptions, Folds, PageNorm,
    PageRecord, PageScores, Sampling, Targets, ThresholdRow, WordWeight, FOLDS,
};
use crate::{Limits, Result};

/// Pages, samples and distinct sites of `records`. O(pages · log sites).
pub fn counts(records: &[PageRecord]) -> (usize, usize, usize) {
    let samples = records.iter().map(|r| r.samples.len()).sum();
    let sites: std::collections::BTreeSet<&str> = records.iter().map(|r| r.site.as_str()).collect();
    (records.len(), samples, sites.len())
}

/// The per-bucket validation of `train`: a one-stage model (a stacked fit would cost five
/// more) fitted on folds 1 to 4 and validated on fold 0's sites ([`validate`]).
///
/// # Errors
/// When the model cannot be fitted.
///
/// # Complexity
/// One fit on about four fifths of the samples, one scoring of the rest.
pub fn validate_held_out(records: &[PageRecord], fo: &FitOptions) -> Result<Vec<BucketReport>> {
    let fo1 = FitOptions { stages: 1, ..*fo };
    let held = fit(records, |r| r.fold() != 0, &fo1, String::new())?;
    Ok(validate(&held, records, |r| r.fold() == 0, fo.labels))
}

/// The model file's content: fitted on every page with `provenance`, then completed by
/// [`finish_model`] with the learned `threshold` part and `report`'s validation figures.
///
/// # Errors
/// When the model cannot be fitted.
pub fn fit_final(
    records: &[PageRecord],
    fo: &FitOptions,
    provenance: String,
    threshold: Option<ThresholdModel>,
    report: &[BucketReport],
) -> Result<Model> {
    let mut model = fit(records, |_| true, fo, provenance)?;
    finish_model(&mut model, threshold, report);
    Ok(model)
}

/// The settings of a cross-validation in words, for its table's heading: labels, features,
/// classifier, stages, `variant`; targets, sample weight, page norm, sampling, λ, min child
/// hessian and subsample (Debug forms of the enums).
pub fn describe_fit(fo: &FitOptions, variant: Variant, sampling: &Sampling) -> String {
    format!(
        "labels {:?}, features {:?}, classifier {:?}, stages {}, variant {:?}; targets {:?}, sample weight {:?}, page norm {:?}, samples ≤ {} by {:?}, λ {}, min child hessian {}, subsample {}, colsample {}",
        fo.labels,
        fo.features,
        fo.classifier,
        fo.stages,
        variant,
        fo.targets,
        fo.word_weight,
        fo.page_norm,
        sampling.max,
        sampling.order,
        fo.boost.lambda,
        fo.boost.min_child_hessian,
        fo.boost.subsample,
        fo.boost.colsample
    )
}

/// A page's set (empty when its manifest names none).
pub fn set_of(r: &PageRecord) -> String {
    r.entry.set.clone().unwrap_or_default()
}

/// The table rows a page counts in: its set, and for wcxb-dev also its page type.
pub fn groups_of(r: &PageRecord) -> impl Iterator<Item = String> {
    let set = set_of(r);
    let page_type = match (set == "wcxb-dev", &r.entry.page_type) {
        (true, Some(t)) => Some(format!("wcxb-dev: {t}")),
        _ => None,
    };
    std::iter::once(set).chain(page_type)
}

/// Word-F1 values per set, and per page type for wcxb-dev.
pub fn by_group(records: &[PageRecord], scored: &[(usize, Prf)]) -> BTreeMap<String, Vec<f64>> {
    let mut groups: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for (i, prf) in scored {
        for g in groups_of(&records[*i]) {
            groups.entry(g).or_default().push(prf.f1);
        }
    }
    groups
}

/// One row of the out-of-fold table: a set (or wcxb-dev page type) and its word-F1.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct GroupRow {
    /// The set, or `wcxb-dev: <type>`.
    pub group: String,
    /// Pages scored.
    pub pages: usize,
    /// Mean word-F1.
    pub mean: f64,
    /// Median word-F1 (the upper one of an even count).
    pub median: f64,
}

/// The out-of-fold table of `scored`, by group name. O(p log p).
pub fn group_rows(records: &[PageRecord], scored: &[(usize, Prf)]) -> Vec<GroupRow> {
    by_group(records, scored)
        .into_iter()
        .map(|(group, mut v)| {
            v.sort_by(f64::total_cmp);
            GroupRow {
                group,
                pages: v.len(),
                mean: v.iter().sum::<f64>() / v.len() as f64,
                median: v[v.len() / 2],
            }
        })
        .collect()
}

/// One row of a table of columns scored on the same pages: a group and the mean word-F1 of
/// each column.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct MeansRow {
    /// The set, or `wcxb-dev: <type>`.
    pub group: String,
    /// Pages scored.
    pub pages: usize,
    /// Mean word-F1 per column.
    pub means: Vec<f64>,
}

/// Per group, the mean word-F1 of each of `columns` (each scoring the same pages).
pub fn column_means(records: &[PageRecord], columns: &[PageScores]) -> Vec<MeansRow> {
    let tables: Vec<_> = columns.iter().map(|s| by_group(records, s)).collect();
    let Some(first) = tables.first() else {
        return Vec::new();
    };
    first
        .iter()
        .map(|(g, v)| MeansRow {
            group: g.clone(),
            pages: v.len(),
            means: tables
                .iter()
                .map(|t| t[g].iter().sum::<f64>() / t[g].len() as f64)
                .collect(),
        })
        .collect()
}

/// The pipelines `--cv` scores, each with its column name: `base` first, then each of
/// `variants` (the Viterbi ones once per switch penalty of `lambdas`, default `base`'s).
pub fn cv_columns(base: &Options, variants: &[Variant], lambdas: &[f64]) -> Vec<(String, Options)> {
    let label = |o: &Options| match o.segment.variant.decodes() {
        true => format!(
            "{} λ={}",
            o.segment.variant.name(),
            o.segment.switch_penalty
        ),
        false => o.segment.variant.name().to_string(),
    };
    let mut out = vec![(label(base), base.clone())];
    let lambdas = match lambdas.is_empty() {
        true => vec![base.segment.switch_penalty],
        false => lambdas.to_vec(),
    };
    for &v in variants {
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

/// How the threshold model is fitted.
#[derive(Debug, Clone)]
pub struct ThresholdFit {
    /// The thresholds its leaves choose from.
    pub grid: Vec<f32>,
    /// The tree's depth and leaf size.
    pub params: FitParams,
    /// Whether each fold's tree is fitted on rows of inner models that never saw that fold.
    pub nested: bool,
}

/// The learned threshold measured out of fold, and fitted on every page.
#[derive(Debug, Clone)]
pub struct Learned {
    /// Per threshold row (same order): the threshold chosen by the tree fitted without the
    /// page's fold, and the page's word-F1 there.
    pub oof: Vec<(f32, f64)>,
    /// The tree fitted on every page's row (what the model file stores).
    pub all: ThresholdModel,
}

/// Fits the threshold trees: one per fold on the other folds' rows (each page's row comes
/// from the fold model that did not see its site), and one on all rows. Pages weigh
/// 1 / pages of their set, so each set counts the same in the objective. `note` is told each
/// tree ([`describe`]) as it is fitted.
///
/// # Errors
/// When a tree (or, nested, an inner model) cannot be fitted.
///
/// # Complexity
/// [`FOLDS`] + 1 tree fits; nested, also FOLDS × (FOLDS − 1) model fits and their scoring.
pub fn learned_thresholds(
    records: &[PageRecord],
    rows: &[(usize, ThresholdRow)],
    fo: &FitOptions,
    opts: &Options,
    limits: &Limits,
    fit: &ThresholdFit,
    note: &dyn Fn(&str),
) -> Result<Learned> {
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
    let grid = &fit.grid;
    let mut oof = vec![(0.0f32, 0.0f64); rows.len()];
    for k in 0..FOLDS {
        let in_fold = |j: usize| records[rows[j].0].fold() == k;
        let train: Vec<threshold::TrainPage> = match fit.nested {
            false => (0..rows.len())
                .filter(|&j| !in_fold(j))
                .map(|j| pages[j].clone())
                .collect(),
            true => {
                let mut inner = Vec::new();
                for j in (0..FOLDS).filter(|&j| j != k) {
                    let part = fold_threshold_rows(records, fo, opts, limits, grid, &[k, j], j)?;
                    inner.extend(part.iter().map(|(i, r)| train_page(*i, r)));
                }
                inner
            }
        };
        let tree = threshold::fit(&train, grid, &fit.params, String::new())?;
        note(&format!(
            "threshold tree without fold {k}: {}",
            describe(&tree)
        ));
        for j in (0..rows.len()).filter(|&j| in_fold(j)) {
            let t = tree.choose(&rows[j].1.summary);
            oof[j] = (t, rows[j].1.f1[grid_index(grid, t)]);
        }
    }
    let provenance = format!(
        "pagelevel train --cv --threshold-model --threshold-grid {} --threshold-depth {} --threshold-min-pages {} (out-of-fold rows of every page, set weights 1/pages)",
        grid.iter().map(|t| t.to_string()).collect::<Vec<_>>().join(","),
        fit.params.depth,
        fit.params.min_pages
    );
    let all = threshold::fit(&pages, grid, &fit.params, provenance)?;
    note(&format!("threshold tree on all pages: {}", describe(&all)));
    Ok(Learned { oof, all })
}

/// The grid index of threshold `t` (the nearest grid value).
pub fn grid_index(grid: &[f32], t: f32) -> usize {
    (0..grid.len())
        .min_by(|&a, &b| (grid[a] - t).abs().total_cmp(&(grid[b] - t).abs()))
        .unwrap_or(0)
}

/// A one-line form of a threshold tree, e.g. `(mean_y < 0.310 ? 0.6 : 0.5)`. O(nodes).
pub fn describe(tree: &ThresholdModel) -> String {
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

/// One row of the threshold table: a group's mean word-F1 at each fixed grid threshold, with
/// the learned one, and with each page's best grid threshold (an upper bound no page-level
/// rule can pass).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThresholdTableRow {
    /// The set, or `wcxb-dev: <type>`.
    pub group: String,
    /// Pages scored.
    pub pages: usize,
    /// Mean word-F1 per grid threshold.
    pub fixed: Vec<f64>,
    /// Mean word-F1 at the learned threshold.
    pub learned: f64,
    /// Mean learned threshold.
    pub mean_threshold: f64,
    /// Mean of each page's best word-F1 on the grid.
    pub best: f64,
}

/// The threshold table per group; `grid_len` thresholds per row. O(pages × grid).
pub fn threshold_table(
    records: &[PageRecord],
    rows: &[(usize, ThresholdRow)],
    learned: &Learned,
    grid_len: usize,
) -> Vec<ThresholdTableRow> {
    let mut groups: BTreeMap<String, Vec<usize>> = BTreeMap::new();
    for (j, (i, _)) in rows.iter().enumerate() {
        for g in groups_of(&records[*i]) {
            groups.entry(g).or_default().push(j);
        }
    }
    groups
        .into_iter()
        .map(|(group, js)| {
            let n = js.len() as f64;
            ThresholdTableRow {
                pages: js.len(),
                fixed: (0..grid_len)
                    .map(|k| js.iter().map(|&j| rows[j].1.f1[k]).sum::<f64>() / n)
                    .collect(),
                learned: js.iter().map(|&j| learned.oof[j].1).sum::<f64>() / n,
                mean_threshold: js.iter().map(|&j| learned.oof[j].0 as f64).sum::<f64>() / n,
                best: js
                    .iter()
                    .map(|&j| rows[j].1.f1.iter().copied().fold(0.0, f64::max))
                    .sum::<f64>()
                    / n,
                group,
            }
        })
        .collect()
}

/// One page's out-of-fold scores (a line of `train --cv --pages`).
#[derive(Debug, Clone, Serialize)]
pub struct CvPage {
    /// The manifest id.
    pub id: String,
    /// The set.
    pub set: Option<String>,
    /// The site (fold key).
    pub site: String,
    /// The page type.
    #[serde(rename = "type")]
    pub page_type: Option<String>,
    /// The page's path in its manifest.
    pub html: String,
    /// Its fold under the scheme of the run (by site: 0–4; by set: the set's place in `--sets`).
    pub fold: u64,
    /// Word precision of the first column.
    pub precision: f64,
    /// Word recall of the first column.
    pub recall: f64,
    /// Word-F1 of the first column.
    pub f1: f64,
    /// The learned threshold (as f64: the JSON keeps the f32's exact value).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub learned_threshold: Option<f64>,
    /// Word-F1 per column, per grid threshold (`t=…`) and at the learned one (`learned`),
    /// when there is more than one column or a learned threshold.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub f1_by_variant: Option<serde_json::Map<String, serde_json::Value>>,
}

/// Each scored page's [`CvPage`]: `columns` names the entries of `all` (which score the same
/// pages in the same order, as do `rows` when a threshold is `learned` on `grid`).
pub fn cv_pages(
    records: &[PageRecord],
    folds: &Folds,
    columns: &[String],
    all: &[PageScores],
    rows: &[(usize, ThresholdRow)],
    learned: Option<&Learned>,
    grid: &[f32],
) -> Vec<CvPage> {
    let Some(scored) = all.first() else {
        return Vec::new();
    };
    scored
        .iter()
        .enumerate()
        .map(|(k, (i, prf))| {
            let r = &records[*i];
            let e = &r.entry;
            let mut page = CvPage {
                id: e.id.clone(),
                set: e.set.clone(),
                site: r.site.clone(),
                page_type: e.page_type.clone(),
                html: e.html.clone(),
                fold: folds.of(r),
                precision: prf.precision,
                recall: prf.recall,
                f1: prf.f1,
                learned_threshold: None,
                f1_by_variant: None,
            };
            if columns.len() > 1 || learned.is_some() {
                let mut by: serde_json::Map<String, serde_json::Value> = columns
                    .iter()
                    .zip(all)
                    .map(|(c, s)| (c.clone(), s[k].1.f1.into()))
                    .collect();
                if let Some(l) = learned {
                    let (j, row) = &rows[k];
                    debug_assert_eq!(j, i);
                    for (t, f) in grid.iter().zip(&row.f1) {
                        by.insert(format!("t={t}"), (*f).into());
                    }
                    by.insert("learned".into(), l.oof[k].1.into());
                    page.learned_threshold = Some(f64::from(l.oof[k].0));
                }
                page.f1_by_variant = Some(by);
            }
            page
        })
        .collect()
}

/// The command that trains a model like this one, for its provenance: the sets, the options
/// that differ from their defaults (so a default run's provenance stays what the embedded
/// model records), and the features left out by name.
pub fn provenance(
    sets: &[String],
    fo: &FitOptions,
    sampling: &Sampling,
    without_features: &[String],
) -> String {
    let b = &fo.boost;
    let d = BoostParams::default();
    let mut boost = String::new();
    if b.lambda != d.lambda {
        boost += &format!(" --lambda {}", b.lambda);
    }
    if b.colsample != d.colsample {
        boost += &format!(" --colsample {}", b.colsample);
    }
    if b.min_child_hessian != d.min_child_hessian {
        boost += &format!(" --min-child-hessian {}", b.min_child_hessian);
    }
    if fo.targets != Targets::Hard {
        boost += &format!(" --targets {:?}", fo.targets);
    }
    if fo.word_weight != WordWeight::Log {
        boost += &format!(" --sample-weight {:?}", fo.word_weight);
    }
    if fo.page_norm != PageNorm::None {
        boost += &format!(" --page-norm {:?}", fo.page_norm);
    }
    let s = Sampling::default();
    let mut samples = String::new();
    if sampling.max != s.max {
        samples += &format!(" --max-samples {}", sampling.max);
    }
    if sampling.order != s.order {
        samples += &format!(" --sampling {:?}", sampling.order);
    }
    format!(
        "pagelevel train --sets {}{samples} --labels {:?} --features {:?} --classifier {:?}{} (all pages)",
        sets.join(","),
        fo.labels,
        fo.features,
        fo.classifier,
        match fo.classifier {
            Classifier::Boost => format!(
                " --trees {} --depth {} --learning-rate {} --subsample {}{boost}",
                b.trees, b.depth, b.learning_rate, b.subsample
            ),
            Classifier::Lr => String::new(),
        }
    )
    .to_lowercase()
        + &match fo.stages {
            1 => String::new(),
            s => format!(
                " --stages {s} --stage2-trees {} --stage2-depth {}",
                fo.stage2.trees, fo.stage2.depth
            ),
        }
        .to_lowercase()
        + &if without_features.is_empty() {
            String::new()
        } else {
            format!(" --without-features {}", without_features.join(","))
        }
}

/// Completes a model fitted on every page for its file: the learned threshold part (which
/// raises the format version to at least [`VERSION_THRESHOLD`]) and each bucket's
/// validation accuracy and AUC from `report`, to 4 decimals.
pub fn finish_model(model: &mut Model, threshold: Option<ThresholdModel>, report: &[BucketReport]) {
    if let Some(t) = threshold {
        model.threshold = Some(t);
        model.version = model.version.max(VERSION_THRESHOLD);
    }
    for (b, r) in model.buckets.iter_mut().zip(report) {
        b.val_accuracy = Some((r.accuracy * 1e4).round() / 1e4);
        b.val_auc = Some((r.auc * 1e4).round() / 1e4);
    }
}
