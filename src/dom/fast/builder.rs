//! Tree construction: the WHATWG insertion modes over the tokens of [`super::tokenizer`], as
//! html5ever 0.40 implements them (its reference behaviour, down to its choices where the spec
//! moved on: the new `<select>` parsing without an "in select" mode, no annotation-xml HTML
//! integration point, scripting off so `<noscript>` holds markup).
//!
//! Nodes go into a linked arena first (the adoption agency and foster parenting move nodes and
//! insert before siblings), then [`Tree::into_dom`] lays them out in preorder. Every step is a
//! loop over the stack of open elements or the list of active formatting elements, never
//! recursion over the tree, so depth costs no stack.
//!
//! # Complexity
//! O(n) per page for the tree and text on the inputs real pages are made of. A token can cost
//! up to the depth of the stack of open elements (scope checks walk it down to the first
//! boundary, the adoption agency walks it), as in the spec; the scope checks first look at how
//! many elements of the wanted name are open, so a name not open costs O(1) (nested `<div>`s
//! are linear, where html5ever is quadratic).

use rustc_hash::FxHashMap;

use super::tokenizer::{Raw, Token, Tokenizer};
use crate::dom::tag::{self, Tag};
use crate::dom::tree::{
    attrs_source_bytes, comment_markup_bytes, element_markup_bytes, keep_attr, Builder, Dom, Kind,
    Span, NONE,
};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ns {
    Html,
    Svg,
    Math,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Mode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// A node while the tree is built: linked so the algorithms can move it.
#[derive(Clone)]
struct N {
    parent: u32,
    first: u32,
    last: u32,
    prev: u32,
    next: u32,
    kind: Kind,
    tag: Tag,
    ns: Ns,
    /// Element: range in `Tree::attrs`; text: first and last piece in `Tree::pieces`.
    data: (u32, u32),
    comment_len: u32,
    span: Span,
    /// Made for a start tag of the source (its span is that tag), not implied or cloned.
    explicit: bool,
    template: u32,
    attr_bytes: u32,
    /// On the stack of open elements.
    open: bool,
    /// Its index in the stack of open elements, while open.
    at: u32,
    /// The next open HTML element below it with the same tag ([`Tree::top_of`]), while open.
    below: u32,
}

impl N {
    fn new(kind: Kind) -> N {
        N {
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
            kind,
            tag: Tag::NONE,
            ns: Ns::Html,
            data: (0, 0),
            comment_len: 0,
            span: Span::UNKNOWN,
            explicit: false,
            template: NONE,
            attr_bytes: 0,
            open: false,
            at: 0,
            below: NONE,
        }
    }
}

/// An entry of the list of active formatting elements.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Fmt {
    Marker,
    /// The element and a hash of its tag and all its attributes (the Noah's Ark clause
    /// compares elements by name and attributes).
    El(u32, u64),
}

/// The tag token being processed (or one the rules make up: `</br>` as `<br>`, `<image>`).
#[derive(Clone, Copy)]
struct TagTok {
    tag: Tag,
    end: bool,
    self_closing: bool,
    /// Whether its attributes are the tokenizer's current ones (false: none).
    attrs: bool,
}

#[derive(Clone, Copy)]
enum Tk<'t> {
    Text(&'t str),
    Null,
    Comment(u32),
    Tag(TagTok),
    Eof,
}

/// Where a node goes.
#[derive(Clone, Copy)]
enum Place {
    Last(u32),
    /// Before the table if it has a parent, else last in `prev` (the element below it).
    Foster {
        table: u32,
        prev: u32,
    },
}

enum Flow {
    Done,
    Reprocess(Mode),
}

/// Names outside the static tag table that tree construction tests, interned per parse.
#[derive(Clone, Copy)]
struct Names {
    applet: Tag,
    basefont: Tag,
    bgsound: Tag,
    big: Tag,
    image: Tag,
    isindex: Tag,
    keygen: Tag,
    listing: Tag,
    plaintext: Tag,
    rb: Tag,
    rtc: Tag,
    mi: Tag,
    mo: Tag,
    mn: Tag,
    ms: Tag,
    mtext: Tag,
    annotation_xml: Tag,
    foreign_object: Tag,
    desc: Tag,
    mglyph: Tag,
    malignmark: Tag,
}

/// A stretch of the source as the html5ever sink feeds it (`crate::dom::sink`): from just after
/// one `>` to just after the next, the last one running to the end. `tag_start` is the last `<`
/// before `end` (`end` if there is none; the end for the last stretch).
#[derive(Clone, Copy, Default)]
struct Chunk {
    start: u32,
    tag_start: u32,
    end: u32,
}

impl Chunk {
    /// Where the sink ends a text node that text read in this chunk goes into: at the chunk's
    /// last `<` if it lies in the chunk, else at the chunk's end.
    fn text_end(self) -> u32 {
        if self.tag_start >= self.start {
            self.tag_start
        } else {
            self.end
        }
    }
}

/// Finds the [`Chunk`] of a position. The spans follow the html5ever sink's, which learns
/// positions by feeding html5ever one tag at a time: a node is positioned by the chunk it was
/// made in, not by its own bytes.
///
/// # Complexity
/// Positions asked for in source order (as tokens come): each byte is looked at by `memchr` at
/// most three times over the parse, and nothing is allocated. The one step back, a text
/// token's first run placed after its last byte (where text splits into runs), starts again
/// from the source's start, but its backward searches stop at the `>` and `<` of the markup
/// just before the token (such a token is a source slice between two tags), so it costs that
/// markup and the token once more: linear (`tests/parser.rs`, `growth_is_linear_with_source_spans`).
struct Chunks<'a> {
    src: &'a [u8],
    /// Where the first chunk starts (after a byte order mark).
    base: usize,
    cur: Chunk,
    /// `cur` is the last chunk, which runs to the end.
    last: bool,
    /// The last `<` before `cur.end`, `NONE` if none.
    last_lt: u32,
}

