//! Rendering the kept text of a page as Markdown or as minimal clean HTML, keeping its
//! structure: headings, paragraphs, lists (nested), tables, code blocks, block quotes.
//!
//! Both formats come from one forward pass over the DOM arena (no recursion, so any depth is
//! fine). Elements are opened lazily: an element's markup is written only when the first kept
//! text inside it is, so a list or table whose text is all template leaves nothing behind.
//! Consequences: empty elements vanish, and an empty table cell before a row's first non-empty
//! cell is dropped (the row then has fewer columns). Links render as their text and images
//! vanish unless [`RenderOptions`] keeps them. Layout tables (see `layout_tables`) render as
//! their content; emphasis as `*em*` and `**strong**`; a `<pre>`'s language (`language-x`,
//! `lang-x`) follows its opening fence.
//!
//! Markdown: `#`… headings, `-` and `1.` list items indented by their marker's width per
//! level, pipe tables (the first row is the header row), fenced code blocks for `<pre>`
//! (indentation kept), `` ` `` for inline code (fences longer than any backtick run written
//! inside; a `<br>` closes the span and reopens it after the break; `|` escaped in table
//! cells), `>` block quotes; blocks are separated by one blank line; nesting deeper than
//! [`MAX_PREFIX_BYTES`] of indentation renders at that depth, so the output stays linear in the
//! input. Markdown's special characters in text (`\ ` * _ ~ [ ] < > & | #`) are
//! backslash-escaped, and so is the start of a line of text that Markdown would read as a block
//! start (`- `, `---`, `===` under a line, …; see `block_start_escape`), so the text reads back
//! as it was.
//!
//! HTML: only `h1`–`h6`, `p`, `ul`, `ol`, `li`, `table`, `tr`, `th`, `td`, `pre`, `code`,
//! `blockquote`, `em`, `strong` and `br`, without attributes, and with the options `a href` and
//! `img src alt`; text escaped (`&`, `<`, `>`), attribute values also `"`.
//!
//! Complexity: O(n + text) time, O(depth) extra space for the open-element stack.

use crate::dom::{Dom, Kind, Tag};

/// An output format of [`render`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Format {
    /// CommonMark with pipe tables.
    Markdown,
    /// Minimal clean HTML.
    Html,
}

/// What [`render_with`] keeps besides the text. The default keeps neither links nor images.
#[derive(Debug, Clone, Copy, Default)]
pub struct RenderOptions<'a> {
    /// Links as `[text](url)` (Markdown) or `<a href>` (HTML), the URL absolute against
    /// `base`; a link without an `http(s)`, `ftp` or `mailto` target after joining renders as its text.
    pub links: bool,
    /// Images as `![alt](src)` or `<img src alt>`: `src` from the best `srcset` candidate,
    /// then the lazy-load attributes, then `src` (see [`image_source`]). An image is kept when
    /// the nearest ancestor holding text holds kept text.
    pub images: bool,
    /// The page's URL, the base of relative links and image sources (none: they stay relative).
    pub base: Option<&'a str>,
}

/// What an element is to the renderers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Role {
    Heading(u8),
    Paragraph,
    /// Another block element: separates lines, no markup.
    Block,
    List {
        ordered: bool,
    },
    Item,
    Table,
    Row,
    Cell {
        header: bool,
    },
    Pre,
    Code,
    Quote,
    Break,
    /// `em`, `i` (`*x*`) and `strong`, `b` (`**x**`).
    Emphasis {
        strong: bool,
    },
    /// A link kept (`--links`): the frame's node holds the `href`.
    Link,
    Inline,
}

impl Role {
    /// A span inside a line (code, emphasis, link, other inline markup, a break), not a block.
    fn is_inline(self) -> bool {
        matches!(
            self,
            Role::Code | Role::Emphasis { .. } | Role::Link | Role::Inline | Role::Break
        )
    }
}

/// The role of element `i`; `layout_cell` says that a row or cell belongs to a layout table
/// (rendered as blocks, not as a Markdown table).
fn role(dom: &Dom, i: usize, layout_cell: bool, links: bool, wraps_block: bool) -> Role {
    let node = dom.node(i);
    if node.foreign {
        return Role::Inline;
    }
    match node.tag {
        Tag::TABLE | Tag::TR | Tag::TD | Tag::TH if layout_cell => Role::Block,
        // `**` cannot span paragraphs: emphasis around blocks renders as its content.
        Tag::EM | Tag::I if !wraps_block => Role::Emphasis { strong: false },
        Tag::STRONG | Tag::B if !wraps_block => Role::Emphasis { strong: true },
        Tag::A if links && dom.attr(i, "href").is_some() => Role::Link,
        Tag::H1 => Role::Heading(1),
        Tag::H2 => Role::Heading(2),
        Tag::H3 => Role::Heading(3),
        Tag::H4 => Role::Heading(4),
        Tag::H5 => Role::Heading(5),
        Tag::H6 => Role::Heading(6),
        Tag::P => Role::Paragraph,
        Tag::UL | Tag::MENU | Tag::DIR => Role::List { ordered: false },
        Tag::OL => Role::List { ordered: true },
        Tag::LI => Role::Item,
        Tag::TABLE => Role::Table,
        Tag::TR => Role::Row,
        Tag::TD => Role::Cell { header: false },
        Tag::TH => Role::Cell { header: true },
        Tag::PRE | Tag::XMP => Role::Pre,
        Tag::CODE | Tag::KBD | Tag::SAMP | Tag::TT => Role::Code,
        Tag::BLOCKQUOTE => Role::Quote,
        Tag::BR => Role::Break,
        t if t.is_block() => Role::Block,
        _ => Role::Inline,
    }
}

/// An element on the open stack.
struct Frame {
    node: usize,
    end: usize,
    role: Role,
    opened: bool,
    /// Lists: items opened so far (the next ordinal). Tables: rows. Rows: cells. Markdown
    /// `pre`: its fence's backticks.
    count: usize,
    /// Markdown: length of the line prefix before this frame pushed its own.
    prefix_len: usize,
}

