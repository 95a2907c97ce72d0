//! The estimated flow layout: hand-worked boxes on small pages, browser-box overrides,
//! containment over real pages, a 1,000,000-deep page, and (ignored) a speed measurement.
//!
//! Defaults used in the hand computations: viewport 1280, body margin 8 (so body content is
//! x = 8, y = 8, width 1264), glyph 8 px, line height 18 px, h1 ×2, images 150×100.

use crate::common;

use std::path::PathBuf;

use pagelevel::dom::{self, visibility, Dom, Kind};
use pagelevel::geometry::{apply_boxes, layout, read_boxes, Layout, LayoutOptions, Rect};
use pagelevel::{Error, Limits};

fn lay(html: &str) -> (Dom, Layout) {
    let d = dom::parse(html, &Limits::default()).unwrap();
    let vis = visibility(&d);
    let l = layout(&d, &vis, &LayoutOptions::default());
    (d, l)
}

/// The element with `id`.
fn id(d: &Dom, name: &str) -> usize {
    (0..d.len())
        .find(|&i| d.attr(i, "id") == Some(name))
        .unwrap_or_else(|| panic!("no #{name}"))
}

fn close(a: f32, b: f32) -> bool {
    (a - b).abs() < 1e-3
}

#[track_caller]
fn assert_rect(r: Rect, x: f32, y: f32, w: f32, h: f32) {
    assert!(
        close(r.x, x) && close(r.y, y) && close(r.w, w) && close(r.h, h),
        "got {r:?}, want x={x} y={y} w={w} h={h}"
    );
}

#[test]
fn stacked_paragraphs() {
    let (d, l) = lay("<html><body><p id=a>hello</p><p id=b>world wide</p></body></html>");
    let (a, b) = (l.rects[id(&d, "a")], l.rects[id(&d, "b")]);
    assert_rect(a, 8.0, 8.0, 1264.0, 18.0);
    assert_eq!(b.y, a.y + a.h);
    assert_rect(b, 8.0, 26.0, 1264.0, 18.0);
    // body: 8 margin + two lines + 8 margin; html and the page cover it.
    let body = l.rects[d.body().unwrap()];
    assert_rect(body, 8.0, 8.0, 1264.0, 36.0);
    assert_eq!(
        l.page,
        Rect {
            x: 0.0,
            y: 0.0,
            w: 1280.0,
            h: 52.0
        }
    );
    assert_eq!(a.area(), 1264.0 * 18.0);
    assert_eq!(a.center(), (640.0, 17.0));
}

#[test]
fn text_wraps_per_character() {
    // 500 chars · 8 px = 4000 px at 1264 px: ceil(3.16) = 4 lines.
    let html = format!(
        "<body><p id=a>{}</p><div style='width:400px' id=w><p id=b>{}</p><p id=c>{}</p></div>\
         <h1 id=h>{}</h1></body>",
        "x".repeat(500),
        "y".repeat(120), // 960 px at 400: ceil(2.4) = 3 lines
        "z".repeat(50),  // 400 px at 400: exactly 1 line
        "h".repeat(100), // h1: 16-px glyphs, 36-px lines: 1600 / 1264 → 2 lines
    );
    let (d, l) = lay(&html);
    assert_rect(l.rects[id(&d, "a")], 8.0, 8.0, 1264.0, 4.0 * 18.0);
    let w = l.rects[id(&d, "w")];
    assert_rect(w, 8.0, 80.0, 400.0, 3.0 * 18.0 + 18.0);
    assert_rect(l.rects[id(&d, "b")], 8.0, 80.0, 400.0, 54.0);
    let c = id(&d, "c");
    assert_rect(l.rects[c], 8.0, 134.0, 400.0, 18.0);
    // A one-line text node is exactly as wide as its characters.
    assert_rect(l.rects[c + 1], 8.0, 134.0, 400.0, 18.0);
    assert_rect(l.rects[id(&d, "h")], 8.0, 152.0, 1264.0, 2.0 * 36.0);
    // Inline elements share the line: "ab" then a link "cd" at x = 8 + 16.
    let (d, l) = lay("<body><p>ab<a id=k href=x>cd</a>e<br>f</p></body>");
    assert_rect(l.rects[id(&d, "k")], 24.0, 8.0, 16.0, 18.0);
    let p = d.parent(id(&d, "k")).unwrap();
    assert_eq!(l.rects[p].h, 36.0, "<br> starts a second line");
}