impl<'a> Chunks<'a> {
    fn new(src: &'a str) -> Chunks<'a> {
        let base = if src.starts_with('\u{feff}') { 3 } else { 0 };
        Chunks {
            src: src.as_bytes(),
            base,
            cur: Chunk {
                start: base as u32,
                tag_start: base as u32,
                end: base as u32,
            },
            last: false,
            last_lt: NONE,
        }
    }

    /// The chunk byte `p` is read in (the last chunk for `p` = the source's length).
    fn locate(&mut self, p: usize) -> Chunk {
        let c = self.cur;
        if p >= c.start as usize && (p < c.end as usize || self.last) {
            return c;
        }
        // The parser asks in source order; anything else starts again from the beginning.
        let from = if p < c.start as usize {
            self.last_lt = NONE;
            self.last = false;
            self.base
        } else {
            c.end as usize
        };
        let p = p.max(from);
        let start = memchr::memrchr(b'>', &self.src[from..p]).map_or(from, |k| from + k + 1);
        self.cur = match memchr::memchr(b'>', &self.src[p..]) {
            Some(k) => {
                let end = p + k + 1;
                if let Some(l) = memchr::memrchr(b'<', &self.src[from..end]) {
                    self.last_lt = (from + l) as u32;
                }
                Chunk {
                    start: start as u32,
                    tag_start: if self.last_lt == NONE {
                        end as u32
                    } else {
                        self.last_lt
                    },
                    end: end as u32,
                }
            }
            None => {
                self.last = true;
                let len = self.src.len() as u32;
                Chunk {
                    start: start as u32,
                    tag_start: len,
                    end: len,
                }
            }
        };
        self.cur
    }
}

/// The tree under construction and the parser state of the spec.
pub(crate) struct Tree<'a> {
    src: &'a str,
    nodes: Vec<N>,
    /// Kept attributes: (name range, value range) in `strings`.
    attrs: Vec<((u32, u32), (u32, u32))>,
    strings: String,
    /// Text pieces (start, end, next piece) in `text`: a text node appended to after other text
    /// was written gets a new piece instead of a copy.
    pieces: Vec<(u32, u32, u32)>,
    text: String,
    custom: Vec<Box<str>>,
    custom_map: FxHashMap<Box<str>, Tag>,
    names: Names,
    /// The topmost open HTML element per tag slot (see [`Tree::slot`]), NONE if none; the
    /// others of that tag follow through [`N::below`], so a name lookup on the stack is O(1).
    top_of: Vec<u32>,
    /// The same for open foreign (SVG, MathML) elements, by the slot of their lower-case name
    /// (what an end tag matches in foreign content).
    top_foreign: Vec<u32>,
    /// Adjusted SVG tag (`foreignObject`) → the lower-case tag it was adjusted from.
    lower: FxHashMap<Tag, Tag>,
    open: Vec<u32>,
    /// Per entry of `open`: where the nearest boundary of each scope lies at or below it, so
    /// that "in scope" is a comparison instead of a walk down the stack.
    bounds: Vec<Bounds>,
    fmt: Vec<Fmt>,
    mode: Mode,
    orig_mode: Mode,
    template_modes: Vec<Mode>,
    head: u32,
    form: u32,
    frameset_ok: bool,
    foster: bool,
    quirks: bool,
    ignore_lf: bool,
    pending: String,
    /// Where the html5ever sink would say the current token is (see [`Chunks`]).
    chunks: Chunks<'a>,
    /// The chunk the current token starts in: where its text nodes start and its elements'
    /// start tags are looked for.
    chunk: Chunk,
    /// Where a text node ends after the current token's text: the sink's end for the chunk of
    /// its last byte.
    text_end: u32,
    max_nodes: usize,
    pub(crate) overflow: bool,
    spans: bool,
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

fn all_ws(s: &str) -> bool {
    s.bytes()
        .all(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c'))
}

/// The local name of a foreign attribute the spec puts in a namespace (xlink:, xml:, xmlns),
/// which the arena does not keep.
fn foreign_attr_local(name: &str) -> Option<&str> {
    match name {
        "xlink:actuate" | "xlink:arcrole" | "xlink:href" | "xlink:role" | "xlink:show"
        | "xlink:title" | "xlink:type" => Some(&name[6..]),
        "xml:lang" | "xml:space" => Some(&name[4..]),
        "xmlns" => Some(name),
        "xmlns:xlink" => Some(&name[6..]),
        _ => None,
    }
}

/// SVG element names the spec gives their camel case back.
fn svg_tag_name(name: &str) -> &str {
    const TABLE: &[(&str, &str)] = &[
        ("altglyph", "altGlyph"),
        ("altglyphdef", "altGlyphDef"),
        ("altglyphitem", "altGlyphItem"),
        ("animatecolor", "animateColor"),
        ("animatemotion", "animateMotion"),
        ("animatetransform", "animateTransform"),
        ("clippath", "clipPath"),
        ("feblend", "feBlend"),
        ("fecolormatrix", "feColorMatrix"),
        ("fecomponenttransfer", "feComponentTransfer"),
        ("fecomposite", "feComposite"),
        ("feconvolvematrix", "feConvolveMatrix"),
        ("fediffuselighting", "feDiffuseLighting"),
        ("fedisplacementmap", "feDisplacementMap"),
        ("fedistantlight", "feDistantLight"),
        ("fedropshadow", "feDropShadow"),
        ("feflood", "feFlood"),
        ("fefunca", "feFuncA"),
        ("fefuncb", "feFuncB"),
        ("fefuncg", "feFuncG"),
        ("fefuncr", "feFuncR"),
        ("fegaussianblur", "feGaussianBlur"),
        ("feimage", "feImage"),
        ("femerge", "feMerge"),
        ("femergenode", "feMergeNode"),
        ("femorphology", "feMorphology"),
        ("feoffset", "feOffset"),
        ("fepointlight", "fePointLight"),
        ("fespecularlighting", "feSpecularLighting"),
        ("fespotlight", "feSpotLight"),
        ("fetile", "feTile"),
        ("feturbulence", "feTurbulence"),
        ("foreignobject", "foreignObject"),
        ("glyphref", "glyphRef"),
        ("lineargradient", "linearGradient"),
        ("radialgradient", "radialGradient"),
        ("textpath", "textPath"),
    ];
    TABLE
        .iter()
        .find(|(k, _)| *k == name)
        .map_or(name, |(_, v)| v)
}

impl<'a> Tree<'a> {
    pub(crate) fn new(src: &'a str, max_nodes: usize, spans: bool) -> Tree<'a> {
        let placeholder = Names {
            applet: Tag::NONE,
            basefont: Tag::NONE,
            bgsound: Tag::NONE,
            big: Tag::NONE,
            image: Tag::NONE,
            isindex: Tag::NONE,
            keygen: Tag::NONE,
            listing: Tag::NONE,
            plaintext: Tag::NONE,
            rb: Tag::NONE,
            rtc: Tag::NONE,
            mi: Tag::NONE,
            mo: Tag::NONE,
            mn: Tag::NONE,
            ms: Tag::NONE,
            mtext: Tag::NONE,
            annotation_xml: Tag::NONE,
            foreign_object: Tag::NONE,
            desc: Tag::NONE,
            mglyph: Tag::NONE,
            malignmark: Tag::NONE,
        };
        let mut t = Tree {
            src,
            // Sized from the source so that dense pages rarely grow them: a doubling copies
            // the whole buffer, while capacity never written costs no resident memory.
            nodes: Vec::with_capacity(src.len() / 32 + 16),
            attrs: Vec::with_capacity(src.len() / 64 + 16),
            strings: String::with_capacity(src.len() / 4),
            pieces: Vec::with_capacity(src.len() / 80 + 16),
            text: String::with_capacity(src.len() / 2),
            custom: Vec::new(),
            custom_map: FxHashMap::default(),
            names: placeholder,
            top_of: vec![NONE; tag::NAMES.len() + 32],
            top_foreign: vec![NONE; tag::NAMES.len() + 32],
            lower: FxHashMap::default(),
            open: Vec::new(),
            bounds: Vec::new(),
            fmt: Vec::new(),
            mode: Mode::Initial,
            orig_mode: Mode::InBody,
            template_modes: Vec::new(),
            head: NONE,
            form: NONE,
            frameset_ok: true,
            foster: false,
            quirks: false,
            ignore_lf: false,
            pending: String::new(),
            chunks: Chunks::new(src),
            chunk: Chunk::default(),
            text_end: 0,
            max_nodes,
            overflow: false,
            spans,
        };
        t.names = Names {
            applet: t.intern("applet"),
            basefont: t.intern("basefont"),
            bgsound: t.intern("bgsound"),
            big: t.intern("big"),
            image: t.intern("image"),
            isindex: t.intern("isindex"),
            keygen: t.intern("keygen"),
            listing: t.intern("listing"),
            plaintext: t.intern("plaintext"),
            rb: t.intern("rb"),
            rtc: t.intern("rtc"),
            mi: t.intern("mi"),
            mo: t.intern("mo"),
            mn: t.intern("mn"),
            ms: t.intern("ms"),
            mtext: t.intern("mtext"),
            annotation_xml: t.intern("annotation-xml"),
            foreign_object: t.intern("foreignObject"),
            desc: t.intern("desc"),
            mglyph: t.intern("mglyph"),
            malignmark: t.intern("malignmark"),
        };
        t.new_node(N::new(Kind::Document));
        t
    }

    /// The tag of a name: the static table's, or one interned for this parse.
    pub(crate) fn intern(&mut self, name: &str) -> Tag {
        if let Some(t) = tag::lookup(name) {
            return t;
        }
        if let Some(&t) = self.custom_map.get(name) {
            return t;
        }
        let k = self
            .custom
            .len()
            .min((u16::MAX - Tag::FIRST_CUSTOM) as usize);
        let t = Tag(Tag::FIRST_CUSTOM + k as u16);
        if k == self.custom.len() {
            self.custom.push(name.into());
            self.custom_map.insert(name.into(), t);
            self.top_of.push(NONE);
            self.top_foreign.push(NONE);
        }
        t
    }

    fn name_of(&self, t: Tag) -> &str {
        match t.static_name() {
            Some(s) => s,
            None => self
                .custom
                .get((t.0 - Tag::FIRST_CUSTOM) as usize)
                .map_or("", |s| s),
        }
    }

    fn slot(t: Tag) -> usize {
        if t.0 >= Tag::FIRST_CUSTOM {
            tag::NAMES.len() + 32 + (t.0 - Tag::FIRST_CUSTOM) as usize
        } else {
            t.0 as usize
        }
    }

    fn new_node(&mut self, n: N) -> u32 {
        if self.nodes.len() >= self.max_nodes {
            self.overflow = true;
        }
        self.nodes.push(n);
        (self.nodes.len() - 1) as u32
    }

    // ---- the linked tree ----

    fn append(&mut self, parent: u32, child: u32) {
        let last = self.nodes[parent as usize].last;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = last;
            c.next = NONE;
        }
        if last == NONE {
            self.nodes[parent as usize].first = child;
        } else {
            self.nodes[last as usize].next = child;
        }
        self.nodes[parent as usize].last = child;
    }

    fn insert_before(&mut self, sibling: u32, child: u32) {
        let (parent, prev) = {
            let s = &self.nodes[sibling as usize];
            (s.parent, s.prev)
        };
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = prev;
            c.next = sibling;
        }
        self.nodes[sibling as usize].prev = child;
        if prev == NONE {
            if parent != NONE {
                self.nodes[parent as usize].first = child;
            }
        } else {
            self.nodes[prev as usize].next = child;
        }
    }

    fn detach(&mut self, node: u32) {
        let (parent, prev, next) = {
            let n = &self.nodes[node as usize];
            (n.parent, n.prev, n.next)
        };
        if parent == NONE {
            return;
        }
        if prev == NONE {
            self.nodes[parent as usize].first = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NONE {
            self.nodes[parent as usize].last = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        let n = &mut self.nodes[node as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    fn reparent_children(&mut self, from: u32, to: u32) {
        let mut c = self.nodes[from as usize].first;
        while c != NONE {
            let next = self.nodes[c as usize].next;
            self.detach(c);
            self.append(to, c);
            c = next;
        }
    }

    fn text_node(&mut self, s: &str) -> u32 {
        let a = self.text.len() as u32;
        self.text.push_str(s);
        let p = self.pieces.len() as u32;
        self.pieces.push((a, self.text.len() as u32, NONE));
        let mut n = N::new(Kind::Text);
        n.data = (p, p);
        if self.spans {
            n.span = Span {
                start: self.chunk.start,
                end: self.text_end,
            };
        }
        self.new_node(n)
    }

    /// Appends `s` to text node `node`; `widen`: its span takes the current token's end too
    /// (the sink widens it when the text goes last, not when it goes before a sibling).
    fn extend_text(&mut self, node: u32, s: &str, widen: bool) {
        let last = self.nodes[node as usize].data.1 as usize;
        if self.pieces[last].1 as usize == self.text.len() {
            self.text.push_str(s);
            self.pieces[last].1 = self.text.len() as u32;
        } else {
            let a = self.text.len() as u32;
            self.text.push_str(s);
            let p = self.pieces.len() as u32;
            self.pieces.push((a, self.text.len() as u32, NONE));
            self.pieces[last].2 = p;
            self.nodes[node as usize].data.1 = p;
        }
        if self.spans && widen {
            let n = &mut self.nodes[node as usize];
            n.span.end = n.span.end.max(self.text_end);
        }
    }

    // ---- insertion ----

    fn is(&self, n: u32, t: Tag) -> bool {
        let n = &self.nodes[n as usize];
        n.ns == Ns::Html && n.tag == t
    }

    fn html_tag(&self, n: u32) -> Option<Tag> {
        let n = &self.nodes[n as usize];
        (n.ns == Ns::Html).then_some(n.tag)
    }

    fn cur(&self) -> u32 {
        self.open.last().copied().unwrap_or(0)
    }

    fn template_contents(&self, n: u32) -> u32 {
        match self.nodes[n as usize].template {
            NONE => n,
            t => t,
        }
    }

    /// The appropriate place for inserting a node, foster parenting included.
    fn place(&self, target: Option<u32>) -> Place {
        let target = target.unwrap_or_else(|| self.cur());
        let foster_target = matches!(
            self.html_tag(target),
            Some(Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR)
        );
        if !(self.foster && foster_target) {
            return Place::Last(self.template_contents(target));
        }
        // The topmost open template or table, whichever is higher: O(1) from the chains.
        let (template, table) = (self.top_open(Tag::TEMPLATE), self.top_open(Tag::TABLE));
        let at = |e: u32| (e != NONE).then(|| self.nodes[e as usize].at);
        match (at(template), at(table)) {
            (Some(a), b) if b.is_none_or(|b| a > b) => {
                Place::Last(self.template_contents(template))
            }
            (_, Some(i)) => Place::Foster {
                table,
                prev: self.open[(i as usize).saturating_sub(1)],
            },
            _ => Place::Last(self.open.first().copied().unwrap_or(0)),
        }
    }

    fn insert_node_at(&mut self, place: Place, child: u32) {
        match place {
            Place::Last(p) => self.append(p, child),
            Place::Foster { table, prev } => {
                if self.nodes[table as usize].parent != NONE {
                    self.detach(child);
                    self.insert_before(table, child);
                } else {
                    self.append(prev, child);
                }
            }
        }
    }

    fn insert_text_at(&mut self, place: Place, s: &str) {
        let (parent, before) = match place {
            Place::Last(p) => (p, NONE),
            Place::Foster { table, prev } => {
                if self.nodes[table as usize].parent != NONE {
                    (self.nodes[table as usize].parent, table)
                } else {
                    (prev, NONE)
                }
            }
        };
        let last = if before == NONE {
            self.nodes[parent as usize].last
        } else {
            self.nodes[before as usize].prev
        };
        if last != NONE && self.nodes[last as usize].kind == Kind::Text {
            self.extend_text(last, s, before == NONE);
            return;
        }
        let t = self.text_node(s);
        if before == NONE {
            self.append(parent, t);
        } else {
            self.insert_before(before, t);
        }
    }

    fn append_text(&mut self, s: &str) {
        if s.is_empty() {
            return;
        }
        let place = self.place(None);
        self.insert_text_at(place, s);
    }

    fn comment(&mut self, len: u32) -> u32 {
        let mut n = N::new(Kind::Comment);
        n.comment_len = len;
        self.new_node(n)
    }

    fn append_comment(&mut self, len: u32) {
        let c = self.comment(len);
        let place = self.place(None);
        self.insert_node_at(place, c);
    }

    /// Creates an element for `t` (its attributes from the tokenizer when `t.attrs`).
    fn create(&mut self, tok: &Tokenizer, t: TagTok, ns: Ns) -> u32 {
        let mut n = N::new(Kind::Element);
        n.tag = t.tag;
        n.ns = ns;
        let from = self.attrs.len() as u32;
        if t.attrs {
            let mut bytes = 0u32;
            for &a in &tok.attrs {
                let (name, value) = tok.attr(a);
                let (local, namespaced) = match ns {
                    Ns::Html => (name, false),
                    _ => match foreign_attr_local(name) {
                        Some(l) => (l, true),
                        None => (name, false),
                    },
                };
                bytes = bytes.saturating_add(attrs_source_bytes(std::iter::once((local, value))));
                if !namespaced && keep_attr(name) {
                    let n0 = self.strings.len() as u32;
                    self.strings.push_str(name);
                    let n1 = self.strings.len() as u32;
                    self.strings.push_str(value);
                    let v1 = self.strings.len() as u32;
                    self.attrs.push(((n0, n1), (n1, v1)));
                }
            }
            n.attr_bytes = bytes;
        }
        n.data = (from, self.attrs.len() as u32);
        self.locate_start_tag(&mut n);
        let id = self.new_node(n);
        if ns == Ns::Html && t.tag == Tag::TEMPLATE {
            let frag = self.new_node(N::new(Kind::Document));
            self.nodes[id as usize].template = frag;
        }
        id
    }

    /// A new element with the name and attributes of `old` (the formatting elements' clones).
    fn clone_element(&mut self, old: u32) -> u32 {
        let o = &self.nodes[old as usize];
        let mut n = N::new(Kind::Element);
        n.tag = o.tag;
        n.ns = o.ns;
        n.attr_bytes = o.attr_bytes;
        let (a0, a1) = o.data;
        let from = self.attrs.len() as u32;
        for k in a0..a1 {
            let a = self.attrs[k as usize];
            self.attrs.push(a);
        }
        n.data = (from, self.attrs.len() as u32);
        self.locate_start_tag(&mut n);
        self.new_node(n)
    }

    /// Gives a new element the current chunk's tag as its span when that tag is a start tag of
    /// its name, as the html5ever sink does (it knows no better: a formatting element cloned at
    /// a start tag of its own name gets that tag, one cloned anywhere else no span of its own).
    fn locate_start_tag(&self, n: &mut N) {
        if !self.spans {
            return;
        }
        let c = self.chunk;
        let rest = &self.src.as_bytes()[(c.tag_start as usize).min(self.src.len())..];
        let name = self.name_of(n.tag).as_bytes();
        let k = name.len() + 1;
        if rest.len() >= k
            && rest[0] == b'<'
            && rest[1..k].eq_ignore_ascii_case(name)
            && rest
                .get(k)
                .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'))
        {
            n.span = Span {
                start: c.tag_start,
                end: c.end,
            };
            n.explicit = true;
        }
    }

    /// Adds the token's kept attributes that `node` lacks (`<html>`, `<body>` again).
    fn add_attrs_if_missing(&mut self, tok: &Tokenizer, node: u32) {
        let (old0, old1) = self.nodes[node as usize].data;
        let from = self.attrs.len() as u32;
        if old1 > old0 && old1 != from {
            for k in old0..old1 {
                let a = self.attrs[k as usize];
                self.attrs.push(a);
            }
        }
        let start = if old1 > old0 && old1 == from {
            old0
        } else {
            from
        };
        for &a in &tok.attrs {
            let (name, value) = tok.attr(a);
            if !keep_attr(name) {
                continue;
            }
            let exists = self.attrs[start as usize..]
                .iter()
                .any(|&(k, _)| &self.strings[k.0 as usize..k.1 as usize] == name);
            if exists {
                continue;
            }
            let n0 = self.strings.len() as u32;
            self.strings.push_str(name);
            let n1 = self.strings.len() as u32;
            self.strings.push_str(value);
            let v1 = self.strings.len() as u32;
            self.attrs.push(((n0, n1), (n1, v1)));
        }
        self.nodes[node as usize].data = (start, self.attrs.len() as u32);
    }

    fn insert_element(&mut self, tok: &Tokenizer, t: TagTok, ns: Ns, push: bool) -> u32 {
        let place = self.place(None);
        let e = self.create(tok, t, ns);
        self.insert_node_at(place, e);
        if push {
            self.push(e);
        }
        e
    }

    fn insert_html(&mut self, tok: &Tokenizer, t: TagTok) -> u32 {
        self.insert_element(tok, t, Ns::Html, true)
    }

    fn insert_void(&mut self, tok: &Tokenizer, t: TagTok) -> u32 {
        self.insert_element(tok, t, Ns::Html, false)
    }

    fn insert_phantom(&mut self, tok: &Tokenizer, tag: Tag) -> u32 {
        let t = TagTok {
            tag,
            end: false,
            self_closing: false,
            attrs: false,
        };
        self.insert_html(tok, t)
    }

    // ---- the stack of open elements ----

    /// The boundaries at stack index `i` for element `e`, given those below it.
    fn bounds_at(&self, i: usize, e: u32) -> Bounds {
        let below = if i == 0 {
            Bounds::default()
        } else {
            self.bounds[i - 1]
        };
        let here = i as u32 + 1;
        let pick = |is: bool, b: u32| if is { here } else { b };
        let default = self.default_scope(e);
        let special = self.special(e);
        let tag = self.html_tag(e);
        Bounds {
            default: pick(default, below.default),
            list_item: pick(
                default || matches!(tag, Some(Tag::OL | Tag::UL)),
                below.list_item,
            ),
            button: pick(default || tag == Some(Tag::BUTTON), below.button),
            table: pick(
                matches!(tag, Some(Tag::HTML | Tag::TABLE | Tag::TEMPLATE)),
                below.table,
            ),
            special: pick(special, below.special),
            html: pick(self.nodes[e as usize].ns == Ns::Html, below.html),
            special_but_adp: pick(
                special && !matches!(tag, Some(Tag::ADDRESS | Tag::DIV | Tag::P)),
                below.special_but_adp,
            ),
        }
    }

    /// Recomputes stack indices and boundaries from stack index `from` up, after an insertion
    /// or removal there: O(elements above `from`), as the `Vec` shift itself.
    fn restack_from(&mut self, from: usize) {
        self.bounds.truncate(from);
        for i in from..self.open.len() {
            let e = self.open[i];
            self.nodes[e as usize].at = i as u32;
            let b = self.bounds_at(i, e);
            self.bounds.push(b);
        }
    }

    /// The chain `e` belongs to: (foreign, slot).
    fn chain(&self, e: u32) -> (bool, usize) {
        let n = &self.nodes[e as usize];
        if n.ns == Ns::Html {
            (false, Self::slot(n.tag))
        } else {
            let lc = self.lower.get(&n.tag).copied().unwrap_or(n.tag);
            (true, Self::slot(lc))
        }
    }

    fn head(&mut self, (foreign, s): (bool, usize)) -> &mut u32 {
        if foreign {
            &mut self.top_foreign[s]
        } else {
            &mut self.top_of[s]
        }
    }

    /// Links open element `e` into its tag's chain, in stack order (its `at` is set).
    fn link(&mut self, e: u32) {
        let chain = self.chain(e);
        let at = self.nodes[e as usize].at;
        let mut prev = NONE;
        let mut cur = *self.head(chain);
        while cur != NONE && self.nodes[cur as usize].at > at {
            prev = cur;
            cur = self.nodes[cur as usize].below;
        }
        self.nodes[e as usize].below = cur;
        if prev == NONE {
            *self.head(chain) = e;
        } else {
            self.nodes[prev as usize].below = e;
        }
    }

    /// Unlinks open element `e` from its tag's chain: O(1) for the topmost of its tag, else
    /// O(open elements of that tag above it).
    fn unlink(&mut self, e: u32) {
        let chain = self.chain(e);
        let below = self.nodes[e as usize].below;
        let mut cur = *self.head(chain);
        if cur == e {
            *self.head(chain) = below;
            return;
        }
        while cur != NONE {
            let next = self.nodes[cur as usize].below;
            if next == e {
                self.nodes[cur as usize].below = below;
                return;
            }
            cur = next;
        }
    }

    fn push(&mut self, e: u32) {
        let i = self.open.len();
        self.open.push(e);
        let b = self.bounds_at(i, e);
        self.bounds.push(b);
        let n = &mut self.nodes[e as usize];
        n.open = true;
        n.at = i as u32;
        self.link(e);
    }

    /// Inserts `e` into the stack at index `i`.
    fn insert_open_at(&mut self, i: usize, e: u32) {
        self.open.insert(i, e);
        self.nodes[e as usize].open = true;
        self.restack_from(i);
        self.link(e);
    }

    /// Replaces the stack entry at `i` with `e`, an element of the same tag and namespace.
    fn replace_open_at(&mut self, i: usize, e: u32) {
        let old = self.open[i];
        self.unlink(old);
        self.nodes[old as usize].open = false;
        self.open[i] = e;
        let n = &mut self.nodes[e as usize];
        n.open = true;
        n.at = i as u32;
        self.link(e);
    }

    fn pop(&mut self) -> u32 {
        match self.open.pop() {
            Some(e) => {
                self.bounds.pop();
                self.unlink(e);
                self.nodes[e as usize].open = false;
                e
            }
            None => NONE,
        }
    }

    fn truncate(&mut self, len: usize) {
        while self.open.len() > len {
            self.pop();
        }
    }

    fn remove_open_at(&mut self, i: usize) {
        let e = self.open[i];
        self.unlink(e);
        self.nodes[e as usize].open = false;
        self.open.remove(i);
        self.restack_from(i);
    }

    fn remove_from_stack(&mut self, e: u32) {
        if !self.nodes[e as usize].open {
            return;
        }
        let i = self.nodes[e as usize].at as usize;
        self.remove_open_at(i);
    }

    /// The topmost open HTML element named `t`, NONE if none.
    fn top_open(&self, t: Tag) -> u32 {
        self.top_of[Self::slot(t)]
    }

    fn any_open(&self, t: Tag) -> bool {
        self.top_open(t) != NONE
    }

    fn cur_is(&self, t: Tag) -> bool {
        self.is(self.cur(), t)
    }

    fn math_text_point(&self, n: &N) -> bool {
        let x = self.names;
        n.ns == Ns::Math && [x.mi, x.mo, x.mn, x.ms, x.mtext].contains(&n.tag)
    }

    fn svg_html_point(&self, n: &N) -> bool {
        n.ns == Ns::Svg
            && (n.tag == self.names.foreign_object
                || n.tag == self.names.desc
                || n.tag == Tag::TITLE)
    }

    fn default_scope(&self, e: u32) -> bool {
        let n = &self.nodes[e as usize];
        match n.ns {
            Ns::Html => {
                matches!(
                    n.tag,
                    Tag::CAPTION
                        | Tag::HTML
                        | Tag::TABLE
                        | Tag::TD
                        | Tag::TH
                        | Tag::MARQUEE
                        | Tag::OBJECT
                        | Tag::SELECT
                        | Tag::TEMPLATE
                ) || n.tag == self.names.applet
            }
            _ => self.math_text_point(n) || self.svg_html_point(n),
        }
    }

    /// The stack index + 1 of the topmost boundary of `scope` (0: none), from the cached
    /// [`Bounds`] of the current node.
    fn bound(&self, scope: Scope) -> u32 {
        let Some(b) = self.bounds.last() else {
            return 0;
        };
        match scope {
            Scope::Default => b.default,
            Scope::ListItem => b.list_item,
            Scope::Button => b.button,
            Scope::Table => b.table,
        }
    }

    /// Whether open element `e` is in `scope`: the spec's walk down from the current node
    /// meets `e` before (or at) the first boundary. O(1).
    fn node_in_scope(&self, scope: Scope, e: u32) -> bool {
        let n = &self.nodes[e as usize];
        n.open && n.at + 1 >= self.bound(scope)
    }

    /// Whether an HTML element named `t` is in `scope`: its topmost one is. O(1).
    fn in_scope_named(&self, scope: Scope, t: Tag) -> bool {
        let e = self.top_open(t);
        e != NONE && self.node_in_scope(scope, e)
    }

    /// Whether an HTML element with one of the names `ts` is in `scope`. O(`ts.len()`).
    fn in_scope_any(&self, scope: Scope, ts: &[Tag]) -> bool {
        ts.iter().any(|&t| self.in_scope_named(scope, t))
    }

    fn special(&self, e: u32) -> bool {
        let n = &self.nodes[e as usize];
        if n.ns != Ns::Html {
            return false;
        }
        let x = self.names;
        matches!(
            n.tag,
            Tag::ADDRESS
                | Tag::AREA
                | Tag::ARTICLE
                | Tag::ASIDE
                | Tag::BASE
                | Tag::BLOCKQUOTE
                | Tag::BODY
                | Tag::BR
                | Tag::BUTTON
                | Tag::CAPTION
                | Tag::CENTER
                | Tag::COL
                | Tag::COLGROUP
                | Tag::DD
                | Tag::DETAILS
                | Tag::DIR
                | Tag::DIV
                | Tag::DL
                | Tag::DT
                | Tag::EMBED
                | Tag::FIELDSET
                | Tag::FIGCAPTION
                | Tag::FIGURE
                | Tag::FOOTER
                | Tag::FORM
                | Tag::FRAME
                | Tag::FRAMESET
                | Tag::H1
                | Tag::H2
                | Tag::H3
                | Tag::H4
                | Tag::H5
                | Tag::H6
                | Tag::HEAD
                | Tag::HEADER
                | Tag::HGROUP
                | Tag::HR
                | Tag::HTML
                | Tag::IFRAME
                | Tag::IMG
                | Tag::INPUT
                | Tag::LI
                | Tag::LINK
                | Tag::MAIN
                | Tag::MARQUEE
                | Tag::MENU
                | Tag::META
                | Tag::NAV
                | Tag::NOEMBED
                | Tag::NOFRAMES
                | Tag::NOSCRIPT
                | Tag::OBJECT
                | Tag::OL
                | Tag::P
                | Tag::PARAM
                | Tag::PRE
                | Tag::SCRIPT
                | Tag::SECTION
                | Tag::SELECT
                | Tag::SOURCE
                | Tag::STYLE
                | Tag::SUMMARY
                | Tag::TABLE
                | Tag::TBODY
                | Tag::TD
                | Tag::TEMPLATE
                | Tag::TEXTAREA
                | Tag::TFOOT
                | Tag::TH
                | Tag::THEAD
                | Tag::TITLE
                | Tag::TR
                | Tag::TRACK
                | Tag::UL
                | Tag::WBR
                | Tag::XMP
        ) || [
            x.applet,
            x.basefont,
            x.bgsound,
            x.isindex,
            x.listing,
            x.plaintext,
        ]
        .contains(&n.tag)
    }

    fn cursory_implied(&self, e: u32) -> bool {
        match self.html_tag(e) {
            Some(t) => {
                matches!(
                    t,
                    Tag::DD
                        | Tag::DT
                        | Tag::LI
                        | Tag::OPTION
                        | Tag::OPTGROUP
                        | Tag::P
                        | Tag::RP
                        | Tag::RT
                ) || t == self.names.rb
                    || t == self.names.rtc
            }
            None => false,
        }
    }

    fn thorough_implied(&self, e: u32) -> bool {
        self.cursory_implied(e)
            || matches!(
                self.html_tag(e),
                Some(
                    Tag::CAPTION
                        | Tag::COLGROUP
                        | Tag::TBODY
                        | Tag::TD
                        | Tag::TFOOT
                        | Tag::TH
                        | Tag::THEAD
                        | Tag::TR
                )
            )
    }

    fn generate_implied_end(&mut self, except: Option<Tag>) {
        while let Some(&e) = self.open.last() {
            if !self.cursory_implied(e) || except.is_some_and(|t| self.is(e, t)) {
                return;
            }
            self.pop();
        }
    }

    /// Pops up to and including the HTML element named `t` (or everything).
    fn pop_until(&mut self, t: Tag) {
        while let Some(e) = self.open.last().copied() {
            self.pop();
            if self.is(e, t) {
                return;
            }
        }
    }

    fn pop_until_heading(&mut self) {
        while let Some(e) = self.open.last().copied() {
            self.pop();
            if matches!(
                self.html_tag(e),
                Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
            ) {
                return;
            }
        }
    }

    fn pop_until_cell(&mut self) {
        while let Some(e) = self.open.last().copied() {
            self.pop();
            if matches!(self.html_tag(e), Some(Tag::TD | Tag::TH)) {
                return;
            }
        }
    }

    /// Pops until the current node is one of `tags` (HTML).
    fn pop_until_current(&mut self, tags: &[Tag]) {
        while let Some(&e) = self.open.last() {
            if self.html_tag(e).is_some_and(|t| tags.contains(&t)) {
                return;
            }
            self.pop();
        }
    }

    fn close_p(&mut self) {
        while let Some(&e) = self.open.last() {
            if self.is(e, Tag::P) || !self.cursory_implied(e) {
                break;
            }
            self.pop();
        }
        self.pop_until(Tag::P);
    }

    fn close_p_in_button_scope(&mut self) {
        if self.in_scope_named(Scope::Button, Tag::P) {
            self.close_p();
        }
    }

    fn close_cell(&mut self) {
        self.generate_implied_end(None);
        self.pop_until_cell();
        self.clear_fmt_to_marker();
    }

    fn reset_mode(&self) -> Mode {
        for (i, &e) in self.open.iter().enumerate().rev() {
            let last = i == 0;
            let Some(t) = self.html_tag(e) else { continue };
            match t {
                Tag::TD | Tag::TH if !last => return Mode::InCell,
                Tag::TR => return Mode::InRow,
                Tag::TBODY | Tag::THEAD | Tag::TFOOT => return Mode::InTableBody,
                Tag::CAPTION => return Mode::InCaption,
                Tag::COLGROUP => return Mode::InColumnGroup,
                Tag::TABLE => return Mode::InTable,
                Tag::TEMPLATE => return *self.template_modes.last().unwrap_or(&Mode::InBody),
                Tag::HEAD if !last => return Mode::InHead,
                Tag::BODY => return Mode::InBody,
                Tag::FRAMESET => return Mode::InFrameset,
                Tag::HTML => {
                    return if self.head == NONE {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    }
                }
                _ => {}
            }
        }
        Mode::InBody
    }

    // ---- active formatting elements ----

    fn fmt_index(&self, e: u32) -> Option<usize> {
        self.fmt
            .iter()
            .rposition(|&f| matches!(f, Fmt::El(x, _) if x == e))
    }

    fn clear_fmt_to_marker(&mut self) {
        while let Some(f) = self.fmt.pop() {
            if f == Fmt::Marker {
                break;
            }
        }
    }

    fn reconstruct(&mut self) {
        let Some(&last) = self.fmt.last() else {
            return;
        };
        let open_or_marker = |s: &Self, f: Fmt| match f {
            Fmt::Marker => true,
            Fmt::El(e, _) => s.nodes[e as usize].open,
        };
        if open_or_marker(self, last) {
            return;
        }
        let mut i = self.fmt.len() - 1;
        loop {
            if i == 0 {
                break;
            }
            i -= 1;
            if open_or_marker(self, self.fmt[i]) {
                i += 1;
                break;
            }
        }
        while let Fmt::El(old, key) = self.fmt[i] {
            let place = self.place(None);
            let e = self.clone_element(old);
            self.insert_node_at(place, e);
            self.push(e);
            self.fmt[i] = Fmt::El(e, key);
            if i == self.fmt.len() - 1 {
                break;
            }
            i += 1;
        }
    }

    /// Hash of a tag and its attributes, whatever their order.
    fn attrs_key(tok: &Tokenizer, t: TagTok) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut sum = t.tag.0 as u64;
        if t.attrs {
            for &a in &tok.attrs {
                let mut h = rustc_hash::FxHasher::default();
                tok.attr(a).hash(&mut h);
                sum = sum.wrapping_add(h.finish().wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
            }
            sum = sum.wrapping_add((tok.attrs.len() as u64) << 48);
        }
        sum
    }

    fn push_formatting(&mut self, tok: &Tokenizer, t: TagTok) {
        let key = Self::attrs_key(tok, t);
        let mut first = None;
        let mut matches = 0;
        for i in (0..self.fmt.len()).rev() {
            match self.fmt[i] {
                Fmt::Marker => break,
                Fmt::El(e, k) => {
                    if k == key && self.nodes[e as usize].tag == t.tag {
                        first = Some(i);
                        matches += 1;
                    }
                }
            }
        }
        if matches >= 3 {
            if let Some(i) = first {
                self.fmt.remove(i);
            }
        }
        let e = self.insert_html(tok, t);
        self.fmt.push(Fmt::El(e, key));
    }

    /// The adoption agency algorithm for the end tag `subject`, as html5ever runs it.
    fn adoption_agency(&mut self, subject: Tag) {
        let cur = self.cur();
        if self.is(cur, subject) && self.fmt_index(cur).is_none() {
            self.pop();
            return;
        }
        for _ in 0..8 {
            let mut found = None;
            for i in (0..self.fmt.len()).rev() {
                match self.fmt[i] {
                    Fmt::Marker => break,
                    Fmt::El(e, k) if self.nodes[e as usize].tag == subject => {
                        found = Some((i, e, k));
                        break;
                    }
                    _ => {}
                }
            }
            let Some((fi, fe, fkey)) = found else {
                self.end_tag_in_body(subject);
                return;
            };
            let si = if self.nodes[fe as usize].open {
                Some(self.nodes[fe as usize].at as usize)
            } else {
                None
            };
            let Some(si) = si else {
                self.fmt.remove(fi);
                return;
            };
            if !self.node_in_scope(Scope::Default, fe) {
                return;
            }
            let Some(fbi) = (si..self.open.len()).find(|&i| self.special(self.open[i])) else {
                self.truncate(si);
                self.fmt.remove(fi);
                return;
            };
            let fb = self.open[fbi];
            let common = self.open[si - 1];
            // The bookmark: replace the formatting element's entry, or go after this node's.
            let mut after: Option<u32> = None;
            let mut node_index = fbi;
            let mut last_node = fb;
            let mut inner = 0;
            loop {
                inner += 1;
                node_index -= 1;
                let node = self.open[node_index];
                if node == fe {
                    break;
                }
                if inner > 3 {
                    if let Some(p) = self.fmt_index(node) {
                        self.fmt.remove(p);
                    }
                    self.remove_open_at(node_index);
                    continue;
                }
                let Some(nfi) = self.fmt_index(node) else {
                    self.remove_open_at(node_index);
                    continue;
                };
                let Fmt::El(_, key) = self.fmt[nfi] else {
                    break;
                };
                let new = self.clone_element(node);
                self.replace_open_at(node_index, new);
                self.fmt[nfi] = Fmt::El(new, key);
                if last_node == fb {
                    after = Some(new);
                }
                self.detach(last_node);
                self.append(new, last_node);
                last_node = new;
            }
            self.detach(last_node);
            let place = self.place(Some(common));
            self.insert_node_at(place, last_node);
            let new = self.clone_element(fe);
            self.reparent_children(fb, new);
            self.append(fb, new);
            match after {
                None => {
                    if let Some(i) = self.fmt_index(fe) {
                        self.fmt[i] = Fmt::El(new, fkey);
                    }
                }
                Some(prev) => {
                    if let Some(i) = self.fmt_index(prev) {
                        self.fmt.insert(i + 1, Fmt::El(new, fkey));
                    }
                    if let Some(old) = self.fmt_index(fe) {
                        self.fmt.remove(old);
                    }
                }
            }
            self.remove_from_stack(fe);
            if self.nodes[fb as usize].open {
                let p = self.nodes[fb as usize].at as usize;
                self.insert_open_at(p + 1, new);
            }
        }
    }

    /// "Any other end tag" in body.
    fn end_tag_in_body(&mut self, t: Tag) {
        // The spec walks down to the topmost element named `t` and gives up at a special
        // element above it: both are cached, so this is O(1).
        let e = self.top_open(t);
        if e == NONE {
            return;
        }
        let i = self.nodes[e as usize].at as usize;
        if self.bounds.last().map_or(0, |b| b.special) > i as u32 + 1 {
            return;
        }
        self.generate_implied_end(Some(t));
        self.truncate(i);
    }

    // ---- the driver's entry points ----

    /// Processes one token from `tok`; returns the raw state the tokenizer must switch to.
    pub(crate) fn process(&mut self, tok: &Tokenizer, token: Token) -> Option<Raw> {
        if self.spans {
            let (a, b) = tok.span;
            let last = if b > a { b - 1 } else { a };
            if matches!(token, Token::Text | Token::Null) {
                // Text is handed over as it is read, so its node starts where its first byte
                // is read, and ends where its last is.
                self.chunk = self.chunks.locate(a);
                self.text_end = self.chunks.locate(last).text_end();
            } else {
                // Markup is handed over once its last byte is read.
                self.chunk = self.chunks.locate(last);
                self.text_end = self.chunk.text_end();
            }
        }
        let ignore_lf = std::mem::take(&mut self.ignore_lf);
        let tk = match token {
            Token::Doctype => {
                if self.mode == Mode::Initial {
                    let n = self.new_node(N::new(Kind::Doctype));
                    self.append(0, n);
                    self.quirks = doctype_quirks(&tok.doctype);
                    self.mode = Mode::BeforeHtml;
                }
                return None;
            }
            Token::Text => {
                let mut s = tok.text();
                if ignore_lf && s.starts_with('\n') {
                    s = &s[1..];
                }
                if s.is_empty() {
                    return None;
                }
                return self.process_text(tok, s);
            }
            Token::Null => Tk::Null,
            Token::Comment(n) => Tk::Comment(n),
            Token::Start | Token::End => {
                let name = tok.name();
                let tag = self.intern(name);
                Tk::Tag(TagTok {
                    tag,
                    end: token == Token::End,
                    self_closing: tok.self_closing,
                    attrs: token == Token::Start,
                })
            }
            Token::Eof => Tk::Eof,
        };
        self.dispatch(tok, tk)
    }

    /// Text in the modes that split it into runs of whitespace and the rest.
    fn process_text(&mut self, tok: &Tokenizer, s: &str) -> Option<Raw> {
        let mut rest = s;
        while !rest.is_empty() {
            let splits = !self.is_foreign(Tk::Text(rest))
                && matches!(
                    self.mode,
                    Mode::Initial
                        | Mode::BeforeHtml
                        | Mode::BeforeHead
                        | Mode::InHead
                        | Mode::InHeadNoscript
                        | Mode::AfterHead
                        | Mode::InColumnGroup
                        | Mode::AfterBody
                        | Mode::InFrameset
                        | Mode::AfterFrameset
                        | Mode::AfterAfterBody
                        | Mode::AfterAfterFrameset
                );
            if !splits {
                if rest.len() < s.len() {
                    self.locate_run(rest);
                }
                return self.dispatch(tok, Tk::Text(rest));
            }
            let ws = rest.starts_with(is_ws);
            let k = rest.find(|c: char| is_ws(c) != ws).unwrap_or(rest.len());
            let (run, tail) = rest.split_at(k);
            self.locate_run(run);
            self.dispatch(tok, Tk::Text(run));
            rest = tail;
        }
        None
    }

    /// Positions a run of a text token that is a slice of the source (not decoded) by its own
    /// bytes: the sink, fed the token in chunks, makes each run's node in the chunk the run is
    /// read in, so whitespace that goes in the head ends where its chunk does, not where the
    /// whole token does.
    fn locate_run(&mut self, run: &str) {
        let at = (run.as_ptr() as usize).wrapping_sub(self.src.as_ptr() as usize);
        if !self.spans || run.is_empty() || at >= self.src.len() {
            return;
        }
        self.chunk = self.chunks.locate(at);
        self.text_end = self.chunks.locate(at + run.len() - 1).text_end();
    }

    fn is_foreign(&self, tk: Tk) -> bool {
        if matches!(tk, Tk::Eof) || self.open.is_empty() {
            return false;
        }
        let n = &self.nodes[self.cur() as usize];
        if n.ns == Ns::Html {
            return false;
        }
        let start = match tk {
            Tk::Tag(t) if !t.end => Some(t.tag),
            _ => None,
        };
        let chars = matches!(tk, Tk::Text(_) | Tk::Null);
        if self.math_text_point(n) {
            if chars {
                return false;
            }
            if let Some(t) = start {
                if t != self.names.mglyph && t != self.names.malignmark {
                    return false;
                }
            }
        }
        if self.svg_html_point(n) && (chars || start.is_some()) {
            return false;
        }
        if n.ns == Ns::Math && n.tag == self.names.annotation_xml && start == Some(Tag::SVG) {
            return false;
        }
        true
    }

    /// Runs a token through the rules until it is consumed.
    fn dispatch(&mut self, tok: &Tokenizer, tk: Tk) -> Option<Raw> {
        // Each reprocessing moves on through the modes; the bound only guards against a cycle.
        for _ in 0..64 {
            let flow = if self.is_foreign(tk) {
                self.step_foreign(tok, tk)
            } else {
                self.step(tok, self.mode, tk)
            };
            match flow {
                (Flow::Done, raw) => return raw,
                (Flow::Reprocess(m), _) => self.mode = m,
            }
        }
        None
    }

    /// Whether the adjusted current node is foreign (where `<![CDATA[` opens a section).
    pub(crate) fn in_foreign(&self) -> bool {
        !self.open.is_empty() && self.nodes[self.cur() as usize].ns != Ns::Html
    }

    fn insert_raw(&mut self, tok: &Tokenizer, t: TagTok, raw: Raw) -> (Flow, Option<Raw>) {
        self.insert_html(tok, t);
        self.orig_mode = self.mode;
        self.mode = Mode::Text;
        (Flow::Done, Some(raw))
    }

    fn step(&mut self, tok: &Tokenizer, mode: Mode, tk: Tk) -> (Flow, Option<Raw>) {
        use Flow::Reprocess;
        const DONE: (Flow, Option<Raw>) = (Flow::Done, None);
        let start = |tk: Tk| match tk {
            Tk::Tag(t) if !t.end => Some(t),
            _ => None,
        };
        let end = |tk: Tk| match tk {
            Tk::Tag(t) if t.end => Some(t),
            _ => None,
        };
        let s_tag = start(tk).map(|t| t.tag);
        let e_tag = end(tk).map(|t| t.tag);
        match mode {
            Mode::Initial => match tk {
                Tk::Text(s) if all_ws(s) => DONE,
                Tk::Comment(n) => {
                    let c = self.comment(n);
                    self.append(0, c);
                    DONE
                }
                _ => {
                    self.quirks = true;
                    (Reprocess(Mode::BeforeHtml), None)
                }
            },
            Mode::BeforeHtml => {
                let anything_else = |s: &mut Self| {
                    let html = s.create(
                        tok,
                        TagTok {
                            tag: Tag::HTML,
                            end: false,
                            self_closing: false,
                            attrs: false,
                        },
                        Ns::Html,
                    );
                    s.append(0, html);
                    s.push(html);
                    (Reprocess(Mode::BeforeHead), None)
                };
                match tk {
                    Tk::Comment(n) => {
                        let c = self.comment(n);
                        self.append(0, c);
                        DONE
                    }
                    Tk::Text(s) if all_ws(s) => DONE,
                    Tk::Tag(t) if !t.end && t.tag == Tag::HTML => {
                        let html = self.create(tok, t, Ns::Html);
                        self.append(0, html);
                        self.push(html);
                        self.mode = Mode::BeforeHead;
                        DONE
                    }
                    Tk::Tag(t)
                        if t.end
                            && !matches!(t.tag, Tag::HEAD | Tag::BODY | Tag::HTML | Tag::BR) =>
                    {
                        DONE
                    }
                    _ => anything_else(self),
                }
            }
            Mode::BeforeHead => match tk {
                Tk::Text(s) if all_ws(s) => DONE,
                Tk::Comment(n) => {
                    self.append_comment(n);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.step(tok, Mode::InBody, tk),
                Tk::Tag(t) if !t.end && t.tag == Tag::HEAD => {
                    self.head = self.insert_html(tok, t);
                    self.mode = Mode::InHead;
                    DONE
                }
                Tk::Tag(t)
                    if t.end && !matches!(t.tag, Tag::HEAD | Tag::BODY | Tag::HTML | Tag::BR) =>
                {
                    DONE
                }
                _ => {
                    self.head = self.insert_phantom(tok, Tag::HEAD);
                    (Reprocess(Mode::InHead), None)
                }
            },
            Mode::InHead => {
                if let Tk::Text(s) = tk {
                    if all_ws(s) {
                        self.append_text(s);
                        return DONE;
                    }
                }
                if let Tk::Comment(n) = tk {
                    self.append_comment(n);
                    return DONE;
                }
                if let Some(t) = start(tk) {
                    let x = self.names;
                    match t.tag {
                        Tag::HTML => return self.step(tok, Mode::InBody, tk),
                        Tag::BASE | Tag::LINK | Tag::META => {
                            self.insert_void(tok, t);
                            return DONE;
                        }
                        g if g == x.basefont || g == x.bgsound => {
                            self.insert_void(tok, t);
                            return DONE;
                        }
                        Tag::TITLE => return self.insert_raw(tok, t, Raw::Escapable),
                        Tag::NOFRAMES | Tag::STYLE => return self.insert_raw(tok, t, Raw::Text),
                        Tag::NOSCRIPT => {
                            self.insert_html(tok, t);
                            self.mode = Mode::InHeadNoscript;
                            return DONE;
                        }
                        Tag::SCRIPT => return self.insert_raw(tok, t, Raw::Script),
                        Tag::TEMPLATE => {
                            self.fmt.push(Fmt::Marker);
                            self.frameset_ok = false;
                            self.mode = Mode::InTemplate;
                            self.template_modes.push(Mode::InTemplate);
                            self.insert_html(tok, t);
                            return DONE;
                        }
                        Tag::HEAD => return DONE,
                        _ => {}
                    }
                }
                if let Some(t) = e_tag {
                    match t {
                        Tag::HEAD => {
                            self.pop();
                            self.mode = Mode::AfterHead;
                            return DONE;
                        }
                        Tag::BODY | Tag::HTML | Tag::BR => {}
                        Tag::TEMPLATE => {
                            if self.any_open(Tag::TEMPLATE) {
                                self.generate_thorough_implied();
                                self.pop_until(Tag::TEMPLATE);
                                self.clear_fmt_to_marker();
                                self.template_modes.pop();
                                self.mode = self.reset_mode();
                            }
                            return DONE;
                        }
                        _ => return DONE,
                    }
                }
                self.pop();
                (Reprocess(Mode::AfterHead), None)
            }
            Mode::InHeadNoscript => {
                let anything_else = |s: &mut Self| {
                    s.pop();
                    (Reprocess(Mode::InHead), None)
                };
                match tk {
                    Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.step(tok, Mode::InBody, tk),
                    Tk::Tag(t) if t.end && t.tag == Tag::NOSCRIPT => {
                        self.pop();
                        self.mode = Mode::InHead;
                        DONE
                    }
                    Tk::Text(s) if all_ws(s) => self.step(tok, Mode::InHead, tk),
                    Tk::Comment(_) => self.step(tok, Mode::InHead, tk),
                    Tk::Tag(t)
                        if !t.end
                            && (matches!(
                                t.tag,
                                Tag::LINK | Tag::META | Tag::NOFRAMES | Tag::STYLE
                            ) || t.tag == self.names.basefont
                                || t.tag == self.names.bgsound) =>
                    {
                        self.step(tok, Mode::InHead, tk)
                    }
                    Tk::Tag(t) if t.end && t.tag == Tag::BR => anything_else(self),
                    Tk::Tag(t) if !t.end && matches!(t.tag, Tag::HEAD | Tag::NOSCRIPT) => DONE,
                    Tk::Tag(t) if t.end => DONE,
                    _ => anything_else(self),
                }
            }
            Mode::AfterHead => {
                let anything_else = |s: &mut Self| {
                    s.insert_phantom(tok, Tag::BODY);
                    (Reprocess(Mode::InBody), None)
                };
                match tk {
                    Tk::Text(s) if all_ws(s) => {
                        self.append_text(s);
                        DONE
                    }
                    Tk::Comment(n) => {
                        self.append_comment(n);
                        DONE
                    }
                    Tk::Tag(t) if !t.end => match t.tag {
                        Tag::HTML => self.step(tok, Mode::InBody, tk),
                        Tag::BODY => {
                            self.insert_html(tok, t);
                            self.frameset_ok = false;
                            self.mode = Mode::InBody;
                            DONE
                        }
                        Tag::FRAMESET => {
                            self.insert_html(tok, t);
                            self.mode = Mode::InFrameset;
                            DONE
                        }
                        Tag::BASE
                        | Tag::LINK
                        | Tag::META
                        | Tag::NOFRAMES
                        | Tag::SCRIPT
                        | Tag::STYLE
                        | Tag::TEMPLATE
                        | Tag::TITLE => self.head_again(tok, tk),
                        g if g == self.names.basefont || g == self.names.bgsound => {
                            self.head_again(tok, tk)
                        }
                        Tag::HEAD => DONE,
                        _ => anything_else(self),
                    },
                    Tk::Tag(t) if t.end => match t.tag {
                        Tag::TEMPLATE => self.step(tok, Mode::InHead, tk),
                        Tag::BODY | Tag::HTML | Tag::BR => anything_else(self),
                        _ => DONE,
                    },
                    _ => anything_else(self),
                }
            }
            Mode::InBody => self.in_body(tok, tk),
            Mode::Text => match tk {
                Tk::Text(s) => {
                    self.append_text(s);
                    DONE
                }
                Tk::Eof => {
                    self.pop();
                    (Reprocess(self.orig_mode), None)
                }
                Tk::Tag(t) if t.end => {
                    self.pop();
                    self.mode = self.orig_mode;
                    DONE
                }
                _ => DONE,
            },
            Mode::InTable => self.in_table(tok, tk),
            Mode::InTableText => match tk {
                Tk::Null => DONE,
                Tk::Text(s) => {
                    self.pending.push_str(s);
                    DONE
                }
                _ => {
                    // The text goes in at the token after it, which is where the sink (and so
                    // its spans) sees it.
                    let pending = std::mem::take(&mut self.pending);
                    if !all_ws(&pending) {
                        self.foster = true;
                        self.in_body(tok, Tk::Text(&pending));
                        self.foster = false;
                    } else {
                        self.append_text(&pending);
                    }
                    self.pending = pending;
                    self.pending.clear();
                    (Reprocess(self.orig_mode), None)
                }
            },
            Mode::InCaption => {
                let closes = matches!(
                    s_tag,
                    Some(
                        Tag::CAPTION
                            | Tag::COL
                            | Tag::COLGROUP
                            | Tag::TBODY
                            | Tag::TD
                            | Tag::TFOOT
                            | Tag::TH
                            | Tag::THEAD
                            | Tag::TR
                    )
                ) || matches!(e_tag, Some(Tag::TABLE | Tag::CAPTION));
                if closes {
                    if self.in_scope_named(Scope::Table, Tag::CAPTION) {
                        self.generate_implied_end(None);
                        self.pop_until(Tag::CAPTION);
                        self.clear_fmt_to_marker();
                        if e_tag == Some(Tag::CAPTION) {
                            self.mode = Mode::InTable;
                            return DONE;
                        }
                        return (Reprocess(Mode::InTable), None);
                    }
                    return DONE;
                }
                if matches!(
                    e_tag,
                    Some(
                        Tag::BODY
                            | Tag::COL
                            | Tag::COLGROUP
                            | Tag::HTML
                            | Tag::TBODY
                            | Tag::TD
                            | Tag::TFOOT
                            | Tag::TH
                            | Tag::THEAD
                            | Tag::TR
                    )
                ) {
                    return DONE;
                }
                self.in_body(tok, tk)
            }
            Mode::InColumnGroup => match tk {
                Tk::Text(s) if all_ws(s) => {
                    self.append_text(s);
                    DONE
                }
                Tk::Comment(n) => {
                    self.append_comment(n);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Tag(t) if !t.end && t.tag == Tag::COL => {
                    self.insert_void(tok, t);
                    DONE
                }
                Tk::Tag(t) if t.end && t.tag == Tag::COLGROUP => {
                    if self.cur_is(Tag::COLGROUP) {
                        self.pop();
                        self.mode = Mode::InTable;
                    }
                    DONE
                }
                Tk::Tag(t) if t.end && t.tag == Tag::COL => DONE,
                Tk::Tag(t) if t.tag == Tag::TEMPLATE => self.step(tok, Mode::InHead, tk),
                Tk::Eof => self.in_body(tok, tk),
                _ => {
                    if self.cur_is(Tag::COLGROUP) {
                        self.pop();
                        (Reprocess(Mode::InTable), None)
                    } else {
                        DONE
                    }
                }
            },
            Mode::InTableBody => {
                const BODY_CONTEXT: &[Tag] =
                    &[Tag::TBODY, Tag::TFOOT, Tag::THEAD, Tag::TEMPLATE, Tag::HTML];
                match tk {
                    Tk::Tag(t) if !t.end && t.tag == Tag::TR => {
                        self.pop_until_current(BODY_CONTEXT);
                        self.insert_html(tok, t);
                        self.mode = Mode::InRow;
                        DONE
                    }
                    Tk::Tag(t) if !t.end && matches!(t.tag, Tag::TH | Tag::TD) => {
                        self.pop_until_current(BODY_CONTEXT);
                        self.insert_phantom(tok, Tag::TR);
                        (Reprocess(Mode::InRow), None)
                    }
                    Tk::Tag(t)
                        if t.end && matches!(t.tag, Tag::TBODY | Tag::TFOOT | Tag::THEAD) =>
                    {
                        if self.in_scope_named(Scope::Table, t.tag) {
                            self.pop_until_current(BODY_CONTEXT);
                            self.pop();
                            self.mode = Mode::InTable;
                        }
                        DONE
                    }
                    Tk::Tag(t)
                        if (!t.end
                            && matches!(
                                t.tag,
                                Tag::CAPTION
                                    | Tag::COL
                                    | Tag::COLGROUP
                                    | Tag::TBODY
                                    | Tag::TFOOT
                                    | Tag::THEAD
                            ))
                            || (t.end && t.tag == Tag::TABLE) =>
                    {
                        // html5ever tests table, tbody, tfoot (not thead) here.
                        if self.in_scope_any(Scope::Table, &[Tag::TABLE, Tag::TBODY, Tag::TFOOT]) {
                            self.pop_until_current(BODY_CONTEXT);
                            self.pop();
                            (Reprocess(Mode::InTable), None)
                        } else {
                            DONE
                        }
                    }
                    Tk::Tag(t)
                        if t.end
                            && matches!(
                                t.tag,
                                Tag::BODY
                                    | Tag::CAPTION
                                    | Tag::COL
                                    | Tag::COLGROUP
                                    | Tag::HTML
                                    | Tag::TD
                                    | Tag::TH
                                    | Tag::TR
                            ) =>
                    {
                        DONE
                    }
                    _ => self.in_table(tok, tk),
                }
            }
            Mode::InRow => {
                const ROW_CONTEXT: &[Tag] = &[Tag::TR, Tag::TEMPLATE, Tag::HTML];
                match tk {
                    Tk::Tag(t) if !t.end && matches!(t.tag, Tag::TH | Tag::TD) => {
                        self.pop_until_current(ROW_CONTEXT);
                        self.insert_html(tok, t);
                        self.mode = Mode::InCell;
                        self.fmt.push(Fmt::Marker);
                        DONE
                    }
                    Tk::Tag(t) if t.end && t.tag == Tag::TR => {
                        if self.in_scope_named(Scope::Table, Tag::TR) {
                            self.pop_until_current(ROW_CONTEXT);
                            self.pop();
                            self.mode = Mode::InTableBody;
                        }
                        DONE
                    }
                    Tk::Tag(t)
                        if (!t.end
                            && matches!(
                                t.tag,
                                Tag::CAPTION
                                    | Tag::COL
                                    | Tag::COLGROUP
                                    | Tag::TBODY
                                    | Tag::TFOOT
                                    | Tag::THEAD
                                    | Tag::TR
                            ))
                            || (t.end && t.tag == Tag::TABLE) =>
                    {
                        if self.in_scope_named(Scope::Table, Tag::TR) {
                            self.pop_until_current(ROW_CONTEXT);
                            self.pop();
                            (Reprocess(Mode::InTableBody), None)
                        } else {
                            DONE
                        }
                    }
                    Tk::Tag(t)
                        if t.end && matches!(t.tag, Tag::TBODY | Tag::TFOOT | Tag::THEAD) =>
                    {
                        if self.in_scope_named(Scope::Table, t.tag)
                            && self.in_scope_named(Scope::Table, Tag::TR)
                        {
                            self.pop_until_current(ROW_CONTEXT);
                            self.pop();
                            return (Reprocess(Mode::InTableBody), None);
                        }
                        DONE
                    }
                    Tk::Tag(t)
                        if t.end
                            && matches!(
                                t.tag,
                                Tag::BODY
                                    | Tag::CAPTION
                                    | Tag::COL
                                    | Tag::COLGROUP
                                    | Tag::HTML
                                    | Tag::TD
                                    | Tag::TH
                            ) =>
                    {
                        DONE
                    }
                    _ => self.in_table(tok, tk),
                }
            }
            Mode::InCell => match tk {
                Tk::Tag(t) if t.end && matches!(t.tag, Tag::TD | Tag::TH) => {
                    if self.in_scope_named(Scope::Table, t.tag) {
                        self.generate_implied_end(None);
                        self.pop_until(t.tag);
                        self.clear_fmt_to_marker();
                        self.mode = Mode::InRow;
                    }
                    DONE
                }
                Tk::Tag(t)
                    if !t.end
                        && matches!(
                            t.tag,
                            Tag::CAPTION
                                | Tag::COL
                                | Tag::COLGROUP
                                | Tag::TBODY
                                | Tag::TD
                                | Tag::TFOOT
                                | Tag::TH
                                | Tag::THEAD
                                | Tag::TR
                        ) =>
                {
                    if self.in_scope_any(Scope::Table, &[Tag::TD, Tag::TH]) {
                        self.close_cell();
                        (Reprocess(Mode::InRow), None)
                    } else {
                        DONE
                    }
                }
                Tk::Tag(t)
                    if t.end
                        && matches!(
                            t.tag,
                            Tag::BODY | Tag::CAPTION | Tag::COL | Tag::COLGROUP | Tag::HTML
                        ) =>
                {
                    DONE
                }
                Tk::Tag(t)
                    if t.end
                        && matches!(
                            t.tag,
                            Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR
                        ) =>
                {
                    if self.in_scope_named(Scope::Table, t.tag) {
                        self.close_cell();
                        (Reprocess(Mode::InRow), None)
                    } else {
                        DONE
                    }
                }
                _ => self.in_body(tok, tk),
            },
            Mode::InTemplate => match tk {
                Tk::Text(_) | Tk::Null | Tk::Comment(_) => self.in_body(tok, tk),
                Tk::Tag(t)
                    if (!t.end
                        && (matches!(
                            t.tag,
                            Tag::BASE
                                | Tag::LINK
                                | Tag::META
                                | Tag::NOFRAMES
                                | Tag::SCRIPT
                                | Tag::STYLE
                                | Tag::TEMPLATE
                                | Tag::TITLE
                        ) || t.tag == self.names.basefont
                            || t.tag == self.names.bgsound))
                        || (t.end && t.tag == Tag::TEMPLATE) =>
                {
                    self.step(tok, Mode::InHead, tk)
                }
                Tk::Tag(t) if !t.end => {
                    let next = match t.tag {
                        Tag::CAPTION | Tag::COLGROUP | Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                            Mode::InTable
                        }
                        Tag::COL => Mode::InColumnGroup,
                        Tag::TR => Mode::InTableBody,
                        Tag::TD | Tag::TH => Mode::InRow,
                        _ => Mode::InBody,
                    };
                    self.template_modes.pop();
                    self.template_modes.push(next);
                    (Reprocess(next), None)
                }
                Tk::Eof => {
                    if !self.any_open(Tag::TEMPLATE) {
                        return DONE;
                    }
                    self.pop_until(Tag::TEMPLATE);
                    self.clear_fmt_to_marker();
                    self.template_modes.pop();
                    let m = self.reset_mode();
                    self.mode = m;
                    (Reprocess(m), None)
                }
                _ => DONE,
            },
            Mode::AfterBody => match tk {
                Tk::Text(s) if all_ws(s) => self.in_body(tok, tk),
                Tk::Comment(n) => {
                    let c = self.comment(n);
                    let html = self.open.first().copied().unwrap_or(0);
                    self.append(html, c);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Tag(t) if t.end && t.tag == Tag::HTML => {
                    self.mode = Mode::AfterAfterBody;
                    DONE
                }
                Tk::Eof => DONE,
                _ => (Reprocess(Mode::InBody), None),
            },
            Mode::InFrameset => match tk {
                Tk::Text(s) if all_ws(s) => {
                    self.append_text(s);
                    DONE
                }
                Tk::Comment(n) => {
                    self.append_comment(n);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Tag(t) if !t.end && t.tag == Tag::FRAMESET => {
                    self.insert_html(tok, t);
                    DONE
                }
                Tk::Tag(t) if t.end && t.tag == Tag::FRAMESET => {
                    if self.open.len() > 1 {
                        self.pop();
                        if !self.cur_is(Tag::FRAMESET) {
                            self.mode = Mode::AfterFrameset;
                        }
                    }
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::FRAME => {
                    self.insert_void(tok, t);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::NOFRAMES => self.step(tok, Mode::InHead, tk),
                _ => DONE,
            },
            Mode::AfterFrameset => match tk {
                Tk::Text(s) if all_ws(s) => {
                    self.append_text(s);
                    DONE
                }
                Tk::Comment(n) => {
                    self.append_comment(n);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Tag(t) if t.end && t.tag == Tag::HTML => {
                    self.mode = Mode::AfterAfterFrameset;
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::NOFRAMES => self.step(tok, Mode::InHead, tk),
                _ => DONE,
            },
            Mode::AfterAfterBody => match tk {
                Tk::Text(s) if all_ws(s) => self.in_body(tok, tk),
                Tk::Comment(n) => {
                    let c = self.comment(n);
                    self.append(0, c);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Eof => DONE,
                _ => (Reprocess(Mode::InBody), None),
            },
            Mode::AfterAfterFrameset => match tk {
                Tk::Text(s) if all_ws(s) => self.in_body(tok, tk),
                Tk::Comment(n) => {
                    let c = self.comment(n);
                    self.append(0, c);
                    DONE
                }
                Tk::Tag(t) if !t.end && t.tag == Tag::HTML => self.in_body(tok, tk),
                Tk::Tag(t) if !t.end && t.tag == Tag::NOFRAMES => self.step(tok, Mode::InHead, tk),
                _ => DONE,
            },
        }
    }

    fn generate_thorough_implied(&mut self) {
        while let Some(&e) = self.open.last() {
            if !self.thorough_implied(e) {
                return;
            }
            self.pop();
        }
    }

    /// A head element after `</head>`: processed in the head, as the spec says.
    fn head_again(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        let head = self.head;
        if head == NONE {
            return (Flow::Done, None);
        }
        self.push(head);
        let r = self.step(tok, Mode::InHead, tk);
        self.remove_from_stack(head);
        r
    }

    fn in_table(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        const DONE: (Flow, Option<Raw>) = (Flow::Done, None);
        const TABLE_CONTEXT: &[Tag] = &[Tag::TABLE, Tag::TEMPLATE, Tag::HTML];
        match tk {
            Tk::Null | Tk::Text(_) => {
                if matches!(
                    self.html_tag(self.cur()),
                    Some(Tag::TABLE | Tag::TBODY | Tag::TFOOT | Tag::THEAD | Tag::TR)
                ) {
                    self.pending.clear();
                    self.orig_mode = self.mode;
                    (Flow::Reprocess(Mode::InTableText), None)
                } else {
                    self.foster_in_body(tok, tk)
                }
            }
            Tk::Comment(n) => {
                self.append_comment(n);
                DONE
            }
            Tk::Tag(t) if !t.end => match t.tag {
                Tag::CAPTION => {
                    self.pop_until_current(TABLE_CONTEXT);
                    self.fmt.push(Fmt::Marker);
                    self.insert_html(tok, t);
                    self.mode = Mode::InCaption;
                    DONE
                }
                Tag::COLGROUP => {
                    self.pop_until_current(TABLE_CONTEXT);
                    self.insert_html(tok, t);
                    self.mode = Mode::InColumnGroup;
                    DONE
                }
                Tag::COL => {
                    self.pop_until_current(TABLE_CONTEXT);
                    self.insert_phantom(tok, Tag::COLGROUP);
                    (Flow::Reprocess(Mode::InColumnGroup), None)
                }
                Tag::TBODY | Tag::TFOOT | Tag::THEAD => {
                    self.pop_until_current(TABLE_CONTEXT);
                    self.insert_html(tok, t);
                    self.mode = Mode::InTableBody;
                    DONE
                }
                Tag::TD | Tag::TH | Tag::TR => {
                    self.pop_until_current(TABLE_CONTEXT);
                    self.insert_phantom(tok, Tag::TBODY);
                    (Flow::Reprocess(Mode::InTableBody), None)
                }
                Tag::TABLE => {
                    if self.in_scope_named(Scope::Table, Tag::TABLE) {
                        self.pop_until(Tag::TABLE);
                        (Flow::Reprocess(self.reset_mode()), None)
                    } else {
                        DONE
                    }
                }
                Tag::STYLE | Tag::SCRIPT | Tag::TEMPLATE => self.step(tok, Mode::InHead, tk),
                Tag::INPUT => {
                    if type_hidden(tok) {
                        self.insert_void(tok, t);
                        DONE
                    } else {
                        self.foster_in_body(tok, tk)
                    }
                }
                Tag::FORM => {
                    if !self.any_open(Tag::TEMPLATE) && self.form == NONE {
                        self.form = self.insert_void(tok, t);
                    }
                    DONE
                }
                _ => self.foster_in_body(tok, tk),
            },
            Tk::Tag(t) => match t.tag {
                Tag::TABLE => {
                    if self.in_scope_named(Scope::Table, Tag::TABLE) {
                        self.pop_until(Tag::TABLE);
                        self.mode = self.reset_mode();
                    }
                    DONE
                }
                Tag::BODY
                | Tag::CAPTION
                | Tag::COL
                | Tag::COLGROUP
                | Tag::HTML
                | Tag::TBODY
                | Tag::TD
                | Tag::TFOOT
                | Tag::TH
                | Tag::THEAD
                | Tag::TR => DONE,
                Tag::TEMPLATE => self.step(tok, Mode::InHead, tk),
                _ => self.foster_in_body(tok, tk),
            },
            Tk::Eof => self.in_body(tok, tk),
        }
    }

    fn foster_in_body(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        self.foster = true;
        let r = self.in_body(tok, tk);
        self.foster = false;
        r
    }

    fn in_body(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        const DONE: (Flow, Option<Raw>) = (Flow::Done, None);
        let t = match tk {
            Tk::Null => return DONE,
            Tk::Text(s) => {
                self.reconstruct();
                if !all_ws(s) {
                    self.frameset_ok = false;
                }
                self.append_text(s);
                return DONE;
            }
            Tk::Comment(n) => {
                self.append_comment(n);
                return DONE;
            }
            Tk::Eof => {
                if !self.template_modes.is_empty() {
                    return self.step(tok, Mode::InTemplate, tk);
                }
                return DONE;
            }
            Tk::Tag(t) => t,
        };
        if t.end {
            return self.end_in_body(tok, t);
        }
        let x = self.names;
        let g = t.tag;
        if g == x.basefont || g == x.bgsound {
            return self.step(tok, Mode::InHead, tk);
        }
        if g == x.listing {
            self.close_p_in_button_scope();
            self.insert_html(tok, t);
            self.ignore_lf = true;
            self.frameset_ok = false;
            return DONE;
        }
        if g == x.plaintext {
            self.close_p_in_button_scope();
            self.insert_html(tok, t);
            return (Flow::Done, Some(Raw::Plain));
        }
        if g == x.applet {
            self.reconstruct();
            self.insert_html(tok, t);
            self.fmt.push(Fmt::Marker);
            self.frameset_ok = false;
            return DONE;
        }
        if g == x.big {
            self.reconstruct();
            self.push_formatting(tok, t);
            return DONE;
        }
        if g == x.keygen {
            self.reconstruct();
            self.insert_void(tok, t);
            self.frameset_ok = false;
            return DONE;
        }
        if g == x.image {
            let img = TagTok { tag: Tag::IMG, ..t };
            return self.in_body(tok, Tk::Tag(img));
        }
        if g == x.rb || g == x.rtc {
            if self.in_scope_named(Scope::Default, Tag::RUBY) {
                self.generate_implied_end(None);
            }
            self.insert_html(tok, t);
            return DONE;
        }
        match g {
            Tag::HTML => {
                if !self.any_open(Tag::TEMPLATE) {
                    if let Some(&html) = self.open.first() {
                        self.add_attrs_if_missing(tok, html);
                    }
                }
                DONE
            }
            Tag::BASE
            | Tag::LINK
            | Tag::META
            | Tag::NOFRAMES
            | Tag::SCRIPT
            | Tag::STYLE
            | Tag::TEMPLATE
            | Tag::TITLE => self.step(tok, Mode::InHead, tk),
            Tag::BODY => {
                if self.open.len() > 1
                    && self.is(self.open[1], Tag::BODY)
                    && !self.any_open(Tag::TEMPLATE)
                {
                    self.frameset_ok = false;
                    let body = self.open[1];
                    self.add_attrs_if_missing(tok, body);
                }
                DONE
            }
            Tag::FRAMESET => {
                if !self.frameset_ok {
                    return DONE;
                }
                if self.open.len() > 1 && self.is(self.open[1], Tag::BODY) {
                    let body = self.open[1];
                    self.detach(body);
                    self.truncate(1);
                    self.insert_html(tok, t);
                    self.mode = Mode::InFrameset;
                }
                DONE
            }
            Tag::ADDRESS
            | Tag::ARTICLE
            | Tag::ASIDE
            | Tag::BLOCKQUOTE
            | Tag::CENTER
            | Tag::DETAILS
            | Tag::DIALOG
            | Tag::DIR
            | Tag::DIV
            | Tag::DL
            | Tag::FIELDSET
            | Tag::FIGCAPTION
            | Tag::FIGURE
            | Tag::FOOTER
            | Tag::HEADER
            | Tag::HGROUP
            | Tag::MAIN
            | Tag::NAV
            | Tag::OL
            | Tag::P
            | Tag::SEARCH
            | Tag::SECTION
            | Tag::SUMMARY
            | Tag::UL
            | Tag::MENU => {
                self.close_p_in_button_scope();
                self.insert_html(tok, t);
                DONE
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                self.close_p_in_button_scope();
                if matches!(
                    self.html_tag(self.cur()),
                    Some(Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6)
                ) {
                    self.pop();
                }
                self.insert_html(tok, t);
                DONE
            }
            Tag::PRE => {
                self.close_p_in_button_scope();
                self.insert_html(tok, t);
                self.ignore_lf = true;
                self.frameset_ok = false;
                DONE
            }
            Tag::FORM => {
                let in_template = self.any_open(Tag::TEMPLATE);
                if self.form != NONE && !in_template {
                    return DONE;
                }
                self.close_p_in_button_scope();
                let e = self.insert_html(tok, t);
                if !in_template {
                    self.form = e;
                }
                DONE
            }
            Tag::LI | Tag::DD | Tag::DT => {
                let list = g == Tag::LI;
                self.frameset_ok = false;
                // The spec walks down to the topmost element this item closes and gives up at
                // a special element (but address, div, p) above it: both are cached, O(1).
                let candidates: &[Tag] = if list {
                    &[Tag::LI]
                } else {
                    &[Tag::DD, Tag::DT]
                };
                let top = candidates
                    .iter()
                    .map(|&c| self.top_open(c))
                    .filter(|&e| e != NONE)
                    .max_by_key(|&e| self.nodes[e as usize].at);
                let stop = self.bounds.last().map_or(0, |b| b.special_but_adp);
                let to_close = top
                    .filter(|&e| stop <= self.nodes[e as usize].at + 1)
                    .and_then(|e| self.html_tag(e));
                if let Some(name) = to_close {
                    self.generate_implied_end(Some(name));
                    self.pop_until(name);
                }
                self.close_p_in_button_scope();
                self.insert_html(tok, t);
                DONE
            }
            Tag::BUTTON => {
                if self.in_scope_named(Scope::Default, Tag::BUTTON) {
                    self.generate_implied_end(None);
                    self.pop_until(Tag::BUTTON);
                }
                self.reconstruct();
                self.insert_html(tok, t);
                self.frameset_ok = false;
                DONE
            }
            Tag::A => {
                let mut open_a = None;
                for i in (0..self.fmt.len()).rev() {
                    match self.fmt[i] {
                        Fmt::Marker => break,
                        Fmt::El(e, _) if self.is(e, Tag::A) => {
                            open_a = Some(e);
                            break;
                        }
                        _ => {}
                    }
                }
                if let Some(a) = open_a {
                    self.adoption_agency(Tag::A);
                    if let Some(i) = self.fmt_index(a) {
                        self.fmt.remove(i);
                    }
                    self.remove_from_stack(a);
                }
                self.reconstruct();
                self.push_formatting(tok, t);
                DONE
            }
            Tag::B
            | Tag::CODE
            | Tag::EM
            | Tag::FONT
            | Tag::I
            | Tag::S
            | Tag::SMALL
            | Tag::STRIKE
            | Tag::STRONG
            | Tag::TT
            | Tag::U => {
                self.reconstruct();
                self.push_formatting(tok, t);
                DONE
            }
            Tag::NOBR => {
                self.reconstruct();
                if self.in_scope_named(Scope::Default, Tag::NOBR) {
                    self.adoption_agency(Tag::NOBR);
                    self.reconstruct();
                }
                self.push_formatting(tok, t);
                DONE
            }
            Tag::MARQUEE | Tag::OBJECT => {
                self.reconstruct();
                self.insert_html(tok, t);
                self.fmt.push(Fmt::Marker);
                self.frameset_ok = false;
                DONE
            }
            Tag::TABLE => {
                if !self.quirks {
                    self.close_p_in_button_scope();
                }
                self.insert_html(tok, t);
                self.frameset_ok = false;
                self.mode = Mode::InTable;
                DONE
            }
            Tag::AREA | Tag::BR | Tag::EMBED | Tag::IMG | Tag::WBR => {
                self.reconstruct();
                self.insert_void(tok, t);
                self.frameset_ok = false;
                DONE
            }
            Tag::INPUT => {
                if self.in_scope_named(Scope::Default, Tag::SELECT) {
                    self.pop_until(Tag::SELECT);
                }
                let hidden = type_hidden(tok);
                self.reconstruct();
                self.insert_void(tok, t);
                if !hidden {
                    self.frameset_ok = false;
                }
                DONE
            }
            Tag::PARAM | Tag::SOURCE | Tag::TRACK => {
                self.insert_void(tok, t);
                DONE
            }
            Tag::HR => {
                self.close_p_in_button_scope();
                if self.in_scope_named(Scope::Default, Tag::SELECT) {
                    self.generate_implied_end(None);
                }
                self.insert_void(tok, t);
                self.frameset_ok = false;
                DONE
            }
            Tag::TEXTAREA => {
                self.ignore_lf = true;
                self.frameset_ok = false;
                self.insert_raw(tok, t, Raw::Escapable)
            }
            Tag::XMP => {
                self.close_p_in_button_scope();
                self.reconstruct();
                self.frameset_ok = false;
                self.insert_raw(tok, t, Raw::Text)
            }
            Tag::IFRAME => {
                self.frameset_ok = false;
                self.insert_raw(tok, t, Raw::Text)
            }
            Tag::NOEMBED => self.insert_raw(tok, t, Raw::Text),
            Tag::SELECT => {
                if self.in_scope_named(Scope::Default, Tag::SELECT) {
                    self.pop_until(Tag::SELECT);
                } else {
                    self.reconstruct();
                    self.insert_html(tok, t);
                    self.frameset_ok = false;
                }
                DONE
            }
            Tag::OPTION => {
                if self.in_scope_named(Scope::Default, Tag::SELECT) {
                    self.generate_implied_end(Some(Tag::OPTGROUP));
                } else if self.cur_is(Tag::OPTION) {
                    self.pop();
                }
                self.reconstruct();
                self.insert_html(tok, t);
                DONE
            }
            Tag::OPTGROUP => {
                if self.in_scope_named(Scope::Default, Tag::SELECT) {
                    self.generate_implied_end(None);
                } else if self.cur_is(Tag::OPTION) {
                    self.pop();
                }
                self.reconstruct();
                self.insert_html(tok, t);
                DONE
            }
            Tag::RP | Tag::RT => {
                if self.in_scope_named(Scope::Default, Tag::RUBY) {
                    self.generate_implied_end(Some(self.names.rtc));
                }
                self.insert_html(tok, t);
                DONE
            }
            Tag::MATH | Tag::SVG => {
                self.reconstruct();
                let ns = if g == Tag::MATH { Ns::Math } else { Ns::Svg };
                self.insert_element(tok, t, ns, !t.self_closing);
                DONE
            }
            Tag::CAPTION
            | Tag::COL
            | Tag::COLGROUP
            | Tag::FRAME
            | Tag::HEAD
            | Tag::TBODY
            | Tag::TD
            | Tag::TFOOT
            | Tag::TH
            | Tag::THEAD
            | Tag::TR => DONE,
            _ => {
                self.reconstruct();
                self.insert_html(tok, t);
                DONE
            }
        }
    }

    fn end_in_body(&mut self, tok: &Tokenizer, t: TagTok) -> (Flow, Option<Raw>) {
        const DONE: (Flow, Option<Raw>) = (Flow::Done, None);
        let g = t.tag;
        let x = self.names;
        if g == x.listing || g == x.applet {
            if g == x.listing {
                if self.in_scope_named(Scope::Default, g) {
                    self.generate_implied_end(None);
                    self.pop_until(g);
                }
            } else if self.in_scope_named(Scope::Default, g) {
                self.generate_implied_end(None);
                self.pop_until(g);
                self.clear_fmt_to_marker();
            }
            return DONE;
        }
        if g == x.big {
            self.adoption_agency(g);
            return DONE;
        }
        match g {
            Tag::TEMPLATE => self.step(tok, Mode::InHead, Tk::Tag(t)),
            Tag::BODY => {
                if self.in_scope_named(Scope::Default, Tag::BODY) {
                    self.mode = Mode::AfterBody;
                }
                DONE
            }
            Tag::HTML => {
                if self.in_scope_named(Scope::Default, Tag::BODY) {
                    (Flow::Reprocess(Mode::AfterBody), None)
                } else {
                    DONE
                }
            }
            Tag::ADDRESS
            | Tag::ARTICLE
            | Tag::ASIDE
            | Tag::BLOCKQUOTE
            | Tag::BUTTON
            | Tag::CENTER
            | Tag::DETAILS
            | Tag::DIALOG
            | Tag::DIR
            | Tag::DIV
            | Tag::DL
            | Tag::FIELDSET
            | Tag::FIGCAPTION
            | Tag::FIGURE
            | Tag::FOOTER
            | Tag::HEADER
            | Tag::HGROUP
            | Tag::MAIN
            | Tag::MENU
            | Tag::NAV
            | Tag::OL
            | Tag::PRE
            | Tag::SEARCH
            | Tag::SECTION
            | Tag::SELECT
            | Tag::SUMMARY
            | Tag::UL => {
                if self.in_scope_named(Scope::Default, g) {
                    self.generate_implied_end(None);
                    self.pop_until(g);
                }
                DONE
            }
            Tag::FORM => {
                if !self.any_open(Tag::TEMPLATE) {
                    let node = std::mem::replace(&mut self.form, NONE);
                    if node == NONE || !self.node_in_scope(Scope::Default, node) {
                        return DONE;
                    }
                    self.generate_implied_end(None);
                    self.remove_from_stack(node);
                } else {
                    if !self.in_scope_named(Scope::Default, Tag::FORM) {
                        return DONE;
                    }
                    self.generate_implied_end(None);
                    self.pop_until(Tag::FORM);
                }
                DONE
            }
            Tag::P => {
                if !self.in_scope_named(Scope::Button, Tag::P) {
                    self.insert_phantom(tok, Tag::P);
                }
                self.close_p();
                DONE
            }
            Tag::LI | Tag::DD | Tag::DT => {
                let scope = if g == Tag::LI {
                    Scope::ListItem
                } else {
                    Scope::Default
                };
                if self.in_scope_named(scope, g) {
                    self.generate_implied_end(Some(g));
                    self.pop_until(g);
                }
                DONE
            }
            Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6 => {
                if self.in_scope_any(Scope::Default, &HEADINGS) {
                    self.generate_implied_end(None);
                    self.pop_until_heading();
                }
                DONE
            }
            Tag::A
            | Tag::B
            | Tag::CODE
            | Tag::EM
            | Tag::FONT
            | Tag::I
            | Tag::NOBR
            | Tag::S
            | Tag::SMALL
            | Tag::STRIKE
            | Tag::STRONG
            | Tag::TT
            | Tag::U => {
                self.adoption_agency(g);
                DONE
            }
            Tag::MARQUEE | Tag::OBJECT => {
                if self.in_scope_named(Scope::Default, g) {
                    self.generate_implied_end(None);
                    self.pop_until(g);
                    self.clear_fmt_to_marker();
                }
                DONE
            }
            Tag::BR => {
                let br = TagTok {
                    end: false,
                    attrs: false,
                    ..t
                };
                self.in_body(tok, Tk::Tag(br))
            }
            _ => {
                self.end_tag_in_body(g);
                DONE
            }
        }
    }

    fn step_foreign(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        const DONE: (Flow, Option<Raw>) = (Flow::Done, None);
        match tk {
            Tk::Null => {
                self.append_text("\u{fffd}");
                DONE
            }
            Tk::Text(s) => {
                if !all_ws(s) {
                    self.frameset_ok = false;
                }
                self.append_text(s);
                DONE
            }
            Tk::Comment(n) => {
                self.append_comment(n);
                DONE
            }
            Tk::Eof => DONE,
            Tk::Tag(t) if !t.end => {
                let breakout = matches!(
                    t.tag,
                    Tag::B
                        | Tag::BLOCKQUOTE
                        | Tag::BODY
                        | Tag::BR
                        | Tag::CENTER
                        | Tag::CODE
                        | Tag::DD
                        | Tag::DIV
                        | Tag::DL
                        | Tag::DT
                        | Tag::EM
                        | Tag::EMBED
                        | Tag::H1
                        | Tag::H2
                        | Tag::H3
                        | Tag::H4
                        | Tag::H5
                        | Tag::H6
                        | Tag::HEAD
                        | Tag::HR
                        | Tag::I
                        | Tag::IMG
                        | Tag::LI
                        | Tag::MENU
                        | Tag::META
                        | Tag::NOBR
                        | Tag::OL
                        | Tag::P
                        | Tag::PRE
                        | Tag::RUBY
                        | Tag::S
                        | Tag::SMALL
                        | Tag::SPAN
                        | Tag::STRONG
                        | Tag::STRIKE
                        | Tag::SUB
                        | Tag::SUP
                        | Tag::TABLE
                        | Tag::TT
                        | Tag::U
                        | Tag::UL
                        | Tag::VAR
                ) || t.tag == self.names.big
                    || t.tag == self.names.listing
                    || (t.tag == Tag::FONT
                        && tok
                            .attrs
                            .iter()
                            .any(|&a| matches!(tok.attr(a).0, "color" | "face" | "size")));
                if breakout {
                    return self.break_out(tok, tk);
                }
                let cur = self.cur();
                let ns = self.nodes[cur as usize].ns;
                let mut t = t;
                if ns == Ns::Svg {
                    let name = tok.name();
                    let adjusted = svg_tag_name(name);
                    if adjusted != name {
                        let lc = t.tag;
                        t.tag = self.intern(adjusted);
                        self.lower.insert(t.tag, lc);
                    }
                }
                self.insert_element(tok, t, ns, !t.self_closing);
                DONE
            }
            Tk::Tag(t) => {
                if matches!(t.tag, Tag::BR | Tag::P) {
                    return self.break_out(tok, tk);
                }
                let top = self.open.len() - 1;
                if top > 0 && self.nodes[self.open[top] as usize].ns != Ns::Html {
                    // The spec walks down the run of foreign elements above the topmost HTML
                    // one for an element of this name: the chains and bounds answer in O(1).
                    let h = self.bounds[top - 1].html.saturating_sub(1);
                    let e = self.top_foreign[Self::slot(t.tag)];
                    if e != NONE && self.nodes[e as usize].at > h {
                        self.truncate(self.nodes[e as usize].at as usize);
                        return DONE;
                    }
                    if h == 0 {
                        return DONE;
                    }
                    let mode = self.mode;
                    return self.step(tok, mode, tk);
                }
                let name = tok.name();
                let mut i = top;
                let mut first = true;
                loop {
                    if i == 0 {
                        return DONE;
                    }
                    let e = self.open[i];
                    let n = &self.nodes[e as usize];
                    if !first && n.ns == Ns::Html {
                        let mode = self.mode;
                        return self.step(tok, mode, tk);
                    }
                    if self.name_of(n.tag).eq_ignore_ascii_case(name) {
                        self.truncate(i);
                        return DONE;
                    }
                    first = false;
                    i -= 1;
                }
            }
        }
    }

    /// An HTML start tag (or `</br>`, `</p>`) in foreign content: pops back to HTML content.
    fn break_out(&mut self, tok: &Tokenizer, tk: Tk) -> (Flow, Option<Raw>) {
        while let Some(&e) = self.open.last() {
            let n = &self.nodes[e as usize];
            if n.ns == Ns::Html || self.math_text_point(n) || self.svg_html_point(n) {
                break;
            }
            self.pop();
        }
        let mode = self.mode;
        self.step(tok, mode, tk)
    }

    /// Lays the linked tree out in preorder into the arena (template contents are dropped and
    /// counted in their template's bytes, as the html5ever sink does).
    ///
    /// # Complexity
    /// O(n + text): one iterative preorder walk.
    pub(crate) fn into_dom(mut self) -> Dom {
        let mut out = Builder::default();
        // Sized once: growing them node by node copied and faulted in every doubling.
        out.dom.nodes.reserve(self.nodes.len());
        out.last_child.reserve(self.nodes.len());
        out.dom.attrs.reserve(self.attrs.len());
        out.dom.markup_bytes.reserve(self.nodes.len());
        out.adopt_strings(std::mem::take(&mut self.strings));
        // The parse's text becomes the arena's: a text node of one piece keeps its range, one
        // of several gets their concatenation appended (the arena reads text only by range).
        out.dom.text = std::mem::take(&mut self.text);
        let mut explicit = Vec::with_capacity(if self.spans { self.nodes.len() } else { 0 });
        let mut tag_map: Vec<Tag> = vec![Tag::NONE; self.custom.len()];
        let mut buf = String::new();
        let mut stack: Vec<(u32, u32)> = vec![(0, NONE)];
        while let Some((old, parent)) = stack.pop() {
            let n = &self.nodes[old as usize];
            let new = out.push(n.kind, n.tag, parent, "");
            match n.kind {
                Kind::Text => {
                    let (first, _) = n.data;
                    let (a, b, next) = self.pieces[first as usize];
                    out.node_mut(new).data = if next == NONE {
                        (a, b)
                    } else {
                        buf.clear();
                        let mut p = first;
                        while p != NONE {
                            let (a, b, next) = self.pieces[p as usize];
                            buf.push_str(&out.dom.text[a as usize..b as usize]);
                            p = next;
                        }
                        let start = out.dom.text.len() as u32;
                        out.dom.text.push_str(&buf);
                        (start, out.dom.text.len() as u32)
                    };
                }
                Kind::Comment => out.node_mut(new).data = (0, n.comment_len),
                Kind::Element => {
                    let tag = if n.tag.0 >= Tag::FIRST_CUSTOM {
                        let k = (n.tag.0 - Tag::FIRST_CUSTOM) as usize;
                        if tag_map[k] == Tag::NONE {
                            tag_map[k] = out.intern(&self.custom[k]);
                        }
                        tag_map[k]
                    } else {
                        n.tag
                    };
                    let node = out.node_mut(new);
                    node.tag = tag;
                    node.foreign = n.ns != Ns::Html;
                    let template = match n.template {
                        NONE => 0,
                        t => self.fragment_bytes(t),
                    };
                    out.set_markup_bytes(new, n.attr_bytes.saturating_add(template));
                    for &(k, v) in &self.attrs[n.data.0 as usize..n.data.1 as usize] {
                        out.push_attr_at(k, v);
                    }
                }
                _ => {}
            }
            if self.spans {
                out.node_mut(new).span = n.span;
                explicit.push(n.explicit);
            }
            let mut c = n.last;
            while c != NONE {
                stack.push((c, new));
                c = self.nodes[c as usize].prev;
            }
        }
        if !self.spans {
            return out.finish(self.src.len());
        }
        let mut dom = out.finish_with_spans(self.src.as_bytes(), &explicit);
        dom.has_spans = true;
        crate::dom::sink::extend_root_spans(&mut dom, self.src.as_bytes());
        dom
    }

    /// Source bytes of a template's contents, counted as [`Dom::subtree_bytes`] counts nodes.
    fn fragment_bytes(&self, root: u32) -> u32 {
        let mut total = 0u32;
        let mut stack = vec![self.nodes[root as usize].first];
        while let Some(mut c) = stack.pop() {
            while c != NONE {
                let n = &self.nodes[c as usize];
                let own = match n.kind {
                    Kind::Text => {
                        let mut len = 0u32;
                        let mut p = n.data.0;
                        while p != NONE {
                            let (a, b, next) = self.pieces[p as usize];
                            len = len.saturating_add(b - a);
                            p = next;
                        }
                        len
                    }
                    Kind::Comment => comment_markup_bytes(n.comment_len),
                    Kind::Element => {
                        if n.template != NONE {
                            stack.push(self.nodes[n.template as usize].first);
                        }
                        element_markup_bytes(self.name_of(n.tag).len(), n.attr_bytes)
                    }
                    _ => 0,
                };
                total = total.saturating_add(own);
                if n.first != NONE {
                    stack.push(n.first);
                }
                c = n.next;
            }
        }
        total
    }
}

#[derive(Clone, Copy)]
enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// Per entry of the stack of open elements: the stack index + 1 of the topmost element at or
/// below it that bounds each scope, or is special (0: none).
#[derive(Clone, Copy, Default)]
struct Bounds {
    default: u32,
    list_item: u32,
    button: u32,
    table: u32,
    special: u32,
    /// Special but not address, div or p: where the `li`/`dd`/`dt` walk stops.
    special_but_adp: u32,
    /// An HTML element: where an end tag's walk in foreign content stops.
    html: u32,
}

const HEADINGS: [Tag; 6] = [Tag::H1, Tag::H2, Tag::H3, Tag::H4, Tag::H5, Tag::H6];

fn type_hidden(tok: &Tokenizer) -> bool {
    tok.attrs.iter().any(|&a| {
        let (k, v) = tok.attr(a);
        k == "type" && v.eq_ignore_ascii_case("hidden")
    })
}

/// Whether a doctype puts the document in quirks mode (limited quirks changes no tree).
fn doctype_quirks(d: &super::tokenizer::Doctype) -> bool {
    const PUBLIC_PREFIXES: &[&str] = &[
        "-//advasoft ltd//dtd html 3.0 aswedit + extensions//",
        "-//as//dtd html 3.0 aswedit + extensions//",
        "-//ietf//dtd html 2.0 level 1//",
        "-//ietf//dtd html 2.0 level 2//",
        "-//ietf//dtd html 2.0 strict level 1//",
        "-//ietf//dtd html 2.0 strict level 2//",
        "-//ietf//dtd html 2.0 strict//",
        "-//ietf//dtd html 2.0//",
        "-//ietf//dtd html 2.1e//",
        "-//ietf//dtd html 3.0//",
        "-//ietf//dtd html 3.2 final//",
        "-//ietf//dtd html 3.2//",
        "-//ietf//dtd html 3//",
        "-//ietf//dtd html level 0//",
        "-//ietf//dtd html level 1//",
        "-//ietf//dtd html level 2//",
        "-//ietf//dtd html level 3//",
        "-//ietf//dtd html strict level 0//",
        "-//ietf//dtd html strict level 1//",
        "-//ietf//dtd html strict level 2//",
        "-//ietf//dtd html strict level 3//",
        "-//ietf//dtd html strict//",
        "-//ietf//dtd html//",
        "-//metrius//dtd metrius presentational//",
        "-//microsoft//dtd internet explorer 2.0 html strict//",
        "-//microsoft//dtd internet explorer 2.0 html//",
        "-//microsoft//dtd internet explorer 2.0 tables//",
        "-//microsoft//dtd internet explorer 3.0 html strict//",
        "-//microsoft//dtd internet explorer 3.0 html//",
        "-//microsoft//dtd internet explorer 3.0 tables//",
        "-//netscape comm. corp.//dtd html//",
        "-//netscape comm. corp.//dtd strict html//",
        "-//o'reilly and associates//dtd html 2.0//",
        "-//o'reilly and associates//dtd html extended 1.0//",
        "-//o'reilly and associates//dtd html extended relaxed 1.0//",
        "-//softquad software//dtd hotmetal pro 6.0::19990601::extensions to html 4.0//",
        "-//softquad//dtd hotmetal pro 4.0::19971010::extensions to html 4.0//",
        "-//spyglass//dtd html 2.0 extended//",
        "-//sq//dtd html 2.0 hotmetal + extensions//",
        "-//sun microsystems corp.//dtd hotjava html//",
        "-//sun microsystems corp.//dtd hotjava strict html//",
        "-//w3c//dtd html 3 1995-03-24//",
        "-//w3c//dtd html 3.2 draft//",
        "-//w3c//dtd html 3.2 final//",
        "-//w3c//dtd html 3.2//",
        "-//w3c//dtd html 3.2s draft//",
        "-//w3c//dtd html 4.0 frameset//",
        "-//w3c//dtd html 4.0 transitional//",
        "-//w3c//dtd html experimental 19960712//",
        "-//w3c//dtd html experimental 970421//",
        "-//w3c//dtd w3 html//",
        "-//w3o//dtd w3 html 3.0//",
        "-//webtechs//dtd mozilla html 2.0//",
        "-//webtechs//dtd mozilla html//",
    ];
    const PUBLIC_MATCHES: &[&str] = &[
        "-//w3o//dtd w3 html strict 3.0//en//",
        "-/w3c/dtd html 4.0 transitional/en",
        "html",
    ];
    const HTML4_PREFIXES: &[&str] = &[
        "-//w3c//dtd html 4.01 frameset//",
        "-//w3c//dtd html 4.01 transitional//",
    ];
    if d.force_quirks || d.name.as_deref() != Some("html") {
        return true;
    }
    let public = d.public_id.as_deref().map(str::to_ascii_lowercase);
    let system = d.system_id.as_deref().map(str::to_ascii_lowercase);
    if let Some(p) = &public {
        if PUBLIC_MATCHES.contains(&p.as_str()) {
            return true;
        }
    }
    if system.as_deref() == Some("http://www.ibm.com/data/dtd/v11/ibmxhtml1-transitional.dtd") {
        return true;
    }
    if let Some(p) = &public {
        if PUBLIC_PREFIXES.iter().any(|x| p.starts_with(x)) {
            return true;
        }
        if HTML4_PREFIXES.iter().any(|x| p.starts_with(x)) && system.is_none() {
            return true;
        }
    }
    false
}
