//! The bodies of the cargo-fuzz targets in `fuzz/` that need the pipeline (the `smooth`
//! target's is `smoothing::fuzzing::smooth`), here so that `tests/fuzz_regressions.rs`
//! replays the kept corpus and crash inputs through exactly the code the fuzzer ran. Each
//! returns normally on any input; a panic (a failed invariant below, an index out of bounds,
//! an overflow in a debug build) is the bug the fuzzer looks for.

use crate::model::Model;
use crate::pipeline::{run_bytes, Options};
use crate::Limits;

/// A xorshift64 stream: the same pseudo-random numbers on every run and platform, for tests
/// that need many arbitrary bytes (random pages, junk between WARC records). O(1) a number.
#[derive(Debug, Clone)]
pub struct Xorshift(pub u64);

impl Xorshift {
    /// The next number of the stream (the state must not be 0, which is a fixed point).
    pub fn next_u64(&mut self) -> u64 {
        let x = &mut self.0;
        *x ^= *x << 13;
        *x ^= *x >> 7;
        *x ^= *x << 17;
        *x
    }

    /// `n` bytes of the stream (bits 24..32 of each number).
    pub fn bytes(&mut self, n: usize) -> Vec<u8> {
        (0..n).map(|_| (self.next_u64() >> 24) as u8).collect()
    }
}

/// The limits the pipeline target runs under: small, so that one input stays fast and a
/// huge expansion (a tiny input that decodes or parses into a large tree) is a typed error.
/// No time limit: a fuzz target must be deterministic (libFuzzer's `-timeout` catches hangs).
pub const PIPELINE_LIMITS: Limits = Limits {
    max_input_bytes: 1 << 20,
    max_nodes: 100_000,
    timeout_ms: 0,
};

/// Bytes → decode → DOM → features → classifier → smoothing → segments and main text, under
/// [`PIPELINE_LIMITS`].
///
/// Returns the page's main text, or the typed error for the page; panics if an invariant of
/// the analysis does not hold (one score, label and flag per node; segments are nodes).
pub fn pipeline(data: &[u8]) -> crate::Result<String> {
    let run = |bytes: &[u8]| {
        run_bytes(
            bytes,
            None,
            None,
            &PIPELINE_LIMITS,
            Model::embedded(),
            &Options::default(),
        )
    };
    let a = match run(data) {
        // Binary input stops at the sniff; the rest of the pipeline still gets the bytes behind
        // an HTML signature, which passes it, so mutations keep reaching the parser.
        Err(crate::Error::NotHtml { .. }) => run(&[&b"<p>"[..], data].concat())?,
        other => other?,
    };
    let dom = &a.page.dom;
    let n = dom.len();
    assert!(n <= PIPELINE_LIMITS.max_nodes, "{n} nodes over the limit");
    let seg = &a.segmentation;
    assert_eq!(seg.y.len(), n, "one smoothed score per node");
    assert_eq!(seg.template.len(), n, "one template flag per node");
    assert_eq!(a.content_mask().len(), n);
    // What `pagelevel segment` prints for every segment.
    for s in &seg.segments {
        assert!(s.node < n, "segment root {} of {n} nodes", s.node);
        let _ = (dom.path(s.node), dom.tag_name(s.node));
        let _ = a.features.layout.rects[s.node];
    }
    // The spanned parse (what `segment` and `view` run) builds the same tree, and its spans
    // lie inside the source.
    let spanned = crate::dom::parse(&a.page.html, &PIPELINE_LIMITS)?;
    assert_eq!(spanned.len(), n, "the spanned parse builds another tree");
    for i in 0..n {
        let (x, y) = (dom.node(i), spanned.node(i));
        assert_eq!(
            (x.kind, x.tag, x.parent, x.end),
            (y.kind, y.tag, y.parent, y.end)
        );
        if y.span.is_known() {
            assert!(
                y.span.end as usize <= a.page.html.len(),
                "span past the source"
            );
        }
    }
    Ok(a.main_text())
}

