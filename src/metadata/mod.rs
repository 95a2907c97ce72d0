//! A page's metadata: title, author, dates, language, description, site name, canonical URL,
//! image, categories, tags and page type, read from the markup that declares them.
//!
//! # Sources and their precedence
//! One forward pass over the arena ([`read`]) gathers every candidate; each field then takes
//! the first valid one in its order of sources, the order that measures best on wcxb-dev and
//! the readability set (`bench/metadata.py`, `docs/metadata.md`):
//!
//! | field | sources, first valid wins |
//! |---|---|
//! | `title` | JSON-LD `headline`/`name`, `og:title`, `twitter:title`/Dublin Core/`citation_title`, microdata `headline`, the page's title heading, `<title>`; every one with the site's name cut off ([`title::strip_site`]) |
//! | `author` | JSON-LD `author`/`creator` (strings, `Person` objects, `@id` references, arrays), `<meta name=author>`/Dublin Core/Parse.ly/Sailthru, `article:author`, microdata `author`, then the byline (`rel=author`, byline and author classes), the first after the title heading |
//! | `date` | a date in the URL, JSON-LD `datePublished`, `article:published_time`, `<meta name=date>`/Dublin Core/`citation_publication_date`/…, microdata `datePublished`, `<time datetime>` (or its text), a dateline (date classes, bylines), a short text right after the title heading, then `date_modified` |
//! | `date_modified` | JSON-LD `dateModified`, `article:modified_time`/`og:updated_time`, Dublin Core `modified`, microdata `dateModified` |
//! | `language` | `<html lang>`, `Content-Language`, JSON-LD `inLanguage`, `og:locale`, then detected from the main text (whatlang) |
//! | `description` | JSON-LD, `og:description`, `<meta name=description>`/Dublin Core, `twitter:description`, microdata |
//! | `site_name` | `og:site_name`, JSON-LD `WebSite`/`publisher`, `application-name` |
//! | `url` | `<link rel=canonical>`, `og:url`, JSON-LD `url`, else the page's URL |
//! | `image` | `og:image`, `twitter:image`, JSON-LD `image`, microdata `image` |
//!
//! An author must be a person ([`author::clean`]): not a role (`admin`), a URL, an e-mail
//! address or a date, nor, in a byline's text, the site's name (a publisher the page declares
//! as its author is kept: WCXB's annotators take it so). A date must be a real day from 1995
//! to tomorrow. Relative URLs are made absolute against the page's URL.
//!
//! # Complexity
//! [`read`] is one pass over the nodes, O(n), plus the JSON-LD scripts' size and, for each of a
//! bounded number of candidate elements, a bounded walk of its text; language detection reads at
//! most [`DETECT_BYTES`] of main text.

pub mod author;
/// Dates written in text and URLs (a helper every stage may use), here as the metadata reads them.
pub use crate::date;
pub mod front;
mod jsonld;
pub mod title;
pub mod vocabulary;

use serde::Serialize;

use crate::dom::{Dom, Kind, Tag};
use crate::features::bylines::{self, class_kinds, holds_any};
use crate::pipeline::Analysis;
use date::Date;

/// A page's metadata. Every field is absent (`None`, empty) when the page does not give it;
/// strings are trimmed, whitespace collapsed, never empty.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Metadata {
    /// The article's own headline, without the site's name that `<title>` appends.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Its author or authors (joined by `"; "`), people only.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub author: Option<String>,
    /// Publication day, ISO 8601 `YYYY-MM-DD`, as written on the page (no time-zone shift).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
    /// Last modification day, `YYYY-MM-DD`, where the page declares one.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date_modified: Option<String>,
    /// The page's language as a BCP 47 tag (`en`, `en-US`, `pt-BR`): declared, else detected.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub language: Option<String>,
    /// The page's summary as it declares it (`<meta name=description>` and the like).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub description: Option<String>,
    /// The site's or publication's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub site_name: Option<String>,
    /// The canonical URL (absolute), else the page's own.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub url: Option<String>,
    /// The page's representative image (absolute URL).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image: Option<String>,
    /// Sections the page is filed under (`article:section`, `articleSection`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub categories: Vec<String>,
    /// Its tags or keywords (`article:tag`, `keywords`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub tags: Vec<String>,
    /// The page type its schema.org or OpenGraph type declares, in WCXB's words (`article`,
    /// `product`, `forum`, `collection`, `listing`, `documentation`; [`vocabulary::PAGE_TYPES`]).
    #[serde(rename = "type", skip_serializing_if = "Option::is_none")]
    pub page_type: Option<String>,
}