/// The kept text of `dom` as Markdown or HTML (see the [module docs](self)), without links
/// and images: [`render_with`] and the default [`RenderOptions`].
///
/// # Panics
/// If `visible` or `keep` is shorter than the number of nodes.
pub fn render(dom: &Dom, visible: &[bool], keep: &[bool], format: Format) -> String {
    render_with(dom, visible, keep, format, &RenderOptions::default())
}

/// The kept text of `dom` as Markdown or HTML (see the [module docs](self)), with the links
/// and images `opts` asks for.
///
/// `visible` and `keep` are per node as for [`crate::output::text::render_text`]: an invisible
/// node is skipped with its subtree; a text node is written when `keep` holds for it;
/// elements are always walked into (their markup appears only around kept text).
///
/// # Panics
/// If `visible` or `keep` is shorter than the number of nodes.
///
/// # Complexity
/// O(n + text) time; O(n) bits for the layout-table and kept-image flags, O(depth) for the
/// open-element stack.
pub fn render_with(
    dom: &Dom,
    visible: &[bool],
    keep: &[bool],
    format: Format,
    opts: &RenderOptions<'_>,
) -> String {
    let n = dom.len();
    assert!(visible.len() >= n && keep.len() >= n, "render: short flags");
    let layout = layout_tables(dom);
    let blocks = wraps_blocks(dom);
    let base = opts.base.and_then(|b| url::Url::parse(b).ok());
    let holds = if opts.images {
        text_holders(dom, visible, keep)
    } else {
        Vec::new()
    };
    let mut w = Writer {
        format,
        out: String::new(),
        prefix: String::new(),
        line_start: true,
        pending_break: 0,
        pending_space: false,
        pending_hard: false,
        after_marker: false,
        no_space: false,
        in_row: 0,
        in_cell: 0,
        line_begin: 0,
        line_kind: LineKind::None,
        next_kind: LineKind::Start,
        code_fence: 0,
        code_pad: false,
        code_cut: None,
        code_end: usize::MAX,
        base,
        dom,
        visible,
        keep,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < n {
        while stack.last().is_some_and(|f| f.end <= i) {
            let f = stack.pop().expect("non-empty");
            w.close(&f, &mut stack, dom);
        }
        let node = dom.node(i);
        let end = dom.subtree_end(i);
        if !visible[i] {
            i = end;
            continue;
        }
        match node.kind {
            Kind::Element => {
                let in_layout = matches!(node.tag, Tag::TR | Tag::TD | Tag::TH)
                    && stack
                        .iter()
                        .rev()
                        .find(|f| dom.node(f.node).tag == Tag::TABLE)
                        .is_some_and(|t| layout[t.node]);
                let in_layout = in_layout || (node.tag == Tag::TABLE && layout[i]);
                let role = role(dom, i, in_layout, opts.links, blocks[i]);
                if role == Role::Break {
                    let opened = stack.iter().all(|f| f.opened);
                    if !w.out.is_empty() {
                        if stack.iter().any(|f| f.role == Role::Pre) {
                            if opened {
                                w.pre_break();
                            }
                        } else if opened {
                            w.cut_code(i);
                            w.hard_break();
                        } else if keep[i] {
                            // A kept `<br>` before the first text of its parents still breaks
                            // the line (`2025<b><br>TRAVEL</b>`). Markdown owes it (a block
                            // opening next drops it); HTML writes it inside inline parents only.
                            let inline = stack.iter().all(|f| f.opened || f.role.is_inline());
                            if w.format == Format::Markdown {
                                w.cut_code(i);
                                w.hard_break();
                            } else if inline {
                                w.open_all(&mut stack, dom);
                                w.hard_break();
                            }
                        }
                    }
                } else if node.tag == Tag::IMG && opts.images {
                    if let Some((src, alt)) = kept_image(dom, i, &holds, w.base.as_ref()) {
                        w.open_all(&mut stack, dom);
                        let pre = stack.iter().any(|f| f.role == Role::Pre);
                        if !pre {
                            w.image(&src, alt);
                        }
                    }
                } else {
                    stack.push(Frame {
                        node: i,
                        end,
                        role,
                        opened: false,
                        count: 0,
                        prefix_len: 0,
                    });
                }
            }
            Kind::Text if keep[i] => {
                let text = dom.text(i);
                let pre = stack.iter().any(|f| f.role == Role::Pre);
                if !pre && text.chars().all(char::is_whitespace) {
                    w.pending_space |= !text.is_empty();
                } else {
                    w.open_all(&mut stack, dom);
                    if let Some(from) = w.code_cut.take() {
                        let end = stack
                            .iter()
                            .find(|f| f.role == Role::Code)
                            .map_or(i, |f| f.end);
                        w.open_code(from, end);
                    }
                    let code = stack.iter().any(|f| f.role == Role::Code);
                    w.text(text, pre, code);
                }
            }
            Kind::Text => w.pending_space = true,
            _ => {}
        }
        i += 1;
    }
    while let Some(f) = stack.pop() {
        w.close(&f, &mut stack, dom);
    }
    w.end_line();
    w.out.truncate(w.out.trim_end().len());
    if format == Format::Html && !w.out.is_empty() {
        w.out.push('\n');
    }
    w.out
}

/// Per node, whether its subtree holds a block element (one backward pass over the parents).
fn wraps_blocks(dom: &Dom) -> Vec<bool> {
    let mut out = vec![false; dom.len()];
    for i in (1..dom.len()).rev() {
        let node = dom.node(i);
        // A `<br>` is a line break inside the paragraph, not a block.
        let block = node.tag.is_block() && node.tag != Tag::BR;
        if node.kind == Kind::Element && (out[i] || block) {
            if let Some(p) = dom.parent(i) {
                out[p] = true;
            }
        }
    }
    out
}

/// What the Markdown writer makes of a node inside code, for fences and padding.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Piece {
    /// A character written as it is.
    Char(char),
    /// Whitespace or a text not kept: at most a space.
    Space,
    /// A `<br>`: a new line (in a code block) or the end of a code span's part.
    Break,
}

