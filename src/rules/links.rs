//! Link lists inside an article: out of the main text.
//!
//! An article's content is prose; a block whose words are nearly all link text ("More from
//! Film", "Latest stories", a list of tags) points away from it, whatever its class names say.
//! The classifier learns link density, but trained without a set's news pages it is unsure of
//! a list of linked headlines inside `<article>`, since a listing's items are linked headlines
//! too. [`drop_link_lists`] reads the page's own declaration (schema.org or OpenGraph: an
//! article) and boilerpipe's link density: on a page that declares an article, the kept text of
//! every link list (see [`drop_link_lists`]) leaves when the article's prose outweighs them: the
//! kept words outside the lists and outside links are at least as many as the lists' kept words
//! and at least [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words). A
//! listing that declares itself an article (a recipe index) is mostly its linked items, and
//! keeps them. A list of in-page links (`href="#…"`, a table of contents) is the article's own, and
//! so is the element holding the title heading.

use super::context::Context;
use crate::dom::{Kind, Tag};

/// Clears `keep` on the text nodes of the page's link lists when the visible text nodes kept
/// outside them and outside links (the article's prose) hold at least as many words as the
/// lists' kept text and at least [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words)
/// words; returns how many kept visible text nodes it cleared. A link list is an outermost
/// visible element, not holding `title` (the title heading), with at least
/// [`RuleOptions::min_list_links`](super::RuleOptions::min_list_links) links, at least
/// [`RuleOptions::min_list_words`](super::RuleOptions::min_list_words) words, at least
/// [`RuleOptions::min_list_link_share`](super::RuleOptions::min_list_link_share) of them inside
/// links, and no in-page link (`href` starting `#`). The caller runs it only on pages that
/// declare an article. `keep` is per node (text nodes are read and cleared, elements left alone).
///
/// # Complexity
/// O(n): one walk finds the lists (each candidate's subtree is scanned for in-page links once,
/// then skipped), one counts the prose, and the lists' subtrees are walked three times more
/// (their kept words, their prose, clearing).
pub fn drop_link_lists(cx: &Context, title: Option<usize>, keep: &mut [bool]) -> usize {
    let (dom, opts) = (cx.dom, cx.opts);
    let n = dom.len();
    let (num, den) = opts.min_list_link_share;
    let mut lists: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < n {
        let node = dom.node(i);
        let end = dom.subtree_end(i);
        if !cx.visible[i] {
            i = end;
            continue;
        }
        let c = &cx.counts[i];
        let list = node.kind == Kind::Element
            && c.links >= opts.min_list_links
            && c.words >= opts.min_list_words
            && c.linked_words as u64 * den as u64 >= c.words as u64 * num as u64
            && !title.is_some_and(|h| i <= h && h < end);
        if list {
            if !has_in_page_link(cx, i, end) {
                lists.push((i, end));
            }
            i = end;
        } else {
            i += 1;
        }
    }
    if lists.is_empty() {
        return 0;
    }
    let inside: u64 = lists.iter().map(|&(a, b)| cx.kept_words(keep, a..b)).sum();
    // The article's prose: kept words outside links, less those of the lists.
    let unlinked = |nodes: std::ops::Range<usize>| -> u64 {
        nodes
            .filter(|&i| cx.is_visible_text(i) && keep[i] && cx.counts[i].linked_words == 0)
            .map(|i| cx.counts[i].words as u64)
            .sum()
    };
    let prose = unlinked(0..n) - lists.iter().map(|&(a, b)| unlinked(a..b)).sum::<u64>();
    if !cx.outweighs(prose, inside) {
        return 0;
    }
    lists.iter().map(|&(a, b)| cx.clear_text(keep, a..b)).sum()
}

/// Whether an `<a>` in `from..to` links into the page itself (`href="#…"`). O(to − from).
fn has_in_page_link(cx: &Context, from: usize, to: usize) -> bool {
    (from..to).any(|i| {
        let node = cx.dom.node(i);
        node.kind == Kind::Element
            && node.tag == Tag::A
            && cx
                .dom
                .attr(i, "href")
                .is_some_and(|h| h.trim_start().starts_with('#'))
    })
}
