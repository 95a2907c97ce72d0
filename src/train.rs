//! Training the classifier, and measuring it honestly out of fold.
//!
//! Every page of the given manifests gives samples: one per scored node (visible, in
//! `<body>`, estimated area ≥ 2,000 px², at most [`MAX_SAMPLES_PER_PAGE`] per page), with
//! its feature row and up to two labels:
//! - **SiteLevel** (the paper's section 5.1): on sites with at least `min_pages` pages in a
//!   manifest, SiteLevel(θ) labels text nodes; a node is template when more than half of its
//!   visible words are in template text. (SiteLevel's own element labels use an
//!   85%-of-bytes rule that marks `<html>` and `<body>` template on pages heavy with
//!   navigation and scripts; as targets those would teach the classifier that the smoothing
//!   root is template, and monotone smoothing would take every node with it.)
//! - **gold**: on pages with gold main text, the page's words are aligned with the gold
//!   words ([`crate::align`]); a node is template when less than half of its words align.
//!
//! [`LabelSource::Both`] takes the gold label where there is one and SiteLevel's otherwise.
//! Sites are assigned to folds by a hash of their name, so a site is never in both training
//! and validation; [`cross_validate`] reports word-F1 on every page from a model that never
//! saw its site. The area-bucket edges are the quartiles of the training samples' areas.
//! Everything is deterministic.

use std::path::PathBuf;

use rayon::prelude::*;

use crate::align::align;
use crate::boost::{self, BoostParams};
use crate::classify::{auc, bucket_of, fit_bucket, transform, BucketModel, Model};
use crate::features::{self, FeatureOptions, ALL_COUNT, COUNT, NAMES, PAPER_COUNT};
use crate::manifest::{Entry, Manifest};
use crate::metrics::{word_prf, Prf};
use crate::pipeline::{analyze, Analysis, Options};
use crate::segment::{segment, Variant, DEFAULT_MIN_AREA};
use crate::site::{group_manifest, run_site, Outcome, RunOptions, SiteGroup};
use crate::threshold::PageSummary;
use crate::{Error, Page, Result};

/// Most samples kept from one page (every k-th scored node), so large pages do not dominate.
pub const MAX_SAMPLES_PER_PAGE: usize = 250;
/// Most samples per class and bucket given to one regression (chosen deterministically).
pub const MAX_PER_CLASS: usize = 25_000;
/// L2 regularisation strength given to smartcore.
pub const ALPHA: f64 = 1.0;
/// Number of folds (by site) for cross-validation.
pub const FOLDS: u64 = 5;

/// Which labels the classifier learns from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LabelSource {
    /// SiteLevel labels only (the paper).
    Sitelevel,
    /// Labels aligned from gold main text only.
    Gold,
    /// Gold where a page has it, SiteLevel elsewhere.
    Both,
}

/// Which classifier is fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Classifier {
    /// The paper's logistic regression per area bucket (the Basic baseline).
    Lr,
    /// Gradient-boosted trees over all buckets ([`crate::boost`]).
    Boost,
}

/// Which features the classifier uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum FeatureSet {
    /// The paper's and boilerpipe's features (the first [`PAPER_COUNT`] columns).
    Paper,
    /// All features but the context columns: class names, landmarks, document position.
    All,
    /// All features plus the context columns (from [`features::f::PARAGRAPH_WORD_SHARE`] on:
    /// where a node sits among its siblings and relative to the page's main region).
    Context,
}

impl FeatureSet {
    /// The feature names of this set.
    pub fn names(self) -> Vec<String> {
        let k = match self {
            FeatureSet::Paper => PAPER_COUNT,
            FeatureSet::All => ALL_COUNT,
            FeatureSet::Context => COUNT,
        };
        NAMES[..k].iter().map(|s| s.to_string()).collect()
    }
}

