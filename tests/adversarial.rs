//! Adversarial pages, generated here: each gets a clear result or a typed error, never a
//! panic or a stack overflow, and each case prints its time and peak heap (run with
//! `--nocapture` to see the table that docs/robustness.md quotes).
//!
//! The pages run through [`run_bytes`], the same path as the CLI's page commands, on the
//! test thread's 2 MiB stack: deep trees must be walked iteratively.

use crate::common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pagelevel::model::Model;
use pagelevel::pipeline::{run_bytes, Analysis, Options};
use pagelevel::{Error, Limits};

/// The system allocator, counting live bytes and their peak.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let p = System.alloc(layout);
        if !p.is_null() {
            let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
            PEAK.fetch_max(live, Ordering::Relaxed);
        }
        p
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout);
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        let p = System.realloc(ptr, layout, new_size);
        if !p.is_null() {
            if new_size >= layout.size() {
                let grow = new_size - layout.size();
                let live = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
                PEAK.fetch_max(live, Ordering::Relaxed);
            } else {
                LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
            }
        }
        p
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

/// Runs the pipeline on `page` and prints the case's line of the table: input size, outcome,
/// wall time and the heap peak above what was live before (the input itself excluded).
///
/// One case at a time, and never beside another module's timed or heavy test
/// ([`common::timed`]): its time is checked, and its peak should be its own (the global
/// allocator counts every test of the binary; run `cargo test --test tests adversarial::` for
/// the table, the light tests of other modules then absent too).
fn run(case: &str, page: &[u8], limits: &Limits) -> (pagelevel::Result<Analysis>, Duration) {
    run_with(case, page, limits, &Options::default())
}

/// [`run`] with pipeline options (another parser).
fn run_with(
    case: &str,
    page: &[u8],
    limits: &Limits,
    opts: &Options,
) -> (pagelevel::Result<Analysis>, Duration) {
    let _one = common::timed();
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let r = run_bytes(page, None, None, limits, Model::embedded(), opts);
    let took = start.elapsed();
    let peak = PEAK.load(Ordering::Relaxed) - before;
    let outcome = match &r {
        Ok(a) => format!("ok, {} nodes", a.page.dom.len()),
        Err(e) => format!("error: {e}"),
    };
    println!(
        "| {case} | {:.1} MB | {outcome} | {:.2} s | {:.1} MiB |",
        page.len() as f64 / 1e6,
        took.as_secs_f64(),
        peak as f64 / (1 << 20) as f64
    );
    (r, took)
}

/// No time limit: these cases assert what the pipeline computes, which must not depend on how
/// loaded the machine is (the time limit has its own cases below). The size limits are above
/// the defaults, so that the biggest cases run through the whole pipeline.
const UNTIMED: Limits = Limits {
    max_input_bytes: 256 << 20,
    max_nodes: 4_000_000,
    timeout_ms: 0,
};

/// The default limits without the time limit.
const DEFAULTS_UNTIMED: Limits = Limits {
    max_input_bytes: pagelevel::config::DEFAULT_MAX_INPUT_BYTES,
    max_nodes: pagelevel::config::DEFAULT_MAX_NODES,
    timeout_ms: 0,
};

#[test]
fn misnested_formatting_is_stopped_by_the_default_node_limit() {
    // Formatting elements left open inside a closed <p> are reconstructed before the next text:
    // 1,000 distinct <b>s (distinct, so the "Noah's Ark" clause keeps them all) and 20,000
    // paragraphs would build 20 million nodes from 230 KB. The default node limit stops the
    // parse at 2 million, and the heap stays within a few hundred MiB.
    let mut html = String::from("<html><body><p>");
    for i in 0..1_000 {
        html.push_str(&format!("<b id=b{i}>"));
    }
    html.push_str("</p>");
    for _ in 0..20_000 {
        html.push_str("<p>x</p>");
    }
    let (r, took) = run(
        "misnested formatting, default limits",
        html.as_bytes(),
        &DEFAULTS_UNTIMED,
    );
    assert!(
        matches!(
            r,
            Err(Error::TooManyNodes {
                limit: pagelevel::config::DEFAULT_MAX_NODES
            })
        ),
        "{:?}",
        r.as_ref().map(|a| a.page.dom.len())
    );
    assert!(took < HEAVY, "{took:?}");
}

/// A loose bound on the heavy cases (seconds at the test profile's opt-level on a loaded
/// 2-core machine are 20-40): it fails on a quadratic step, not on a slow machine.
const HEAVY: Duration = Duration::from_secs(180);

