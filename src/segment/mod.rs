//! Scoring and smoothing: from classifier scores to a few coherent segments.
//!
//! The smoothing tree holds the visible elements of `<body>` whose estimated box is at least
//! [`SegmentOptions::min_area`] px²; the others are *hidden*: not scored, and their weight
//! rolls into their nearest scored ancestor (a node with k hidden descendants weighs k+1; with
//! [`Weight::Words`], the default, it also weighs the words it holds outside scored children).
//! Boxes contain their children's, so the tree is closed under parents. Each node gets
//! x from the classifier and a penalty γᵢ (by default c·A/Aᵢ, A the page area), and the
//! exact solver of the `smoothing` crate finds the monotone y of least cost. Nodes outside
//! the tree take the y of their nearest scored ancestor.
//!
//! The variants [`Variant::Viterbi`], [`Variant::SmoothViterbi`], [`Variant::TreeFilter`] and
//! [`Variant::SmoothViterbiTree`] then revise the text nodes' template flags block by block
//! ([`crate::segment::structured`], O(n) more); the scores and segments stay those of Basic (Viterbi)
//! or Smooth (the others). [`Variant::TreeFilter`] (Smooth, then the tree filter anchored at
//! the page's title) is the default: out of fold it is above Smooth on five sets and level on
//! l3s-gn1 (`docs/quality.md`); Basic and Smooth stay selectable, and `eval` measures both.
//!
//! A node is template when its y is at least the threshold: [`SegmentOptions::threshold`], or
//! with [`SegmentOptions::learned_threshold`] the one the model's threshold tree picks for the
//! page from summaries of its y ([`crate::model::threshold`], one more O(n) loop).

pub mod structured;

use serde::Serialize;
use smoothing::NO_PARENT;

use crate::dom::{Dom, Kind, NONE};
use crate::features::PageFeatures;
use crate::features::{is_scorable, scoring_root};
use crate::model::stack::Tree;
use crate::model::threshold::{PageSummary, DEFAULT_THRESHOLD};
use crate::model::Model;
use crate::segment::structured::{
    decode_blocks, keep_code, title_anchor, tree_filter, DEFAULT_SWITCH_PENALTY,
    DEFAULT_TREE_KEEP_WORDS, DEFAULT_TREE_SHARE,
};

/// Default penalty constant c.
pub const DEFAULT_C: f64 = 0.01;
/// Default minimum area (px²) for a node to be scored.
pub const DEFAULT_MIN_AREA: f32 = 2000.0;

/// Which of the paper's variants to run.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Variant {
    /// Classifier only: y = x.
    Basic,
    /// Classifier plus isotonic smoothing.
    Smooth,
    /// Classifier, then Viterbi decoding of the text blocks' labels ([`crate::segment::structured`]).
    #[cfg_attr(
        feature = "cli",
        value(help = "Classifier, then Viterbi decoding of the text blocks' labels")
    )]
    Viterbi,
    /// Classifier plus smoothing, then Viterbi decoding over the smoothed scores.
    SmoothViterbi,
    /// Classifier plus smoothing, then the tree filter over the content blocks, keeping the
    /// blocks from the page's title down to its main node
    /// ([`crate::segment::structured::title_anchor`]) and the main node's code blocks
    /// ([`crate::segment::structured::keep_code`]); the default.
    #[cfg_attr(
        feature = "cli",
        value(
            help = "Classifier plus smoothing, then the tree filter over the content blocks, keeping the blocks from the page's title down to its main node and the main node's code blocks; the default"
        )
    )]
    TreeFilter,
    /// Classifier plus smoothing, Viterbi decoding, then the tree filter over the decoded
    /// content blocks.
    SmoothViterbiTree,
}

impl Variant {
    /// Every variant, in the order `--variant` lists them.
    pub const ALL: [Variant; 6] = [
        Variant::Basic,
        Variant::Smooth,
        Variant::Viterbi,
        Variant::SmoothViterbi,
        Variant::TreeFilter,
        Variant::SmoothViterbiTree,
    ];

    /// The variant called `name` ([`Variant::name`]), if there is one.
    pub fn from_name(name: &str) -> Option<Variant> {
        Variant::ALL.into_iter().find(|v| v.name() == name)
    }

