//! The tree interface SiteLevel reads ([`PageTree`]) and a small owned implementation
//! ([`SimpleTree`]) for tests and for callers without an HTML parser.

/// A page's DOM as SiteLevel reads it. Nodes are numbered 0..len() in document preorder:
/// node 0 is the root, parent(i) < i, and the subtree of i is the contiguous range i..subtree_end(i).
pub trait PageTree {
    /// Number of nodes; nodes are `0..len()`.
    fn len(&self) -> usize;
    /// Whether the tree has no node at all.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Parent of node `i` (`None` for the root); always smaller than `i`.
    fn parent(&self, i: usize) -> Option<usize>;
    /// First child of node `i` in document order.
    fn first_child(&self, i: usize) -> Option<usize>;
    /// Next sibling of node `i` in document order.
    fn next_sibling(&self, i: usize) -> Option<usize>;
    /// One past the last node of `i`'s subtree: the subtree is `i..subtree_end(i)`.
    fn subtree_end(&self, i: usize) -> usize;
    /// What node `i` is.
    fn node(&self, i: usize) -> NodeView<'_>;
    /// Value of attribute `name` (lowercase) on element i.
    fn attr(&self, i: usize, name: &str) -> Option<&str>;
    /// HTML source bytes that belong to node i itself, not to its descendants (its tags, or its text);
    /// the sum over a subtree is the subtree's HTML size.
    fn own_bytes(&self, i: usize) -> u64;
}

