//! The arena: [`Dom`], its nodes, and the builder the parsers fill.

use super::tag::{self, Tag};
/// [`crate::Error::TooLarge`] when `html` is over `limits.max_input_bytes`, or too long for the
/// arena's `u32` offsets: the check both parsers make before anything else. O(1).
pub(crate) fn check_size(html: &str, limits: &crate::Limits) -> crate::Result<()> {
    if html.len() as u64 > limits.max_input_bytes || html.len() >= u32::MAX as usize {
        return Err(crate::Error::TooLarge {
            what: "document".into(),
            size: html.len() as u64,
            limit: limits.max_input_bytes.min(u32::MAX as u64 - 1),
        });
    }
    Ok(())
}

/// Closes a `<title>` that is never closed, before the next `<`; returns whether it did.
///
/// A `<title>` is raw text up to `</title>`, so a page that never closes it (broken templates
/// and truncated captures do) parses into one huge title and an empty body, which a reader of
/// the source would not see. Old parsers (libxml2's, Java's) end the title at the next tag;
/// so does this. Pages with a `</title>` (an end tag the tokenizer accepts) anywhere are left
/// as they are.
///
/// # Complexity
/// O(length of the text), no allocation unless it inserts.
pub fn close_unterminated_title(html: &mut String) -> bool {
    let bytes = html.as_bytes();
    let find = |from: usize, pat: &[u8]| {
        memchr::memchr_iter(b'<', &bytes[from..])
            .map(|k| from + k)
            .find(|&k| {
                bytes[k..].len() >= pat.len() && bytes[k..k + pat.len()].eq_ignore_ascii_case(pat)
            })
    };
    let Some(open) = find(0, b"<title") else {
        return false;
    };
    if !matches!(
        bytes.get(open + 6),
        Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'/')
    ) {
        return false;
    }
    // Only an appropriate end tag ends it (`</title` then space, `/` or `>`): `</titlevalue=…>`,
    // a broken template's, is a bogus tag inside the title's raw text.
    let mut from = open;
    while let Some(close) = find(from, b"</title") {
        if matches!(
            bytes.get(close + 7),
            Some(b'>' | b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/')
        ) {
            return false;
        }
        from = close + 7;
    }
    let Some(gt) = memchr::memchr(b'>', &bytes[open..]).map(|k| open + k) else {
        return false;
    };
    let Some(next) = memchr::memchr(b'<', &bytes[gt..]).map(|k| gt + k) else {
        return false;
    };
    html.insert_str(next, "</title>");
    true
}

/// html5ever's options, shared by the arena sink and the rcdom reference. Scripting is off, as
/// in a browser without JavaScript, so `<noscript>` content is parsed as markup: some sites
/// (Discourse forums, for one) put their whole content there for crawlers.
pub(crate) fn parse_opts() -> html5ever::ParseOpts {
    html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
        ..Default::default()
    }
}

/// Marker for "no node" / "unknown offset" in the `u32` fields.
pub const NONE: u32 = u32::MAX;

/// Most steps of a path written by [`Dom::short_paths`] (what the CLI prints): deeper paths
/// elide their middle.
pub const PATH_MAX_STEPS: usize = 64;

/// What a node is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The document root (node 0).
    Document,
    /// An element; see [`Node::tag`].
    Element,
    /// A run of character data.
    Text,
    /// A comment (its text is not kept, only its length).
    Comment,
    /// The doctype.
    Doctype,
}

/// A byte range in the decoded source text (UTF-8 offsets; equal to the original bytes for
/// UTF-8 input). `start == NONE` when the parser gave no position (implied elements such as a
/// missing `<tbody>`), in which case the span is derived from the children where possible.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    /// First byte (the `<` of the start tag for elements).
    pub start: u32,
    /// One past the last byte (after the `>` of the end tag when there is one).
    pub end: u32,
}

impl Span {
    /// A span with no known position.
    pub(crate) const UNKNOWN: Span = Span {
        start: NONE,
        end: NONE,
    };

    /// Whether both ends are known.
    pub fn is_known(self) -> bool {
        self.start != NONE && self.end != NONE && self.end >= self.start
    }
}

