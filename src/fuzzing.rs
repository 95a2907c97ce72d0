//! The bodies of the cargo-fuzz targets in `fuzz/` that need the pipeline (the `smooth`
//! target's is `smoothing::fuzzing::smooth`), here so that `tests/fuzz_regressions.rs`
//! replays the kept corpus and crash inputs through exactly the code the fuzzer ran. Each
//! returns normally on any input; a panic (a failed invariant below, an index out of bounds,
//! an overflow in a debug build) is the bug the fuzzer looks for.

use crate::classify::Model;
use crate::pipeline::{run_bytes, Options};
use crate::Limits;

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
    let seekable = crate::warc::WarcReader::new(std::io::Cursor::new(data), &WARC_LIMITS)?;
    let counts = check_items(seekable, data);
    let stream = crate::warc::WarcReader::from_stream(data, &WARC_LIMITS)?;
    check_items(stream, data);
    Ok(counts)
}

fn check_items<R: std::io::Read>(
    reader: crate::warc::WarcReader<R>,
    data: &[u8],
) -> (usize, usize) {
    use crate::warc::Item;
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
/// [`crate::render::MAX_PREFIX_BYTES`] of indentation) or if the HTML leaves a tag unbalanced.
pub fn render(data: &[u8]) -> crate::Result<(usize, usize)> {
    use crate::render::{render, Format};
    let page =
        crate::Page::from_bytes(&[&b"<p>"[..], data].concat(), None, None, &PIPELINE_LIMITS)?;
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