/// What one node of a [`PageTree`] is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeView<'a> {
    /// An element, with its lowercase local name.
    Element(&'a str /* lowercase local name */),
    /// A text node, with its text as in the DOM (entities decoded, whitespace as is).
    Text(&'a str),
    /// Anything else: document, comment, doctype, processing instruction.
    Other, /* document, comment, doctype */
}

const NONE: usize = usize::MAX;

#[derive(Debug, Clone)]
enum Kind {
    Element(Box<str>),
    Text(Box<str>),
    Other,
}

#[derive(Debug, Clone)]
struct Node {
    kind: Kind,
    attrs: Vec<(Box<str>, Box<str>)>,
    parent: usize,
    first_child: usize,
    last_child: usize,
    next_sibling: usize,
    subtree_end: usize,
    own_bytes: u64,
}

/// An owned [`PageTree`] stored as flat vectors (no recursion anywhere, so a 1,000,000-deep tree
/// builds, reads and drops without stack growth).
///
/// Build one with [`SimpleTree::builder`] or parse simple, well-formed markup with
/// [`SimpleTree::from_markup`]. Node 0 is always an [`NodeView::Other`] document root.
///
/// ```
/// use sitelevel::{NodeView, PageTree, SimpleTree};
/// let mut b = SimpleTree::builder();
/// b.open("div").attr("id", "nav").text("Home").close();
/// let t = b.finish();
/// assert_eq!(t.len(), 3); // document, div, text
/// assert_eq!(t.node(1), NodeView::Element("div"));
/// assert_eq!(t.attr(1, "id"), Some("nav"));
/// assert_eq!(t.own_bytes(2), 4);
/// ```
#[derive(Debug, Clone)]
pub struct SimpleTree {
    nodes: Vec<Node>,
}

impl SimpleTree {
    /// Starts a builder holding just the document root (node 0).
    pub fn builder() -> SimpleTreeBuilder {
        SimpleTreeBuilder::new()
    }

    /// Parses a small, well-formed subset of HTML: `<tag a="v" b=v c>`, `</tag>`, `<tag/>`, the
    /// void elements (`br`, `img`, `hr`, `input`, `meta`, `link`, …), `<!-- comments -->`,
    /// `<!doctype …>` and text (no entity decoding). Unclosed elements are closed at the end and a
    /// stray end tag closes up to the nearest open element of that name (or is ignored).
    /// Each node's own bytes are the byte lengths of its tags (or text) in `markup`.
    ///
    /// Meant for tests and examples, not for real pages: use a real HTML parser for those.
    ///
    /// # Complexity
    /// O(m) time for m bytes of markup (plus O(depth) per stray end tag), no recursion.
    pub fn from_markup(markup: &str) -> SimpleTree {
        const VOID: &[&str] = &[
            "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
            "track", "wbr",
        ];
        let mut b = SimpleTreeBuilder::new();
        let bytes = markup.as_bytes();
        let mut pos = 0;
        while pos < bytes.len() {
            if bytes[pos] != b'<' {
                let end = markup[pos..].find('<').map_or(bytes.len(), |k| pos + k);
                b.text(&markup[pos..end]);
                pos = end;
                continue;
            }
            if markup[pos..].starts_with("<!--") {
                let end = markup[pos + 4..]
                    .find("-->")
                    .map_or(bytes.len(), |k| pos + 4 + k + 3);
                b.other().own_bytes((end - pos) as u64);
                pos = end;
                continue;
            }
            let end = markup[pos..].find('>').map_or(bytes.len(), |k| pos + k + 1);
            let tag = &markup[pos + 1..end.saturating_sub(1).max(pos + 1)];
            let len = (end - pos) as u64;
            pos = end;
            if tag.starts_with('!') || tag.starts_with('?') {
                b.other().own_bytes(len);
            } else if let Some(name) = tag.strip_prefix('/') {
                b.close_named(&name.trim().to_ascii_lowercase(), len);
            } else {
                let (tag, self_closing) = match tag.strip_suffix('/') {
                    Some(t) => (t, true),
                    None => (tag, false),
                };
                let name_end = tag
                    .find(|c: char| c.is_ascii_whitespace())
                    .unwrap_or(tag.len());
                let name = tag[..name_end].to_ascii_lowercase();
                b.open(&name).own_bytes(len);
                parse_attrs(&tag[name_end..], &mut b);
                if self_closing || VOID.contains(&name.as_str()) {
                    b.close_with_bytes(0);
                }
            }
        }
        b.finish()
    }

    /// Sets the own bytes of node `i` (see [`PageTree::own_bytes`]).
    ///
    /// # Panics
    /// If `i >= self.len()`.
    pub fn set_own_bytes(&mut self, i: usize, bytes: u64) {
        self.nodes[i].own_bytes = bytes;
    }
}

fn parse_attrs(mut s: &str, b: &mut SimpleTreeBuilder) {
    loop {
        s = s.trim_start();
        if s.is_empty() {
            return;
        }
        let name_end = s
            .find(|c: char| c.is_ascii_whitespace() || c == '=')
            .unwrap_or(s.len());
        let name = s[..name_end].to_ascii_lowercase();
        s = s[name_end..].trim_start();
        let value;
        if let Some(rest) = s.strip_prefix('=') {
            let rest = rest.trim_start();
            if let Some(q) = rest.chars().next().filter(|&c| c == '"' || c == '\'') {
                let body = &rest[1..];
                let close = body.find(q).unwrap_or(body.len());
                value = &body[..close];
                s = body.get(close + 1..).unwrap_or("");
            } else {
                let end = rest
                    .find(|c: char| c.is_ascii_whitespace())
                    .unwrap_or(rest.len());
                value = &rest[..end];
                s = &rest[end..];
            }
        } else {
            value = "";
        }
        b.attr(&name, value);
    }
}

impl PageTree for SimpleTree {
    fn len(&self) -> usize {
        self.nodes.len()
    }
    fn parent(&self, i: usize) -> Option<usize> {
        opt(self.nodes[i].parent)
    }
    fn first_child(&self, i: usize) -> Option<usize> {
        opt(self.nodes[i].first_child)
    }
    fn next_sibling(&self, i: usize) -> Option<usize> {
        opt(self.nodes[i].next_sibling)
    }
    fn subtree_end(&self, i: usize) -> usize {
        self.nodes[i].subtree_end
    }
    fn node(&self, i: usize) -> NodeView<'_> {
        match &self.nodes[i].kind {
            Kind::Element(n) => NodeView::Element(n),
            Kind::Text(t) => NodeView::Text(t),
            Kind::Other => NodeView::Other,
        }
    }
    fn attr(&self, i: usize, name: &str) -> Option<&str> {
        self.nodes[i]
            .attrs
            .iter()
            .find(|(n, _)| &**n == name)
            .map(|(_, v)| &**v)
    }
    fn own_bytes(&self, i: usize) -> u64 {
        self.nodes[i].own_bytes
    }
}

fn opt(i: usize) -> Option<usize> {
    (i != NONE).then_some(i)
}

/// Builds a [`SimpleTree`] in document order: [`open`](Self::open) an element, add
/// [`text`](Self::text), [`close`](Self::close) it. Methods chain.
///
/// Default own bytes: an element counts `<name>` and `</name>` (plus ` k="v"` per attribute), a
/// text its UTF-8 length, other nodes 0; [`own_bytes`](Self::own_bytes) overrides the last node's.
#[derive(Debug)]
pub struct SimpleTreeBuilder {
    nodes: Vec<Node>,
    stack: Vec<usize>,
    last: usize,
    /// Whether `last`'s own bytes were set explicitly (then attributes don't add to them).
    explicit: bool,
}

