//! Training the classifier, and measuring it honestly out of fold.
//!
//! Every page of the given manifests gives samples: one per scored node (visible, in
//! `<body>`, estimated area ≥ 2,000 px², by default at most [`MAX_SAMPLES_PER_PAGE`] per
//! page, see [`Sampling`]), with its feature row and up to two labels, each with the
//! template word share it is cut from (the soft target of [`Targets::Soft`]):
//! - **SiteLevel** (the paper's section 5.1): on sites with at least `min_pages` pages in a
//!   manifest, SiteLevel(θ) labels text nodes; a node is template when more than half of its
//!   visible words are in template text. (SiteLevel's own element labels use an
//!   85%-of-bytes rule that marks `<html>` and `<body>` template on pages heavy with
//!   navigation and scripts; as targets those would teach the classifier that the smoothing
//!   root is template, and monotone smoothing would take every node with it.)
//! - **gold**: on pages with gold main text, the page's words are aligned with the gold
//!   words ([`crate::train::align`](mod@crate::train::align)); a node is template when less than half of its words align.
//!
//! [`LabelSource::Both`] takes the gold label where there is one and SiteLevel's otherwise.
//! The boosted trees weigh samples by [`sample_weights`] (class balance × a word weight,
//! optionally normalised per page); the regressions balance classes by down-sampling.
//! Sites are assigned to folds by a hash of their name, so a site is never in both training
//! and validation; [`cross_validate_ablating`] reports word-F1 on every page from a model that never
//! saw its site. The area-bucket edges are the quartiles of the training samples' areas.
//! Everything is deterministic.

pub mod align;
pub mod cv;
pub mod label;
pub mod report;

use std::path::PathBuf;

use rayon::prelude::*;

use crate::eval::metrics::{word_prf, Prf};
use crate::features::{self, FeatureOptions, ALL_COUNT, COUNT, NAMES, PAPER_COUNT};
use crate::input::manifest::{Entry, Manifest};
use crate::model::boost::{self, BoostParams};
use crate::model::threshold::PageSummary;
use crate::model::{auc, bucket_of, fit_bucket, transform, BucketModel, Model};
use crate::output::text::render_text;
use crate::pipeline::{analyze, Analysis, Options};
use crate::rules::{main_keep, RuleSet};
use crate::segment::{segment, Variant, DEFAULT_MIN_AREA};
use crate::site::{group_manifest, run_site, Outcome, RunOptions, SiteGroup};
use crate::train::align::align;
use crate::{Error, Page, Result};

/// Most samples kept from one page (every k-th scored node), so large pages do not dominate.
pub const MAX_SAMPLES_PER_PAGE: usize = 250;

/// Which nodes of a page become samples when it has more than [`Sampling::max`] scored nodes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum SampleOrder {
    /// Every k-th node in document order.
    Document,
    /// Every k-th node by descending area (ties in document order): one node from each run of
    /// k in area order, so the few large containers are represented as the many small blocks.
    Area,
    /// Every k-th node by ascending depth (ties in document order): one from each run of k.
    Depth,
}

/// How a page's scored nodes are thinned to samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Sampling {
    /// Most samples per page; 0 keeps every scored node.
    pub max: usize,
    /// Which ones are kept.
    pub order: SampleOrder,
}

impl Default for Sampling {
    fn default() -> Self {
        Sampling {
            max: MAX_SAMPLES_PER_PAGE,
            order: SampleOrder::Document,
        }
    }
}

/// What the boosted trees are fitted to (the regressions always take the 0/1 labels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Targets {
    /// 0/1 labels: template when more than half of the node's words are template.
    Hard,
    /// The node's template word share in [0, 1] (gold: 1 − aligned share; SiteLevel: share
    /// of words in template text), as the logistic loss's target.
    Soft,
}

/// How a sample's words scale its weight in the boosted fit (on top of the class balance).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum WordWeight {
    /// Every sample weighs the same.
    Equal,
    /// ln(2 + words).
    Log,
    /// √(1 + words).
    Sqrt,
}

/// Whether the boosted fit's weights are normalised per page.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum PageNorm {
    /// No: a page weighs the sum of its samples' weights.
    None,
    /// Each page's samples sum to the same weight (the mean page's), as word-F1 averages
    /// pages: a page with 250 samples counts as much as one with 20.
    Page,
}
/// Most samples per class and bucket given to one regression (chosen deterministically).
pub const MAX_PER_CLASS: usize = 25_000;
/// L2 regularisation strength given to smartcore.
pub const ALPHA: f64 = 1.0;
/// Number of folds (by site) for cross-validation.
pub const FOLDS: u64 = 5;
// `--fold-by site`'s help says 5.
const _: () = assert!(FOLDS == 5);

