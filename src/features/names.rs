//! Class-name groups: what a node's tag, landmark role, id and class say it is (navigation,
//! comments, ads, …), per node and inherited from its ancestors, with the landmark bits the
//! rules read.

use super::bylines;
use super::columns::f;
use super::vocabulary::GROUP_PREFIXES;
use crate::dom::{Dom, Kind, Tag};
use rustc_hash::FxHashMap;

/// Number of class-name groups (`cls_*` features).
pub(super) const CLS_GROUPS: usize = f::CLS_FORUM - f::CLS_NAV + 1;
/// The groups with an `in_*` feature, in `in_*` column order (indices into the groups).
pub(super) const INHERITED_GROUPS: [usize; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 16, 15];

/// The class-group bit of a `cls_*` column (`f::CLS_NAV` ..= `f::CLS_FORUM`).
pub const fn group_bit(cls_column: usize) -> u32 {
    1 << (cls_column - f::CLS_NAV)
}

/// The class-group bit of comment regions (`cls_comment`).
pub const COMMENT_GROUP_BIT: u32 = group_bit(f::CLS_COMMENT);

/// The class-group bit of forum posts as forum engines name them (`cls_forum`: `message`,
/// `postbody`, `avatar`, `signature`, …).
pub const FORUM_GROUP_BIT: u32 = group_bit(f::CLS_FORUM);

/// The class-group bits of inline chrome: share bars, screen-reader and skip text, search and
/// account controls (`cls_share`, `cls_hidden`, `cls_account`).
pub const INLINE_CHROME_BITS: u32 =
    group_bit(f::CLS_SHARE) | group_bit(f::CLS_HIDDEN) | group_bit(f::CLS_ACCOUNT);

/// Name groups: the `cls_*` columns' groups, then the narrower groups the rules read and the
/// `in_*` markup columns show: photo galleries, related links and reviews.
pub(super) const NAME_GROUPS: usize = CLS_GROUPS + 3;

/// The group bit of photo galleries and slide shows named `gallery` (decoding only: their
/// captions are not the article's text, see [`crate::rules`]).
pub const GALLERY_GROUP_BIT: u32 = 1 << CLS_GROUPS;

/// The group bit of related-link lists named `related`, `recommend`, `trending`, `popular`,
/// `outbrain` or `taboola` (decoding only: the lists under an article that point elsewhere;
/// `cls_related` also counts `more`, `teaser` and `promo`, which name a collapsed article's
/// rest or its lead on too many pages to leave out).
pub const RELATED_GROUP_BIT: u32 = 1 << (CLS_GROUPS + 1);

/// The group bit of reviews: ids and classes named `review` or `testimonial`, and schema.org
/// microdata `itemprop=review` (a product's customer reviews, which a page's own description
/// is not; the `in_review` column, for the model to weigh).
pub const REVIEW_GROUP_BIT: u32 = 1 << (CLS_GROUPS + 2);

/// The bit of HTML's complementary landmark, an `<aside>` or `role=complementary` element, by
/// its tag or role alone (decoding only, see [`crate::rules`]; `cls_sidebar` also counts
/// names such as `sidebar` and `widget`, which hold content on too many pages).
pub const ASIDE_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 3);

/// The bit of the page's own banner and content-info landmarks: a `<header>` or `<footer>`
/// outside every `<article>`, `<main>` and `<section>` (inside one it is that section's, as in
/// HTML's landmark mapping), or a `role=banner` or `role=contentinfo` element (decoding only, see
/// [`crate::rules`]).
pub const PAGE_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 4);

/// The bit of HTML's navigation landmark by tag or role alone: `<nav>`, `role=navigation`,
/// `role=menu`, `role=menubar` (decoding only: the page's chrome of the all-template fallback,
/// with the other two landmark bits).
pub(crate) const NAV_LANDMARK_BIT: u32 = 1 << (CLS_GROUPS + 5);

/// The page's chrome landmarks: navigation, asides, and the page's own header and footer.
pub const CHROME_LANDMARK_BITS: u32 = NAV_LANDMARK_BIT | ASIDE_LANDMARK_BIT | PAGE_LANDMARK_BIT;

/// Marks `<article>`, `<main>` and `<section>` and, inherited, their subtrees (for
/// [`PAGE_LANDMARK_BIT`]); no region.
pub(super) const SECTIONING_BIT: u32 = 1 << (CLS_GROUPS + 6);

