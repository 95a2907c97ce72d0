//! The sanitising pass of `view`: the page's source through `lol_html`, a streaming rewriter
//! whose tokenizer follows the HTML standard and tracks what a browser's tree builder does to
//! it (raw text in `<style>`, `<noscript>` parsed with scripting on, SVG and MathML), with an
//! allow-list of elements and attributes.
//!
//! Every start tag the rewriter sees is either removed (with its content when that content is
//! raw text, script, an embedding or otherwise never shown), unwrapped (the tags go, the content
//! stays), or written anew by us from the allow-listed attributes, their values decoded as the
//! browser decodes them and checked, then escaped again. Comments, CDATA sections and every
//! doctype but a leading one go; text keeps its words but never a `<` (escaped as `&lt;` in
//! markup and as `\3c ` in style sheets, where a `&` that could start a reference is `\26 `), so
//! that no tag can start anywhere but where the rewriter saw one, and a sheet means the same,
//! whatever a browser's tree builder makes of the edited page.

use std::borrow::Cow;
use std::cell::RefCell;
use std::rc::Rc;

use html5ever::data::{C1_REPLACEMENTS, NAMED_ENTITIES};
use lol_html::html_content::{ContentType, Element, TextType};
use lol_html::{doc_comments, doc_text, doctype, element, end, end_tag, HtmlRewriter, Settings};
use rustc_hash::FxHashMap;

use super::css::{clean_css, clean_style_sheet};
use super::options::{ViewError, ViewOptions};
use super::urls::{clean_srcset, clean_url, is_html_space, load_url, nav_url};

/// Written after the source, so that whatever the page leaves unfinished at its end (a tag,
/// an attribute value, a comment, a CDATA section, a doctype) ends inside the rewriter and goes
/// through the handlers: left raw, it would be completed by the legend after it. `"'">` ends a
/// tag from every state (just after `=`, the `"` opens a value that the second `"` closes);
/// `]]>` ends a CDATA section, `-->` a comment. In text it is cut off again (see
/// [`source_len_of`]).
const SENTINEL: &str = "\"'\">]]>-->";

const SVG_NS: &str = "http://www.w3.org/2000/svg";
const MATHML_NS: &str = "http://www.w3.org/1998/Math/MathML";

/// What the view adds at one start tag of the source (keyed by the byte offset of its `<`).
#[derive(Debug, Default)]
pub struct Mark {
    /// Start tags of implied segment roots (an implied `<tbody>` or `<tr>`) to write before
    /// this one, each with its segment index.
    pub implied: Vec<(usize, String)>,
    /// The segment this element is the root of, and its `data-pl-c` value.
    pub seg: Option<(usize, String)>,
}

/// The sanitised page and what the legend reports about it.
pub struct Sanitized {
    /// The page, with our `head` block first (after a leading doctype) and open raw-text
    /// elements closed at the end.
    pub html: String,
    /// Per segment, whether its outline attributes were written.
    pub outlined: Vec<bool>,
    /// Script elements removed.
    pub scripts: usize,
}

/// What the handlers share while the rewriter runs.
#[derive(Default)]
struct State {
    /// Source bytes from the start that are only whitespace and comments, while nothing else
    /// came (`None` after): a doctype that starts there is the page's first token.
    leading: Option<usize>,
    /// The page's doctype, when it is the first token: it goes before our head block.
    doctype: Option<String>,
    outlined: Vec<bool>,
    scripts: usize,
    /// A kept `<title>`, `<textarea>` or `<style>` whose end tag has not come yet.
    raw_open: Option<&'static str>,
    /// The text so far of the kept `<style>` being read.
    css: Option<String>,
    /// Kept `<svg>`, `<math>` and `<select>` elements whose end tag has not come yet.
    svg_open: usize,
    math_open: usize,
    select_open: usize,
}