/// How `train --cv` holds pages out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum FoldBy {
    /// [`FOLDS`] folds by a hash of the site: no site is both trained on and scored.
    #[default]
    #[cfg_attr(
        feature = "cli",
        value(help = "5 folds by a hash of the site: no site is both trained on and scored")
    )]
    Site,
    /// Leave one set out: each set is scored by a model trained on all the other sets, which
    /// measures how the model carries over to pages collected and annotated another way.
    Set,
}

impl FoldBy {
    /// The folds of `records` under this scheme.
    pub fn folds(self, records: &[PageRecord]) -> Folds {
        let mut sets: Vec<String> = Vec::new();
        if self == FoldBy::Set {
            for r in records {
                let s = r.entry.set.clone().unwrap_or_default();
                if !sets.contains(&s) {
                    sets.push(s);
                }
            }
        }
        Folds { by: self, sets }
    }
}

/// The held-out folds of one cross-validation ([`FoldBy::folds`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Folds {
    /// The scheme.
    pub by: FoldBy,
    /// By set: the sets in order of first appearance, fold k being the k-th.
    pub sets: Vec<String>,
}

impl Folds {
    /// Number of folds.
    pub fn count(&self) -> u64 {
        match self.by {
            FoldBy::Site => FOLDS,
            FoldBy::Set => self.sets.len() as u64,
        }
    }

    /// The fold of a page. O(1) by site, O(s) by set for s sets.
    pub fn of(&self, r: &PageRecord) -> u64 {
        match self.by {
            FoldBy::Site => r.fold(),
            FoldBy::Set => {
                let set = r.entry.set.as_deref().unwrap_or_default();
                self.sets.iter().position(|s| s == set).unwrap_or(0) as u64
            }
        }
    }
}

/// Which labels the classifier learns from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum LabelSource {
    /// SiteLevel labels only (the paper).
    Sitelevel,
    /// Labels aligned from gold main text only.
    Gold,
    /// Gold where a page has it, SiteLevel elsewhere.
    Both,
}

/// Which classifier is fitted.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Classifier {
    /// The paper's logistic regression per area bucket (the Basic baseline).
    Lr,
    /// Gradient-boosted trees over all buckets ([`crate::model::boost`]).
    #[cfg_attr(
        feature = "cli",
        value(help = "Gradient-boosted trees over all buckets")
    )]
    Boost,
}

impl Classifier {
    /// The default number of stages: 2 (stacked) for boosted trees, 1 for the regressions
    /// (which cannot be stacked).
    pub fn default_stages(self) -> u8 {
        match self {
            Classifier::Boost => 2,
            Classifier::Lr => 1,
        }
    }
}

/// Which features the classifier uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum FeatureSet {
    /// The paper's and boilerpipe's features (the first [`PAPER_COUNT`] columns).
    #[cfg_attr(
        feature = "cli",
        value(help = "The paper's and boilerpipe's features (the first columns of the table)")
    )]
    Paper,
    /// All features but the context columns: class names, landmarks, document position.
    All,
    /// All features plus the context columns (from [`features::f::PARAGRAPH_WORD_SHARE`] on:
    /// where a node sits among its siblings and relative to the page's main region).
    #[cfg_attr(
        feature = "cli",
        value(
            help = "All features plus the context columns: where a node sits among its siblings and relative to the page's main region"
        )
    )]
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
    /// Which scored nodes become samples.
    pub sampling: Sampling,
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
    /// features of cross-fitted first-stage scores ([`crate::model::stack`], boosted trees only; the
    /// records need [`TrainOptions::keep_trees`]).
    pub stages: u8,
    /// Boosting settings of the second stage.
    pub stage2: BoostParams,
    /// Boosted trees: hard or soft targets.
    pub targets: Targets,
    /// Boosted trees: weight of a sample's words.
    pub word_weight: WordWeight,
    /// Boosted trees: per-page normalisation of the weights.
    pub page_norm: PageNorm,
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
    /// SiteLevel template share: the share of the node's visible words in template text (its
    /// own 0/1 label without words); present with `sitelevel`.
    pub sitelevel_share: Option<f32>,
    /// Gold template share: 1 − aligned word share; present with `gold`.
    pub gold_share: Option<f32>,
    /// The node's index in its page's [`PageTree`] (`u32::MAX` when the node is not in the
    /// smoothing tree).
    pub node: u32,
}

