//! What a page's markup says of its main content, read by the features and the rules alike:
//! where the main content starts by the page's own account (a WCAG skip link's target, else
//! HTML's `<main>`), and the markup key that finds a post's twins (a forum's replies marked up
//! as its opening post).

use crate::dom::{Dom, Kind, Tag};
use crate::features::vocabulary::SKIP_TEXTS;
use rustc_hash::FxHasher;
use std::hash::{Hash, Hasher};

/// Most words of a skip link's text.
const MAX_LINK_WORDS: usize = 8;

/// Skip links tried for a target: the first few; a page has one or two.
const MAX_SKIP_LINKS: usize = 4;

/// Whether `text` (a link's text) is a skip link's to the main content: lowercased, cut at the
/// first comma or bracket ("Skip to main content, accesskey 's'"), with trailing punctuation and
/// runs of spaces dropped, it is one of [`SKIP_TEXTS`]. O(length).
pub fn is_skip_text(text: &str) -> bool {
    let head = text.split([',', '(', '[', '|']).next().unwrap_or("");
    let words: Vec<String> = head
        .split_whitespace()
        .map(str::to_lowercase)
        .filter(|w| w.chars().any(char::is_alphanumeric))
        .collect();
    if words.is_empty() || words.len() > MAX_LINK_WORDS {
        return false;
    }
    let mut joined = words.join(" ");
    joined.truncate(
        joined
            .trim_end_matches(|c: char| !c.is_alphanumeric())
            .len(),
    );
    SKIP_TEXTS.contains(&joined.as_str())
}

/// The page's first few skip links to its main content (WCAG 2.4.1's bypass links): each
/// `<a href="#id">` whose text [`is_skip_text`], as (the link element, the end of its subtree,
/// the target `id`), the first 4 in document order.
///
/// # Complexity
/// O(n): one walk, each link's subtree read once for its text and then skipped.
pub fn skip_links(dom: &Dom) -> Vec<(usize, usize, &str)> {
    let n = dom.len();
    let mut links = Vec::new();
    let mut text = String::new();
    let mut i = 0;
    while i < n && links.len() < MAX_SKIP_LINKS {
        let node = dom.node(i);
        let id = (node.kind == Kind::Element && node.tag == Tag::A)
            .then(|| dom.attr(i, "href"))
            .flatten()
            .and_then(|h| h.trim().strip_prefix('#'))
            .filter(|id| !id.is_empty());
        let Some(id) = id else {
            i += 1;
            continue;
        };
        let end = node.end as usize;
        text.clear();
        for t in (i..end).filter(|&t| dom.node(t).kind == Kind::Text) {
            text.push_str(dom.text(t));
            text.push(' ');
        }
        if is_skip_text(&text) {
            links.push((i, end, id));
        }
        i = end;
    }
    links
}

/// Where the page's main content starts by its own account: the target of its first skip link
/// `links` to the main content ([`skip_links`]; the first element with that `id` after the
/// link), else `main_landmark`, its first `<main>` or `role=main` element
/// ([`crate::features::PageFeatures::main_landmark`]). `None` when it has neither.
///
/// # Complexity
/// O(n): after the first skip link, one walk for the ids.
pub fn main_start(
    dom: &Dom,
    links: &[(usize, usize, &str)],
    main_landmark: Option<usize>,
) -> Option<usize> {
    let n = dom.len();
    let Some(&(_, first, _)) = links.first() else {
        return main_landmark;
    };
    let mut target: Option<(usize, usize)> = None; // (link rank, element)
    for t in first..n {
        if dom.node(t).kind != Kind::Element {
            continue;
        }
        let Some(id) = dom.attr(t, "id") else {
            continue;
        };
        let rank = links
            .iter()
            .position(|&(_, after, want)| t >= after && want == id);
        if let Some(r) = rank.filter(|&r| target.is_none_or(|(best, _)| r < best)) {
            target = Some((r, t));
            if r == 0 {
                break;
            }
        }
    }
    target.map(|(_, t)| t).or(main_landmark)
}

/// The nodes of the main content that main start `start` ([`main_start`]) points to: its own
/// subtree; but when it holds no text, an empty marker (`<div id="start-of-content"></div>`
/// before `<main>`, Drupal's `<a id="main-content"></a>` as `<main>`'s first child), the subtree
/// of the main landmark `main_landmark` that follows it or that it opens (no text before it in
/// `<main>`), the content it marks.
///
/// # Complexity
/// O(subtree of `start` + the nodes of `<main>` before it).
pub fn main_extent(
    dom: &Dom,
    start: usize,
    main_landmark: Option<usize>,
) -> std::ops::Range<usize> {
    let blank = |r: std::ops::Range<usize>| {
        r.into_iter()
            .all(|i| dom.node(i).kind != Kind::Text || dom.text(i).trim().is_empty())
    };
    let end = dom.node(start).end as usize;
    match main_landmark {
        Some(m)
            if blank(start + 1..end)
                && (m > start || dom.node(m).end as usize > start && blank(m..start)) =>
        {
            m..dom.node(m).end as usize
        }
        _ => start..end,
    }
}

