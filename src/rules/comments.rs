//! Comment threads and inline chrome under an article: out of the main text.
//!
//! Readers' comments under an article are not its main content (Readability's and L3S-GN1's
//! gold leave them out, as WCXB's does on article pages), but they are prose, so the classifier
//! often keeps them, and a long thread outweighs the article it answers. Share bars,
//! screen-reader and skip text, and search or account controls that sit inside a kept article
//! are not content either, but a control is small: a region named as one that holds the page's
//! title heading, its main start or more kept words than the rest of the page is the page's
//! content under a control's name (a shop's results in `#search-page-wrapper`), and stays.
//! [`drop_regions`] drops the kept text inside such regions (an element
//! whose id or class names them, and everything under it, or what follows an empty jump target
//! named so in its container, `<a name="comments"></a>`: [`COMMENT_GROUP_BIT`], then
//! [`INLINE_CHROME_BITS`](crate::features::names::INLINE_CHROME_BITS) of the class-name groups) when the page keeps at least
//! [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words) words outside them, an article body they belong to. The pipeline runs
//! it for comment regions first, then for inline chrome, then for photo galleries
//! ([`GALLERY_GROUP_BIT`](crate::features::names::GALLERY_GROUP_BIT)): a slide show's captions are prose too, often longer than the
//! article they illustrate, and they are not its text (Readability's, L3S-GN1's and the chaos
//! set's gold leave them out); then for HTML's complementary landmark ([`ASIDE_LANDMARK_BIT`](crate::features::names::ASIDE_LANDMARK_BIT):
//! `<aside>`, `role=complementary`), which the page marks as beside its main content; last for
//! the page's own banner and content-info landmarks ([`PAGE_LANDMARK_BIT`](crate::features::names::PAGE_LANDMARK_BIT): a `<header>` or
//! `<footer>` outside any article, main or section, `role=banner`, `role=contentinfo`), sparing
//! the one that holds the page's title heading, which is the article's header; and after them
//! for lists of related links ([`RELATED_GROUP_BIT`](crate::features::names::RELATED_GROUP_BIT): named `related`, `recommend`, `trending`,
//! `popular`, `outbrain` or `taboola`), which point away from the article; and after those, on a
//! shop's product page, for its customer reviews ([`REVIEW_GROUP_BIT`](crate::features::names::REVIEW_GROUP_BIT)), its buyers' comments.
//!
//! A forum thread whose posts all sit in comment regions keeps them, as nothing outside is an
//! article. One whose opening post is outside them keeps its replies when they are marked up as
//! the opening post is ([`keep_replies`]): at least [`RuleOptions::min_reply_twins`](super::RuleOptions::min_reply_twins) elements in comment
//! regions share the tag and class, over three levels, of an element of the main content, so the
//! regions hold posts like the one the page is about, not comments under an article (a blog's
//! comments and its article are marked up apart). `--keep-comments` keeps every thread.

use super::context::{Context, Regions};
use crate::dom::Kind;
use crate::features::names::COMMENT_GROUP_BIT;
use rustc_hash::FxHashSet;

/// One pass of [`drop_regions`]: the group bits of its regions, the nodes (the page's title
/// heading, its main start) whose outermost region element it spares with its subtree, and
/// whether a region outweighing the rest of the page is spared too.
#[derive(Clone, Copy, Debug)]
pub struct Pass {
    /// The [`Regions`] group bits of the pass's regions.
    pub bits: u32,
    /// Nodes whose outermost region element, with its subtree, is spared.
    pub spared: [Option<usize>; 2],
    /// Spare an outermost region element whose kept words outnumber those outside every
    /// region: controls (a search box, an account menu) are small, so a region holding most of
    /// the page is its content under a control's name (`<section id=main class=min-search-…>`,
    /// `#search-page-wrapper`).
    pub spare_outweighing: bool,
}

impl Pass {
    /// A pass over the regions of `bits` that spares nothing.
    pub const fn new(bits: u32) -> Self {
        Pass {
            bits,
            spared: [None; 2],
            spare_outweighing: false,
        }
    }
}

/// Clears `keep` on the text nodes inside the regions of each pass in turn (the nodes whose
/// [`Regions`] group bits have one of the pass's bits, less what the pass spares) when the
/// visible text nodes kept outside them hold at least
/// [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words) words; returns how
/// many kept visible text nodes it cleared. `keep` is per node (text nodes are read and
/// cleared, elements left alone).
///
/// # Complexity
/// O(n) per pass of a group the page has: one walk to count (plus one over the outermost
/// region elements when it spares those outweighing the rest), one to clear.
pub fn drop_regions(cx: &Context, passes: &[Pass], keep: &mut [bool]) -> usize {
    let (dom, opts) = (cx.dom, cx.opts);
    let n = dom.len();
    let Regions { groups, present } = &cx.regions;
    let mut cleared = 0;
    let mut spare: Vec<std::ops::Range<usize>> = Vec::new();
    for pass in passes {
        let bits = pass.bits;
        if present & bits == 0 {
            continue;
        }
        let outermost = |mut r: usize| {
            while let Some(p) = dom.parent(r).filter(|&p| groups[p] & bits != 0) {
                r = p;
            }
            r..dom.node(r).end as usize
        };
        spare.clear();
        spare.extend(
            pass.spared
                .iter()
                .flatten()
                .filter(|&&h| groups[h] & bits != 0)
                .map(|&h| outermost(h)),
        );
        let region = |i: usize, spare: &[std::ops::Range<usize>]| {
            groups[i] & bits != 0 && !spare.iter().any(|s| s.contains(&i))
        };
        let outside = cx.kept_words(keep, (0..n).filter(|&i| !region(i, &spare)));
        if outside < opts.min_article_words as u64 {
            continue;
        }
        if pass.spare_outweighing {
            let mut i = 0;
            while i < n {
                if !region(i, &spare) {
                    i += 1;
                    continue;
                }
                let end = dom.node(i).end as usize;
                if cx.kept_words(keep, i..end) > outside {
                    spare.push(i..end);
                }
                i = end;
            }
        }
        cleared += cx.clear_text(keep, (0..n).filter(|&i| region(i, &spare)));
    }
    cleared
}