/// Settings of a training run.
#[derive(Debug, Clone)]
pub struct TrainOptions {
    /// Manifests whose pages provide samples.
    pub manifests: Vec<PathBuf>,
    /// SiteLevel and limits settings.
    pub run: RunOptions,
    /// Label source.
    pub labels: LabelSource,
    /// Feature set.
    pub features: FeatureSet,
    /// Keep every page's smoothing tree and feature rows ([`PageRecord::tree`]), which
    /// stacked models ([`FitOptions::stages`] 2) are fitted from.
    pub keep_trees: bool,
}

/// What a model is fitted from: labels, features and classifier.
#[derive(Debug, Clone, Copy)]
pub struct FitOptions {
    /// Label source.
    pub labels: LabelSource,
    /// Feature set.
    pub features: FeatureSet,
    /// Classifier.
    pub classifier: Classifier,
    /// Boosting settings (used by [`Classifier::Boost`]).
    pub boost: BoostParams,
    /// Columns of the feature set left out, bit k for column k of [`NAMES`] (ablations; see
    /// [`feature_mask`]). 0 keeps them all.
    pub without: u128,
    /// 1: one forest. 2: stacked, a second forest over the node's features and the stacked
    /// features of cross-fitted first-stage scores ([`crate::stack`], boosted trees only; the
    /// records need [`TrainOptions::keep_trees`]).
    pub stages: u8,
    /// Boosting settings of the second stage.
    pub stage2: BoostParams,
}

/// The mask of [`FitOptions::without`] for the named features.
///
/// # Errors
/// [`Error::Model`] for a name that is not a feature.
pub fn feature_mask(names: &[String]) -> Result<u128> {
    const _: () = assert!(COUNT <= 128, "FitOptions::without holds 128 columns");
    names.iter().try_fold(0u128, |mask, name| {
        let k = NAMES
            .iter()
            .position(|n| n == name)
            .ok_or_else(|| Error::Model(format!("no feature named {name}")))?;
        Ok(mask | 1 << k)
    })
}

/// One scored node of a page.
#[derive(Debug, Clone)]
pub struct Sample {
    /// Estimated area in px².
    pub area: f32,
    /// The node's feature row, all `COUNT` values, untransformed.
    pub x: Vec<f32>,
    /// SiteLevel label (true = template), when the page's site could be labelled.
    pub sitelevel: Option<bool>,
    /// Gold-alignment label, when the page has gold text and the node has words.
    pub gold: Option<bool>,
    /// The node's index in its page's [`PageTree`] (`u32::MAX` when the node is not in the
    /// smoothing tree).
    pub node: u32,
}

/// A page's smoothing tree and the feature rows of its nodes, what a stacked model's
/// second stage is trained from.
#[derive(Debug, Clone)]
pub struct PageTree {
    /// The tree, nodes in document order.
    pub tree: crate::stack::Tree,
    /// One feature row per tree node, in the tree's order.
    pub rows: features::FeatureMatrix,
}

/// One page's record.
#[derive(Debug, Clone)]
pub struct PageRecord {
    /// Manifest entry.
    pub entry: Entry,
    /// Data root of its manifest.
    pub root: PathBuf,
    /// Site key.
    pub site: String,
    /// Its samples.
    pub samples: Vec<Sample>,
    /// Its smoothing tree and rows, when [`TrainOptions::keep_trees`] asked for them.
    pub tree: Option<PageTree>,
}

impl PageRecord {
    /// The fold of the page's site.
    pub fn fold(&self) -> u64 {
        fold_of(&self.site)
    }
}

/// The fold of a site (a stable hash of its name).
pub fn fold_of(site: &str) -> u64 {
    let h = site.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
        (h ^ b as u64).wrapping_mul(0x0100_0000_01b3)
    });
    h % FOLDS
}

/// Per-bucket validation figures.
#[derive(Debug, Clone)]
pub struct BucketReport {
    /// Bucket index.
    pub bucket: usize,
    /// Area range `[lo, hi)` in px².
    pub range: (f64, f64),
    /// Training samples before balancing, and their template share.
    pub train: (usize, f64),
    /// Validation samples and their template share.
    pub val: (usize, f64),
    /// Validation accuracy at 0.5.
    pub accuracy: f64,
    /// Validation ROC AUC.
    pub auc: f64,
}

