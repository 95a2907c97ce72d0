//! Subtree hashing: one 64-bit hash per node of a canonical form of its subtree.

use std::hash::Hasher as _;

use rayon::prelude::*;
use twox_hash::XxHash64;

use crate::tree::{NodeView, PageTree};

/// Fixed XxHash64 seed, so hashes are stable across runs, machines and thread counts.
pub const HASH_SEED: u64 = 0x5173_4c65_7665_6c31; // "SiteLevel1"

/// Hash value of a node that contributes nothing to the canonical form (a text node that is empty
/// after whitespace collapsing, script/style text when ignored, a comment or doctype). Such nodes
/// are skipped when their parent's hash is formed, and never counted.
pub const NO_CONTRIBUTION: u64 = 0;

/// Whether `hash` (from [`hash_page`]) is of a subtree holding some text of the canonical form.
///
/// Bit 0 of every node hash carries this flag; the other 63 bits are the hash proper. Text-free
/// subtrees (whitespace text, `<br>`, `<p></p>`, `<img>` without attributes, `<script>` when its
/// text is ignored, …) occur on nearly every page, so they are never counted as template evidence;
/// see [`crate::label`] for how they are labelled.
#[inline]
pub fn has_text(hash: u64) -> bool {
    hash & 1 == 1
}

/// What happens to the query string of an `href` when hrefs are part of the canonical form.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
#[serde(rename_all = "snake_case")]
pub enum HrefQuery {
    /// Keep the href exactly as written.
    Keep,
    /// Drop tracking and session parameters ([`is_tracking_param`]), keep the rest in order.
    #[default]
    DropTracking,
    /// Drop the whole query string (from `?` up to `#`).
    DropAll,
}

/// What the canonical form of a subtree keeps and what it ignores.
///
/// The canonical form of a node is its kind and token (element name, or text after whitespace
/// collapsing) followed by the canonical forms of its contributing children in order. Comments,
/// doctypes and whitespace-only text never contribute.
///
/// ### Default
/// Tag names and whitespace-collapsed text with every run of ASCII digits masked to one `0`;
/// no attributes; script and style text ignored. Rationale: template blocks (navigation, footers)
/// repeat their words and structure on every page, while attributes often carry per-page ids and
/// session noise, and digits carry dates, counters and prices that change from page to page
/// ("Updated 12:03"). The variants are plain fields so callers can measure them cheaply.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct HashOptions {
    /// Include the `id` attribute value of elements.
    pub id: bool,
    /// Include the `class` attribute value of elements (as written; class order matters).
    pub class: bool,
    /// Include the `href` attribute value of elements, canonicalised by [`Self::href_query`].
    pub href: bool,
    /// Mask every run of ASCII digits in `id`/`class` values to one `0` (`item-123` ≡ `item-7`).
    pub mask_attr_digits: bool,
    /// What to do with the query string of included hrefs.
    pub href_query: HrefQuery,
    /// Mask every run of ASCII digits in text to one `0` (`12:03` ≡ `9:55`).
    pub mask_text_digits: bool,
    /// Whether the text inside `<script>` and `<style>` counts (the elements themselves always do).
    pub script_style_text: bool,
}

impl Default for HashOptions {
    fn default() -> Self {
        HashOptions {
            id: false,
            class: false,
            href: false,
            mask_attr_digits: true,
            href_query: HrefQuery::DropTracking,
            mask_text_digits: true,
            script_style_text: false,
        }
    }
}

impl HashOptions {
    /// The default plus `id`, `class` and `href` (tracking parameters dropped, digits in
    /// `id`/`class` masked).
    pub fn with_attributes() -> Self {
        HashOptions {
            id: true,
            class: true,
            href: true,
            ..Self::default()
        }
    }

    /// The strictest form: text and tag names exactly as written (whitespace still collapsed),
    /// script/style text included, no masking, no attributes.
    pub fn exact_text() -> Self {
        HashOptions {
            mask_text_digits: false,
            mask_attr_digits: false,
            script_style_text: true,
            ..Self::default()
        }
    }
}