    /// The variant's name, as `--variant` takes it.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Basic => "basic",
            Variant::Smooth => "smooth",
            Variant::Viterbi => "viterbi",
            Variant::SmoothViterbi => "smooth-viterbi",
            Variant::TreeFilter => "tree-filter",
            Variant::SmoothViterbiTree => "smooth-viterbi-tree",
        }
    }

    /// Whether the node scores are smoothed (the variant starts from [`Variant::Smooth`]).
    pub(crate) fn smooths(self) -> bool {
        !matches!(self, Variant::Basic | Variant::Viterbi)
    }

    /// Whether the text blocks' labels are Viterbi-decoded (the switch penalty is read).
    pub fn decodes(self) -> bool {
        matches!(
            self,
            Variant::Viterbi | Variant::SmoothViterbi | Variant::SmoothViterbiTree
        )
    }

    /// Whether the tree filter runs over the content blocks.
    pub(crate) fn filters_tree(self) -> bool {
        matches!(self, Variant::TreeFilter | Variant::SmoothViterbiTree)
    }
}

/// The segment-start penalty's form (the paper's section 4 options).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Penalty {
    /// γᵢ = c·A/Aᵢ: small boxes pay more to start a segment of their own.
    AreaRatio,
    /// γᵢ = c: every segment costs the same.
    Constant,
    /// γᵢ = c·wᵢ: a segment costs in proportion to the node's weight.
    Weight,
}

/// What a node weighs in the smoothing cost Σ wᵢ·|xᵢ − yᵢ|.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
#[serde(rename_all = "kebab-case")]
pub enum Weight {
    /// The paper: a node with k hidden element descendants weighs k + 1.
    Nodes,
    /// The paper's weight plus the words the node holds itself (its text and its hidden
    /// descendants', not its scored children's): word-F1 counts words, so a block of 300
    /// words outweighs a dozen one-word buttons instead of being outvoted by them.
    Words,
}

/// Settings of scoring and smoothing, one line each.
#[derive(Debug, Clone, Copy)]
pub struct SegmentOptions {
    /// Basic (classifier only) or Smooth (plus isotonic smoothing).
    pub variant: Variant,
    /// The penalty constant c.
    pub c: f64,
    /// The penalty's form.
    pub penalty: Penalty,
    /// The nodes' weights.
    pub weight: Weight,
    /// A node is template when its y is at least this (unless `learned_threshold` applies).
    pub threshold: f32,
    /// Use the model's learned page-level threshold ([`crate::model::threshold`]) instead of
    /// `threshold`, when the model has one.
    pub learned_threshold: bool,
    /// Nodes with a smaller estimated area are hidden (not scored).
    pub min_area: f32,
    /// The Viterbi variants' cost λ of a label change between consecutive text blocks.
    pub switch_penalty: f64,
    /// The tree filter's share σ of content words its main node must hold.
    pub tree_share: f32,
    /// The tree filter keeps content blocks of at least this many words wherever they are.
    pub tree_keep_words: u32,
}

impl Default for SegmentOptions {
    fn default() -> Self {
        SegmentOptions {
            variant: Variant::TreeFilter,
            c: DEFAULT_C,
            penalty: Penalty::AreaRatio,
            weight: Weight::Words,
            threshold: DEFAULT_THRESHOLD,
            learned_threshold: false,
            min_area: DEFAULT_MIN_AREA,
            switch_penalty: DEFAULT_SWITCH_PENALTY,
            tree_share: DEFAULT_TREE_SHARE,
            tree_keep_words: DEFAULT_TREE_KEEP_WORDS,
        }
    }
}

/// One segment: a subtree whose nodes share a smoothed score, minus nested segments.
#[derive(Debug, Clone, Serialize)]
pub struct Segment {
    /// The node that starts the segment.
    pub node: usize,
    /// The segment's smoothed score ŷ.
    pub score: f32,
    /// Whether the segment is template (score ≥ threshold).
    pub template: bool,
    /// Visible words in the segment's own part (nested segments excluded).
    pub words: u32,
    /// Index (into `segments`) of the enclosing segment, `None` for the root segment.
    pub parent: Option<usize>,
}

/// Each node's own words: its subtree's minus its children's (`parent[i] < i`, the root's
/// parent [`NO_PARENT`]); never negative. O(n).
fn own_words(parent: &[usize], subtree_words: &[f64]) -> Vec<f64> {
    let mut own = subtree_words.to_vec();
    for (i, &p) in parent.iter().enumerate() {
        if p != NO_PARENT {
            own[p] -= subtree_words[i];
        }
    }
    own.iter().map(|o| o.max(0.0)).collect()
}