/// Reads every page of the manifests and computes its samples and labels.
///
/// # Errors
/// A manifest that cannot be read. Pages that fail are reported on stderr and skipped.
pub fn collect(opts: &TrainOptions) -> Result<Vec<PageRecord>> {
    let mut records = Vec::new();
    let fopts = FeatureOptions::default();
    for path in &opts.manifests {
        let m = Manifest::load(path, None)?;
        let by_id: std::collections::HashMap<&str, &Entry> =
            m.entries.iter().map(|e| (e.html.as_str(), e)).collect();
        for group in group_manifest(&m) {
            let mut out: Vec<PageRecord> = Vec::new();
            let entry_of = |p: &str| (*by_id[p]).clone();
            let keep = opts.keep_trees;
            let make = |page: &Page, labels: Option<&[bool]>, gold: Option<String>| {
                page_samples(page, labels, gold.as_deref(), &fopts, keep)
            };
            if group.pages.len() >= opts.run.sitelevel.min_pages {
                run_site(
                    &group,
                    &opts.run,
                    |p, page, labels| make(page, Some(labels), read_gold(p.gold.as_ref())),
                    |p, outcome| match outcome {
                        Outcome::Labelled((samples, tree)) => out.push(PageRecord {
                            entry: entry_of(&p.path),
                            root: m.root.clone(),
                            site: group.name.clone(),
                            samples,
                            tree,
                        }),
                        Outcome::Failed(e) => eprintln!("train: {}: {e}", p.path),
                        Outcome::Skipped(_) => {}
                    },
                );
            }
            if out.is_empty() {
                out = plain_pages(&group, &opts.run, &make, &entry_of, &m.root);
            }
            records.extend(out);
        }
    }
    Ok(records)
}

/// Computes a page's samples from its SiteLevel labels and gold text, when known.
type MakeSamples<'a> =
    dyn Fn(&Page, Option<&[bool]>, Option<String>) -> (Vec<Sample>, Option<PageTree>) + Sync + 'a;

/// Pages of a site SiteLevel cannot label: samples with gold labels only.
fn plain_pages(
    group: &SiteGroup,
    run: &RunOptions,
    make: &MakeSamples<'_>,
    entry_of: &(dyn Fn(&str) -> Entry + Sync),
    root: &std::path::Path,
) -> Vec<PageRecord> {
    group
        .pages
        .par_iter()
        .filter_map(|p| {
            let page = match Page::from_path(&p.file, p.url.as_deref(), &run.limits) {
                Ok(page) => page,
                Err(e) => {
                    eprintln!("train: {}: {e}", p.path);
                    return None;
                }
            };
            let (samples, tree) = make(&page, None, read_gold(p.gold.as_ref()));
            Some(PageRecord {
                entry: entry_of(&p.path),
                root: root.to_path_buf(),
                site: group.name.clone(),
                samples,
                tree,
            })
        })
        .collect()
}

fn read_gold(path: Option<&PathBuf>) -> Option<String> {
    path.and_then(|p| std::fs::read_to_string(p).ok())
}

