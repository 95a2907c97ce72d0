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
use crate::date;
use crate::dom::{Kind, Tag};
use crate::features::names::FORUM_GROUP_BIT;
use rustc_hash::FxHashMap;

/// Items a group needs before its majority speaks for the rest: a pair is no list.
pub const MIN_TWINS: usize = 3;

/// The page's groups of markup twins: the visible scored elements with words sharing a non-zero
/// markup key, in document order, none inside the one before (nested twins count once), each
/// group at least [`MIN_TWINS`] long. They do not depend on the keep-mask, so they are built
/// once per page for both rules that read them.
pub struct Groups {
    /// Every group's items, one group after another.
    items: Vec<usize>,
    /// Where each group ends in `items`.
    ends: Vec<usize>,
}

impl Groups {
    /// The groups of the page of `cx`. O(n + e log e) for e keyed elements: one sort of them.
    pub fn new(cx: &Context) -> Groups {
        let (dom, visible, counts) = (cx.dom, cx.visible, cx.counts);
        let mut keyed: Vec<(u64, usize)> = (0..dom.len())
            .filter(|&i| {
                dom.node(i).kind == Kind::Element
                    && visible[i]
                    && cx.scored(i)
                    && counts[i].words > 0
            })
            .map(|i| (cx.keys[i], i))
            .filter(|&(k, _)| k != 0)
            .collect();
        keyed.sort_unstable();
        let (mut items, mut ends) = (Vec::new(), Vec::new());
        for group in keyed.chunk_by(|a, b| a.0 == b.0) {
            let start = items.len();
            for &(_, i) in group {
                if items[start..]
                    .last()
                    .is_none_or(|&last| i >= dom.node(last).end as usize)
                {
                    items.push(i);
                }
            }
            if items.len() - start < MIN_TWINS {
                items.truncate(start);
            } else {
                ends.push(items.len());
            }
        }
        Groups { items, ends }
    }

    /// Every group's items.
    fn all(&self) -> impl Iterator<Item = &[usize]> + '_ {
        let starts = std::iter::once(0).chain(self.ends.iter().copied());
        starts.zip(&self.ends).map(|(s, &e)| &self.items[s..e])
    }

    /// The groups of which at least two thirds of the items are `such` (kept, dated, …): a
    /// group's majority speaks for the rest.
    fn mostly<'g>(
        &'g self,
        such: &'g impl Fn(usize) -> bool,
    ) -> impl Iterator<Item = &'g [usize]> + 'g {
        self.all()
            .filter(move |items| 3 * items.iter().filter(|&&i| such(i)).count() >= 2 * items.len())
    }
}

/// Keeps the scored visible text of every item of a group of markup twins ([`Groups`]) of which
/// at least two thirds are kept; an item is kept when at least half of its words are. `keep` as
/// in [`super::comments::drop_regions`]; returns how many text nodes it restored.
///
/// # Complexity
/// O(n): one bottom-up pass for kept words and one walk over each group's items.
pub fn keep_twins(cx: &Context, groups: &Groups, keep: &mut [bool]) -> usize {
    let kept = cx.kept_words_below(keep);
    let is_kept = |i: usize| 2 * kept[i] >= cx.counts[i].words;
    let mut restored = 0;
    for items in groups.mostly(&is_kept) {
        for &item in items.iter().filter(|&&i| !is_kept(i)) {
            restored += cx.keep_text(keep, item..cx.dom.node(item).end as usize);
        }
    }
    restored
}

/// Keeps the scored visible text of the headings (`h1`–`h6`) inside every kept item of a group
/// of markup twins of which at least two thirds are kept (groups and items as in
/// [`keep_twins`], which runs first). Returns how many text nodes it restored.
///
/// # Complexity
/// O(n): the kept items' ranges are marked by a difference array and read in one pass, so
/// nested groups cost nothing extra.
pub fn keep_item_headings(cx: &Context, groups: &Groups, keep: &mut [bool]) -> usize {
    let dom = cx.dom;
    let kept = cx.kept_words_below(keep);
    let is_kept = |i: usize| 2 * kept[i] >= cx.counts[i].words;
    // +1 where a kept item starts, −1 where it ends: the running sum is how many hold a node.
    let mut delta = vec![0i32; dom.len() + 1];
    for items in groups.mostly(&is_kept) {
        for &item in items.iter().filter(|&&i| is_kept(i)) {
            delta[item] += 1;
            delta[dom.node(item).end as usize] -= 1;
        }
    }
    // The outermost headings inside kept items.
    let (mut headings, mut inside, mut heading_end) = (Vec::new(), 0, 0);
    for (j, d) in delta.iter().enumerate().take(dom.len()) {
        inside += d;
        let node = dom.node(j);
        if j >= heading_end && inside > 0 && node.kind == Kind::Element && node.tag.is_heading() {
            heading_end = node.end as usize;
            headings.push(j);
        }
    }
    headings
        .into_iter()
        .map(|h| cx.keep_text(keep, h..dom.node(h).end as usize))
        .sum()
}