/// A page's smoothing tree and the feature rows of its nodes, what a stacked model's
/// second stage is trained from.
#[derive(Debug, Clone)]
pub struct PageTree {
    /// The tree, nodes in document order.
    pub tree: crate::model::stack::Tree,
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

    /// The page, read and parsed again with `parser` within `limits`, with its gold text;
    /// `None` when it has no gold or either cannot be read (an out-of-fold scorer skips it).
    fn page_and_gold(
        &self,
        limits: &crate::Limits,
        parser: crate::dom::Parser,
    ) -> Option<(Page, String)> {
        let gold = std::fs::read_to_string(self.root.join(self.entry.gold.as_ref()?)).ok()?;
        let opts = crate::PageOptions {
            url: self.entry.url.as_deref(),
            limits: *limits,
            parser,
            ..Default::default()
        };
        let page = Page::from_path(&self.root.join(&self.entry.html), &opts).ok()?;
        Some((page, gold))
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
                page_samples(page, labels, gold.as_deref(), &fopts, &opts.sampling, keep)
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
            let page = match Page::from_path(
                &p.file,
                &crate::PageOptions {
                    url: p.url.as_deref(),
                    limits: run.limits,
                    parser: run.parser,
                    ..Default::default()
                },
            ) {
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
    sampling: &Sampling,
    keep_tree: bool,
) -> (Vec<Sample>, Option<PageTree>) {
    let dom = &page.dom;
    let pf = features::compute(dom, page.url.as_deref(), fopts);
    let Some(body) = dom.body() else {
        return (Vec::new(), None);
    };
    // URL dropout: a third of the pages with a URL train as if read without one, so that the
    // URL columns' "no URL" value means unknown, not the few sets that lack URLs.
    let url_dropped = page.url.as_deref().is_some_and(|u| {
        use std::hash::Hasher;
        let mut h = twox_hash::XxHash64::with_seed(0);
        h.write(u.as_bytes());
        h.finish().is_multiple_of(3)
    });
    let unurl = |row: &mut [f32]| {
        if url_dropped {
            for c in features::URL_COLUMNS {
                row[c] = -1.0;
            }
        }
    };
    let (_, scored) = crate::segment::scored_mask(dom, &pf, DEFAULT_MIN_AREA);
    let tree = crate::model::stack::Tree::from_scored(dom, &pf, &scored);
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
    let picked = pick(
        &nodes,
        sampling,
        |i| pf.layout.rects[i].area(),
        |i| dom.node(i).depth,
    );
    let samples = picked
        .into_iter()
        .map(|i| {
            let row = pf.matrix.row(i);
            let site = site_words.as_ref().map(|(template, labels)| {
                sitelevel_target(pf.counts[i].words, template[i], labels[i])
            });
            let share = alignment.as_ref().and_then(|a| a.share(i));
            let mut x = row.to_vec();
            unurl(&mut x);
            Sample {
                area: pf.layout.rects[i].area(),
                x,
                sitelevel: site.map(|s| s.0),
                gold: share.map(gold_template),
                sitelevel_share: site.map(|s| s.1),
                gold_share: share.map(gold_target),
                node: compact[i],
            }
        })
        .collect();
    let tree = keep_tree.then(|| {
        let mut data: Vec<f32> = tree
            .nodes
            .iter()
            .flat_map(|&i| pf.matrix.row(i as usize).iter().copied())
            .collect();
        data.chunks_mut(features::COUNT).for_each(unurl);
        PageTree {
            rows: features::FeatureMatrix::from_data(data),
            tree,
        }
    });
    (samples, tree)
}

/// A node's SiteLevel label and template share from its visible `words`, those of them in
/// template text, and its own label (which decides a node without words): template when
/// more than half of its words are.
pub fn sitelevel_target(words: u32, template: u32, own: bool) -> (bool, f32) {
    match words {
        0 => (own, own as u8 as f32),
        _ => (2 * template > words, template as f32 / words as f32),
    }
}

/// The nodes of `nodes` (document order) kept as samples: all when there are at most
/// `sampling.max` (or `max` is 0), else every k-th (k = ⌈len / max⌉, starting with the
/// first) in the order `sampling.order` names, returned in document order.
///
/// # Complexity
/// O(n log n) for the area and depth orders, O(n) for document order.
pub fn pick(
    nodes: &[usize],
    sampling: &Sampling,
    area: impl Fn(usize) -> f32,
    depth: impl Fn(usize) -> u32,
) -> Vec<usize> {
    if sampling.max == 0 || nodes.len() <= sampling.max {
        return nodes.to_vec();
    }
    let step = nodes.len().div_ceil(sampling.max);
    let mut order = nodes.to_vec();
    // Stable sorts: ties stay in document order.
    match sampling.order {
        SampleOrder::Document => {}
        SampleOrder::Area => order.sort_by(|&a, &b| area(b).total_cmp(&area(a))),
        SampleOrder::Depth => order.sort_by_key(|&i| depth(i)),
    }
    let mut out: Vec<usize> = order.into_iter().step_by(step).collect();
    out.sort_unstable();
    out
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
            crate::features::is_scorable(dom, &pf.visible, &pf.layout.rects, DEFAULT_MIN_AREA, i)
        })
        .collect()
}