/// The samples of one page: rows of its scored nodes with their labels; with `keep_tree`
/// also its smoothing tree and the rows of the tree's nodes.
fn page_samples(
    page: &Page,
    labels: Option<&[bool]>,
    gold: Option<&str>,
    fopts: &FeatureOptions,
    keep_tree: bool,
) -> (Vec<Sample>, Option<PageTree>) {
    let dom = &page.dom;
    let pf = features::compute(dom, page.url.as_deref(), fopts);
    let Some(body) = dom.body() else {
        return (Vec::new(), None);
    };
    let (_, scored) = crate::segment::scored_mask(dom, &pf, DEFAULT_MIN_AREA);
    let tree = crate::stack::Tree::from_scored(dom, &pf.counts, &scored);
    let mut compact = vec![u32::MAX; dom.len()];
    for (c, &i) in tree.nodes.iter().enumerate() {
        compact[i as usize] = c as u32;
    }
    let nodes = labelled_nodes(dom, body, &pf);
    // SiteLevel word shares: visible words in template-labelled text per subtree (all
    // visible words per subtree are already in the feature counts).
    let n = dom.len();
    let site_words = labels.map(|labels| {
        let mut template = vec![0u32; n];
        for i in (1..n).rev() {
            if dom.node(i).kind == crate::dom::Kind::Text && labels[i] {
                template[i] += pf.counts[i].words;
            }
            let p = dom.node(i).parent as usize;
            template[p] += template[i];
        }
        (template, labels)
    });
    let alignment = gold.map(|g| align(dom, &pf.visible, g));
    let step = nodes.len().div_ceil(MAX_SAMPLES_PER_PAGE).max(1);
    let samples = nodes
        .iter()
        .step_by(step)
        .map(|&i| {
            let row = pf.matrix.row(i);
            Sample {
                area: pf.layout.rects[i].area(),
                x: row.to_vec(),
                sitelevel: site_words.as_ref().map(|(template, labels)| {
                    let (all, t) = (pf.counts[i].words, template[i]);
                    if all == 0 {
                        labels[i]
                    } else {
                        2 * t > all
                    }
                }),
                gold: alignment
                    .as_ref()
                    .and_then(|a| a.share(i))
                    .map(gold_template),
                node: compact[i],
            }
        })
        .collect();
    let tree = keep_tree.then(|| {
        let data: Vec<f32> = tree
            .nodes
            .iter()
            .flat_map(|&i| pf.matrix.row(i as usize).iter().copied())
            .collect();
        PageTree {
            rows: features::FeatureMatrix::from_data(data),
            tree,
        }
    });
    (samples, tree)
}

/// The nodes that get labels: visible elements of `<body>` (from `body` on) whose estimated
/// area is at least [`DEFAULT_MIN_AREA`], the nodes the pipeline scores. O(n).
pub fn labelled_nodes(
    dom: &crate::dom::Dom,
    body: usize,
    pf: &features::PageFeatures,
) -> Vec<usize> {
    let end = dom.node(body).end as usize;
    (body..end)
        .filter(|&i| {
            dom.node(i).kind == crate::dom::Kind::Element
                && pf.visible[i]
                && pf.layout.rects[i].area() >= DEFAULT_MIN_AREA
        })
        .collect()
}

/// The gold label of a node from its content share (aligned words / words): template below
/// one half.
pub fn gold_template(share: f32) -> bool {
    share < 0.5
}

/// The label a sample trains with under `source`, if any.
pub fn label(s: &Sample, source: LabelSource) -> Option<bool> {
    match source {
        LabelSource::Sitelevel => s.sitelevel,
        LabelSource::Gold => s.gold,
        LabelSource::Both => s.gold.or(s.sitelevel),
    }
}

/// Quartile edges of the areas.
pub fn quartile_edges(areas: &mut [f32]) -> Vec<f64> {
    areas.sort_by(f32::total_cmp);
    if areas.is_empty() {
        return vec![1e4, 1e5, 1e6];
    }
    (1..4)
        .map(|q| areas[(areas.len() * q / 4).min(areas.len() - 1)] as f64)
        .collect()
}