/// What the pipeline already knows of a page, for [`read`].
#[derive(Debug, Clone, Copy, Default)]
pub struct Hints<'a> {
    /// The page's title heading ([`crate::features::PageFeatures::title_heading`]).
    pub headline: Option<usize>,
    /// Per node, whether it is visible: hidden bylines and times are not read.
    pub visible: Option<&'a [bool]>,
    /// Per node, its byline, dateline and `itemprop` marks
    /// ([`crate::features::PageFeatures::marks`]): read from the markup when absent.
    pub marks: Option<&'a [u8]>,
}

/// Most bytes of main text language detection reads.
pub const DETECT_BYTES: usize = 4096;

/// Most candidate elements (bylines, `<time>`s, microdata values) whose text is read.
const MAX_TEXT_READS: usize = 64;

/// Most bytes of one candidate element's text.
const MAX_TEXT_BYTES: usize = 400;

/// Most nodes of one candidate element walked for its text.
const MAX_TEXT_NODES: usize = 200;

/// Most bytes of JSON-LD read over a page: larger scripts are data, not metadata.
const MAX_JSONLD_BYTES: usize = 1 << 20;

/// Where a value was read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Source {
    JsonLd,
    OpenGraph,
    Meta,
    Microdata,
    Time,
    Page,
    Url,
    TitleTag,
}

const SOURCES: usize = 8;

/// The first value seen from each source.
#[derive(Debug, Default, Clone)]
struct Slots([Option<String>; SOURCES]);

impl Slots {
    fn offer(&mut self, s: Source, v: &str) {
        let slot = &mut self.0[s as usize];
        // Only a source's first value is kept: later ones are not cleaned.
        if slot.is_some() {
            return;
        }
        let v = unescape(v).split_whitespace().collect::<Vec<_>>().join(" ");
        if !v.is_empty() {
            *slot = Some(v);
        }
    }

    fn get(&self, s: Source) -> Option<&str> {
        self.0[s as usize].as_deref()
    }

    /// The values in the order of `sources`.
    fn ordered<'a>(&'a self, sources: &'a [Source]) -> impl Iterator<Item = &'a str> + 'a {
        sources.iter().filter_map(|&s| self.get(s))
    }
}

