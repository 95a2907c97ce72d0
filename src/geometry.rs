//! Estimated page geometry: one box per DOM node from a simple flow layout.
//!
//! PageLevel (Chakrabarti et al., WWW 2007) rendered every page in Mozilla and read each DOM
//! node's box. We cannot run a browser per page, so [`layout`] *estimates* the boxes with a
//! flow model over a [`DEFAULT_VIEWPORT_WIDTH`]-px viewport; when real boxes exist (a browser
//! dump keyed by [`Dom::path`]), [`read_boxes`] and [`apply_boxes`] replace the estimates.
//!
//! # The model
//! - Block elements stack vertically at their container's width; inline content (text, inline
//!   elements, images) flows into line boxes. Text wraps per character at an average glyph
//!   width, so a run of `N` characters at width `W` takes `ceil(N·glyph/W)` lines; headings
//!   h1–h3 use bigger glyphs and lines ([`HEADING_SCALES`]). `<br>` ends a line; `<pre>`
//!   breaks at its newlines.
//! - Replaced elements (img, iframe, video, canvas, embed, object, svg, audio, input) take
//!   their `width`/`height` (attributes or inline style; px, or % of the available width), or
//!   the defaults in [`LayoutOptions`]; one given dimension scales the other by the default's
//!   aspect ratio; a box fitted to a narrower band, or given a % width, keeps its aspect
//!   ratio but never grows taller than its intrinsic height.
//! - A table row shares its width among its cells in proportion to `colspan`, after cells with
//!   an explicit width took theirs; the row is as tall as its tallest cell and every cell is
//!   stretched to it.
//! - Hidden nodes ([`crate::dom::visibility`]) take no area: `w = h = 0` at their parent's
//!   top-left corner, and they do not move their siblings.
//! - Hints for common layouts: inline-style `width` / `max-width` (px, %, em, rem, pt, vw) with
//!   `margin: auto` centring; `display: inline | inline-block | block`; `float: left | right`
//!   boxes sit side by side (wrapping to a new row when full) beside the following content of
//!   their container, which gets the remaining width (`clear` ends that, and so does a
//!   remaining band under 120 px, which content clears as a browser's line boxes do); `<aside>` and
//!   `role=complementary` form a right sidebar ([`DEFAULT_SIDEBAR_WIDTH`]) beside their block
//!   siblings; a floated box without a width shrinks to its content's estimated width.
//! - The body has the browser's 8-px margin, lists and `<dd>` indent by 40 px, blockquote and
//!   figure by 40 px on both sides. An inline element that contains a block is laid out as a
//!   block. Finally every element's box is grown to the union of its children's boxes, so a
//!   box always contains its subtree.
//!
//! # What the model ignores, and why that is acceptable
//! - **Stylesheets** (`<style>`, `<link rel=stylesheet>`), and so all class-based widths,
//!   margins, paddings, borders, colours and fonts: resolving the cascade would need a CSS
//!   engine and the external files, which a one-page-at-a-time pipeline does not have. The
//!   features built on geometry are relative (position on the page, share of the area, aspect
//!   ratio), and the default flow already puts headers first, footers last and long text in
//!   tall boxes.
//! - **Vertical margins** (paragraph and heading spacing): they add a near-constant gap between
//!   blocks and change no block's relative order or width.
//! - **Real fonts and word wrapping**: an average glyph width with per-character wrapping gives
//!   the right number of lines within a few percent on running text, and is O(1) per text node.
//! - **Flexbox, grid, multi-column, `position: absolute | fixed`, transforms**: all need the
//!   stylesheet to matter; without it the content falls back to normal flow, which is the order
//!   a reader meets it in. Overlays (cookie bars, modals) therefore appear in flow.
//! - **JavaScript** and lazily loaded content: only the served HTML is laid out.
//! - **Table column widths across rows**, `rowspan`, `cellspacing`/`cellpadding`, auto table
//!   widths (a table without a width fills its container, as layout tables usually do).
//! - **Vertical alignment** in lines (baseline): boxes are top-aligned in their line.
//! - **Overflow**: explicit widths larger than the available width are clamped, so the estimate
//!   never scrolls horizontally; over-long unbreakable content still only grows the boxes.
//!
//! When the estimate is not good enough, browser-rendered boxes can be supplied per page with
//! [`read_boxes`] / [`apply_boxes`].
//!
//! # Complexity
//! [`layout`] runs seven linear passes (top-down or bottom-up over the preorder arena, never
//! recursive, so a page nested 1,000,000 deep is fine) plus one scan of the text; it allocates
//! a fixed number of per-node vectors, never per node.

use std::collections::HashMap;
use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::dom::{Dom, Kind, Tag, NONE};
use crate::{Error, Result};

/// Default [`LayoutOptions::viewport_width`]: a common desktop width, in px.
pub const DEFAULT_VIEWPORT_WIDTH: f32 = 1280.0;
/// Default [`LayoutOptions::glyph_width`]: average advance of a character at a 16-px font.
pub const DEFAULT_GLYPH_WIDTH: f32 = 8.0;
/// Default [`LayoutOptions::line_height`]: the normal line height of a 16-px font.
pub const DEFAULT_LINE_HEIGHT: f32 = 18.0;
/// Default [`LayoutOptions::image_width`]: an `<img>` without a width.
pub const DEFAULT_IMAGE_WIDTH: f32 = 150.0;
/// Default [`LayoutOptions::image_height`]: an `<img>` without a height.
pub const DEFAULT_IMAGE_HEIGHT: f32 = 100.0;
/// Default [`LayoutOptions::media_width`]: the browser default for iframe, video, canvas,
/// embed, object and svg.
pub const DEFAULT_MEDIA_WIDTH: f32 = 300.0;
/// Default [`LayoutOptions::media_height`]: the browser default for the same elements.
pub const DEFAULT_MEDIA_HEIGHT: f32 = 150.0;
/// Default [`LayoutOptions::body_margin`]: the browser's margin around `<body>`.
pub const DEFAULT_BODY_MARGIN: f32 = 8.0;
/// Default [`LayoutOptions::sidebar_width`]: width of an `<aside>` sidebar.
pub const DEFAULT_SIDEBAR_WIDTH: f32 = 300.0;
/// Default [`LayoutOptions::indent`]: list padding and blockquote/dd/figure margins.
pub const DEFAULT_INDENT: f32 = 40.0;
/// Font scale of h1, h2 and h3 (browser defaults 2em, 1.5em, 1.17em); h4–h6 use 1.
pub const HEADING_SCALES: [f32; 3] = [2.0, 1.5, 1.17];
/// Size of an `<input>` (a text field) without width/height.
const INPUT_SIZE: (f32, f32) = (150.0, 21.0);
/// Size of a checkbox or radio button.
const CHECK_SIZE: (f32, f32) = (13.0, 13.0);
/// Size of `<audio controls>`.
const AUDIO_SIZE: (f32, f32) = (300.0, 54.0);
/// Largest length accepted from the page (px); larger values are clamped.
const MAX_LEN: f32 = 1.0e6;