/// Calls `f` on the pieces of the rendered text of nodes `from..end` in order (invisible
/// subtrees skipped, as the renderer skips them) until `f` returns false. O(nodes + text).
fn code_pieces(
    dom: &Dom,
    visible: &[bool],
    keep: &[bool],
    from: usize,
    end: usize,
    mut f: impl FnMut(Piece) -> bool,
) {
    let mut t = from;
    while t < end {
        if !visible[t] {
            t = dom.subtree_end(t).max(t + 1);
            continue;
        }
        let node = dom.node(t);
        let piece = match node.kind {
            Kind::Element if node.tag == Tag::BR && !node.foreign => Some(Piece::Break),
            Kind::Text if !keep[t] => Some(Piece::Space),
            _ => None,
        };
        if piece.is_some_and(|p| !f(p)) {
            return;
        }
        if node.kind == Kind::Text && keep[t] {
            for c in dom.text(t).chars() {
                let piece = if c.is_whitespace() {
                    Piece::Space
                } else if c.is_control() {
                    // Control characters are dropped: the backticks around them join.
                    continue;
                } else {
                    Piece::Char(c)
                };
                if !f(piece) {
                    return;
                }
            }
        }
        t += 1;
    }
}

/// The longest run of backticks in the rendered text of `node`'s subtree; a run split across
/// text nodes (highlighter spans) is one run, as it is in the output.
fn longest_backticks(dom: &Dom, visible: &[bool], keep: &[bool], node: usize) -> usize {
    let (mut run, mut longest) = (0, 0);
    code_pieces(dom, visible, keep, node + 1, dom.subtree_end(node), |p| {
        run = if p == Piece::Char('`') { run + 1 } else { 0 };
        longest = longest.max(run);
        true
    });
    longest
}

/// Whether the part of an inline code span starting at node `from` (up to its next `<br>`
/// after text, or `end`) starts or ends with a backtick, so it needs a space inside each end
/// of its fence (CommonMark strips one from each end when both are there).
fn code_part_pad(dom: &Dom, visible: &[bool], keep: &[bool], from: usize, end: usize) -> bool {
    let (mut first, mut last) = (None, None);
    code_pieces(dom, visible, keep, from, end, |p| match p {
        Piece::Char(c) => {
            first.get_or_insert(c);
            last = Some(c);
            true
        }
        // A break before the part's first text is written before the span opens.
        Piece::Break => first.is_none(),
        Piece::Space => true,
    });
    first == Some('`') || last == Some('`')
}

/// A table cell with more text than this (bytes) holds a page's content, not a datum.
const LAYOUT_CELL_TEXT: usize = 2000;
/// A table cell with this many paragraphs, headings and lists holds a page's content.
const LAYOUT_CELL_BLOCKS: usize = 4;

/// Per `table` element, whether it is a layout table, rendered as its content: one with
/// `role="presentation"` or `"none"`, one holding another table, and, unless it has a `th`,
/// `thead` or `caption`, one whose cells hold page structure (sections, forms, code blocks,
/// quotes, [`LAYOUT_CELL_BLOCKS`] paragraphs, headings or lists, more than
/// [`LAYOUT_CELL_TEXT`] bytes of text; a lone paragraph or list is common in a data cell, and
/// headings in a header row: they count in tables of at most two rows), with one row, or
/// whose rows have one cell each. The rest are data tables.
///
/// # Complexity
/// One forward pass, O(n) time, O(n) bits and O(depth) stack.
fn layout_tables(dom: &Dom) -> Vec<bool> {
    let n = dom.len();
    let mut layout = vec![false; n];
    // Open tables: (node, subtree end, has a header, cells hold blocks, rows, cells).
    struct Open {
        node: usize,
        end: usize,
        header: bool,
        blocks: bool,
        /// Cells hold headings (a data table's header row may be headings).
        headings: bool,
        rows: usize,
        cells: usize,
        /// The end of the cell being walked (0: none).
        cell_end: usize,
        /// The cell's text bytes and paragraph-like blocks so far.
        cell_text: usize,
        cell_blocks: usize,
    }
    let mut open: Vec<Open> = Vec::new();
    let close = |t: Open, layout: &mut [bool]| {
        layout[t.node] |= !t.header
            && (t.blocks || t.rows <= 1 || t.cells <= t.rows || (t.headings && t.rows <= 2));
    };
    for i in 0..n {
        while open.last().is_some_and(|t| t.end <= i) {
            let t = open.pop().expect("non-empty");
            close(t, &mut layout);
        }
        let node = dom.node(i);
        if node.kind == Kind::Text {
            if let Some(t) = open.last_mut().filter(|t| i < t.cell_end) {
                t.cell_text += dom.text(i).len();
                t.blocks |= t.cell_text > LAYOUT_CELL_TEXT;
            }
            continue;
        }
        if node.kind != Kind::Element || node.foreign {
            continue;
        }
        let tag = node.tag;
        if tag == Tag::TABLE {
            if let Some(t) = open.last() {
                layout[t.node] = true;
            }
            let role = dom.attr(i, "role").unwrap_or("").trim();
            layout[i] =
                role.eq_ignore_ascii_case("presentation") || role.eq_ignore_ascii_case("none");
            open.push(Open {
                node: i,
                end: dom.subtree_end(i),
                header: false,
                blocks: false,
                headings: false,
                rows: 0,
                cells: 0,
                cell_end: 0,
                cell_text: 0,
                cell_blocks: 0,
            });
            continue;
        }
        let Some(t) = open.last_mut() else { continue };
        match tag {
            Tag::TH | Tag::THEAD | Tag::CAPTION => {
                t.header = true;
                if tag == Tag::TH {
                    t.cells += 1;
                    t.cell_end = dom.subtree_end(i);
                    t.cell_text = 0;
                    t.cell_blocks = 0;
                }
            }
            Tag::TR => t.rows += 1,
            Tag::TD => {
                t.cells += 1;
                t.cell_end = dom.subtree_end(i);
                t.cell_text = 0;
                t.cell_blocks = 0;
            }
            Tag::H1
            | Tag::H2
            | Tag::H3
            | Tag::H4
            | Tag::H5
            | Tag::H6
            | Tag::P
            | Tag::UL
            | Tag::OL
            | Tag::DL
                if i < t.cell_end =>
            {
                t.headings |= matches!(
                    tag,
                    Tag::H1 | Tag::H2 | Tag::H3 | Tag::H4 | Tag::H5 | Tag::H6
                );
                t.cell_blocks += 1;
                t.blocks |= t.cell_blocks >= LAYOUT_CELL_BLOCKS;
            }
            Tag::ARTICLE
            | Tag::SECTION
            | Tag::MAIN
            | Tag::NAV
            | Tag::HEADER
            | Tag::FOOTER
            | Tag::ASIDE
            | Tag::FORM
            | Tag::PRE
            | Tag::BLOCKQUOTE
                if i < t.cell_end =>
            {
                t.blocks = true;
            }
            _ => {}
        }
    }
    while let Some(t) = open.pop() {
        close(t, &mut layout);
    }
    layout
}