#[test]
fn images_take_their_size() {
    let (d, l) = lay(
        "<body><img id=a width=200 height=120><div><img id=b src=x.png></div>\
         <p id=p>abc<img id=c width=50 height=40 style='x'>def</p>\
         <div style='width:100px'><img id=e width=400 height=200></div></body>",
    );
    assert_rect(l.rects[id(&d, "a")], 8.0, 8.0, 200.0, 120.0);
    assert_rect(l.rects[id(&d, "b")], 8.0, 128.0, 150.0, 100.0);
    // In a line: after 3 chars (24 px); the line is as tall as the image.
    assert_rect(l.rects[id(&d, "c")], 32.0, 228.0, 50.0, 40.0);
    assert_rect(l.rects[id(&d, "p")], 8.0, 228.0, 1264.0, 40.0);
    // Too wide for its container: fitted, aspect ratio kept.
    assert_rect(l.rects[id(&d, "e")], 8.0, 268.0, 100.0, 50.0);
    // A %-wide image without a height never grows taller than the default.
    let (d, l) = lay("<body><img id=i width=100% height=auto></body>");
    assert_rect(l.rects[id(&d, "i")], 8.0, 8.0, 1264.0, 100.0);
}

#[test]
fn table_row_shares_width() {
    let (d, l) = lay("<body><table id=t><tr><td id=a>a<td id=b>b<td id=c>c</tr>\
         <tr><td id=x colspan=2>x<td id=y>y<br>y</tr></table>\
         <table style='width:600px'><tr><td id=f width=100>f<td id=g>g</tr></table></body>");
    let third = 1264.0 / 3.0;
    assert_rect(l.rects[id(&d, "a")], 8.0, 8.0, third, 18.0);
    assert_rect(l.rects[id(&d, "b")], 8.0 + third, 8.0, third, 18.0);
    assert_rect(l.rects[id(&d, "c")], 8.0 + 2.0 * third, 8.0, third, 18.0);
    // Second row: colspan 2 takes two thirds; the row is as tall as its tallest cell.
    assert_rect(l.rects[id(&d, "x")], 8.0, 26.0, 2.0 * third, 36.0);
    assert_rect(l.rects[id(&d, "y")], 8.0 + 2.0 * third, 26.0, third, 36.0);
    assert_rect(l.rects[id(&d, "t")], 8.0, 8.0, 1264.0, 54.0);
    // An explicit cell width is honoured; the rest of the row goes to the others.
    assert_rect(l.rects[id(&d, "f")], 8.0, 62.0, 100.0, 18.0);
    assert_rect(l.rects[id(&d, "g")], 108.0, 62.0, 500.0, 18.0);
}

#[test]
fn hidden_subtrees_take_no_space() {
    let (d, l) = lay(
        "<body><p id=a>a</p><div id=h style='display:none'><p id=hp>lots of text</p></div>\
         <div id=h2 hidden>x</div><script>var x;</script><p id=b>b</p></body>",
    );
    let (a, b) = (l.rects[id(&d, "a")], l.rects[id(&d, "b")]);
    assert_eq!(b.y, a.y + a.h);
    for h in ["h", "hp", "h2"] {
        assert_eq!(l.rects[id(&d, h)].area(), 0.0, "{h}");
    }
    // At the parent's corner.
    let body = l.rects[d.body().unwrap()];
    let h = l.rects[id(&d, "h")];
    assert_eq!((h.x, h.y, h.w, h.h), (body.x, body.y, 0.0, 0.0));
    let hp = l.rects[id(&d, "hp")];
    assert_eq!((hp.x, hp.y), (h.x, h.y));
}

