//! Stacking ("auto-context"): features of a node computed from the first-stage scores of its
//! neighbourhood, read by a second boosted forest (`pagelevel train --stages 2`).
//!
//! The first stage scores every node of the smoothing tree from its own feature row. A region
//! kept on an unseen template often holds a few nodes the first stage does doubt (a rail of
//! testimonials whose items score 0.6 under a container that scores 0.3): the second stage sees
//! those scores around the node, on the path to the root, in its subtree, among its siblings
//! and across the page, and relative to the page's most content-like block.
//!
//! Everything runs on the scored tree in compact form ([`Tree`]: its nodes in document order,
//! each parent before its children), in one bottom-up and one top-down loop, plus one sort of
//! the scores; nothing recurses, so any depth is fine.
//!
//! The second stage must be trained on first-stage scores from models that did not see the
//! page (`crate::train::fit_stacked` cross-fits them by site fold), or it learns to trust
//! scores that are better than those it will get on unseen pages.

use serde::{Deserialize, Serialize};
use smoothing::NO_PARENT;

use crate::dom::{Dom, NONE};
use crate::features::names::COMMENT_GROUP_BIT;
use crate::features::{PageFeatures, COUNT, NAMES};
use crate::model::boost::{self, Forest, LANES};
use crate::{Error, Result};

// s is the first-stage score (1 = template); a node's own words are its subtree's words minus
// its scored children's; W is the page's (the root's) subtree words. m scored nodes.
crate::features::columns! {
    /// Column indices of the stacked features in a stacked row.
    mod s;
    /// Number of stacked features.
    STACK_COUNT;
    /// Stacked feature names, in column order.
    STACK_NAMES;
    /// One line per stacked feature: what it is and its cost.
    STACK_DOCS;
    SCORE = "s1_score": "The node's first-stage score s. O(1).",
    PARENT = "s1_parent": "The parent's s (the root: its own). O(1).",
    PATH_MIN = "s1_path_min": "Least s over the proper ancestors (the root: its own). Top-down, O(1) a node.",
    PATH_MAX = "s1_path_max": "Greatest s over the proper ancestors (the root: its own). Top-down, O(1) a node.",
    SUBTREE_MEAN = "s1_subtree_mean": "Own-word-weighted mean s over the subtree (its own s when the subtree has no words). Bottom-up, O(1) a node.",
    SUBTREE_MIN = "s1_subtree_min": "Least s in the subtree (itself included). Bottom-up, O(1) a node.",
    SUBTREE_TEMPLATE_SHARE = "s1_subtree_template_share": "Share of the subtree's own words at nodes with s ≥ 0.5; 0 with no words. Bottom-up, O(1) a node.",
    SIBLING_MEAN = "s1_sibling_mean": "Word-weighted mean of the other scored children's subtree means under the same parent (the parent's s when they hold no words; the root: its own s). O(1) a node from the parent's sums.",
    PAGE_MEAN = "s1_page_mean": "The root's subtree mean: the page's word-weighted mean s (the same on every node). O(1).",
    LOWER_WORD_SHARE = "s1_lower_word_share": "Share of the page's own words at nodes whose s is below the node's, 0..1; 0 on a page without words. One sort, O(m log m) a page.",
    MAIN_RELATION = "s1_main_relation": "1 inside the main block (itself included), 2 for its proper ancestors, else 0. The main block maximises Σ own words · (1 − 2s) over its subtree (content words minus template words by the first stage; the first in document order on ties, so the largest of nested blocks). O(1) a node after one bottom-up pass.",
    MAIN_STEPS = "s1_main_steps": "Tree steps between the node and the main block, through their lowest common ancestor (the scored tree's edges). Top-down, O(1) a node.",
    MAIN_WORD_DISTANCE = "s1_main_word_distance": "Own words between the node's subtree and the main block's in document order (0 when one holds the other) / W; a node's own words count at its start. O(1) a node from prefix sums.",
    MAIN_SHARE = "s1_main_share": "The main block's subtree words / W (the same on every node); 0 on a page without words. O(1).",
    KEPT_OUTSIDE_COMMENTS = "s1_kept_outside_comments": "Own words at nodes with s < 0.5 outside comment regions (the same on every node): the words the rules' comment gate counts, by the first stage. O(m) a page.",
    MAIN_START_KEPT_SHARE = "s1_main_start_kept_share": "Share of the own words inside the page's own main start (skip-link target, else `<main>`) at nodes with s < 0.5 (the same on every node); −1 on a page without one or with no words in it. O(m) a page.",
    TWIN_MEAN = "s1_twin_mean": "Mean s of the node's markup twins (the other scored elements whose tag and class, their parent's and grandparent's equal the node's: a listing's items, a thread's posts); −1 with none. One hash map a page, O(1) a node.",
    TWINS = "s1_twins": "Number of the node's markup twins (see s1_twin_mean). O(1) a node.",
}

