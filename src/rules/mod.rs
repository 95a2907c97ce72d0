//! The rules after the model: what HTML's markup conventions say about the main content, read
//! once per page over the model's keep-mask.
//!
//! The model (classifier and smoothing, [`crate::segment`]) decides per node whether it is
//! template. The rules then read what the page itself says: its landmarks (`<aside>`, a page's
//! own `<header>` and `<footer>`), the class names of comment threads, galleries and related
//! links, its skip link to the main content (WCAG's bypass blocks), and its repeated passages.
//! Each is a named pass over one keep-mask, run in the order of [`Rule::ALL`]; each can be
//! switched off ([`RuleSet`], `--without-rule NAME`), and its limits are in [`RuleOptions`].
//!
//! | order | rule | what it does |
//! |---|---|---|
//! | 1 | `forum-replies` | a forum thread's replies marked up as its opening post are kept, and the thread is spared the `comments` pass ([`comments::keep_replies`]); runs only with `comments` |
//! | 2 | `declared-discussion` | a page that declares itself a discussion by schema.org type (`DiscussionForumPosting`, a forum thread; `QAPage`, a question with its answers; microdata or JSON-LD) keeps its comment regions: its comments are its content ([`crate::features::PageFeatures::declares_discussion`]); runs only with `comments` |
//! | 3 | `thread-url` | a page whose URL names a forum thread by its engine's path convention (a `threads`, `t`, `topic`, `questions` or `comments` segment before one holding an id; `showthread`, `viewtopic`, `showtopic` scripts: [`crate::url::names_thread`]) keeps its comment regions, as `declared-discussion` does; runs only with `comments` |
//! | 4 | `thread-posts` | on a page that declares itself a discussion or whose URL names a thread (as for rules 2 and 3), or whose posts are named as forum engines name them (every item in a region of the `cls_forum` group: `message`, `postbody`, …), when the model kept less than half of the words of the page's largest group of markup twins and that group holds at least half of the page's words outside links, every item of the group (each post) is kept ([`twins::keep_posts`]); posts restored by their names make the page a thread, whose comment regions `comments` then spares |
//! | 5 | `main-start` | the page's own main element (skip-link target, else `<main>`; the `<main>` that an empty target, a marker such as `<a id="main-content"></a>`, precedes or opens: [`crate::features::markup::main_extent`]), on a page without one its main region by boilerpipe's content blocks ([`crate::features::PageFeatures::main_region`], when less than the whole `<body>` and outside the chrome landmarks), is kept when the model kept almost nothing outside the chrome landmarks ([`bypass::recover_main`]) |
//! | 6 | `listing` | on a page that does not declare a product (schema.org), of which the model kept, outside the chrome landmarks, fewer than 200 words and no paragraph (no kept text of more than 20 words outside links), the largest group of markup twins outside the chrome landmarks (items of 5 words or more on average) is kept when it holds a third of the page's words and the model kept less than half of it: a listing's teasers and cards look like template to every feature ([`twins::keep_listing`]) |
//! | 7 | `twin-items` | the few dropped items of a list or grid whose markup twins were mostly kept are kept ([`twins::keep_twins`]) |
//! | 8 | `item-headings` | the headings (`h1`–`h6`) of the kept items of such a mostly kept group are kept: an item is one unit with its heading ([`twins::keep_item_headings`]) |
//! | 9 | `item-labels` | the controls of a list's items leave: a link's or button's text of at most 4 words, holding a letter, that recurs (case aside) in at least half of a group's markup twins and in 3 ("Reply", "Report", "Add to favorites"), as one template writes it into every item ([`twins::drop_item_labels`]) |
//! | 10 | `flow-lists` | on a page with a main start of its own (a skip link's target, else `<main>`, as for rule 5; not the content blocks' region), a list (`<ul>`, `<ol>`, `<dl>`) or table in the main element that the model mostly dropped, of at least 15 words, with at least 20 kept words of the main element before it and 20 after it (a `<dl>` whose descriptions are mostly sentences needs none after it: a reference's members end its text), is kept: the main content's text runs through it (a recipe's ingredients, a reference's entries, a table of figures); one in a chrome landmark, a comment or related region, or a list of headlines (two thirds of its items wholly a link of 4 or more words: other stories) is left ([`bypass::keep_flow_lists`]) |
//! | 11 | `comments` | comment threads under an article leave: regions named as comments, and what follows a comment section's empty jump target in its container (`<a name="comments"></a>`) ([`comments::drop_regions`]) |
//! | 12 | `inline-chrome` | share bars, skip and screen-reader text, search and account controls leave; a region holding the title heading or the main start, or more kept words than the rest of the page, is content under a control's name (`#search-page-wrapper`) and stays |
//! | 13 | `galleries` | photo galleries' captions leave |
//! | 14 | `asides` | the complementary landmark (`<aside>`, `role=complementary`) leaves |
//! | 15 | `page-header-footer` | the page's own banner and content-info landmarks leave, but the one holding the title heading |
//! | 16 | `related-links` | lists of related links leave |
//! | 17 | `reviews` | on a page that declares a product and no article by schema.org type or `og:type` (a shop's product page, [`crate::features::PageFeatures::declares_product`]), the customer reviews (`itemprop=review`, ids and classes named review or testimonial) leave |
//! | 18 | `link-lists` | on a page that declares an article by schema.org type or `og:type`, blocks of nearly all link text ("More from", "Latest", tag lists: at least 3 links, 15 words, 9/10 of them in links; no in-page link) leave when the article's prose (kept words outside them and outside links) outweighs them and holds 100 words ([`links::drop_link_lists`]) |
//! | 19 | `dated-teasers` | on a page that declares an article (as for rule 18) and no list (schema.org ItemList, CollectionPage, SearchResultsPage: a section front whose CMS writes `og:type` article) and is no thread, the items of every group of markup twins of which two thirds each hold a date (a `<time>` element, or the whole text of its element, at most nine words that are a date with its year, a dateline's time and zone included) and a link ("Latest News": other stories, each with its own date) leave when the article's other kept words outweigh them and hold 100 words; a group holding the title heading or the main start stays ([`twins::drop_dated_teasers`]) |
//! | 20 | `figure-captions` | the captions of figures (`<figcaption>`: HTML's self-contained content referred to from the main flow, a story's photo captions) leave when the page's other kept words outweigh them and hold 100 words ([`figures::drop_captions`]) |
//! | 21 | `before-main` | what precedes the page's main start and its title heading leaves ([`bypass::drop_bypassed`]) |
//! | 22 | `only-chrome` | a page whose few kept words all lie in its chrome landmarks or its skip links (WCAG bypass links) has no main content ([`comments::only_chrome`]) |
//! | 23 | `repeats` | the second copy of a repeated passage leaves ([`crate::features::repeats::drop_repeats`]) |
//! | 24 | `blocks-fallback` | when nothing is kept, boilerpipe's content blocks outside the chrome are |
//! | 25 | `lowest-fallback` | when that is nothing too, the least template-like text that is not chrome is |
//!
//! Rules 11–17 each drop their regions only when the page keeps at least
//! [`RuleOptions::min_article_words`] words outside them: the regions then belong to an
//! article; otherwise they may be the page's content (a forum, a gallery page).
//!
//! # Complexity
//! Each rule is O(n) on a page of n nodes (see each function), but `item-labels`, O(n · d) for d
//! the depth of a text node below its list item.