/// One node of the arena. Indices are positions in [`Dom::nodes`].
#[derive(Debug, Clone)]
pub struct Node {
    /// What the node is.
    pub kind: Kind,
    /// Interned tag name (`Tag::NONE` for non-elements).
    pub tag: Tag,
    /// Element in the SVG or MathML namespace.
    pub foreign: bool,
    /// Parent index, `NONE` for the document.
    pub parent: u32,
    /// First child, `NONE` when there is none.
    pub first_child: u32,
    /// Next sibling, `NONE` for the last child.
    pub next_sibling: u32,
    /// One past the last node of this subtree in preorder.
    pub end: u32,
    /// Depth below the document (the document is 0).
    pub depth: u32,
    /// 1-based position among the parent's children of the same tag (elements) or kind (text).
    pub nth: u32,
    /// Text: byte range in `Dom::text`; element: index range in `Dom::attrs`; comment: (0, len).
    pub(super) data: (u32, u32),
    /// Where the node is in the decoded source.
    pub span: Span,
}

/// Bytes attributes take in a start tag, as [`Dom::subtree_bytes`] counts them: each its name,
/// its value, `=""` and the space before it.
pub(crate) fn attrs_source_bytes<'a>(attrs: impl Iterator<Item = (&'a str, &'a str)>) -> u32 {
    attrs
        .map(|(k, v)| (k.len() + v.len() + 4).min(u32::MAX as usize) as u32)
        .fold(0, u32::saturating_add)
}

/// Bytes [`Dom::subtree_bytes`] counts for an element's own markup: `<name>` and `</name>`
/// plus `extra` (its attributes, a template's contents).
pub(crate) fn element_markup_bytes(name_len: usize, extra: u32) -> u32 {
    (2 * name_len.min(u32::MAX as usize / 4) as u32 + 5).saturating_add(extra)
}

/// Bytes [`Dom::subtree_bytes`] counts for a comment of `len` bytes: `<!--` and `-->` added.
pub(crate) fn comment_markup_bytes(len: u32) -> u32 {
    len.saturating_add(7)
}

/// An attribute kept from the source (see [`keep_attr`]).
#[derive(Debug, Clone, Copy)]
pub(super) struct Attr {
    pub(super) name: (u32, u32),
    pub(super) value: (u32, u32),
}

/// Attributes the pipeline reads; all others are dropped at parse time.
pub(crate) fn keep_attr(name: &str) -> bool {
    matches!(
        name,
        "href"
            | "src"
            | "width"
            | "height"
            | "id"
            | "class"
            | "role"
            | "style"
            | "hidden"
            | "open"
            | "popover"
            | "alt"
            | "title"
            | "itemprop"
            | "itemtype"
            | "type"
            | "lang"
            | "rel"
            | "colspan"
            | "align"
            // Metadata (`crate::metadata`): `<meta>`, `<time>`, Content-Language.
            | "name"
            | "property"
            | "content"
            | "datetime"
            | "http-equiv"
            // Images of `extract --images` (`crate::output::render::image_source`).
            | "srcset"
            | "data-src"
            | "data-srcset"
            | "data-lazy-src"
    ) || name.starts_with("aria-")
}

/// A parsed page.
#[derive(Debug, Clone, Default)]
pub struct Dom {
    pub(super) nodes: Vec<Node>,
    pub(super) text: String,
    pub(super) attrs: Vec<Attr>,
    pub(super) strings: String,
    pub(super) custom_tags: Vec<Box<str>>,
    pub(super) source_len: u32,
    /// Per element, bytes of its own markup that the arena does not hold: every source
    /// attribute (`name="value"` and a space each, dropped ones included) and the contents of
    /// a `<template>`; empty for trees built without them (then only kept attributes count).
    pub(super) markup_bytes: Vec<u32>,
    /// Built by the span-tracking parse ([`parse_within`]).
    pub(super) has_spans: bool,
}

impl Dom {
    /// All nodes in preorder; node 0 is the document.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// Number of nodes.
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// Whether the arena is empty (never true for a parsed page: it has the document node).
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// Node `i`.
    pub fn node(&self, i: usize) -> &Node {
        &self.nodes[i]
    }

    /// Whether nodes carry source spans (the tree came from [`parse_within`](super::parse_within)).
    pub(crate) fn has_spans(&self) -> bool {
        self.has_spans
    }

