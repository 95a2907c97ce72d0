//! html5ever `TreeSink` that builds the arena directly, with or without source spans.
//!
//! html5ever reports no byte offsets, so for spans ([`parse_within`]) the input is fed in
//! chunks that each end just after a `>`: every tag token ends exactly at the end of the chunk
//! it is emitted in. A start tag therefore spans from the chunk's last `<` to the chunk's end,
//! and an element popped by its own end tag ends at the end of that chunk. Elements the parser
//! implies (`<tbody>`, a missing `<html>`) take their span from their children. Feeding one
//! tag at a time costs about a tenth of the parse (0.45 ms of 3.7 ms a page on wcxb-dev, in
//! `pagelevel bench`), so [`parse_plain_within`], which builds the same tree without spans,
//! feeds [`Deadline::STRIDE`] tags at a time.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use html5ever::interface::{ElemName, ElementFlags, NodeOrText, QuirksMode, TreeSink};
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, Tokenizer, TokenizerOpts};
use html5ever::tree_builder::{TreeBuilder, TreeBuilderOpts};
use html5ever::TokenizerResult;
use html5ever::{ns, Attribute, LocalName, Namespace, QualName};

use super::tag::Tag;
use super::tree::{
    attrs_source_bytes, comment_markup_bytes, element_markup_bytes, keep_attr, Builder, Dom, Kind,
    Span, NONE,
};
use crate::config::Deadline;
use crate::{Error, Limits, Result};

/// Parses decoded HTML into the arena.
///
/// # Errors
/// [`Error::TooManyNodes`] when the page builds more than `limits.max_nodes` nodes, and
/// [`Error::TooLarge`] when the text is over `limits.max_input_bytes` (or 4 GiB).
///
/// # Complexity
/// Linear in the input for the sink's own work; html5ever's tree construction is linear on
/// real pages, but some of its scope checks scan the whole stack of open elements: `n`
/// nested `<div>`s cost O(n²) (a million of them take hours), nested `<span>`s O(n). Only
/// [`parse_within`] stops such a page; this function has no time limit.
pub fn parse(html: &str, limits: &Limits) -> Result<Dom> {
    parse_within(html, limits, &Deadline::none())
}

/// Like [`parse`], and [`Error::Timeout`] once `deadline` passes (checked every
/// [`Deadline::STRIDE`] chunks, i.e. tags).
pub fn parse_within(html: &str, limits: &Limits, deadline: &Deadline) -> Result<Dom> {
    drive(html, limits, deadline, true)
}

/// Like [`parse_within`] without source spans (every [`super::Span`] unknown): the same tree,
/// faster, since html5ever is fed [`Deadline::STRIDE`] tags at a time instead of one.
pub fn parse_plain_within(html: &str, limits: &Limits, deadline: &Deadline) -> Result<Dom> {
    drive(html, limits, deadline, false)
}

