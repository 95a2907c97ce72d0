//! A learned page-level decision threshold: a small tree over a few page-level summaries of
//! the smoothed scores picks, per page, the threshold on y above which text is template.
//!
//! One fixed threshold trades the sets against each other (news pages want more kept, mixed
//! page types less; `docs/quality.md`). The [`ThresholdModel`] is a regression tree whose
//! leaves hold one threshold of a short grid; it is fitted ([`fit`]) to maximise the
//! weighted mean word-F1 of training pages directly, from each page's word-F1 at every grid
//! threshold (computed from out-of-fold node scores by `train --cv`). It is optional: a
//! model file without it loads and scores as before, and the pipeline uses it only when
//! asked ([`crate::segment::SegmentOptions::learned_threshold`]).
//!
//! The page summaries ([`PageSummary`]) come from what segmentation has already computed:
//! one O(n) loop over the node array (no DOM walk, no parse), reading each visible text
//! node's smoothed score and word count and the root's counts and feature row.

use serde::{Deserialize, Serialize};

use crate::dom::{Dom, Kind};
use crate::features::{f, PageFeatures};
use crate::{Error, Result};

/// The version of the threshold part of a model file, checked on load.
pub const THRESHOLD_VERSION: u32 = 1;

/// Default template threshold on y (when no threshold is learned).
pub const DEFAULT_THRESHOLD: f32 = 0.5;

/// The default grid of thresholds a leaf chooses from.
pub const DEFAULT_GRID: [f32; 9] = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7];

/// Names of the page summaries, in [`PageSummary::values`] order.
pub const SUMMARY_NAMES: [&str; SUMMARIES] = [
    "content_share",
    "ambiguous_share",
    "mean_y",
    "log_words",
    "link_density",
    "log_blocks",
    "in_content_share",
    "block_content_share",
    "in_main_share",
];

/// Number of page summaries.
pub const SUMMARIES: usize = 9;

/// Page-level summaries of one page's smoothed scores and text, over its visible words.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct PageSummary {
    /// Share of the scored words with y < 0.5 (kept at the default threshold), 0..1.
    pub content_share: f32,
    /// Share of the scored words with 0.3 ≤ y < 0.7: the words a threshold in the grid can
    /// move, 0..1.
    pub ambiguous_share: f32,
    /// Word-weighted mean of y, 0..1.
    pub mean_y: f32,
    /// ln(1 + visible words of the page).
    pub log_words: f32,
    /// Words inside links / words, over the whole page, 0..1.
    pub link_density: f32,
    /// ln(1 + boilerpipe text blocks of the page).
    pub log_blocks: f32,
    /// Share of the scored words inside an element named as main content (`<main>`,
    /// `<article>`, role=main, a class such as `content` or `post`: the `in_content` feature).
    pub in_content_share: f32,
    /// Share of the page's words in blocks boilerpipe's classifier calls content, 0..1.
    pub block_content_share: f32,
    /// Share of the scored words inside a `<main>` or `<article>` landmark (or role=main /
    /// article: the `in_landmark_main` feature), 0..1.
    pub in_main_share: f32,
}

impl PageSummary {
    /// Summarises a page from its smoothed scores `y` (NaN outside the scored tree).
    ///
    /// The scored words are the visible text nodes' words whose y is a number; with none,
    /// the shares are 0 and `mean_y` is 0.5.
    ///
    /// # Complexity
    /// O(n) time over the node array, O(1) extra space.
    pub fn of(dom: &Dom, pf: &PageFeatures, y: &[f32]) -> PageSummary {
        let (mut total, mut content, mut ambiguous, mut sum_y, mut in_content) =
            (0.0f64, 0.0f64, 0.0f64, 0.0f64, 0.0f64);
        let mut in_main = 0.0f64;
        for (i, &yi) in y.iter().enumerate().take(dom.len()) {
            if dom.node(i).kind != Kind::Text || !pf.visible[i] || yi.is_nan() {
                continue;
            }
            let w = pf.counts[i].words as f64;
            if w == 0.0 {
                continue;
            }
            total += w;
            sum_y += w * yi as f64;
            if yi < 0.5 {
                content += w;
            }
            if (0.3..0.7).contains(&yi) {
                ambiguous += w;
            }
            // A text node's own row is zero for element features; its parent's says whether
            // it sits inside a main-content element.
            let p = dom.node(i).parent as usize;
            let row = pf.matrix.row(p);
            if row[f::IN_CONTENT] > 0.5 {
                in_content += w;
            }
            if row[f::IN_LANDMARK_MAIN] > 0.5 {
                in_main += w;
            }
        }
        let share = |v: f64| if total > 0.0 { (v / total) as f32 } else { 0.0 };
        let root = pf.counts.first().copied().unwrap_or_default();
        // The document node has no feature row (only elements do); its root element holds
        // every visible word, so that element's shares are the page's.
        let root_row = dom
            .children(0)
            .find(|&c| dom.node(c).kind == Kind::Element)
            .map_or(pf.matrix.row(0), |e| pf.matrix.row(e));
        PageSummary {
            content_share: share(content),
            ambiguous_share: share(ambiguous),
            mean_y: if total > 0.0 {
                (sum_y / total) as f32
            } else {
                0.5
            },
            log_words: (1.0 + root.words as f32).ln(),
            link_density: if root.words > 0 {
                root.linked_words as f32 / root.words as f32
            } else {
                0.0
            },
            log_blocks: (1.0 + pf.blocks.blocks.len() as f32).ln(),
            in_content_share: share(in_content),
            block_content_share: root_row[f::BLOCK_CONTENT_SHARE],
            in_main_share: share(in_main),
        }
    }