/// An axis-aligned box in CSS pixels, `y` growing downwards.
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
pub struct Rect {
    /// Left edge.
    pub x: f32,
    /// Top edge.
    pub y: f32,
    /// Width (≥ 0); `width` is accepted when reading boxes.
    #[serde(alias = "width")]
    pub w: f32,
    /// Height (≥ 0); `height` is accepted when reading boxes.
    #[serde(alias = "height")]
    pub h: f32,
}

impl Rect {
    /// `w · h` (0 for a degenerate box).
    pub fn area(&self) -> f32 {
        self.w.max(0.0) * self.h.max(0.0)
    }

    /// The centre point `(x + w/2, y + h/2)`.
    pub fn center(&self) -> (f32, f32) {
        (self.x + self.w / 2.0, self.y + self.h / 2.0)
    }

    /// The smallest box containing both (a zero-size box counts as a point).
    fn union(self, o: Rect) -> Rect {
        let x = self.x.min(o.x);
        let y = self.y.min(o.y);
        Rect {
            x,
            y,
            w: (self.x + self.w).max(o.x + o.w) - x,
            h: (self.y + self.h).max(o.y + o.h) - y,
        }
    }
}

/// Constants of the flow model. Lengths are CSS pixels.
#[derive(Debug, Clone)]
pub struct LayoutOptions {
    /// Width of the viewport the page is laid out in ([`DEFAULT_VIEWPORT_WIDTH`]).
    pub viewport_width: f32,
    /// Average advance of one character of body text ([`DEFAULT_GLYPH_WIDTH`]).
    pub glyph_width: f32,
    /// Height of one line of body text ([`DEFAULT_LINE_HEIGHT`]).
    pub line_height: f32,
    /// Width of an `<img>` without one ([`DEFAULT_IMAGE_WIDTH`]).
    pub image_width: f32,
    /// Height of an `<img>` without one ([`DEFAULT_IMAGE_HEIGHT`]).
    pub image_height: f32,
    /// Width of other replaced elements without one ([`DEFAULT_MEDIA_WIDTH`]).
    pub media_width: f32,
    /// Height of other replaced elements without one ([`DEFAULT_MEDIA_HEIGHT`]).
    pub media_height: f32,
    /// Margin around `<body>` on all four sides ([`DEFAULT_BODY_MARGIN`]).
    pub body_margin: f32,
    /// Width of an `<aside>` / `role=complementary` sidebar ([`DEFAULT_SIDEBAR_WIDTH`]).
    pub sidebar_width: f32,
    /// List padding and blockquote/dd/figure margins ([`DEFAULT_INDENT`]).
    pub indent: f32,
}

impl Default for LayoutOptions {
    fn default() -> Self {
        LayoutOptions {
            viewport_width: DEFAULT_VIEWPORT_WIDTH,
            glyph_width: DEFAULT_GLYPH_WIDTH,
            line_height: DEFAULT_LINE_HEIGHT,
            image_width: DEFAULT_IMAGE_WIDTH,
            image_height: DEFAULT_IMAGE_HEIGHT,
            media_width: DEFAULT_MEDIA_WIDTH,
            media_height: DEFAULT_MEDIA_HEIGHT,
            body_margin: DEFAULT_BODY_MARGIN,
            sidebar_width: DEFAULT_SIDEBAR_WIDTH,
            indent: DEFAULT_INDENT,
        }
    }
}

/// The boxes of one page.
#[derive(Debug, Clone)]
pub struct Layout {
    /// One box per node, indexed like [`Dom::nodes`]; zero-size at the parent's corner for
    /// hidden and never-rendered nodes.
    pub rects: Vec<Rect>,
    /// The whole page: `x = y = 0`, `w` = viewport width, `h` = document height (≥ 1).
    pub page: Rect,
}

/// How a node takes part in the flow.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Disp {
    /// No box: hidden, never rendered, inside a replaced element, `<wbr>`, `<col>`.
    None,
    /// A block container: children stack; inline children form line runs.
    Block,
    /// An inline element: its content flows in its block container's lines.
    Inline,
    /// Character data in a line run.
    Text,
    /// `<br>`: ends the current line.
    Break,
    /// An atomic box sized by width/height (img, iframe, …).
    Replaced,
    /// An atomic box in a line whose inside is a block container.
    InlineBlock,
    /// A table row: cells side by side.
    Row,
    /// A table cell inside a row: a block container with the row's share of width.
    Cell,
}

/// Narrowest band (px) left beside floats that content still flows into; narrower, it goes
/// below them (a browser pushes line boxes down until their content fits).
const MIN_BAND_BESIDE_FLOATS: f32 = 120.0;

// Per-node flags.
const FLOAT_LEFT: u16 = 1;
const FLOAT_RIGHT: u16 = 2;
const FLOATS: u16 = FLOAT_LEFT | FLOAT_RIGHT;
const CLEAR: u16 = 4;
/// `margin: auto`: centred when narrower than its band.
const CENTER: u16 = 8;
/// In the right-hand sidebar column of its container.
const SIDEBAR: u16 = 16;
/// Inside `<pre>`: newlines break lines.
const PRE: u16 = 32;
/// An inline element placed in a line run: its children are positioned relative to the
/// block container, not to it.
const IN_RUN: u16 = 64;
/// A float that did not fit beside the previous floats and starts a new row below them.
const NEW_ROW: u16 = 128;
/// Has a child flagged [`SIDEBAR`].
const HAS_SIDEBAR: u16 = 256;

/// A length from an attribute or inline style.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Len {
    Auto,
    Px(f32),
    /// A fraction of the available width (`50%` is 0.5).
    Frac(f32),
}

