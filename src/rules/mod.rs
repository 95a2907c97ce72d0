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
//! | 2 | `main-start` | the page's own main element (skip-link target, else `<main>`) is kept when the model kept almost nothing ([`bypass::recover_main`]) |
//! | 3 | `comments` | comment threads under an article leave ([`comments::drop_regions`]) |
//! | 4 | `inline-chrome` | share bars, skip and screen-reader text, search and account controls leave |
//! | 5 | `galleries` | photo galleries' captions leave |
//! | 6 | `asides` | the complementary landmark (`<aside>`, `role=complementary`) leaves |
//! | 7 | `page-header-footer` | the page's own banner and content-info landmarks leave, but the one holding the title heading |
//! | 8 | `related-links` | lists of related links leave |
//! | 9 | `before-main` | what precedes the page's main start and its title heading leaves ([`bypass::drop_bypassed`]) |
//! | 10 | `only-chrome` | a page whose few kept words all lie in its chrome landmarks has no main content ([`comments::only_chrome`]) |
//! | 11 | `repeats` | the second copy of a repeated passage leaves ([`repeats::drop_repeats`]) |
//! | 12 | `lowest-fallback` | when nothing is kept, the least template-like text that is not chrome is |
//! | 13 | `blocks-fallback` | when that is nothing too, boilerpipe's content blocks are |
//!
//! Rules 3–8 each drop their regions only when the page keeps at least
//! [`RuleOptions::min_article_words`] words outside them: the regions then belong to an
//! article; otherwise they may be the page's content (a forum, a gallery page).
//!
//! # Complexity
//! Each rule is O(n) on a page of n nodes (see each function), so all are O(n).

pub mod bypass;
pub mod comments;
pub mod repeats;

use crate::dom::{Dom, Kind, Tag, NONE};
use crate::features::{
    PageFeatures, ASIDE_LANDMARK_BIT, CHROME_LANDMARK_BITS, COMMENT_GROUP_BIT, GALLERY_GROUP_BIT,
    INLINE_CHROME_BITS, PAGE_LANDMARK_BIT, RELATED_GROUP_BIT,
};
use crate::segment::Segmentation;
use comments::Regions;

/// One rule of [`Rule::ALL`], named as `--without-rule` takes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Rule {
    /// A forum thread's replies marked up as its opening post stay (runs with `comments`).
    ForumReplies,
    /// The page's own main element is kept when the model kept almost nothing.
    MainStart,
    /// Comment threads under an article leave.
    Comments,
    /// Share bars, skip and screen-reader text, search and account controls leave.
    InlineChrome,
    /// Photo galleries leave.
    Galleries,
    /// The complementary landmark (`<aside>`) leaves.
    Asides,
    /// The page's own header and footer leave (not the one holding the title).
    PageHeaderFooter,
    /// Lists of related links leave.
    RelatedLinks,
    /// What precedes the page's main start (and its title) leaves.
    BeforeMain,
    /// A page whose few kept words are all chrome has no main content.
    OnlyChrome,
    /// The second copy of a repeated passage leaves.
    Repeats,
    /// With nothing kept, the least template-like text that is not chrome is kept.
    LowestFallback,
    /// With still nothing, boilerpipe's content blocks are kept.
    BlocksFallback,
}

impl Rule {
    /// Every rule, in the order the rules run.
    pub const ALL: [Rule; 13] = [
        Rule::ForumReplies,
        Rule::MainStart,
        Rule::Comments,
        Rule::InlineChrome,
        Rule::Galleries,
        Rule::Asides,
        Rule::PageHeaderFooter,
        Rule::RelatedLinks,
        Rule::BeforeMain,
        Rule::OnlyChrome,
        Rule::Repeats,
        Rule::LowestFallback,
        Rule::BlocksFallback,
    ];

