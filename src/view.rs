//! `view`: a page with each segment outlined and shaded by templateness, as one self-contained
//! HTML file that works with scripts disabled.
//!
//! The view is the page's own decoded source ([`Page::html`](crate::Page::html)) edited in place
//! at the byte spans the parser recorded, so the page keeps its look (its markup, inline styles
//! and `<style>` sheets), rather than a re-serialisation of the arena, which keeps only the
//! attributes the pipeline reads. The edits:
//!
//! - each segment's root element gets `data-pl-seg="k"` (its index, as in `pagelevel segment`)
//!   and `data-pl-c` (template/content and a shade bucket) inserted right after its tag name, so
//!   they win over any same-named attribute; a stylesheet of ours draws the outline and shade
//!   with `!important`, so the overlay never depends on the page's CSS;
//! - `<script>` elements are removed, and so are event-handler attributes (`on*`), `srcdoc`,
//!   `javascript:`/`vbscript:` URLs and `<meta http-equiv=refresh>`; any `<script` left in the
//!   text (template contents, comments) is escaped; a Content-Security-Policy `<meta>` blocks
//!   scripts (and, unless [`ViewOptions::allow_remote`], every network load) as a second line;
//! - the page's charset declarations are removed and `<meta charset="utf-8">` put first, since
//!   the view is the decoded text;
//! - a fixed legend panel (and, optionally, the estimated boxes the classifier saw) is appended.
//!
//! A segment root without a start tag of its own in the source (an implied `<tbody>`, say) cannot
//! carry attributes: an implied `<body>` is outlined through the `body` selector, any other is
//! counted in the legend as not outlined (the boxes overlay still shows it).

use std::fmt::Write as _;

use crate::dom::{Dom, Kind, Span, Tag};
use crate::pipeline::Analysis;
use crate::segment::{Variant, DEFAULT_THRESHOLD};

/// Settings of [`render`], one line each.
#[derive(Debug, Clone)]
pub struct ViewOptions {
    /// The page's name in the legend (usually the path given on the command line).
    pub label: String,
    /// The variant the analysis ran with, shown in the legend.
    pub variant: Variant,
    /// The template threshold the analysis ran with: the shade measures the distance from it.
    pub threshold: f32,
    /// Also draw each segment's estimated box (`layout.rects`, what the classifier saw) as a
    /// dashed, labelled, absolutely positioned layer.
    pub boxes_overlay: bool,
    /// Keep the page's own `<style>`, `<link rel=stylesheet>` and `style` attributes.
    pub page_styles: bool,
    /// Let the page load remote stylesheets, images and fonts (scripts stay blocked). Off by
    /// default: the file then shows only what it contains and renders the same anywhere.
    pub allow_remote: bool,
}

impl Default for ViewOptions {
    fn default() -> Self {
        ViewOptions {
            label: String::new(),
            variant: Variant::TreeFilter,
            threshold: DEFAULT_THRESHOLD,
            boxes_overlay: false,
            page_styles: true,
            allow_remote: false,
        }
    }
}

/// Template colour (red) as an `r,g,b` triple.
const TEMPLATE_RGB: &str = "220,38,38";
/// Content colour (green) as an `r,g,b` triple.
const CONTENT_RGB: &str = "22,163,74";
/// Shade buckets 0..=SHADES: how far a segment's score is from the threshold.
const SHADES: usize = 4;