/// Text → the fast parser and html5ever, under [`PIPELINE_LIMITS`], without and with spans.
///
/// Returns the number of nodes; panics when the two parsers build different arenas
/// ([`crate::dom::compare::first_difference`]), when one fails and the other does not, or
/// when a span of the fast parser lies outside the source.
pub fn parser(data: &[u8]) -> usize {
    use crate::config::Deadline;
    use crate::dom::{compare::first_difference, Parser};
    let text = String::from_utf8_lossy(data);
    let none = Deadline::none();
    let reference = Parser::Html5ever.parse_plain_within(&text, &PIPELINE_LIMITS, &none);
    let fast = Parser::Fast.parse_plain_within(&text, &PIPELINE_LIMITS, &none);
    let (reference, fast) = match (reference, fast) {
        (Ok(r), Ok(f)) => (r, f),
        (Err(_), Err(_)) => return 0,
        (r, f) => panic!("html5ever: {:?}, fast: {:?}", r.err(), f.err()),
    };
    if let Some(d) = first_difference(&reference, &fast) {
        panic!("the parsers build different trees: {d}");
    }
    let spanned = Parser::Fast
        .parse_within(&text, &PIPELINE_LIMITS, &none)
        .expect("the spanless parse succeeded");
    assert_eq!(first_difference(&spanned, &fast), None);
    for i in 0..spanned.len() {
        let s = spanned.node(i).span;
        if s.is_known() {
            assert!(s.end as usize <= text.len(), "span past the source");
        }
    }
    fast.len()
}

/// The limits the WARC target reads under: records over 1 MiB are reported, not buffered.
pub const WARC_LIMITS: Limits = Limits {
    max_input_bytes: 1 << 20,
    max_nodes: 100_000,
    timeout_ms: 0,
};

/// WARC bytes (plain or gzip) → records: reads to the end, whatever the bytes are, once as a
/// seekable file and once as a stream (a pipe: forward only).
///
/// Returns the number of HTML pages and bad records (or junk spans) of the seekable read;
/// panics if reading does not end (more items than input bytes plus one), if an item's offset
/// goes backwards, if a plain file's bad record or junk span overlaps the next item or runs
/// past the end, or if a page's body is over the limit.
pub fn warc(data: &[u8]) -> std::io::Result<(usize, usize)> {
    let seekable = crate::input::warc::WarcReader::new(std::io::Cursor::new(data), &WARC_LIMITS)?;
    let counts = check_items(seekable, data);
    let stream = crate::input::warc::WarcReader::from_stream(data, &WARC_LIMITS)?;
    check_items(stream, data);
    Ok(counts)
}

fn check_items<R: std::io::Read>(
    reader: crate::input::warc::WarcReader<R>,
    data: &[u8],
) -> (usize, usize) {
    use crate::input::warc::Item;
    let gzip = data.starts_with(&[0x1f, 0x8b]);
    let size = data.len() as u64;
    let (mut pages, mut bad, mut last) = (0usize, 0usize, 0u64);
    // Plain files: where the previous bad record or junk span ends.
    let mut span_end = 0u64;
    for item in reader {
        let (offset, len) = match &item {
            Item::Page(p) => {
                pages += 1;
                assert!(p.body.len() as u64 <= WARC_LIMITS.max_input_bytes);
                (p.offset, None)
            }
            Item::Bad(b) => {
                bad += 1;
                (b.offset, b.len)
            }
            Item::Junk(j) => {
                bad += 1;
                assert!(j.len > 0, "empty junk span at {}", j.offset);
                (j.offset, Some(j.len))
            }
        };
        assert!(offset >= last, "record offset {offset} after {last}");
        assert!(offset <= size, "offset {offset} past the end ({size})");
        if !gzip {
            assert!(
                offset >= span_end,
                "item at {offset} inside a span ending at {span_end}"
            );
            if let Some(len) = len {
                span_end = offset + len;
                assert!(span_end <= size, "span to {span_end} past the end ({size})");
            }
        }
        last = offset;
        assert!(pages + bad <= data.len() + 1, "reading does not end");
    }
    (pages, bad)
}