/// The groups that the classes of `<html>`, `<body>` and the main landmark (`<main>`,
/// `role=main`) contribute: content, product and forum name the page's type there, not a
/// region.
pub(super) const PAGE_TYPE_GROUPS: u32 = (1 << 9) | (1 << 15) | (1 << 16);

/// What [`class_groups`] finds, per node and for the page.
pub(super) struct ClassGroups {
    /// Class-name group bits of the node's own tag, role, id and class.
    pub(super) own: Vec<u32>,
    /// The bits of the node and its ancestors.
    pub(super) inherited: Vec<u32>,
    /// Whether the node lies in a main/article landmark.
    pub(super) in_main: Vec<bool>,
    /// The first main landmark ([`PageFeatures::main_landmark`]).
    pub(super) main_landmark: Option<usize>,
    /// The page types the page declares ([`declared`] bits: schema.org types in microdata and
    /// JSON-LD, OpenGraph `og:type`).
    pub(super) declared: u8,
    /// Per node, its [`super::bylines`] marks for the metadata.
    pub(super) marks: Vec<u8>,
}

/// A page type declared by schema.org type or OpenGraph `og:type` ([`declared_types`]).
pub mod declared {
    /// An article: Article, NewsArticle, BlogPosting and their kin; `og:type` article.
    pub const ARTICLE: u8 = 1;
    /// A product: Product, ProductGroup, IndividualProduct; `og:type` product.
    pub const PRODUCT: u8 = 2;
    /// A discussion: DiscussionForumPosting (a forum thread), QAPage (a question and answers).
    pub const DISCUSSION: u8 = 4;
    /// A list of things: ItemList, CollectionPage, SearchResultsPage, OfferCatalog.
    pub const LIST: u8 = 8;
}

/// schema.org type names and the [`declared`] bit each sets.
const SCHEMA_TYPES: [(&str, u8); 19] = [
    ("Article", declared::ARTICLE),
    ("NewsArticle", declared::ARTICLE),
    ("BlogPosting", declared::ARTICLE),
    ("LiveBlogPosting", declared::ARTICLE),
    ("TechArticle", declared::ARTICLE),
    ("ScholarlyArticle", declared::ARTICLE),
    ("ReportageNewsArticle", declared::ARTICLE),
    ("OpinionNewsArticle", declared::ARTICLE),
    ("AnalysisNewsArticle", declared::ARTICLE),
    ("Product", declared::PRODUCT),
    ("ProductGroup", declared::PRODUCT),
    ("IndividualProduct", declared::PRODUCT),
    ("DiscussionForumPosting", declared::DISCUSSION),
    ("QAPage", declared::DISCUSSION),
    ("ItemList", declared::LIST),
    ("CollectionPage", declared::LIST),
    ("SearchResultsPage", declared::LIST),
    ("OfferCatalog", declared::LIST),
    ("ProductCollection", declared::LIST),
];

/// The [`declared`] bits of the schema.org types a type reference names: a microdata
/// `itemtype` value or a JSON-LD script's text, each name as a URL's last segment or a quoted
/// JSON string (`"@type": "NewsArticle"`, `https://schema.org/Product`). Any quoted occurrence
/// counts, as JSON-LD's types are its only quoted values of these spellings in practice.
/// O(length × names), each name found by a SIMD substring search.
pub fn declared_types(text: &str) -> u8 {
    use memchr::memmem;
    let b = text.as_bytes();
    let mut bits = 0;
    for (name, bit) in SCHEMA_TYPES {
        if bits & bit != 0 {
            continue;
        }
        let named = memmem::find_iter(b, name.as_bytes()).any(|at| {
            let before = at.checked_sub(1).map(|k| b[k]);
            let after = b.get(at + name.len()).copied();
            matches!(before, Some(b'/' | b'"'))
                && matches!(after, None | Some(b'"' | b' ' | b'\t' | b'\n'))
        });
        if named {
            bits |= bit;
        }
    }
    bits
}

/// The [`declared`] bit of an OpenGraph `og:type` value: `article`, or a product
/// (`product`, `og:product`, `product.item`, `product.group`); 0 for others (`website`, …).
fn og_type(value: &str) -> u8 {
    let v = value.trim().to_ascii_lowercase();
    let v = v.strip_prefix("og:").unwrap_or(&v);
    match v.split('.').next() {
        Some("article") => declared::ARTICLE,
        Some("product") => declared::PRODUCT,
        _ => 0,
    }
}