#[test]
fn floats_and_sidebars() {
    let (d, l) = lay(
        "<body><div id=f style='float:left;width:200px'>nav</div><div id=c>content</div></body>",
    );
    assert_rect(l.rects[id(&d, "f")], 8.0, 8.0, 200.0, 18.0);
    assert_rect(l.rects[id(&d, "c")], 208.0, 8.0, 1064.0, 18.0);

    let (d, l) =
        lay("<body><div id=r style='float:right;width:25%'>ad</div><p id=c>text</p></body>");
    assert_rect(l.rects[id(&d, "r")], 8.0 + 1264.0 - 316.0, 8.0, 316.0, 18.0);
    assert_rect(l.rects[id(&d, "c")], 8.0, 8.0, 948.0, 18.0);

    // An aside after the main content still sits in a right column beside it.
    let (d, l) = lay("<body><main id=m><p>one</p><p>two</p></main><aside id=s>side</aside></body>");
    assert_rect(l.rects[id(&d, "s")], 8.0 + 1264.0 - 300.0, 8.0, 300.0, 18.0);
    assert_rect(l.rects[id(&d, "m")], 8.0, 8.0, 964.0, 36.0);
    // Alone, an aside is an ordinary block.
    let (d, l) = lay("<body><aside id=s>side</aside></body>");
    assert_rect(l.rects[id(&d, "s")], 8.0, 8.0, 1264.0, 18.0);

    // Floated menu items without width shrink to their text and sit side by side.
    let (d, l) = lay(
        "<body><nav><ul><li id=a style='float:left'>Home</li><li id=b style='float:left'>About</li>\
         </ul></nav><p id=p>x</p></body>",
    );
    assert_rect(l.rects[id(&d, "a")], 48.0, 8.0, 32.0, 18.0);
    assert_rect(l.rects[id(&d, "b")], 80.0, 8.0, 40.0, 18.0);
    // Inline items too, in one line.
    let (d, l) = lay(
        "<body><ul><li id=a style='display:inline'>Home</li><li id=b style='display:inline'>About</li></ul></body>",
    );
    assert_rect(l.rects[id(&d, "a")], 48.0, 8.0, 32.0, 18.0);
    assert_rect(l.rects[id(&d, "b")], 80.0, 8.0, 40.0, 18.0);
    // A centred, width-limited column.
    let (d, l) = lay("<body><div id=w style='max-width:964px;margin:0 auto'>x</div></body>");
    assert_rect(l.rects[id(&d, "w")], 158.0, 8.0, 964.0, 18.0);

    // A float leaving 64 px (under 120) beside it: the paragraph goes below it at full width,
    // instead of wrapping one glyph per line.
    let (d, l) = lay(
        "<body><div id=f style='float:left;width:1200px;height:50px'>x</div><p id=p>some words here</p></body>",
    );
    assert_rect(l.rects[id(&d, "f")], 8.0, 8.0, 1200.0, 50.0);
    assert_rect(l.rects[id(&d, "p")], 8.0, 58.0, 1264.0, 18.0);
}

fn temp_file(name: &str, contents: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("pagelevel-geometry-{}-{name}", std::process::id()));
    std::fs::write(&p, contents).unwrap();
    p
}

#[test]
fn browser_boxes_override() {
    let (d, mut l) = lay("<html><body><div>a</div><div id=b>b</div></body></html>");
    let b = id(&d, "b");
    assert_eq!(d.path(b), "/html/body/div[2]");
    let p = temp_file(
        "ok.json",
        r#"{"/html/body/div[2]": {"x": 10, "y": 20, "w": 300, "h": 4000},
            "/html/body/nope[3]": {"x": 1, "y": 2, "w": 3, "h": 4},
            "/html/body/div[2]/text()[1]": {"x": 11, "y": 21, "width": 30, "height": 15}}"#,
    );
    let boxes = read_boxes(&p).unwrap();
    let before = l.rects[b - 1];
    assert_eq!(apply_boxes(&d, &mut l, &boxes), 2);
    assert_eq!(
        l.rects[b],
        Rect {
            x: 10.0,
            y: 20.0,
            w: 300.0,
            h: 4000.0
        }
    );
    assert_eq!(
        l.rects[b + 1],
        Rect {
            x: 11.0,
            y: 21.0,
            w: 30.0,
            h: 15.0
        }
    );
    assert_eq!(l.rects[b - 1], before, "other nodes keep their estimate");
    assert_eq!(l.page.h, 4020.0);
    std::fs::remove_file(&p).ok();

    for (name, bad) in [
        ("bad.json", "{\"/html\": {\"x\": 1,"),
        ("list.json", "[1, 2]"),
        (
            "neg.json",
            r#"{"/html": {"x": 0, "y": 0, "w": -5, "h": 1}}"#,
        ),
    ] {
        let p = temp_file(name, bad);
        match read_boxes(&p) {
            Err(Error::Boxes { path, message }) => {
                assert_eq!(path, p);
                assert!(!message.is_empty());
            }
            other => panic!("{name}: expected Error::Boxes, got {other:?}"),
        }
        std::fs::remove_file(&p).ok();
    }
    let missing = std::env::temp_dir().join("pagelevel-geometry-does-not-exist.json");
    assert!(matches!(read_boxes(&missing), Err(Error::Boxes { .. })));
}

/// Checks the invariants on one page; returns the number of nodes.
fn check_invariants(d: &Dom, l: &Layout, what: &str) -> usize {
    let vis = visibility(d);
    assert_eq!(l.rects.len(), d.len(), "{what}");
    assert!(
        l.page.h >= 1.0 && l.page.h.is_finite(),
        "{what}: page {:?}",
        l.page
    );
    for (i, r) in l.rects.iter().enumerate() {
        assert!(
            r.x.is_finite() && r.y.is_finite() && r.w.is_finite() && r.h.is_finite(),
            "{what}: {} {r:?}",
            d.path(i)
        );
        assert!(
            r.w >= 0.0 && r.h >= 0.0 && r.area() >= 0.0,
            "{what}: {} {r:?}",
            d.path(i)
        );
        let Some(p) = d.parent(i) else { continue };
        if !vis[i] || d.node(i).kind != Kind::Element {
            continue;
        }
        let q = l.rects[p];
        let tol = 0.5;
        assert!(
            r.x >= q.x - tol
                && r.y >= q.y - tol
                && r.x + r.w <= q.x + q.w + tol
                && r.y + r.h <= q.y + q.h + tol,
            "{what}: {} {r:?} is outside its parent {q:?}",
            d.path(i)
        );
    }
    d.len()
}