    /// The rule's name (`--without-rule NAME`, Python's `without_rules=`).
    pub fn name(self) -> &'static str {
        match self {
            Rule::ForumReplies => "forum-replies",
            Rule::MainStart => "main-start",
            Rule::Comments => "comments",
            Rule::InlineChrome => "inline-chrome",
            Rule::Galleries => "galleries",
            Rule::Asides => "asides",
            Rule::PageHeaderFooter => "page-header-footer",
            Rule::RelatedLinks => "related-links",
            Rule::BeforeMain => "before-main",
            Rule::OnlyChrome => "only-chrome",
            Rule::Repeats => "repeats",
            Rule::LowestFallback => "lowest-fallback",
            Rule::BlocksFallback => "blocks-fallback",
        }
    }

    /// What the rule does, in one line.
    pub fn description(self) -> &'static str {
        match self {
            Rule::ForumReplies => {
                "a forum thread's replies marked up as its opening post stay (runs with comments)"
            }
            Rule::MainStart => {
                "the page's own main element (skip-link target, else <main>) is kept when the model kept almost nothing"
            }
            Rule::Comments => "comment threads under an article leave",
            Rule::InlineChrome => {
                "share bars, skip and screen-reader text, search and account controls leave"
            }
            Rule::Galleries => "photo galleries' captions leave",
            Rule::Asides => "the complementary landmark (<aside>, role=complementary) leaves",
            Rule::PageHeaderFooter => {
                "the page's own header and footer landmarks leave, but the one holding the title"
            }
            Rule::RelatedLinks => "lists of related links leave",
            Rule::BeforeMain => "what precedes the page's main start and its title heading leaves",
            Rule::OnlyChrome => {
                "a page whose few kept words all lie in its chrome landmarks has no main content"
            }
            Rule::Repeats => "the second copy of a repeated passage leaves",
            Rule::LowestFallback => {
                "when nothing is kept, the least template-like text that is not chrome is kept"
            }
            Rule::BlocksFallback => "when that is nothing too, boilerpipe's content blocks are kept",
        }
    }

    /// The rule named `name`, if any.
    pub fn from_name(name: &str) -> Option<Rule> {
        Rule::ALL.into_iter().find(|r| r.name() == name)
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

impl std::fmt::Display for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Which rules run: a set of [`Rule`]s, all of them by default.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct RuleSet(u16);

impl RuleSet {
    /// Every rule.
    pub const ALL: RuleSet = RuleSet((1 << Rule::ALL.len()) - 1);
    /// No rule: the model's keep-mask alone.
    pub const NONE: RuleSet = RuleSet(0);

    /// Whether `rule` runs.
    pub fn contains(self, rule: Rule) -> bool {
        self.0 & rule.bit() != 0
    }

    /// This set without `rule`.
    #[must_use]
    pub fn without(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 & !rule.bit())
    }

    /// This set with `rule`.
    #[must_use]
    pub fn with(self, rule: Rule) -> RuleSet {
        RuleSet(self.0 | rule.bit())
    }

    /// The rules in the set, in the order they run.
    pub fn iter(self) -> impl Iterator<Item = Rule> {
        Rule::ALL.into_iter().filter(move |&r| self.contains(r))
    }
}

impl Default for RuleSet {
    fn default() -> Self {
        RuleSet::ALL
    }
}

/// The rules' limits, each with its default (`RuleOptions::default()`).
#[derive(Debug, Clone, PartialEq)]
pub struct RuleOptions {
    /// `comments` … `related-links`, `only-chrome`: kept words outside a region that make the
    /// page an article the region belongs to (default 100).
    pub min_article_words: u32,
    /// `forum-replies`: elements in comment regions marked up as the opening post that make
    /// them a thread's replies (default 2).
    pub min_reply_twins: usize,
    /// `forum-replies`: kept words of a main-content element whose markup a reply may share, a
    /// post rather than a label (default 20).
    pub min_post_words: u32,
    /// `before-main`: kept words from the main start on that make the page's own account
    /// trusted; with fewer (an empty `<main>` filled by script) nothing is dropped (default 20).
    pub min_main_words: u32,
    /// `main-start`: kept words on the page under which the model is taken to have lost the
    /// main content, fewer than two short paragraphs (default 200).
    pub recover_below_page_words: u32,
    /// `main-start`: share of the main element's words, as a fraction, under which the model is
    /// taken to have lost that element (default 1/5).
    pub recover_below_share: (u32, u32),
    /// `repeats`: kept words a repeated passage has at least (default 10).
    pub min_repeat_words: u32,
}