/// Renders the view of an analysed page: the page's source with every segment outlined (red =
/// template, green = content) and shaded by how far its score is from the threshold, a fixed
/// legend, no JavaScript.
///
/// # Arguments
/// `analysis` comes from [`crate::pipeline::analyze`]; `opts` says what to show.
///
/// # Returns
/// A complete HTML document. The output is a function of the inputs only (deterministic).
/// A page parsed without spans ([`crate::Spans::Skip`]) is parsed again with them.
///
/// # Complexity
/// O(n + s + e log e) time and O(n + s) space for n nodes, s source bytes and e edits (one
/// per segment, script and dropped attribute); no recursion, so any nesting depth is fine.
pub fn render(analysis: &Analysis, opts: &ViewOptions) -> String {
    let src = analysis.page.html.as_str();
    // The edits need source spans: a page parsed without them is parsed again with them,
    // which builds the same tree (same node indices), so the analysis still applies.
    let spanned;
    let dom = if analysis.page.dom.has_spans() {
        &analysis.page.dom
    } else {
        let no_limits = crate::Limits {
            max_input_bytes: u64::MAX,
            max_nodes: usize::MAX,
            timeout_ms: 0,
        };
        spanned = crate::dom::parse(src, &no_limits).ok();
        match &spanned {
            Some(d) if d.len() == analysis.page.dom.len() => d,
            _ => &analysis.page.dom,
        }
    };
    let seg = &analysis.segmentation;
    let bytes = src.as_bytes();
    let mut edits: Vec<Edit> = Vec::new();
    let mut outlined = vec![false; seg.segments.len()];
    let mut body_fallback: Option<usize> = None;
    let mut scripts = 0usize;

    let n = dom.len();
    let mut i = 0;
    while i < n {
        let node = dom.node(i);
        if node.kind != Kind::Element {
            i += 1;
            continue;
        }
        let name = dom.tag_name(i);
        let at = explicit_start(bytes, node.span, name);
        let whole = |at: usize| node.span.is_known() && node.span.end as usize >= at;
        // Whole elements that go: scripts (HTML or SVG), and style sheets when not kept.
        let drop_element = node.tag == Tag::SCRIPT || (!opts.page_styles && node.tag == Tag::STYLE);
        if drop_element {
            scripts += (node.tag == Tag::SCRIPT) as usize;
            if let Some(at) = at.filter(|&a| whole(a)) {
                edits.push(Edit::delete(at, node.span.end as usize));
            }
            i = node.end as usize;
            continue;
        }
        let root_of = seg
            .segment_of
            .get(i)
            .map(|&k| k as usize)
            .filter(|&k| seg.segments.get(k).is_some_and(|s| s.node == i));
        let Some(at) = at else {
            if let Some(k) = root_of {
                if node.tag == Tag::BODY && !node.foreign {
                    body_fallback = Some(k);
                    outlined[k] = true;
                } else if matches!(node.tag, Tag::TBODY | Tag::TR)
                    && !node.foreign
                    && node.span.is_known()
                    && bytes.get(node.span.start as usize) == Some(&b'<')
                {
                    // An implied table section or row: writing its start tag where the parser
                    // implied it builds the same tree, and gives the outline a place.
                    let s = &seg.segments[k];
                    let tag = format!(
                        "<{name} data-pl-seg=\"{k}\" data-pl-c=\"{}\">",
                        segment_class(s, opts.threshold)
                    );
                    edits.push(Edit::insert(node.span.start as usize, tag));
                    outlined[k] = true;
                }
            }
            i += 1;
            continue;
        };
        let Some(tag) = scan_start_tag(bytes, at, name.len()) else {
            i += 1;
            continue;
        };
        let attr_is = |a: &AttrTok, want: &str| src[a.name.0..a.name.1].eq_ignore_ascii_case(want);
        let value_of = |a: &AttrTok| a.value.map_or("", |(s, e)| &src[s..e]);
        // A refresh would navigate away; a charset declaration would be wrong, as the view is
        // the decoded text in UTF-8 (declared by our own `<meta charset>`).
        let meta_drop = node.tag == Tag::META
            && tag.attrs.iter().any(|a| {
                let v = value_of(a).trim();
                attr_is(a, "charset")
                    || (attr_is(a, "http-equiv")
                        && (v.eq_ignore_ascii_case("refresh")
                            || v.eq_ignore_ascii_case("content-type")))
            });
        let sheet = !opts.page_styles
            && node.tag == Tag::LINK
            && tag.attrs.iter().any(|a| {
                attr_is(a, "rel")
                    && value_of(a)
                        .split_ascii_whitespace()
                        .any(|r| r.eq_ignore_ascii_case("stylesheet"))
            });
        if meta_drop || sheet {
            edits.push(Edit::delete(at, tag.end));
            i += 1;
            continue;
        }
        if let Some(k) = root_of {
            let s = &seg.segments[k];
            let mut ins = String::with_capacity(40);
            let _ = write!(
                ins,
                " data-pl-seg=\"{k}\" data-pl-c=\"{}\"",
                segment_class(s, opts.threshold)
            );
            edits.push(Edit::insert(at + 1 + name.len(), ins));
            outlined[k] = true;
        }
        for a in &tag.attrs {
            let lname = &src[a.name.0..a.name.1];
            let unsafe_attr = (lname.len() > 2 && lname[..2].eq_ignore_ascii_case("on"))
                || lname.eq_ignore_ascii_case("srcdoc")
                || (!opts.page_styles && lname.eq_ignore_ascii_case("style"))
                || script_url(value_of(a));
            if unsafe_attr {
                edits.push(Edit::delete(a.name.0, a.end));
            }
        }
        i += 1;
    }
    let body_class = body_fallback
        .and_then(|k| seg.segments.get(k))
        .map(|s| segment_class(s, opts.threshold));
    edits.push(Edit::insert(
        head_insertion_point(dom, bytes),
        head_block(opts, body_class.as_deref()),
    ));

    // Stable sort: at one position an insertion (empty range) goes before a deletion.
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(src.len() + src.len() / 8 + 16 * 1024);
    let mut cursor = 0;
    for e in &edits {
        // Overlapping edits (an edit inside a removed element) are skipped; positions are
        // all at ASCII delimiters, but a bad one must not panic.
        if e.start < cursor || !src.is_char_boundary(e.start) || !src.is_char_boundary(e.end) {
            continue;
        }
        out.push_str(&src[cursor..e.start]);
        out.push_str(&e.text);
        cursor = e.end;
    }
    out.push_str(&src[cursor..]);
    let mut out = defang_scripts(out);
    close_open_text(&mut out, dom, bytes);

    if opts.boxes_overlay {
        boxes_layer(&mut out, analysis, opts.threshold);
    }
    legend(&mut out, analysis, opts, &outlined, scripts);
    out
}