/// `s` with the HTML character references that JSON-LD and doubly escaped attributes carry
/// decoded (`&amp;`, `&quot;`, `&#39;`, `&#x2019;`, `&nbsp;`, dashes and quotes); others kept.
///
/// # Complexity
/// O(len).
pub fn unescape(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains('&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(k) = rest.find('&') {
        out.push_str(&rest[..k]);
        rest = &rest[k..];
        let end = date::cut(rest, 12).find(';');
        let decoded = end.and_then(|e| {
            let name = &rest[1..e];
            let c = match name {
                "amp" => '&',
                "lt" => '<',
                "gt" => '>',
                "quot" => '"',
                "apos" => '\'',
                "nbsp" => ' ',
                "ndash" => '–',
                "mdash" => '—',
                "hellip" => '…',
                "lsquo" => '‘',
                "rsquo" => '’',
                "ldquo" => '“',
                "rdquo" => '”',
                _ => {
                    let num = name.strip_prefix('#')?;
                    let code = match num.strip_prefix(['x', 'X']) {
                        Some(h) => u32::from_str_radix(h, 16).ok()?,
                        None => num.parse().ok()?,
                    };
                    char::from_u32(code)?
                }
            };
            Some((c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// Everything the pass gathers.
#[derive(Debug, Default)]
struct Found {
    title: Slots,
    author: Slots,
    date: Slots,
    modified: Slots,
    description: Slots,
    site_name: Slots,
    url: Slots,
    image: Slots,
    language: Slots,
    kind: Slots,
    categories: Vec<String>,
    tags: Vec<String>,
    keywords: Vec<String>,
    jsonld: Vec<String>,
    /// Byline texts and `<time>` values in document order, with their node.
    bylines: Vec<(usize, String)>,
    times: Vec<(usize, String)>,
    /// Texts of datelines (date classes, bylines with a date), with their node.
    dated: Vec<(usize, String)>,
}

const TITLE_ORDER: &[Source] = &[
    Source::JsonLd,
    Source::OpenGraph,
    Source::Meta,
    Source::Microdata,
    Source::Page,
    Source::TitleTag,
];
const AUTHOR_ORDER: &[Source] = &[
    Source::JsonLd,
    Source::Meta,
    Source::OpenGraph,
    Source::Microdata,
    Source::Page,
];
const DATE_ORDER: &[Source] = &[
    Source::Url,
    Source::JsonLd,
    Source::OpenGraph,
    Source::Meta,
    Source::Microdata,
    Source::Time,
    Source::Page,
];
const MODIFIED_ORDER: &[Source] = &[
    Source::JsonLd,
    Source::OpenGraph,
    Source::Meta,
    Source::Microdata,
];
const DESCRIPTION_ORDER: &[Source] = &[
    Source::JsonLd,
    Source::OpenGraph,
    Source::Meta,
    Source::Microdata,
];
const SITE_ORDER: &[Source] = &[Source::OpenGraph, Source::JsonLd, Source::Meta];
const URL_ORDER: &[Source] = &[Source::Page, Source::OpenGraph, Source::JsonLd, Source::Url];
const IMAGE_ORDER: &[Source] = &[
    Source::OpenGraph,
    Source::Meta,
    Source::JsonLd,
    Source::Microdata,
];
const LANGUAGE_ORDER: &[Source] = &[
    Source::Page,
    Source::Meta,
    Source::JsonLd,
    Source::OpenGraph,
];
const KIND_ORDER: &[Source] = &[Source::JsonLd, Source::OpenGraph];

/// The text of element `i`'s subtree (script and style skipped), whitespace collapsed, at most
/// [`MAX_TEXT_BYTES`] bytes from at most [`MAX_TEXT_NODES`] nodes; `None` when empty.
fn element_text(dom: &Dom, i: usize) -> Option<String> {
    subtree_text(dom, i, false)
}

/// [`element_text`] of a byline or an author item: descendants that give a job title or role
/// ([`is_role`]) skipped, as they name no one.
fn byline_text(dom: &Dom, i: usize) -> Option<String> {
    subtree_text(dom, i, true)
}

/// Whether element `k`'s `class` or `itemprop` marks a job title or role
/// ([`vocabulary::ROLE_CLASS_WORDS`]: `itemprop=jobTitle`, `class=author-role`).
fn is_role(dom: &Dom, k: usize) -> bool {
    dom.attrs(k).any(|(name, v)| {
        matches!(name, "class" | "itemprop")
            && v.split_ascii_whitespace()
                .any(|t| holds_any(t.as_bytes(), vocabulary::ROLE_CLASS_WORDS))
    })
}

/// [`element_text`], with role elements' subtrees skipped when `skip_roles`.
fn subtree_text(dom: &Dom, i: usize, skip_roles: bool) -> Option<String> {
    let end = dom.subtree_end(i).min(i + 1 + MAX_TEXT_NODES);
    let mut out = String::new();
    let mut k = i + 1;
    while k < end && out.len() < MAX_TEXT_BYTES {
        let node = dom.node(k);
        if node.kind == Kind::Element
            && (matches!(node.tag, Tag::SCRIPT | Tag::STYLE) || skip_roles && is_role(dom, k))
        {
            k = dom.subtree_end(k);
            continue;
        }
        if node.kind == Kind::Text {
            out.push_str(dom.text(k));
            out.push(' ');
        }
        // Block boundaries end a line, which cleaning reads as the end of a byline.
        if node.kind == Kind::Element && node.tag.is_block() {
            out.push('\n');
        }
        k += 1;
    }
    let out = date::cut(&out, MAX_TEXT_BYTES);
    let lines: Vec<String> = out
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>().join(" "))
        .filter(|l| !l.is_empty())
        .collect();
    (!lines.is_empty()).then(|| lines.join("\n"))
}

/// The last class attributes given to [`class_kinds`] and its answers: siblings repeat their
/// class (cards, list items, table rows), and comparing the bytes is cheaper than scanning them.
#[derive(Default)]
struct ClassCache<'a> {
    /// (class, asked byline, asked date, answer), filled round-robin.
    slots: [(&'a str, bool, bool, (bool, bool)); 8],
    next: usize,
}

impl<'a> ClassCache<'a> {
    /// [`class_kinds`], from a slot when the same class was asked the same.
    fn kinds(&mut self, class: &'a str, byline: bool, date: bool) -> (bool, bool) {
        if class.is_empty() || !(byline || date) {
            return (false, false);
        }
        if let Some(s) = self
            .slots
            .iter()
            .find(|s| s.1 == byline && s.2 == date && s.0 == class)
        {
            return s.3;
        }
        let kinds = class_kinds(class, byline, date);
        self.slots[self.next] = (class, byline, date, kinds);
        self.next = (self.next + 1) % self.slots.len();
        kinds
    }
}

/// Records one `<meta>` element's value by its `property`, `name` or `itemprop`.
fn meta(f: &mut Found, key: &str, content: &str) {
    use Source::{Meta, Microdata, OpenGraph};
    let key = key.trim().to_ascii_lowercase();
    match key.as_str() {
        "og:title" => f.title.offer(OpenGraph, content),
        "twitter:title" | "dc.title" | "dcterms.title" | "citation_title" | "parsely-title"
        | "sailthru.title" => f.title.offer(Meta, content),
        "headline" => f.title.offer(Microdata, content),
        "author" | "dc.creator" | "dcterms.creator" | "citation_author" | "parsely-author"
        | "sailthru.author" | "byl" | "article.author" | "dc.creator.author" => {
            f.author.offer(Meta, content)
        }
        "article:author" | "og:article:author" | "book:author" => {
            f.author.offer(OpenGraph, content)
        }
        "article:published_time"
        | "og:article:published_time"
        | "og:published_time"
        | "article:published" => f.date.offer(OpenGraph, content),
        "datepublished" => f.date.offer(Microdata, content),
        "date"
        | "dc.date"
        | "dcterms.date"
        | "dc.date.issued"
        | "dcterms.issued"
        | "dc.date.created"
        | "dcterms.created"
        | "pubdate"
        | "publishdate"
        | "publish-date"
        | "publish_date"
        | "publication_date"
        | "article.published"
        | "article_date_original"
        | "citation_publication_date"
        | "citation_date"
        | "sailthru.date"
        | "parsely-pub-date"
        | "cxenseparse:recs:publishtime"
        | "original-publish-date"
        | "release_date" => f.date.offer(Meta, content),
        "article:modified_time" | "og:updated_time" | "og:article:modified_time" => {
            f.modified.offer(OpenGraph, content)
        }
        "datemodified" => f.modified.offer(Microdata, content),
        "dc.date.modified" | "dcterms.modified" | "last-modified" | "lastmod" => {
            f.modified.offer(Meta, content)
        }
        "og:description" => f.description.offer(OpenGraph, content),
        "description" | "dc.description" | "dcterms.description" | "twitter:description" => {
            f.description.offer(Meta, content)
        }
        "og:site_name" => f.site_name.offer(OpenGraph, content),
        "application-name" | "apple-mobile-web-app-title" | "dc.publisher" => {
            f.site_name.offer(Meta, content)
        }
        "og:url" => f.url.offer(OpenGraph, content),
        "og:image" | "og:image:url" | "og:image:secure_url" => f.image.offer(OpenGraph, content),
        "twitter:image" | "twitter:image:src" => f.image.offer(Meta, content),
        "og:locale" => f.language.offer(OpenGraph, &content.replace('_', "-")),
        "content-language" | "dc.language" | "language" => f.language.offer(Meta, content),
        "inlanguage" => f.language.offer(Microdata, content),
        "og:type" => f.kind.offer(OpenGraph, content),
        "article:section" | "og:article:section" => push_unique(&mut f.categories, content),
        "article:tag" | "og:article:tag" => push_unique(&mut f.tags, content),
        "keywords" | "news_keywords" => {
            for k in content.split(',') {
                push_unique(&mut f.keywords, k);
            }
        }
        // Names of a site's own making (`w-published-date`, `sailthru.pubdate`) say the same.
        k if k.contains("pubdate") || k.contains("publish") && !k.contains("publisher") => {
            f.date.offer(Meta, content)
        }
        k if k.contains("modified") => f.modified.offer(Meta, content),
        _ => {}
    }
}

fn push_unique(v: &mut Vec<String>, s: &str) {
    let s = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if !s.is_empty() && v.len() < 64 && !v.contains(&s) {
        v.push(s);
    }
}

/// The value an element with `itemprop` gives (microdata's rules): `content`, then `datetime`,
/// `href`, `src`, else its text (an author's without its job title, [`byline_text`]).
fn item_value(dom: &Dom, i: usize, author: bool, reads: &mut usize) -> Option<String> {
    let attr = |k| dom.attr(i, k).map(str::to_owned);
    let tag = dom.node(i).tag;
    attr("content")
        .or_else(|| attr("datetime"))
        .or_else(|| {
            matches!(tag, Tag::A | Tag::LINK)
                .then(|| attr("href"))
                .flatten()
        })
        .or_else(|| matches!(tag, Tag::IMG).then(|| attr("src")).flatten())
        .or_else(|| {
            *reads += 1;
            (*reads <= MAX_TEXT_READS)
                .then(|| subtree_text(dom, i, author))
                .flatten()
        })
}

/// One forward pass over `dom`: every candidate value of every field.
fn gather(dom: &Dom, hints: &Hints) -> Found {
    let mut f = Found::default();
    let visible = |i: usize| {
        hints
            .visible
            .is_none_or(|v| v.get(i).copied().unwrap_or(true))
    };
    let mut reads = 0usize;
    let mut jsonld_bytes = 0usize;
    // The `itemprop=author` element whose nested `name` is the author's name, by subtree end.
    let mut author_scope: Option<usize> = None;
    let body = dom.body();
    let n = dom.len();
    let mut classes = ClassCache::default();
    let mut i = 0;
    while i < n {
        let node = dom.node(i);
        if node.kind != Kind::Element || node.foreign {
            i += 1;
            continue;
        }
        match node.tag {
            Tag::HTML => {
                if let Some(l) = dom.attr(i, "lang") {
                    f.language.offer(Source::Page, l);
                }
            }
            Tag::TITLE => {
                if let Some(t) = element_text(dom, i) {
                    f.title.offer(Source::TitleTag, &t);
                }
            }
            Tag::META => {
                let content = dom.attr(i, "content").unwrap_or("");
                if let Some(h) = dom.attr(i, "http-equiv") {
                    if h.eq_ignore_ascii_case("content-language") {
                        f.language.offer(Source::Meta, content);
                    }
                }
                for key in ["property", "name", "itemprop"] {
                    if let Some(k) = dom.attr(i, key) {
                        for k in k.split_ascii_whitespace() {
                            meta(&mut f, k, content);
                        }
                    }
                }
            }
            Tag::LINK => {
                let rel = dom.attr(i, "rel").unwrap_or("");
                if rel
                    .split_ascii_whitespace()
                    .any(|r| r.eq_ignore_ascii_case("canonical"))
                {
                    if let Some(h) = dom.attr(i, "href") {
                        f.url.offer(Source::Page, h);
                    }
                }
            }
            Tag::SCRIPT => {
                let ld = dom
                    .attr(i, "type")
                    .is_some_and(|t| t.to_ascii_lowercase().contains("ld+json"));
                if ld && jsonld_bytes < MAX_JSONLD_BYTES {
                    let text: String = (i + 1..dom.subtree_end(i)).map(|k| dom.text(k)).collect();
                    jsonld_bytes += text.len();
                    f.jsonld.push(text);
                }
                i = dom.subtree_end(i);
                continue;
            }
            Tag::STYLE | Tag::TEMPLATE => {
                i = dom.subtree_end(i);
                continue;
            }
            Tag::TIME if visible(i) && f.times.len() < 16 => {
                let value = match dom.attr(i, "datetime") {
                    Some(d) => Some(d.to_owned()),
                    None => {
                        reads += 1;
                        (reads <= MAX_TEXT_READS)
                            .then(|| element_text(dom, i))
                            .flatten()
                    }
                };
                if let Some(v) = value {
                    f.times.push((i, v));
                }
            }
            _ => {}
        }
        if author_scope.is_some_and(|end| i >= end) {
            author_scope = None;
        }
        let mark = hints.marks.and_then(|m| m.get(i).copied());
        let (mut class, mut itemprop, mut rel) = ("", None, "");
        // The features' marks answer for the class; only an `itemprop` or a link's `rel` is
        // then left to read.
        if mark.is_none_or(|m| m & bylines::ITEMPROP != 0 || node.tag == Tag::A) {
            for (k, v) in dom.attrs(i) {
                match k {
                    "class" => class = v,
                    "itemprop" => itemprop = Some(v),
                    "rel" => rel = v,
                    _ => {}
                }
            }
        }
        if let Some(props) = itemprop {
            if node.tag != Tag::META && visible(i) {
                for p in props.split_ascii_whitespace() {
                    let p = p.to_ascii_lowercase();
                    let wanted = matches!(
                        p.as_str(),
                        "headline"
                            | "author"
                            | "creator"
                            | "name"
                            | "datepublished"
                            | "datecreated"
                            | "datemodified"
                            | "description"
                            | "image"
                    );
                    if !wanted || (p == "name" && author_scope.is_none()) {
                        continue;
                    }
                    let Some(v) = item_value(
                        dom,
                        i,
                        matches!(p.as_str(), "author" | "creator"),
                        &mut reads,
                    ) else {
                        continue;
                    };
                    match p.as_str() {
                        "headline" => f.title.offer(Source::Microdata, &v),
                        "author" | "creator" => {
                            f.author.offer(Source::Microdata, &v);
                            if dom.attr(i, "itemtype").is_some() {
                                author_scope = Some(dom.subtree_end(i));
                            }
                        }
                        // The name inside an author item: the name alone, not the whole card.
                        "name" => {
                            f.author.0[Source::Microdata as usize] = Some(v);
                            author_scope = None;
                        }
                        "datepublished" | "datecreated" => f.date.offer(Source::Microdata, &v),
                        "datemodified" => f.modified.offer(Source::Microdata, &v),
                        "description" => f.description.offer(Source::Microdata, &v),
                        _ => f.image.offer(Source::Microdata, &v),
                    }
                }
            }
        }
        if visible(i) && body.is_some_and(|b| i > b) {
            let rel_author =
                node.tag == Tag::A && rel.split_ascii_whitespace().any(|t| t == "author");
            let (want_byline, want_dated) = (f.bylines.len() < 8, f.dated.len() < 8);
            let want_byline_class = want_byline && !rel_author;
            let (byline_class, date_class) = match mark {
                Some(m) => (
                    want_byline_class && m & bylines::BYLINE_CLASS != 0,
                    want_dated && m & bylines::DATE_CLASS != 0,
                ),
                None => classes.kinds(class, want_byline_class, want_dated),
            };
            let byline = want_byline && (rel_author || byline_class);
            let dated = want_dated && date_class;
            if byline || dated {
                reads += 1;
                let text = |i| match byline {
                    true => byline_text(dom, i),
                    false => element_text(dom, i),
                };
                if let Some(t) = (reads <= MAX_TEXT_READS).then(|| text(i)).flatten() {
                    if dated || byline && date::parse(&t).is_some() {
                        f.dated.push((i, t.clone()));
                    }
                    if byline {
                        f.bylines.push((i, t));
                    }
                }
                // A byline's own descendants are part of it; a dateline may hold the byline.
                if byline {
                    i = dom.subtree_end(i);
                    continue;
                }
            }
        }
        i += 1;
    }
    if let Some(h) = hints.headline.filter(|&h| h < n) {
        if let Some(t) = element_text(dom, h) {
            f.title.offer(Source::Page, &t.replace('\n', " "));
        }
    }
    f
}

/// The candidates of `list` at or after node `from` first, then the others, in document order.
fn after_first(list: &[(usize, String)], from: Option<usize>) -> Vec<&str> {
    let from = from.unwrap_or(0);
    let (after, before): (Vec<_>, Vec<_>) = list.iter().partition(|(i, _)| *i >= from);
    after
        .into_iter()
        .chain(before)
        .map(|(_, s)| s.as_str())
        .collect()
}

/// Nodes after the title heading searched for a dateline, and before it.
const DATELINE_AFTER: usize = 80;
const DATELINE_BEFORE: usize = 30;

/// The first date written in a short visible text right after the title heading (the page's
/// dateline), else right before it.
///
/// # Complexity
/// O([`DATELINE_AFTER`] + [`DATELINE_BEFORE`]).
fn near_headline(dom: &Dom, hints: &Hints) -> Option<Date> {
    let h = hints.headline.filter(|&h| h < dom.len())?;
    let visible = |i: usize| {
        hints
            .visible
            .is_none_or(|v| v.get(i).copied().unwrap_or(true))
    };
    let read = |i: usize| {
        let t = dom.text(i);
        (dom.node(i).kind == Kind::Text && visible(i) && t.len() <= 120)
            .then(|| date::parse(t))
            .flatten()
    };
    let after = (dom.subtree_end(h)..dom.len()).take(DATELINE_AFTER);
    let before = (0..h).rev().take(DATELINE_BEFORE);
    after.chain(before).find_map(read)
}

/// `raw` as a BCP 47 tag: the first of a list, `_` read as `-`, the language subtag lower-case
/// and a region upper-case; `None` unless it is 2–3 letters (or `i-`/`x-` private use) with
/// alphanumeric subtags.
pub fn bcp47(raw: &str) -> Option<String> {
    let first = raw.split([',', ';']).next()?.trim().replace('_', "-");
    let mut parts = first.split('-');
    let lang = parts.next()?;
    if !(2..=3).contains(&lang.len()) || !lang.bytes().all(|b| b.is_ascii_alphabetic()) {
        return None;
    }
    let mut out = lang.to_ascii_lowercase();
    for p in parts {
        if p.is_empty() || p.len() > 8 || !p.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return None;
        }
        out.push('-');
        match p.len() {
            2 if p.bytes().all(|b| b.is_ascii_alphabetic()) => {
                out.push_str(&p.to_ascii_uppercase())
            }
            4 => {
                out.push_str(&p[..1].to_ascii_uppercase());
                out.push_str(&p[1..].to_ascii_lowercase());
            }
            _ => out.push_str(&p.to_ascii_lowercase()),
        }
    }
    Some(out)
}

/// ISO 639-3 codes of the languages whatlang detects, with their ISO 639-1 code where BCP 47
/// takes it instead.
const ISO639_1: &[(&str, &str)] = &[
    ("afr", "af"),
    ("aka", "ak"),
    ("amh", "am"),
    ("ara", "ar"),
    ("aze", "az"),
    ("bel", "be"),
    ("ben", "bn"),
    ("bul", "bg"),
    ("cat", "ca"),
    ("ces", "cs"),
    ("cmn", "zh"),
    ("cym", "cy"),
    ("dan", "da"),
    ("deu", "de"),
    ("ell", "el"),
    ("eng", "en"),
    ("epo", "eo"),
    ("est", "et"),
    ("fin", "fi"),
    ("fra", "fr"),
    ("guj", "gu"),
    ("heb", "he"),
    ("hin", "hi"),
    ("hrv", "hr"),
    ("hun", "hu"),
    ("hye", "hy"),
    ("ind", "id"),
    ("ita", "it"),
    ("jav", "jv"),
    ("jpn", "ja"),
    ("kan", "kn"),
    ("kat", "ka"),
    ("khm", "km"),
    ("kor", "ko"),
    ("lat", "la"),
    ("lav", "lv"),
    ("lit", "lt"),
    ("mal", "ml"),
    ("mar", "mr"),
    ("mkd", "mk"),
    ("mya", "my"),
    ("nep", "ne"),
    ("nld", "nl"),
    ("nob", "nb"),
    ("ori", "or"),
    ("pan", "pa"),
    ("pes", "fa"),
    ("pol", "pl"),
    ("por", "pt"),
    ("ron", "ro"),
    ("rus", "ru"),
    ("sin", "si"),
    ("slk", "sk"),
    ("slv", "sl"),
    ("sna", "sn"),
    ("spa", "es"),
    ("srp", "sr"),
    ("swe", "sv"),
    ("tam", "ta"),
    ("tel", "te"),
    ("tgl", "tl"),
    ("tha", "th"),
    ("tuk", "tk"),
    ("tur", "tr"),
    ("ukr", "uk"),
    ("urd", "ur"),
    ("uzb", "uz"),
    ("vie", "vi"),
    ("yid", "yi"),
    ("zul", "zu"),
];

/// The language of `text` as a BCP 47 tag, when whatlang's detection is reliable; reads at most
/// [`DETECT_BYTES`].
///
/// # Complexity
/// O(min(len, [`DETECT_BYTES`])).
pub fn detect_language(text: &str) -> Option<String> {
    let info = whatlang::detect(date::cut(text, DETECT_BYTES))?;
    if !info.is_reliable() {
        return None;
    }
    let code = info.lang().code();
    Some(
        ISO639_1
            .iter()
            .find(|(three, _)| *three == code)
            .map_or(code, |&(_, two)| two)
            .to_owned(),
    )
}

/// `href` made absolute against `base` (the page's URL, parsed); `None` for `javascript:`,
/// `data:` and unparseable values.
fn absolute(href: &str, base: Option<&url::Url>) -> Option<String> {
    let href = href.trim();
    let joined = match base {
        Some(b) => b.join(href).ok()?,
        None => url::Url::parse(href).ok()?,
    };
    matches!(joined.scheme(), "http" | "https").then(|| joined.to_string())
}

/// The page's metadata from its markup, without language detection: see the
/// [module docs](self) for the sources and their order. `url` is the page's address (relative
/// links, dates in the URL, the site's domain); `hints` what the pipeline found.
///
/// # Complexity
/// See the [module docs](self).
pub fn read(dom: &Dom, url: Option<&str>, hints: &Hints) -> Metadata {
    read_on(dom, url, hints, Date::today())
}

/// [`read`] with `today` as the latest plausible publication day.
pub fn read_on(dom: &Dom, url: Option<&str>, hints: &Hints, today: Date) -> Metadata {
    let mut f = gather(dom, hints);
    let ld = jsonld::read(&f.jsonld);
    let ld_author = ld.authors.join("; ");
    f.title
        .offer(Source::JsonLd, ld.title.as_deref().unwrap_or(""));
    f.author.offer(Source::JsonLd, &ld_author);
    f.date
        .offer(Source::JsonLd, ld.date.as_deref().unwrap_or(""));
    f.modified
        .offer(Source::JsonLd, ld.modified.as_deref().unwrap_or(""));
    f.description
        .offer(Source::JsonLd, ld.description.as_deref().unwrap_or(""));
    f.site_name
        .offer(Source::JsonLd, ld.site_name.as_deref().unwrap_or(""));
    f.url.offer(Source::JsonLd, ld.url.as_deref().unwrap_or(""));
    f.image
        .offer(Source::JsonLd, ld.image.as_deref().unwrap_or(""));
    f.language
        .offer(Source::JsonLd, ld.language.as_deref().unwrap_or(""));
    f.kind
        .offer(Source::JsonLd, ld.kind.as_deref().unwrap_or(""));
    if let Some(u) = url {
        f.url.offer(Source::Url, u);
    }

    let site_name = f.site_name.ordered(SITE_ORDER).next().map(str::to_owned);
    // Names the site goes by: declared ones, and its domain's first label (`nytimes`).
    let mut sites: Vec<String> = f.site_name.0.iter().flatten().cloned().collect();
    if let Some(domain) = url.and_then(crate::url::site_of) {
        sites.push(domain.split('.').next().unwrap_or("").to_owned());
        sites.push(domain);
    }
    let site_refs: Vec<&str> = sites.iter().map(String::as_str).collect();

    let headline = f.title.get(Source::Page).map(str::to_owned);
    let title = f
        .title
        .ordered(TITLE_ORDER)
        .map(|t| title::strip_site(t, &sites, headline.as_deref()))
        .find(|t| !t.is_empty());

    let bylines = after_first(&f.bylines, hints.headline);
    // A publisher that signs its own pages is their author (WCXB's annotators take it so);
    // in a byline's text, the site's name is chrome.
    let author = f
        .author
        .ordered(AUTHOR_ORDER)
        .find_map(|a| author::clean(a, &[]))
        .or_else(|| {
            bylines
                .into_iter()
                .find_map(|a| author::clean(a, &site_refs))
        });

    let plausible = |s: &str| date::parse(s).filter(|d| d.plausible(today));
    let times = after_first(&f.times, hints.headline);
    let dated = after_first(&f.dated, hints.headline);
    let in_url = url.and_then(date::in_url).filter(|d| d.plausible(today));
    let mut date = None;
    for &s in DATE_ORDER {
        date = match s {
            Source::Time => times.iter().find_map(|t| plausible(t)),
            Source::Page => dated.iter().find_map(|t| plausible(t)),
            Source::Url => in_url,
            _ => f.date.get(s).and_then(plausible),
        };
        if date.is_some() {
            break;
        }
    }
    let date_modified = f
        .modified
        .ordered(MODIFIED_ORDER)
        .find_map(plausible)
        .filter(|m| date.is_none_or(|d| *m >= d));
    let date = date.or_else(|| near_headline(dom, hints).filter(|d| d.plausible(today)));
    // A page that gives only when it was updated was published by then: its readers take
    // that day for the page's date.
    let date = date.or(date_modified);

    let page_url = url.filter(|u| u.contains("://"));
    let language = f.language.ordered(LANGUAGE_ORDER).find_map(bcp47);
    let description = f
        .description
        .ordered(DESCRIPTION_ORDER)
        .next()
        .map(str::to_owned);
    // Parsed once for the canonical URL and the image.
    let base = page_url.and_then(|b| url::Url::parse(b).ok());
    let canonical = f
        .url
        .ordered(URL_ORDER)
        .find_map(|u| absolute(u, base.as_ref()));
    let image = f
        .image
        .ordered(IMAGE_ORDER)
        .find_map(|u| absolute(u, base.as_ref()));
    let page_type = f.kind.ordered(KIND_ORDER).find_map(|k| {
        let k = k.to_ascii_lowercase();
        vocabulary::PAGE_TYPES
            .iter()
            .find(|(t, _)| *t == k)
            .map(|&(_, p)| p.to_owned())
    });
    let mut categories = ld.sections;
    for c in &f.categories {
        push_unique(&mut categories, c);
    }
    let mut tags = ld.keywords;
    for t in f.tags.iter().chain(&f.keywords) {
        push_unique(&mut tags, t);
    }
    Metadata {
        title,
        author,
        date: date.map(Date::iso),
        date_modified: date_modified.map(Date::iso),
        language,
        description,
        site_name,
        url: canonical,
        image,
        categories,
        tags,
        page_type,
    }
}

impl Analysis {
    /// The page's metadata ([`read`] with the pipeline's title heading and visibility), the
    /// language detected from the main text when the page declares none.
    ///
    /// # Complexity
    /// O(n), see the [module docs](self).
    pub fn metadata(&self) -> Metadata {
        let hints = Hints {
            headline: self.features.title_heading,
            visible: Some(&self.features.visible),
            marks: Some(&self.features.marks),
        };
        let mut m = read(&self.page.dom, self.page.url.as_deref(), &hints);
        if m.language.is_none() {
            m.language = detect_language(&self.main_text_prefix(DETECT_BYTES));
        }
        m
    }

    /// The first `max` bytes (about) of the kept visible text, words separated by spaces. O(n).
    fn main_text_prefix(&self, max: usize) -> String {
        let dom = &self.page.dom;
        let mut out = String::new();
        for i in 0..dom.len() {
            if out.len() >= max {
                break;
            }
            if dom.node(i).kind == Kind::Text && self.keep[i] && self.features.visible[i] {
                out.push_str(dom.text(i));
                out.push(' ');
            }
        }
        out
    }
}

impl Metadata {
    /// The fields as a JSON object, absent fields left out.
    pub fn to_json(&self) -> serde_json::Map<String, serde_json::Value> {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::Object(m)) => m,
            // A struct of strings and lists always serialises to an object.
            _ => serde_json::Map::new(),
        }
    }
}