/// Per node: its class-name group bits (own tag, role, id and class; of the id and class of
/// `<html>`, `<body>` and the main landmark only [`PAGE_TYPE_GROUPS`]), the bits of it and its
/// ancestors, and whether it lies in a main/article landmark; and the page's first main
/// landmark. One top-down pass.
///
/// # Complexity
/// O(n + total length of the distinct id and class values).
pub(super) fn class_groups(dom: &Dom) -> ClassGroups {
    let n = dom.len();
    let mut own = vec![0u32; n];
    let mut inherited = vec![0u32; n];
    let mut in_main = vec![false; n];
    let mut main_landmark = None;
    let mut declared = 0u8;
    let mut marks = vec![0u8; n];
    // Short keys from one page: a fast hash (a page crafted to collide is bounded by the
    // page time limit, as any slow page is).
    // Each value's groups and, for a class, its byline and dateline kinds.
    let mut memo: FxHashMap<&str, (u32, u8)> = FxHashMap::default();
    for i in 1..n {
        let node = dom.node(i);
        let p = node.parent as usize;
        if node.kind != Kind::Element {
            inherited[i] = inherited[p];
            in_main[i] = in_main[p];
            continue;
        }
        let mut bits = 0u32;
        let mut main = matches!(node.tag, Tag::MAIN | Tag::ARTICLE);
        let mut main_role = false;
        // A header or footer inside an article, main or section is that section's own.
        let page_landmark = match inherited[p] & SECTIONING_BIT {
            0 => PAGE_LANDMARK_BIT,
            _ => 0,
        };
        match node.tag {
            Tag::NAV => bits |= (1 << 0) | NAV_LANDMARK_BIT,
            Tag::HEADER => bits |= (1 << 1) | page_landmark,
            Tag::FOOTER => bits |= (1 << 2) | page_landmark,
            Tag::ASIDE => bits |= (1 << 3) | ASIDE_LANDMARK_BIT,
            Tag::MAIN | Tag::ARTICLE => bits |= (1 << 9) | SECTIONING_BIT,
            Tag::SECTION => bits |= SECTIONING_BIT,
            _ => {}
        }
        // The groups its id and class name, masked once the role is known.
        let mut named = 0u32;
        for (k, v) in dom.attrs(i) {
            match k {
                "id" | "class" => {
                    // Class strings repeat across a page: match each distinct one once.
                    let (groups, kinds) = *memo.entry(v).or_insert_with(|| {
                        let (byline, date) = bylines::class_kinds(v, true, true);
                        let kinds = match byline {
                            true => bylines::BYLINE_CLASS,
                            false => 0,
                        } | match date {
                            true => bylines::DATE_CLASS,
                            false => 0,
                        };
                        (name_groups(v), kinds)
                    });
                    named |= groups;
                    if k == "class" {
                        marks[i] |= kinds;
                    }
                }
                "itemprop" => {
                    marks[i] |= bylines::ITEMPROP;
                    // schema.org microdata: a Review item of the page's product or work.
                    if v.split_ascii_whitespace().any(|t| {
                        t.eq_ignore_ascii_case("review") || t.eq_ignore_ascii_case("reviews")
                    }) {
                        bits |= REVIEW_GROUP_BIT;
                    }
                }
                "role" => {
                    let v = v.trim();
                    main_role = v.eq_ignore_ascii_case("main");
                    main |= main_role || v.eq_ignore_ascii_case("article");
                    bits |= landmark_role_bits(v);
                    bits |= name_groups(match v {
                        "navigation" | "menubar" | "menu" => "nav",
                        "banner" => "header",
                        "contentinfo" => "footer",
                        "complementary" => "aside",
                        "main" | "article" => "main",
                        "dialog" | "alertdialog" => "modal",
                        "search" => "search",
                        _ => "",
                    });
                }
                "itemtype" => declared |= declared_types(v),
                "type" if node.tag == Tag::SCRIPT => {
                    // JSON-LD: its text is the script's one child.
                    let ld = v.to_ascii_lowercase().contains("ld+json");
                    if ld && node.end as usize > i + 1 && dom.node(i + 1).kind == Kind::Text {
                        declared |= declared_types(dom.text(i + 1));
                    }
                }
                "property" if node.tag == Tag::META && v.eq_ignore_ascii_case("og:type") => {
                    declared |= dom.attr(i, "content").map_or(0, og_type);
                }
                _ => {}
            }
        }
        // Themes list page-wide settings on <html> and <body> (has-sidebar, header-fixed,
        // comment-placeholder), and the main landmark's names say what the page is (`<main
        // class="infinite gallery">` on a listicle): there only the page-type groups
        // (single-post, product, forum) are taken, as the others would mark the whole page
        // or its whole content as one region.
        let names_page = matches!(node.tag, Tag::HTML | Tag::BODY | Tag::MAIN) || main_role;
        let mask = if names_page {
            PAGE_TYPE_GROUPS
        } else {
            u32::MAX
        };
        bits |= named & mask;
        own[i] = bits;
        inherited[i] = inherited[p] | bits;
        in_main[i] = in_main[p] || main;
        if main_landmark.is_none() && (node.tag == Tag::MAIN || main_role) {
            main_landmark = Some(i);
        }
    }
    ClassGroups {
        own,
        inherited,
        in_main,
        main_landmark,
        declared,
        marks,
    }
}

