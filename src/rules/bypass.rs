//! Bypass blocks: what a page itself says comes before its main content.
//!
//! Accessible pages let a reader skip the blocks repeated on every page (WCAG 2.4.1, "Bypass
//! Blocks"): a "Skip to main content" link near the top points at where the main content starts,
//! and HTML's `<main>` (or `role=main`) element marks that content. Whatever precedes that start
//! in document order is the page's chrome by the page's own account: banners, promotion bars,
//! menus. [`main_start`](crate::features::markup::main_start) finds the start (the skip link's target, else the first main landmark)
//! and [`drop_bypassed`] drops the kept text before it, sparing the page's title heading and what
//! follows it (a title and its lead often sit above `<main>`).
//!
//! The start's element is the main content by the same account. When the classifier keeps almost
//! nothing on the page and little of that element (a listing whose items are short link-heavy
//! teasers, which look like template to every feature), [`recover_main`] keeps the element's text
//! instead: the page's word against a model that has lost the page.
//!
//! Inside that element the page's own text runs in one flow: a list or a table with the main
//! content's text before and after it is part of that text (a recipe's ingredients between its
//! steps, a reference's entries under their headings, a table of figures), however link-dense or
//! short its items are. [`keep_flow_lists`] keeps them where the model dropped them.

use super::context::Context;
use crate::dom::{Kind, Tag};
use crate::features::names::{CHROME_LANDMARK_BITS, COMMENT_GROUP_BIT, RELATED_GROUP_BIT};
use crate::text::is_sentence_end;
use std::ops::Range;

/// Clears `keep` on the text nodes before the main content's `start` (see [`main_start`](crate::features::markup::main_start)) and
/// before the page's `title` heading, when the visible text nodes kept from there on hold at
/// least [`RuleOptions::min_main_words`](super::RuleOptions::min_main_words) words; returns how many kept visible text nodes it cleared. `keep`
/// is per node (text nodes are read and cleared, elements left alone).
///
/// # Complexity
/// O(n): one walk to count, one to clear.
pub fn drop_bypassed(cx: &Context, start: usize, title: Option<usize>, keep: &mut [bool]) -> usize {
    let from = title.map_or(start, |h| h.min(start));
    if cx.kept_words(keep, from..cx.dom.len()) < cx.opts.min_main_words as u64 {
        return 0;
    }
    cx.clear_text(keep, 0..from)
}

/// Keeps the text of the main content's nodes `inside` (the main start's extent, see
/// [`main_extent`](crate::features::markup::main_extent), or on a page without a main start its
/// main region, [`crate::features::PageFeatures::main_region`]) when the page keeps, outside its
/// chrome landmarks (HTML's `<nav>`, `<aside>` and the page's own `<header>` and `<footer>`),
/// fewer than [`RuleOptions::recover_below_page_words`](super::RuleOptions::recover_below_page_words) words and the extent less than
/// [`RuleOptions::recover_below_share`](super::RuleOptions::recover_below_share) of its own: every visible, `scored` text node inside it is set in
/// `keep`. Returns how many it set (0 when the rule does not fire). Run before the passes that
/// drop comment threads, chrome and related links, which then apply to what it keeps.
///
/// # Complexity
/// O(n): one walk to count the page's kept words, one over the extent.
pub fn recover_main(cx: &Context, inside: Range<usize>, keep: &mut [bool]) -> usize {
    let (dom, counts, opts) = (cx.dom, cx.counts, cx.opts);
    // A footer's notices or a menu the model kept are no main content: they do not count.
    if cx.kept_words(keep, (0..dom.len()).filter(|&i| !cx.in_chrome(i)))
        >= opts.recover_below_page_words as u64
    {
        return 0;
    }
    let is_scored_text = |i: usize| cx.is_visible_text(i) && cx.scored(i);
    let (mut kept, mut all) = (0u64, 0u64);
    for i in inside.clone().filter(|&i| is_scored_text(i)) {
        all += counts[i].words as u64;
        kept += if keep[i] { counts[i].words as u64 } else { 0 };
    }
    let (num, den) = opts.recover_below_share;
    if all == 0 || kept * den as u64 >= all * num as u64 {
        return 0;
    }
    cx.keep_text(keep, inside)
}