#[test]
fn hundred_megabytes_of_text() {
    let sentence = "The quick brown fox jumps over the lazy dog near the river bank. ";
    let text = sentence.repeat(100_000_000 / sentence.len() + 1);
    let (r, took) = run("100 MB of text", text.as_bytes(), &UNTIMED);
    let a = r.unwrap();
    // Document, html, head, body and one text node: html5ever keeps a text run in one node.
    assert_eq!(a.page.dom.len(), 5);
    assert_eq!(
        a.main_text().split_whitespace().count(),
        text.split_whitespace().count()
    );
    assert!(took < HEAVY, "{took:?}");
    // The same bytes over the size limit: a typed error before any work.
    let small = Limits {
        max_input_bytes: 64 << 20,
        ..UNTIMED
    };
    let (r, _) = run("100 MB of text, 64 MiB limit", text.as_bytes(), &small);
    assert!(
        matches!(r, Err(Error::TooLarge { size, limit, .. }) if size == text.len() as u64 && limit == 64 << 20),
        "{:?}",
        r.err()
    );
}

#[test]
fn million_siblings() {
    let mut html = String::from("<html><body>");
    for _ in 0..1_000_000 {
        html.push_str("<p>w</p>");
    }
    let (r, took) = run("1,000,000 siblings", html.as_bytes(), &UNTIMED);
    let a = r.unwrap();
    // Document, html, head, body, and an element and a text node per paragraph.
    assert_eq!(a.page.dom.len(), 4 + 2_000_000);
    let body = a.page.dom.body().unwrap();
    assert_eq!(a.page.dom.children(body).count(), 1_000_000);
    let main = a.main_text();
    assert!(!main.is_empty());
    assert!(
        main.split_whitespace().all(|w| w == "w"),
        "only the paragraphs' words"
    );
    assert!(took < HEAVY, "{took:?}");
    let capped = Limits {
        max_nodes: 1_000_000,
        ..UNTIMED
    };
    let (r, _) = run(
        "1,000,000 siblings, 1M-node limit",
        html.as_bytes(),
        &capped,
    );
    assert!(
        matches!(r, Err(Error::TooManyNodes { limit: 1_000_000 })),
        "{:?}",
        r.err()
    );
}

/// `depth` nested `tag` elements holding `text`, never closed.
fn nested(tag: &str, depth: usize, text: &str) -> String {
    let mut html = String::with_capacity(depth * (tag.len() + 2) + 64);
    html.push_str("<html><body>");
    for _ in 0..depth {
        html.push('<');
        html.push_str(tag);
        html.push('>');
    }
    html.push_str(text);
    html
}

#[test]
fn million_deep_spans_run_the_whole_pipeline() {
    let html = nested("span", 1_000_000, "deep words here");
    let (r, took) = run("1,000,000-deep <span>", html.as_bytes(), &UNTIMED);
    let a = r.unwrap();
    // html5ever does not cap nesting: the text sits under all million spans.
    let dom = &a.page.dom;
    let leaf = dom.len() - 1;
    assert_eq!(dom.text(leaf), "deep words here");
    assert_eq!(dom.node(leaf).depth as usize, 1_000_000 + 3);
    assert_eq!(a.main_text(), "deep words here");
    assert!(took < HEAVY, "{took:?}");
}

#[test]
fn deep_divs_are_quadratic_in_html5ever_and_stopped_by_the_time_limit() {
    // 5,000 nested divs parse in full: html5ever does not cap nesting for divs either.
    let html = nested("div", 5_000, "deep");
    let (r, _) = run("5,000-deep <div>", html.as_bytes(), &UNTIMED);
    let dom = &r.unwrap().page.dom;
    assert_eq!(dom.node(dom.len() - 1).depth as usize, 5_000 + 3);
    // Each <div> start tag looks for an open <p> in button scope, a walk down the whole stack
    // of open elements: a million nested divs are ~5·10^11 steps. The deadline, checked
    // every 64 tags inside the parse, stops the page.
    let html = nested("div", 1_000_000, "deep");
    let limits = Limits {
        timeout_ms: 1_000,
        ..UNTIMED
    };
    let html5ever = Options {
        parser: pagelevel::dom::Parser::Html5ever,
        ..Options::default()
    };
    let (r, took) = run_with(
        "1,000,000-deep <div>, html5ever, 1 s limit",
        html.as_bytes(),
        &limits,
        &html5ever,
    );
    assert!(
        matches!(
            r,
            Err(Error::Timeout {
                limit_ms: 1_000,
                stage: "parse"
            })
        ),
        "{:?}",
        r.err()
    );
    // 64 tags at depth under a million walk at most 6.4·10^7 entries past the deadline.
    assert!(took < Duration::from_secs(30), "{took:?}");
    // The fast parser, the default, parses the same page in linear time
    // (`parser::million_deep_divs_parse_in_linear_time`).
}