impl Len {
    fn resolve(self, base: f32) -> Option<f32> {
        match self {
            Len::Auto => None,
            Len::Px(v) => Some(v),
            Len::Frac(f) => Some(f * base),
        }
    }

    fn px(self) -> Option<f32> {
        match self {
            Len::Px(v) => Some(v),
            _ => None,
        }
    }
}

/// `display` values the model distinguishes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum DisplayHint {
    Inline,
    InlineBlock,
    Block,
}

/// Sizing hints of one element (only elements that have any get one).
#[derive(Debug, Clone, Copy)]
struct Spec {
    w: Len,
    h: Len,
    max_w: Len,
    display: Option<DisplayHint>,
    flags: u16,
}

impl Default for Spec {
    fn default() -> Self {
        Spec {
            w: Len::Auto,
            h: Len::Auto,
            max_w: Len::Auto,
            display: None,
            flags: 0,
        }
    }
}

const NO_SPEC: Spec = Spec {
    w: Len::Auto,
    h: Len::Auto,
    max_w: Len::Auto,
    display: None,
    flags: 0,
};

/// Lays the page out and returns one box per node.
///
/// # Arguments
/// `visible` is [`crate::dom::visibility`]'s result (a missing entry counts as visible).
///
/// # Returns
/// Boxes with finite coordinates, `w, h ≥ 0`, each element's box containing its visible
/// children's boxes; the page box spans the viewport width and the document height.
///
/// # Complexity
/// O(n + t) time for n nodes and t bytes of text, in seven passes; O(n) space in a fixed
/// number of vectors. No recursion.
pub fn layout(dom: &Dom, visible: &[bool], opts: &LayoutOptions) -> Layout {
    let n = dom.len();
    if n == 0 {
        let page = Rect {
            x: 0.0,
            y: 0.0,
            w: opts.viewport_width.max(0.0),
            h: 1.0,
        };
        return Layout {
            rects: Vec::new(),
            page,
        };
    }
    let mut lay = Work {
        dom,
        vis: visible,
        opts,
        disp: vec![Disp::None; n],
        flags: vec![0; n],
        level: vec![0; n],
        spec_ix: vec![NONE; n],
        specs: Vec::new(),
        iw: vec![0.0; n],
        acc: vec![0.0; n],
        rect: vec![Rect::default(); n],
        aux: vec![(0.0, 0.0); n],
    };
    lay.classify();
    lay.intrinsic();
    lay.widths();
    lay.heights();
    lay.place();
    let Work { rect, disp, .. } = lay;
    finish(dom, rect, &disp, opts)
}

/// Scratch state of one layout: per-node vectors, allocated once.
struct Work<'a> {
    dom: &'a Dom,
    vis: &'a [bool],
    opts: &'a LayoutOptions,
    disp: Vec<Disp>,
    flags: Vec<u16>,
    /// Heading level 1–3 inherited by the content (0 for body text).
    level: Vec<u8>,
    /// Index into `specs`, or `NONE`.
    spec_ix: Vec<u32>,
    specs: Vec<Spec>,
    /// Preferred (max-content) width; for text nodes, the advance of the text.
    iw: Vec<f32>,
    /// Bottom-up: sum of the inline children's preferred widths.
    acc: Vec<f32>,
    /// Pass 3/4: box relative to the parent's origin; pass 5 on: absolute.
    rect: Vec<Rect>,
    /// Pass 3/4: `(x, width)` of the line band of an inline child of a block container;
    /// pass 5: the origin children are positioned from.
    aux: Vec<(f32, f32)>,
}