/// Rewrites `src` (the page's decoded source) into the inert view, with `head` first (after
/// the page's doctype if that is its first token) and the segment attributes of `marks` in
/// their start tags.
///
/// # Returns
/// The page and what the legend needs; [`ViewError::Rewrite`] if the rewriter stops (it does
/// not in non-strict mode, without a memory limit and with handlers that never fail).
///
/// # Complexity
/// O(s + a) time for s source bytes and a attributes; the rewriter keeps a stack of the open
/// elements (no recursion).
pub(crate) fn sanitize(
    src: &str,
    marks: &FxHashMap<usize, Mark>,
    segments: usize,
    opts: &ViewOptions,
    head: String,
) -> Result<Sanitized, ViewError> {
    let state = Rc::new(RefCell::new(State {
        leading: Some(0),
        outlined: vec![false; segments],
        ..State::default()
    }));
    let mut out: Vec<u8> = Vec::with_capacity(src.len() + src.len() / 8 + 8 * 1024);
    let (st_el, st_doctype, st_comment, st_text, st_end) = (
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
        Rc::clone(&state),
    );
    let settings = Settings::new()
        .append_element_content_handler(element!("*", move |el| {
            on_element(el, &st_el, marks, opts);
            Ok(())
        }))
        .append_document_content_handler(doctype!(move |d| {
            // Only a doctype that is the page's first token counts (it sets the rendering
            // mode); it is written first, from its source bytes. Any other is ignored by
            // browsers, and goes.
            let mut st = st_doctype.borrow_mut();
            let at = d.source_location().bytes();
            if st.leading == Some(at.start) && st.doctype.is_none() {
                st.doctype = src.get(at).map(str::to_owned);
            }
            st.leading = None;
            d.remove();
            Ok(())
        }))
        .append_document_content_handler(doc_comments!(move |c| {
            let mut st = st_comment.borrow_mut();
            let at = c.source_location().bytes();
            if st.leading == Some(at.start) {
                st.leading = Some(at.end);
            }
            c.remove();
            Ok(())
        }))
        .append_document_content_handler(doc_text!(move |t| {
            let mut st = st_text.borrow_mut();
            let keep = source_len_of(t, src.len());
            if keep < t.as_str().len() {
                let text = t.as_str()[..keep].to_owned();
                t.set_str(text);
            }
            match t.text_type() {
                TextType::Data | TextType::RCData => {
                    let at = t.source_location().bytes();
                    st.leading = match st.leading {
                        Some(l) if l == at.start && t.as_str().chars().all(is_html_space) => {
                            Some(at.end)
                        }
                        _ => None,
                    };
                    if t.as_str().contains('<') {
                        let escaped = t.as_str().replace('<', "&lt;");
                        t.replace(&escaped, ContentType::Html);
                    }
                }
                TextType::RawText if st.css.is_some() => {
                    let last = t.last_in_text_node();
                    if let Some(css) = st.css.as_mut() {
                        css.push_str(t.as_str());
                    }
                    if last {
                        let css = st.css.take().unwrap_or_default();
                        t.replace(
                            &clean_style_sheet(&css, opts.allow_remote),
                            ContentType::Html,
                        );
                    } else {
                        t.remove();
                    }
                }
                // Script, plain text, CDATA, and raw text of removed elements.
                _ => t.remove(),
            }
            Ok(())
        }))
        .append_document_content_handler(end!(move |e| {
            let mut st = st_end.borrow_mut();
            let mut tail = String::new();
            if let Some(css) = st.css.take() {
                tail.push_str(&clean_style_sheet(&css, opts.allow_remote));
            }
            // Close what would swallow the legend that follows.
            if let Some(name) = st.raw_open.take() {
                tail.push_str("</");
                tail.push_str(name);
                tail.push('>');
            }
            for (n, name) in [
                (st.math_open, "math"),
                (st.svg_open, "svg"),
                (st.select_open, "select"),
            ] {
                for _ in 0..n.min(64) {
                    tail.push_str("</");
                    tail.push_str(name);
                    tail.push('>');
                }
            }
            e.append(&tail, ContentType::Html);
            Ok(())
        }))
        // Non-strict: where the rewriter cannot tell raw text from markup (a text element inside
        // `<select>` or after `<frameset>`), it guesses. Either guess is safe here: removed
        // elements take their content with them, and kept text never holds a `<`.
        .with_strict(false);
    let mut rewriter = HtmlRewriter::new(settings, |c: &[u8]| out.extend_from_slice(c));
    for part in [src, SENTINEL] {
        rewriter
            .write(part.as_bytes())
            .map_err(|e| ViewError::Rewrite(e.to_string()))?;
    }
    rewriter
        .end()
        .map_err(|e| ViewError::Rewrite(e.to_string()))?;
    let st = std::mem::take(&mut *state.borrow_mut());
    // The head block goes first, so that the policy is in the head whatever the page holds
    // (a page of end tags alone put it after `</html>` when it went before the first element).
    let doctype = st.doctype.unwrap_or_default();
    let mut html = String::with_capacity(doctype.len() + head.len() + out.len());
    html.push_str(&doctype);
    html.push_str(&head);
    html.push_str(&String::from_utf8_lossy(&out));
    Ok(Sanitized {
        html,
        outlined: st.outlined,
        scripts: st.scripts,
    })
}

/// How many bytes at the start of text chunk `t` are the page's (the rest is [`SENTINEL`]),
/// for a source of `src_len` bytes.
fn source_len_of(t: &lol_html::html_content::TextChunk<'_>, src_len: usize) -> usize {
    let text = t.as_str();
    let at = t.source_location().bytes();
    if at.end <= src_len || at.len() != text.len() {
        return text.len();
    }
    let keep = src_len.saturating_sub(at.start);
    if text.is_char_boundary(keep) {
        keep
    } else {
        text.len()
    }
}

/// What becomes of an element.
enum Action {
    /// Removed with its content.
    Drop,
    /// Its tags removed, its content kept.
    Unwrap,
    /// Kept, its start tag written anew under this name.
    Keep(String),
}

