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

use super::context::Context;
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
/// main region, [`crate::features::PageFeatures::main_region`]) when the page keeps
/// fewer than [`RuleOptions::recover_below_page_words`](super::RuleOptions::recover_below_page_words) words and the extent less than
/// [`RuleOptions::recover_below_share`](super::RuleOptions::recover_below_share) of its own: every visible, `scored` text node inside it is set in
/// `keep`. Returns how many it set (0 when the rule does not fire). Run before the passes that
/// drop comment threads, chrome and related links, which then apply to what it keeps.
///
/// # Complexity
/// O(n): one walk to count the page's kept words, one over the extent.
pub fn recover_main(cx: &Context, inside: Range<usize>, keep: &mut [bool]) -> usize {
    let (dom, counts, opts) = (cx.dom, cx.counts, cx.opts);
    if cx.kept_words(keep, 0..dom.len()) >= opts.recover_below_page_words as u64 {
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