/// A page's smoothing tree in compact form: its nodes in document order (arena preorder), each
/// parent before its children.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tree {
    /// The arena index of each compact node.
    pub nodes: Vec<u32>,
    /// The compact parent of each node ([`NO_PARENT`] for the root, the first node).
    pub parent: Vec<usize>,
    /// Visible words in each node's subtree (all of its arena subtree, scored or not).
    pub words: Vec<u32>,
    /// Each node's regions, [`IN_COMMENTS`] and [`IN_MAIN_START`] bits (empty: none).
    pub regions: Vec<u8>,
    /// Each node's markup key ([`crate::features::markup::markup_keys`]; 0: none; empty: none).
    pub keys: Vec<u64>,
}

/// [`Tree::regions`] bit: the node lies in a comment region (named so, or an ancestor is).
pub const IN_COMMENTS: u8 = 1;
/// [`Tree::regions`] bit: the node lies in the page's own main start (its subtree).
pub const IN_MAIN_START: u8 = 2;

impl Tree {
    /// The tree of the nodes for which `scored` holds: a set closed under parents within one
    /// subtree (as [`crate::segment::scored_mask`] makes it), its first node the root.
    ///
    /// # Complexity
    /// O(n).
    pub fn from_scored(dom: &Dom, pf: &PageFeatures, scored: &[bool]) -> Tree {
        let counts = &pf.counts;
        let start = pf.main_start.map_or(0..0, |m| m..dom.node(m).end as usize);
        let mut compact = vec![NONE; scored.len()];
        let mut t = Tree::default();
        for (i, _) in scored.iter().enumerate().filter(|(_, &s)| s) {
            let p = dom.node(i).parent as usize;
            let cp = match t.nodes.is_empty() {
                true => NONE,
                false => compact.get(p).copied().unwrap_or(NONE),
            };
            compact[i] = t.nodes.len() as u32;
            t.nodes.push(i as u32);
            t.parent
                .push(if cp == NONE { NO_PARENT } else { cp as usize });
            t.words.push(counts[i].words);
            let comments = pf.groups_in[i] & COMMENT_GROUP_BIT != 0;
            t.regions
                .push((comments as u8 * IN_COMMENTS) | (start.contains(&i) as u8 * IN_MAIN_START));
            t.keys.push(pf.keys[i]);
        }
        t
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the tree has no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }
}