/// Per node, 0: its subtree holds no visible text; 1: only text that is not kept; 2: kept
/// text. One backward pass (children come after their parent), O(n).
fn text_holders(dom: &Dom, visible: &[bool], keep: &[bool]) -> Vec<u8> {
    let n = dom.len();
    let mut holds = vec![0u8; n];
    for i in (0..n).rev() {
        if !visible[i] {
            holds[i] = 0;
            continue;
        }
        if dom.node(i).kind == Kind::Text && !dom.text(i).trim().is_empty() {
            holds[i] = if keep[i] { 2 } else { 1 };
        }
        if let Some(p) = dom.parent(i) {
            holds[p] = holds[p].max(holds[i]);
        }
    }
    holds
}

/// How far up [`kept_image`] looks for the text an image belongs to.
const IMAGE_ANCESTORS: usize = 32;

/// The source (absolute against `base`) and alt text of image `i` when it belongs to the kept
/// content: the nearest ancestor whose subtree holds visible text holds kept text.
fn kept_image<'d>(
    dom: &'d Dom,
    i: usize,
    holds: &[u8],
    base: Option<&url::Url>,
) -> Option<(String, &'d str)> {
    let mut a = dom.parent(i);
    let mut steps = 0;
    while let Some(p) = a {
        if holds[p] > 0 || steps >= IMAGE_ANCESTORS {
            break;
        }
        a = dom.parent(p);
        steps += 1;
    }
    if a.is_none_or(|p| holds[p] < 2) {
        return None;
    }
    let src = image_source(dom, i)?;
    let src = absolute(src, base)?;
    Some((src, dom.attr(i, "alt").unwrap_or("").trim()))
}

/// The source of image element `i`: the best candidate of `data-srcset`, then of `srcset`
/// (the widest `w`, else the densest `x`; see [`best_candidate`]), then `data-lazy-src`,
/// `data-src` and `src`; `data:` URLs (lazy-load placeholders) are skipped.
pub fn image_source(dom: &Dom, i: usize) -> Option<&str> {
    let usable = |s: &str| {
        let s = s.trim();
        !s.is_empty() && !s.get(..5).is_some_and(|h| h.eq_ignore_ascii_case("data:"))
    };
    for name in ["data-srcset", "srcset"] {
        if let Some(c) = dom.attr(i, name).and_then(best_candidate) {
            if usable(c) {
                return Some(c);
            }
        }
    }
    ["data-lazy-src", "data-src", "src"]
        .into_iter()
        .filter_map(|name| dom.attr(i, name))
        .find(|s| usable(s))
        .map(str::trim)
}

/// The best candidate of a `srcset` value (HTML's "parse a srcset attribute"): the one with
/// the largest width descriptor (`800w`), else the largest density (`2x`; a candidate without
/// a descriptor is `1x`); the first on a tie. `None` when the value has no candidate. O(len).
pub fn best_candidate(srcset: &str) -> Option<&str> {
    let mut best: Option<(&str, bool, f64)> = None;
    let mut rest = srcset;
    loop {
        rest = rest.trim_start_matches(|c: char| c.is_ascii_whitespace() || c == ',');
        if rest.is_empty() {
            break;
        }
        let url_end = rest
            .find(|c: char| c.is_ascii_whitespace())
            .unwrap_or(rest.len());
        let mut url = &rest[..url_end];
        rest = &rest[url_end..];
        let mut descriptor = "";
        if url.ends_with(',') {
            url = url.trim_end_matches(',');
        } else {
            // Descriptors run to the next comma outside parentheses.
            let mut depth = 0usize;
            let mut stop = rest.len();
            for (k, c) in rest.char_indices() {
                match c {
                    '(' => depth += 1,
                    ')' => depth = depth.saturating_sub(1),
                    ',' if depth == 0 => {
                        stop = k;
                        break;
                    }
                    _ => {}
                }
            }
            descriptor = rest[..stop].trim();
            rest = &rest[stop..];
        }
        if url.is_empty() {
            continue;
        }
        let (width, value) = descriptor
            .split_ascii_whitespace()
            .find_map(|d| {
                let (num, unit) = d.split_at(d.len().saturating_sub(1));
                let v: f64 = num.parse().ok()?;
                match unit {
                    "w" | "W" => Some((true, v)),
                    "x" | "X" => Some((false, v)),
                    _ => None,
                }
            })
            .unwrap_or((false, 1.0));
        let better = match best {
            None => true,
            Some((_, bw, bv)) => (width && !bw) || (width == bw && value > bv),
        };
        if better {
            best = Some((url, width, value));
        }
    }
    best.map(|b| b.0)
}

/// `href` made absolute against `base`; `None` for a target that is not a web, FTP or mail
/// address (`javascript:`, an empty or malformed one).
fn absolute(href: &str, base: Option<&url::Url>) -> Option<String> {
    let href = href.trim_matches(|c: char| c <= ' ');
    if href.is_empty() {
        return None;
    }
    let joined = match base {
        Some(b) => b.join(href).ok(),
        None => url::Url::parse(href).ok(),
    };
    match joined {
        Some(u) if matches!(u.scheme(), "http" | "https" | "ftp" | "mailto") => Some(u.to_string()),
        Some(_) => None,
        // No base: a relative reference stays as the page wrote it.
        None if base.is_none() && !href.contains(':') && !href.contains(char::is_whitespace) => {
            Some(href.to_string())
        }
        None => None,
    }
}