pub mod bypass;
pub mod comments;
pub mod context;
pub mod figures;
pub mod links;
pub mod options;
pub mod twins;

use crate::dom::{Dom, Kind, Tag, NONE};
use crate::features::names::{
    ASIDE_LANDMARK_BIT, CHROME_LANDMARK_BITS, COMMENT_GROUP_BIT, GALLERY_GROUP_BIT,
    INLINE_CHROME_BITS, PAGE_LANDMARK_BIT, RELATED_GROUP_BIT, REVIEW_GROUP_BIT,
};
use crate::features::PageFeatures;
use crate::segment::Segmentation;
use comments::Pass;
pub use context::{Context, Regions};
pub use options::{Rule, RuleOptions, RuleSet};

/// Per node, whether the model keeps its text: inside `<body>` (scored) and not template. O(n).
pub fn model_mask(seg: &Segmentation) -> Vec<bool> {
    seg.template
        .iter()
        .zip(&seg.y)
        .map(|(&t, y)| !t && !y.is_nan())
        .collect()
}

/// The rules of `rules`, in order, over the model's keep-mask: per node, whether it belongs to
/// the main content (elements are always kept, so that a kept text node's ancestors are).
///
/// # Complexity
/// O(n), see the module docs.
pub fn main_keep(
    dom: &Dom,
    f: &PageFeatures,
    seg: &Segmentation,
    rules: RuleSet,
    opts: &RuleOptions,
) -> Vec<bool> {
    let on = |r: Rule| rules.contains(r);
    let mut mask = model_mask(seg);
    let y = &seg.y;
    let cx = Context::new(dom, f, y, opts);
    let replies = on(Rule::Comments)
        && on(Rule::ForumReplies)
        && seg
            .main
            .is_some_and(|main| comments::keep_replies(&cx, main, &mut mask));
    // A declared discussion's comments are its content, however they are marked up.
    let mut thread = replies
        || on(Rule::Comments)
            && (on(Rule::DeclaredDiscussion) && f.declares_discussion
                || on(Rule::ThreadUrl) && f.thread_url);
    // The start of the main content by the page's own account: its element stands in for a
    // model that kept almost nothing; what precedes it is chrome.
    let start = (on(Rule::MainStart) || on(Rule::BeforeMain))
        .then_some(f.main_start)
        .flatten();
    if on(Rule::MainStart) {
        // Without a main start of the page's own, boilerpipe's main region stands in for it
        // (when it is less than the whole page, and not chrome, which is never the content).
        let not_content = |m: usize| {
            m == 0
                || matches!(dom.node(m).tag, Tag::HTML | Tag::BODY)
                || f.groups_in[m] & CHROME_LANDMARK_BITS != 0
        };
        let extent = match f.main_start {
            Some(_) => Some(f.main_extent.clone()),
            None => f
                .main_region
                .filter(|&m| !not_content(m))
                .map(|m| m..dom.node(m).end as usize),
        };
        if let Some(inside) = extent {
            bypass::recover_main(&cx, inside, &mut mask);
        }
    }
    let posts = on(Rule::ThreadPosts);
    // A product page's lists are other products (carousels), not its content.
    let listing = on(Rule::Listing) && !f.declares_product;
    // Only an article has other stories to point to; a listing's dated items are its content.
    // A page that declares itself a list (a section front) is no article, whatever its og:type.
    let teasers = on(Rule::DatedTeasers) && f.declares_article && !f.declares_list;
    let mut groups = None;
    if posts
        || listing
        || teasers
        || on(Rule::TwinItems)
        || on(Rule::ItemHeadings)
        || on(Rule::ItemLabels)
    {
        let groups: &twins::Groups = groups.insert(twins::Groups::new(&cx));
        if listing {
            twins::keep_listing(&cx, groups, &mut mask);
        }
        if posts {
            let named = f.declares_discussion || f.thread_url;
            let restored = twins::keep_posts(&cx, groups, named, &mut mask);
            // Posts restored by their forum engine's names make the page a thread: they may
            // sit in comment regions too (vBulletin's `DiscussionBoard-message`). Where the
            // model kept them, the comment regions are left to `comments`.
            thread |= !named && restored > 0;
        }
        if on(Rule::TwinItems) {
            twins::keep_twins(&cx, groups, &mut mask);
        }
        if on(Rule::ItemHeadings) {
            twins::keep_item_headings(&cx, groups, &mut mask);
        }
        if on(Rule::ItemLabels) {
            twins::drop_item_labels(&cx, groups, &mut mask);
        }
    }
    // A list or table between the main content's kept text is that text's, not the chrome.
    if on(Rule::FlowLists) && f.main_start.is_some() {
        bypass::keep_flow_lists(&cx, f.main_extent.clone(), &mut mask);
    }
    let passes: Vec<comments::Pass> = [
        (Rule::Comments, Pass::new(COMMENT_GROUP_BIT)),
        (
            Rule::InlineChrome,
            Pass {
                // A control never holds the title heading or the page's main start.
                spared: [f.title_heading, f.main_start],
                spare_outweighing: true,
                ..Pass::new(INLINE_CHROME_BITS)
            },
        ),
        (Rule::Galleries, Pass::new(GALLERY_GROUP_BIT)),
        (Rule::Asides, Pass::new(ASIDE_LANDMARK_BIT)),
        (
            Rule::PageHeaderFooter,
            // A page-level header that holds the title heading is the article's own.
            Pass {
                spared: [f.title_heading, None],
                ..Pass::new(PAGE_LANDMARK_BIT)
            },
        ),
        (Rule::RelatedLinks, Pass::new(RELATED_GROUP_BIT)),
        (Rule::Reviews, Pass::new(REVIEW_GROUP_BIT)),
    ]
    .into_iter()
    .filter(|&(r, _)| {
        on(r)
            && match r {
                Rule::Comments => !thread,
                // Reviews are a shop's buyers' comments; elsewhere the name marks editorial ones.
                Rule::Reviews => f.declares_product,
                _ => true,
            }
    })
    .map(|(_, pass)| pass)
    .collect();
    comments::drop_regions(&cx, &passes, &mut mask);
    // An article's content is prose: its lists of links point away from it.
    if on(Rule::LinkLists) && f.declares_article {
        links::drop_link_lists(&cx, f.title_heading, &mut mask);
    }
    // A thread's posts are dated twins too: they are its content.
    if let Some(groups) = groups.as_ref().filter(|_| teasers && !thread) {
        twins::drop_dated_teasers(&cx, groups, [f.title_heading, f.main_start], &mut mask);
    }
    // A figure is referred to from the main flow, not part of it: its caption is no text.
    if on(Rule::FigureCaptions) {
        figures::drop_captions(&cx, &mut mask);
    }
    if let Some(start) = start.filter(|_| on(Rule::BeforeMain)) {
        bypass::drop_bypassed(&cx, start, f.title_heading, &mut mask);
    }
    // A script shell's few kept words are its chrome's: it has no main content.
    if on(Rule::OnlyChrome) && comments::only_chrome(&cx, &mask) {
        return vec![false; dom.len()];
    }
    let keep = kept(dom, f, rules, opts, |i| mask[i]);
    if has_kept_words(dom, &f.visible, &keep)
        || !on(Rule::LowestFallback) && !on(Rule::BlocksFallback)
    {
        return keep;
    }
    // Chrome is never the main content: a page of only chrome has none (JS shells).
    let chrome = page_chrome(dom, &f.groups_in);
    // Content blocks first: a page the model wholly doubted (a forum thread) has its content
    // in many blocks, not in its one least doubted segment.
    if on(Rule::BlocksFallback) {
        let blocks = kept(dom, f, rules, opts, |i| {
            let b = f.blocks.block_of[i];
            b != NONE && f.block_content[b as usize] && !chrome[i]
        });
        if !on(Rule::LowestFallback) || has_kept_words(dom, &f.visible, &blocks) {
            return blocks;
        }
    }
    let lowest = (0..dom.len())
        .filter(|&i| {
            dom.node(i).kind == Kind::Text
                && f.visible[i]
                && !y[i].is_nan()
                && f.counts[i].words > 0
        })
        .map(|i| y[i])
        .fold(f32::INFINITY, f32::min);
    if !lowest.is_finite() {
        return keep;
    }
    kept(dom, f, rules, opts, |i| y[i] <= lowest && !chrome[i])
}