/// The element handler: drops, unwraps or rewrites the element.
fn on_element(
    el: &mut Element<'_, '_>,
    state: &Rc<RefCell<State>>,
    marks: &FxHashMap<usize, Mark>,
    opts: &ViewOptions,
) {
    // Inside the content of a removed element: nothing of it is written.
    if el.removed() {
        return;
    }
    let mut st = state.borrow_mut();
    st.leading = None;
    let name = el.tag_name();
    let ns = el.namespace_uri();
    let attrs = decoded_attributes(el);
    let action = element_action(&name, ns, &attrs, opts);
    let out_name = match action {
        Action::Drop => {
            st.scripts += (name == "script") as usize;
            el.remove();
            return;
        }
        Action::Unwrap => {
            el.remove_and_keep_content();
            return;
        }
        Action::Keep(out_name) => out_name,
    };
    let mut tag = String::with_capacity(64);
    tag.push('<');
    tag.push_str(&out_name);
    if let Some(mark) = marks.get(&el.source_location().bytes().start) {
        for (k, implied) in &mark.implied {
            el.before(implied, ContentType::Html);
            if let Some(o) = st.outlined.get_mut(*k) {
                *o = true;
            }
        }
        if let Some((k, class)) = &mark.seg {
            tag.push_str(" data-pl-seg=\"");
            tag.push_str(&k.to_string());
            tag.push_str("\" data-pl-c=\"");
            escape_into(&mut tag, class);
            tag.push('"');
            if let Some(o) = st.outlined.get_mut(*k) {
                *o = true;
            }
        }
    }
    for (attr, value) in kept_attributes(&out_name, &attrs, opts) {
        tag.push(' ');
        tag.push_str(attr);
        tag.push_str("=\"");
        escape_into(&mut tag, &value);
        tag.push('"');
    }
    if el.is_self_closing() {
        tag.push_str(" /");
    }
    tag.push('>');
    if out_name != name {
        // Renames the end tag too.
        let _ = el.set_tag_name(&out_name);
    }
    el.start_tag().replace(&tag, ContentType::Html);
    if !el.can_have_content() {
        return;
    }
    // Track what must be closed before the legend if the page leaves it open.
    let html = ns != SVG_NS && ns != MATHML_NS;
    let tracked: Option<&'static str> = match out_name.as_str() {
        "title" if html => Some("title"),
        "textarea" if html => Some("textarea"),
        "style" if html => Some("style"),
        "svg" => Some("svg"),
        "math" => Some("math"),
        "select" if html => Some("select"),
        _ => None,
    };
    let Some(tracked) = tracked else { return };
    match tracked {
        "svg" => st.svg_open += 1,
        "math" => st.math_open += 1,
        "select" => st.select_open += 1,
        raw => {
            st.raw_open = Some(raw);
            if raw == "style" {
                st.css = Some(String::new());
            }
        }
    }
    drop(st);
    let state = Rc::clone(state);
    let allow_remote = opts.allow_remote;
    let _ = el.on_end_tag(end_tag!(move |end| {
        let mut st = state.borrow_mut();
        match tracked {
            "svg" => st.svg_open = st.svg_open.saturating_sub(1),
            "math" => st.math_open = st.math_open.saturating_sub(1),
            "select" => st.select_open = st.select_open.saturating_sub(1),
            _ => {
                st.raw_open = None;
                if let Some(css) = st.css.take() {
                    end.before(&clean_style_sheet(&css, allow_remote), ContentType::Html);
                }
            }
        }
        Ok(())
    }));
}

/// The element's attributes, names lowercased and values decoded as the browser decodes them;
/// of repeated names only the first, as the browser keeps.
fn decoded_attributes(el: &Element<'_, '_>) -> Vec<(String, String)> {
    let mut out: Vec<(String, String)> = Vec::with_capacity(el.attributes().len());
    let mut seen = rustc_hash::FxHashSet::default();
    for a in el.attributes() {
        let name = a.name();
        if seen.insert(name.clone()) {
            let value = decode_attr(&a.value()).into_owned();
            out.push((name, value));
        }
    }
    out
}

/// The value of attribute `name` among `attrs`.
fn attr<'a>(attrs: &'a [(String, String)], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|(n, _)| n == name)
        .map(|(_, v)| v.as_str())
}

/// What becomes of an element named `name` (lowercase) in namespace `ns`.
fn element_action(name: &str, ns: &str, attrs: &[(String, String)], opts: &ViewOptions) -> Action {
    let keep = || Action::Keep(name.to_owned());
    if ns == SVG_NS {
        return if SVG_ELEMENTS.binary_search(&name).is_ok() {
            keep()
        } else {
            Action::Drop
        };
    }
    if ns == MATHML_NS {
        return if MATHML_ELEMENTS.binary_search(&name).is_ok() {
            keep()
        } else {
            Action::Drop
        };
    }
    match name {
        "style" if opts.page_styles => keep(),
        // The charset is ours (the view is UTF-8); refresh, cookies, CSP of the page's go.
        "meta"
            if attr(attrs, "name").is_some_and(|v| v.trim().eq_ignore_ascii_case("viewport")) =>
        {
            keep()
        }
        "link" if stylesheet_href(attrs, opts).is_some() => keep(),
        // Forms go, their fields stay; a custom element keeps the box of its content.
        "form" => Action::Keep("pl-form".to_owned()),
        _ if HTML_ELEMENTS.binary_search(&name).is_ok() => keep(),
        // Integration points of SVG and MathML: lol_html reports them in the namespace of their
        // content (HTML).
        "annotation-xml" | "desc" | "foreignobject" | "mi" | "mn" | "mo" | "ms" | "mtext" => keep(),
        _ if DROPPED_HTML_ELEMENTS.binary_search(&name).is_ok() => Action::Drop,
        "meta" | "link" | "style" => Action::Drop,
        // Custom elements do nothing without script; anything else unknown is unwrapped.
        _ if is_custom_element(name) => keep(),
        _ => Action::Unwrap,
    }
}

/// Whether `name` is a valid custom element name (ASCII only): a lowercase letter first, and a
/// hyphen in it.
fn is_custom_element(name: &str) -> bool {
    name.as_bytes().first().is_some_and(u8::is_ascii_lowercase)
        && name.contains('-')
        && name.bytes().all(|b| {
            b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'.' | b'_')
        })
}

/// The `href` of a `<link>` that may stay: a style sheet (`rel` exactly `stylesheet`) at an
/// `http(s)` URL, when page styles and remote loads are both on.
fn stylesheet_href(attrs: &[(String, String)], opts: &ViewOptions) -> Option<String> {
    if !(opts.page_styles && opts.allow_remote) {
        return None;
    }
    let rel = attr(attrs, "rel")?;
    let mut rels = rel.split(is_html_space).filter(|r| !r.is_empty());
    if !(rels.next()?.eq_ignore_ascii_case("stylesheet") && rels.next().is_none()) {
        return None;
    }
    load_url(attr(attrs, "href")?, true)
}