/// The language of a code block from a `class` value: `language-x` or `lang-x` (the
/// convention of HTML's `<code>` and of highlighters), sanitized to `[A-Za-z0-9_+#.-]`.
fn code_language(class: &str) -> Option<&str> {
    class.split_ascii_whitespace().find_map(|c| {
        let lang = c
            .strip_prefix("language-")
            .or_else(|| c.strip_prefix("lang-"))?;
        let ok = !lang.is_empty()
            && lang.len() <= 32
            && lang
                .chars()
                .all(|ch| ch.is_ascii_alphanumeric() || "_+#.-".contains(ch));
        ok.then_some(lang)
    })
}

/// Whether emphasis may open or close inside the frames `ancestors`: not in code, a heading
/// (already bold) or other emphasis (`***` runs read badly).
fn plain_inline(ancestors: &[Frame]) -> bool {
    !ancestors.iter().any(|f| {
        matches!(
            f.role,
            Role::Pre | Role::Code | Role::Heading(_) | Role::Emphasis { .. }
        )
    })
}

/// Where a backslash goes so that Markdown reads `line`, a line of text written at a line's
/// start (after its prefix), as text and not as a block start: a bullet (`- `, `+ `; `*` is
/// always escaped), an ordered item interrupting a paragraph after a hard break (`1. `, `1) `,
/// non-empty: other numbers cannot), a thematic break (`---`, `- - -`), a setext underline
/// (`===`, `--`) or a one-column GFM table's delimiter row (`:--`) under a paragraph line.
/// `#`, `>`, `` ` ``, `~`, `_`, `<` and `|` are escaped wherever they are. A numbered
/// paragraph (`2. Step`) is left as it is: Markdown reads an item showing the same number and
/// text, and the gold Markdown of wcxb-dev writes such paragraphs as items (escaping them took
/// the structure F1 from 0.642 to 0.637). `None`: the line reads as text. O(line).
fn block_start_escape(line: &str, kind: LineKind) -> Option<usize> {
    let b = line.trim_end_matches([' ', '\t']).as_bytes();
    let first = *b.first()?;
    let start = matches!(kind, LineKind::Start | LineKind::Either);
    let under = matches!(kind, LineKind::Continuation | LineKind::Either);
    let blank = |rest: &[u8]| rest.is_empty();
    let space = |rest: &[u8]| matches!(rest.first(), Some(b' ' | b'\t'));
    // `:?-+:?`: a delimiter row of one column, and a setext underline when all dashes.
    let delimiter = |b: &[u8]| {
        let inner = b.strip_prefix(b":").unwrap_or(b);
        let inner = inner.strip_suffix(b":").unwrap_or(inner);
        !inner.is_empty() && inner.iter().all(|&c| c == b'-')
    };
    let at_start = match first {
        b'-' | b'+' => {
            let rest = &b[1..];
            // An empty item (`-` alone) cannot interrupt a paragraph, but `-` underlines one.
            space(rest)
                || (start && blank(rest))
                || (first == b'-'
                    && ((b.iter().filter(|&&c| c == b'-').count() >= 3
                        && b.iter().all(|&c| matches!(c, b'-' | b' ' | b'\t')))
                        || (under && delimiter(b))))
        }
        b':' => under && delimiter(b),
        b'=' => under && b.iter().all(|&c| c == b'='),
        b'0'..=b'9' => {
            let digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
            let rest = b.get(digits + 1..).unwrap_or(&[]);
            let item = digits <= 9
                && matches!(b.get(digits), Some(b'.' | b')'))
                && kind == LineKind::Continuation
                && space(rest)
                && line[..digits].parse() == Ok(1u32);
            // `1\.`: the escape goes before the delimiter.
            return item.then_some(digits);
        }
        _ => false,
    };
    at_start.then_some(0)
}

/// A URL as a Markdown link destination: spaces, parentheses and `<>` percent-encoded.
fn push_md_url(out: &mut String, url: &str) {
    for c in url.chars() {
        match c {
            ' ' => out.push_str("%20"),
            '(' => out.push_str("%28"),
            ')' => out.push_str("%29"),
            '<' => out.push_str("%3C"),
            '>' => out.push_str("%3E"),
            // A `|` would end a GFM table cell, even inside a link destination.
            '|' => out.push_str("%7C"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// An attribute value in double quotes, escaped.
fn push_attr(out: &mut String, value: &str) {
    for c in value.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            c if c.is_control() => {}
            c => out.push(c),
        }
    }
}

/// Longest Markdown line prefix (list indentation and `> ` quotes), in bytes: about 16 levels
/// of nesting. Every line repeats the prefix, so without a bound the output of n nested lists
/// grows as n² (12,000 nested `<ul><li>`, 481 KB, gave 144 MB).
pub const MAX_PREFIX_BYTES: usize = 40;

struct Writer<'a> {
    format: Format,
    out: String,
    /// Markdown: what starts every line (list indentation, `> `).
    prefix: String,
    line_start: bool,
    /// Line breaks owed before the next output: 1 = new line, 2 = blank line.
    pending_break: u8,
    pending_space: bool,
    /// Markdown: a `<br>` owed: written as `\` if the line break after it stays a line break
    /// (not at the end of a block, where a backslash would be literal).
    pending_hard: bool,
    /// Markdown: a list item's marker was just written; the item's first block goes on the
    /// marker's line.
    after_marker: bool,
    /// Right after opening markup (`<li>`, `- `, `# `): a pending space is dropped.
    no_space: bool,
    /// Markdown: table rows and headings open; they must stay on one line, so breaks become
    /// spaces.
    in_row: usize,
    /// Markdown: table cells open (`|` in their code is escaped too).
    in_cell: usize,
    /// Markdown: where the current line's own text starts (after the prefix and a list marker).
    line_begin: usize,
    /// Markdown: which block starts the current line could be read as ([`LineKind::None`] for
    /// lines of markup and code).
    line_kind: LineKind,
    /// Markdown: the kind of the next line, from the break before it.
    next_kind: LineKind,
    /// Markdown: the backticks of the inline code span open (0: none) and whether its current
    /// part is padded with a space inside each end.
    code_fence: usize,
    code_pad: bool,
    /// Markdown: the open code span was closed before a `<br>`; it reopens before its next text,
    /// whose part starts at this node.
    code_cut: Option<usize>,
    /// Markdown: the output length right after the last code span's closing fence.
    code_end: usize,
    /// The base of links and image sources.
    base: Option<url::Url>,
    dom: &'a Dom,
    visible: &'a [bool],
    keep: &'a [bool],
}

/// Where a Markdown line of text starts, for the block starts it must not be read as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum LineKind {
    /// Markup or code: not checked.
    None,
    /// After a blank line or a list marker: a paragraph starts here.
    Start,
    /// After a hard break: the line continues a paragraph.
    Continuation,
    /// After another line break (an earlier block's last line, maybe in another container):
    /// either.
    Either,
}