/// Feeds `html` to html5ever in chunks that end just after a `>`: one tag a chunk with
/// `spans`, [`Deadline::STRIDE`] tags a chunk without, checking `deadline` between chunks.
fn drive(html: &str, limits: &Limits, deadline: &Deadline, spans: bool) -> Result<Dom> {
    super::tree::check_size(html, limits)?;
    let sink = Sink::new(html, limits.max_nodes, spans);
    let builder = TreeBuilder::new(
        sink,
        TreeBuilderOpts {
            scripting_enabled: false,
            ..Default::default()
        },
    );
    // html5ever's `discard_bom` drops a U+FEFF at the start of every `feed`, and we feed in
    // chunks: only the stream's first character is a byte order mark, so it is skipped here.
    let tok = Tokenizer::new(
        builder,
        TokenizerOpts {
            discard_bom: false,
            ..TokenizerOpts::default()
        },
    );
    let whole = StrTendril::from_slice(html);
    let queue = BufferQueue::default();
    let bytes = html.as_bytes();
    let mut start = if html.starts_with('\u{feff}') { 3 } else { 0 };
    // A `>` inside a quoted attribute splits a tag over chunks: keep the last `<` seen.
    let mut last_lt = usize::MAX;
    let sink = &tok.sink.sink;
    for (k, gt) in memchr::memchr_iter(b'>', bytes).enumerate() {
        // Without spans a chunk ends at every STRIDE-th `>`.
        if !spans && (k + 1) % Deadline::STRIDE != 0 {
            continue;
        }
        // Tree construction can cost more than linear time (scope checks walk the stack of
        // open elements), so the deadline is checked inside the parse, not only after it:
        // every STRIDE tags either way (with spans every STRIDE-th chunk, without every chunk).
        deadline.check_every(k + 1, "parse")?;
        let end = gt + 1;
        if spans {
            if let Some(p) = memchr::memrchr(b'<', &bytes[start..end]) {
                last_lt = start + p;
            }
            let tag_start = if last_lt == usize::MAX { end } else { last_lt };
            sink.pos.set(Chunk {
                start: start as u32,
                tag_start: tag_start as u32,
                end: end as u32,
            });
        }
        feed(&tok, &queue, &whole, html, start, end, deadline)?;
        if sink.overflow.get() {
            return Err(Error::TooManyNodes {
                limit: limits.max_nodes,
            });
        }
        start = end;
    }
    let len = html.len() as u32;
    sink.pos.set(Chunk {
        start: start as u32,
        tag_start: len,
        end: len,
    });
    if start < html.len() {
        feed(&tok, &queue, &whole, html, start, html.len(), deadline)?;
    }
    tok.end();
    if tok.sink.sink.overflow.get() {
        return Err(Error::TooManyNodes {
            limit: limits.max_nodes,
        });
    }
    Ok(tok.sink.sink.into_dom(html.len()))
}

/// Longest piece of a chunk fed to html5ever at once. A chunk is bytes up to a `>`, so one huge
/// tag is one chunk; html5ever checks each attribute's name against all earlier ones of its tag
/// (quadratic in the attributes), so a long chunk goes in pieces with the deadline checked
/// between them, and the time limit holds within about one piece's work.
const MAX_PIECE: usize = 4 << 10;

/// Feeds `html[start..end]` to the tokenizer in pieces of at most [`MAX_PIECE`] bytes (cut at
/// character boundaries), checking `deadline` between pieces. The tree is the same as fed
/// whole: html5ever tokenizes a stream, and the sink's spans come from the chunk, not the piece.
fn feed(
    tok: &Tokenizer<TreeBuilder<u32, Sink<'_>>>,
    queue: &BufferQueue,
    whole: &StrTendril,
    html: &str,
    start: usize,
    end: usize,
    deadline: &Deadline,
) -> Result<()> {
    let mut at = start;
    while at < end {
        let mut cut = end.min(at + MAX_PIECE);
        while !html.is_char_boundary(cut) {
            cut += 1;
        }
        if at > start {
            deadline.check("parse")?;
        }
        queue.push_back(whole.subtendril(at as u32, (cut - at) as u32));
        // A script end or a `<meta charset>` returns early: feed on until the piece is used up.
        while !matches!(tok.feed(queue), TokenizerResult::Done) {}
        at = cut;
    }
    Ok(())
}

#[derive(Clone, Copy, Default)]
struct Chunk {
    start: u32,
    tag_start: u32,
    end: u32,
}

/// A node while the tree is being built: linked so the tree builder can move it around.
struct BNode {
    parent: u32,
    first_child: u32,
    last_child: u32,
    prev: u32,
    next: u32,
    kind: Kind,
    tag: Tag,
    foreign: bool,
    attrs: (u32, u32),
    text: StrTendril,
    comment_len: u32,
    span: Span,
    explicit_start: bool,
    template_contents: u32,
    /// Bytes of all the start tag's attributes (see [`Dom::subtree_bytes`]).
    attr_bytes: u32,
}