/// The keep flags of the text nodes for which `keep` holds, every element kept, less the second
/// copies of repeated passages unless `repeats` is off. O(n).
fn kept(
    dom: &Dom,
    f: &PageFeatures,
    rules: RuleSet,
    opts: &RuleOptions,
    keep: impl Fn(usize) -> bool,
) -> Vec<bool> {
    let mut keep: Vec<bool> = (0..dom.len())
        .map(|i| dom.node(i).kind != Kind::Text || keep(i))
        .collect();
    if rules.contains(Rule::Repeats) {
        crate::features::repeats::drop_repeats(
            dom,
            &f.visible,
            &f.blocks,
            opts.min_repeat_words,
            &mut keep,
        );
    }
    keep
}

/// Whether the text [`crate::output::text::render_text`] writes for `keep` has a word: a kept text
/// node with a word character whose ancestors are visible and kept. O(n).
fn has_kept_words(dom: &Dom, visible: &[bool], keep: &[bool]) -> bool {
    let mut i = 0;
    while i < dom.len() {
        let node = dom.node(i);
        if !visible[i] || !keep[i] {
            i = dom.subtree_end(i);
            continue;
        }
        if node.kind == Kind::Text && crate::text::has_words(dom.text(i)) {
            return true;
        }
        i += 1;
    }
    false
}