    /// The summaries in [`SUMMARY_NAMES`] order.
    pub fn values(&self) -> [f32; SUMMARIES] {
        [
            self.content_share,
            self.ambiguous_share,
            self.mean_y,
            self.log_words,
            self.link_density,
            self.log_blocks,
            self.in_content_share,
            self.block_content_share,
            self.in_main_share,
        ]
    }
}

/// One node of the threshold tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Node {
    /// Pages whose summary `feature` is below `value` go to `left`, the others to `right`.
    Split {
        /// Index into [`SUMMARY_NAMES`].
        feature: usize,
        /// Split value.
        value: f32,
        /// Node index of the pages below.
        left: usize,
        /// Node index of the others.
        right: usize,
    },
    /// The threshold of the pages that reach this leaf.
    Leaf {
        /// The threshold on y.
        threshold: f32,
    },
}

/// The threshold part of a model file: a tree from page summaries to a threshold.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ThresholdModel {
    /// Always [`THRESHOLD_VERSION`].
    pub version: u32,
    /// The summary names the splits index, checked on load against [`SUMMARY_NAMES`].
    pub features: Vec<String>,
    /// The grid the leaves were chosen from (for the record).
    pub grid: Vec<f32>,
    /// The tree's nodes; the root is the first.
    pub nodes: Vec<Node>,
    /// How it was made, for the record.
    #[serde(default)]
    pub provenance: String,
}

impl ThresholdModel {
    /// Checks a loaded threshold part: version, summary names, node references (children
    /// after their parent, so the tree has no cycle) and thresholds in (0, 1].
    ///
    /// # Errors
    /// [`Error::Model`] on any mismatch.
    pub fn check(&self) -> Result<()> {
        let bad = |m: String| Err(Error::Model(format!("threshold model: {m}")));
        if self.version != THRESHOLD_VERSION {
            return bad(format!(
                "version {} is not {THRESHOLD_VERSION}",
                self.version
            ));
        }
        if self.features.iter().map(String::as_str).ne(SUMMARY_NAMES) {
            return bad(format!(
                "features {:?} are not {SUMMARY_NAMES:?}",
                self.features
            ));
        }
        if self.nodes.is_empty() {
            return bad("no nodes".into());
        }
        for (k, node) in self.nodes.iter().enumerate() {
            match *node {
                Node::Split {
                    feature,
                    value,
                    left,
                    right,
                } => {
                    let ok = feature < SUMMARY_NAMES.len()
                        && value.is_finite()
                        && left > k
                        && right > k
                        && left < self.nodes.len()
                        && right < self.nodes.len();
                    if !ok {
                        return bad(format!("node {k} is not a valid split"));
                    }
                }
                Node::Leaf { threshold } => {
                    if !(threshold > 0.0 && threshold <= 1.0) {
                        return bad(format!("node {k}: threshold {threshold} outside (0, 1]"));
                    }
                }
            }
        }
        Ok(())
    }

    /// The threshold for a page. O(depth); a checked model always reaches a leaf.
    pub fn choose(&self, s: &PageSummary) -> f32 {
        let v = s.values();
        let mut k = 0;
        // Children come after their parent (checked), so this ends within nodes.len() steps.
        for _ in 0..self.nodes.len() {
            match self.nodes[k] {
                Node::Split {
                    feature,
                    value,
                    left,
                    right,
                } => k = if v[feature] < value { left } else { right },
                Node::Leaf { threshold } => return threshold,
            }
        }
        DEFAULT_THRESHOLD
    }
}

/// One training page: its summaries, its word-F1 at every grid threshold and its weight.
#[derive(Debug, Clone)]
pub struct TrainPage {
    /// [`PageSummary::values`].
    pub x: [f32; SUMMARIES],
    /// Word-F1 at each threshold of the grid.
    pub f1: Vec<f64>,
    /// Weight of the page in the objective (e.g. 1 / pages of its set).
    pub weight: f64,
}

/// Settings of [`fit`].
#[derive(Debug, Clone, Copy)]
pub struct FitParams {
    /// Most levels of splits.
    pub depth: u32,
    /// Fewest pages in a leaf.
    pub min_pages: usize,
    /// Smallest gain of weighted mean F1 (weights normalised to sum 1) a split must bring.
    pub min_gain: f64,
}

impl Default for FitParams {
    fn default() -> Self {
        FitParams {
            depth: 2,
            min_pages: 100,
            min_gain: 0.001,
        }
    }
}