    /// Length in bytes of the decoded source.
    pub fn source_len(&self) -> usize {
        self.source_len as usize
    }

    /// One past the last node of `i`'s subtree, kept within `i + 1 ..= len`: a walk in
    /// document order that skips the subtree goes on from here, and always moves forward.
    pub(crate) fn subtree_end(&self, i: usize) -> usize {
        (self.nodes[i].end as usize).clamp(i + 1, self.nodes.len())
    }

    /// Parent of `i`, `None` for the document.
    pub fn parent(&self, i: usize) -> Option<usize> {
        opt(self.nodes[i].parent)
    }

    /// Children of `i` in document order.
    pub fn children(&self, i: usize) -> Children<'_> {
        Children {
            dom: self,
            next: self.nodes[i].first_child,
        }
    }

    /// The text of a text node ("" for other kinds).
    pub fn text(&self, i: usize) -> &str {
        let n = &self.nodes[i];
        match n.kind {
            Kind::Text => &self.text[n.data.0 as usize..n.data.1 as usize],
            _ => "",
        }
    }

    /// Length of a comment's text in bytes (0 for other kinds).
    pub fn comment_len(&self, i: usize) -> usize {
        let n = &self.nodes[i];
        match n.kind {
            Kind::Comment => n.data.1 as usize,
            _ => 0,
        }
    }

    /// The lowercase local name of element `i` ("" for other kinds).
    pub fn tag_name(&self, i: usize) -> &str {
        let n = &self.nodes[i];
        if n.kind != Kind::Element {
            return "";
        }
        self.name_of(n.tag)
    }

    /// The name of an interned tag of this document.
    pub(crate) fn name_of(&self, tag: Tag) -> &str {
        match tag.static_name() {
            Some(s) => s,
            None => self
                .custom_tags
                .get((tag.0 - Tag::FIRST_CUSTOM) as usize)
                .map_or("", |s| s),
        }
    }

    /// Attributes of element `i` that were kept at parse time, as (name, value).
    pub fn attrs(&self, i: usize) -> impl Iterator<Item = (&str, &str)> + '_ {
        let n = &self.nodes[i];
        let range = if n.kind == Kind::Element {
            n.data.0 as usize..n.data.1 as usize
        } else {
            0..0
        };
        self.attrs[range].iter().map(move |a| {
            (
                &self.strings[a.name.0 as usize..a.name.1 as usize],
                &self.strings[a.value.0 as usize..a.value.1 as usize],
            )
        })
    }

    /// The value of attribute `name` (lowercase) on element `i`.
    pub fn attr(&self, i: usize, name: &str) -> Option<&str> {
        self.attrs(i).find(|(k, _)| *k == name).map(|(_, v)| v)
    }

    /// The `<title>` text of the page, whitespace as in the source.
    pub fn title(&self) -> Option<&str> {
        let i = self
            .nodes
            .iter()
            .position(|n| n.kind == Kind::Element && n.tag == Tag::TITLE && !n.foreign)?;
        let first = self.nodes[i].first_child;
        (first != NONE && self.nodes[first as usize].kind == Kind::Text)
            .then(|| self.text(first as usize))
    }

    /// The `<body>` element, if the page has one.
    pub fn body(&self) -> Option<usize> {
        self.nodes
            .iter()
            .position(|n| n.kind == Kind::Element && n.tag == Tag::BODY)
    }

    /// A stable path such as `/html/body/div[2]/ul[1]` (XPath-like, 1-based among same-tag
    /// siblings; `html`, `head` and `body` carry no index). Text nodes end in `text()[k]`.
    ///
    /// # Complexity
    /// O(depth) time and one `String`.
    pub fn path(&self, i: usize) -> String {
        let mut chain = Vec::new();
        let mut cur = i;
        while cur != 0 && cur < self.nodes.len() {
            chain.push(cur);
            cur = self.nodes[cur].parent as usize;
        }
        chain.reverse();
        let mut out = String::with_capacity(chain.len() * 8);
        self.write_path(&mut out, &chain, chain.len());
        out
    }

    /// The paths of the nodes `wanted` picks, in document order, as [`Dom::path`] writes them
    /// but of at most [`PATH_MAX_STEPS`] steps: a deeper path keeps its first and last
    /// `PATH_MAX_STEPS / 2` steps around a `/…N…` step that says how many it leaves out, so that
    /// output stays linear in the page whatever its depth.
    ///
    /// # Complexity
    /// One preorder pass with a stack of ancestors: O(n + output), O(depth) extra space.
    pub fn short_paths(&self, wanted: impl FnMut(usize) -> bool) -> Vec<(usize, String)> {
        let mut out = Vec::new();
        self.for_each_short_path(wanted, |i, p| out.push((i, p.to_owned())));
        out
    }

    /// Calls `f(i, path)` for the nodes `wanted` picks, in document order, with the path
    /// [`Dom::short_paths`] gives; one buffer is reused. O(n + output).
    pub fn for_each_short_path(
        &self,
        mut wanted: impl FnMut(usize) -> bool,
        mut f: impl FnMut(usize, &str),
    ) {
        let mut chain: Vec<usize> = Vec::new();
        let mut buf = String::new();
        for i in 1..self.nodes.len() {
            let parent = self.nodes[i].parent as usize;
            while chain.last().is_some_and(|&top| top != parent) {
                chain.pop();
            }
            chain.push(i);
            if wanted(i) {
                buf.clear();
                self.write_path(&mut buf, &chain, PATH_MAX_STEPS);
                f(i, &buf);
            }
        }
    }

    /// [`Dom::short_paths`] of `nodes`, in their order (the document node's path is `/`).
    ///
    /// # Complexity
    /// O(n + output).
    pub fn short_paths_of(&self, nodes: &[usize]) -> Vec<String> {
        let mut want = vec![false; self.nodes.len()];
        for &i in nodes {
            if let Some(w) = want.get_mut(i) {
                *w = true;
            }
        }
        let found: rustc_hash::FxHashMap<usize, String> =
            self.short_paths(|i| want[i]).into_iter().collect();
        nodes
            .iter()
            .map(|i| found.get(i).cloned().unwrap_or_else(|| "/".to_owned()))
            .collect()
    }

    /// Writes the path of `chain` (the nodes from the root's child down), eliding the middle
    /// steps beyond `max_steps`.
    fn write_path(&self, out: &mut String, chain: &[usize], max_steps: usize) {
        if chain.is_empty() {
            out.push('/');
        }
        let half = max_steps / 2;
        // Only the kept steps are visited: O(max_steps), not O(depth).
        let (head, elided, tail) = if chain.len() > max_steps {
            (
                &chain[..half],
                chain.len() - 2 * half,
                &chain[chain.len() - half..],
            )
        } else {
            (chain, 0, &chain[..0])
        };
        for (k, &c) in head.iter().chain(tail).enumerate() {
            if k == head.len() && elided > 0 {
                let _ = std::fmt::Write::write_fmt(out, format_args!("/…{elided}…"));
            }
            let n = &self.nodes[c];
            out.push('/');
            match n.kind {
                Kind::Element => {
                    out.push_str(self.name_of(n.tag));
                    if !matches!(n.tag, Tag::HTML | Tag::HEAD | Tag::BODY) || n.foreign {
                        push_index(out, n.nth);
                    }
                }
                Kind::Text => {
                    out.push_str("text()");
                    push_index(out, n.nth);
                }
                Kind::Comment => {
                    out.push_str("comment()");
                    push_index(out, n.nth);
                }
                Kind::Doctype => out.push_str("doctype()"),
                Kind::Document => {}
            }
        }
    }

    /// Estimated bytes of source HTML in each node's subtree, for every node (`result[i]`).
    ///
    /// Text counts its decoded bytes, a comment its text and delimiters, an element its start
    /// and end tags (`2 × name + 5`), every source attribute (`name="value"` and a space) and,
    /// for a `<template>`, its contents (counted the same way; the arena drops them).
    /// It is the same for any parse of the same text (with or without spans), so features
    /// built on it do not depend on which parse ran; it undercounts character references and
    /// whitespace inside tags, and counts the tags of elements the parser implied.
    ///
    /// # Complexity
    /// One bottom-up pass, O(n).
    pub fn subtree_bytes(&self) -> Vec<u32> {
        let n = self.nodes.len();
        let mut bytes = vec![0u32; n];
        for i in (0..n).rev() {
            let node = &self.nodes[i];
            let own = match node.kind {
                Kind::Text => node.data.1 - node.data.0,
                Kind::Comment => comment_markup_bytes(node.data.1),
                Kind::Doctype => 15,
                Kind::Document => 0,
                Kind::Element => {
                    let extra = match self.markup_bytes.get(i) {
                        Some(&b) => b,
                        None => attrs_source_bytes(self.attrs(i)),
                    };
                    element_markup_bytes(self.name_of(node.tag).len(), extra)
                }
            };
            let total = bytes[i].saturating_add(own);
            bytes[i] = total;
            if node.parent != NONE {
                let p = node.parent as usize;
                bytes[p] = bytes[p].saturating_add(total);
            }
        }
        bytes
    }

    /// Builds a tree without HTML: used by tests and generators. `nodes` must be in preorder
    /// with `parent < index`; the structure fields (`first_child`, `end`, …) are recomputed.
    #[doc(hidden)]
    pub fn from_parts(kinds: &[(Kind, Tag, u32, &str)]) -> Dom {
        let mut b = Builder::default();
        for &(kind, tag, parent, text) in kinds {
            b.push(kind, tag, parent, text);
        }
        b.finish(0)
    }
}