/// Bytes → DOM (under [`PIPELINE_LIMITS`]) → Markdown and HTML of every visible node, the
/// renderers of `extract --format markdown|html` with nothing left out.
///
/// Returns the two renderings' lengths; panics if one grows faster than the input (more than
/// 16 bytes out per byte in, plus a constant: every line repeats at most
/// [`crate::output::render::MAX_PREFIX_BYTES`] of indentation) or if the HTML leaves a tag unbalanced.
pub fn render(data: &[u8]) -> crate::Result<(usize, usize)> {
    use crate::output::render::{render, Format};
    let page = crate::Page::from_bytes(
        &[&b"<p>"[..], data].concat(),
        &crate::PageOptions {
            limits: PIPELINE_LIMITS,
            ..Default::default()
        },
    )?;
    let dom = &page.dom;
    let visible = crate::dom::visibility(dom);
    let keep = vec![true; dom.len()];
    let md = render(dom, &visible, &keep, Format::Markdown);
    let html = render(dom, &visible, &keep, Format::Html);
    let bound = 16 * page.html.len() + 4096;
    assert!(
        md.len() <= bound,
        "Markdown of {} bytes from {}",
        md.len(),
        page.html.len()
    );
    assert!(
        html.len() <= bound,
        "HTML of {} bytes from {}",
        html.len(),
        page.html.len()
    );
    for tag in ["p", "ul", "ol", "li", "table", "tr", "pre", "blockquote"] {
        let open = html.matches(&format!("<{tag}>")).count();
        let close = html.matches(&format!("</{tag}>")).count();
        assert_eq!(open, close, "<{tag}> opened {open} times, closed {close}");
    }
    Ok((md.len(), html.len()))
}

/// The limits the view target reads pages under (those of the pipeline target).
pub const VIEW_LIMITS: Limits = PIPELINE_LIMITS;

/// Bytes → decode → DOM with spans → pipeline → `view`, twice (remote loads off and on; page
/// styles on when the input's length is even, off when odd), each output checked by
/// [`assert_inert`].
///
/// Returns the total length of the two views, or the typed error for the page; panics if a
/// view is not inert or cannot be rendered.
pub fn view(data: &[u8]) -> crate::Result<usize> {
    let page = crate::Page::from_bytes(
        data,
        &crate::PageOptions {
            limits: VIEW_LIMITS,
            deadline: Some(&crate::config::Deadline::none()),
            spans: crate::Spans::Keep,
            ..Default::default()
        },
    )?;
    let a = crate::pipeline::analyze(page, Model::embedded(), &Options::default());
    let mut total = 0;
    for allow_remote in [false, true] {
        let opts = crate::output::view::ViewOptions {
            label: "fuzz".to_owned(),
            allow_remote,
            page_styles: data.len().is_multiple_of(2),
            boxes_overlay: allow_remote,
            ..crate::output::view::ViewOptions::default()
        };
        let html = crate::output::view::render(&a, &opts).expect("view renders every page");
        assert_inert(&html, allow_remote);
        total += html.len();
    }
    Ok(total)
}

/// Elements that must not be in a view (lowercase local names, any namespace): scripts,
/// frames, embeddings, forms, the base URL, and SVG animations (which can set a link's target).
const FORBIDDEN_ELEMENTS: &[&str] = &[
    "animate",
    "animatecolor",
    "animatemotion",
    "animatetransform",
    "applet",
    "base",
    "discard",
    "embed",
    "fencedframe",
    "form",
    "frame",
    "frameset",
    "handler",
    "iframe",
    "listener",
    "noscript",
    "object",
    "param",
    "portal",
    "script",
    "set",
];

/// Attributes that must not be in a view: they submit, ping, embed a document, or load.
const FORBIDDEN_ATTRIBUTES: &[&str] = &[
    "action",
    "archive",
    "attributionsrc",
    "codebase",
    "data",
    "dynsrc",
    "formaction",
    "lowsrc",
    "manifest",
    "ping",
    "shadowrootmode",
    "srcdoc",
];

/// Attributes read as CSS (a `style` attribute, SVG presentation attributes that take a URL).
const CSS_ATTRIBUTES: &[&str] = &[
    "clip-path",
    "cursor",
    "fill",
    "filter",
    "marker",
    "marker-end",
    "marker-mid",
    "marker-start",
    "mask",
    "stroke",
    "style",
];