impl Default for SimpleTreeBuilder {
    fn default() -> Self {
        Self::new()
    }
}

impl SimpleTreeBuilder {
    /// A builder holding just the document root (node 0, [`NodeView::Other`]), which is open.
    pub fn new() -> Self {
        let root = Node {
            kind: Kind::Other,
            attrs: Vec::new(),
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            subtree_end: 1,
            own_bytes: 0,
        };
        SimpleTreeBuilder {
            nodes: vec![root],
            stack: vec![0],
            last: 0,
            explicit: false,
        }
    }

    fn push(&mut self, kind: Kind, own_bytes: u64) -> usize {
        let i = self.nodes.len();
        // The root is never popped (see `close`), so there is always an open node.
        let parent = *self.stack.last().unwrap_or(&0);
        self.nodes.push(Node {
            kind,
            attrs: Vec::new(),
            parent,
            first_child: NONE,
            last_child: NONE,
            next_sibling: NONE,
            subtree_end: i + 1,
            own_bytes,
        });
        let p = &mut self.nodes[parent];
        let prev = p.last_child;
        p.last_child = i;
        if prev == NONE {
            p.first_child = i;
        } else {
            self.nodes[prev].next_sibling = i;
        }
        self.last = i;
        self.explicit = false;
        i
    }

    /// Opens an element named `name` (stored lowercase) as the last child of the open element.
    pub fn open(&mut self, name: &str) -> &mut Self {
        let name = name.to_ascii_lowercase();
        let bytes = 2 * name.len() as u64 + 5;
        let i = self.push(Kind::Element(name.into()), bytes);
        self.stack.push(i);
        self
    }

    /// Adds attribute `name="value"` to the last opened element (the name is stored lowercase).
    ///
    /// # Panics
    /// If the last added node is not an element.
    pub fn attr(&mut self, name: &str, value: &str) -> &mut Self {
        let n = &mut self.nodes[self.last];
        assert!(
            matches!(n.kind, Kind::Element(_)),
            "attr() must follow open()"
        );
        if !self.explicit {
            n.own_bytes += (name.len() + value.len() + 4) as u64;
        }
        n.attrs
            .push((name.to_ascii_lowercase().into(), value.into()));
        self
    }

    /// Adds a text node as the last child of the open element.
    pub fn text(&mut self, text: &str) -> &mut Self {
        self.push(Kind::Text(text.into()), text.len() as u64);
        self
    }

    /// Adds an [`NodeView::Other`] leaf (a comment, say) as the last child of the open element.
    pub fn other(&mut self) -> &mut Self {
        self.push(Kind::Other, 0);
        self
    }

    /// Sets the own bytes of the last added node (see [`PageTree::own_bytes`]).
    pub fn own_bytes(&mut self, bytes: u64) -> &mut Self {
        self.nodes[self.last].own_bytes = bytes;
        self.explicit = true;
        self
    }

    /// Closes the innermost open element. Closing with only the root open does nothing.
    pub fn close(&mut self) -> &mut Self {
        if self.stack.len() > 1 {
            let i = self.stack.pop().unwrap_or(0);
            self.nodes[i].subtree_end = self.nodes.len();
        }
        self
    }

    /// Closes the innermost open element, adding `bytes` (its end tag) to its own bytes.
    fn close_with_bytes(&mut self, bytes: u64) {
        if let Some(&i) = self.stack.last() {
            if i != 0 {
                self.nodes[i].own_bytes += bytes;
            }
        }
        self.close();
    }

    /// Closes open elements up to and including the innermost one named `name`, if any.
    fn close_named(&mut self, name: &str, bytes: u64) {
        let Some(k) = self.stack.iter().rposition(|&i| {
            i != 0 && matches!(&self.nodes[i].kind, Kind::Element(n) if &**n == name)
        }) else {
            return;
        };
        while self.stack.len() > k + 1 {
            self.close();
        }
        self.close_with_bytes(bytes);
    }

    /// Closes whatever is still open and returns the tree.
    pub fn finish(mut self) -> SimpleTree {
        let n = self.nodes.len();
        for &i in &self.stack {
            self.nodes[i].subtree_end = n;
        }
        SimpleTree { nodes: self.nodes }
    }
}