fn push_index(out: &mut String, nth: u32) {
    use std::fmt::Write;
    let _ = write!(out, "[{nth}]");
}

fn opt(v: u32) -> Option<usize> {
    (v != NONE).then_some(v as usize)
}

/// Iterator over a node's children.
pub struct Children<'a> {
    pub(super) dom: &'a Dom,
    pub(super) next: u32,
}

impl Iterator for Children<'_> {
    type Item = usize;
    fn next(&mut self) -> Option<usize> {
        let cur = opt(self.next)?;
        self.next = self.dom.nodes[cur].next_sibling;
        Some(cur)
    }
}

/// Appends nodes that are already in preorder and fills in the structure fields.
/// Shared by the html5ever sink, the rcdom converter and hand-built test trees.
#[derive(Default)]
pub(crate) struct Builder<'s> {
    pub(super) dom: Dom,
    pub(super) last_child: Vec<u32>,
    /// The source, when spans are tracked: lets an element absorb its end tag.
    pub(super) src: Option<&'s [u8]>,
}

impl Builder<'_> {
    /// Appends a node whose parent is already present. Returns its index.
    pub(crate) fn push(&mut self, kind: Kind, tag: Tag, parent: u32, text: &str) -> u32 {
        let i = self.dom.nodes.len() as u32;
        let data = match kind {
            Kind::Text => {
                let s = self.dom.text.len() as u32;
                self.dom.text.push_str(text);
                (s, self.dom.text.len() as u32)
            }
            Kind::Comment => (0, text.len() as u32),
            _ => {
                let a = self.dom.attrs.len() as u32;
                (a, a)
            }
        };
        let depth = if parent == NONE {
            0
        } else {
            self.dom.nodes[parent as usize].depth + 1
        };
        self.dom.nodes.push(Node {
            kind,
            tag,
            foreign: false,
            parent,
            first_child: NONE,
            next_sibling: NONE,
            end: i + 1,
            depth,
            nth: 1,
            data,
            span: Span::UNKNOWN,
        });
        self.last_child.push(NONE);
        if parent != NONE {
            let p = parent as usize;
            let prev = self.last_child[p];
            if prev == NONE {
                self.dom.nodes[p].first_child = i;
            } else {
                self.dom.nodes[prev as usize].next_sibling = i;
            }
            self.last_child[p] = i;
        }
        i
    }

    /// Adds an attribute to the node just pushed (which must be an element).
    pub(crate) fn push_attr(&mut self, name: &str, value: &str) {
        let s = &mut self.dom.strings;
        let n0 = s.len() as u32;
        s.push_str(name);
        let n1 = s.len() as u32;
        s.push_str(value);
        let v1 = s.len() as u32;
        self.dom.attrs.push(Attr {
            name: (n0, n1),
            value: (n1, v1),
        });
        if let Some(last) = self.dom.nodes.last_mut() {
            last.data.1 = self.dom.attrs.len() as u32;
        }
    }

    /// Makes `strings` the arena's attribute text, for [`Builder::push_attr_at`]; only before
    /// any attribute is pushed.
    pub(crate) fn adopt_strings(&mut self, strings: String) {
        debug_assert!(self.dom.strings.is_empty());
        self.dom.strings = strings;
    }

    /// Like [`Builder::push_attr`], for a name and value already in the arena's strings (at
    /// these byte ranges, from [`Builder::adopt_strings`]): nothing is copied.
    pub(crate) fn push_attr_at(&mut self, name: (u32, u32), value: (u32, u32)) {
        self.dom.attrs.push(Attr { name, value });
        if let Some(last) = self.dom.nodes.last_mut() {
            last.data.1 = self.dom.attrs.len() as u32;
        }
    }

    /// Interns a non-static tag name for this document.
    pub(crate) fn intern(&mut self, name: &str) -> Tag {
        if let Some(t) = tag::lookup(name) {
            return t;
        }
        if let Some(k) = self.dom.custom_tags.iter().position(|t| &**t == name) {
            return Tag(Tag::FIRST_CUSTOM + k as u16);
        }
        let k = self
            .dom
            .custom_tags
            .len()
            .min((u16::MAX - Tag::FIRST_CUSTOM) as usize);
        if k == self.dom.custom_tags.len() {
            self.dom.custom_tags.push(name.into());
        }
        Tag(Tag::FIRST_CUSTOM + k as u16)
    }

    /// Sets the bytes of node `i`'s markup that the arena does not hold (see
    /// [`Dom::subtree_bytes`]); nodes not set count 0.
    pub(crate) fn set_markup_bytes(&mut self, i: u32, bytes: u32) {
        let a = &mut self.dom.markup_bytes;
        if a.len() <= i as usize {
            a.resize(self.dom.nodes.len(), 0);
        }
        a[i as usize] = bytes;
    }

    pub(crate) fn node_mut(&mut self, i: u32) -> &mut Node {
        &mut self.dom.nodes[i as usize]
    }

    /// Computes subtree ends, same-tag indices and derived spans; returns the arena.
    pub(crate) fn finish(mut self, source_len: usize) -> Dom {
        let nodes = &mut self.dom.nodes;
        // Bottom-up, a child's end must be final before its parent reads it.
        let n = nodes.len();
        // Subtree ends and spans, bottom-up: a parent's end is its last descendant's end.
        for i in (1..n).rev() {
            if let (Some(src), Kind::Element) = (self.src, nodes[i].kind) {
                // html5ever reports no end tags; an element whose content is directly followed
                // by `</name` takes it. Children come first, so nested same-name tags pair up.
                let name = match nodes[i].tag.static_name() {
                    Some(s) => s,
                    None => &self.dom.custom_tags[(nodes[i].tag.0 - Tag::FIRST_CUSTOM) as usize],
                };
                let e = nodes[i].span.end;
                if e != NONE && !name.is_empty() {
                    let rest = &src[(e as usize).min(src.len())..];
                    let k = name.len() + 2;
                    if rest.len() > k
                        && rest.starts_with(b"</")
                        && rest[2..k].eq_ignore_ascii_case(name.as_bytes())
                        && matches!(rest[k], b'>' | b' ' | b'\t' | b'\n' | b'\r')
                    {
                        let gt = memchr::memchr(b'>', rest).unwrap_or(rest.len() - 1);
                        nodes[i].span.end = e + gt as u32 + 1;
                    }
                }
            }
            let p = nodes[i].parent as usize;
            let (end, span) = (nodes[i].end, nodes[i].span);
            nodes[p].end = nodes[p].end.max(end);
            if nodes[p].kind == Kind::Element {
                let ps = &mut nodes[p].span;
                if span.start != NONE && ps.start == NONE {
                    // Implied element: starts where its first positioned descendant starts.
                    ps.start = span.start;
                } else if span.start != NONE && span.start < ps.start {
                    ps.start = span.start;
                }
                if span.end != NONE && (ps.end == NONE || span.end > ps.end) {
                    ps.end = span.end;
                }
            }
        }
        // Same-tag sibling indices: per parent, counters stamped with that parent, so each
        // child list is counted on its own (a nested same-tag subtree cannot reset them).
        let slots = tag::NAMES.len() + self.dom.custom_tags.len() + 3;
        let mut stamp = vec![(NONE, 0u32); slots];
        for p in 0..n {
            let mut c = nodes[p].first_child;
            while c != NONE {
                let node = &nodes[c as usize];
                let slot = match node.kind {
                    Kind::Element if node.tag.0 >= Tag::FIRST_CUSTOM => {
                        tag::NAMES.len() + (node.tag.0 - Tag::FIRST_CUSTOM) as usize
                    }
                    Kind::Element => node.tag.0 as usize,
                    Kind::Text => slots - 1,
                    Kind::Comment => slots - 2,
                    _ => slots - 3,
                };
                let s = &mut stamp[slot];
                if s.0 != p as u32 {
                    *s = (p as u32, 0);
                }
                s.1 += 1;
                let next = node.next_sibling;
                nodes[c as usize].nth = s.1;
                c = next;
            }
        }
        self.dom.source_len = source_len as u32;
        if !self.dom.markup_bytes.is_empty() {
            self.dom.markup_bytes.resize(n, 0);
        }
        self.dom
    }
}

