//! Comment threads under an article: out of the main text.
//!
//! Readers' comments under an article are not its main content (Readability's and L3S-GN1's
//! gold leave them out, as WCXB's does on article pages), but they are prose, so the classifier
//! often keeps them, and a long thread outweighs the article it answers. [`drop_comment_threads`]
//! drops the kept text inside comment regions (an element whose id or class names comments, and
//! everything under it: the `in_comment` feature) when the page keeps at least
//! [`MIN_ARTICLE_WORDS`] words outside them, an article body the comments answer. A forum
//! thread whose posts all sit in comment regions keeps them, as nothing outside is an article;
//! one whose opening post is outside them loses its replies (`--keep-comments` keeps them).

use crate::dom::{Dom, Kind};
use crate::features::Counts;

/// Kept words outside comment regions that make a page an article with comments.
pub const MIN_ARTICLE_WORDS: u32 = 100;

/// Clears `keep` on the text nodes inside comment regions (`in_comment`) when the visible
/// text nodes kept outside them hold at least [`MIN_ARTICLE_WORDS`] words; returns how many
/// kept visible text nodes it cleared. `keep` is per node (text nodes are read and cleared,
/// elements left alone).
///
/// # Complexity
/// O(n): one pass to count, one to clear.
pub fn drop_comment_threads(
    dom: &Dom,
    visible: &[bool],
    counts: &[Counts],
    in_comment: &[bool],
    keep: &mut [bool],
) -> usize {
    let is_kept_text =
        |keep: &[bool], i: usize| dom.node(i).kind == Kind::Text && visible[i] && keep[i];
    let outside: u64 = (0..dom.len())
        .filter(|&i| !in_comment[i] && is_kept_text(keep, i))
        .map(|i| counts[i].words as u64)
        .sum();
    if outside < MIN_ARTICLE_WORDS as u64 {
        return 0;
    }
    let mut cleared = 0;
    for i in 0..dom.len() {
        if in_comment[i] && dom.node(i).kind == Kind::Text {
            cleared += is_kept_text(keep, i) as usize;
            keep[i] = false;
        }
    }
    cleared
}