/// The decoding-only landmark bit of a (trimmed) `role` value, any case.
pub(super) fn landmark_role_bits(role: &str) -> u32 {
    const ROLES: [(&str, u32); 6] = [
        ("navigation", NAV_LANDMARK_BIT),
        ("menu", NAV_LANDMARK_BIT),
        ("menubar", NAV_LANDMARK_BIT),
        ("complementary", ASIDE_LANDMARK_BIT),
        ("banner", PAGE_LANDMARK_BIT),
        ("contentinfo", PAGE_LANDMARK_BIT),
    ];
    ROLES
        .iter()
        .find(|(r, _)| role.eq_ignore_ascii_case(r))
        .map_or(0, |&(_, bit)| bit)
}

/// Whether element `i` marks where a comment section starts: an empty element (no children
/// but a blank text) whose `id`, or an `<a>` whose `name`, names comments, the jump target of a
/// "Comments" link (`<a name="comments"></a>`, `<span id="comments"></span>`). The comments
/// then follow it in its container, often unwrapped, as older CMSs print them. O(1) in the
/// subtree: at most one child is read.
pub fn comment_marker(dom: &Dom, i: usize) -> bool {
    let node = dom.node(i);
    let end = node.end as usize;
    let empty = node.kind == Kind::Element
        && end <= i + 2
        && (i + 1..end).all(|d| dom.node(d).kind == Kind::Text && dom.text(d).trim().is_empty());
    empty
        && dom.attrs(i).any(|(k, v)| {
            (k == "id" || k == "name" && node.tag == Tag::A)
                && name_groups(v) & COMMENT_GROUP_BIT != 0
        })
}

/// The group bits of an id or class value: split into lowercase alphanumeric tokens
/// (camelCase splits too) and match each against [`GROUP_PREFIXES`].
///
/// # Complexity
/// O(length of the value): tokens go through a stack buffer, and each token is compared
/// only with the prefixes sharing its first letter.
pub(super) fn name_groups(value: &str) -> u32 {
    /// Longest prefix in [`GROUP_PREFIXES`] is shorter than this; longer tokens keep their
    /// first bytes and their true length.
    const KEEP: usize = 24;
    let by_letter = prefixes_by_letter();
    let mut bits = 0u32;
    let mut buf = [0u8; KEEP];
    let mut len = 0usize;
    // The token before, for names split in two (`sr-only`, `visually-hidden`, `screen-reader`).
    let mut prev = [0u8; 8];
    let mut prev_len = 0usize;
    let mut flush = |buf: &[u8; KEEP], len: &mut usize| {
        if *len > 0 {
            let t = &buf[..(*len).min(KEEP)];
            let p = &prev[..prev_len];
            if matches!(
                (p, t),
                (b"sr", b"only") | (b"visually", b"hidden") | (b"screen", b"reader")
            ) {
                bits |= group_bit(f::CLS_HIDDEN);
            }
            // A longer token can start no pair.
            prev_len = if t.len() <= prev.len() { t.len() } else { 0 };
            prev[..prev_len].copy_from_slice(&t[..prev_len]);
            // Prefixes are a few bytes: an inline byte loop, not a call to `memcmp`.
            let starts = |p: &[u8]| t.len() >= p.len() && t.iter().zip(p).all(|(a, b)| a == b);
            // Every prefix has two bytes or more: a one-byte token matches none, and the
            // second byte rules most of a letter's prefixes out before any other test.
            let second = t.get(1).copied();
            for &(p, g) in &by_letter[(t[0] as usize) & 0x7f] {
                let p = p.as_bytes();
                if second != Some(p[1]) {
                    continue;
                }
                let hit = if p.len() <= 3 {
                    (*len == p.len() || *len == p.len() + 1 && t[p.len()] == b's') && starts(p)
                } else {
                    // `commented` and `commentary` describe an article, not its comments.
                    starts(p) && !(p == b"comment" && (t == b"commented" || t == b"commentary"))
                };
                if hit {
                    bits |= 1 << g;
                }
            }
            *len = 0;
        }
    };
    let mut prev_lower = false;
    for &b in value.as_bytes() {
        if b.is_ascii_alphanumeric() {
            if b.is_ascii_uppercase() && prev_lower {
                flush(&buf, &mut len);
            }
            prev_lower = b.is_ascii_lowercase();
            if len < KEEP {
                buf[len] = b.to_ascii_lowercase();
            }
            len += 1;
        } else {
            prev_lower = false;
            flush(&buf, &mut len);
        }
    }
    flush(&buf, &mut len);
    bits
}