impl Work<'_> {
    fn visible(&self, i: usize) -> bool {
        self.vis.get(i).copied().unwrap_or(true)
    }

    fn spec(&self, i: usize) -> &Spec {
        match self.spec_ix[i] {
            NONE => &NO_SPEC,
            k => &self.specs[k as usize],
        }
    }

    fn scale(&self, i: usize) -> f32 {
        match self.level[i] {
            0 => 1.0,
            l => HEADING_SCALES[(l - 1) as usize],
        }
    }

    fn is_block_level(&self, i: usize) -> bool {
        matches!(self.disp[i], Disp::Block | Disp::Row | Disp::Cell)
            || (self.flags[i] & FLOATS != 0 && self.disp[i] != Disp::None)
    }

    fn is_inline_level(&self, i: usize) -> bool {
        match self.disp[i] {
            Disp::Text | Disp::Inline | Disp::Break | Disp::InlineBlock => true,
            Disp::Replaced => self.flags[i] & FLOATS == 0,
            _ => false,
        }
    }

    /// Pass 1, top-down: display class, flags, heading level and sizing hints.
    ///
    /// # Complexity
    /// O(n + a) for a kept attributes.
    fn classify(&mut self) {
        let dom = self.dom;
        self.disp[0] = Disp::Block;
        for i in 1..dom.len() {
            let node = dom.node(i);
            let p = node.parent as usize;
            self.level[i] = self.level[p];
            self.flags[i] = self.flags[p] & PRE;
            let pd = self.disp[p];
            if !self.visible(i) || matches!(pd, Disp::None | Disp::Replaced) {
                continue;
            }
            match node.kind {
                Kind::Text if pd != Disp::Row => self.disp[i] = Disp::Text,
                Kind::Element => self.classify_element(i, p),
                _ => {}
            }
        }
    }

    fn classify_element(&mut self, i: usize, p: usize) {
        let node = self.dom.node(i);
        let (tag, pd) = (node.tag, self.disp[p]);
        let mut d = if node.foreign {
            if tag == Tag::SVG {
                Disp::Replaced
            } else {
                Disp::Inline
            }
        } else {
            match tag {
                Tag::BR => Disp::Break,
                Tag::WBR | Tag::COL | Tag::COLGROUP | Tag::AREA => Disp::None,
                Tag::INPUT
                    if self
                        .dom
                        .attr(i, "type")
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    Disp::None
                }
                Tag::BUTTON => Disp::InlineBlock,
                // Form controls whose content is their own text flow inline here.
                Tag::SELECT | Tag::TEXTAREA => Disp::Inline,
                t if t.is_replaced() => Disp::Replaced,
                Tag::TD | Tag::TH if pd == Disp::Row => Disp::Cell,
                Tag::TR => Disp::Row,
                t if t.is_block() => Disp::Block,
                _ => Disp::Inline,
            }
        };
        if pd == Disp::Row && d != Disp::Cell {
            d = Disp::None;
        }
        let mut flags = self.flags[i];
        if let Some(spec) = parse_spec(self.dom, i, tag, self.opts.viewport_width) {
            d = match (spec.display, d) {
                (Some(DisplayHint::Inline), Disp::Block) => Disp::Inline,
                (Some(DisplayHint::InlineBlock), Disp::Block | Disp::Inline) => Disp::InlineBlock,
                (Some(DisplayHint::Block), Disp::Inline | Disp::InlineBlock) => Disp::Block,
                (_, d) => d,
            };
            let mut f = spec.flags;
            if matches!(d, Disp::Cell | Disp::Row | Disp::None | Disp::Break) {
                f &= !(FLOATS | SIDEBAR);
            }
            if f & FLOATS != 0 {
                f &= !SIDEBAR;
                if matches!(d, Disp::Inline | Disp::InlineBlock) {
                    d = Disp::Block;
                }
            }
            if f & SIDEBAR != 0 && d != Disp::Block {
                f &= !SIDEBAR;
            }
            flags |= f;
            self.spec_ix[i] = self.specs.len() as u32;
            self.specs.push(spec);
        }
        if tag == Tag::ASIDE && !node.foreign && d == Disp::Block && flags & FLOATS == 0 {
            flags |= SIDEBAR;
        }
        if flags & SIDEBAR != 0 {
            self.flags[p] |= HAS_SIDEBAR;
        }
        if !node.foreign {
            match tag {
                Tag::H1 => self.level[i] = 1,
                Tag::H2 => self.level[i] = 2,
                Tag::H3 => self.level[i] = 3,
                Tag::H4 | Tag::H5 | Tag::H6 => self.level[i] = 0,
                Tag::PRE | Tag::XMP => flags |= PRE,
                _ => {}
            }
        }
        self.flags[i] = flags;
        self.disp[i] = d;
    }

    /// Intrinsic `(w, h)` of a replaced element in px, before fitting to its band.
    fn replaced_size(&self, i: usize) -> (f32, f32) {
        let o = self.opts;
        let (dw, dh) = match self.dom.node(i).tag {
            Tag::IMG => (o.image_width, o.image_height),
            Tag::AUDIO => AUDIO_SIZE,
            Tag::INPUT => match self.dom.attr(i, "type") {
                Some(t)
                    if t.eq_ignore_ascii_case("checkbox") || t.eq_ignore_ascii_case("radio") =>
                {
                    CHECK_SIZE
                }
                _ => INPUT_SIZE,
            },
            _ => (o.media_width, o.media_height),
        };
        let s = self.spec(i);
        match (s.w.px(), s.h.px()) {
            (Some(w), Some(h)) => (w, h),
            (Some(w), None) if dw > 0.0 => (w, w * dh / dw),
            (None, Some(h)) if dh > 0.0 => (h * dw / dh, h),
            _ => (dw, dh),
        }
    }

    /// Width of a replaced element in a band of width `band`.
    fn replaced_width(&self, i: usize, band: f32) -> f32 {
        let w = self.spec(i).w.resolve(band).unwrap_or(self.iw[i]);
        w.min(band).max(0.0)
    }

    /// Shrink-to-fit width of an inline-block or width-less float in a band.
    fn shrink_width(&self, i: usize, band: f32) -> f32 {
        let s = self.spec(i);
        let mut w = s.w.resolve(band).unwrap_or(self.iw[i]);
        if let Some(m) = s.max_w.resolve(band) {
            w = w.min(m);
        }
        w.min(band).max(0.0)
    }

    /// Horizontal margins `(left, right)` of a block.
    fn hmargins(&self, i: usize) -> (f32, f32) {
        let node = self.dom.node(i);
        if node.foreign {
            return (0.0, 0.0);
        }
        let m = self.opts.indent;
        match node.tag {
            Tag::BODY => (self.opts.body_margin, self.opts.body_margin),
            Tag::BLOCKQUOTE | Tag::FIGURE => (m, m),
            Tag::DD => (m, 0.0),
            _ => (0.0, 0.0),
        }
    }

    /// Left padding of a container (list indentation).
    fn pad_left(&self, i: usize) -> f32 {
        let node = self.dom.node(i);
        match node.tag {
            Tag::UL | Tag::OL | Tag::MENU | Tag::DIR if !node.foreign => self.opts.indent,
            _ => 0.0,
        }
    }

    /// Pass 2, bottom-up: promotes inline elements holding blocks, measures text and the
    /// preferred width of every box.
    ///
    /// # Complexity
    /// O(n + t) for t bytes of text.
    fn intrinsic(&mut self) {
        let dom = self.dom;
        let glyph = self.opts.glyph_width;
        for i in (1..dom.len()).rev() {
            let p = dom.node(i).parent as usize;
            let w = match self.disp[i] {
                Disp::None | Disp::Break => 0.0,
                Disp::Text => {
                    text_units(dom.text(i), self.flags[i] & PRE == 0) * glyph * self.scale(i)
                }
                Disp::Replaced => self.replaced_size(i).0,
                Disp::Inline | Disp::Row => self.acc[i],
                Disp::Block | Disp::Cell | Disp::InlineBlock => {
                    let (l, r) = self.hmargins(i);
                    match self.spec(i).w.px() {
                        Some(px) => px,
                        None => self.iw[i].max(self.acc[i]) + self.pad_left(i) + l + r,
                    }
                }
            };
            let w = w.clamp(0.0, MAX_LEN);
            self.iw[i] = w;
            if self.disp[p] == Disp::Inline && self.is_block_level(i) {
                self.disp[p] = Disp::Block;
            }
            if self.disp[p] == Disp::Row || self.is_inline_level(i) {
                self.acc[p] = (self.acc[p] + w).min(MAX_LEN);
            } else {
                self.iw[p] = self.iw[p].max(w);
            }
        }
    }

    /// Pass 3, top-down: widths, and x relative to the parent (line bands for inline
    /// children of block containers).
    ///
    /// # Complexity
    /// O(n): each node's children are visited once (twice when it has a sidebar child).
    fn widths(&mut self) {
        self.rect[0].w = self.opts.viewport_width.max(0.0);
        for i in 0..self.dom.len() {
            match self.disp[i] {
                Disp::Block | Disp::Cell | Disp::InlineBlock => self.block_widths(i),
                Disp::Row => self.row_widths(i),
                Disp::Inline => {
                    let band = self.rect[i].w;
                    for c in self.dom.children(i) {
                        self.rect[c].w = match self.disp[c] {
                            Disp::Replaced => self.replaced_width(c, band),
                            Disp::InlineBlock => self.shrink_width(c, band),
                            Disp::Text | Disp::Inline | Disp::Break => band,
                            _ => 0.0,
                        };
                    }
                }
                _ => {}
            }
        }
    }

    fn block_widths(&mut self, i: usize) {
        let dom = self.dom;
        let cx = self.pad_left(i);
        let cw = (self.rect[i].w - cx).max(0.0);
        let mut side_w = 0.0f32;
        if self.flags[i] & HAS_SIDEBAR != 0 {
            let other = dom.children(i).any(|c| {
                self.flags[c] & SIDEBAR == 0 && self.is_block_level(c) && self.disp[c] != Disp::None
            });
            for c in dom.children(i) {
                if self.flags[c] & SIDEBAR == 0 || self.disp[c] != Disp::Block {
                    continue;
                }
                if other {
                    let w = self
                        .spec(c)
                        .w
                        .resolve(cw)
                        .unwrap_or(self.opts.sidebar_width);
                    side_w = side_w.max(w.min(cw * 0.5));
                } else {
                    self.flags[c] &= !SIDEBAR;
                }
            }
        }
        let avail = (cw - side_w).max(0.0);
        let (mut lo, mut ro) = (0.0f32, 0.0f32);
        for c in dom.children(i) {
            let (d, f) = (self.disp[c], self.flags[c]);
            if d == Disp::None {
                continue;
            }
            if f & SIDEBAR != 0 {
                self.rect[c].x = cx + cw - side_w;
                self.rect[c].w = side_w;
                continue;
            }
            if f & CLEAR != 0 {
                (lo, ro) = (0.0, 0.0);
            }
            if f & FLOATS != 0 {
                let fw = if d == Disp::Replaced {
                    self.replaced_width(c, avail)
                } else {
                    self.shrink_width(c, avail)
                };
                if lo + ro > 0.0 && lo + ro + fw > avail + 0.5 {
                    (lo, ro) = (0.0, 0.0);
                    self.flags[c] |= NEW_ROW;
                }
                let x = if f & FLOAT_LEFT != 0 {
                    lo += fw;
                    cx + lo - fw
                } else {
                    ro += fw;
                    cx + avail - ro
                };
                self.rect[c].x = x;
                self.rect[c].w = fw;
                continue;
            }
            let mut band = (avail - lo - ro).max(0.0);
            if lo + ro > 0.0 && band < MIN_BAND_BESIDE_FLOATS.min(avail * 0.5) {
                // Too narrow for text beside the floats: a browser moves it below them.
                (lo, ro) = (0.0, 0.0);
                band = avail;
                if !self.is_inline_level(c) {
                    self.flags[c] |= CLEAR;
                }
            }
            if self.is_inline_level(c) {
                self.aux[c] = (cx + lo, band);
                self.rect[c].x = cx + lo;
                self.rect[c].w = match d {
                    Disp::Replaced => self.replaced_width(c, band),
                    Disp::InlineBlock => self.shrink_width(c, band),
                    _ => band,
                };
                continue;
            }
            let (ml, mr) = self.hmargins(c);
            let inner = (band - ml - mr).max(0.0);
            let s = self.spec(c);
            let mut w = s.w.resolve(band).unwrap_or(inner).min(inner);
            if let Some(m) = s.max_w.resolve(band) {
                w = w.min(m);
            }
            let w = w.max(0.0);
            let shift = if f & CENTER != 0 {
                (inner - w) / 2.0
            } else {
                0.0
            };
            self.rect[c].x = cx + lo + ml + shift;
            self.rect[c].w = w;
        }
    }

    fn row_widths(&mut self, i: usize) {
        let dom = self.dom;
        let rw = self.rect[i].w;
        let (mut fixed, mut flex) = (0.0f32, 0u32);
        for c in dom.children(i).filter(|&c| self.disp[c] == Disp::Cell) {
            match self.spec(c).w.resolve(rw) {
                Some(w) => fixed += w,
                None => flex += colspan(dom, c),
            }
        }
        // Explicit widths that overflow the row, or leave space nobody else takes, scale.
        let k = if fixed > rw || (flex == 0 && fixed > 0.0) {
            rw / fixed
        } else {
            1.0
        };
        let rest = (rw - fixed * k).max(0.0);
        let mut x = 0.0f32;
        for c in dom.children(i).filter(|&c| self.disp[c] == Disp::Cell) {
            let w = match self.spec(c).w.resolve(rw) {
                Some(w) => w * k,
                None => rest * colspan(dom, c) as f32 / flex as f32,
            };
            self.rect[c].x = x;
            self.rect[c].w = w;
            x += w;
        }
    }

    /// Pass 4, bottom-up: heights, y relative to the parent, and the line runs (which also
    /// give inline content its x).
    ///
    /// # Complexity
    /// O(n + t): each node is placed once by its block container; `<pre>` text is rescanned.
    fn heights(&mut self) {
        let dom = self.dom;
        for i in (0..dom.len()).rev() {
            match self.disp[i] {
                Disp::Replaced => {
                    let (iw, ih) = self.replaced_size(i);
                    let w = self.rect[i].w;
                    // A fitted or %-wide box keeps the aspect ratio but never grows taller
                    // than asked for: a `width=100%` icon must not become a 1264-px banner.
                    self.rect[i].h = if iw > 0.0 && (w - iw).abs() > 0.01 {
                        ih * (w / iw).min(1.0)
                    } else {
                        ih
                    };
                }
                Disp::Block | Disp::Cell | Disp::InlineBlock => {
                    let mut h = self.stack(i);
                    if let Some(min) = self.spec(i).h.px() {
                        h = h.max(min);
                    }
                    if dom.node(i).tag == Tag::HR {
                        h = h.max(2.0);
                    }
                    self.rect[i].h = h;
                }
                Disp::Row => {
                    let mut h = self.spec(i).h.px().unwrap_or(0.0);
                    for c in dom.children(i) {
                        h = h.max(self.rect[c].h);
                    }
                    for c in dom.children(i) {
                        if self.disp[c] == Disp::Cell {
                            self.rect[c].h = h;
                        }
                    }
                    self.rect[i].h = h;
                }
                _ => {}
            }
        }
    }

    /// Stacks the children of block container `i`; returns its content height.
    fn stack(&mut self, i: usize) -> f32 {
        let dom = self.dom;
        let mut y = 0.0f32;
        let mut run: Option<Run> = None;
        let (mut float_bottom, mut side_y) = (0.0f32, 0.0f32);
        let mut next = dom.node(i).first_child;
        while next != NONE {
            let c = next as usize;
            next = dom.node(c).next_sibling;
            let (d, f) = (self.disp[c], self.flags[c]);
            if d == Disp::None {
                continue;
            }
            if f & SIDEBAR != 0 {
                self.rect[c].y = side_y;
                side_y += self.rect[c].h;
                continue;
            }
            if self.is_inline_level(c) {
                let (bx, bw) = self.aux[c];
                let r = run.get_or_insert(Run::new(bx, bw, y));
                self.run_item(r, c);
                continue;
            }
            if let Some(r) = run.take() {
                y = r.bottom();
            }
            if f & FLOATS != 0 {
                if f & NEW_ROW != 0 {
                    y = y.max(float_bottom);
                }
                self.rect[c].y = y;
                float_bottom = float_bottom.max(y + self.rect[c].h);
                continue;
            }
            if f & CLEAR != 0 {
                y = y.max(float_bottom);
            }
            let m = if dom.node(c).tag == Tag::BODY && !dom.node(c).foreign {
                self.opts.body_margin
            } else {
                0.0
            };
            self.rect[c].y = y + m;
            y += self.rect[c].h + 2.0 * m;
        }
        if let Some(r) = run {
            y = r.bottom();
        }
        y.max(float_bottom).max(side_y)
    }

    /// Places inline-level child `c` (and, for an inline element, its whole subtree) in the
    /// line run `r`. Positions are relative to the block container.
    fn run_item(&mut self, r: &mut Run, c: usize) {
        let dom = self.dom;
        let end = dom.node(c).end as usize;
        let mut j = c;
        while j < end {
            match self.disp[j] {
                Disp::Text => {
                    self.run_text(r, j);
                    j += 1;
                }
                Disp::Inline => {
                    self.rect[j] = r.point();
                    self.flags[j] |= IN_RUN;
                    j += 1;
                }
                Disp::Break => {
                    self.rect[j] = r.point();
                    r.brk(self.opts.line_height * self.scale(j));
                    j += 1;
                }
                Disp::None => j = dom.node(j).end as usize,
                // Atomic boxes (and, defensively, anything block-like).
                _ => {
                    let (x, y) = r.atomic(self.rect[j].w, self.rect[j].h);
                    self.rect[j].x = x;
                    self.rect[j].y = y;
                    j = dom.node(j).end as usize;
                }
            }
        }
    }

    fn run_text(&mut self, r: &mut Run, j: usize) {
        let scale = self.scale(j);
        let lh = self.opts.line_height * scale;
        if self.flags[j] & PRE == 0 {
            self.rect[j] = r.text(self.iw[j], lh);
            return;
        }
        let g = self.opts.glyph_width * scale;
        let mut bbox: Option<Rect> = None;
        for (k, seg) in self.dom.text(j).split('\n').enumerate() {
            if k > 0 {
                r.brk(lh);
            }
            let b = r.text(text_units(seg, false) * g, lh);
            bbox = Some(bbox.map_or(b, |a| a.union(b)));
        }
        self.rect[j] = bbox.unwrap_or_else(|| r.point());
    }

    /// Pass 5, top-down: absolute positions from the relative ones.
    ///
    /// # Complexity
    /// O(n).
    fn place(&mut self) {
        self.aux[0] = (0.0, 0.0);
        for i in 1..self.dom.len() {
            let p = self.dom.node(i).parent as usize;
            let (ox, oy) = self.aux[p];
            let r = &mut self.rect[i];
            r.x += ox;
            r.y += oy;
            self.aux[i] = if self.flags[i] & IN_RUN != 0 {
                (ox, oy)
            } else {
                (r.x, r.y)
            };
        }
    }
}

