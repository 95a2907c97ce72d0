//! `view`: a page with each segment outlined and shaded by templateness, as one self-contained
//! HTML file that is inert: opened in a browser it runs nothing, navigates nowhere by itself and,
//! unless [`ViewOptions::allow_remote`], loads nothing from outside the file.
//!
//! The page is hostile input written into a file a person opens, so the view is made in two
//! stages:
//!
//! 1. Where: each segment's root element is found in the decoded source
//!    ([`Page::html`](crate::Page::html)) at the byte span the parser recorded, keyed by the offset
//!    of its `<`. Its start tag gets `data-pl-seg="k"` (its index, as in `pagelevel segment`) and
//!    `data-pl-c` (template/content and a shade bucket) as its first attributes, so they win
//!    over any same-named one; a stylesheet of ours draws the outline and shade with
//!    `!important`, so the overlay never depends on the page's CSS.
//! 2. What: the whole source goes through `lol_html`, a streaming rewriter with a standard HTML
//!    tokenizer that tracks what the browser's tree builder does (raw text, `<noscript>` with
//!    scripting on, SVG and MathML), and an allow-list ([`sanitize`]): elements not on it are
//!    removed (with their content when it is script, raw text, a template, a frame or an
//!    embedding) or unwrapped; every kept start tag is written anew from its allowed attributes,
//!    values decoded as the browser decodes them, URLs checked against scheme allow-lists, CSS
//!    loads neutralised ([`css`]). Comments go, and text never keeps a `<`. The page keeps its
//!    look: markup, classes, inline styles and `<style>` sheets.
//!
//! Our head block goes first (after the page's doctype, when that is its first token):
//! `<meta charset="utf-8">` (the view is
//! the decoded text), a Content-Security-Policy `<meta>` as a second line of defence (no
//! scripts; unless [`ViewOptions::allow_remote`], no network loads) and our stylesheet. A fixed
//! legend panel (and, optionally, the estimated boxes the classifier saw) is appended.
//!
//! A segment root without a start tag of its own in the source (an implied `<tbody>`, say) cannot
//! carry attributes: an implied `<tbody>` or `<tr>` gets its start tag written where the parser
//! implied it, an implied `<body>` is outlined through the `body` selector, and any other is
//! counted in the legend as not outlined (the boxes overlay still shows it); so is a root the
//! allow-list removes.

use std::fmt::Write as _;

use rustc_hash::FxHashMap;

use crate::dom::{Kind, Span, Tag};
use crate::pipeline::Analysis;

pub mod css;
pub mod options;
pub mod sanitize;
pub mod urls;

pub use options::{ViewError, ViewOptions};
pub use sanitize::escape_into;
use sanitize::Mark;

/// Template colour (red) as an `r,g,b` triple.
const TEMPLATE_RGB: &str = "220,38,38";
/// Content colour (green) as an `r,g,b` triple.
const CONTENT_RGB: &str = "22,163,74";
/// Shade buckets 0..=SHADES: how far a segment's score is from the threshold.
const SHADES: usize = 4;