/// One change to the source: replace `start..end` with `text`.
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

impl Edit {
    fn delete(start: usize, end: usize) -> Edit {
        Edit {
            start,
            end: end.max(start),
            text: String::new(),
        }
    }

    fn insert(at: usize, text: String) -> Edit {
        Edit {
            start: at,
            end: at,
            text,
        }
    }
}

/// The `data-pl-c` value: `t`/`c` (template/content) and a shade bucket 0..=SHADES that grows
/// with the distance of the score from the threshold.
fn shade_class(template: bool, score: f32, threshold: f32) -> String {
    let t = threshold.clamp(1e-3, 1.0 - 1e-3);
    let conf = if template {
        (score - t) / (1.0 - t)
    } else {
        (t - score) / t
    };
    let conf = if conf.is_finite() {
        conf.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let b = (conf * SHADES as f32).round() as usize;
    format!("{}{b}", if template { 't' } else { 'c' })
}

/// The `data-pl-c` value of a segment's root: [`shade_class`], except that the root segment
/// (the whole page) gets `tr`/`cr`, outlined but not shaded: its fill would tint everything
/// and turn the template red of nested segments brown.
fn segment_class(s: &crate::segment::Segment, threshold: f32) -> String {
    if s.parent.is_none() {
        return format!("{}r", if s.template { 't' } else { 'c' });
    }
    shade_class(s.template, s.score, threshold)
}

/// Fill opacity of shade bucket `b`.
fn shade_alpha(b: usize) -> f32 {
    0.06 + 0.07 * b as f32
}

/// Where element `name`'s start tag is, when the span starts with `<name` followed by a
/// delimiter; `None` for implied elements (whose span starts at a child).
fn explicit_start(src: &[u8], span: Span, name: &str) -> Option<usize> {
    if span.start == crate::dom::NONE || name.is_empty() {
        return None;
    }
    let at = span.start as usize;
    let rest = src.get(at..)?;
    let k = name.len() + 1;
    (rest.len() > k
        && rest[0] == b'<'
        && rest[1..k].eq_ignore_ascii_case(name.as_bytes())
        && matches!(
            rest[k],
            b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>'
        ))
    .then_some(at)
}

/// An attribute of a start tag in the source: name range, value range (unquoted), and the end
/// of the whole attribute (after a closing quote).
struct AttrTok {
    name: (usize, usize),
    value: Option<(usize, usize)>,
    end: usize,
}

/// A start tag in the source: its attributes and the offset just past its `>`.
struct StartTag {
    attrs: Vec<AttrTok>,
    end: usize,
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

/// Tokenises the start tag at `at` (`<` then a name of `name_len` bytes) the way the HTML
/// tokenizer does: attribute names run to whitespace, `/`, `>` or `=`; values are quoted or
/// run to whitespace or `>`. `None` when the tag never closes.
///
/// # Complexity
/// O(length of the tag).
fn scan_start_tag(src: &[u8], at: usize, name_len: usize) -> Option<StartTag> {
    let n = src.len();
    let mut i = at + 1 + name_len;
    let mut attrs = Vec::new();
    loop {
        while i < n && (is_ws(src[i]) || src[i] == b'/') {
            i += 1;
        }
        if i >= n {
            return None;
        }
        if src[i] == b'>' {
            return Some(StartTag { attrs, end: i + 1 });
        }
        let ns = i;
        i += 1;
        while i < n && !is_ws(src[i]) && !matches!(src[i], b'/' | b'>' | b'=') {
            i += 1;
        }
        let ne = i;
        let mut j = i;
        while j < n && is_ws(src[j]) {
            j += 1;
        }
        let mut value = None;
        if j < n && src[j] == b'=' {
            j += 1;
            while j < n && is_ws(src[j]) {
                j += 1;
            }
            if j >= n {
                return None;
            }
            match src[j] {
                q @ (b'"' | b'\'') => {
                    let close = j + 1 + memchr::memchr(q, &src[j + 1..])?;
                    value = Some((j + 1, close));
                    i = close + 1;
                }
                b'>' => {
                    value = Some((j, j));
                    i = j;
                }
                _ => {
                    let mut k = j;
                    while k < n && !is_ws(src[k]) && src[k] != b'>' {
                        k += 1;
                    }
                    value = Some((j, k));
                    i = k;
                }
            }
        }
        attrs.push(AttrTok {
            name: (ns, ne),
            value,
            end: i.max(ne),
        });
    }
}

/// Whether an attribute value is a `javascript:` or `vbscript:` URL, after decoding numeric
/// character references and `&colon;`/`&tab;`/`&newline;` and dropping whitespace and control
/// characters, as browsers do before reading the scheme.
fn script_url(raw: &str) -> bool {
    let mut scheme = String::with_capacity(12);
    let mut rest = raw;
    while scheme.len() < 11 {
        let Some(c) = rest.chars().next() else { break };
        let (ch, used) = if c == '&' {
            decode_ref(rest).unwrap_or(('&', 1))
        } else {
            (c, c.len_utf8())
        };
        rest = &rest[used..];
        if ch.is_ascii_whitespace() || ch.is_control() {
            continue;
        }
        scheme.push(ch.to_ascii_lowercase());
        if ch == ':' {
            break;
        }
    }
    scheme == "javascript:" || scheme == "vbscript:"
}

/// Decodes the character reference at the start of `s` (`&#106;`, `&#x6A;`, `&colon;`, …):
/// the character and the bytes used.
fn decode_ref(s: &str) -> Option<(char, usize)> {
    let b = s.as_bytes();
    if b.get(1) == Some(&b'#') {
        let hex = matches!(b.get(2), Some(b'x' | b'X'));
        let start = if hex { 3 } else { 2 };
        let mut k = start;
        while k < b.len()
            && (if hex {
                b[k].is_ascii_hexdigit()
            } else {
                b[k].is_ascii_digit()
            })
        {
            k += 1;
        }
        let v =
            u32::from_str_radix(s.get(start..k.min(start + 8))?, if hex { 16 } else { 10 }).ok()?;
        let used = if b.get(k) == Some(&b';') { k + 1 } else { k };
        return Some((char::from_u32(v).unwrap_or('\u{fffd}'), used));
    }
    for (name, ch) in [("&colon;", ':'), ("&tab;", '\t'), ("&newline;", '\n')] {
        if s.len() >= name.len() && s.as_bytes()[..name.len()].eq_ignore_ascii_case(name.as_bytes())
        {
            return Some((ch, name.len()));
        }
    }
    None
}

/// Where the CSP `<meta>` and our stylesheet go: after the `<head>` start tag, else after the
/// `<html>` one, else after a leading doctype, else at the very start.
fn head_insertion_point(dom: &Dom, src: &[u8]) -> usize {
    for tag in [Tag::HEAD, Tag::HTML] {
        // Both are among the first few nodes (document, doctype, comments, html, head).
        let found = (0..dom.len().min(64)).find(|&i| {
            let n = dom.node(i);
            n.kind == Kind::Element && n.tag == tag && !n.foreign
        });
        if let Some(i) = found {
            let name = dom.tag_name(i);
            if let Some(at) = explicit_start(src, dom.node(i).span, name) {
                if let Some(t) = scan_start_tag(src, at, name.len()) {
                    return t.end;
                }
            }
        }
    }
    let mut i = 0;
    while i < src.len() && is_ws(src[i]) {
        i += 1;
    }
    if src.len() >= i + 9 && src[i..i + 9].eq_ignore_ascii_case(b"<!doctype") {
        if let Some(gt) = memchr::memchr(b'>', &src[i..]) {
            return i + gt + 1;
        }
    }
    0
}

/// The CSP `<meta>` and the overlay's stylesheet. `body` is the shade class of a root segment on
/// an implied `<body>`, outlined through the `body` selector.
fn head_block(opts: &ViewOptions, body: Option<&str>) -> String {
    let csp = if opts.allow_remote {
        "script-src 'none'; object-src 'none'; frame-src 'none'; form-action 'none'"
    } else {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; form-action 'none'"
    };
    let mut s = String::with_capacity(6 * 1024);
    let _ = write!(
        s,
        "<meta charset=\"utf-8\"><meta http-equiv=\"Content-Security-Policy\" content=\"{csp}\"><style id=\"pl-view-style\">"
    );
    for (flag, rgb) in [('t', TEMPLATE_RGB), ('c', CONTENT_RGB)] {
        let _ = write!(
            s,
            "[data-pl-c^=\"{flag}\"]{{outline:2px solid rgba({rgb},.9)!important;outline-offset:-2px!important}}"
        );
        for b in 0..=SHADES {
            let _ = write!(
                s,
                "[data-pl-c=\"{flag}{b}\"]{{box-shadow:inset 0 0 0 200vmax rgba({rgb},{:.2})!important}}",
                shade_alpha(b)
            );
        }
    }
    if let Some(class) = body {
        // Always the root segment: outlined, not shaded (see `segment_class`).
        let rgb = if class.starts_with('t') {
            TEMPLATE_RGB
        } else {
            CONTENT_RGB
        };
        let _ = write!(
            s,
            "body{{outline:2px solid rgba({rgb},.9)!important;outline-offset:-2px!important}}"
        );
    }
    s.push_str(LEGEND_CSS);
    let t = (opts.threshold.clamp(0.0, 1.0) * 100.0).round();
    let _ = write!(
        s,
        "pl-scale{{background:linear-gradient(to right,rgba({CONTENT_RGB},.9) 0%,rgba({CONTENT_RGB},.12) {t}%,rgba({TEMPLATE_RGB},.12) {t}%,rgba({TEMPLATE_RGB},.9) 100%)!important}}\
         pl-tick.pl-t{{left:{t}%!important}}"
    );
    s.push_str("</style>");
    s
}

/// Styles of the legend and the boxes layer. Our elements are custom (`pl-*`), so the page's
/// element selectors do not reach them, and every property that matters is `!important`.
const LEGEND_CSS: &str = "\
pl-legend{all:initial!important;display:block!important;position:fixed!important;right:12px!important;bottom:12px!important;\
z-index:2147483647!important;width:340px!important;max-height:70vh!important;overflow:auto!important;box-sizing:border-box!important;\
padding:10px 12px!important;background:#fff!important;color:#111!important;border:1px solid #444!important;border-radius:6px!important;\
box-shadow:0 2px 10px rgba(0,0,0,.35)!important;font:13px/1.4 system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif!important;text-align:left!important}\
pl-legend *{font:inherit!important;color:inherit!important;letter-spacing:normal!important;text-transform:none!important}\
pl-h,pl-p,pl-row,pl-ticks,pl-scale{display:block!important;margin:0 0 4px!important;padding:0!important}\
pl-h{font-weight:700!important;font-size:14px!important}\
pl-code,pl-row{font-family:ui-monospace,Menlo,Consolas,monospace!important;font-size:11px!important;overflow-wrap:anywhere!important;word-break:break-all!important}\
pl-scale{height:12px!important;border:1px solid #444!important;margin-top:6px!important}\
pl-ticks{position:relative!important;height:14px!important;font-size:11px!important}\
pl-tick{position:absolute!important;top:0!important;transform:translateX(-50%)!important;white-space:nowrap!important}\
pl-tick.pl-0{left:0!important;transform:none!important}pl-tick.pl-1{left:auto!important;right:0!important;transform:none!important}\
pl-sw{display:inline-block!important;width:14px!important;height:10px!important;vertical-align:middle!important;margin:0 3px 0 0!important}\
pl-sw.pl-st{outline:2px solid rgb(220,38,38)!important;outline-offset:-2px!important;background:rgba(220,38,38,.3)!important}\
pl-sw.pl-sc{outline:2px solid rgb(22,163,74)!important;outline-offset:-2px!important;background:rgba(22,163,74,.3)!important}\
pl-sw.pl-sb{outline:1px dashed #444!important;outline-offset:-1px!important}\
pl-legend details{display:block!important;margin:4px 0 0!important}pl-legend summary{display:list-item!important;cursor:pointer!important}\
pl-row.pl-rt{color:#991b1b!important}pl-row.pl-rc{color:#166534!important}\
pl-boxes{all:initial!important;display:block!important;position:absolute!important;left:0!important;top:0!important;width:0!important;\
height:0!important;overflow:visible!important;z-index:2147483646!important;pointer-events:none!important}\
pl-box{all:initial!important;display:block!important;position:absolute!important;box-sizing:border-box!important;pointer-events:none!important}\
pl-box[data-pl-b^=\"t\"]{border:1px dashed rgb(185,28,28)!important}pl-box[data-pl-b^=\"c\"]{border:1px dashed rgb(21,128,61)!important}\
pl-lbl{all:initial!important;position:absolute!important;left:0!important;top:0!important;padding:0 3px!important;\
font:10px/1.3 ui-monospace,Menlo,Consolas,monospace!important;color:#fff!important;white-space:nowrap!important}\
pl-box[data-pl-b^=\"t\"] pl-lbl{background:rgba(185,28,28,.85)!important}pl-box[data-pl-b^=\"c\"] pl-lbl{background:rgba(21,128,61,.85)!important}";

/// Replaces every `<script` and `</script` (any case) with `&lt;…`, so that no script tag can
/// survive in text the arena does not hold (template contents, comments, stray tags). In
/// attribute values and RCDATA the reference decodes back to `<`.
///
/// # Complexity
/// O(length).
fn defang_scripts(s: String) -> String {
    let b = s.as_bytes();
    let hit = |i: usize| {
        let k = if b.get(i + 1) == Some(&b'/') {
            i + 2
        } else {
            i + 1
        };
        b.len() >= k + 6 && b[k..k + 6].eq_ignore_ascii_case(b"script")
    };
    if !memchr::memchr_iter(b'<', b).any(hit) {
        return s;
    }
    let mut out = String::with_capacity(s.len() + 64);
    let mut last = 0;
    for i in memchr::memchr_iter(b'<', b) {
        if hit(i) {
            out.push_str(&s[last..i]);
            out.push_str("&lt;");
            last = i + 1;
        }
    }
    out.push_str(&s[last..]);
    out
}

/// Makes sure markup appended after the source is parsed as markup: closes a comment or a
/// raw-text element (`<title>`, `<textarea>`, `<style>`, …) the page leaves open at its end.
fn close_open_text(out: &mut String, dom: &Dom, src: &[u8]) {
    if let Some(open) = memchr::memmem::rfind(out.as_bytes(), b"<!--") {
        if memchr::memmem::find(&out.as_bytes()[open + 4..], b"-->").is_none() {
            out.push_str("-->");
        }
    }
    let last = dom.len().saturating_sub(1);
    if dom.node(last).kind != Kind::Text {
        return;
    }
    let Some(p) = dom.parent(last) else { return };
    let raw = matches!(
        dom.node(p).tag,
        Tag::TITLE | Tag::TEXTAREA | Tag::STYLE | Tag::NOSCRIPT | Tag::NOEMBED | Tag::NOFRAMES
    ) || matches!(dom.tag_name(p), "xmp" | "iframe");
    if !raw || dom.node(p).foreign {
        return;
    }
    let name = dom.tag_name(p);
    let from = dom.node(last).span.start;
    let tail = if from == crate::dom::NONE {
        src
    } else {
        &src[(from as usize).min(src.len())..]
    };
    let mut close = Vec::with_capacity(name.len() + 2);
    close.extend_from_slice(b"</");
    close.extend_from_slice(name.as_bytes());
    let closed = tail
        .windows(close.len())
        .any(|w| w.eq_ignore_ascii_case(&close));
    if !closed {
        let _ = write!(out, "</{name}>");
    }
}

/// The estimated boxes of the segments, dashed and labelled `#k score`, absolutely positioned.
fn boxes_layer(out: &mut String, a: &Analysis, threshold: f32) {
    let rects = &a.features.layout.rects;
    out.push_str("\n<pl-boxes aria-hidden=\"true\">");
    for (k, s) in a.segmentation.segments.iter().enumerate() {
        let Some(r) = rects.get(s.node) else { continue };
        if !(r.w > 0.0 && r.h > 0.0) {
            continue;
        }
        let _ = write!(
            out,
            // `!important` inline: the `all:initial!important` reset would win otherwise.
            "<pl-box data-pl-b=\"{}\" style=\"left:{:.0}px!important;top:{:.0}px!important;width:{:.0}px!important;height:{:.0}px!important\"><pl-lbl>#{k} {}</pl-lbl></pl-box>",
            shade_class(s.template, s.score, threshold),
            r.x,
            r.y,
            r.w,
            r.h,
            score(s.score)
        );
    }
    out.push_str("</pl-boxes>");
}

/// A score with two decimals (`nan` when undefined).
fn score(v: f32) -> String {
    if v.is_finite() {
        format!("{v:.2}")
    } else {
        "nan".to_owned()
    }
}

/// The fixed legend panel: page, variant, counts, colour scale and the segment list.
fn legend(out: &mut String, a: &Analysis, opts: &ViewOptions, outlined: &[bool], scripts: usize) {
    let segs = &a.segmentation.segments;
    let dom = &a.page.dom;
    let tpl = segs.iter().filter(|s| s.template).count();
    let missing = outlined.iter().filter(|&&o| !o).count();
    let variant = match opts.variant {
        Variant::Basic => "basic",
        Variant::Smooth => "smooth",
        Variant::Viterbi => "viterbi",
        Variant::SmoothViterbi => "smooth-viterbi",
        Variant::TreeFilter => "tree-filter",
        Variant::SmoothViterbiTree => "smooth-viterbi-tree",
    };
    out.push_str("\n<pl-legend role=\"note\" aria-label=\"pagelevel view legend\"><pl-h>pagelevel view</pl-h><pl-p>page <pl-code>");
    escape_into(out, &opts.label);
    let _ = write!(
        out,
        "</pl-code></pl-p><pl-p>variant {variant} · threshold {:.2}</pl-p><pl-p>{} segments: {tpl} template, {} content; {} outlined",
        opts.threshold,
        segs.len(),
        segs.len() - tpl,
        segs.len() - missing
    );
    if missing > 0 {
        let _ = write!(
            out,
            ", {missing} without a start tag in the source (not outlined)"
        );
    }
    out.push_str("</pl-p><pl-p><pl-sw class=\"pl-st\"></pl-sw>template <pl-sw class=\"pl-sc\"></pl-sw>content");
    if opts.boxes_overlay {
        out.push_str(" <pl-sw class=\"pl-sb\"></pl-sw>estimated box (labelled #k)");
    }
    let _ = write!(
        out,
        "</pl-p><pl-scale></pl-scale><pl-ticks><pl-tick class=\"pl-0\">0 content</pl-tick><pl-tick class=\"pl-t\">{:.2}</pl-tick><pl-tick class=\"pl-1\">template 1</pl-tick></pl-ticks>\
         <pl-p>score ŷ; the shade deepens with the distance from the threshold; the root segment (#0, the page) is outlined only</pl-p>",
        opts.threshold
    );
    if scripts > 0 {
        let _ = write!(
            out,
            "<pl-p>{scripts} script(s) removed; no JavaScript runs</pl-p>"
        );
    }
    out.push_str("<details><summary>segments (#, T/C, score, words, path)</summary>");
    for (k, s) in segs.iter().enumerate() {
        let _ = write!(
            out,
            "<pl-row class=\"pl-r{}\">#{k} {} {} {}w ",
            if s.template { 't' } else { 'c' },
            if s.template { 'T' } else { 'C' },
            score(s.score),
            s.words
        );
        if s.node < dom.len() {
            escape_into(out, &dom.path(s.node));
        }
        if !outlined.get(k).copied().unwrap_or(false) {
            out.push_str(" (not outlined)");
        }
        out.push_str("</pl-row>");
    }
    out.push_str("</details></pl-legend>\n");
}

/// Appends `s` escaped for HTML text and double- or single-quoted attribute values.
pub fn escape_into(out: &mut String, s: &str) {
    let mut last = 0;
    for (i, c) in s.char_indices() {
        let rep = match c {
            '&' => "&amp;",
            '<' => "&lt;",
            '>' => "&gt;",
            '"' => "&quot;",
            '\'' => "&#39;",
            _ => continue,
        };
        out.push_str(&s[last..i]);
        out.push_str(rep);
        last = i + 1;
    }
    out.push_str(&s[last..]);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_tags_tokenise_like_html() {
        let src = br#"<a href="x>y" onclick='go()' data-x=1 checked =bad>t"#;
        let t = scan_start_tag(src, 0, 1).unwrap();
        let names: Vec<&[u8]> = t.attrs.iter().map(|a| &src[a.name.0..a.name.1]).collect();
        assert_eq!(names, [&b"href"[..], b"onclick", b"data-x", b"checked"]);
        assert_eq!(&src[t.end - 1..t.end], b">");
        assert_eq!(src[t.end], b't');
        assert!(scan_start_tag(b"<a href='x", 0, 1).is_none());
    }

    #[test]
    fn script_urls_are_seen_through_references() {
        assert!(script_url("javascript:alert(1)"));
        assert!(script_url(" JaVa\tScRipt:x"));
        assert!(script_url("&#106;avascript&colon;x"));
        assert!(script_url("java&#x09;script:x"));
        assert!(!script_url("https://example.com/javascript:"));
        assert!(!script_url("/a?b=1&c=2"));
    }

    #[test]
    fn shades_grow_away_from_the_threshold() {
        assert_eq!(shade_class(true, 1.0, 0.5), "t4");
        assert_eq!(shade_class(true, 0.5, 0.5), "t0");
        assert_eq!(shade_class(false, 0.0, 0.5), "c4");
        assert_eq!(shade_class(false, f32::NAN, 0.5), "c0");
    }
}