/// Fits a model on the pages for which `use_page` holds.
///
/// # Errors
/// [`Error::Model`] when there are no samples or a bucket lacks a class.
pub fn fit(
    records: &[PageRecord],
    use_page: impl Fn(&PageRecord) -> bool,
    fo: &FitOptions,
    provenance: String,
) -> Result<Model> {
    if fo.stages >= 2 {
        return fit_stacked(records, &use_page, fo, provenance);
    }
    let names: Vec<String> = fo
        .features
        .names()
        .into_iter()
        .enumerate()
        .filter(|(k, _)| fo.without >> k & 1 == 0)
        .map(|(_, n)| n)
        .collect();
    let cols = crate::classify::columns_of(&names)?;
    let mut rows: Vec<(f32, &Sample, bool)> = Vec::new();
    for r in records.iter().filter(|r| use_page(r)) {
        for s in &r.samples {
            if let Some(y) = label(s, fo.labels) {
                rows.push((s.area, s, y));
            }
        }
    }
    if rows.is_empty() {
        return Err(Error::Model("no labelled samples".into()));
    }
    let mut areas: Vec<f32> = rows.iter().map(|r| r.0).collect();
    let edges = quartile_edges(&mut areas);
    let mut model = Model {
        format: crate::classify::FORMAT.into(),
        version: crate::classify::VERSION_WITHOUT_THRESHOLD,
        columns: cols.clone(),
        features: names,
        bucket_edges: edges.clone(),
        buckets: Vec::new(),
        boost: None,
        provenance,
        threshold: None,
        stage2: None,
    };
    if fo.classifier == Classifier::Boost {
        let x: Vec<Vec<f32>> = rows
            .iter()
            .map(|r| cols.iter().map(|&k| r.1.x[k]).collect())
            .collect();
        let y: Vec<bool> = rows.iter().map(|r| r.2).collect();
        // Classes weigh the same in total, as the regressions' balanced down-sampling does, and
        // a node weighs ln(2 + words) more: word-F1 counts words, so long blocks matter more,
        // but not linearly, or one long article would outweigh a page of short items.
        let words: Vec<f32> = rows
            .iter()
            .map(|r| r.1.x[crate::features::f::NUM_WORDS])
            .collect();
        let w = sample_weights(&y, &words);
        let mut forest = boost::fit(
            &boost::Samples {
                rows: &x,
                labels: &y,
                weights: &w,
            },
            &fo.boost,
        );
        forest
            .resolve(&cols)
            .map_err(|e| Error::Model(format!("boosted trees: {e}")))?;
        model.boost = Some(forest);
        return Ok(model);
    }
    model.buckets = (0..=edges.len())
        .map(|b| {
            let mine: Vec<&(f32, &Sample, bool)> = rows
                .iter()
                .filter(|r| bucket_of(&edges, r.0 as f64) == b)
                .collect();
            let x: Vec<Vec<f64>> = mine
                .iter()
                .map(|r| cols.iter().map(|&k| transform(k, r.1.x[k])).collect())
                .collect();
            let y: Vec<bool> = mine.iter().map(|r| r.2).collect();
            fit_bucket(&x, &y, ALPHA, 0x5eed + b as u64, MAX_PER_CLASS)
                .map_err(|e| Error::Model(format!("bucket {b}: {e}")))
        })
        .collect::<Result<Vec<BucketModel>>>()?;
    Ok(model)
}

/// The boosted trees' sample weights: classes weigh the same in total, and a node weighs
/// ln(2 + words) more. O(s).
fn sample_weights(y: &[bool], words: &[f32]) -> Vec<f32> {
    let pos = y.iter().filter(|&&t| t).count().max(1) as f32;
    let neg = (y.len() as f32 - pos).max(1.0);
    let half = y.len() as f32 / 2.0;
    y.iter()
        .zip(words)
        .map(|(&t, &words)| {
            let class = if t { half / pos } else { half / neg };
            class * (2.0 + words).ln()
        })
        .collect()
}