/// Panics unless `html` is inert as a standard HTML parser with scripting on (html5ever, as a
/// browser runs it) builds it: no script element and no event-handler attribute; no
/// `javascript:`/`vbscript:`/`data:` URL in a link; no refresh, base, frame, object, embed,
/// applet, form or SVG animation; no `<link>` but a style sheet (and that only with
/// `allow_remote`); every load (`src`, `srcset`, `poster`, `background`, `href` of anything but a
/// link, CSS `url()`, `@import`, image functions) absent or in the document (`#…`, CSS `data:`)
/// unless `allow_remote`, and then `http(s)` only; our Content-Security-Policy `<meta>` in the
/// head. Template contents are checked too.
///
/// # Complexity
/// O(length) time (one parse, one walk with an explicit stack); CSS nested deeper than
/// `MAX_CSS_DEPTH` + 28 blocks fails the check rather than recursing further.
pub fn assert_inert(html: &str, allow_remote: bool) {
    use html5ever::tendril::TendrilSink as _;
    use markup5ever_rcdom::{NodeData, RcDom};

    let opts = html5ever::ParseOpts {
        tree_builder: html5ever::tree_builder::TreeBuilderOpts {
            scripting_enabled: true,
            ..Default::default()
        },
        ..Default::default()
    };
    let dom = html5ever::parse_document(RcDom::default(), opts).one(html);
    let mut csp_in_head = false;
    let mut stack = vec![(dom.document.clone(), String::new())];
    while let Some((node, parent)) = stack.pop() {
        let mut me = String::new();
        if let NodeData::Element {
            name,
            attrs,
            template_contents,
            ..
        } = &node.data
        {
            let el = (*name.local).to_ascii_lowercase();
            let svg = name.ns == html5ever::ns!(svg);
            assert!(
                FORBIDDEN_ELEMENTS.binary_search(&el.as_str()).is_err(),
                "<{el}> in the view"
            );
            let attrs = attrs.borrow();
            let get = |n: &str| {
                attrs
                    .iter()
                    .find(|a| (*a.name.local).eq_ignore_ascii_case(n))
                    .map(|a| a.value.to_string())
            };
            if el == "meta" {
                let equiv = get("http-equiv").map(|v| v.trim().to_ascii_lowercase());
                let csp = equiv.as_deref() == Some("content-security-policy");
                assert!(
                    equiv.is_none() || csp,
                    "<meta http-equiv={equiv:?}> in the view"
                );
                let viewport = get("name").is_some_and(|v| v.eq_ignore_ascii_case("viewport"));
                assert!(
                    csp || viewport || get("charset").is_some(),
                    "a <meta> of the page in the view"
                );
                csp_in_head |= csp && parent == "head";
            }
            if el == "link" {
                let rel = get("rel").unwrap_or_default();
                let href = get("href").unwrap_or_default();
                assert!(
                    allow_remote && rel == "stylesheet" && is_http(&href),
                    "<link rel={rel:?} href={href:?}> in the view"
                );
            }
            if el == "style" {
                // In SVG or MathML (where the browser's tree differs from the rewriter's) the
                // text is decoded markup; either way it is checked as the CSS it is.
                let css: String = node
                    .children
                    .borrow()
                    .iter()
                    .filter_map(|c| match &c.data {
                        NodeData::Text { contents } => Some(contents.borrow().to_string()),
                        _ => None,
                    })
                    .collect();
                assert_css_inert(&css, allow_remote);
            }
            for a in attrs.iter() {
                let an = (*a.name.local).to_ascii_lowercase();
                let v: &str = &a.value;
                assert!(!an.starts_with("on"), "{an}= on <{el}> in the view");
                assert!(
                    FORBIDDEN_ATTRIBUTES.binary_search(&an.as_str()).is_err(),
                    "{an}= on <{el}> in the view"
                );
                if an == "http-equiv" {
                    assert!(el == "meta");
                }
                match an.as_str() {
                    "href" if el == "a" || el == "area" => {
                        assert!(!crate::output::view::urls::scriptish_url(v), "href={v:?}");
                    }
                    "href" if el == "link" => {}
                    "href" if svg && el == "image" => assert_load(v, allow_remote, "href"),
                    "href" => assert!(
                        crate::output::view::urls::clean_url(v).starts_with('#'),
                        "href={v:?} on <{el}> in the view"
                    ),
                    "src" | "poster" | "background" => assert_load(v, allow_remote, &an),
                    "srcset" => {
                        assert!(allow_remote, "srcset={v:?} in the view");
                        for candidate in v.split(", ") {
                            let url = candidate.split(' ').next().unwrap_or("");
                            assert_load(url, allow_remote, "srcset");
                        }
                    }
                    _ if CSS_ATTRIBUTES.binary_search(&an.as_str()).is_ok() => {
                        assert_css_inert(v, allow_remote)
                    }
                    _ => {}
                }
            }
            if let Some(t) = template_contents.borrow().as_ref() {
                stack.push((t.clone(), el.clone()));
            }
            me = el;
        }
        for c in node.children.borrow().iter() {
            stack.push((c.clone(), me.clone()));
        }
    }
    assert!(
        csp_in_head,
        "the Content-Security-Policy <meta> is not in the head"
    );
}