/// Per node, whether it lies in the page's chrome: inside a link (not a `javascript:` one, which
/// leads nowhere: [`crate::url::runs_script`]), or inside a navigation,
/// complementary, or the page's own banner or content-info landmark (`nav`, `aside`, a `header`
/// or `footer` outside every `article`, `main` and `section`, or the matching roles: the
/// landmark bits of `groups_in`, the class groups of a node and its ancestors). One top-down
/// pass, O(n).
fn page_chrome(dom: &Dom, groups_in: &[u32]) -> Vec<bool> {
    let n = dom.len();
    let mut chrome = vec![false; n];
    for i in 1..n {
        let node = dom.node(i);
        chrome[i] = chrome[node.parent as usize]
            || groups_in[i] & CHROME_LANDMARK_BITS != 0
            || node.kind == Kind::Element
                && node.tag == Tag::A
                && dom
                    .attr(i, "href")
                    .is_some_and(|h| !crate::url::runs_script(h));
    }
    chrome
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_sets_switch_rules() {
        for r in Rule::ALL {
            assert_eq!(Rule::from_name(r.name()), Some(r));
            assert!(RuleSet::ALL.contains(r));
            assert!(!RuleSet::ALL.without(r).contains(r));
            assert_eq!(RuleSet::ALL.without(r).iter().count(), Rule::ALL.len() - 1);
            assert_eq!(RuleSet::NONE.with(r).iter().collect::<Vec<_>>(), vec![r]);
        }
        assert_eq!(Rule::from_name("no-such-rule"), None);
        assert_eq!(RuleSet::default(), RuleSet::ALL);
    }
}