#[test]
fn a_page_of_links_only() {
    let mut html = String::from("<html><body>");
    for i in 0..100_000 {
        html.push_str(&format!("<a href=\"/page/{i}\">link {i}</a>\n"));
    }
    let (r, _) = run("100,000 links, nothing else", html.as_bytes(), &UNTIMED);
    let a = r.unwrap();
    // The classifier keeps some links (the fallback would return nothing: links are chrome).
    let main = a.main_text();
    assert!(!main.is_empty());
    let words: Vec<&str> = main.split_whitespace().collect();
    assert!(words
        .chunks(2)
        .all(|w| w[0] == "link" && w.get(1).is_some_and(|n| n.parse::<u32>().is_ok())));
}

#[test]
fn pages_without_a_body() {
    for (case, page, body) in [
        ("empty input", "", true),
        (
            "head only",
            "<html><head><title>Only a title</title></head></html>",
            true,
        ),
        (
            "frameset",
            "<html><head><title>T</title></head><frameset><frame src=a.html></frameset></html>",
            false,
        ),
    ] {
        let (r, _) = run(case, page.as_bytes(), &UNTIMED);
        let a = r.unwrap();
        // html5ever adds an empty <body> unless a <frameset> takes its place.
        assert_eq!(a.page.dom.body().is_some(), body, "{case}");
        assert_eq!(a.main_text(), "", "{case}: no text to extract");
    }
}

