//! Rendering the kept text of a page as Markdown or as minimal clean HTML, keeping its
//! structure: headings, paragraphs, lists (nested), tables, code blocks, block quotes.
//!
//! Both formats come from one forward pass over the DOM arena (no recursion, so any depth is
//! fine). Elements are opened lazily: an element's markup is written only when the first kept
//! text inside it is, so a list or table whose text is all template leaves nothing behind.
//! Consequences: links render as their text, images and empty elements vanish, and an empty
//! table cell before a row's first non-empty cell is dropped (the row then has fewer columns).
//!
//! Markdown: `#`… headings, `-` and `1.` list items indented by their marker's width per
//! level, pipe tables (the first row is the header row), fenced code blocks for `<pre>`
//! (indentation kept), `` ` `` for inline code, `>` block quotes; blocks are separated by one
//! blank line; nesting deeper than [`MAX_PREFIX_BYTES`] of indentation renders at that depth, so
//! the output stays linear in the input. Markdown's special characters in text (`\ ` * _ [ ] < > & | #`) are
//! backslash-escaped, so the text reads back as it was.
//!
//! HTML: only `h1`–`h6`, `p`, `ul`, `ol`, `li`, `table`, `tr`, `th`, `td`, `pre`, `code`,
//! `blockquote` and `br`, without attributes; text escaped (`&`, `<`, `>`).
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
    Inline,
}

fn role(dom: &Dom, i: usize) -> Role {
    let node = dom.node(i);
    if node.foreign {
        return Role::Inline;
    }
    match node.tag {
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
    end: usize,
    role: Role,
    opened: bool,
    /// Lists: items opened so far (the next ordinal). Tables: rows. Rows: cells.
    count: usize,
    /// Markdown: length of the line prefix before this frame pushed its own.
    prefix_len: usize,
}

/// The kept text of `dom` as Markdown or HTML (see the [module docs](self)).
///
/// `visible` and `keep` are per node as for [`crate::output::text::render_text`]: an invisible
/// node is skipped with its subtree; a text node is written when `keep` holds for it;
/// elements are always walked into (their markup appears only around kept text).
///
/// # Panics
/// If `visible` or `keep` is shorter than the number of nodes.
pub fn render(dom: &Dom, visible: &[bool], keep: &[bool], format: Format) -> String {
    let n = dom.len();
    assert!(visible.len() >= n && keep.len() >= n, "render: short flags");
    let mut w = Writer {
        format,
        out: String::new(),
        prefix: String::new(),
        line_start: true,
        pending_break: 0,
        pending_space: false,
        no_space: false,
        in_row: 0,
    };
    let mut stack: Vec<Frame> = Vec::new();
    let mut i = 0;
    while i < n {
        while stack.last().is_some_and(|f| f.end <= i) {
            let f = stack.pop().expect("non-empty");
            w.close(&f, &mut stack);
        }
        let node = dom.node(i);
        let end = dom.subtree_end(i);
        if !visible[i] {
            i = end;
            continue;
        }
        match node.kind {
            Kind::Element => {
                let role = role(dom, i);
                if role == Role::Break {
                    if stack.iter().all(|f| f.opened) && !w.out.is_empty() {
                        w.hard_break();
                    }
                } else {
                    stack.push(Frame {
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
                    let first_unopened = stack.iter().position(|f| !f.opened);
                    if let Some(k) = first_unopened {
                        for j in k..stack.len() {
                            w.open(&mut stack, j);
                        }
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
        w.close(&f, &mut stack);
    }
    w.out.truncate(w.out.trim_end().len());
    if format == Format::Html && !w.out.is_empty() {
        w.out.push('\n');
    }
    w.out
}

/// Longest Markdown line prefix (list indentation and `> ` quotes), in bytes: about 16 levels
/// of nesting. Every line repeats the prefix, so without a bound the output of n nested lists
/// grows as n² (12,000 nested `<ul><li>`, 481 KB, gave 144 MB).
pub const MAX_PREFIX_BYTES: usize = 40;

struct Writer {
    format: Format,
    out: String,
    /// Markdown: what starts every line (list indentation, `> `).
    prefix: String,
    line_start: bool,
    /// Line breaks owed before the next output: 1 = new line, 2 = blank line.
    pending_break: u8,
    pending_space: bool,
    /// Right after opening markup (`<li>`, `- `, `# `): a pending space is dropped.
    no_space: bool,
    /// Markdown: table rows open; a row must stay on one line, so breaks become spaces.
    in_row: usize,
}

impl Writer {
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
        if self.pending_break > 0 && !self.out.is_empty() {
            while self.out.ends_with([' ', '\t']) {
                self.out.pop();
            }
            if !self.line_start {
                self.out.push('\n');
            }
            if self.pending_break > 1 && !self.out.ends_with("\n\n") {
                if self.format == Format::Markdown {
                    self.out.push_str(self.prefix.trim_end());
                }
                self.out.push('\n');
            }
            self.line_start = true;
            self.pending_space = false;
        }
        self.pending_break = 0;
        if self.line_start {
            if self.format == Format::Markdown {
                self.out.push_str(&self.prefix);
            }
            self.line_start = false;
            self.pending_space = false;
        }
    }

    fn raw(&mut self, s: &str) {
        self.start();
        self.out.push_str(s);
        self.no_space = true;
    }

    fn hard_break(&mut self) {
        match self.format {
            Format::Markdown => {
                self.raw("\\");
                self.brk(1);
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
            Format::Markdown if code => self.out.push(c),
            Format::Markdown => {
                if matches!(
                    c,
                    '\\' | '`' | '*' | '_' | '[' | ']' | '<' | '>' | '&' | '|' | '#'
                ) {
                    self.out.push('\\');
                }
                self.out.push(c);
            }
        }
    }

    /// Writes the opening markup of `stack[j]` (all frames below it are open).
    fn open(&mut self, stack: &mut [Frame], j: usize) {
        let role = stack[j].role;
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
                } else {
                    self.raw(&format!("<h{level}>"));
                }
            }
            Role::Paragraph | Role::Block => {
                self.brk(2);
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
                } else {
                    self.raw(if header { "<th>" } else { "<td>" });
                }
            }
            Role::Pre => {
                self.brk(2);
                self.raw(if md { "```" } else { "<pre>" });
                if md {
                    self.brk(1);
                }
            }
            Role::Code => {
                if !stack[..j].iter().any(|f| f.role == Role::Pre) {
                    let space = std::mem::take(&mut self.pending_space);
                    self.start();
                    if space {
                        self.out.push(' ');
                    }
                    self.out.push_str(if md { "`" } else { "<code>" });
                    self.no_space = true;
                }
            }
            Role::Quote => {
                self.brk(2);
                if md {
                    self.push_prefix("> ");
                } else {
                    self.raw("<blockquote>");
                }
            }
            Role::Break | Role::Inline => {}
        }
    }

    /// Writes the closing markup of `f` (just popped; `stack` holds its ancestors).
    fn close(&mut self, f: &Frame, stack: &mut [Frame]) {
        if !f.opened {
            return;
        }
        let md = self.format == Format::Markdown;
        match f.role {
            Role::Heading(level) => {
                if !md {
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
                } else {
                    self.out.push_str(if header { "</th>" } else { "</td>" });
                }
                self.pending_space = false;
            }
            Role::Pre => {
                if md {
                    self.brk(1);
                    self.raw("```");
                } else {
                    self.out.push_str("</pre>");
                }
                self.brk(2);
            }
            Role::Code => {
                if !stack.iter().any(|a| a.role == Role::Pre) {
                    self.out.push_str(if md { "`" } else { "</code>" });
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