/// Whether query parameter `name` is tracking or session noise: `utm_*`, click ids (`fbclid`,
/// `gclid`, `gclsrc`, `dclid`, `msclkid`, `yclid`, `igshid`, `twclid`, `ttclid`), mailing ids
/// (`mc_cid`, `mc_eid`), analytics (`_ga`, `_gl`, `_hsenc`, `_hsmi`) and session ids (`sid`,
/// `sessionid`, `session_id`, `phpsessid`, `jsessionid`, `aspsessionid`, `cfid`, `cftoken`).
/// ASCII case is ignored.
pub fn is_tracking_param(name: &str) -> bool {
    const NAMES: &[&str] = &[
        "fbclid",
        "gclid",
        "gclsrc",
        "dclid",
        "msclkid",
        "yclid",
        "igshid",
        "twclid",
        "ttclid",
        "mc_cid",
        "mc_eid",
        "_ga",
        "_gl",
        "_hsenc",
        "_hsmi",
        "sid",
        "sessionid",
        "session_id",
        "phpsessid",
        "jsessionid",
        "aspsessionid",
        "cfid",
        "cftoken",
    ];
    name.as_bytes()
        .get(..4)
        .is_some_and(|p| p.eq_ignore_ascii_case(b"utm_"))
        || NAMES.iter().any(|n| n.eq_ignore_ascii_case(name))
}

/// Bytes that never occur in UTF-8, used as separators so the canonical form is prefix-free.
const END_TOKEN: u8 = 0xFF;
const END_HEAD: u8 = 0xFE;

/// Streams canonical bytes into an XxHash64 through a small stack buffer, collapsing whitespace
/// and masking digit runs on the way. No heap allocation.
struct Canon {
    h: XxHash64,
    buf: [u8; 128],
    n: usize,
}

impl Canon {
    fn new() -> Self {
        Canon {
            h: XxHash64::with_seed(HASH_SEED),
            buf: [0; 128],
            n: 0,
        }
    }

    #[inline]
    fn byte(&mut self, b: u8) {
        if self.n == self.buf.len() {
            self.flush();
        }
        self.buf[self.n] = b;
        self.n += 1;
    }

    #[inline]
    fn bytes(&mut self, s: &[u8]) {
        if self.n + s.len() > self.buf.len() {
            self.flush();
            if s.len() > self.buf.len() {
                self.h.write(s);
                return;
            }
        }
        self.buf[self.n..self.n + s.len()].copy_from_slice(s);
        self.n += s.len();
    }

    fn u64(&mut self, v: u64) {
        self.bytes(&v.to_le_bytes());
    }

    fn flush(&mut self) {
        self.h.write(&self.buf[..self.n]);
        self.n = 0;
    }

    /// Writes `s` with whitespace runs collapsed to one space, leading/trailing whitespace dropped,
    /// and (if `mask`) each ASCII digit run written as one `0`. Returns whether anything was written.
    fn text(&mut self, s: &str, mask: bool) -> bool {
        let mut wrote = false;
        let mut space = false;
        let mut digit = false;
        for c in s.chars() {
            if c.is_whitespace() {
                space = true;
                digit = false;
                continue;
            }
            if space && wrote {
                self.byte(b' ');
            }
            space = false;
            if mask && c.is_ascii_digit() {
                if !digit {
                    self.byte(b'0');
                }
                digit = true;
            } else {
                digit = false;
                let mut tmp = [0u8; 4];
                self.bytes(c.encode_utf8(&mut tmp).as_bytes());
            }
            wrote = true;
        }
        wrote
    }

    /// Writes an href with its query canonicalised per `q`.
    fn href(&mut self, href: &str, q: HrefQuery) {
        let href = href.trim();
        let (before_frag, frag) = match href.find('#') {
            Some(k) => href.split_at(k),
            None => (href, ""),
        };
        let (path, query) = match before_frag.find('?') {
            Some(k) => (&before_frag[..k], Some(&before_frag[k + 1..])),
            None => (before_frag, None),
        };
        match (q, query) {
            (HrefQuery::Keep, _) | (_, None) => self.bytes(before_frag.as_bytes()),
            (HrefQuery::DropAll, Some(_)) => self.bytes(path.as_bytes()),
            (HrefQuery::DropTracking, Some(query)) => {
                // `;jsessionid=…` path parameters are session noise too.
                let path = match path.find(';') {
                    Some(k) if is_tracking_param(param_name(&path[k + 1..])) => &path[..k],
                    _ => path,
                };
                self.bytes(path.as_bytes());
                let mut first = true;
                for p in query.split(['&', ';']) {
                    if p.is_empty() || is_tracking_param(param_name(p)) {
                        continue;
                    }
                    self.byte(if first { b'?' } else { b'&' });
                    self.bytes(p.as_bytes());
                    first = false;
                }
            }
        }
        self.bytes(frag.as_bytes());
    }

