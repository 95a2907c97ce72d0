//! Template labels for one page's nodes, from its hashes and the site's [`TemplateSet`].
//!
//! Three rules, in this order:
//!
//! 1. **By hash.** A node whose subtree hash is in I⁺_θ is template ([`Why::Hash`]). Every
//!    descendant of such a node is then template by hash too (equal subtrees have equal parts).
//! 2. **By share.** A node holding text whose subtree has *more than* `min_template_share`
//!    (default 85%) of its counted bytes inside by-hash template nodes is template
//!    ([`Why::Share`]). Only by-hash bytes count for ancestors: a node made template by this rule
//!    does not pass its whole subtree up as template bytes, so the 15% slack cannot compound up
//!    the tree (a `<body>` whose content is 14% of each of several nested wrappers is not template
//!    merely because each wrapper was).
//! 3. **Text-free nodes inherit.** Whitespace-only text, `<br>`, `<p></p>`, `<img>`, `<script>`
//!    with ignored text and every other subtree without text occur on nearly every page, so their
//!    hashes are never counted ([`crate::has_text`]) and their bytes count neither way in rule 2.
//!    Each such node takes its parent's label ([`Why::Inherited`] / [`Why::Content`]), so a `<br>`
//!    in the footer is template and one in the article is not. A text-free root is content.
//!
//! Bytes are [`PageTree::own_bytes`]: the tags and text of nodes holding text.
//!
//! **Identical pages.** Two byte-identical pages (or identical up to the canonical form) share
//! every hash, including `<html>`'s: if at least the threshold number of copies are counted, every
//! node of them is template. [`crate::SiteLevel`] counts duplicates once by default
//! (`dedupe_identical_pages`), which avoids this; a [`crate::SiteCounter`] fed directly does not.
//!
//! The `<head>` usually differs by its `<title>`, so it is labelled by rule 2 like any element.

use crate::count::TemplateSet;
use crate::hash::has_text;
use crate::tree::PageTree;

const SCALE: u128 = 1_000_000;

/// Default share of a node's counted bytes that must lie in by-hash template nodes (strictly more
/// than this) for the node to be template by share.
pub const DEFAULT_MIN_TEMPLATE_SHARE: f64 = 0.85;

/// How [`label_page_with`] turns hashes into labels.
#[derive(Debug, Clone, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct LabelOptions {
    /// A node is template by share if more than this fraction of its counted bytes lie in by-hash
    /// template nodes (compared exactly after rounding to the nearest millionth). `1.0` or more
    /// disables the rule.
    ///
    /// ### Default
    /// [`DEFAULT_MIN_TEMPLATE_SHARE`] (0.85, as in SiteLevel of Chakrabarti et al.).
    pub min_template_share: f64,
}

impl Default for LabelOptions {
    fn default() -> Self {
        LabelOptions {
            min_template_share: DEFAULT_MIN_TEMPLATE_SHARE,
        }
    }
}

/// Why a node got its label.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Why {
    /// Not template.
    Content,
    /// Template: its subtree hash is in I⁺_θ.
    Hash,
    /// Template: more than the share threshold of its bytes lie in by-hash template nodes.
    Share,
    /// Template: a text-free node whose parent is template.
    Inherited,
}

impl Why {
    /// Whether this label means template.
    #[inline]
    pub fn is_template(self) -> bool {
        !matches!(self, Why::Content)
    }
}

/// Template labels of one page with default options: `result[i]` is whether node `i` is template.
/// See the [module docs](self) for the rules.
///
/// # Panics
/// If `hashes.len() != tree.len()`.
///
/// # Complexity
/// Time O(n) for n nodes; space O(n) (two byte counters per node plus the output).
pub fn label_page<T: PageTree + ?Sized>(tree: &T, hashes: &[u64], set: &TemplateSet) -> Vec<bool> {
    label_page_with(tree, hashes, set, &LabelOptions::default())
}

/// [`label_page`] with explicit options.
///
/// # Panics
/// If `hashes.len() != tree.len()`.
///
/// # Complexity
/// As [`label_page`].
pub fn label_page_with<T: PageTree + ?Sized>(
    tree: &T,
    hashes: &[u64],
    set: &TemplateSet,
    options: &LabelOptions,
) -> Vec<bool> {
    explain_page(tree, hashes, set, options)
        .into_iter()
        .map(Why::is_template)
        .collect()
}

/// Like [`label_page_with`], but says which rule labelled each node.
///
/// # Panics
/// If `hashes.len() != tree.len()`.
///
/// # Complexity
/// Time O(n) for n nodes: one bottom-up pass summing bytes into parents (no recursion), one
/// top-down pass for inheritance; space O(n).
pub fn explain_page<T: PageTree + ?Sized>(
    tree: &T,
    hashes: &[u64],
    set: &TemplateSet,
    options: &LabelOptions,
) -> Vec<Why> {
    let n = tree.len();
    assert_eq!(
        hashes.len(),
        n,
        "hashes are of a page with {} nodes, the tree has {n}",
        hashes.len()
    );
    // counted[i]: bytes of text-holding nodes in i's subtree; templ[i]: those inside by-hash
    // template nodes. Children (higher indices) are added into their parent before it is visited.
    let mut counted = vec![0u64; n];
    let mut templ = vec![0u64; n];
    let mut why = vec![Why::Content; n];
    // Exact integer comparison (share rounded to the nearest millionth), like θ's threshold, so
    // "exactly 85%" is never misjudged by float rounding.
    let share_micro = (options.min_template_share.max(0.0) * SCALE as f64).round() as u128;
    for i in (0..n).rev() {
        let h = hashes[i];
        if has_text(h) {
            counted[i] += tree.own_bytes(i);
            if set.contains(h) {
                templ[i] = counted[i];
                why[i] = Why::Hash;
            } else if counted[i] > 0
                && u128::from(templ[i]) * SCALE > share_micro * u128::from(counted[i])
            {
                why[i] = Why::Share;
            }
        }
        if let Some(p) = tree.parent(i) {
            counted[p] += counted[i];
            templ[p] += templ[i];
        }
    }
    for i in 0..n {
        if !has_text(hashes[i]) {
            if let Some(p) = tree.parent(i) {
                if why[p].is_template() {
                    why[i] = Why::Inherited;
                }
            }
        }
    }
    why
}