/// Fits a stacked model on the pages for which `use_page` holds: the first stage as [`fit`]
/// does, and the second on the nodes' rows and stacked features ([`crate::stack`]) of
/// first-stage scores **cross-fitted by site fold**: the pages of fold j are scored by a
/// first stage fitted on the chosen pages of the other folds, so the second stage learns from
/// scores distributed as on pages the first stage never saw. (Inside [`cross_validate`],
/// whose `use_page` leaves out fold k, the held-out fold is never fitted on at either stage.)
///
/// # Errors
/// As [`fit`]; [`Error::Model`] when the records have no trees or the classifier is not
/// boosted.
///
/// # Complexity
/// One first-stage fit per fold that has chosen pages, plus one on all of them, one scoring
/// of every chosen page's tree, and one second-stage fit.
fn fit_stacked(
    records: &[PageRecord],
    use_page: &dyn Fn(&PageRecord) -> bool,
    fo: &FitOptions,
    provenance: String,
) -> Result<Model> {
    if fo.classifier != Classifier::Boost {
        return Err(Error::Model("a stacked model needs boosted trees".into()));
    }
    let one = FitOptions { stages: 1, ..*fo };
    let mut s1: Vec<Option<Vec<f32>>> = vec![None; records.len()];
    for j in 0..FOLDS {
        let mine: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].fold() == j && use_page(&records[i]))
            .collect();
        if mine.is_empty() {
            continue;
        }
        if mine.iter().any(|&i| records[i].tree.is_none()) {
            return Err(Error::Model(
                "a stacked model needs the pages' trees (TrainOptions::keep_trees)".into(),
            ));
        }
        let inner = fit(
            records,
            |r| r.fold() != j && use_page(r),
            &one,
            String::new(),
        )?;
        let scores: Vec<(usize, Vec<f32>)> = mine
            .par_iter()
            .filter_map(|&i| {
                let t = records[i].tree.as_ref()?;
                Some((i, inner.score_all(&t.rows, &vec![true; t.tree.len()])))
            })
            .collect();
        for (i, s) in scores {
            s1[i] = Some(s);
        }
    }
    let mut model = fit(records, use_page, &one, provenance)?;
    let names: Vec<String> = model
        .features
        .iter()
        .cloned()
        .chain(crate::stack::STACK_NAMES.iter().map(|s| s.to_string()))
        .collect();
    let cols = crate::stack::stacked_columns(&names)?;
    let per_page: Vec<Vec<(Vec<f32>, bool, f32)>> = (0..records.len())
        .into_par_iter()
        .map(|i| {
            let (r, Some(s)) = (&records[i], s1[i].as_ref()) else {
                return Vec::new();
            };
            let Some(t) = &r.tree else {
                return Vec::new();
            };
            let z = crate::stack::features(&t.tree, s);
            let k = crate::stack::STACK_COUNT;
            r.samples
                .iter()
                .filter(|smp| smp.node != u32::MAX)
                .filter_map(|smp| {
                    let y = label(smp, fo.labels)?;
                    let c = smp.node as usize;
                    let x: Vec<f32> = cols
                        .iter()
                        .map(|&col| match col < COUNT {
                            true => smp.x[col],
                            false => z[c * k + col - COUNT],
                        })
                        .collect();
                    Some((x, y, smp.x[crate::features::f::NUM_WORDS]))
                })
                .collect()
        })
        .collect();
    let rows: Vec<(Vec<f32>, bool, f32)> = per_page.into_iter().flatten().collect();
    if rows.is_empty() {
        return Err(Error::Model(
            "no labelled samples for the second stage".into(),
        ));
    }
    let y: Vec<bool> = rows.iter().map(|r| r.1).collect();
    let words: Vec<f32> = rows.iter().map(|r| r.2).collect();
    let x: Vec<Vec<f32>> = rows.into_iter().map(|r| r.0).collect();
    let w = sample_weights(&y, &words);
    let forest = boost::fit(
        &boost::Samples {
            rows: &x,
            labels: &y,
            weights: &w,
        },
        &fo.stage2,
    );
    let mut stage2 = crate::stack::Stage2 {
        features: names,
        forest,
        columns: Vec::new(),
    };
    stage2.resolve()?;
    model.stage2 = Some(stage2);
    model.version = crate::classify::VERSION;
    Ok(model)
}