/// Passes 6 and 7: grows every box to contain its children (bottom-up), then puts boxless
/// nodes at their parent's corner (top-down); computes the page box.
///
/// # Complexity
/// O(n).
fn finish(dom: &Dom, mut rect: Vec<Rect>, disp: &[Disp], opts: &LayoutOptions) -> Layout {
    let n = dom.len();
    for i in (1..n).rev() {
        if disp[i] != Disp::None {
            let p = dom.node(i).parent as usize;
            rect[p] = rect[p].union(rect[i]);
        }
    }
    for i in 1..n {
        if disp[i] == Disp::None {
            let p = rect[dom.node(i).parent as usize];
            rect[i] = Rect {
                x: p.x,
                y: p.y,
                w: 0.0,
                h: 0.0,
            };
        }
    }
    let page = Rect {
        x: 0.0,
        y: 0.0,
        w: opts.viewport_width.max(0.0),
        h: (rect[0].y + rect[0].h).max(1.0),
    };
    Layout { rects: rect, page }
}

/// The state of one line run: consecutive inline content of a block container.
#[derive(Debug, Clone, Copy)]
struct Run {
    /// Left edge of the band, relative to the container.
    x: f32,
    /// Width of the band (≥ 1, so that wrapping always terminates).
    w: f32,
    /// Top of the current line.
    top: f32,
    /// Height of the current line so far (0 while empty).
    line_h: f32,
    /// Horizontal position in the current line, from the band's left edge.
    pen: f32,
}