/// Whether `u`, read as a browser reads a URL, is absolute `http(s)`.
fn is_http(u: &str) -> bool {
    matches!(
        crate::output::view::urls::scheme(&crate::output::view::urls::clean_url(u)).as_deref(),
        Some("http" | "https")
    )
}

/// Panics unless the load `u` of attribute `what` may be in a view: never without
/// `allow_remote`, `http(s)` only with it.
fn assert_load(u: &str, allow_remote: bool, what: &str) {
    assert!(allow_remote, "{what}={u:?} in the view");
    assert!(is_http(u), "{what}={u:?} in the view");
}

/// Panics unless the CSS `css` loads nothing but what may load (see [`assert_inert`]).
fn assert_css_inert(css: &str, allow_remote: bool) {
    let mut input = cssparser::ParserInput::new(css);
    let mut p = cssparser::Parser::new(&mut input);
    let _ = css_walk(&mut p, allow_remote, 0, false);
}

/// The walk of [`assert_css_inert`] over one block.
fn css_walk<'i>(
    p: &mut cssparser::Parser<'i, '_>,
    allow_remote: bool,
    depth: usize,
    strings_are_urls: bool,
) -> Result<(), cssparser::ParseError<'i, ()>> {
    use cssparser::Token;
    assert!(
        depth <= crate::output::view::css::MAX_CSS_DEPTH + 28,
        "CSS nested {depth} deep in the view"
    );
    let url_ok = |u: &str| {
        let u = crate::output::view::urls::clean_url(u);
        assert!(
            !crate::output::view::urls::scriptish_url(&u)
                || u.to_ascii_lowercase().starts_with("data:"),
            "CSS url({u:?}) in the view"
        );
        let local = u.starts_with('#') || u.to_ascii_lowercase().starts_with("data:");
        assert!(
            local || (allow_remote && is_http(&u)),
            "CSS url({u:?}) in the view"
        );
    };
    let mut import = false;
    while let Ok(t) = p.next_including_whitespace_and_comments() {
        match t.clone() {
            Token::UnquotedUrl(u) => url_ok(&u),
            Token::BadUrl(u) => panic!("CSS bad url {u:?} in the view"),
            Token::QuotedString(s) if strings_are_urls || import => url_ok(&s),
            Token::AtKeyword(k) if k.eq_ignore_ascii_case("import") => {
                assert!(allow_remote, "CSS @import in the view");
                import = true;
            }
            Token::Semicolon | Token::CurlyBracketBlock => import = false,
            Token::Function(f) => {
                let f = f.to_ascii_lowercase();
                // The functions whose strings are URLs, as browsers name them.
                let urls = matches!(
                    f.as_str(),
                    "url"
                        | "src"
                        | "image-set"
                        | "-webkit-image-set"
                        | "image"
                        | "cross-fade"
                        | "-webkit-cross-fade"
                        | "element"
                        | "-moz-element"
                        | "-moz-image-rect"
                        | "paint"
                );
                if urls && f != "url" && f != "src" {
                    assert!(allow_remote, "CSS {f}() in the view");
                }
                let depth = depth + 1;
                p.parse_nested_block(|n| {
                    css_walk(n, allow_remote, depth, urls || strings_are_urls)
                })?;
                continue;
            }
            _ => {}
        }
        if matches!(
            t,
            Token::ParenthesisBlock | Token::SquareBracketBlock | Token::CurlyBracketBlock
        ) {
            let depth = depth + 1;
            p.parse_nested_block(|n| css_walk(n, allow_remote, depth, strings_are_urls))?;
        }
    }
    Ok(())
}