#[test]
fn containment_on_real_pages() {
    // Heavy: every page of a data set.
    let _machine = common::heavy();
    let Some(data) = common::data_or_skip("containment_on_real_pages") else {
        return;
    };
    let dir = data.join("l3s-gn1/original");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".html.gz"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "{}: no pages", dir.display());
    let opts = LayoutOptions::default();
    for f in &files {
        let bytes = common::gunzip(f);
        let text = pagelevel::decode::decode(&bytes, None).text;
        let d = dom::parse(&text, &Limits::default()).unwrap();
        let vis = visibility(&d);
        let l = layout(&d, &vis, &opts);
        check_invariants(&d, &l, &f.display().to_string());
    }
    eprintln!("containment_on_real_pages: {} pages", files.len());
}

#[test]
fn hand_pages_keep_invariants() {
    for html in [
        "",
        "text only",
        "<table><tr><td>a</td></tr></table><span><div>block in inline</div></span>",
        "<pre>line one\nline two\n\nfour</pre><p>a<br><br>b</p>",
        "<svg width=10 height=10><g><rect/></g></svg><video></video><input type=hidden>",
        "<div style='float:left;width:5000px'>x</div><div style='width:3000px'>y</div>",
        "<ul><li style='float:right'>a<li style='float:right'>b</ul><div style='clear:both'>c</div>",
        "<body><aside>a</aside><aside>b</aside><div>c</div><div role=complementary>d</div></body>",
        "<table width=50%><tr><td width=900>a<td width=900>b</table><td>stray",
    ] {
        let (d, l) = lay(html);
        check_invariants(&d, &l, html);
    }
}

#[test]
fn million_deep_nesting() {
    // Heavy: a 1,000,000-deep page.
    let _machine = common::heavy();
    let depth = 1_000_000;
    let mut html = String::with_capacity(depth * 6 + 16);
    html.push_str("<body>");
    for _ in 0..depth {
        html.push_str("<span>");
    }
    html.push_str("deep");
    let (d, l) = lay(&html);
    let leaf = d.len() - 1;
    assert_eq!(d.text(leaf), "deep");
    assert_rect(l.rects[leaf], 8.0, 8.0, 32.0, 18.0);
    // Every span is the union of its content: the text's box.
    assert_eq!(l.rects[leaf - 1], l.rects[leaf]);
    assert_eq!(l.rects[d.body().unwrap() + 1], l.rects[leaf]);
    assert_eq!(l.page.h, 34.0);
}

/// Median layout time per page over wcxb-dev. Run with
/// `cargo test --release --test tests geometry::speed_wcxb_dev -- --ignored --nocapture`.
#[test]
#[ignore]
fn speed_wcxb_dev() {
    let Some(data) = common::data_or_skip("speed_wcxb_dev") else {
        return;
    };
    let dir = data.join("wcxb-dev/html");
    let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    let opts = LayoutOptions::default();
    let mut per_page = Vec::new();
    let (mut nodes, mut bytes_total) = (0usize, 0usize);
    let mut per_node_ns = Vec::new();
    for f in &files {
        let bytes = common::gunzip(f);
        let text = pagelevel::decode::decode(&bytes, None).text;
        let d = dom::parse(&text, &Limits::default()).unwrap();
        let vis = visibility(&d);
        let mut best = f64::MAX;
        for _ in 0..5 {
            let t = std::time::Instant::now();
            let l = layout(&d, &vis, &opts);
            best = best.min(t.elapsed().as_secs_f64() * 1e6);
            std::hint::black_box(l);
        }
        per_page.push(best);
        per_node_ns.push(best * 1000.0 / d.len() as f64);
        nodes += d.len();
        bytes_total += text.len();
    }
    let median = |v: &mut Vec<f64>| {
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    let n = files.len();
    let max = per_page.iter().cloned().fold(0.0, f64::max);
    eprintln!(
        "layout over {n} wcxb-dev pages ({} nodes, {} KB on average): median {:.1} µs/page, \
         max {max:.0} µs, median {:.1} ns/node",
        nodes / n,
        bytes_total / n / 1024,
        median(&mut per_page),
        median(&mut per_node_ns),
    );
}