impl Default for RuleOptions {
    fn default() -> Self {
        RuleOptions {
            min_article_words: 100,
            min_reply_twins: 2,
            min_post_words: 20,
            min_main_words: 20,
            recover_below_page_words: 200,
            recover_below_share: (1, 5),
            min_repeat_words: 10,
        }
    }
}

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
    let regions = Regions::new(dom, &f.groups_in);
    let y = &seg.y;
    let scored = |i: usize| !y[i].is_nan();
    let thread = on(Rule::Comments)
        && on(Rule::ForumReplies)
        && seg.main.is_some_and(|main| {
            comments::keep_replies(
                dom, &f.visible, &f.counts, &regions, scored, main, opts, &mut mask,
            )
        });
    // The start of the main content by the page's own account: its element stands in for a
    // model that kept almost nothing; what precedes it is chrome.
    let start = bypass::main_start(dom, f.main_landmark);
    if let Some(start) = start.filter(|_| on(Rule::MainStart)) {
        bypass::recover_main(dom, &f.visible, &f.counts, scored, start, opts, &mut mask);
    }
    let passes: Vec<(u32, Option<usize>)> = [
        (Rule::Comments, COMMENT_GROUP_BIT, None),
        (Rule::InlineChrome, INLINE_CHROME_BITS, None),
        (Rule::Galleries, GALLERY_GROUP_BIT, None),
        (Rule::Asides, ASIDE_LANDMARK_BIT, None),
        // A page-level header that holds the title heading is the article's own.
        (Rule::PageHeaderFooter, PAGE_LANDMARK_BIT, f.title_heading),
        (Rule::RelatedLinks, RELATED_GROUP_BIT, None),
    ]
    .into_iter()
    .filter(|&(r, _, _)| on(r) && !(r == Rule::Comments && thread))
    .map(|(_, bits, spared)| (bits, spared))
    .collect();
    comments::drop_regions(
        dom, &f.visible, &f.counts, &regions, &passes, opts, &mut mask,
    );
    if let Some(start) = start.filter(|_| on(Rule::BeforeMain)) {
        bypass::drop_bypassed(
            dom,
            &f.visible,
            &f.counts,
            start,
            f.title_heading,
            opts,
            &mut mask,
        );
    }
    // A script shell's few kept words are its chrome's: it has no main content.
    if on(Rule::OnlyChrome)
        && comments::only_chrome(dom, &f.visible, &f.counts, &regions, opts, &mask)
    {
        return vec![false; dom.len()];
    }
    let keep = kept(dom, f, rules, opts, |i| mask[i]);
    if has_kept_words(dom, &f.visible, &keep)
        || !on(Rule::LowestFallback) && !on(Rule::BlocksFallback)
    {
        return keep;
    }
    if on(Rule::LowestFallback) {
        let lowest = (0..dom.len())
            .filter(|&i| {
                dom.node(i).kind == Kind::Text
                    && f.visible[i]
                    && !y[i].is_nan()
                    && f.counts[i].words > 0
            })
            .map(|i| y[i])
            .fold(f32::INFINITY, f32::min);
        if lowest.is_finite() {
            // Chrome is never the main content: a page of only chrome has none (JS shells).
            let chrome = page_chrome(dom, &f.groups_in);
            return kept(dom, f, rules, opts, |i| y[i] <= lowest && !chrome[i]);
        }
    }
    if !on(Rule::BlocksFallback) {
        return keep;
    }
    kept(dom, f, rules, opts, |i| {
        let b = f.blocks.block_of[i];
        b != NONE && f.block_content[b as usize]
    })
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
        repeats::drop_repeats(dom, &f.visible, &f.blocks, opts.min_repeat_words, &mut keep);
    }
    keep
}

/// Whether the text [`crate::extract::render_text`] writes for `keep` has a word: a kept text
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

/// Per node, whether it lies in the page's chrome: inside a link, or inside a navigation,
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
            || node.kind == Kind::Element && node.tag == Tag::A && dom.attr(i, "href").is_some();
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