/// The markup key of every node: a hash of the tag and trimmed `class` of the element, its
/// parent and its grandparent; 0 for other nodes and for elements with no class, which name
/// nothing. The rules and the stack read these, computed once per page
/// ([`crate::features::PageFeatures::keys`]).
///
/// # Complexity
/// O(n + attributes): one top-down pass, each element's class read once.
pub fn markup_keys(dom: &Dom) -> Vec<u64> {
    let n = dom.len();
    // Per parent (the document and elements), the hash of its own tag and class; the
    // document's is that of no tag and no class.
    let mut own = vec![0u64; n];
    let mut keys = vec![0u64; n];
    for i in 0..n {
        let node = dom.node(i);
        if node.kind != Kind::Element && i != 0 {
            continue;
        }
        let class = dom.attr(i, "class").unwrap_or("").trim();
        let mut h = FxHasher::default();
        (node.tag.0, class).hash(&mut h);
        own[i] = h.finish();
        if node.kind != Kind::Element || class.is_empty() {
            continue;
        }
        // Parents precede their children, so theirs are done; the document has no parent.
        let p = node.parent as usize;
        let g = dom.parent(p);
        let mut h = FxHasher::default();
        (own[i], own[p], g.map(|g| own[g])).hash(&mut h);
        keys[i] = h.finish() | 1;
    }
    keys
}

/// Words a main-region element holds at least to be a post whose markup twins are counted
/// (the `forum-replies` rule's default `min_post_words`).
pub const MIN_POST_WORDS: u32 = 20;

/// The markup signals of one page that the feature columns read: its main start, the twins of
/// its main region's posts, and the words of later copies of repeated passages.
pub(super) struct Signals {
    /// The page's main start ([`main_start`]).
    pub main_start: Option<usize>,
    /// The page's skip links ([`skip_links`]) as node ranges: each link element and its subtree.
    pub skip_links: Vec<(u32, u32)>,
    /// Per node, whether it lies in a twin of a post of the main region ([`twins`]).
    pub twin: Vec<bool>,
    /// The twins on the page, each counted once.
    pub twins: u32,
    /// Per node, the visible words of its subtree in later copies of repeated passages.
    pub repeat_words: Vec<u32>,
}

impl Signals {
    /// The signals of a page; `main` is its main region (see the `in_main_region` column).
    ///
    /// # Complexity
    /// O(n): [`main_start`], [`twins`], [`super::repeats::drop_repeats`] over every visible
    /// text node, and one bottom-up pass.
    pub fn new(
        dom: &Dom,
        visible: &[bool],
        counts: &[super::counts::Counts],
        blocks: &super::blocks::Blocks,
        keys: &[u64],
        main: Option<usize>,
        main_landmark: Option<usize>,
    ) -> Signals {
        let n = dom.len();
        let (twin, twins) = twins(dom, visible, counts, keys, main);
        let mut keep = vec![true; n];
        super::repeats::drop_repeats(
            dom,
            visible,
            blocks,
            super::repeats::MIN_REPEAT_WORDS,
            &mut keep,
        );
        let mut repeat_words = vec![0u32; n];
        for i in (1..n).rev() {
            if !keep[i] && visible[i] && dom.node(i).kind == Kind::Text {
                repeat_words[i] += counts[i].words;
            }
            repeat_words[dom.node(i).parent as usize] += repeat_words[i];
        }
        let links = skip_links(dom);
        Signals {
            main_start: main_start(dom, &links, main_landmark),
            skip_links: links
                .iter()
                .map(|&(a, end, _)| (a as u32, end as u32))
                .collect(),
            twin,
            twins,
            repeat_words,
        }
    }

    /// Node `i`'s relation to the main start: 1 inside it, 2 a proper ancestor, 3 before it in
    /// document order, 4 after it; 0 on a page without one. O(1).
    pub fn main_start_relation(&self, dom: &Dom, i: usize) -> f32 {
        let Some(s) = self.main_start else {
            return 0.0;
        };
        let (s_end, i_end) = (dom.node(s).end as usize, dom.node(i).end as usize);
        if s <= i && i < s_end {
            1.0
        } else if i < s && s < i_end {
            2.0
        } else if i_end <= s {
            3.0
        } else {
            4.0
        }
    }
}

/// The markup twins of the posts of the main region `main`: the posts are the region and its
/// visible descendant elements with at least [`MIN_POST_WORDS`] words; a twin is a visible element
/// outside the region and not holding it whose markup key ([`markup_keys`]) is a post's (a
/// forum's replies beside its opening post, a listing's items beside the first). Returns per node whether it
/// lies in a twin, and the number of twins (a twin's subtree is not searched again).
///
/// # Complexity
/// O(n).
fn twins(
    dom: &Dom,
    visible: &[bool],
    counts: &[super::counts::Counts],
    keys: &[u64],
    main: Option<usize>,
) -> (Vec<bool>, u32) {
    let n = dom.len();
    let mut twin = vec![false; n];
    let Some(m) = main else {
        return (twin, 0);
    };
    let end = dom.node(m).end as usize;
    let posts: rustc_hash::FxHashSet<u64> = (m..end)
        .filter(|&d| visible[d] && counts[d].words >= MIN_POST_WORDS)
        .map(|d| keys[d])
        .filter(|&k| k != 0)
        .collect();
    if posts.is_empty() {
        return (twin, 0);
    }
    let mut found = 0;
    let mut i = 0;
    while i < n {
        if i == m {
            i = end;
            continue;
        }
        let i_end = dom.node(i).end as usize;
        let holds = i < m && m < i_end;
        if !holds && visible[i] && posts.contains(&keys[i]) {
            twin[i..i_end].fill(true);
            found += 1;
            i = i_end;
        } else {
            i += 1;
        }
    }
    (twin, found)
}