impl Run {
    fn new(x: f32, w: f32, top: f32) -> Run {
        Run {
            x,
            w: w.max(1.0),
            top,
            line_h: 0.0,
            pen: 0.0,
        }
    }

    /// A zero-size box at the pen.
    fn point(&self) -> Rect {
        Rect {
            x: self.x + self.pen,
            y: self.top,
            w: 0.0,
            h: 0.0,
        }
    }

    /// Flows `adv` px of text with line height `lh`, wrapping per character; returns its box
    /// (the full band width when it spans lines).
    ///
    /// # Complexity
    /// O(1) whatever the number of lines.
    fn text(&mut self, adv: f32, lh: f32) -> Rect {
        if adv <= 0.0 {
            return self.point();
        }
        let total = self.pen + adv;
        // The epsilon keeps an exact fit (N·glyph = W) on one line despite rounding.
        let lines = (total / self.w - 1e-4).ceil().max(1.0);
        if lines <= 1.0 {
            let r = Rect {
                x: self.x + self.pen,
                y: self.top,
                w: adv,
                h: lh,
            };
            self.pen = total;
            self.line_h = self.line_h.max(lh);
            return r;
        }
        let start = self.top;
        self.top += self.line_h.max(lh) + (lines - 2.0) * lh;
        self.line_h = lh;
        self.pen = (total - (lines - 1.0) * self.w).max(0.0);
        Rect {
            x: self.x,
            y: start,
            w: self.w,
            h: self.top + lh - start,
        }
    }