/// Clears `keep` on the items of every group of markup twins of which at least two thirds of
/// the items each hold a date (a `<time>` element, or `is_date_text`: a few words standing
/// alone in their element that are a date with its year) and a link, and none holds a node of
/// `spared` (the title heading, the main start): a feed of other stories, each with its own
/// date ("Latest News", "More from", "Related Stories"), written from one template. The items
/// leave only when the kept words outside such groups are at least as many as theirs and at least
/// [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words) (the article
/// outweighs its feeds). The caller runs it only on an article that is no thread (a thread's
/// posts are dated twins too). Returns how many kept visible text nodes it cleared.
///
/// # Complexity
/// O(n + e log t) for e group items and t dates: one pass finds the dates (a short text is
/// parsed only when it has three to nine words; a page with fewer than [`MIN_TWINS`] has no
/// feed), a binary search per item, one walk over the chosen items' subtrees.
pub fn drop_dated_teasers(
    cx: &Context,
    groups: &Groups,
    spared: [Option<usize>; 2],
    keep: &mut [bool],
) -> usize {
    let dom = cx.dom;
    let n = dom.len();
    if groups.all().next().is_none() {
        return 0;
    }
    // The dates in document order, `<time>` elements and short texts that are a date (older
    // layouts write `March 15, 2017` in a `<small>`): a subtree holds one when the first at or
    // after its root comes before its end.
    let dates: Vec<usize> = (0..n)
        .filter(|&i| {
            let node = dom.node(i);
            match node.kind {
                Kind::Element => node.tag == Tag::TIME,
                Kind::Text => cx.visible[i] && is_date_text(cx, i),
                _ => false,
            }
        })
        .collect();
    if dates.len() < MIN_TWINS {
        return 0;
    }
    let end = |i: usize| dom.node(i).end as usize;
    // An item is a card when it holds a date and a link.
    let card = |i: usize| {
        cx.counts[i].links > 0
            && dates
                .get(dates.partition_point(|&t| t < i))
                .is_some_and(|&t| t < end(i))
    };
    let holds_spared = |i: usize| spared.iter().flatten().any(|&s| i <= s && s < end(i));
    let mut feeds: Vec<(usize, usize)> = Vec::new();
    for items in groups.mostly(&card) {
        if !items.iter().any(|&i| holds_spared(i)) {
            feeds.extend(items.iter().map(|&i| (i, end(i))));
        }
    }
    if feeds.is_empty() {
        return 0;
    }
    // Nested groups: keep the outermost ranges only.
    feeds.sort_unstable();
    let mut outer: Vec<std::ops::Range<usize>> = Vec::new();
    for (a, b) in feeds {
        if outer.last().is_none_or(|r| a >= r.end) {
            outer.push(a..b);
        }
    }
    cx.clear_under_article(keep, &outer)
}

/// Whether visible text node `i` is a date standing alone: the whole text of its element
/// (`<small>March 15, 2017</small>`, not a date inside a sentence or a citation), of three to
/// [`DATE_TEXT_MAX_WORDS`] words, that [`date::parse`] reads (so with its year).
/// O(length of a short text).
fn is_date_text(cx: &Context, i: usize) -> bool {
    let text = cx.dom.text(i);
    let words = cx.counts[i].words;
    let parent = cx.dom.node(i).parent as usize;
    // A year is four digits: the cheap tests first.
    (3..=DATE_TEXT_MAX_WORDS).contains(&words)
        && cx.counts[parent].words == words
        && text.bytes().filter(u8::is_ascii_digit).count() >= 4
        && date::parse(text).is_some()
}