impl Writer<'_> {
    /// Deepens the Markdown line prefix by `s`, unless that would take it past
    /// [`MAX_PREFIX_BYTES`]: deeper lists and quotes render at the deepest level allowed.
    fn push_prefix(&mut self, s: &str) {
        if self.prefix.len() + s.len() <= MAX_PREFIX_BYTES {
            self.prefix.push_str(s);
        }
    }

    fn brk(&mut self, n: u8) {
        if self.in_row > 0 && self.format == Format::Markdown {
            self.pending_space = true;
            return;
        }
        self.pending_break = self.pending_break.max(n);
    }

    /// Writes owed breaks and, at a line start, the Markdown prefix.
    fn start(&mut self) {
        self.flush_breaks();
        if self.line_start {
            if self.format == Format::Markdown {
                self.out.push_str(&self.prefix);
                self.line_begin = self.out.len();
                self.line_kind = self.next_kind;
            }
            self.line_start = false;
            self.pending_space = false;
        }
    }

    /// Writes owed breaks (a blank line carries the current prefix, trimmed).
    fn flush_breaks(&mut self) {
        self.after_marker = false;
        if self.pending_break > 0 && !self.out.is_empty() {
            while self.out.ends_with([' ', '\t']) {
                self.out.pop();
            }
            let hard = std::mem::take(&mut self.pending_hard) && self.pending_break == 1;
            if hard {
                self.out.push('\\');
            }
            if !self.line_start {
                self.end_line();
                self.out.push('\n');
                self.next_kind = if hard {
                    LineKind::Continuation
                } else {
                    LineKind::Either
                };
            }
            if self.pending_break > 1 && !self.out.ends_with("\n\n") {
                if self.format == Format::Markdown {
                    self.out.push_str(self.prefix.trim_end());
                }
                self.out.push('\n');
            }
            if self.pending_break > 1 {
                self.next_kind = LineKind::Start;
            }
            self.line_start = true;
            self.pending_space = false;
        }
        self.pending_break = 0;
    }

    /// Markdown: escapes the start of the line just written when Markdown would read it as a
    /// block start (the check sees the whole line, so text split across nodes counts).
    fn end_line(&mut self) {
        if self.format != Format::Markdown || self.line_kind == LineKind::None {
            return;
        }
        let line = self.out.get(self.line_begin..).unwrap_or("");
        if let Some(at) = block_start_escape(line, self.line_kind) {
            // O(line): each line is checked once, so the pass stays linear in the output.
            self.out.insert(self.line_begin + at, '\\');
        }
        self.line_kind = LineKind::None;
    }

    fn raw(&mut self, s: &str) {
        self.start();
        if self.out.len() == self.line_begin {
            // The renderer's own markup starts the line (a heading, a row, a fence).
            self.line_kind = LineKind::None;
        }
        self.out.push_str(s);
        self.no_space = true;
    }

    fn hard_break(&mut self) {
        match self.format {
            Format::Markdown => {
                if self.in_row == 0 {
                    self.pending_hard = true;
                }
                self.brk(1);
            }
            Format::Html => self.raw("<br>\n"),
        }
    }

    /// A block starts or ends (not an inline span): a `<br>` owed before it is dropped, as a
    /// hard break at the end of a block is no line break in Markdown (its `\` would be literal).
    fn block_edge(&mut self, role: Role) {
        if !role.is_inline() {
            self.pending_hard = false;
        }
    }

    /// Markdown: a `<br>` at node `br` in an open code span that is one line: the span closes
    /// before the break (a code span holds no line break) and reopens before its next text.
    fn cut_code(&mut self, br: usize) {
        if self.format == Format::Markdown
            && self.code_fence > 0
            && self.code_cut.is_none()
            && self.in_row == 0
        {
            self.close_code();
            self.code_cut = Some(br + 1);
        }
    }

    /// A `<br>` in a code block: a new line, no `\` (it would be literal there).
    fn pre_break(&mut self) {
        match self.format {
            Format::Markdown => {
                self.start();
                self.pending_break = 1;
            }
            Format::Html => self.raw("<br>\n"),
        }
    }

    fn text(&mut self, s: &str, pre: bool, code: bool) {
        for c in s.chars() {
            if pre && c == '\n' {
                if self.format == Format::Html {
                    self.out.push('\n');
                } else {
                    // Writing the owed break first keeps empty lines of the code block.
                    self.start();
                    self.pending_break = 1;
                }
                continue;
            }
            if !pre && c.is_whitespace() {
                self.pending_space = true;
                continue;
            }
            if c.is_control() && c != '\t' {
                continue;
            }
            let space = std::mem::take(&mut self.pending_space);
            self.start();
            if pre {
                // A code block's lines are code, read as they are.
                self.line_kind = LineKind::None;
            }
            if space && !self.no_space && !self.out.ends_with([' ', '\n']) {
                self.out.push(' ');
            }
            self.no_space = false;
            self.push_escaped(c, pre || code);
        }
    }

    fn push_escaped(&mut self, c: char, code: bool) {
        match self.format {
            Format::Html => match c {
                '&' => self.out.push_str("&amp;"),
                '<' => self.out.push_str("&lt;"),
                '>' => self.out.push_str("&gt;"),
                c => self.out.push(c),
            },
            Format::Markdown if code => {
                // GFM splits a table row on `|` even inside code; `\|` is read as `|` there.
                if c == '|' && self.in_cell > 0 {
                    self.out.push('\\');
                }
                self.out.push(c);
            }
            Format::Markdown => {
                if matches!(
                    c,
                    '\\' | '`' | '*' | '_' | '~' | '[' | ']' | '<' | '>' | '&' | '|' | '#'
                ) {
                    self.out.push('\\');
                }
                self.out.push(c);
            }
        }
    }

    /// The absolute target of link `node` when it renders as a link: not inside code or
    /// another link, with a web, FTP or mail target (else it renders as its text).
    fn link_target(&self, ancestors: &[Frame], dom: &Dom, node: usize) -> Option<String> {
        if ancestors
            .iter()
            .any(|a| matches!(a.role, Role::Pre | Role::Code | Role::Link))
        {
            return None;
        }
        absolute(dom.attr(node, "href")?, self.base.as_ref())
    }

    /// Opens every frame of `stack` not opened yet (before the first kept text or image
    /// inside them).
    fn open_all(&mut self, stack: &mut [Frame], dom: &Dom) {
        if let Some(k) = stack.iter().position(|f| !f.opened) {
            for j in k..stack.len() {
                self.open(stack, j, dom);
            }
        }
    }

    /// Markdown: opens (or reopens after a `<br>`) the code span fenced by `code_fence`, its
    /// part starting at node `from` and the span ending before `end`.
    fn open_code(&mut self, from: usize, end: usize) {
        self.code_pad = code_part_pad(self.dom, self.visible, self.keep, from, end);
        if self.out.len() == self.code_end {
            // Two touching spans would read as one longer fence: a space keeps them apart.
            self.pending_space = true;
        }
        let mut open = "`".repeat(self.code_fence);
        if self.code_pad {
            open.push(' ');
        }
        self.inline_open(&open);
    }

    /// Markdown: writes the closing fence of the open code span's part.
    fn close_code(&mut self) {
        if self.code_pad {
            self.out.push(' ');
        }
        for _ in 0..self.code_fence {
            self.out.push('`');
        }
        self.code_end = self.out.len();
    }

    /// Writes inline markup that needs a space before it when one is pending.
    fn inline_open(&mut self, s: &str) {
        let space = std::mem::take(&mut self.pending_space);
        self.start();
        if space && !self.out.ends_with([' ', '\n']) {
            self.out.push(' ');
        }
        self.out.push_str(s);
        self.no_space = true;
    }

    /// An image: `![alt](src)` or `<img src alt>`.
    fn image(&mut self, src: &str, alt: &str) {
        let alt: String = alt.split_whitespace().collect::<Vec<_>>().join(" ");
        match self.format {
            Format::Markdown => {
                self.inline_open("![");
                for c in alt.chars() {
                    self.push_escaped(c, false);
                }
                self.out.push_str("](");
                push_md_url(&mut self.out, src);
                self.out.push(')');
            }
            Format::Html => {
                self.inline_open("<img src=\"");
                push_attr(&mut self.out, src);
                self.out.push_str("\" alt=\"");
                push_attr(&mut self.out, &alt);
                self.out.push_str("\">");
            }
        }
        self.no_space = false;
    }

    /// Writes the opening markup of `stack[j]` (all frames below it are open).
    fn open(&mut self, stack: &mut [Frame], j: usize, dom: &Dom) {
        let role = stack[j].role;
        self.block_edge(role);
        stack[j].opened = true;
        stack[j].prefix_len = self.prefix.len();
        let parent = if j > 0 { Some(&mut stack[j - 1]) } else { None };
        let md = self.format == Format::Markdown;
        match role {
            Role::Heading(level) => {
                self.brk(2);
                if md {
                    self.raw(&"#".repeat(level as usize));
                    self.out.push(' ');
                    self.no_space = true;
                    // A heading is one line: breaks inside it become spaces.
                    self.in_row += 1;
                } else {
                    self.raw(&format!("<h{level}>"));
                }
            }
            Role::Paragraph | Role::Block => {
                // The first block of a list item goes on its marker's line.
                if !(md && self.after_marker) {
                    self.brk(2);
                }
                if role == Role::Paragraph && !md {
                    self.raw("<p>");
                }
            }
            Role::List { ordered } => {
                self.brk(if md { 1 } else { 2 });
                if !md {
                    self.raw(if ordered { "<ol>" } else { "<ul>" });
                    self.brk(1);
                }
            }
            Role::Item => {
                self.brk(1);
                let (ordered, number) = match parent {
                    Some(p) if matches!(p.role, Role::List { .. }) => {
                        p.count += 1;
                        (p.role == Role::List { ordered: true }, p.count)
                    }
                    _ => (false, 0),
                };
                if md {
                    let marker = if ordered {
                        format!("{number}. ")
                    } else {
                        "- ".to_string()
                    };
                    self.raw(&marker);
                    self.push_prefix(&" ".repeat(marker.len()));
                    self.after_marker = true;
                    // The item's text starts a paragraph of its own after the marker.
                    self.line_begin = self.out.len();
                    self.line_kind = LineKind::Start;
                } else {
                    self.raw("<li>");
                }
            }
            Role::Table => {
                self.brk(2);
                if !md {
                    self.raw("<table>");
                    self.brk(1);
                }
            }
            Role::Row => {
                self.brk(1);
                // Rows count in the table frame, wherever thead/tbody put them.
                if let Some(t) = stack[..j].iter_mut().rev().find(|f| f.role == Role::Table) {
                    t.count += 1;
                    stack[j].count = 0;
                }
                self.raw(if md { "|" } else { "<tr>" });
                self.in_row += 1;
            }
            Role::Cell { header } => {
                if let Some(r) = stack[..j].iter_mut().rev().find(|f| f.role == Role::Row) {
                    r.count += 1;
                }
                if md {
                    self.raw(" ");
                    self.in_cell += 1;
                } else {
                    self.raw(if header { "<th>" } else { "<td>" });
                }
            }
            Role::Pre => {
                let nested = stack[..j].iter().any(|f| f.role == Role::Pre);
                if !(nested && md) {
                    self.brk(2);
                }
                if md {
                    // The language of `<pre class="language-x">`, of a `<code>` inside it or
                    // of a highlighter's wrapper just above.
                    let from = j.saturating_sub(2);
                    let lang = stack[from..]
                        .iter()
                        .filter_map(|f| dom.attr(f.node, "class").and_then(code_language))
                        .next_back()
                        .unwrap_or("");
                    // A `pre` in a `pre` is already inside the fence (count 0: no fence).
                    if !nested {
                        // One more than the longest run inside (at least 3), so no fence in
                        // the code closes the block.
                        let run = longest_backticks(dom, self.visible, self.keep, stack[j].node);
                        let fence = (run + 1).max(3);
                        stack[j].count = fence;
                        self.raw(&"`".repeat(fence));
                        self.out.push_str(lang);
                        self.brk(1);
                    }
                } else {
                    self.raw("<pre>");
                }
            }
            Role::Code => {
                let in_pre = stack[..j].iter().any(|f| f.role == Role::Pre);
                if md && !in_pre && !stack[..j].iter().any(|f| f.role == Role::Code) {
                    // Only the outermost span is fenced (a fence cannot nest), so each code
                    // subtree is scanned once for its fence; one backtick more than its longest
                    // run, so no run inside closes it.
                    let node = stack[j].node;
                    let run = longest_backticks(dom, self.visible, self.keep, node);
                    stack[j].count = 1;
                    self.code_fence = run + 1;
                    self.open_code(node + 1, stack[j].end);
                } else if !md && !in_pre {
                    self.inline_open("<code>");
                }
            }
            Role::Emphasis { strong } => {
                if plain_inline(&stack[..j]) {
                    self.inline_open(match (md, strong) {
                        (true, true) => "**",
                        (true, false) => "*",
                        (false, true) => "<strong>",
                        (false, false) => "<em>",
                    });
                }
            }
            Role::Link => {
                if let Some(url) = self.link_target(&stack[..j], dom, stack[j].node) {
                    if md {
                        self.inline_open("[");
                    } else {
                        self.inline_open("<a href=\"");
                        push_attr(&mut self.out, &url);
                        self.out.push_str("\">");
                    }
                }
            }
            Role::Quote => {
                self.brk(2);
                if md {
                    // The blank line before the quote is not part of it.
                    self.flush_breaks();
                    self.push_prefix("> ");
                } else {
                    self.raw("<blockquote>");
                }
            }
            Role::Break | Role::Inline => {}
        }
    }

    /// Writes the closing markup of `f` (just popped; `stack` holds its ancestors).
    fn close(&mut self, f: &Frame, stack: &mut [Frame], dom: &Dom) {
        if !f.opened {
            return;
        }
        self.block_edge(f.role);
        let md = self.format == Format::Markdown;
        match f.role {
            Role::Heading(level) => {
                if md {
                    self.in_row = self.in_row.saturating_sub(1);
                } else {
                    self.out.push_str(&format!("</h{level}>"));
                }
                self.brk(2);
            }
            Role::Paragraph => {
                if !md {
                    self.out.push_str("</p>");
                }
                self.brk(2);
            }
            Role::Block => self.brk(2),
            Role::List { ordered } => {
                if !md {
                    self.brk(1);
                    self.raw(if ordered { "</ol>" } else { "</ul>" });
                }
                self.brk(if md { 1 } else { 2 });
            }
            Role::Item => {
                if md {
                    self.prefix.truncate(f.prefix_len);
                } else {
                    self.out.push_str("</li>");
                }
                self.brk(1);
            }
            Role::Table => {
                if !md {
                    self.brk(1);
                    self.raw("</table>");
                }
                self.brk(2);
            }
            Role::Row => {
                self.in_row = self.in_row.saturating_sub(1);
                if md {
                    // Each cell closed with its own ` |`.
                    let first = stack
                        .iter()
                        .rev()
                        .find(|t| t.role == Role::Table)
                        .is_some_and(|t| t.count == 1);
                    if first {
                        self.brk(1);
                        self.raw("|");
                        for _ in 0..f.count.max(1) {
                            self.out.push_str(" --- |");
                        }
                    }
                } else {
                    self.out.push_str("</tr>");
                }
                self.brk(1);
            }
            Role::Cell { header } => {
                if md {
                    self.out.push_str(" |");
                    self.in_cell = self.in_cell.saturating_sub(1);
                } else {
                    self.out.push_str(if header { "</th>" } else { "</td>" });
                }
                self.pending_space = false;
            }
            Role::Pre => {
                if md {
                    if f.count == 0 {
                        return;
                    }
                    self.brk(1);
                    self.raw(&"`".repeat(f.count));
                } else {
                    self.out.push_str("</pre>");
                }
                self.brk(2);
            }
            Role::Code => {
                if md && f.count > 0 {
                    if self.code_cut.take().is_none() {
                        self.close_code();
                    }
                    self.code_fence = 0;
                } else if !md && !stack.iter().any(|a| a.role == Role::Pre) {
                    self.out.push_str("</code>");
                }
            }
            Role::Emphasis { strong } => {
                if plain_inline(stack) {
                    self.out.push_str(match (md, strong) {
                        (true, true) => "**",
                        (true, false) => "*",
                        (false, true) => "</strong>",
                        (false, false) => "</em>",
                    });
                }
            }
            Role::Link => {
                if let Some(url) = self.link_target(stack, dom, f.node) {
                    if md {
                        self.out.push_str("](");
                        push_md_url(&mut self.out, &url);
                        self.out.push(')');
                    } else {
                        self.out.push_str("</a>");
                    }
                }
            }
            Role::Quote => {
                if md {
                    self.prefix.truncate(f.prefix_len);
                } else {
                    self.brk(1);
                    self.raw("</blockquote>");
                }
                self.brk(2);
            }
            Role::Break | Role::Inline => {}
        }
    }
}