/// [`GROUP_PREFIXES`] indexed by the prefix's first byte: (prefix, group).
pub(super) fn prefixes_by_letter() -> &'static [Vec<(&'static str, u8)>] {
    static TABLE: std::sync::OnceLock<Vec<Vec<(&'static str, u8)>>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = vec![Vec::new(); 128];
        for (g, prefixes) in GROUP_PREFIXES.iter().enumerate() {
            for p in prefixes.iter() {
                assert!(
                    p.len() >= 2,
                    "name_groups reads a prefix's second byte: {p}"
                );
                t[p.as_bytes()[0] as usize].push((*p, g as u8));
            }
        }
        t
    })
}

const _: () = assert!(GROUP_PREFIXES.len() == NAME_GROUPS);

#[cfg(test)]
mod name_tests {
    use super::*;

    #[test]
    fn byline_and_dateline_marks() {
        let html = r#"<body><p class="c-byline__author">A</p><p class="author-avatar">B</p>
            <p id="byline">C</p><p class="post-date x">D</p><p itemprop="name">E</p>
            <p class="post-date x">F</p></body>"#;
        let dom = crate::dom::parse(html, &crate::config::Limits::default()).unwrap();
        let marks = class_groups(&dom).marks;
        let of = |text: &str| {
            let t = (0..dom.len()).find(|&i| dom.text(i) == text).unwrap();
            marks[dom.parent(t).unwrap()]
        };
        assert_eq!(of("A"), bylines::BYLINE_CLASS);
        assert_eq!(of("B"), 0, "an avatar is no byline");
        assert_eq!(of("C"), 0, "an id is no class");
        assert_eq!(of("D"), bylines::DATE_CLASS);
        assert_eq!(of("E"), bylines::ITEMPROP);
        assert_eq!(
            of("F"),
            bylines::DATE_CLASS,
            "a repeated class, from the memo"
        );
    }

    #[test]
    fn class_names_by_hand() {
        let g = |v| name_groups(v);
        assert_eq!(g("site-footer"), 1 << 2);
        assert_eq!(g("mainNav"), (1 << 9) | 1);
        assert_eq!(g("ads"), 1 << 7);
        assert_eq!(g("address shadow"), 0);
        assert_eq!(g("CommentList"), 1 << 4);
        assert_eq!(g("commented commentary"), 0);
        assert_eq!(g("comments-area"), 1 << 4);
        assert_eq!(
            g("a-really-long-token-that-starts-with-sidebarxxxxxxxx sidebarLeft"),
            1 << 3
        );
        assert_eq!(g(""), 0);
        // Screen-reader names split in two: Bootstrap's and WordPress's.
        let hidden = group_bit(f::CLS_HIDDEN);
        assert_eq!(g("sr-only"), hidden);
        assert_eq!(g("visually-hidden-focusable"), hidden);
        assert_eq!(g("screen-reader-text"), hidden | 1 << 9);
        assert_eq!(g("srOnly"), hidden);
        assert_eq!(g("sr-x-only"), 0);
        assert_eq!(g("only-sr reader-screen"), 0);
        // Galleries: a decoding-only bit above every cls_* column's.
        assert_eq!(GALLERY_GROUP_BIT, 1 << CLS_GROUPS);
        assert_eq!(g("full-gallery photoGallery"), GALLERY_GROUP_BIT);
        assert_eq!(
            g("gallery-item card"),
            GALLERY_GROUP_BIT | group_bit(f::CLS_PRODUCT)
        );
        assert_eq!(g("galleon"), 0);
        // Related links: the next decoding-only bit, beside cls_related's.
        let related = group_bit(f::CLS_RELATED);
        assert_eq!(RELATED_GROUP_BIT, 1 << (CLS_GROUPS + 1));
        assert_eq!(g("related-links"), RELATED_GROUP_BIT | related);
        assert_eq!(g("mostPopular"), RELATED_GROUP_BIT | related);
        assert_eq!(g("OUTBRAIN"), RELATED_GROUP_BIT | group_bit(f::CLS_AD));
        assert_eq!(g("read-more-content"), related | (1 << 9));
        assert_eq!(g("relatedness"), RELATED_GROUP_BIT | related);
        // Reviews: the third of these bits; "preview" does not start with the prefix.
        assert_eq!(REVIEW_GROUP_BIT, 1 << (CLS_GROUPS + 2));
        assert_eq!(
            g("productReviews"),
            REVIEW_GROUP_BIT | group_bit(f::CLS_PRODUCT)
        );
        assert_eq!(g("customer-testimonials"), REVIEW_GROUP_BIT);
        assert_eq!(g("preview") & REVIEW_GROUP_BIT, 0);
    }

