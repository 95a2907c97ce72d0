//! Rendering kept nodes as plain text: the last stage, shared by `pagelevel extract` and the
//! SiteLevel baseline (`pagelevel sitelevel --extract`).
//!
//! The output follows what a reader sees, one block per line:
//! - inline whitespace (spaces, tabs, newlines in the source) collapses to one space;
//! - block elements ([`Tag::is_block`]: paragraphs, headings, list items, `div`, `br`, `hr`,
//!   rows, …) start and end lines, so each heading and paragraph is on its own line;
//! - table cells (`td`, `th`) of one row are separated by a tab, rows by newlines;
//! - `<pre>` keeps its spaces and line breaks (trailing spaces of a line are dropped);
//! - there are no blank lines at all, no leading or trailing whitespace and no trailing newline.

use crate::dom::{Dom, Kind, Tag};

/// A separator waiting to be written before the next visible character; stronger ones win.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Sep {
    None,
    Space,
    Tab,
    Newline,
}

/// How an element breaks the text flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Flow {
    Inline,
    Block,
    Cell,
    Pre,
}

fn flow(dom: &Dom, i: usize) -> Flow {
    let node = dom.node(i);
    if node.foreign {
        return Flow::Inline;
    }
    match node.tag {
        Tag::TD | Tag::TH => Flow::Cell,
        Tag::PRE | Tag::XMP => Flow::Pre,
        t if t.is_block() => Flow::Block,
        _ => Flow::Inline,
    }
}

struct Writer {
    out: String,
    pending: Sep,
    line_empty: bool,
}

impl Writer {
    fn sep(&mut self, s: Sep) {
        self.pending = self.pending.max(s);
    }

    /// Writes the pending separator (if the line has content) before a visible character.
    fn flush(&mut self) {
        match self.pending {
            Sep::None => {}
            Sep::Space if !self.line_empty => self.out.push(' '),
            Sep::Tab if !self.line_empty => self.out.push('\t'),
            Sep::Space | Sep::Tab => {}
            Sep::Newline => {
                // Drop trailing spaces (from <pre>) of the line being ended, or of a line
                // holding nothing else.
                while self.out.ends_with([' ', '\t']) {
                    self.out.pop();
                }
                if !self.line_empty {
                    self.out.push('\n');
                    self.line_empty = true;
                }
            }
        }
        self.pending = Sep::None;
    }

    fn text(&mut self, s: &str, pre: bool) {
        if pre {
            self.pre_text(s);
            return;
        }
        // Outside <pre> every printable character does the same (flush, push), and a flush
        // clears what is pending, so a run of them is one flush and one copy.
        let b = s.as_bytes();
        let mut i = 0;
        while i < b.len() {
            let start = i;
            let mut stop = None;
            while i < b.len() {
                let (c, len) = crate::text::char_at(s, i);
                let printable = if len == 1 {
                    (0x21..0x7f).contains(&(c as u8))
                } else {
                    !(c.is_whitespace() || c.is_control())
                };
                if !printable {
                    stop = Some((c, len));
                    break;
                }
                i += len;
            }
            if i > start {
                self.flush();
                self.out.push_str(&s[start..i]);
                self.line_empty = false;
            }
            if let Some((c, len)) = stop {
                i += len;
                // Stray control characters render as nothing.
                if c.is_whitespace() {
                    self.sep(Sep::Space);
                }
            }
        }
    }

    /// [`Writer::text`] inside `<pre>`: spaces and line breaks are kept.
    fn pre_text(&mut self, s: &str) {
        for c in s.chars() {
            if c == '\n' {
                self.sep(Sep::Newline);
            } else if c == ' ' || c == '\t' {
                // Kept literally (indentation), but a line of only spaces stays empty.
                self.flush();
                self.out.push(c);
            } else if c.is_whitespace() {
                self.sep(Sep::Space);
            } else if c.is_control() {
                // Stray control characters render as nothing.
            } else {
                self.flush();
                self.out.push(c);
                self.line_empty = false;
            }
        }
    }

    fn finish(mut self) -> String {
        // Only <pre> writes whitespace eagerly; its indentation at the start is kept.
        let trimmed = self.out.trim_end().len();
        self.out.truncate(trimmed);
        self.out
    }
}