#[cfg(test)]
mod title_tests {
    use super::close_unterminated_title;

    #[test]
    fn closes_only_an_unterminated_title() {
        let mut s =
            "<html><head><TITLE>News (Site)js();\n<script>x</script></head><body><p>Hi".to_string();
        assert!(close_unterminated_title(&mut s));
        assert_eq!(
            s,
            "<html><head><TITLE>News (Site)js();\n</title><script>x</script></head><body><p>Hi"
        );
        let closed = "<title>A</TITLE><p>b";
        let mut t = closed.to_string();
        assert!(!close_unterminated_title(&mut t));
        assert_eq!(t, closed);
        // A bogus end tag (a broken template's `</titlevalue=…`) does not end it: the title
        // closes before it, and the parser drops the stray end tag.
        let mut s =
            "<title>Bush to Saudis</titlevalue=\"true\" -->\n</head><body><h1>Bush".to_string();
        assert!(close_unterminated_title(&mut s));
        assert_eq!(
            s,
            "<title>Bush to Saudis</title></titlevalue=\"true\" -->\n</head><body><h1>Bush"
        );
        let dom = crate::dom::parse(&s, &crate::Limits::default()).unwrap();
        assert_eq!(dom.title(), Some("Bush to Saudis"));
        for closed in [
            "<title>A</title >b",
            "<title>A</title/>b",
            "<title>A</titlex></title>b",
        ] {
            let mut t = closed.to_string();
            assert!(!close_unterminated_title(&mut t), "{closed}");
        }
        for other in ["<titles>x<p>", "<p>no title", "<title>never ends"] {
            let mut t = other.to_string();
            assert!(!close_unterminated_title(&mut t));
            assert_eq!(t, other);
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::dom::parse;

    #[test]
    fn paths_and_structure() {
        let dom = parse(
            "<html><body><div>a</div><div><ul><li>x</li><li>y</li></ul></div></body></html>",
            &crate::Limits::default(),
        )
        .unwrap();
        let li: Vec<usize> = (0..dom.len())
            .filter(|&i| dom.tag_name(i) == "li")
            .collect();
        assert_eq!(dom.path(li[1]), "/html/body/div[2]/ul[1]/li[2]");
        assert_eq!(
            dom.path(li[1] + 1),
            "/html/body/div[2]/ul[1]/li[2]/text()[1]"
        );
        let ul = dom.parent(li[0]).unwrap();
        assert_eq!(dom.children(ul).collect::<Vec<_>>(), li);
        assert_eq!(dom.node(ul).end as usize, li[1] + 2);
        assert_eq!(dom.path(0), "/");
        // A nested same-tag subtree does not reset the count of its parent's siblings.
        let d = parse(
            "<body><div><div>a</div></div><div>b</div></body>",
            &crate::Limits::default(),
        )
        .unwrap();
        let b = (0..d.len()).find(|&i| d.text(i) == "b").unwrap();
        assert_eq!(d.path(b), "/html/body/div[2]/text()[1]");
    }
}