/// How an allowed attribute's value is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Policy {
    /// Kept as it is.
    Keep,
    /// CSS (a `style` attribute, an SVG presentation attribute): loads neutralised.
    Css,
    /// A URL loaded by the page: kept only with `allow_remote` and `http(s)`.
    Load,
    /// A set of image candidates: each URL as [`Policy::Load`].
    Srcset,
    /// A reference inside the document: kept only when it starts with `#`.
    Frag,
    /// `href`/`xlink:href`: a link on `<a>` and `<area>`, a load on SVG `<image>`, a fragment
    /// reference elsewhere.
    Href,
}

/// The attributes kept on `element` (the name written) with their checked values, in source
/// order.
fn kept_attributes<'a>(
    element: &str,
    attrs: &'a [(String, String)],
    opts: &ViewOptions,
) -> Vec<(&'a str, String)> {
    let mut out = Vec::with_capacity(attrs.len());
    // The two elements allowed for one purpose only keep just what serves it.
    match element {
        "meta" => {
            out.push(("name", "viewport".to_owned()));
            if let Some((n, v)) = attrs.iter().find(|(n, _)| n == "content") {
                out.push((n.as_str(), v.clone()));
            }
            return out;
        }
        "link" => {
            if let Some(href) = stylesheet_href(attrs, opts) {
                out.push(("rel", "stylesheet".to_owned()));
                out.push(("href", href));
                if let Some((n, v)) = attrs.iter().find(|(n, _)| n == "media") {
                    out.push((n.as_str(), v.clone()));
                }
            }
            return out;
        }
        _ => {}
    }
    for (name, value) in attrs {
        let Some(policy) = attr_policy(name, opts) else {
            continue;
        };
        let policy = match policy {
            Policy::Href => match element {
                "a" | "area" => {
                    if let Some(u) = nav_url(value) {
                        out.push((name.as_str(), u));
                    }
                    continue;
                }
                "image" => Policy::Load,
                _ => Policy::Frag,
            },
            p => p,
        };
        let kept = match policy {
            Policy::Keep => Some(value.clone()),
            Policy::Css => clean_css(value, opts.allow_remote),
            Policy::Load => load_url(value, opts.allow_remote),
            Policy::Srcset => clean_srcset(value, opts.allow_remote),
            Policy::Frag => {
                let u = clean_url(value);
                u.starts_with('#').then_some(u)
            }
            Policy::Href => None,
        };
        if let Some(v) = kept {
            out.push((name.as_str(), v));
        }
    }
    out
}

/// The policy of attribute `name` (lowercase), `None` if it is not allowed.
fn attr_policy(name: &str, opts: &ViewOptions) -> Option<Policy> {
    if name == "style" {
        return opts.page_styles.then_some(Policy::Css);
    }
    if let Ok(i) = ATTRIBUTES.binary_search_by(|(n, _)| (*n).cmp(name)) {
        return Some(ATTRIBUTES[i].1);
    }
    // `data-*` and `aria-*` with plain names; the page's own `data-pl-*` would pass for ours.
    let plain = name
        .bytes()
        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || matches!(b, b'-' | b'_' | b'.'));
    let prefixed =
        (name.starts_with("data-") && !name.starts_with("data-pl-")) || name.starts_with("aria-");
    (plain && prefixed && name.len() > 5).then_some(Policy::Keep)
}

/// An attribute value with its character references decoded as the HTML tokenizer decodes
/// them in attribute values: numeric ones of any length (`&#0000106;`), the named ones of the
/// standard's table, with or without `;` (but a name without `;` followed by `=` or a letter
/// or digit stays text).
pub(crate) fn decode_attr(raw: &str) -> Cow<'_, str> {
    if !raw.contains('&') {
        return Cow::Borrowed(raw);
    }
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(amp) = rest.find('&') {
        out.push_str(&rest[..amp]);
        let after = &rest[amp + 1..];
        match char_ref(after) {
            Some((c1, c2, used)) => {
                out.push(c1);
                out.extend(c2);
                rest = &after[used..];
            }
            None => {
                out.push('&');
                rest = after;
            }
        }
    }
    out.push_str(rest);
    Cow::Owned(out)
}

/// The character reference at the start of `s` (just after an `&`) in an attribute value:
/// its one or two characters and the bytes it takes; `None` when it is not one.
fn char_ref(s: &str) -> Option<(char, Option<char>, usize)> {
    let b = s.as_bytes();
    if b.first() == Some(&b'#') {
        let hex = matches!(b.get(1), Some(b'x' | b'X'));
        let (radix, start) = if hex { (16, 2) } else { (10, 1) };
        let mut k = start;
        let mut v: u32 = 0;
        while let Some(d) = b.get(k).and_then(|&c| (c as char).to_digit(radix)) {
            v = v.saturating_mul(radix).saturating_add(d).min(0x11_0000);
            k += 1;
        }
        if k == start {
            return None;
        }
        if b.get(k) == Some(&b';') {
            k += 1;
        }
        let c = match v {
            0 => '\u{fffd}',
            0x80..=0x9f => C1_REPLACEMENTS[(v - 0x80) as usize]
                .or_else(|| char::from_u32(v))
                .unwrap_or('\u{fffd}'),
            _ => char::from_u32(v).unwrap_or('\u{fffd}'),
        };
        return Some((c, None, k));
    }
    // The longest name of the table that `s` starts with (every prefix of a name is a key).
    let mut best: Option<(usize, (u32, u32))> = None;
    for (i, c) in s.char_indices() {
        if !(c.is_ascii_alphanumeric() || c == ';') {
            break;
        }
        match NAMED_ENTITIES.get(&s[..i + 1]) {
            Some(&m) => {
                if m.0 != 0 {
                    best = Some((i + 1, m));
                }
            }
            None => break,
        }
        if c == ';' {
            break;
        }
    }
    let (len, (c1, c2)) = best?;
    if !s[..len].ends_with(';') {
        if let Some(next) = s[len..].chars().next() {
            if next == '=' || next.is_ascii_alphanumeric() {
                return None;
            }
        }
    }
    let c1 = char::from_u32(c1).unwrap_or('\u{fffd}');
    let c2 = (c2 != 0).then(|| char::from_u32(c2).unwrap_or('\u{fffd}'));
    Some((c1, c2, len))
}