/// The most words of a text node read as a date: a dateline with its time, zone and weekday
/// ("updated 4:58 PM EST, Fri January 4, 2013", nine words) is one.
const DATE_TEXT_MAX_WORDS: u32 = 9;

/// A thread's posts: the group of markup twins whose items hold the most words outside links
/// is its posts when those are at least
/// [`RuleOptions::min_posts_share`](super::RuleOptions::min_posts_share) of the page's words
/// outside links, and the page names itself a thread (`named`: schema.org type or URL) or every
/// item lies in a region named as forum engines name posts ([`FORUM_GROUP_BIT`]). When the
/// model kept less than half of the posts' words, the scored visible text of every post is
/// kept: a forum engine writes every post from one template, so they share a fate, and a
/// model that has seen comments as chrome on other sites' pages drops the thread or keeps only
/// its opening post. Returns how many text nodes it restored.
///
/// # Complexity
/// O(n): one walk over each group's items (nested twins count once in a group), then two over
/// the chosen group's subtrees (kept words, then keeping).
pub fn keep_posts(cx: &Context, groups: &Groups, named: bool, keep: &mut [bool]) -> usize {
    let prose = |i: usize| (cx.counts[i].words - cx.counts[i].linked_words) as u64;
    let Some((words, items)) = groups
        .all()
        .map(|items| (items.iter().map(|&i| prose(i)).sum::<u64>(), items))
        .max_by_key(|&(words, items)| (words, std::cmp::Reverse(items[0])))
    else {
        return 0;
    };
    if !named
        && items
            .iter()
            .any(|&i| cx.regions.groups[i] & FORUM_GROUP_BIT == 0)
    {
        return 0;
    }
    let (num, den) = cx.opts.min_posts_share;
    if words == 0 || words * u64::from(den) < prose(0) * u64::from(num) {
        return 0;
    }
    // A model that kept most of the posts read them better than whole items do (signatures,
    // user cards and buttons are in the items too); the few it dropped are `twin-items`' task.
    keep_lost_group(cx, items, keep)
}

/// Keeps the scored visible text of every item of `items` when the model kept less than half
/// of their words (a group it lost, not one it read item by item); returns how many text nodes
/// it restored. O(Σ subtree sizes of the items).
fn keep_lost_group(cx: &Context, items: &[usize], keep: &mut [bool]) -> usize {
    let ranges = || items.iter().flat_map(|&i| i..cx.dom.node(i).end as usize);
    let all_words: u64 = items.iter().map(|&i| u64::from(cx.counts[i].words)).sum();
    if 2 * cx.kept_words(keep, ranges()) >= all_words {
        return 0;
    }
    cx.keep_text(keep, ranges())
}

/// A listing's items: on a page of which the model kept, outside the chrome landmarks (HTML's
/// `<nav>`, `<aside>` and the page's own `<header>` and `<footer>`, and their ARIA roles), fewer
/// than [`RuleOptions::recover_below_page_words`](super::RuleOptions::recover_below_page_words)
/// words and no paragraph (no kept text node holds more than
/// [`RuleOptions::listing_max_paragraph_words`](super::RuleOptions::listing_max_paragraph_words)
/// words outside links), the group of markup twins with the most words among those outside the
/// chrome landmarks whose items hold at least
/// [`RuleOptions::listing_min_item_words`](super::RuleOptions::listing_min_item_words) words on
/// average is the page's content when it holds at least
/// [`RuleOptions::listing_min_share`](super::RuleOptions::listing_min_share) of the page's words
/// and the model kept less than half of them: its scored visible text is kept. A listing's items
/// (teasers, cards, results) are short and link-heavy, which every feature reads as template,
/// while a page that is one story keeps its paragraphs. Returns how many text nodes it restored.
///
/// # Complexity
/// O(n): one walk over the page, one over each group's items, two over the chosen group's
/// subtrees.
pub fn keep_listing(cx: &Context, groups: &Groups, keep: &mut [bool]) -> usize {
    let (dom, counts, opts) = (cx.dom, cx.counts, cx.opts);
    // A story: a kept paragraph, or as many kept words as the model keeps of one; a footer's
    // legal notice or a sidebar's blurb is no story, whatever the model made of it.
    let mut kept = 0u64;
    let story = |i: usize| cx.is_visible_text(i) && keep[i] && !cx.in_chrome(i);
    for i in (0..dom.len()).filter(|&i| story(i)) {
        kept += u64::from(counts[i].words);
        if counts[i].words - counts[i].linked_words > opts.listing_max_paragraph_words
            || kept >= u64::from(opts.recover_below_page_words)
        {
            return 0;
        }
    }
    let words = |items: &[usize]| {
        items
            .iter()
            .map(|&i| u64::from(counts[i].words))
            .sum::<u64>()
    };
    let Some((words, items)) = groups
        .all()
        .filter(|items| items.iter().all(|&i| !cx.in_chrome(i)))
        .map(|items| (words(items), items))
        .filter(|&(w, items)| w >= u64::from(opts.listing_min_item_words) * items.len() as u64)
        .max_by_key(|&(w, items)| (w, std::cmp::Reverse(items[0])))
    else {
        return 0;
    };
    let (num, den) = opts.listing_min_share;
    if words * u64::from(den) < u64::from(counts[0].words) * u64::from(num) {
        return 0;
    }
    keep_lost_group(cx, items, keep)
}