impl BNode {
    fn new(kind: Kind) -> BNode {
        BNode {
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev: NONE,
            next: NONE,
            kind,
            tag: Tag::NONE,
            foreign: false,
            attrs: (0, 0),
            text: StrTendril::new(),
            comment_len: 0,
            span: Span::UNKNOWN,
            explicit_start: false,
            template_contents: NONE,
            attr_bytes: 0,
        }
    }
}

#[derive(Default)]
struct Build {
    nodes: Vec<BNode>,
    names: Vec<QualName>,
    /// (name range, value range) into `strings`.
    attrs: Vec<((u32, u32), (u32, u32))>,
    strings: String,
}

struct Sink<'a> {
    src: &'a str,
    b: RefCell<Build>,
    pos: Cell<Chunk>,
    /// Whether `pos` is kept up to date, so nodes get source spans.
    spans: bool,
    max_nodes: usize,
    overflow: Cell<bool>,
}

/// The element name handed back to the tree builder (atoms clone without allocating).
#[derive(Debug)]
pub struct Name {
    ns: Namespace,
    local: LocalName,
}

impl ElemName for Name {
    fn ns(&self) -> &Namespace {
        &self.ns
    }
    fn local_name(&self) -> &LocalName {
        &self.local
    }
}

fn empty_name() -> QualName {
    QualName::new(None, ns!(), LocalName::from(""))
}