/// HTML elements kept (lowercase, sorted). Besides: `form` (renamed), `style` (with page
/// styles), `meta name=viewport`, `link rel=stylesheet` (with remote loads), custom elements.
const HTML_ELEMENTS: &[&str] = &[
    "a",
    "abbr",
    "acronym",
    "address",
    "area",
    "article",
    "aside",
    "audio",
    "b",
    "bdi",
    "bdo",
    "big",
    "blockquote",
    "body",
    "br",
    "button",
    "canvas",
    "caption",
    "center",
    "cite",
    "code",
    "col",
    "colgroup",
    "data",
    "datalist",
    "dd",
    "del",
    "details",
    "dfn",
    "dialog",
    "dir",
    "div",
    "dl",
    "dt",
    "em",
    "fieldset",
    "figcaption",
    "figure",
    "font",
    "footer",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "head",
    "header",
    "hgroup",
    "hr",
    "html",
    "i",
    "img",
    "input",
    "ins",
    "kbd",
    "label",
    "legend",
    "li",
    "main",
    "map",
    "mark",
    "marquee",
    "menu",
    "meter",
    "nav",
    "nobr",
    "ol",
    "optgroup",
    "option",
    "output",
    "p",
    "picture",
    "pre",
    "progress",
    "q",
    "rb",
    "rp",
    "rt",
    "rtc",
    "ruby",
    "s",
    "samp",
    "search",
    "section",
    "select",
    "small",
    "source",
    "span",
    "strike",
    "strong",
    "sub",
    "summary",
    "sup",
    "table",
    "tbody",
    "td",
    "textarea",
    "tfoot",
    "th",
    "thead",
    "time",
    "title",
    "tr",
    "track",
    "tt",
    "u",
    "ul",
    "var",
    "video",
    "wbr",
];

/// HTML elements removed with their content (sorted): scripts, raw text the browser never
/// shows as markup, templates, frames, embeddings, and elements that set the base or load.
/// Any other element not kept is unwrapped.
const DROPPED_HTML_ELEMENTS: &[&str] = &[
    "applet",
    "base",
    "basefont",
    "bgsound",
    "embed",
    "fencedframe",
    "frame",
    "frameset",
    "iframe",
    "keygen",
    "noembed",
    "noframes",
    "noscript",
    "object",
    "param",
    "plaintext",
    "portal",
    "script",
    "template",
    "xmp",
];

/// SVG elements kept (lowercase, sorted); any other (script, style, animations, fonts,
/// cursors, handlers) is removed with its content.
const SVG_ELEMENTS: &[&str] = &[
    "a",
    "circle",
    "clippath",
    "defs",
    "desc",
    "ellipse",
    "feblend",
    "fecolormatrix",
    "fecomponenttransfer",
    "fecomposite",
    "feconvolvematrix",
    "fediffuselighting",
    "fedisplacementmap",
    "fedistantlight",
    "fedropshadow",
    "feflood",
    "fefunca",
    "fefuncb",
    "fefuncg",
    "fefuncr",
    "fegaussianblur",
    "feimage",
    "femerge",
    "femergenode",
    "femorphology",
    "feoffset",
    "fepointlight",
    "fespecularlighting",
    "fespotlight",
    "fetile",
    "feturbulence",
    "filter",
    "foreignobject",
    "g",
    "image",
    "line",
    "lineargradient",
    "marker",
    "mask",
    "metadata",
    "path",
    "pattern",
    "polygon",
    "polyline",
    "radialgradient",
    "rect",
    "stop",
    "svg",
    "switch",
    "symbol",
    "text",
    "textpath",
    "title",
    "tspan",
    "use",
    "view",
];

/// MathML elements kept (sorted); any other is removed with its content.
const MATHML_ELEMENTS: &[&str] = &[
    "annotation",
    "annotation-xml",
    "math",
    "menclose",
    "merror",
    "mfenced",
    "mfrac",
    "mi",
    "mmultiscripts",
    "mn",
    "mo",
    "mover",
    "mpadded",
    "mphantom",
    "mprescripts",
    "mroot",
    "mrow",
    "ms",
    "mspace",
    "msqrt",
    "mstyle",
    "msub",
    "msubsup",
    "msup",
    "mtable",
    "mtd",
    "mtext",
    "mtr",
    "munder",
    "munderover",
    "none",
    "semantics",
];