/// A case-folded hash of `text` trimmed, without allocating; `None` when it has no letter (a
/// count, a price, a date: an item's data, not a label). O(|text|).
fn label_key(text: &str) -> Option<u64> {
    use std::hash::Hasher;
    let text = text.trim();
    if !text.chars().any(char::is_alphabetic) {
        return None;
    }
    let mut h = rustc_hash::FxHasher::default();
    for c in text.chars().flat_map(char::to_lowercase) {
        h.write_u32(c as u32);
    }
    Some(h.finish())
}

/// Whether text node `t` lies in a link or a button below `item`: what a reader clicks.
/// O(depth of `t` below `item`).
fn in_control(dom: &crate::dom::Dom, t: usize, item: usize) -> bool {
    let mut p = dom.parent(t);
    while let Some(q) = p.filter(|&q| q > item) {
        if matches!(dom.node(q).tag, Tag::A | Tag::BUTTON) {
            return true;
        }
        p = dom.parent(q);
    }
    false
}

/// Drops the item labels of every group of markup twins ([`Groups`]): the text of a link or
/// button inside an item, of at most
/// [`RuleOptions::max_label_words`](super::RuleOptions::max_label_words) words and holding a
/// letter, that recurs, case aside, in at least
/// [`RuleOptions::min_label_share`](super::RuleOptions::min_label_share) of the group's items
/// and in at least 3. A template writes the same control into every item ("Reply", "Report
/// inappropriate content", "Add to favorites", "Choose options"), while an item's own name,
/// link and data differ from item to item. Returns how many kept text nodes it cleared.
///
/// # Complexity
/// O(Σ subtree sizes of the groups' items · d) for d the depth of a text node below its item:
/// O(n · d) when no group nests in another's items, times the nesting depth of groups if some
/// do: each item's subtree is walked once. One hash map and one list, reused across groups.
pub fn drop_item_labels(cx: &Context, groups: &Groups, keep: &mut [bool]) -> usize {
    let (dom, opts) = (cx.dom, cx.opts);
    let (num, den) = opts.min_label_share;
    // A label's key, the last item it was seen in, in how many items.
    let mut seen: FxHashMap<u64, (usize, usize)> = FxHashMap::default();
    let labels = |item: usize| {
        (item..dom.node(item).end as usize).filter_map(move |t| {
            let words = cx.counts[t].words;
            (dom.node(t).kind == Kind::Text
                && cx.visible[t]
                && (1..=opts.max_label_words).contains(&words)
                && in_control(dom, t, item))
            .then(|| label_key(dom.text(t)))
            .flatten()
            .map(|k| (t, k))
        })
    };
    // The group's label texts (node, key), found once and read by both passes.
    let mut found: Vec<(usize, u64)> = Vec::new();
    let mut cleared = 0;
    for items in groups.all() {
        seen.clear();
        found.clear();
        for (k, &item) in items.iter().enumerate() {
            for (t, key) in labels(item) {
                found.push((t, key));
                let e = seen.entry(key).or_insert((usize::MAX, 0));
                if e.0 != k {
                    *e = (k, e.1 + 1);
                }
            }
        }
        let need = (items.len() * num as usize)
            .div_ceil(den as usize)
            .max(MIN_TWINS);
        for &(t, key) in &found {
            if keep[t] && seen.get(&key).is_some_and(|e| e.1 >= need) {
                keep[t] = false;
                cleared += 1;
            }
        }
    }
    cleared
}