/// The result for one page.
#[derive(Debug, Clone)]
pub struct Segmentation {
    /// Raw classifier score per node (NaN for hidden nodes).
    pub x: Vec<f32>,
    /// Smoothed score per node (inherited from the nearest scored ancestor; NaN outside body).
    pub y: Vec<f32>,
    /// Template flag per node (false outside body).
    pub template: Vec<bool>,
    /// Segments in document order; the first is the root's.
    pub segments: Vec<Segment>,
    /// Per node, the index of its segment (`u32::MAX` outside body).
    pub segment_of: Vec<u32>,
    /// Nodes in the smoothing tree.
    pub scored: Vec<bool>,
    /// The threshold applied to y: [`SegmentOptions::threshold`], or the learned one.
    pub threshold: f32,
    /// The tree filter's main node ([`crate::segment::structured::tree_filter`]), when it ran and found one.
    pub main: Option<usize>,
}

/// The smoothing tree: its root (`<body>`, else the first element) and, per node, whether it
/// is in the tree: the root plus the visible elements of its subtree with an estimated area of
/// at least `min_area` whose parent is in the tree (so the set is closed under parents).
///
/// # Complexity
/// O(n).
pub fn scored_mask(dom: &Dom, pf: &PageFeatures, min_area: f32) -> (usize, Vec<bool>) {
    let n = dom.len();
    let root = scoring_root(dom);
    let mut scored = vec![false; n];
    if n == 0 {
        return (root, scored);
    }
    let end = dom.node(root).end as usize;
    scored[root] = true;
    for i in root + 1..end {
        scored[i] = is_scorable(dom, &pf.visible, &pf.layout.rects, min_area, i)
            && scored[dom.node(i).parent as usize];
    }
    (root, scored)
}

/// A page's classifier scores on its smoothing tree: what [`score_nodes`] computes and
/// [`segment`] smooths.
#[derive(Debug, Clone)]
pub struct Scores {
    /// The tree's root ([`scored_mask`]).
    pub root: usize,
    /// Per node, whether it is in the tree ([`scored_mask`]).
    pub scored: Vec<bool>,
    /// The tree in compact form (the second stage reads it too).
    pub tree: Tree,
    /// Per node, its templateness score ([`Model::score_page`]); NaN off the tree.
    pub x: Vec<f32>,
}

/// The scoring stage: the smoothing tree of nodes of at least `min_area` and every stage of
/// `model` on its nodes.
///
/// # Complexity
/// O(n · COUNT), with a second stage O(m log m) more for the m scored nodes (see
/// [`Model::score_page`]).
pub fn score_nodes(dom: &Dom, pf: &PageFeatures, model: &Model, min_area: f32) -> Scores {
    let (root, scored) = scored_mask(dom, pf, min_area);
    debug_assert!(
        (0..dom.len()).all(|i| !scored[i] || pf.matrix.has_row(i)),
        "features computed without rows for some scored nodes (see features::Rows)"
    );
    let tree = Tree::from_scored(dom, pf, &scored);
    let x = model.score_page(pf, &scored, &tree);
    Scores {
        root,
        scored,
        tree,
        x,
    }
}