/// The gold label of a node from its content share (aligned words / words): template below
/// one half.
pub fn gold_template(share: f32) -> bool {
    share < 0.5
}

/// The gold soft target of a node from its content share: its template share, 1 − share.
pub fn gold_target(share: f32) -> f32 {
    1.0 - share
}

/// The label a sample trains with under `source`, if any.
pub fn label(s: &Sample, source: LabelSource) -> Option<bool> {
    match source {
        LabelSource::Sitelevel => s.sitelevel,
        LabelSource::Gold => s.gold,
        LabelSource::Both => s.gold.or(s.sitelevel),
    }
}

/// The target a sample trains the boosted trees with under `source`: its label as 0/1, or
/// with [`Targets::Soft`] its template share, from the same source as [`label`](mod@label).
pub fn target(s: &Sample, source: LabelSource, targets: Targets) -> Option<f32> {
    let hard = |b: Option<bool>| b.map(|b| b as u8 as f32);
    let (gold, site) = match targets {
        Targets::Hard => (hard(s.gold), hard(s.sitelevel)),
        Targets::Soft => (s.gold_share, s.sitelevel_share),
    };
    match source {
        LabelSource::Sitelevel => site,
        LabelSource::Gold => gold,
        LabelSource::Both => gold.or(site),
    }
}

