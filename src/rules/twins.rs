//! Markup twins share a fate: the items of a list or grid are written from one template, so the
//! elements whose tag and class, their parent's and their grandparent's are the same (one markup
//! key, [`crate::features::markup::markup_keys`]) are all the page's content or all its chrome.
//! When the model kept most items of such a group and dropped a few (a product grid's last
//! price, a thread's later replies), [`keep_twins`] keeps the few too. The other direction is not taken: a thread's opening post
//! shares its replies' markup, and replies judged template must not take it with them.

use super::context::Context;
use crate::dom::Kind;

/// Items a group needs before its majority speaks for the rest: a pair is no list.
pub const MIN_TWINS: usize = 3;

/// Keeps the scored visible text of every item of a group of markup twins of which at least
/// two thirds are kept: a group is the visible scored elements with words sharing a non-zero
/// markup key, none inside another; an item is kept when at least half of its words are.
/// `keep` as in [`super::comments::drop_regions`]; returns how many text nodes it restored.
///
/// # Complexity
/// O(n + e log e) for e keyed elements: one bottom-up pass for kept words, one sort of the
/// keyed visible elements with words, and one walk over each group's items.
pub fn keep_twins(cx: &Context, keep: &mut [bool]) -> usize {
    let (dom, visible, counts) = (cx.dom, cx.visible, cx.counts);
    let n = dom.len();
    let mut kept = vec![0u32; n];
    for i in (1..n).rev() {
        if cx.is_visible_text(i) && keep[i] {
            kept[i] += counts[i].words;
        }
        if let Some(p) = dom.parent(i) {
            kept[p] += kept[i];
        }
    }
    let mut keyed: Vec<(u64, usize)> = (0..n)
        .filter(|&i| {
            dom.node(i).kind == Kind::Element && visible[i] && cx.scored(i) && counts[i].words > 0
        })
        .map(|i| (cx.keys[i], i))
        .filter(|&(k, _)| k != 0)
        .collect();
    keyed.sort_unstable();
    let mut restored = 0;
    for group in keyed.chunk_by(|a, b| a.0 == b.0) {
        // Items in document order, none inside the one before (nested twins count once).
        let mut items: Vec<usize> = Vec::with_capacity(group.len());
        for &(_, i) in group {
            if items
                .last()
                .is_none_or(|&last| i >= dom.node(last).end as usize)
            {
                items.push(i);
            }
        }
        if items.len() < MIN_TWINS {
            continue;
        }
        let is_kept = |i: usize| 2 * kept[i] >= counts[i].words;
        let n_kept = items.iter().filter(|&&i| is_kept(i)).count();
        if 3 * n_kept < 2 * items.len() || n_kept == items.len() {
            continue;
        }
        for &item in items.iter().filter(|&&i| !is_kept(i)) {
            let end = dom.node(item).end as usize;
            for (j, k) in keep.iter_mut().enumerate().take(end).skip(item) {
                if !*k && cx.is_visible_text(j) && cx.scored(j) {
                    *k = true;
                    restored += 1;
                }
            }
        }
    }
    restored
}