/// The stacked features of every node of `tree` from the first-stage scores `s` (one per
/// compact node, in [0, 1]), row-major, [`STACK_COUNT`] values a node.
///
/// A node whose parent is [`NO_PARENT`] is a root; the tree is expected to have one (the first
/// node), and a second root is treated as a root of its own for the per-node columns.
///
/// # Complexity
/// O(m log m) for m nodes (one sort); every other column is O(m) in total.
pub fn features(tree: &Tree, s: &[f32]) -> Vec<f32> {
    let m = tree.len();
    let parent = &tree.parent;
    let mut out = Vec::with_capacity(m * STACK_COUNT);
    if m == 0 {
        return out;
    }
    // Own words: subtree words minus the scored children's (never negative).
    let mut own: Vec<f64> = tree.words.iter().map(|&w| w as f64).collect();
    for i in 1..m {
        if parent[i] != NO_PARENT {
            own[parent[i]] -= tree.words[i] as f64;
        }
    }
    for o in &mut own {
        *o = o.max(0.0);
    }
    // Bottom-up (children after parents, so a reverse loop): subtree sums of own words, of
    // own words · s, of own words at s ≥ 0.5, of own words · (1 − 2s); subtree minima; the
    // subtree's end (one past its last compact node); per parent the sums over its children.
    let mut sw = own.clone();
    let mut sws: Vec<f64> = (0..m).map(|i| own[i] * s[i] as f64).collect();
    let mut swt: Vec<f64> = (0..m)
        .map(|i| if s[i] >= 0.5 { own[i] } else { 0.0 })
        .collect();
    let mut net: Vec<f64> = (0..m).map(|i| own[i] * (1.0 - 2.0 * s[i] as f64)).collect();
    let mut smin: Vec<f32> = s[..m].to_vec();
    let mut end: Vec<usize> = (1..=m).collect();
    let mut child_w = vec![0f64; m];
    let mut child_ws = vec![0f64; m];
    for i in (0..m).rev() {
        let p = parent[i];
        if p == NO_PARENT {
            continue;
        }
        sw[p] += sw[i];
        sws[p] += sws[i];
        swt[p] += swt[i];
        net[p] += net[i];
        smin[p] = smin[p].min(smin[i]);
        end[p] = end[p].max(end[i]);
        child_w[p] += sw[i];
        child_ws[p] += sws[i];
    }
    let mean = |i: usize| match sw[i] > 0.0 {
        true => (sws[i] / sw[i]) as f32,
        false => s[i],
    };
    let root = 0;
    let page_words = sw[root];
    // The main block: the greatest net, the first in document order on ties (a wrapper with
    // no words of its own ties with its child and is taken).
    let mut main = root;
    for i in 1..end[root] {
        if net[i] > net[main] {
            main = i;
        }
    }
    // Prefix sums of own words in document order: words before node i = before[i].
    let mut before = vec![0f64; m + 1];
    for i in 0..m {
        before[i + 1] = before[i] + own[i];
    }
    // The main block's ancestors (itself included), then top-down: path extremes, depth and
    // the lowest common ancestor with the main block.
    let mut on_main_path = vec![false; m];
    let mut k = main;
    loop {
        on_main_path[k] = true;
        match parent[k] {
            NO_PARENT => break,
            p => k = p,
        }
    }
    let mut pmin = vec![0f32; m];
    let mut pmax = vec![0f32; m];
    let mut depth = vec![0u32; m];
    let mut lca = vec![0usize; m];
    for i in 0..m {
        match parent[i] {
            NO_PARENT => {
                pmin[i] = s[i];
                pmax[i] = s[i];
                lca[i] = i;
            }
            p => {
                // The root's extremes are its own score, so this is exact one level down too.
                pmin[i] = pmin[p].min(s[p]);
                pmax[i] = pmax[p].max(s[p]);
                depth[i] = depth[p] + 1;
                lca[i] = if on_main_path[i] { i } else { lca[p] };
            }
        }
    }
    // Lower word share: own words of nodes with a smaller score, from one sort.
    let mut by_score: Vec<usize> = (0..m).collect();
    by_score.sort_by(|&a, &b| s[a].total_cmp(&s[b]).then(a.cmp(&b)));
    let mut lower = vec![0f64; m];
    let (mut acc, mut j) = (0f64, 0usize);
    while j < m {
        let mut e = j;
        while e < m && s[by_score[e]] == s[by_score[j]] {
            e += 1;
        }
        for &i in &by_score[j..e] {
            lower[i] = acc;
        }
        acc += by_score[j..e].iter().map(|&i| own[i]).sum::<f64>();
        j = e;
    }
    let share = |w: f64| match page_words > 0.0 {
        true => (w / page_words) as f32,
        false => 0.0,
    };
    // The rules' gates by the first stage: kept words outside comment regions, and the
    // share of the main start's words kept.
    let region = |i: usize| tree.regions.get(i).copied().unwrap_or(0);
    let (mut outside, mut start_words, mut start_kept) = (0f64, 0f64, 0f64);
    for i in 0..m {
        let kept = s[i] < 0.5;
        if kept && region(i) & IN_COMMENTS == 0 {
            outside += own[i];
        }
        if region(i) & IN_MAIN_START != 0 {
            start_words += own[i];
            start_kept += if kept { own[i] } else { 0.0 };
        }
    }
    let start_share = match start_words > 0.0 {
        true => (start_kept / start_words) as f32,
        false => -1.0,
    };
    // Markup twins: per key, the sum of s and the count.
    let key = |i: usize| tree.keys.get(i).copied().unwrap_or(0);
    let mut twins: rustc_hash::FxHashMap<u64, (f64, u32)> = Default::default();
    for i in (0..m).filter(|&i| key(i) != 0) {
        let e = twins.entry(key(i)).or_default();
        e.0 += s[i] as f64;
        e.1 += 1;
    }
    for i in 0..m {
        // Every column is written below: the row is appended whole, the output never zeroed.
        let mut row = [0f32; STACK_COUNT];
        let p = parent[i];
        row[s::SCORE] = s[i];
        row[s::PARENT] = if p == NO_PARENT { s[i] } else { s[p] };
        row[s::PATH_MIN] = pmin[i];
        row[s::PATH_MAX] = pmax[i];
        row[s::SUBTREE_MEAN] = mean(i);
        row[s::SUBTREE_MIN] = smin[i];
        row[s::SUBTREE_TEMPLATE_SHARE] = match sw[i] > 0.0 {
            true => (swt[i] / sw[i]) as f32,
            false => 0.0,
        };
        row[s::SIBLING_MEAN] = match p {
            NO_PARENT => s[i],
            p => {
                let w = child_w[p] - sw[i];
                match w > 0.0 {
                    true => ((child_ws[p] - sws[i]) / w) as f32,
                    false => s[p],
                }
            }
        };
        row[s::PAGE_MEAN] = mean(root);
        row[s::LOWER_WORD_SHARE] = share(lower[i]);
        let a = lca[i];
        row[s::MAIN_RELATION] = if a == main {
            1.0
        } else if a == i {
            2.0
        } else {
            0.0
        };
        row[s::MAIN_STEPS] = (depth[i] + depth[main] - 2 * depth[a]) as f32;
        let gap = if end[i] <= main {
            before[main] - before[end[i]]
        } else if end[main] <= i {
            before[i] - before[end[main]]
        } else {
            0.0
        };
        row[s::MAIN_WORD_DISTANCE] = share(gap);
        row[s::MAIN_SHARE] = share(sw[main]);
        row[s::KEPT_OUTSIDE_COMMENTS] = outside as f32;
        row[s::MAIN_START_KEPT_SHARE] = start_share;
        let (sum, count) = match key(i) {
            0 => (0.0, 1),
            k => twins[&k],
        };
        row[s::TWINS] = (count - 1) as f32;
        row[s::TWIN_MEAN] = match count > 1 {
            true => ((sum - s[i] as f64) / (count - 1) as f64) as f32,
            false => -1.0,
        };
        out.extend_from_slice(&row);
    }
    out
}