/// Renders the view of an analysed page: the page's source, sanitised, with every segment
/// outlined (red = template, green = content) and shaded by how far its score is from the
/// threshold, and a fixed legend; inert (see the module documentation).
///
/// # Arguments
/// `analysis` comes from [`crate::pipeline::analyze`]; `opts` says what to show.
///
/// # Returns
/// A complete HTML document, a function of the inputs only (deterministic); a page parsed
/// without spans ([`crate::Spans::Skip`]) is parsed again with them. [`ViewError`] if the
/// rewriter stops.
///
/// # Complexity
/// O(n + s + a) time and O(n + s) space for n nodes, s source bytes and a attributes; no
/// recursion over the tree, so any nesting depth is fine.
pub fn render(analysis: &Analysis, opts: &ViewOptions) -> Result<String, ViewError> {
    let src = analysis.page.html.as_str();
    // The outlines need source spans: a page parsed without them is parsed again with them,
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
    let mut marks: FxHashMap<usize, Mark> = FxHashMap::default();
    let mut body_fallback: Option<usize> = None;
    for (k, s) in seg.segments.iter().enumerate() {
        let i = s.node;
        if i >= dom.len() || dom.node(i).kind != Kind::Element {
            continue;
        }
        let node = dom.node(i);
        let name = dom.tag_name(i);
        let class = segment_class(s, opts.threshold);
        if let Some(at) = explicit_start(bytes, node.span, name) {
            marks.entry(at).or_default().seg = Some((k, class));
        } else if node.tag == Tag::BODY && !node.foreign {
            body_fallback = Some(k);
        } else if matches!(node.tag, Tag::TBODY | Tag::TR)
            && !node.foreign
            && node.span.is_known()
            && bytes.get(node.span.start as usize) == Some(&b'<')
        {
            // An implied table section or row: writing its start tag where the parser implied
            // it builds the same tree, and gives the outline a place.
            let tag = format!("<{name} data-pl-seg=\"{k}\" data-pl-c=\"{class}\">");
            marks
                .entry(node.span.start as usize)
                .or_default()
                .implied
                .push((k, tag));
        }
    }
    let body_class = body_fallback
        .and_then(|k| seg.segments.get(k))
        .map(|s| segment_class(s, opts.threshold));
    let head = head_block(opts, body_class.as_deref());
    let clean = sanitize::sanitize(src, &marks, seg.segments.len(), opts, head)?;
    let mut out = clean.html;
    // A breakout start tag: should the browser still be inside SVG or MathML here (a removal
    // took an end tag the rewriter had seen), it leaves them, and the legend shows.
    out.push_str("<div hidden></div>");
    let mut outlined = clean.outlined;
    if let Some(o) = body_fallback.and_then(|k| outlined.get_mut(k)) {
        *o = true;
    }
    if opts.boxes_overlay {
        boxes_layer(&mut out, analysis, opts.threshold);
    }
    legend(&mut out, analysis, opts, &outlined, clean.scripts);
    Ok(out)
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

/// The CSP `<meta>` and the overlay's stylesheet. `body` is the shade class of a root segment on
/// an implied `<body>`, outlined through the `body` selector.
fn head_block(opts: &ViewOptions, body: Option<&str>) -> String {
    let csp = if opts.allow_remote {
        "default-src 'none'; style-src 'unsafe-inline' http: https:; img-src data: http: https:; font-src data: http: https:; media-src data: http: https:; form-action 'none'; base-uri 'none'"
    } else {
        "default-src 'none'; style-src 'unsafe-inline'; img-src data:; font-src data:; media-src data:; form-action 'none'; base-uri 'none'"
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
    // A form is kept as `pl-form` (see `sanitize`): the block box a form has.
    s.push_str("pl-form{display:block}");
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
    let variant = opts.variant.name();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shades_grow_away_from_the_threshold() {
        assert_eq!(shade_class(true, 1.0, 0.5), "t4");
        assert_eq!(shade_class(true, 0.5, 0.5), "t0");
        assert_eq!(shade_class(false, 0.0, 0.5), "c4");
        assert_eq!(shade_class(false, f32::NAN, 0.5), "c0");
    }

    #[test]
    fn explicit_starts_need_the_tag_name_in_the_source() {
        let src = "<p>x<tr><td>".as_bytes();
        let span = |start| Span { start, end: 12 };
        assert_eq!(explicit_start(src, span(0), "p"), Some(0));
        assert_eq!(explicit_start(src, span(4), "tbody"), None);
        assert_eq!(explicit_start(src, span(4), "tr"), Some(4));
        // A name that would end inside a multi-byte character is compared as bytes.
        assert_eq!(explicit_start("<é>".as_bytes(), span(0), "e"), None);
    }
}