    fn finish(mut self) -> u64 {
        self.flush();
        self.h.finish()
    }
}

fn param_name(p: &str) -> &str {
    p.split('=').next().unwrap_or(p)
}

/// Mixes the has-text flag into bit 0 and keeps 0 free for [`NO_CONTRIBUTION`].
#[inline]
fn tag_hash(raw: u64, text: bool) -> u64 {
    let h = (raw & !1) | u64::from(text);
    if h == NO_CONTRIBUTION {
        2
    } else {
        h
    }
}

/// Hashes every node of `tree`: `out[i]` is the hash of the canonical form of `i`'s subtree
/// (see [`HashOptions`]), with bit 0 set iff that form holds text ([`has_text`]), or
/// [`NO_CONTRIBUTION`] for nodes that contribute nothing. Equal subtrees (up to the options) get
/// equal hashes on every page, run and machine.
///
/// A node's hash is XxHash64 (seed [`HASH_SEED`]) of its own token followed by its contributing
/// children's hashes in child order, computed in one pass from the last node to the first
/// (preorder puts children after parents), so no subtree is ever re-serialised.
///
/// # Complexity
/// Time O(n + t) for n nodes and t bytes of text and included attribute values; no recursion
/// (depth is unbounded); space: the output vector only (no per-node heap allocation).
pub fn hash_page<T: PageTree + ?Sized>(tree: &T, options: &HashOptions) -> Vec<u64> {
    let mut out = Vec::new();
    hash_page_into(tree, options, &mut out);
    out
}

/// [`hash_page`] into a caller's buffer (cleared first), to reuse its allocation across pages.
///
/// # Complexity
/// As [`hash_page`].
pub fn hash_page_into<T: PageTree + ?Sized>(tree: &T, options: &HashOptions, out: &mut Vec<u64>) {
    let n = tree.len();
    out.clear();
    out.resize(n, NO_CONTRIBUTION);
    for i in (0..n).rev() {
        let mut c = Canon::new();
        let mut text = false;
        match tree.node(i) {
            NodeView::Text(t) => {
                if !options.script_style_text {
                    if let Some(p) = tree.parent(i) {
                        if matches!(tree.node(p), NodeView::Element("script" | "style")) {
                            continue;
                        }
                    }
                }
                c.byte(b'T');
                if !c.text(t, options.mask_text_digits) {
                    continue;
                }
                c.byte(END_TOKEN);
                out[i] = tag_hash(c.finish(), true);
                continue;
            }
            NodeView::Element(name) => {
                c.byte(b'E');
                c.bytes(name.as_bytes());
                c.byte(END_TOKEN);
                let attrs = [(options.id, "id", b'i'), (options.class, "class", b'c')];
                for (on, attr, mark) in attrs {
                    if let Some(v) = tree.attr(i, attr).filter(|_| on) {
                        c.byte(mark);
                        c.text(v, options.mask_attr_digits);
                        c.byte(END_TOKEN);
                    }
                }
                if let Some(v) = tree.attr(i, "href").filter(|_| options.href) {
                    c.byte(b'h');
                    c.href(v, options.href_query);
                    c.byte(END_TOKEN);
                }
            }
            NodeView::Other => c.byte(b'O'),
        }
        c.byte(END_HEAD);
        let mut contributing = false;
        let mut child = tree.first_child(i);
        while let Some(k) = child {
            let h = out[k];
            if h != NO_CONTRIBUTION {
                c.u64(h);
                text |= has_text(h);
                contributing = true;
            }
            child = tree.next_sibling(k);
        }
        if matches!(tree.node(i), NodeView::Other) && !contributing {
            continue; // comment, doctype, empty document
        }
        out[i] = tag_hash(c.finish(), text);
    }
}

/// Hashes many pages in parallel with rayon; `result[k]` is `hash_page(&pages[k], options)`,
/// so the output is identical for any number of threads.
///
/// # Complexity
/// As [`hash_page`] per page; total work O(Σ n + t), spread over the current rayon pool.
pub fn hash_pages_par<T: PageTree + Sync>(pages: &[T], options: &HashOptions) -> Vec<Vec<u64>> {
    pages.par_iter().map(|p| hash_page(p, options)).collect()
}