/// The second stage of a stacked model: a forest over the node's own features and its
/// stacked features.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Stage2 {
    /// Names of the features it reads, in column order: names of
    /// [`crate::features::NAMES`] and of [`STACK_NAMES`].
    pub features: Vec<String>,
    /// The trees; their feature indices point into `features`.
    pub forest: Forest,
    /// Indices of `features` into a stacked row (the `COUNT` feature columns, then the
    /// [`STACK_COUNT`] stacked ones), resolved on load.
    #[serde(skip)]
    pub columns: Vec<usize>,
}

/// Resolves stage-2 feature names to stacked-row indices.
///
/// # Errors
/// [`Error::Model`] for a name this build does not compute.
pub(crate) fn stacked_columns(names: &[String]) -> Result<Vec<usize>> {
    names
        .iter()
        .map(|n| {
            NAMES
                .iter()
                .position(|m| m == n)
                .or_else(|| STACK_NAMES.iter().position(|m| m == n).map(|k| COUNT + k))
                .ok_or_else(|| {
                    Error::Model(format!(
                        "unknown stage-2 feature {n:?}; retrain with `pagelevel train --stages 2`"
                    ))
                })
        })
        .collect()
}

impl Stage2 {
    /// Resolves the columns and the forest against this build's features.
    ///
    /// # Errors
    /// [`Error::Model`] for an unknown feature or a malformed forest.
    pub fn resolve(&mut self) -> Result<()> {
        self.columns = stacked_columns(&self.features)?;
        self.forest
            .resolve(&self.columns)
            .map_err(|e| Error::Model(format!("stage-2 trees: {e}")))
    }
}

/// Width of a stacked row: the feature columns, then the stacked ones.
pub const STACKED_WIDTH: usize = COUNT + STACK_COUNT;

impl Stage2 {
    /// Scores every node c of `tree` from its feature row `row(c)` and its stacked features
    /// (`z`, as [`features`] returns them), calling `put(c, score)`; rows are scored
    /// [`LANES`] at a time.
    ///
    /// # Complexity
    /// O(m · (STACKED_WIDTH + trees · depth)).
    pub(crate) fn score_into<'a>(
        &self,
        tree: &Tree,
        row: impl Fn(usize) -> &'a [f32],
        z: &[f32],
        mut put: impl FnMut(usize, f32),
    ) {
        let m = tree.len();
        let width = self.forest.row_len();
        let own = width.min(COUNT);
        // The batch column by column, as `Forest::margins_columns` reads it, written once.
        let mut vals = vec![0u32; LANES * width];
        let mut margins = [0f32; LANES];
        let mut lo = 0;
        while lo < m {
            let hi = (lo + LANES).min(m);
            // Each lane's two parts (a short batch repeats its last node).
            let node = |j: usize| (lo + j).min(hi - 1);
            let rows: [&[f32]; LANES] = std::array::from_fn(|j| row(node(j)));
            let stacked: [&[f32]; LANES] = std::array::from_fn(|j| &z[node(j) * STACK_COUNT..]);
            let (head, tail) = vals.split_at_mut(own * LANES);
            boost::write_columns(head, &rows);
            boost::write_columns(tail, &stacked);
            self.forest.margins_columns(&vals, &mut margins, hi - lo);
            for (k, c) in (lo..hi).enumerate() {
                put(c, crate::model::math::sigmoid(margins[k] as f64) as f32);
            }
            lo = hi;
        }
    }
}
