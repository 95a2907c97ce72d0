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

impl PageLabels {
    /// Writes one JSON line per labelled node of `page` (the manifest's `entry`) to `out`:
    /// `{"id", "set", "html", "node", "path", "tag", "words", "aligned", "share", "template"}`,
    /// `share` rounded to 4 decimals, and with `with_features` each node's feature values by name.
    ///
    /// # Complexity
    /// O(n) for the paths, plus O(COUNT) a node with `with_features`.
    pub fn write_rows(
        &self,
        page: &Page,
        entry: &crate::input::manifest::Entry,
        with_features: bool,
        out: &mut Vec<u8>,
    ) {
        let nodes: Vec<usize> = self.nodes.iter().map(|l| l.node).collect();
        let paths = page.dom.short_paths_of(&nodes);
        for (l, path) in self.nodes.iter().zip(paths) {
            let mut v = serde_json::json!({
                "id": entry.id,
                "set": entry.set,
                "html": entry.html,
                "node": l.node,
                "path": path,
                "tag": page.dom.tag_name(l.node),
                "words": l.words,
                "aligned": l.aligned,
                "share": l.share.map(|s| (s as f64 * 1e4).round() / 1e4),
                "template": l.template,
            });
            if with_features {
                let row = self.features.matrix.row(l.node);
                let named: serde_json::Map<String, serde_json::Value> = features::NAMES
                    .iter()
                    .zip(row)
                    .map(|(n, &x)| (n.to_string(), serde_json::json!(x)))
                    .collect();
                v["features"] = serde_json::Value::Object(named);
            }
            // A JSON value written to memory cannot fail.
            serde_json::to_writer(&mut *out, &v).expect("JSON to a Vec");
            out.push(b'\n');
        }
    }
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