/// Attributes allowed on any kept element, with their policy (lowercase, sorted). Besides:
/// `style` (with page styles), `data-*` and `aria-*`. No `on*`, no `srcdoc`, `action`,
/// `formaction`, `ping`, `data`, `codebase`, `manifest`, `srcset`-like others, `target` of
/// forms, `http-equiv`, `charset`.
const ATTRIBUTES: &[(&str, Policy)] = &[
    ("abbr", Policy::Keep),
    ("accent", Policy::Keep),
    ("accentunder", Policy::Keep),
    ("align", Policy::Keep),
    ("alignment-baseline", Policy::Keep),
    ("alink", Policy::Keep),
    ("alt", Policy::Keep),
    ("amplitude", Policy::Keep),
    ("axis", Policy::Keep),
    ("azimuth", Policy::Keep),
    ("background", Policy::Load),
    ("basefrequency", Policy::Keep),
    ("baseline-shift", Policy::Keep),
    ("bgcolor", Policy::Keep),
    ("bias", Policy::Keep),
    ("border", Policy::Keep),
    ("cellpadding", Policy::Keep),
    ("cellspacing", Policy::Keep),
    ("char", Policy::Keep),
    ("charoff", Policy::Keep),
    ("checked", Policy::Keep),
    ("class", Policy::Keep),
    ("clear", Policy::Keep),
    ("clip-path", Policy::Css),
    ("clip-rule", Policy::Keep),
    ("clippathunits", Policy::Keep),
    ("close", Policy::Keep),
    ("color", Policy::Keep),
    ("color-interpolation", Policy::Keep),
    ("color-interpolation-filters", Policy::Keep),
    ("cols", Policy::Keep),
    ("colspan", Policy::Keep),
    ("columnalign", Policy::Keep),
    ("columnlines", Policy::Keep),
    ("columnspacing", Policy::Keep),
    ("columnspan", Policy::Keep),
    ("compact", Policy::Keep),
    ("controls", Policy::Keep),
    ("coords", Policy::Keep),
    ("cursor", Policy::Css),
    ("cx", Policy::Keep),
    ("cy", Policy::Keep),
    ("d", Policy::Keep),
    ("datetime", Policy::Keep),
    ("default", Policy::Keep),
    ("depth", Policy::Keep),
    ("diffuseconstant", Policy::Keep),
    ("dir", Policy::Keep),
    ("disabled", Policy::Keep),
    ("display", Policy::Keep),
    ("displaystyle", Policy::Keep),
    ("divisor", Policy::Keep),
    ("dominant-baseline", Policy::Keep),
    ("dx", Policy::Keep),
    ("dy", Policy::Keep),
    ("edgemode", Policy::Keep),
    ("elevation", Policy::Keep),
    ("encoding", Policy::Keep),
    ("exponent", Policy::Keep),
    ("face", Policy::Keep),
    ("fence", Policy::Keep),
    ("fill", Policy::Css),
    ("fill-opacity", Policy::Keep),
    ("fill-rule", Policy::Keep),
    ("filter", Policy::Css),
    ("filterunits", Policy::Keep),
    ("flood-color", Policy::Keep),
    ("flood-opacity", Policy::Keep),
    ("font-family", Policy::Keep),
    ("font-size", Policy::Keep),
    ("font-size-adjust", Policy::Keep),
    ("font-stretch", Policy::Keep),
    ("font-style", Policy::Keep),
    ("font-variant", Policy::Keep),
    ("font-weight", Policy::Keep),
    ("for", Policy::Keep),
    ("fr", Policy::Keep),
    ("frame", Policy::Keep),
    ("fx", Policy::Keep),
    ("fy", Policy::Keep),
    ("gradienttransform", Policy::Keep),
    ("gradientunits", Policy::Keep),
    ("headers", Policy::Keep),
    ("height", Policy::Keep),
    ("hidden", Policy::Keep),
    ("high", Policy::Keep),
    ("href", Policy::Href),
    ("hreflang", Policy::Keep),
    ("hspace", Policy::Keep),
    ("id", Policy::Keep),
    ("image-rendering", Policy::Keep),
    ("in", Policy::Keep),
    ("in2", Policy::Keep),
    ("intercept", Policy::Keep),
    ("ismap", Policy::Keep),
    ("k1", Policy::Keep),
    ("k2", Policy::Keep),
    ("k3", Policy::Keep),
    ("k4", Policy::Keep),
    ("kernelmatrix", Policy::Keep),
    ("kernelunitlength", Policy::Keep),
    ("kind", Policy::Keep),
    ("label", Policy::Keep),
    ("lang", Policy::Keep),
    ("largeop", Policy::Keep),
    ("lengthadjust", Policy::Keep),
    ("letter-spacing", Policy::Keep),
    ("lighting-color", Policy::Keep),
    ("limitingconeangle", Policy::Keep),
    ("linethickness", Policy::Keep),
    ("link", Policy::Keep),
    ("loop", Policy::Keep),
    ("low", Policy::Keep),
    ("lspace", Policy::Keep),
    ("marker", Policy::Css),
    ("marker-end", Policy::Css),
    ("marker-mid", Policy::Css),
    ("marker-start", Policy::Css),
    ("markerheight", Policy::Keep),
    ("markerunits", Policy::Keep),
    ("markerwidth", Policy::Keep),
    ("mask", Policy::Css),
    ("maskcontentunits", Policy::Keep),
    ("maskunits", Policy::Keep),
    ("mathbackground", Policy::Keep),
    ("mathcolor", Policy::Keep),
    ("mathsize", Policy::Keep),
    ("mathvariant", Policy::Keep),
    ("max", Policy::Keep),
    ("maxlength", Policy::Keep),
    ("maxsize", Policy::Keep),
    ("media", Policy::Keep),
    ("method", Policy::Keep),
    ("min", Policy::Keep),
    ("minlength", Policy::Keep),
    ("minsize", Policy::Keep),
    ("mode", Policy::Keep),
    ("movablelimits", Policy::Keep),
    ("multiple", Policy::Keep),
    ("muted", Policy::Keep),
    ("name", Policy::Keep),
    ("noshade", Policy::Keep),
    ("notation", Policy::Keep),
    ("nowrap", Policy::Keep),
    ("numoctaves", Policy::Keep),
    ("offset", Policy::Keep),
    ("opacity", Policy::Keep),
    ("open", Policy::Keep),
    ("operator", Policy::Keep),
    ("optimum", Policy::Keep),
    ("order", Policy::Keep),
    ("orient", Policy::Keep),
    ("overflow", Policy::Keep),
    ("paint-order", Policy::Keep),
    ("pathlength", Policy::Keep),
    ("patterncontentunits", Policy::Keep),
    ("patterntransform", Policy::Keep),
    ("patternunits", Policy::Keep),
    ("placeholder", Policy::Keep),
    ("playsinline", Policy::Keep),
    ("points", Policy::Keep),
    ("pointsatx", Policy::Keep),
    ("pointsaty", Policy::Keep),
    ("pointsatz", Policy::Keep),
    ("poster", Policy::Load),
    ("preservealpha", Policy::Keep),
    ("preserveaspectratio", Policy::Keep),
    ("primitiveunits", Policy::Keep),
    ("r", Policy::Keep),
    ("radius", Policy::Keep),
    ("readonly", Policy::Keep),
    ("refx", Policy::Keep),
    ("refy", Policy::Keep),
    ("rel", Policy::Keep),
    ("required", Policy::Keep),
    ("result", Policy::Keep),
    ("reversed", Policy::Keep),
    ("role", Policy::Keep),
    ("rotate", Policy::Keep),
    ("rowalign", Policy::Keep),
    ("rowlines", Policy::Keep),
    ("rows", Policy::Keep),
    ("rowspacing", Policy::Keep),
    ("rowspan", Policy::Keep),
    ("rspace", Policy::Keep),
    ("rules", Policy::Keep),
    ("rx", Policy::Keep),
    ("ry", Policy::Keep),
    ("scale", Policy::Keep),
    ("scope", Policy::Keep),
    ("scriptlevel", Policy::Keep),
    ("seed", Policy::Keep),
    ("selected", Policy::Keep),
    ("separator", Policy::Keep),
    ("separators", Policy::Keep),
    ("shape", Policy::Keep),
    ("shape-rendering", Policy::Keep),
    ("side", Policy::Keep),
    ("size", Policy::Keep),
    ("sizes", Policy::Keep),
    ("slope", Policy::Keep),
    ("spacing", Policy::Keep),
    ("span", Policy::Keep),
    ("specularconstant", Policy::Keep),
    ("specularexponent", Policy::Keep),
    ("spreadmethod", Policy::Keep),
    ("src", Policy::Load),
    ("srclang", Policy::Keep),
    ("srcset", Policy::Srcset),
    ("start", Policy::Keep),
    ("startoffset", Policy::Keep),
    ("stddeviation", Policy::Keep),
    ("step", Policy::Keep),
    ("stitchtiles", Policy::Keep),
    ("stop-color", Policy::Keep),
    ("stop-opacity", Policy::Keep),
    ("stretchy", Policy::Keep),
    ("stroke", Policy::Css),
    ("stroke-dasharray", Policy::Keep),
    ("stroke-dashoffset", Policy::Keep),
    ("stroke-linecap", Policy::Keep),
    ("stroke-linejoin", Policy::Keep),
    ("stroke-miterlimit", Policy::Keep),
    ("stroke-opacity", Policy::Keep),
    ("stroke-width", Policy::Keep),
    ("summary", Policy::Keep),
    ("surfacescale", Policy::Keep),
    ("symmetric", Policy::Keep),
    ("systemlanguage", Policy::Keep),
    ("tablevalues", Policy::Keep),
    ("target", Policy::Keep),
    ("targetx", Policy::Keep),
    ("targety", Policy::Keep),
    ("text", Policy::Keep),
    ("text-anchor", Policy::Keep),
    ("text-decoration", Policy::Keep),
    ("text-rendering", Policy::Keep),
    ("textlength", Policy::Keep),
    ("title", Policy::Keep),
    ("transform", Policy::Keep),
    ("transform-origin", Policy::Keep),
    ("translate", Policy::Keep),
    ("type", Policy::Keep),
    ("usemap", Policy::Frag),
    ("valign", Policy::Keep),
    ("value", Policy::Keep),
    ("values", Policy::Keep),
    ("vector-effect", Policy::Keep),
    ("version", Policy::Keep),
    ("viewbox", Policy::Keep),
    ("visibility", Policy::Keep),
    ("vlink", Policy::Keep),
    ("voffset", Policy::Keep),
    ("vspace", Policy::Keep),
    ("width", Policy::Keep),
    ("word-spacing", Policy::Keep),
    ("wrap", Policy::Keep),
    ("writing-mode", Policy::Keep),
    ("x", Policy::Keep),
    ("x1", Policy::Keep),
    ("x2", Policy::Keep),
    ("xchannelselector", Policy::Keep),
    ("xlink:href", Policy::Href),
    ("xml:lang", Policy::Keep),
    ("xml:space", Policy::Keep),
    ("xmlns", Policy::Keep),
    ("xmlns:xlink", Policy::Keep),
    ("y", Policy::Keep),
    ("y1", Policy::Keep),
    ("y2", Policy::Keep),
    ("ychannelselector", Policy::Keep),
    ("z", Policy::Keep),
];

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
    use crate::output::view::urls::scriptish_url;

    /// `src` through the sanitiser with default options and the head block `<H>`.
    fn clean(src: &str) -> String {
        let opts = ViewOptions::default();
        sanitize(src, &FxHashMap::default(), 0, &opts, "<H>".to_owned())
            .unwrap()
            .html
    }

    #[test]
    fn the_head_block_goes_first_after_a_leading_doctype() {
        assert_eq!(clean("<script>x</script><p>a"), "<H><p>a");
        assert_eq!(
            clean("<!DOCTYPE html><!-- c --><html>"),
            "<!DOCTYPE html><H><html>"
        );
        assert_eq!(clean("  a < b <p>c"), "<H>  a &lt; b <p>c");
        assert_eq!(clean("<!DOCTYPE html>"), "<!DOCTYPE html><H>");
        assert_eq!(clean(""), "<H>");
        // Later doctypes go; so does the sentinel's text.
        assert_eq!(clean("<p>a</p><!DOCTYPE x>b"), "<H><p>a</p>b");
        assert_eq!(
            clean(" <!-- c --> <!DOCTYPE html>x"),
            "<!DOCTYPE html><H>  x"
        );
        // A doctype after an end tag is ignored by browsers (the fuzzer's page: the policy
        // must still be in the head).
        assert_eq!(clean("</p><!DOCTYPE html><p>"), "<H></p><p>");
        assert_eq!(clean("<!DOC x></body></html>"), "<H></body></html>");
    }

    #[test]
    fn unfinished_constructs_at_the_end_are_sanitised() {
        assert_eq!(
            clean("<p>a</p><img src=x onerror=alert(1)//"),
            "<H><p>a</p><img>"
        );
        assert_eq!(clean("<p>a</p><a href=\"javascript:x"), "<H><p>a</p><a>");
        assert_eq!(clean("<p>a</p><!-- open"), "<H><p>a</p>");
        // From every state inside a tag (the fuzzer's find: before an attribute value).
        for tail in [
            "<p2 onerror=",
            "<p2 onerror= ",
            "<p2 onerror='x",
            "<p2 onerror=\"x",
            "<p2 onerror=x",
            "<p2 onerror=\"x\"",
            "<p2 onerror",
            "<p2 onerror ",
            "<p2 /",
            "<p2",
            "<!DOCTYPE html PUBLIC \"x",
            "<svg><![CDATA[x",
            "<!",
            "<!-",
            "</",
            "<",
            "&#x",
        ] {
            let out = clean(&format!("<p>a</p>{tail}"));
            let rest = &out["<H><p>a</p>".len()..];
            assert!(
                !rest.contains("onerror") && !rest.contains("<img"),
                "{tail:?} -> {out:?}"
            );
            assert!(
                !rest.ends_with(|c| c != '>') || !rest.contains('<'),
                "{tail:?} -> {out:?}"
            );
        }
        assert_eq!(clean("<title>t"), "<H><title>t</title>");
        assert_eq!(clean("<style>a{}"), "<H><style>a{}</style>");
    }

    #[test]
    fn allow_lists_are_sorted() {
        for list in [
            HTML_ELEMENTS,
            DROPPED_HTML_ELEMENTS,
            SVG_ELEMENTS,
            MATHML_ELEMENTS,
        ] {
            assert!(list.windows(2).all(|w| w[0] < w[1]), "{list:?}");
        }
        assert!(ATTRIBUTES.windows(2).all(|w| w[0].0 < w[1].0));
        // No event handler slipped into the list.
        assert!(ATTRIBUTES.iter().all(|(n, _)| !n.starts_with("on")));
    }

    #[test]
    fn attribute_values_decode_like_the_tokenizer() {
        assert_eq!(decode_attr("a&amp;b"), "a&b");
        assert_eq!(decode_attr("&#0000000000106;avascript"), "javascript");
        assert_eq!(decode_attr("java&#x09;script&colon;"), "java\tscript:");
        assert_eq!(decode_attr("&#x6A&#X61"), "ja");
        assert_eq!(
            decode_attr("&#99999999999;&#0;&#xD800;"),
            "\u{fffd}\u{fffd}\u{fffd}"
        );
        assert_eq!(decode_attr("&#x80;"), "\u{20ac}");
        // Without `;` before `=` or an alphanumeric, a name stays text in attributes.
        assert_eq!(
            decode_attr("?a=1&copy=2&not;x&notit"),
            "?a=1&copy=2\u{ac}x&notit"
        );
        assert_eq!(decode_attr("&notin; &#; &#x; &"), "\u{2209} &#; &#x; &");
        assert_eq!(decode_attr("&NewLine;&Tab;"), "\n\t");
        assert_eq!(decode_attr("é&é"), "é&é");
    }

    #[test]
    fn urls_are_read_as_browsers_read_them() {
        assert_eq!(nav_url(" /ok "), Some("/ok".into()));
        assert_eq!(nav_url("https://x/"), Some("https://x/".into()));
        for bad in [
            "javascript:alert(1)",
            " JAVASCRIPT:x",
            "java\tscript:x",
            "\u{1}javascript:x",
            "vbscript:x",
            "data:text/html,x",
            "file:///etc/passwd",
        ] {
            assert_eq!(nav_url(bad), None, "{bad:?}");
        }
        assert_eq!(load_url("http://x/a.png", false), None);
        assert_eq!(
            load_url("http://x/a.png", true),
            Some("http://x/a.png".into())
        );
        assert_eq!(load_url("//x/a.png", true), Some("https://x/a.png".into()));
        assert_eq!(load_url("a.png", true), None);
        assert_eq!(load_url("data:image/png,x", true), None);
        assert_eq!(
            clean_srcset("http://x/a.png 1x, b.png 2x,http://x/c,d.png 3x", true),
            Some("http://x/a.png 1x, http://x/c,d.png 3x".into())
        );
        assert_eq!(clean_srcset("http://x/a.png 1x", false), None);
        // A parenthesis opens a descriptor to the end: no candidate, not a hidden second URL.
        assert_eq!(clean_srcset("http://x/a.png (1x, //evil/b.png", true), None);
        assert_eq!(
            clean_srcset("http://x/a.png 1x 2q, //x/b.png 640w", true),
            Some("https://x/b.png 640w".into())
        );
        assert!(scriptish_url("j a v a s c r i p t :"));
    }
}