/// The twins of `posts` (markup keys) in document order: visible elements with no kept words
/// (`words`) that do not hold `main`, each with its subtree skipped; with `in_comments`, only
/// the elements of comment regions are tried. O(n).
fn twins_of(
    cx: &Context,
    words: &[u32],
    posts: &FxHashSet<u64>,
    main: usize,
    in_comments: bool,
) -> Vec<usize> {
    let (dom, visible, groups) = (cx.dom, cx.visible, &cx.regions.groups);
    let mut twins = Vec::new();
    let mut i = 0;
    while i < dom.len() {
        let node = dom.node(i);
        let tried = node.kind == Kind::Element
            && visible[i]
            && words[i] == 0
            && !(i <= main && main < node.end as usize)
            && (!in_comments || groups[i] & COMMENT_GROUP_BIT != 0);
        if tried && posts.contains(&cx.keys[i]) {
            twins.push(i);
            i = node.end as usize;
        } else {
            i += 1;
        }
    }
    twins
}

/// Forum replies marked up as the opening post: un-drops them and says whether the page is such
/// a thread (the caller then skips the comment pass). The opening post's elements are those
/// inside `main` (the tree filter's main node, not itself), visible, outside comment regions,
/// with a class and at least [`RuleOptions::min_post_words`](super::RuleOptions::min_post_words) kept words; their twins are the visible elements
/// with none, not holding `main`, whose markup key (the tag and class of the element, its parent
/// and its grandparent) equals one of theirs. When at least [`RuleOptions::min_reply_twins`](super::RuleOptions::min_reply_twins) twins lie in
/// comment regions, the scored text (`scored`) of every twin is kept. `keep` as in
/// [`drop_regions`].
///
/// # Complexity
/// O(n): kept words summed bottom-up, then walks for twins that skip their subtrees, first
/// over the comment regions alone (a page with fewer than two there is no thread), then, on a
/// thread, over the page.
pub fn keep_replies(cx: &Context, main: usize, keep: &mut [bool]) -> bool {
    let (dom, visible, regions, opts) = (cx.dom, cx.visible, &cx.regions, cx.opts);
    if regions.present & COMMENT_GROUP_BIT == 0 {
        return false;
    }
    let groups = &regions.groups;
    let words = cx.kept_words_below(keep);
    let end = dom.node(main).end as usize;
    let posts: FxHashSet<u64> = (main + 1..end)
        .filter(|&d| {
            visible[d] && words[d] >= opts.min_post_words && groups[d] & COMMENT_GROUP_BIT == 0
        })
        .map(|d| cx.keys[d])
        .filter(|&k| k != 0)
        .collect();
    if posts.is_empty() {
        return false;
    }
    // A twin outside the regions may hold ones inside (which then do not count): the first walk
    // finds at least as many as the second counts, so it can only rule a thread out.
    if twins_of(cx, &words, &posts, main, true).len() < opts.min_reply_twins {
        return false;
    }
    let twins = twins_of(cx, &words, &posts, main, false);
    let replies = twins
        .iter()
        .filter(|&&t| groups[t] & COMMENT_GROUP_BIT != 0)
        .count();
    if replies < opts.min_reply_twins {
        return false;
    }
    for &t in &twins {
        cx.keep_text(keep, t..dom.node(t).end as usize);
    }
    true
}

/// Whether the kept text is the page's chrome alone: at least one kept word, fewer than
/// [`RuleOptions::min_article_words`](super::RuleOptions::min_article_words), every one inside a navigation, complementary, banner or content-info
/// landmark ([`CHROME_LANDMARK_BITS`](crate::features::names::CHROME_LANDMARK_BITS) of the [`Regions`]) or a skip link to the main content
/// ([`Context::skip_links`], WCAG's bypass blocks). A script-rendered shell serves its
/// footer, menus and skip link and nothing else; a page with its own short text, or whose article sits in
/// a landmark (an unclosed `<header>`), has words outside them or as many as an article.
/// `keep` as in [`drop_regions`].
///
/// # Complexity
/// O(n): one pass over the text nodes (a page has at most 4 skip links).
pub fn only_chrome(cx: &Context, keep: &[bool]) -> bool {
    let (dom, visible, counts, opts) = (cx.dom, cx.visible, cx.counts, cx.opts);
    let in_skip_link = |i: usize| {
        cx.skip_links
            .iter()
            .any(|&(a, e)| (a as usize..e as usize).contains(&i))
    };
    let mut words = 0u32;
    for i in 0..dom.len() {
        if dom.node(i).kind == Kind::Text && visible[i] && keep[i] && counts[i].words > 0 {
            if !cx.in_chrome(i) && !in_skip_link(i) {
                return false;
            }
            words += counts[i].words;
        }
    }
    words > 0 && words < opts.min_article_words
}