    /// Places an atomic box, on a new line when it does not fit; returns its top-left corner.
    fn atomic(&mut self, w: f32, h: f32) -> (f32, f32) {
        if self.pen > 0.0 && self.pen + w > self.w + 0.01 {
            self.top += self.line_h;
            self.pen = 0.0;
            self.line_h = 0.0;
        }
        let at = (self.x + self.pen, self.top);
        self.pen += w;
        self.line_h = self.line_h.max(h);
        at
    }

    /// A forced line break; an empty line still takes `lh`.
    fn brk(&mut self, lh: f32) {
        self.top += if self.line_h > 0.0 { self.line_h } else { lh };
        self.pen = 0.0;
        self.line_h = 0.0;
    }

    /// Bottom of the run's last line.
    fn bottom(&self) -> f32 {
        self.top + self.line_h
    }
}

/// Character cells of a text: whitespace runs collapse to one cell when `collapse` (and a
/// whitespace-only text counts 0); East-Asian wide characters (U+2E80 and up, roughly the
/// three-byte UTF-8 sequences from 0xE2 0xBA) count 2.
///
/// # Complexity
/// O(bytes), one pass over bytes without decoding.
fn text_units(s: &str, collapse: bool) -> f32 {
    let mut units = 0u32;
    let mut in_ws = false;
    let mut any = false;
    let b = s.as_bytes();
    let mut k = 0;
    while k < b.len() {
        let c = b[k];
        k += 1;
        if c < 0x80 {
            if c.is_ascii_whitespace() {
                if !collapse || !in_ws {
                    units += 1;
                }
                in_ws = true;
            } else {
                // The rest of a run of other ASCII bytes at once: a cell each.
                let run = b[k..]
                    .iter()
                    .take_while(|&&x| x < 0x80 && !x.is_ascii_whitespace())
                    .count();
                k += run;
                units += 1 + run as u32;
                in_ws = false;
                any = true;
            }
        } else if c >= 0xC0 {
            in_ws = false;
            any = true;
            let wide =
                c >= 0xF0 || (c >= 0xE3) || (c == 0xE2 && b.get(k).is_some_and(|&n| n >= 0xBA));
            units += if wide { 2 } else { 1 };
        }
    }
    if collapse && !any {
        return 0.0;
    }
    units as f32
}

/// `colspan` of a cell, 1–1000.
fn colspan(dom: &Dom, i: usize) -> u32 {
    dom.attr(i, "colspan")
        .and_then(|v| v.trim().parse::<u32>().ok())
        .unwrap_or(1)
        .clamp(1, 1000)
}

/// Reads the sizing hints of element `i` from its attributes and inline style.
///
/// # Complexity
/// O(length of its kept attributes).
fn parse_spec(dom: &Dom, i: usize, tag: Tag, viewport: f32) -> Option<Spec> {
    let mut s = Spec::default();
    let mut any = false;
    let sized_by_attr = tag.is_replaced()
        || matches!(tag, Tag::TABLE | Tag::TD | Tag::TH | Tag::TR)
        || dom.node(i).foreign;
    for (k, v) in dom.attrs(i) {
        match k {
            "width" if sized_by_attr => {
                s.w = parse_len(v, viewport);
                any |= s.w != Len::Auto;
            }
            "height" if sized_by_attr => {
                s.h = parse_len(v, viewport);
                any |= s.h != Len::Auto;
            }
            "role" if v.trim().eq_ignore_ascii_case("complementary") => {
                s.flags |= SIDEBAR;
                any = true;
            }
            "style" => any |= parse_style(v, viewport, &mut s),
            _ => {}
        }
    }
    any.then_some(s)
}

/// Applies the declarations of an inline style the model uses; returns whether any did.
fn parse_style(style: &str, viewport: f32, s: &mut Spec) -> bool {
    let mut any = false;
    for decl in style.split(';') {
        let Some((prop, val)) = decl.split_once(':') else {
            continue;
        };
        let prop = prop.trim().to_ascii_lowercase();
        let val = val.trim();
        let val = val
            .strip_suffix("!important")
            .map_or(val, str::trim_end)
            .to_ascii_lowercase();
        let val = val.as_str();
        match prop.as_str() {
            "width" => s.w = parse_len(val, viewport),
            "height" => s.h = parse_len(val, viewport),
            "max-width" => s.max_w = parse_len(val, viewport),
            "display" => {
                s.display = match val {
                    "inline" | "contents" => Some(DisplayHint::Inline),
                    "inline-block" | "inline-flex" | "inline-grid" | "inline-table" => {
                        Some(DisplayHint::InlineBlock)
                    }
                    "block" | "flex" | "grid" | "list-item" | "table" | "flow-root" => {
                        Some(DisplayHint::Block)
                    }
                    _ => s.display,
                }
            }
            "float" => {
                s.flags &= !FLOATS;
                s.flags |= match val {
                    "left" | "inline-start" => FLOAT_LEFT,
                    "right" | "inline-end" => FLOAT_RIGHT,
                    _ => 0,
                };
            }
            "clear" if val != "none" => s.flags |= CLEAR,
            "margin" | "margin-left" | "margin-right" | "margin-inline" if val.contains("auto") => {
                s.flags |= CENTER
            }
            _ => continue,
        }
        any = true;
    }
    any
}