/// The visible text of the kept nodes of `dom`, in document order, one block per line (see the
/// [module docs](self) for the layout rules).
///
/// # Arguments
/// - `visible`: per node, whether it renders (from [`crate::dom::visibility`]).
/// - `keep`: per node, whether it is kept. A node that is not visible or not kept is skipped
///   with its whole subtree. A skipped element still separates the text around it: by a line
///   break if it is a block, by a space otherwise (so words on both sides do not run together).
///
/// # Returns
/// The text, with no blank lines, no leading or trailing whitespace and no trailing newline;
/// `""` when nothing visible is kept.
///
/// # Panics
/// If `visible` or `keep` is shorter than the number of nodes.
///
/// # Complexity
/// One forward pass over the nodes plus the text length, O(n + text); no recursion, so any
/// depth is fine. Space: the output and a stack of open elements (O(depth)).
pub fn render_text(dom: &Dom, visible: &[bool], keep: &[bool]) -> String {
    let n = dom.len();
    assert!(
        visible.len() >= n && keep.len() >= n,
        "render_text: {n} nodes, {} visibility and {} keep flags",
        visible.len(),
        keep.len()
    );
    let mut w = Writer {
        out: String::new(),
        pending: Sep::None,
        line_empty: true,
    };
    // Open elements: (subtree end, flow); a <pre> counter says whether whitespace is literal.
    let mut open: Vec<(usize, Flow)> = Vec::new();
    let mut pre_depth = 0usize;
    let mut i = 0;
    while i < n {
        while let Some(&(end, f)) = open.last() {
            if end > i {
                break;
            }
            open.pop();
            close(&mut w, f, &mut pre_depth);
        }
        let node = dom.node(i);
        let end = dom.subtree_end(i);
        if !visible[i] {
            i = end;
            continue;
        }
        if !keep[i] {
            if node.kind == Kind::Element {
                w.sep(match flow(dom, i) {
                    Flow::Inline => Sep::Space,
                    Flow::Cell => Sep::Tab,
                    Flow::Block | Flow::Pre => Sep::Newline,
                });
            } else if node.kind == Kind::Text {
                w.sep(Sep::Space);
            }
            i = end;
            continue;
        }
        match node.kind {
            Kind::Text => w.text(dom.text(i), pre_depth > 0),
            Kind::Element => {
                let f = flow(dom, i);
                match f {
                    Flow::Inline => {}
                    Flow::Cell => w.sep(Sep::Tab),
                    Flow::Block => w.sep(Sep::Newline),
                    Flow::Pre => {
                        w.sep(Sep::Newline);
                        pre_depth += 1;
                    }
                }
                open.push((end, f));
            }
            _ => {}
        }
        i += 1;
    }
    while let Some((_, f)) = open.pop() {
        close(&mut w, f, &mut pre_depth);
    }
    w.finish()
}

fn close(w: &mut Writer, f: Flow, pre_depth: &mut usize) {
    match f {
        Flow::Inline => {}
        Flow::Cell => w.sep(Sep::Tab),
        Flow::Block => w.sep(Sep::Newline),
        Flow::Pre => {
            w.sep(Sep::Newline);
            *pre_depth = pre_depth.saturating_sub(1);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::{parse, visibility};
    use crate::Limits;

    fn render(html: &str) -> String {
        let dom = parse(html, &Limits::default()).unwrap();
        let vis = visibility(&dom);
        render_text(&dom, &vis, &vec![true; dom.len()])
    }

    #[test]
    fn blocks_lines_and_whitespace() {
        let html = "<html><head><title>T</title><style>p{}</style></head><body>\n\
            <h1>  The   title </h1><p>First <b>bold</b>\n  para.</p><p>Second</p>\
            <div><div><p>Deep</p></div></div>text<br><br>after br<hr>\
            <ul><li>one</li><li>two</li></ul><script>x()</script></body></html>";
        assert_eq!(
            render(html),
            "The title\nFirst bold para.\nSecond\nDeep\ntext\nafter br\none\ntwo"
        );
    }

    #[test]
    fn tables_cells_and_rows() {
        let html = "<table><tr><td>a</td><td> b </td><th>c</th></tr><tr><td>d</td></tr></table>";
        assert_eq!(render(html), "a\tb\tc\nd");
    }

    #[test]
    fn inline_runs_join_and_pre_keeps_lines() {
        assert_eq!(
            render("<p><a>Home</a><a>News</a> <i>x</i></p>"),
            "HomeNews x"
        );
        assert_eq!(
            render("<pre>  a  b\n\n  c  </pre><p>z</p>"),
            "  a  b\n  c\nz"
        );
    }

    #[test]
    fn skipped_nodes_still_separate() {
        let html = "<body><p>keep<span>drop</span>me</p><div>x<div>gone</div>y</div></body>";
        let dom = parse(html, &Limits::default()).unwrap();
        let vis = visibility(&dom);
        let mut keep = vec![true; dom.len()];
        for i in 0..dom.len() {
            if dom.tag_name(i) == "span" {
                keep[i] = false;
            }
            if dom.text(i) == "gone" {
                keep[dom.parent(i).unwrap()] = false;
            }
        }
        assert_eq!(render_text(&dom, &vis, &keep), "keep me\nx\ny");
        assert_eq!(render_text(&dom, &vis, &vec![false; dom.len()]), "");
    }

    #[test]
    fn empty_and_hidden() {
        assert_eq!(render(""), "");
        assert_eq!(render("<p hidden>no</p><p> </p><p>yes</p>"), "yes");
    }
}