/// Keeps the lists and tables in the flow of the main content: every list (`<ul>`, `<ol>`,
/// `<dl>`) or table among the main content's nodes `inside` (the main start's extent, see
/// [`main_extent`](crate::features::markup::main_extent)) that is rendered and scored, holds at
/// least [`RuleOptions::flow_list_min_words`](super::RuleOptions::flow_list_min_words) words of
/// which `keep` holds fewer than half, and has at least
/// [`RuleOptions::flow_list_context_words`](super::RuleOptions::flow_list_context_words) kept
/// words of the extent before it and as many after it (or, for a `<dl>` whose descriptions are
/// mostly sentences, none after it: a reference page's list of properties ends its main text),
/// gets its visible scored text set in
/// `keep` (the outermost such: one inside it is its own). Left alone are those in chrome
/// landmarks, comment or related regions (the passes after this one drop those anyway) and lists
/// of headlines, two thirds of whose items are wholly a link of at least
/// [`HEADLINE_MIN_WORDS`] words: other stories ("Related", "More on this"), not the article's
/// text. The kept words before and after are the model's, as they stood before this rule.
/// Returns how many text nodes it set.
///
/// # Complexity
/// O(|inside|): one pass for the prefix sums of kept words, one walk that skips each kept
/// element's subtree.
pub fn keep_flow_lists(cx: &Context, inside: Range<usize>, keep: &mut [bool]) -> usize {
    let (dom, counts, opts) = (cx.dom, cx.counts, cx.opts);
    let min_context = u64::from(opts.flow_list_context_words);
    // before[k]: kept visible words among inside.start .. inside.start + k.
    let mut before = Vec::with_capacity(inside.len() + 1);
    before.push(0u64);
    let mut sum = 0u64;
    for i in inside.clone() {
        if cx.is_visible_text(i) && keep[i] {
            sum += u64::from(counts[i].words);
        }
        before.push(sum);
    }
    let at = |i: usize| before[i - inside.start];
    let left_alone = CHROME_LANDMARK_BITS | COMMENT_GROUP_BIT | RELATED_GROUP_BIT;
    let headline = |k: usize| {
        counts[k].words >= HEADLINE_MIN_WORDS && counts[k].linked_words == counts[k].words
    };
    let mut set = 0;
    let mut i = inside.start;
    while i < inside.end {
        let node = dom.node(i);
        let list = matches!(node.tag, Tag::UL | Tag::OL | Tag::DL);
        if node.kind != Kind::Element || !(list || node.tag == Tag::TABLE) {
            i += 1;
            continue;
        }
        let end = (node.end as usize).min(inside.end);
        let words = u64::from(counts[i].words);
        let kept = at(end) - at(i);
        let mut flows = cx.visible[i]
            && cx.scored(i)
            && cx.regions.groups[i] & left_alone == 0
            && words >= u64::from(opts.flow_list_min_words)
            && 2 * kept < words
            && at(i) >= min_context
            && (sum - at(end) >= min_context
                || (node.tag == Tag::DL && describes_in_sentences(cx, i)));
        if flows && list {
            let (mut items, mut headlines) = (0usize, 0usize);
            for k in dom.children(i) {
                if dom.node(k).kind == Kind::Element && counts[k].words > 0 {
                    items += 1;
                    headlines += headline(k) as usize;
                }
            }
            flows = 3 * headlines < 2 * items;
        }
        if flows {
            set += cx.keep_text(keep, i..end);
            i = end;
        } else {
            i += 1;
        }
    }
    set
}

/// Whether most descriptions of the `<dl>` at `i` are sentences: the last visible text of
/// each `<dd>` (a child of the list, or of a `<div>` grouping its terms, as HTML allows) ends
/// with a sentence end ([`is_sentence_end`]: `.`, `!`, `?` or a CJK full stop), as a
/// glossary's or an API reference's do and a masthead's names or a post's "Tags:" do not.
///
/// # Complexity
/// O(children of the list and of its groups): each description is read backwards from its
/// end over at most [`DESCRIPTION_TAIL_NODES`] nodes, so nested lists stay linear.
fn describes_in_sentences(cx: &Context, i: usize) -> bool {
    let dom = cx.dom;
    let (mut dds, mut sentences) = (0usize, 0usize);
    let mut count = |k: usize| {
        let end = dom.subtree_end(k);
        let last = (k + 1..end)
            .rev()
            .take(DESCRIPTION_TAIL_NODES)
            .filter(|&t| cx.is_visible_text(t))
            .map(|t| dom.text(t).trim_end())
            .find(|t| !t.is_empty());
        if let Some(t) = last {
            dds += 1;
            sentences += t.chars().next_back().is_some_and(is_sentence_end) as usize;
        }
    };
    for k in dom.children(i) {
        match dom.node(k).tag {
            Tag::DD => count(k),
            Tag::DIV => dom
                .children(k)
                .filter(|&d| dom.node(d).tag == Tag::DD)
                .for_each(&mut count),
            _ => {}
        }
    }
    dds >= 2 && 2 * sentences > dds
}

/// Nodes read back from a description's end to find its last text.
const DESCRIPTION_TAIL_NODES: usize = 64;

/// Words an item wholly a link has at least to be a headline for [`keep_flow_lists`] (a
/// story's title, not a term or a name).
pub const HEADLINE_MIN_WORDS: u32 = 4;