/// A CSS or HTML length: `120`, `120px`, `50%`, `2em`, `1.5rem`, `12pt`, `80vw`. Anything else
/// (auto, calc(), negative, non-finite) is `Auto`.
fn parse_len(v: &str, viewport: f32) -> Len {
    let v = v.trim();
    let cut = v
        .find(|c: char| !(c.is_ascii_digit() || c == '.' || c == '+'))
        .unwrap_or(v.len());
    let Ok(num) = v[..cut].parse::<f32>() else {
        return Len::Auto;
    };
    if !num.is_finite() || num < 0.0 {
        return Len::Auto;
    }
    let px = match v[cut..].trim() {
        "" | "px" => num,
        "%" => return Len::Frac((num / 100.0).min(1.0)),
        "em" | "rem" => num * 16.0,
        "pt" => num * 4.0 / 3.0,
        "vw" => num * viewport / 100.0,
        _ => return Len::Auto,
    };
    Len::Px(px.min(MAX_LEN))
}

/// Reads browser-rendered boxes: a JSON object mapping [`Dom::path`] strings to
/// `{"x":…, "y":…, "w":…, "h":…}` (`width`/`height` are accepted for `w`/`h`).
///
/// # Errors
/// [`Error::Boxes`] when the file cannot be read, is not such an object, or a box has a
/// negative size.
///
/// # Complexity
/// O(file size).
pub fn read_boxes(path: &Path) -> Result<HashMap<String, Rect>> {
    let err = |message: String| Error::Boxes {
        path: path.to_path_buf(),
        message,
    };
    let bytes = std::fs::read(path).map_err(|e| err(format!("cannot read: {e}")))?;
    let boxes: HashMap<String, Rect> =
        serde_json::from_slice(&bytes).map_err(|e| err(format!("bad JSON: {e}")))?;
    if let Some((k, r)) = boxes
        .iter()
        .find(|(_, r)| !(r.w >= 0.0 && r.h >= 0.0 && r.x.is_finite() && r.y.is_finite()))
    {
        return Err(err(format!(
            "box of {k} has a negative or invalid size: {r:?}"
        )));
    }
    Ok(boxes)
}

/// Replaces the estimated box of every node whose [`Dom::path`] is a key of `boxes`; keys
/// that name no node are ignored. The page height grows to cover the given boxes. Returns the
/// number of nodes overridden.
///
/// Only the named nodes change: their descendants keep estimated boxes.
///
/// # Complexity
/// O(n + K + m·d): one top-down pass hashing every node's path step by step, K bytes of keys,
/// and a `Dom::path` check of depth d for each of the m matches.
pub fn apply_boxes(dom: &Dom, layout: &mut Layout, boxes: &HashMap<String, Rect>) -> usize {
    if boxes.is_empty() || layout.rects.len() != dom.len() {
        return 0;
    }
    let mut wanted: HashMap<u64, Vec<(&str, Rect)>> = HashMap::with_capacity(boxes.len());
    for (k, r) in boxes {
        if let Some(h) = key_hash(k) {
            wanted.entry(h).or_default().push((k.as_str(), *r));
        }
    }
    let n = dom.len();
    let mut hash = vec![SEED; n];
    let mut count = 0;
    for i in 0..n {
        if i > 0 {
            let node = dom.node(i);
            let (name, nth): (&str, u32) = match node.kind {
                Kind::Element => {
                    let omit =
                        matches!(node.tag, Tag::HTML | Tag::HEAD | Tag::BODY) && !node.foreign;
                    (dom.name_of(node.tag), if omit { 1 } else { node.nth })
                }
                Kind::Text => ("text()", node.nth),
                Kind::Comment => ("comment()", node.nth),
                Kind::Doctype => ("doctype()", 0),
                Kind::Document => ("", 0),
            };
            hash[i] = step_hash(hash[node.parent as usize], name, nth);
        }
        if let Some(list) = wanted.get(&hash[i]) {
            let path = dom.path(i);
            if let Some((_, r)) = list.iter().find(|(k, _)| *k == path) {
                layout.rects[i] = *r;
                layout.page.h = layout.page.h.max(r.y + r.h);
                count += 1;
            }
        }
    }
    count
}

const SEED: u64 = 0xcbf2_9ce4_8422_2325;

/// FNV-1a over one path step (name and index).
fn step_hash(parent: u64, name: &str, nth: u32) -> u64 {
    let mut h = parent ^ 0x2f;
    h = h.wrapping_mul(0x100_0000_01b3);
    for &b in name.as_bytes().iter().chain(&nth.to_le_bytes()) {
        h ^= b as u64;
        h = h.wrapping_mul(0x100_0000_01b3);
    }
    h
}

/// The hash of a path key, computed like the nodes' (a step without `[k]` has index 1,
/// `doctype()` index 0). `None` when a step's index is malformed.
fn key_hash(key: &str) -> Option<u64> {
    let mut h = SEED;
    for step in key.split('/').filter(|s| !s.is_empty()) {
        let (name, nth) = match step.find('[') {
            Some(k) if !step.starts_with("doctype") => {
                let idx = step[k + 1..].strip_suffix(']')?.parse::<u32>().ok()?;
                (&step[..k], idx)
            }
            _ if step == "doctype()" => (step, 0),
            _ => (step, 1),
        };
        h = step_hash(h, name, nth);
    }
    Some(h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lengths() {
        assert_eq!(parse_len("120", 1280.0), Len::Px(120.0));
        assert_eq!(parse_len(" 120px ", 1280.0), Len::Px(120.0));
        assert_eq!(parse_len("50%", 1280.0), Len::Frac(0.5));
        assert_eq!(parse_len("2em", 1280.0), Len::Px(32.0));
        assert_eq!(parse_len("10vw", 1280.0), Len::Px(128.0));
        assert_eq!(parse_len("auto", 1280.0), Len::Auto);
        assert_eq!(parse_len("-5px", 1280.0), Len::Auto);
        assert_eq!(parse_len("calc(100% - 2px)", 1280.0), Len::Auto);
    }

    #[test]
    fn units() {
        assert_eq!(text_units("ab  c", true), 4.0);
        assert_eq!(text_units("  \n ", true), 0.0);
        assert_eq!(text_units("ab  c", false), 5.0);
        assert_eq!(text_units("日本", true), 4.0);
        assert_eq!(text_units("é", true), 1.0);
    }

    #[test]
    fn run_wraps() {
        let mut r = Run::new(0.0, 100.0, 0.0);
        let b = r.text(250.0, 10.0);
        assert_eq!((b.y, b.h, r.pen), (0.0, 30.0, 50.0));
        assert_eq!(r.bottom(), 30.0);
        r.brk(10.0);
        r.brk(10.0);
        assert_eq!(r.bottom(), 40.0);
    }
}
