//! Gold-text node labels as a data set (`pagelevel label`): the training targets of
//! [`crate::train`], written out so that others can train on them.
//!
//! For a page with gold main text, every node the pipeline scores ([`labelled_nodes`]) gets
//! its visible words, the words the alignment with the gold text keeps ([`crate::train::align`](mod@crate::train::align)),
//! their ratio (the content share) and the gold label the classifier trains with
//! ([`gold_template`]: template when the share is below one half; none without words).
//!
//! # Complexity
//! One feature pass and one alignment per page: O(n + t) plus the diff (see [`align`]).

use crate::features::{self, FeatureOptions, PageFeatures};
use crate::train::align::align;
use crate::train::{gold_template, labelled_nodes};
use crate::Page;

/// The label of one node.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct NodeLabel {
    /// The node's index in the page's DOM.
    pub node: usize,
    /// Visible words in its subtree.
    pub words: u32,
    /// Of those, the words aligned with the gold text.
    pub aligned: u32,
    /// `aligned / words`, or `None` without words.
    pub share: Option<f32>,
    /// The gold label (true = template), or `None` without words.
    pub template: Option<bool>,
}

/// A page's labels, with the features they were computed beside.
#[derive(Debug, Clone)]
pub struct PageLabels {
    /// The page's features (visibility, layout, the feature matrix).
    pub features: PageFeatures,
    /// Words of the gold text.
    pub gold_words: u32,
    /// Page words aligned with it.
    pub aligned_words: u32,
    /// One label per scored node, in document order.
    pub nodes: Vec<NodeLabel>,
}

/// Aligns `gold` with `page` and labels its scored nodes.
pub fn label_page(page: &Page, gold: &str, fopts: &FeatureOptions) -> PageLabels {
    let dom = &page.dom;
    let pf = features::compute(dom, page.url.as_deref(), fopts);
    let a = align(dom, &pf.visible, gold);
    let nodes = match dom.body() {
        Some(body) => labelled_nodes(dom, body, &pf)
            .into_iter()
            .map(|i| {
                let share = a.share(i);
                NodeLabel {
                    node: i,
                    words: a.words[i],
                    aligned: a.aligned[i],
                    share,
                    template: share.map(gold_template),
                }
            })
            .collect(),
        None => Vec::new(),
    };
    PageLabels {
        features: pf,
        gold_words: a.gold_words,
        aligned_words: a.aligned.first().copied().unwrap_or(0),
        nodes,
    }
}
