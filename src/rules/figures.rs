//! Figures: HTML's self-contained content that the main flow refers to.
//!
//! HTML's `<figure>` is "self-contained content … typically referenced as a single unit from
//! the main flow of the document", which "could be moved away from the main content of the
//! document without affecting the document's meaning"; its `<figcaption>` is the figure's
//! caption. A story's photo captions ("In this October 2016 photo provided by …") are such
//! units, not the story's text, and the model, reading a caption as a short paragraph, keeps
//! many. [`drop_captions`] drops them when the page's other kept text is the article they
//! illustrate.

use super::context::Context;
use crate::dom::{Kind, Tag};
use std::ops::Range;

/// Clears `keep` on the text of every `<figcaption>` (its subtree, the outermost when nested)
/// when the visible text nodes kept outside them hold at least as many words as the captions'
/// kept text and at least
/// [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words) words (the article
/// outweighs its illustrations; a gallery's or a listing's captions are its content). Returns
/// how many kept visible text nodes it cleared.
///
/// # Complexity
/// O(n): one walk finds the captions (each subtree skipped), one counts the page's kept words,
/// and the captions' subtrees are walked twice more (their kept words, clearing).
pub fn drop_captions(cx: &Context, keep: &mut [bool]) -> usize {
    let (dom, n) = (cx.dom, cx.dom.len());
    let mut captions: Vec<Range<usize>> = Vec::new();
    let mut i = 0;
    while i < n {
        let node = dom.node(i);
        if node.kind == Kind::Element && node.tag == Tag::FIGCAPTION {
            captions.push(i..node.end as usize);
            i = node.end as usize;
        } else {
            i += 1;
        }
    }
    if captions.is_empty() {
        return 0;
    }
    cx.clear_under_article(keep, &captions)
}
