//! Markup twins share a fate: the items of a list or grid are written from one template, so the
//! elements whose tag and class, their parent's and their grandparent's are the same (one markup
//! key, [`crate::features::markup::markup_keys`]) are all the page's content or all its chrome.
//! When the model kept most items of such a group and dropped a few (a product grid's last
//! price, a thread's later replies), [`keep_twins`] keeps the few too. The other direction is not taken: a thread's opening post
//! shares its replies' markup, and replies judged template must not take it with them.
//! An item is one unit with its heading (HTML: a heading heads the content after it), so
//! [`keep_item_headings`] keeps the headings of a kept group's items: a product card's linked
//! name looks like a link list to the model when its description and price do not.

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
    let mut restored = 0;
    for_kept_groups(cx, keep, |items, is_kept, keep| {
        if items.iter().all(|&i| is_kept(i)) {
            return;
        }
        for &item in items.iter().filter(|&&i| !is_kept(i)) {
            restored += restore(cx, item, keep);
        }
    });
    restored
}

/// Keeps the scored visible text of the headings (`h1`–`h6`) inside every kept item of a group
/// of markup twins of which at least two thirds are kept (groups and items as in
/// [`keep_twins`], which runs first). Returns how many text nodes it restored.
///
/// # Complexity
/// O(n + e log e), as [`keep_twins`]: the kept items' ranges are marked by a difference array
/// and read in one pass, so nested groups cost nothing extra.
pub fn keep_item_headings(cx: &Context, keep: &mut [bool]) -> usize {
    let dom = cx.dom;
    // +1 where a kept item starts, −1 where it ends: the running sum is how many hold a node.
    let mut delta = vec![0i32; dom.len() + 1];
    for_kept_groups(cx, keep, |items, is_kept, _| {
        for &item in items.iter().filter(|&&i| is_kept(i)) {
            delta[item] += 1;
            delta[dom.node(item).end as usize] -= 1;
        }
    });
    let (mut restored, mut inside, mut heading_end) = (0, 0, 0);
    for j in 0..dom.len() {
        inside += delta[j];
        let node = dom.node(j);
        if j >= heading_end && inside > 0 && node.kind == Kind::Element && node.tag.is_heading() {
            heading_end = node.end as usize;
        }
        if j < heading_end && !keep[j] && cx.is_visible_text(j) && cx.scored(j) {
            keep[j] = true;
            restored += 1;
        }
    }
    restored
}

/// Restores the scored visible text nodes in `item`'s subtree; returns how many. O(subtree).
fn restore(cx: &Context, item: usize, keep: &mut [bool]) -> usize {
    let end = cx.dom.node(item).end as usize;
    let mut restored = 0;
    for (j, k) in keep.iter_mut().enumerate().take(end).skip(item) {
        if !*k && cx.is_visible_text(j) && cx.scored(j) {
            *k = true;
            restored += 1;
        }
    }
    restored
}

/// Calls `f(items, is_kept, keep)` for every group of at least [`MIN_TWINS`] markup twins of
/// which at least two thirds are kept, with its items in document order (none inside another)
/// and whether an item is kept (at least half its words), both read before any call.
fn for_kept_groups(
    cx: &Context,
    keep: &mut [bool],
    mut f: impl FnMut(&[usize], &dyn Fn(usize) -> bool, &mut [bool]),
) {
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
    let is_kept = |i: usize| 2 * kept[i] >= counts[i].words;
    let mut items: Vec<usize> = Vec::new();
    for group in keyed.chunk_by(|a, b| a.0 == b.0) {
        // Items in document order, none inside the one before (nested twins count once).
        items.clear();
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
        let n_kept = items.iter().filter(|&&i| is_kept(i)).count();
        if 3 * n_kept < 2 * items.len() {
            continue;
        }
        f(&items, &is_kept, keep);
    }
}