#[test]
fn binary_garbage() {
    let garbage = pagelevel::fuzzing::Xorshift(0x9E37_79B9_7F4A_7C15).bytes(10_000_000);
    let (r, _) = run("10 MB of random bytes", &garbage, &UNTIMED);
    // WHATWG MIME sniffing: binary data bytes in the first 1445 bytes are not HTML.
    assert!(
        matches!(
            r,
            Err(Error::NotHtml {
                kind: "binary data"
            })
        ),
        "{:?}",
        r.err()
    );
    // Behind an HTML signature, the same bytes are a page (noise, in a single-byte charset).
    let page = [&b"<p>"[..], &garbage].concat();
    let (r, _) = run("10 MB of random bytes after <p>", &page, &UNTIMED);
    let a = r.unwrap();
    // Not UTF-8, so chardetng guesses a single-byte charset, which decodes any byte.
    assert_ne!(a.page.encoding, "UTF-8");
    assert_eq!(
        a.page.charset_source,
        pagelevel::decode::CharsetSource::Detected
    );
    assert!(a.page.dom.len() > 4);
    let (r, _) = run("a PDF", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", &UNTIMED);
    assert!(matches!(
        r,
        Err(Error::NotHtml {
            kind: "a PDF document"
        })
    ));
}

#[test]
fn one_tag_with_many_attributes_is_stopped_by_the_time_limit() {
    // html5ever checks each attribute's name against all earlier ones of its tag: n distinct
    // attributes cost O(n²), and a tag is one chunk of the parse. Fed in pieces with the
    // deadline checked between them, the page stops near its limit.
    let mut html = String::from("<html><body><div");
    for i in 0..200_000 {
        html.push_str(&format!(" a{i}=1"));
    }
    html.push_str(">text</div>");
    let limits = Limits {
        timeout_ms: 1_000,
        ..UNTIMED
    };
    // The fast parser finds duplicates with a hash set (linear, `parser::growth_…`).
    let html5ever = Options {
        parser: pagelevel::dom::Parser::Html5ever,
        ..Options::default()
    };
    let (r, took) = run_with(
        "one tag, 200,000 attributes, html5ever, 1 s limit",
        html.as_bytes(),
        &limits,
        &html5ever,
    );
    assert!(
        matches!(r, Err(Error::Timeout { stage: "parse", .. })),
        "{:?}",
        r.err()
    );
    // Before, it took 36 s; now one piece of 4 KiB (about 500 attributes) past the deadline.
    assert!(took < Duration::from_secs(5), "{took:?}");
    // A tag with a few thousand attributes still parses, all of them counted.
    let mut html = String::from("<div");
    for i in 0..5_000 {
        html.push_str(&format!(" a{i}=1"));
    }
    html.push_str(">text</div>");
    let (r, _) = run("one tag, 5,000 attributes", html.as_bytes(), &UNTIMED);
    assert_eq!(r.unwrap().main_text(), "text");
}

#[test]
fn deep_lists_give_markdown_linear_in_the_input() {
    // 12,000 nested lists: every line repeats the indentation, so without a bound Markdown grew
    // as depth squared (481 KB gave 144 MB).
    let mut html = String::from("<html><body>");
    for i in 0..12_000 {
        html.push_str(&format!("<ul><li>item {i} "));
    }
    let (r, _) = run("12,000 nested <ul><li>", html.as_bytes(), &UNTIMED);
    let dom = &r.unwrap().page.dom;
    // Every node kept, so that the renderer, not the classifier, decides.
    let keep = vec![true; dom.len()];
    let visible = pagelevel::dom::visibility(dom);
    let md = pagelevel::output::render::render(
        dom,
        &visible,
        &keep,
        pagelevel::output::render::Format::Markdown,
    );
    assert!(md.contains("item 0") && md.contains("item 11999"));
    let longest = md.lines().map(str::len).max().unwrap();
    assert!(
        longest <= pagelevel::output::render::MAX_PREFIX_BYTES + 20,
        "{longest}"
    );
    assert!(md.len() < 4 * html.len(), "{} bytes", md.len());
}

#[test]
fn deep_paths_are_abbreviated() {
    // Timed: the walk must end within HEAVY.
    let _machine = common::timed();
    let html = nested("span", 1_000_000, "deep words here");
    let page = pagelevel::Page::from_bytes(
        html.as_bytes(),
        &pagelevel::PageOptions {
            limits: UNTIMED,
            ..Default::default()
        },
    )
    .unwrap();
    let dom = &page.dom;
    let start = Instant::now();
    let mut total = 0usize;
    let mut longest = 0usize;
    dom.for_each_short_path(
        |_| true,
        |_, p| {
            total += p.len();
            longest = longest.max(p.len());
        },
    );
    // At most PATH_MAX_STEPS steps of at most `/span[1]` and a `/…N…` step.
    assert!(longest < 64 * 8 + 20, "{longest}");
    assert!(total < 600 * dom.len(), "{total}");
    assert!(start.elapsed() < HEAVY);
    let leaf = dom.len() - 1;
    let short = &dom.short_paths_of(&[leaf])[0];
    assert!(short.starts_with("/html/body/span[1]/span[1]/"), "{short}");
    assert!(short.contains("/…999939…/"), "{short}");
    assert!(short.ends_with("/span[1]/text()[1]"), "{short}");
    // A shallow path is written in full, as `Dom::path` writes it.
    let small = pagelevel::dom::parse("<div><p>a</p><p>b<b>c</b></p></div>", &UNTIMED).unwrap();
    let all = small.short_paths(|_| true);
    assert_eq!(all.len(), small.len() - 1);
    for (i, p) in all {
        assert_eq!(p, small.path(i));
    }
}

#[test]
fn utf16_without_a_byte_order_mark() {
    let page = "<html><head><title>Hello</title></head>\
                <body><p>Hello world, this is a page in UTF-16.</p></body></html>";
    for (name, bytes) in [
        (
            "UTF-16LE",
            page.encode_utf16()
                .flat_map(u16::to_le_bytes)
                .collect::<Vec<u8>>(),
        ),
        (
            "UTF-16BE",
            page.encode_utf16().flat_map(u16::to_be_bytes).collect(),
        ),
    ] {
        let (r, _) = run(&format!("{name} without BOM"), &bytes, &UNTIMED);
        let a = r.unwrap();
        assert_eq!(a.page.encoding, name);
        assert_eq!(a.page.dom.title(), Some("Hello"));
        assert_eq!(a.main_text(), "Hello world, this is a page in UTF-16.");
    }
}

#[test]
fn the_time_limit_changes_nothing_until_it_is_exceeded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("data/examples");
    let page = std::fs::read(dir.join("news-article.html")).unwrap();
    let (timed, _) = run("news-article, default limits", &page, &Limits::default());
    let (untimed, _) = run("news-article, no time limit", &page, &UNTIMED);
    let (timed, untimed) = (timed.unwrap(), untimed.unwrap());
    assert_eq!(timed.main_text(), untimed.main_text());
    // Bit for bit (nodes outside <body> score NaN).
    let bits = |a: &Analysis| {
        a.segmentation
            .y
            .iter()
            .map(|y| y.to_bits())
            .collect::<Vec<_>>()
    };
    assert_eq!(bits(&timed), bits(&untimed));
    assert_eq!(timed.segmentation.template, untimed.segmentation.template);
    // A page that cannot finish in 1 ms is a typed error for that page.
    let mut html = String::from("<html><body>");
    for _ in 0..200_000 {
        html.push_str("<p>w</p>");
    }
    let one_ms = Limits {
        timeout_ms: 1,
        ..UNTIMED
    };
    let (r, _) = run("200,000 siblings, 1 ms limit", html.as_bytes(), &one_ms);
    assert!(
        matches!(r, Err(Error::Timeout { limit_ms: 1, .. })),
        "{:?}",
        r.err()
    );
}