/// The grid's indices by distance of their threshold from the default 0.5 (then by index):
/// the order in which [`best_index`] breaks ties.
fn tie_order(grid: &[f32]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..grid.len()).collect();
    order.sort_by(|&a, &b| {
        let da = (grid[a] - DEFAULT_THRESHOLD).abs();
        let db = (grid[b] - DEFAULT_THRESHOLD).abs();
        da.total_cmp(&db).then(a.cmp(&b))
    });
    order
}

/// The grid index a set of pages does best with: the largest weighted F1 sum, ties to the
/// first in `order` ([`tie_order`]). O(grid).
fn best_index(order: &[usize], sums: &[f64]) -> (usize, f64) {
    let mut best = (order[0], sums[order[0]]);
    for &j in &order[1..] {
        if sums[j] > best.1 + 1e-12 {
            best = (j, sums[j]);
        }
    }
    best
}

/// Fits a threshold tree that maximises Σ weight · F1(page, threshold(page)) greedily: every
/// leaf takes the grid threshold best for its pages, and a leaf is split where the two
/// halves' best thresholds gain most, while it is above `depth`, both halves keep at least
/// `min_pages` pages and the gain is at least `min_gain`. Split values are midpoints between
/// consecutive distinct summary values. Deterministic (ties: lower feature, lower value).
///
/// # Complexity
/// O(depth · F · (N log N + N · G)) for N pages, F summaries and G grid thresholds.
///
/// # Errors
/// [`Error::Model`] when there are no pages, the grid is empty or a page's F1 row does not
/// match the grid.
pub fn fit(
    pages: &[TrainPage],
    grid: &[f32],
    params: &FitParams,
    provenance: String,
) -> Result<ThresholdModel> {
    if pages.is_empty() || grid.is_empty() {
        return Err(Error::Model("threshold model: no pages or no grid".into()));
    }
    if pages.iter().any(|p| p.f1.len() != grid.len()) {
        return Err(Error::Model(
            "threshold model: F1 rows do not match the grid".into(),
        ));
    }
    let g = grid.len();
    let order = tie_order(grid);
    let total: f64 = pages
        .iter()
        .map(|p| p.weight)
        .sum::<f64>()
        .max(f64::MIN_POSITIVE);
    let sums_of = |idx: &[usize]| {
        let mut s = vec![0.0; g];
        for &i in idx {
            for (sj, f) in s.iter_mut().zip(&pages[i].f1) {
                *sj += pages[i].weight * f / total;
            }
        }
        s
    };
    let mut nodes: Vec<Node> = Vec::new();
    // Work list of (node index, its pages, its depth); the tree is grown breadth first.
    let mut work: std::collections::VecDeque<(usize, Vec<usize>, u32)> = Default::default();
    nodes.push(Node::Leaf { threshold: 0.5 });
    work.push_back((0, (0..pages.len()).collect(), 0));
    while let Some((k, idx, depth)) = work.pop_front() {
        let sums = sums_of(&idx);
        let (leaf, leaf_value) = best_index(&order, &sums);
        nodes[k] = Node::Leaf {
            threshold: grid[leaf],
        };
        if depth >= params.depth || idx.len() < 2 * params.min_pages.max(1) {
            continue;
        }
        // (gain, feature, value)
        let mut best: Option<(f64, usize, f32)> = None;
        for feat in 0..SUMMARY_NAMES.len() {
            let mut sorted = idx.clone();
            sorted.sort_by(|&a, &b| {
                pages[a].x[feat]
                    .total_cmp(&pages[b].x[feat])
                    .then(a.cmp(&b))
            });
            let mut left = vec![0.0; g];
            for cut in 1..sorted.len() {
                let p = &pages[sorted[cut - 1]];
                for (lj, f) in left.iter_mut().zip(&p.f1) {
                    *lj += p.weight * f / total;
                }
                let (lo, hi) = (p.x[feat], pages[sorted[cut]].x[feat]);
                if cut < params.min_pages || sorted.len() - cut < params.min_pages || lo >= hi {
                    continue;
                }
                let right: Vec<f64> = sums.iter().zip(&left).map(|(s, l)| s - l).collect();
                let gain = best_index(&order, &left).1 + best_index(&order, &right).1 - leaf_value;
                if gain >= params.min_gain && best.is_none_or(|b| gain > b.0 + 1e-12) {
                    best = Some((gain, feat, lo + (hi - lo) / 2.0));
                }
            }
        }
        if let Some((_, feature, value)) = best {
            let (l, r): (Vec<usize>, Vec<usize>) =
                idx.iter().partition(|&&i| pages[i].x[feature] < value);
            let (left, right) = (nodes.len(), nodes.len() + 1);
            nodes.push(Node::Leaf { threshold: 0.5 });
            nodes.push(Node::Leaf { threshold: 0.5 });
            nodes[k] = Node::Split {
                feature,
                value,
                left,
                right,
            };
            work.push_back((left, l, depth + 1));
            work.push_back((right, r, depth + 1));
        }
    }
    Ok(ThresholdModel {
        version: THRESHOLD_VERSION,
        features: SUMMARY_NAMES.iter().map(|s| s.to_string()).collect(),
        grid: grid.to_vec(),
        nodes,
        provenance,
    })
}