impl<'a> Sink<'a> {
    fn new(src: &'a str, max_nodes: usize, spans: bool) -> Sink<'a> {
        let mut b = Build::default();
        // Rough capacity: real pages have about one node per 30 bytes.
        b.nodes.reserve(src.len() / 40 + 16);
        b.names.reserve(src.len() / 40 + 16);
        b.nodes.push(BNode::new(Kind::Document));
        b.names.push(empty_name());
        Sink {
            src,
            b: RefCell::new(b),
            pos: Cell::new(Chunk::default()),
            spans,
            max_nodes,
            overflow: Cell::new(false),
        }
    }

    fn new_node(&self, b: &mut Build, node: BNode, name: QualName) -> u32 {
        if b.nodes.len() >= self.max_nodes {
            self.overflow.set(true);
        }
        b.nodes.push(node);
        b.names.push(name);
        (b.nodes.len() - 1) as u32
    }

    /// Whether the source at the current tag start is `<name` (or `</name` when `close`).
    fn tag_here(&self, name: &str, close: bool) -> bool {
        let at = self.pos.get().tag_start as usize;
        let rest = &self.src.as_bytes()[at.min(self.src.len())..];
        let skip = if close { 2 } else { 1 };
        if rest.len() < skip + name.len() || rest[0] != b'<' || (close && rest[1] != b'/') {
            return false;
        }
        let cand = &rest[skip..skip + name.len()];
        cand.eq_ignore_ascii_case(name.as_bytes())
            && rest
                .get(skip + name.len())
                .is_none_or(|c| matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'))
    }

    fn text_node(&self, b: &mut Build, text: &StrTendril) -> u32 {
        let mut node = BNode::new(Kind::Text);
        node.text = text.clone();
        if !self.spans {
            return self.new_node(b, node, empty_name());
        }
        let c = self.pos.get();
        node.span = Span {
            start: c.start,
            end: if c.tag_start >= c.start {
                c.tag_start
            } else {
                c.end
            },
        };
        self.new_node(b, node, empty_name())
    }

    fn into_dom(self, source_len: usize) -> Dom {
        let mut b = self.b.into_inner();
        let mut out = Builder::default();
        out.dom.nodes.reserve(b.nodes.len());
        out.last_child.reserve(b.nodes.len());
        // The attributes' text moves over whole; their ranges stay valid.
        out.adopt_strings(std::mem::take(&mut b.strings));
        let mut explicit = Vec::with_capacity(b.nodes.len());
        // Iterative preorder walk from the document; template contents and removed nodes
        // are not reachable and are dropped.
        let mut stack: Vec<(u32, u32)> = vec![(0, NONE)];
        while let Some((old, new_parent)) = stack.pop() {
            let n = &b.nodes[old as usize];
            let text: &str = match n.kind {
                Kind::Text => &n.text,
                _ => "",
            };
            let new = out.push(n.kind, n.tag, new_parent, text);
            if n.kind == Kind::Comment {
                out.node_mut(new).data = (0, n.comment_len);
            }
            if n.kind == Kind::Element {
                let tag = if n.tag == Tag::NONE {
                    out.intern(&b.names[old as usize].local)
                } else {
                    n.tag
                };
                let node = out.node_mut(new);
                node.tag = tag;
                node.foreign = n.foreign;
                let template = match n.template_contents {
                    NONE => 0,
                    t => b.fragment_bytes(t),
                };
                out.set_markup_bytes(new, n.attr_bytes.saturating_add(template));
                for &(k, v) in &b.attrs[n.attrs.0 as usize..n.attrs.1 as usize] {
                    out.push_attr_at(k, v);
                }
            }
            out.node_mut(new).span = n.span;
            explicit.push(n.explicit_start);
            // Push children in reverse so the first child is visited first.
            let mut c = n.last_child;
            while c != NONE {
                stack.push((c, new));
                c = b.nodes[c as usize].prev;
            }
        }
        if !self.spans {
            return out.finish(source_len);
        }
        let mut dom = out.finish_with_spans(self.src.as_bytes(), &explicit);
        dom.has_spans = true;
        extend_root_spans(&mut dom, self.src.as_bytes());
        dom
    }
}

/// Extends the spans of `<html>` and `<body>` over their end tags and the html element's over
/// the rest of the source: a parser keeps both open to the end (`</body>` and `</html>` pop
/// nothing), and moves what follows `</html>` into it.
pub(crate) fn extend_root_spans(dom: &mut Dom, src: &[u8]) {
    // `</body>` and `</html>` never pop their element (the parser keeps them open until
    // the end), so extend their spans over their end tags.
    for i in 0..dom.nodes.len().min(8) {
        let n = &dom.nodes[i];
        if n.kind != Kind::Element || n.foreign || !n.span.is_known() {
            continue;
        }
        let from = n.span.end as usize;
        let close: &[u8] = match n.tag {
            Tag::HTML => b"</html",
            Tag::BODY => b"</body",
            _ => continue,
        };
        if let Some(p) = memchr::memmem::rfind(&src[from..], close) {
            let gt = memchr::memchr(b'>', &src[from + p..]).map_or(src.len(), |q| from + p + q + 1);
            dom.nodes[i].span.end = gt as u32;
        }
    }
    // The html element contains what its end tag is followed by (the parser moves it in).
    if let Some(h) = (0..dom.nodes.len().min(4)).find(|&i| dom.nodes[i].tag == Tag::HTML) {
        if dom.nodes[h].span.is_known() {
            dom.nodes[h].span.end = dom.nodes[h].span.end.max(src.len() as u32);
        }
    }
}

impl Build {
    /// Estimated source bytes of the children of `root` (a template's fragment), counted as
    /// [`Dom::subtree_bytes`] counts nodes. Iterative; O(size of the fragment).
    fn fragment_bytes(&self, root: u32) -> u32 {
        let mut total = 0u32;
        let mut stack = vec![self.nodes[root as usize].first_child];
        while let Some(mut c) = stack.pop() {
            while c != NONE {
                let n = &self.nodes[c as usize];
                let own = match n.kind {
                    Kind::Text => n.text.len() as u32,
                    Kind::Comment => comment_markup_bytes(n.comment_len),
                    Kind::Element => {
                        // A nested template's contents are walked like children.
                        if n.template_contents != NONE {
                            stack.push(self.nodes[n.template_contents as usize].first_child);
                        }
                        element_markup_bytes(self.names[c as usize].local.len(), n.attr_bytes)
                    }
                    _ => 0,
                };
                total = total.saturating_add(own);
                if n.first_child != NONE {
                    stack.push(n.first_child);
                }
                c = n.next;
            }
        }
        total
    }

    fn append(&mut self, parent: u32, child: u32) {
        let last = self.nodes[parent as usize].last_child;
        {
            let c = &mut self.nodes[child as usize];
            c.parent = parent;
            c.prev = last;
            c.next = NONE;
        }
        if last == NONE {
            self.nodes[parent as usize].first_child = child;
        } else {
            self.nodes[last as usize].next = child;
        }
        self.nodes[parent as usize].last_child = child;
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
                self.nodes[parent as usize].first_child = child;
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
            self.nodes[parent as usize].first_child = next;
        } else {
            self.nodes[prev as usize].next = next;
        }
        if next == NONE {
            self.nodes[parent as usize].last_child = prev;
        } else {
            self.nodes[next as usize].prev = prev;
        }
        let n = &mut self.nodes[node as usize];
        n.parent = NONE;
        n.prev = NONE;
        n.next = NONE;
    }

    fn push_attrs(&mut self, node: u32, attrs: &[Attribute]) {
        let from = self.attrs.len() as u32;
        let (old0, old1) = self.nodes[node as usize].attrs;
        // Re-append the node's existing attributes so its range stays contiguous.
        if old1 > old0 && old1 as usize != self.attrs.len() {
            for k in old0..old1 {
                let a = self.attrs[k as usize];
                self.attrs.push(a);
            }
        }
        let start = if old1 > old0 && old1 as usize == from as usize {
            old0
        } else {
            from
        };
        for a in attrs {
            let name: &str = &a.name.local;
            if !keep_attr(name) || !a.name.ns.is_empty() {
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
            self.strings.push_str(&a.value);
            let v1 = self.strings.len() as u32;
            self.attrs.push(((n0, n1), (n1, v1)));
        }
        self.nodes[node as usize].attrs = (start, self.attrs.len() as u32);
    }
}

impl TreeSink for Sink<'_> {
    type Handle = u32;
    type Output = Self;
    type ElemName<'b>
        = Name
    where
        Self: 'b;

    fn finish(self) -> Self {
        self
    }

    fn parse_error(&self, _msg: Cow<'static, str>) {}

    fn get_document(&self) -> u32 {
        0
    }

    fn elem_name<'b>(&'b self, target: &'b u32) -> Name {
        let b = self.b.borrow();
        let q = &b.names[*target as usize];
        Name {
            ns: q.ns.clone(),
            local: q.local.clone(),
        }
    }

    fn create_element(&self, name: QualName, attrs: Vec<Attribute>, flags: ElementFlags) -> u32 {
        let mut b = self.b.borrow_mut();
        let mut node = BNode::new(Kind::Element);
        node.foreign = name.ns != ns!(html);
        node.tag = super::tag::lookup(&name.local).unwrap_or(Tag::NONE);
        node.attr_bytes = attrs_source_bytes(attrs.iter().map(|a| (&*a.name.local, &*a.value)));
        if self.spans && self.tag_here(&name.local, false) {
            let c = self.pos.get();
            node.span = Span {
                start: c.tag_start,
                end: c.end,
            };
            node.explicit_start = true;
        }
        let id = self.new_node(&mut b, node, name);
        b.push_attrs(id, &attrs);
        if flags.template {
            let frag = self.new_node(&mut b, BNode::new(Kind::Document), empty_name());
            b.nodes[id as usize].template_contents = frag;
        }
        id
    }

    fn create_comment(&self, text: StrTendril) -> u32 {
        let mut b = self.b.borrow_mut();
        let mut node = BNode::new(Kind::Comment);
        node.comment_len = text.len() as u32;
        self.new_node(&mut b, node, empty_name())
    }

    fn create_pi(&self, _target: StrTendril, data: StrTendril) -> u32 {
        self.create_comment(data)
    }

    fn append(&self, parent: &u32, child: NodeOrText<u32>) {
        let mut b = self.b.borrow_mut();
        match child {
            NodeOrText::AppendNode(c) => b.append(*parent, c),
            NodeOrText::AppendText(t) => {
                let last = b.nodes[*parent as usize].last_child;
                if last != NONE && b.nodes[last as usize].kind == Kind::Text {
                    let n = &mut b.nodes[last as usize];
                    n.text.push_tendril(&t);
                    if !self.spans {
                        return;
                    }
                    let c = self.pos.get();
                    let end = if c.tag_start >= c.start {
                        c.tag_start
                    } else {
                        c.end
                    };
                    n.span.end = n.span.end.max(end);
                } else {
                    let id = self.text_node(&mut b, &t);
                    b.append(*parent, id);
                }
            }
        }
    }

    fn append_based_on_parent_node(&self, element: &u32, prev: &u32, child: NodeOrText<u32>) {
        let has_parent = self.b.borrow().nodes[*element as usize].parent != NONE;
        if has_parent {
            self.append_before_sibling(element, child);
        } else {
            self.append(prev, child);
        }
    }

    fn append_doctype_to_document(&self, _: StrTendril, _: StrTendril, _: StrTendril) {
        let mut b = self.b.borrow_mut();
        let id = self.new_node(&mut b, BNode::new(Kind::Doctype), empty_name());
        b.append(0, id);
    }

    fn get_template_contents(&self, target: &u32) -> u32 {
        let t = self.b.borrow().nodes[*target as usize].template_contents;
        if t == NONE {
            *target
        } else {
            t
        }
    }

    fn same_node(&self, x: &u32, y: &u32) -> bool {
        x == y
    }

    fn set_quirks_mode(&self, _mode: QuirksMode) {}

    fn append_before_sibling(&self, sibling: &u32, new_node: NodeOrText<u32>) {
        let mut b = self.b.borrow_mut();
        match new_node {
            NodeOrText::AppendNode(c) => {
                b.detach(c);
                b.insert_before(*sibling, c);
            }
            NodeOrText::AppendText(t) => {
                let prev = b.nodes[*sibling as usize].prev;
                if prev != NONE && b.nodes[prev as usize].kind == Kind::Text {
                    b.nodes[prev as usize].text.push_tendril(&t);
                } else {
                    let id = self.text_node(&mut b, &t);
                    b.insert_before(*sibling, id);
                }
            }
        }
    }

    fn add_attrs_if_missing(&self, target: &u32, attrs: Vec<Attribute>) {
        self.b.borrow_mut().push_attrs(*target, &attrs);
    }

    fn remove_from_parent(&self, target: &u32) {
        self.b.borrow_mut().detach(*target);
    }

    fn reparent_children(&self, node: &u32, new_parent: &u32) {
        let mut b = self.b.borrow_mut();
        let mut c = b.nodes[*node as usize].first_child;
        while c != NONE {
            let next = b.nodes[c as usize].next;
            b.detach(c);
            b.append(*new_parent, c);
            c = next;
        }
    }
}

impl<'s> Builder<'s> {
    /// Like [`Builder::finish`], but only derives a start for elements without an explicit one.
    pub(crate) fn finish_with_spans(mut self, src: &'s [u8], explicit: &[bool]) -> Dom {
        let source_len = src.len();
        // Elements with an explicit start tag keep it; the generic merge may only widen ends.
        let starts: Vec<u32> = self
            .dom
            .nodes
            .iter()
            .zip(explicit)
            .map(|(n, &e)| if e { n.span.start } else { NONE })
            .collect();
        for (n, &s) in self.dom.nodes.iter_mut().zip(&starts) {
            if n.kind == Kind::Element && s == NONE {
                n.span.start = NONE;
            }
        }
        self.src = Some(src);
        let mut dom = self.finish(source_len);
        for (n, &s) in dom.nodes.iter_mut().zip(&starts) {
            if s != NONE {
                n.span.start = s;
            }
        }
        dom
    }
}