/// Scores and smooths one page.
///
/// # Complexity
/// O(n · COUNT) for scoring (with a second stage O(m log m) more, see
/// [`Model::score_page`]) plus the solver's time on the m scored nodes (see
/// `smoothing::solve`), and O(n) for everything else.
pub fn segment(dom: &Dom, pf: &PageFeatures, model: &Model, opts: &SegmentOptions) -> Segmentation {
    let n = dom.len();
    let rects = &pf.layout.rects;
    let Scores {
        root,
        scored,
        tree,
        x,
    } = score_nodes(dom, pf, model, opts.min_area);
    let end = dom.node(root).end as usize;
    let order = &tree.nodes;
    let parent = &tree.parent;

    // Weights count hidden element descendants; `nearest` is the compact index of a node's
    // nearest scored ancestor (itself when scored), in document order as `tree` numbers them.
    let mut nearest = vec![NONE; n];
    let mut w = vec![1.0f64; tree.len()];
    let mut next = 0u32;
    for i in root..end {
        if scored[i] {
            nearest[i] = next;
            next += 1;
        } else {
            let p = nearest[dom.node(i).parent as usize];
            nearest[i] = p;
            if dom.node(i).kind == Kind::Element && p != NONE {
                w[p as usize] += 1.0;
            }
        }
    }
    if opts.weight == Weight::Words {
        let words: Vec<f64> = order
            .iter()
            .map(|&i| pf.counts[i as usize].words as f64)
            .collect();
        for (wi, o) in w.iter_mut().zip(own_words(parent, &words)) {
            *wi += o;
        }
    }
    // The root is the whole page, which is never template as a whole: pinned to 0 it leaves
    // its children free, where a high root score would force every node to template.
    let xs: Vec<f64> = order
        .iter()
        .map(|&i| match i as usize == root {
            true => 0.0,
            false => x[i as usize] as f64,
        })
        .collect();
    let page_area = (pf.layout.page.w as f64 * pf.layout.page.h as f64).max(1.0);
    let gamma: Vec<f64> = order
        .iter()
        .zip(&w)
        .map(|(&i, &wi)| match opts.penalty {
            Penalty::AreaRatio => opts.c * page_area / (rects[i as usize].area() as f64).max(1.0),
            Penalty::Constant => opts.c,
            Penalty::Weight => opts.c * wi,
        })
        .collect();
    let ys: Vec<f64> = match opts.variant.smooths() {
        false => xs.clone(),
        true => match smoothing::solve(parent, &xs, &w, &gamma) {
            Ok(s) => s.y,
            // Scores are in [0, 1] and weights/penalties finite, so this cannot fail; keep
            // the classifier's scores rather than lose the page if it ever does.
            Err(_) => xs.clone(),
        },
    };

    let mut y = vec![f32::NAN; n];
    let threshold = match (&model.threshold, opts.learned_threshold) {
        (Some(tm), true) => {
            // The summaries need every node's y first: one extra O(n) loop.
            for i in root..end {
                let near = nearest[i];
                if near != NONE {
                    y[i] = ys[near as usize] as f32;
                }
            }
            tm.choose(&PageSummary::of(dom, pf, &y))
        }
        _ => opts.threshold,
    };
    let mut template = vec![false; n];
    let mut segment_of = vec![NONE; n];
    let mut segments: Vec<Segment> = Vec::new();
    for i in root..end {
        let near = nearest[i];
        if near == NONE {
            continue;
        }
        let yi = ys[near as usize] as f32;
        y[i] = yi;
        template[i] = yi >= threshold;
        if scored[i] {
            let starts = i == root || {
                let p = dom.node(i).parent as usize;
                match opts.variant.smooths() {
                    true => y[p] != yi,
                    false => template[p] != template[i],
                }
            };
            if starts {
                let parent = (i != root).then(|| segment_of[dom.node(i).parent as usize] as usize);
                segment_of[i] = segments.len() as u32;
                segments.push(Segment {
                    node: i,
                    score: yi,
                    template: template[i],
                    words: 0,
                    parent,
                });
                continue;
            }
        }
        segment_of[i] = segment_of[dom.node(i).parent as usize];
    }
    // The block-level decisions change only the text nodes' flags (what is extracted).
    if opts.variant.decodes() {
        decode_blocks(
            &pf.blocks,
            &y,
            threshold,
            opts.switch_penalty,
            &mut template,
        );
    }
    let mut main = None;
    if opts.variant.filters_tree() {
        let anchor = title_anchor(dom, pf, &y, &template);
        main = tree_filter(
            dom,
            &pf.blocks,
            &y,
            opts.tree_share,
            opts.tree_keep_words,
            anchor,
            &mut template,
        );
        if let Some(main) = main {
            keep_code(dom, &pf.visible, &y, main, &mut template);
        }
    }
    for i in root..end {
        if dom.node(i).kind == Kind::Text && pf.visible[i] && segment_of[i] != NONE {
            segments[segment_of[i] as usize].words += pf.counts[i].words;
        }
    }
    Segmentation {
        x,
        y,
        template,
        segments,
        segment_of,
        scored,
        threshold,
        main,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variant_names_round_trip() {
        for v in Variant::ALL {
            assert_eq!(Variant::from_name(v.name()), Some(v));
        }
        assert_eq!(Variant::from_name("tree_filter"), None);
    }

    #[test]
    fn own_words_subtract_the_childrens() {
        // root (10 words) → a (7) → b (2), root → c (1): own = 10−7−1, 7−2, 2, 1.
        let parent = [NO_PARENT, 0, 1, 0];
        let words = [10.0, 7.0, 2.0, 1.0];
        assert_eq!(own_words(&parent, &words), vec![2.0, 5.0, 2.0, 1.0]);
    }
}