/// Per-bucket accuracy and AUC of `model` on the samples of pages for which `use_page` holds.
pub fn validate(
    model: &Model,
    records: &[PageRecord],
    use_page: impl Fn(&PageRecord) -> bool,
    labels: LabelSource,
) -> Vec<BucketReport> {
    let edges = &model.bucket_edges;
    let mut per: Vec<(Vec<f64>, Vec<bool>)> = vec![(Vec::new(), Vec::new()); edges.len() + 1];
    for r in records.iter().filter(|r| use_page(r)) {
        for s in &r.samples {
            if let Some(y) = label(s, labels) {
                let b = bucket_of(edges, s.area as f64);
                per[b].0.push(model.score(&s.x) as f64);
                per[b].1.push(y);
            }
        }
    }
    per.iter()
        .enumerate()
        .map(|(b, (scores, ys))| {
            let correct = scores
                .iter()
                .zip(ys)
                .filter(|(p, y)| (**p >= 0.5) == **y)
                .count();
            BucketReport {
                bucket: b,
                range: (
                    if b == 0 { 0.0 } else { edges[b - 1] },
                    edges.get(b).copied().unwrap_or(f64::INFINITY),
                ),
                train: (model.buckets.get(b).map_or(0, |m| m.train_samples), 0.5),
                val: (
                    ys.len(),
                    ys.iter().filter(|y| **y).count() as f64 / ys.len().max(1) as f64,
                ),
                accuracy: correct as f64 / ys.len().max(1) as f64,
                auc: auc(scores, ys),
            }
        })
        .collect()
}

/// Out-of-fold word-F1 per page: each page is scored by a model trained on the other folds'
/// sites. Returns, for every entry of `opts`, (record index, P/R/F1) for every page with gold
/// text; the entries share the fold models and the first entry's features (only their
/// segment options are read), so their differences are decoding effects.
///
/// # Errors
/// When a fold's model cannot be fitted.
///
/// # Complexity
/// One fit per fold; per page one parse and feature pass, and one segmentation per `opts`.
pub fn cross_validate(
    records: &[PageRecord],
    fo: &FitOptions,
    opts: &[Options],
    limits: &crate::Limits,
) -> Result<Vec<Vec<(usize, Prf)>>> {
    Ok(cross_validate_with(records, fo, opts, limits, &[])?.0)
}

/// One page's out-of-fold material for the threshold model: its summaries under the first
/// entry of `opts` and its word-F1 at every threshold of the grid.
#[derive(Debug, Clone)]
pub struct ThresholdRow {
    /// The page's summaries ([`PageSummary`]).
    pub summary: PageSummary,
    /// Word-F1 at each grid threshold.
    pub f1: Vec<f64>,
}

/// Per page with gold text: (record index, P/R/F1).
pub type PageScores = Vec<(usize, Prf)>;
/// Per page with gold text: (record index, threshold row), by record index.
pub type ThresholdRows = Vec<(usize, ThresholdRow)>;

/// The threshold rows of the pages of fold `score` (with gold text) from a model fitted on
/// the pages of every fold not in `exclude`, under `opts`. With `exclude` = {k, j} and
/// `score` = j for every j ≠ k, the rows of the folds other than k come from models that
/// never saw fold k: a threshold model fitted on them knows nothing of fold k (the nested
/// scheme of `train --cv --threshold-model --threshold-nested`).
///
/// # Errors
/// When the model cannot be fitted.
///
/// # Complexity
/// One fit; per scored page one parse, feature pass, segmentation, and per grid threshold
/// one pass over the nodes and one rendering.
pub fn fold_threshold_rows(
    records: &[PageRecord],
    fo: &FitOptions,
    opts: &Options,
    limits: &crate::Limits,
    grid: &[f32],
    exclude: &[u64],
    score: u64,
) -> Result<ThresholdRows> {
    let model = fit(records, |r| !exclude.contains(&r.fold()), fo, String::new())?;
    let mut rows: ThresholdRows = (0..records.len())
        .filter(|&i| records[i].fold() == score && records[i].entry.gold.is_some())
        .collect::<Vec<usize>>()
        .par_iter()
        .filter_map(|&i| {
            let r = &records[i];
            let gold = std::fs::read_to_string(r.root.join(r.entry.gold.as_ref()?)).ok()?;
            let page = Page::from_path(&r.root.join(&r.entry.html), r.entry.url.as_deref(), limits)
                .ok()?;
            let mut a = analyze(page, &model, opts);
            Some((i, threshold_row(&mut a, &model, opts, grid, &gold)))
        })
        .collect();
    rows.sort_by_key(|p| p.0);
    Ok(rows)
}