    #[test]
    fn the_main_landmark_names_the_page_not_a_region() {
        // A listicle's `<main class="infinite gallery">` is no photo gallery and a `role=main`
        // named sidebar is no sidebar: only the page-type groups are taken from them, as from
        // `<body>`; the same names on a `<div>` inside mark a region.
        let html = r#"<body class="sidebar-left"><main class="infinite gallery"><p>A</p>
            <div class=gallery><p>B</p></div></main>
            <div role=main class="sidebar product-page"><p>C</p></div></body>"#;
        let dom = crate::dom::parse(html, &crate::config::Limits::default()).unwrap();
        let inherited = class_groups(&dom).inherited;
        let of = |text: &str| {
            let t = (0..dom.len()).find(|&i| dom.text(i) == text).unwrap();
            inherited[dom.parent(t).unwrap()]
        };
        let sidebar = group_bit(f::CLS_SIDEBAR);
        assert_eq!(of("A") & (GALLERY_GROUP_BIT | sidebar), 0);
        assert_ne!(of("A") & (1 << 9), 0, "<main> is the content group");
        assert_ne!(of("B") & GALLERY_GROUP_BIT, 0);
        assert_eq!(of("C") & sidebar, 0);
        assert_ne!(of("C") & group_bit(f::CLS_PRODUCT), 0, "a page-type group");
    }

    fn declares_discussion(text: &str) -> bool {
        declared_types(text) & declared::DISCUSSION != 0
    }

    #[test]
    fn discussions_are_declared_by_schema_org_type() {
        assert!(declares_discussion(
            "https://schema.org/DiscussionForumPosting"
        ));
        assert!(declares_discussion("http://schema.org/QAPage"));
        assert!(declares_discussion(
            r#"{"@type": "QAPage", "mainEntity": {}}"#
        ));
        assert!(declares_discussion(
            r#"{"@graph":[{"@type":["WebPage"]},{"@type":"DiscussionForumPosting"}]}"#
        ));
        // Other types, and the names inside longer words, are not discussions.
        assert!(!declares_discussion(r#"{"@type": "NewsArticle"}"#));
        assert!(!declares_discussion("https://schema.org/QAPageView"));
        assert!(!declares_discussion(r#"{"name": "MyQAPage"}"#));
        assert!(!declares_discussion("QAPage"));
        assert!(!declares_discussion(""));
        // Every declared kind, in one JSON-LD graph; OpenGraph's own spellings.
        let graph =
            r#"[{"@type":"NewsArticle"},{"@type":["Product","Thing"]},{"@type":"ItemList"}]"#;
        let all = declared::ARTICLE | declared::PRODUCT | declared::LIST;
        assert_eq!(declared_types(graph), all);
        assert_eq!(
            declared_types("http://schema.org/BlogPosting"),
            declared::ARTICLE
        );
        assert_eq!(
            declared_types(r#"{"@type":"WebPage","name":"Products"}"#),
            0
        );
        assert_eq!(og_type(" Article "), declared::ARTICLE);
        assert_eq!(og_type("og:product"), declared::PRODUCT);
        assert_eq!(og_type("product.item"), declared::PRODUCT);
        assert_eq!(og_type("website"), 0);
    }
}