/// The boosted fit's sample weights: a class balance (template and content targets weigh
/// the same in total, a soft target splitting its sample between the two) times the word
/// weight of the sample's `words`, and with [`PageNorm::Page`] rescaled so that every page's
/// samples sum to the mean page total (`page[i]` is sample i's page; the grand total is
/// kept). Sums run in sample order, so the weights do not depend on the thread count.
///
/// # Complexity
/// O(n) for n samples, plus O(pages) memory.
pub fn sample_weights(
    targets: &[f32],
    words: &[f32],
    page: &[usize],
    word_weight: WordWeight,
    norm: PageNorm,
) -> Vec<f32> {
    let n = targets.len();
    let pos = (targets.iter().map(|&y| y as f64).sum::<f64>() as f32).max(1.0);
    let neg = (n as f32 - pos).max(1.0);
    let half = n as f32 / 2.0;
    let mut w: Vec<f32> = targets
        .iter()
        .zip(words)
        .map(|(&y, &words)| {
            let class = y * (half / pos) + (1.0 - y) * (half / neg);
            class
                * match word_weight {
                    WordWeight::Equal => 1.0,
                    WordWeight::Log => (2.0 + words).ln(),
                    WordWeight::Sqrt => (1.0 + words).sqrt(),
                }
        })
        .collect();
    if norm == PageNorm::Page {
        let pages = page.iter().max().map_or(0, |&p| p + 1);
        let mut sum = vec![0.0f64; pages];
        for (&p, &wi) in page.iter().zip(&w) {
            sum[p] += wi as f64;
        }
        let used = sum.iter().filter(|&&s| s > 0.0).count().max(1);
        let mean = sum.iter().sum::<f64>() / used as f64;
        for (wi, &p) in w.iter_mut().zip(page) {
            if sum[p] > 0.0 {
                *wi = (*wi as f64 * mean / sum[p]) as f32;
            }
        }
    }
    w
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
    let cols = crate::model::columns_of(&names)?;
    // (area, sample, 0/1 label, page); every labelled sample has a target as well.
    let mut rows: Vec<(f32, &Sample, bool, usize)> = Vec::new();
    for (p, r) in records.iter().filter(|r| use_page(r)).enumerate() {
        for s in &r.samples {
            if let Some(y) = label(s, fo.labels) {
                rows.push((s.area, s, y, p));
            }
        }
    }
    if rows.is_empty() {
        return Err(Error::Model("no labelled samples".into()));
    }
    let mut areas: Vec<f32> = rows.iter().map(|r| r.0).collect();
    let edges = quartile_edges(&mut areas);
    let mut model = Model {
        format: crate::model::FORMAT.into(),
        version: crate::model::VERSION_WITHOUT_THRESHOLD,
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
        let y: Vec<f32> = rows
            .iter()
            .map(|r| target(r.1, fo.labels, fo.targets).unwrap_or(r.2 as u8 as f32))
            .collect();
        // Classes weigh the same in total, as the regressions' balanced down-sampling does, and
        // a node weighs ln(2 + words) more by default: word-F1 counts words, so long blocks
        // matter more, but not linearly, or one long article would outweigh a page of short
        // items.
        let words: Vec<f32> = rows
            .iter()
            .map(|r| r.1.x[crate::features::f::NUM_WORDS])
            .collect();
        let page: Vec<usize> = rows.iter().map(|r| r.3).collect();
        let w = sample_weights(&y, &words, &page, fo.word_weight, fo.page_norm);
        let mut forest = boost::fit(
            &boost::Samples {
                rows: &x,
                targets: &y,
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
            let mine: Vec<&(f32, &Sample, bool, usize)> = rows
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

/// A second-stage sample: its stacked row, target, words and record index.
type Stage2Row = (Vec<f32>, f32, f32, usize);

/// Fits a stacked model on the pages for which `use_page` holds: the first stage as [`fit`]
/// does, and the second on the nodes' rows and stacked features ([`crate::model::stack`]) of
/// first-stage scores **cross-fitted by site fold**: the pages of fold j are scored by a
/// first stage fitted on the chosen pages of the other folds, so the second stage learns from
/// scores distributed as on pages the first stage never saw. (Inside [`cross_validate_ablating`],
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
        .chain(
            crate::model::stack::STACK_NAMES
                .iter()
                .map(|s| s.to_string()),
        )
        .collect();
    let cols = crate::model::stack::stacked_columns(&names)?;
    let per_page: Vec<Vec<Stage2Row>> = (0..records.len())
        .into_par_iter()
        .map(|i| {
            let (r, Some(s)) = (&records[i], s1[i].as_ref()) else {
                return Vec::new();
            };
            let Some(t) = &r.tree else {
                return Vec::new();
            };
            let z = crate::model::stack::features(&t.tree, s);
            let k = crate::model::stack::STACK_COUNT;
            r.samples
                .iter()
                .filter(|smp| smp.node != u32::MAX)
                .filter_map(|smp| {
                    let y = target(smp, fo.labels, fo.targets)?;
                    let c = smp.node as usize;
                    let x: Vec<f32> = cols
                        .iter()
                        .map(|&col| match col < COUNT {
                            true => smp.x[col],
                            false => z[c * k + col - COUNT],
                        })
                        .collect();
                    Some((x, y, smp.x[crate::features::f::NUM_WORDS], i))
                })
                .collect()
        })
        .collect();
    let rows: Vec<Stage2Row> = per_page.into_iter().flatten().collect();
    if rows.is_empty() {
        return Err(Error::Model(
            "no labelled samples for the second stage".into(),
        ));
    }
    let y: Vec<f32> = rows.iter().map(|r| r.1).collect();
    let words: Vec<f32> = rows.iter().map(|r| r.2).collect();
    let page: Vec<usize> = rows.iter().map(|r| r.3).collect();
    let x: Vec<Vec<f32>> = rows.into_iter().map(|r| r.0).collect();
    let w = sample_weights(&y, &words, &page, fo.word_weight, fo.page_norm);
    let forest = boost::fit(
        &boost::Samples {
            rows: &x,
            targets: &y,
            weights: &w,
        },
        &fo.stage2,
    );
    let mut stage2 = crate::model::stack::Stage2 {
        features: names,
        forest,
        columns: Vec::new(),
    };
    stage2.resolve()?;
    model.stage2 = Some(stage2);
    model.version = crate::model::VERSION;
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
            let (page, gold) = records[i].page_and_gold(limits, opts.parser)?;
            let mut a = analyze(page, &model, opts);
            Some((i, threshold_row(&mut a, &model, opts, grid, &gold)))
        })
        .collect();
    rows.sort_by_key(|p| p.0);
    Ok(rows)
}

/// Out-of-fold word-F1 per page: each page is scored by a model trained on the pages of the
/// other folds (`folds`: each record's fold and their number, see [`Folds`]).
/// Returns, for every entry of `opts`, (record index, P/R/F1) for every page with gold text;
/// the entries share the fold models and the first entry's features (only their segment
/// options are read), so their differences are decoding effects. With a non-empty `grid`,
/// also every page's [`ThresholdRow`] under the first entry of `opts`, from the same node
/// scores. Per entry of `ablate`, every page's P/R/F1 with those rules instead of the first
/// entry's: the same segmentation, only the rules after the model differ.
///
/// # Errors
/// When a fold's model cannot be fitted.
///
/// # Complexity
/// One fit per fold; per page one parse and feature pass, one segmentation per `opts`, per
/// grid threshold one pass over the nodes and one rendering (the structured variants segment
/// again), and per rule set one pass of the rules and one rendering.
pub fn cross_validate_ablating(
    records: &[PageRecord],
    folds: &Folds,
    fo: &FitOptions,
    opts: &[Options],
    limits: &crate::Limits,
    grid: &[f32],
    ablate: &[RuleSet],
) -> Result<(Vec<PageScores>, ThresholdRows, Vec<PageScores>)> {
    let mut out = vec![Vec::new(); opts.len()];
    let mut rows = Vec::new();
    let mut ablated = vec![Vec::new(); ablate.len()];
    let Some(first) = opts.first() else {
        return Ok((out, rows, ablated));
    };
    for k in 0..folds.count() {
        let model = fit(records, |r| folds.of(r) != k, fo, String::new())?;
        let mine: Vec<usize> = (0..records.len())
            .filter(|&i| folds.of(&records[i]) == k && records[i].entry.gold.is_some())
            .collect();
        type Scored = (usize, Vec<Prf>, Option<ThresholdRow>, Vec<Prf>);
        let scored: Vec<Scored> = mine
            .par_iter()
            .filter_map(|&i| {
                let (page, gold) = records[i].page_and_gold(limits, first.parser)?;
                let mut a = analyze(page, &model, first);
                let mut prfs = vec![word_prf(&a.main_text(), &gold)];
                let row =
                    (!grid.is_empty()).then(|| threshold_row(&mut a, &model, first, grid, &gold));
                let off: Vec<Prf> = ablate
                    .iter()
                    .map(|&rules| {
                        let (dom, f) = (&a.page.dom, &a.features);
                        let keep = main_keep(dom, f, &a.segmentation, rules, &first.rule_options);
                        word_prf(&render_text(dom, &f.visible, &keep), &gold)
                    })
                    .collect();
                for o in &opts[1..] {
                    a.set_segmentation(segment(&a.page.dom, &a.features, &model, &o.segment), o);
                    prfs.push(word_prf(&a.main_text(), &gold));
                }
                Some((i, prfs, row, off))
            })
            .collect();
        for (i, prfs, row, off) in scored {
            for (v, prf) in off.into_iter().enumerate() {
                ablated[v].push((i, prf));
            }
            for (v, prf) in prfs.into_iter().enumerate() {
                out[v].push((i, prf));
            }
            if let Some(row) = row {
                rows.push((i, row));
            }
        }
    }
    for v in out.iter_mut().chain(&mut ablated) {
        v.sort_by_key(|p| p.0);
    }
    rows.sort_by_key(|p| p.0);
    Ok((out, rows, ablated))
}

/// An analysed page's [`ThresholdRow`]: its summaries and its word-F1 against `gold` at each
/// threshold of `grid` instead of its own (its segmentation is restored after). For Smooth and
/// Basic a node is template exactly when y ≥ t, so the flags are re-derived from y (O(n) a
/// threshold); the structured variants decode with the threshold, so they segment again. The
/// rules run again on each.
fn threshold_row(
    a: &mut Analysis,
    model: &Model,
    opts: &Options,
    grid: &[f32],
    gold: &str,
) -> ThresholdRow {
    let summary = PageSummary::of(&a.page.dom, &a.features, &a.segmentation.y);
    let saved = (a.segmentation.clone(), a.keep.clone());
    let f1 = grid
        .iter()
        .map(|&t| {
            let seg = match opts.segment.variant {
                Variant::Smooth | Variant::Basic => {
                    let mut seg = saved.0.clone();
                    for (flag, &y) in seg.template.iter_mut().zip(&seg.y) {
                        *flag = !y.is_nan() && y >= t;
                    }
                    seg.threshold = t;
                    seg
                }
                _ => {
                    let mut o = opts.segment;
                    o.threshold = t;
                    o.learned_threshold = false;
                    segment(&a.page.dom, &a.features, model, &o)
                }
            };
            // The rules read the template flags: they run again for each threshold.
            a.set_segmentation(seg, opts);
            word_prf(&a.main_text(), gold).f1
        })
        .collect();
    (a.segmentation, a.keep) = saved;
    ThresholdRow { summary, f1 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sitelevel_target_is_the_template_word_share() {
        // Without words the node's own label decides, as 0/1.
        assert_eq!(sitelevel_target(0, 0, true), (true, 1.0));
        assert_eq!(sitelevel_target(0, 0, false), (false, 0.0));
        // Exactly half is not template; the share is kept as the soft target.
        assert_eq!(sitelevel_target(10, 5, true), (false, 0.5));
        assert_eq!(sitelevel_target(10, 6, false), (true, 0.6));
        assert_eq!(sitelevel_target(3, 1, true), (false, 1.0 / 3.0));
    }

    #[test]
    fn gold_target_is_one_minus_the_content_share() {
        assert_eq!(gold_target(1.0), 0.0);
        assert_eq!(gold_target(0.0), 1.0);
        assert_eq!(gold_target(0.75), 0.25);
        // The hard label agrees with the soft target's side of one half.
        for share in [0.0f32, 0.2, 0.49, 0.5, 0.51, 0.8, 1.0] {
            assert_eq!(gold_template(share), gold_target(share) > 0.5, "{share}");
        }
    }

    #[test]
    fn targets_follow_the_label_source() {
        let s = Sample {
            area: 1.0,
            x: Vec::new(),
            sitelevel: Some(true),
            gold: Some(false),
            sitelevel_share: Some(0.9),
            gold_share: Some(0.2),
            node: u32::MAX,
        };
        assert_eq!(target(&s, LabelSource::Both, Targets::Hard), Some(0.0));
        assert_eq!(target(&s, LabelSource::Both, Targets::Soft), Some(0.2));
        assert_eq!(target(&s, LabelSource::Sitelevel, Targets::Hard), Some(1.0));
        assert_eq!(target(&s, LabelSource::Sitelevel, Targets::Soft), Some(0.9));
        let no_gold = Sample {
            gold: None,
            gold_share: None,
            ..s
        };
        assert_eq!(
            target(&no_gold, LabelSource::Both, Targets::Soft),
            Some(0.9)
        );
        assert_eq!(target(&no_gold, LabelSource::Gold, Targets::Soft), None);
    }

    #[test]
    fn weights_balance_classes_and_scale_by_words() {
        // One template and three content samples: half = 2, so 2/1 and 2/3.
        let w = sample_weights(
            &[1.0, 0.0, 0.0, 0.0],
            &[0.0; 4],
            &[0; 4],
            WordWeight::Equal,
            PageNorm::None,
        );
        assert_eq!(w, vec![2.0, 2.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0]);
        // √(1 + words) = 2, 1, 3, 4.
        let w = sample_weights(
            &[1.0, 0.0, 0.0, 0.0],
            &[3.0, 0.0, 8.0, 15.0],
            &[0; 4],
            WordWeight::Sqrt,
            PageNorm::None,
        );
        assert_eq!(w, vec![4.0, 2.0 / 3.0, 2.0, 8.0 / 3.0]);
        // ln(2 + words): the embedded model's weights.
        let w = sample_weights(
            &[1.0, 0.0],
            &[0.0, 5.0],
            &[0; 2],
            WordWeight::Log,
            PageNorm::None,
        );
        assert_eq!(w, vec![2f32.ln(), 7f32.ln()]);
    }

    #[test]
    fn soft_targets_mix_the_class_factors() {
        // Σy = 2 of 6: template factor 3/2, content factor 3/4; a target of one half takes
        // half of each: 0.75 + 0.375.
        let w = sample_weights(
            &[1.0, 0.5, 0.0, 0.0, 0.0, 0.5],
            &[0.0; 6],
            &[0; 6],
            WordWeight::Equal,
            PageNorm::None,
        );
        assert_eq!(w, vec![1.5, 1.125, 0.75, 0.75, 0.75, 1.125]);
    }

    #[test]
    fn page_norm_gives_every_page_the_mean_total() {
        // Weights before the norm: 2, 2/3, 2/3 on page 0 (10/3) and 2/3 on page 1; the mean
        // page total is 2, so page 0 is scaled by 0.6 and page 1 by 3.
        let w = sample_weights(
            &[1.0, 0.0, 0.0, 0.0],
            &[0.0; 4],
            &[0, 0, 0, 1],
            WordWeight::Equal,
            PageNorm::Page,
        );
        let want = [1.2f32, 0.4, 0.4, 2.0];
        for (a, b) in w.iter().zip(want) {
            assert!((a - b).abs() < 1e-6, "{w:?}");
        }
        // A page number with no samples (page 1 here) does not count in the mean.
        let w = sample_weights(
            &[1.0, 0.0],
            &[0.0; 2],
            &[0, 2],
            WordWeight::Equal,
            PageNorm::Page,
        );
        assert_eq!(w, vec![1.0, 1.0]);
    }

    #[test]
    fn pick_takes_every_kth_in_the_chosen_order() {
        let nodes = [10usize, 11, 12, 13, 14];
        let area = |i: usize| [5.0f32, 50.0, 20.0, 50.0, 1.0][i - 10];
        let depth = |i: usize| [1u32, 3, 2, 1, 2][i - 10];
        let with = |max, order| pick(&nodes, &Sampling { max, order }, area, depth);
        // k = ⌈5 / 2⌉ = 3.
        assert_eq!(with(2, SampleOrder::Document), vec![10, 13]);
        // By descending area (ties in document order): 11, 13, 12, 10, 14.
        assert_eq!(with(2, SampleOrder::Area), vec![10, 11]);
        // By ascending depth: 10, 13, 12, 14, 11.
        assert_eq!(with(2, SampleOrder::Depth), vec![10, 14]);
        assert_eq!(with(0, SampleOrder::Area), nodes.to_vec());
        assert_eq!(with(5, SampleOrder::Document), nodes.to_vec());
        // k = 2: every other node.
        assert_eq!(with(3, SampleOrder::Document), vec![10, 12, 14]);
    }

    #[test]
    fn page_samples_carry_soft_gold_targets() {
        // A page of two blocks; gold keeps the article and one of the two nav words.
        let html = "<html><body><div id=nav>home about</div>\
                    <p id=art>storm hits the coast tonight again</p></body></html>";
        let page =
            Page::from_bytes(html.as_bytes(), &crate::PageOptions::default()).expect("parses");
        let gold = "about storm hits the coast tonight again";
        let all = Sampling {
            max: 0,
            order: SampleOrder::Document,
        };
        let (samples, _) = page_samples(
            &page,
            None,
            Some(gold),
            &FeatureOptions::default(),
            &all,
            false,
        );
        let dom = &page.dom;
        let pf = features::compute(dom, None, &FeatureOptions::default());
        let nodes = labelled_nodes(dom, dom.body().unwrap(), &pf);
        assert_eq!(samples.len(), nodes.len());
        let by_id = |id: &str| {
            nodes
                .iter()
                .position(|&i| dom.attr(i, "id") == Some(id))
                .map(|k| &samples[k])
        };
        let art = by_id("art").expect("the paragraph is scored");
        assert_eq!((art.gold, art.gold_share), (Some(false), Some(0.0)));
        // "about" aligns, "home" does not: share 1/2, template share 1/2, not template.
        let nav = by_id("nav").expect("the nav is scored");
        assert_eq!((nav.gold, nav.gold_share), (Some(false), Some(0.5)));
        // <body>: 1 of 8 words unaligned.
        let body = &samples[0];
        assert_eq!(nodes[0], dom.body().unwrap());
        assert_eq!(body.gold_share, Some(1.0 - 7.0 / 8.0));
        assert!(samples.iter().all(|s| s.sitelevel.is_none()));
    }
}