/// [`cross_validate`], and with a non-empty `grid` also every page's [`ThresholdRow`] (record
/// index, row) under the first entry of `opts`, from the same out-of-fold node scores.
///
/// # Errors
/// When a fold's model cannot be fitted.
///
/// # Complexity
/// As [`cross_validate`], plus per page and grid threshold one pass over the nodes and one
/// rendering of the text (for Smooth and Basic the flags are re-derived from y; the
/// structured variants segment again).
pub fn cross_validate_with(
    records: &[PageRecord],
    fo: &FitOptions,
    opts: &[Options],
    limits: &crate::Limits,
    grid: &[f32],
) -> Result<(Vec<PageScores>, ThresholdRows)> {
    let mut out = vec![Vec::new(); opts.len()];
    let mut rows = Vec::new();
    let Some(first) = opts.first() else {
        return Ok((out, rows));
    };
    for k in 0..FOLDS {
        let model = fit(records, |r| r.fold() != k, fo, String::new())?;
        let mine: Vec<usize> = (0..records.len())
            .filter(|&i| records[i].fold() == k && records[i].entry.gold.is_some())
            .collect();
        type Scored = (usize, Vec<Prf>, Option<ThresholdRow>);
        let scored: Vec<Scored> = mine
            .par_iter()
            .filter_map(|&i| {
                let r = &records[i];
                let gold = std::fs::read_to_string(r.root.join(r.entry.gold.as_ref()?)).ok()?;
                let page =
                    Page::from_path(&r.root.join(&r.entry.html), r.entry.url.as_deref(), limits)
                        .ok()?;
                let mut a = analyze(page, &model, first);
                let mut prfs = vec![word_prf(&a.main_text(), &gold)];
                let row =
                    (!grid.is_empty()).then(|| threshold_row(&mut a, &model, first, grid, &gold));
                for o in &opts[1..] {
                    a.segmentation = segment(&a.page.dom, &a.features, &model, &o.segment);
                    prfs.push(word_prf(&a.main_text(), &gold));
                }
                Some((i, prfs, row))
            })
            .collect();
        for (i, prfs, row) in scored {
            for (v, prf) in prfs.into_iter().enumerate() {
                out[v].push((i, prf));
            }
            if let Some(row) = row {
                rows.push((i, row));
            }
        }
    }
    for v in &mut out {
        v.sort_by_key(|p| p.0);
    }
    rows.sort_by_key(|p| p.0);
    Ok((out, rows))
}

/// An analysed page's [`ThresholdRow`]: its summaries and its word-F1 against `gold` at each
/// threshold of `grid` instead of its own (its segmentation is restored after). For Smooth and
/// Basic a node is template exactly when y ≥ t, so the flags are re-derived from y (O(n) a
/// threshold); the structured variants decode with the threshold, so they segment again.
fn threshold_row(
    a: &mut Analysis,
    model: &Model,
    opts: &Options,
    grid: &[f32],
    gold: &str,
) -> ThresholdRow {
    let summary = PageSummary::of(&a.page.dom, &a.features, &a.segmentation.y);
    let saved = a.segmentation.clone();
    let f1 = grid
        .iter()
        .map(|&t| {
            match opts.segment.variant {
                Variant::Smooth | Variant::Basic => {
                    let seg = &mut a.segmentation;
                    for (flag, &y) in seg.template.iter_mut().zip(&seg.y) {
                        *flag = !y.is_nan() && y >= t;
                    }
                    seg.threshold = t;
                }
                _ => {
                    let mut o = opts.segment;
                    o.threshold = t;
                    o.learned_threshold = false;
                    a.segmentation = segment(&a.page.dom, &a.features, model, &o);
                }
            }
            word_prf(&a.main_text(), gold).f1
        })
        .collect();
    a.segmentation = saved;
    ThresholdRow { summary, f1 }
}
