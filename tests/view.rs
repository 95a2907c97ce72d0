//! `pagelevel view`: no script survives, one outline per segment, the legend, escaping, deep
//! pages, the CLI, and (when Chromium is installed) a screenshot.

use std::path::{Path, PathBuf};
use std::process::Command;

use pagelevel::classify::Model;
use pagelevel::dom::{self, Kind};
use pagelevel::pipeline::{analyze, Analysis, Options};
use pagelevel::view::{render, ViewOptions};
use pagelevel::{Limits, Page};

const EXAMPLES: [&str; 3] = ["news-article", "product-listing", "forum-thread"];

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/examples")
        .join(format!("{name}.html"))
}

fn analyse_html(html: &str) -> Analysis {
    let page = Page::from_bytes(html.as_bytes(), None, None, &Limits::default()).unwrap();
    analyze(page, Model::embedded(), &Options::default())
}

fn opts(label: &str) -> ViewOptions {
    ViewOptions {
        label: label.to_owned(),
        ..ViewOptions::default()
    }
}

/// Occurrences of `needle` in `hay`, ASCII case-insensitive.
fn count_ci(hay: &str, needle: &str) -> usize {
    let (h, n) = (hay.to_ascii_lowercase(), needle.to_ascii_lowercase());
    h.matches(&n).count()
}

/// Segment indices carried by `data-pl-seg` attributes, in output order.
fn outlined(html: &str) -> Vec<usize> {
    html.split(" data-pl-seg=\"")
        .skip(1)
        .map(|rest| rest[..rest.find('"').unwrap()].parse().unwrap())
        .collect()
}

/// Names of the elements of `html` as our own parser sees them.
fn element_names(html: &str) -> Vec<String> {
    let d = dom::parse(html, &Limits::default()).unwrap();
    (0..d.len())
        .filter(|&i| d.node(i).kind == Kind::Element)
        .map(|i| d.tag_name(i).to_owned())
        .collect()
}

#[test]
fn examples_have_one_outline_per_segment_and_no_script() {
    for name in EXAMPLES {
        let path = example(name);
        let page = Page::from_path(&path, None, &Limits::default()).unwrap();
        let a = analyze(page, Model::embedded(), &Options::default());
        let html = render(&a, &opts(name));
        let n = a.segmentation.segments.len();
        assert!(n > 1, "{name}: {n} segments");
        assert_eq!(count_ci(&html, "<script"), 0, "{name}");
        let mut ks = outlined(&html);
        ks.sort_unstable();
        assert_eq!(
            ks,
            (0..n).collect::<Vec<_>>(),
            "{name}: one outline per segment"
        );
        assert!(
            html.contains(&format!("{n} segments: ")),
            "{name}: legend count"
        );
        assert!(
            html.contains(&format!("; {n} outlined")),
            "{name}: all outlined"
        );
        let names = element_names(&html);
        assert!(
            names.iter().any(|t| t == "pl-legend"),
            "{name}: legend parsed"
        );
        assert!(!names.iter().any(|t| t == "script"), "{name}");
        // Same inputs, same bytes.
        assert_eq!(html, render(&a, &opts(name)), "{name}: deterministic");
    }
}

#[test]
fn scripts_handlers_and_script_urls_are_removed() {
    let html = r#"<!DOCTYPE html><html><head><title>t</title>
<meta http-equiv="refresh" content="0; url=https://example.com/">
<meta charset="iso-8859-1">
<script>alert("head")</script><SCRIPT SRC="x.js"></SCRIPT></head>
<body onload="alert(1)">
<div><p>Visible words stay here in the main part of the page, several of them.</p>
<img src="a.png" onerror="alert(2)" alt="pic"><a href="javascript:alert(3)">one</a>
<a href=" &#106;ava&#x09;script&colon;alert(4)">two</a><a href="/ok">three</a>
<iframe srcdoc="&lt;script&gt;alert(5)&lt;/script&gt;"></iframe>
<svg><script>alert(6)</script></svg>
<template><script>alert(7)</script><p onclick="alert(8)">t</p></template>
<!-- <script>alert(9)</script> -->
<textarea>a <script> in text</textarea></div>
</body></html>"#;
    let a = analyse_html(html);
    let out = render(&a, &opts("hostile"));
    assert_eq!(count_ci(&out, "<script"), 0, "{out}");
    assert_eq!(count_ci(&out, "</script"), 0, "{out}");
    for bad in [
        "onload=",
        "onerror=",
        "javascript:",
        "&#106;ava",
        "srcdoc",
        "refresh",
        "iso-8859-1",
        "alert(1)",
        "alert(3)",
    ] {
        assert_eq!(count_ci(&out, bad), 0, "{bad} survived");
    }
    // What is not script is kept: text, ordinary links, alt text, the textarea's text.
    for keep in [
        "Visible words stay here",
        "href=\"/ok\"",
        "alt=\"pic\"",
        "&lt;script> in text",
    ] {
        assert!(out.contains(keep), "{keep} lost");
    }
    // No script element in the result, as a browser's parser would see it.
    assert!(!element_names(&out).iter().any(|t| t == "script"));
    assert!(out.contains("Content-Security-Policy"));
    assert!(out.contains("script-src 'none'") || out.contains("default-src 'none'"));
}

#[test]
fn text_is_escaped() {
    let a = analyse_html(
        "<html><body><div><p>Tom &amp; Jerry &lt;b&gt; kept as written, with more words here.</p></div></body></html>",
    );
    let out = render(&a, &opts("<b>\"a&b's\"</b>"));
    assert!(
        out.contains("&lt;b&gt;&quot;a&amp;b&#39;s&quot;&lt;/b&gt;"),
        "{out}"
    );
    assert!(!out.contains("<b>\"a&b"));
    // The page's own text is copied byte for byte, entities included.
    assert!(out.contains("Tom &amp; Jerry &lt;b&gt; kept as written"));
}

#[test]
fn implied_body_and_open_ends_still_get_outline_and_legend() {
    // No <body> tag: the root segment is outlined through the `body` selector.
    let a =
        analyse_html("<title>x</title><p>Only a paragraph of words, nothing else at all here.</p>");
    let n = a.segmentation.segments.len();
    let out = render(&a, &opts("implied"));
    assert!(out.contains(&format!("; {n} outlined")), "{out}");
    assert!(out.contains("body{outline:"), "{out}");
    // A comment or a title left open at the end must not swallow the legend.
    for tail in [
        "<!-- never closed",
        "<textarea>never closed",
        "<title>never closed",
    ] {
        let a = analyse_html(&format!(
            "<html><body><p>Some words in a paragraph.</p>{tail}"
        ));
        let out = render(&a, &opts("open"));
        assert!(
            element_names(&out).iter().any(|t| t == "pl-legend"),
            "{tail}: {out}"
        );
    }
}

#[test]
fn boxes_overlay_draws_one_box_per_segment_with_area() {
    let a = analyse_html(&std::fs::read_to_string(example("news-article")).unwrap());
    let mut o = opts("boxes");
    o.boxes_overlay = true;
    let out = render(&a, &o);
    let rects = &a.features.layout.rects;
    let with_area = a
        .segmentation
        .segments
        .iter()
        .filter(|s| rects[s.node].w > 0.0 && rects[s.node].h > 0.0)
        .count();
    assert!(with_area > 0);
    assert_eq!(out.matches("<pl-box ").count(), with_area);
    assert!(!render(&a, &opts("no boxes")).contains("<pl-box "));
}

#[test]
fn million_deep_page() {
    const DEPTH: usize = 1_000_000;
    let mut html = String::with_capacity(DEPTH * 6 + 64);
    html.push_str("<html><body>");
    for _ in 0..DEPTH {
        html.push_str("<span>");
    }
    html.push_str("deep words here");
    let a = analyse_html(&html);
    let out = render(&a, &opts("deep"));
    assert_eq!(outlined(&out).len(), a.segmentation.segments.len());
    assert!(out.contains("<pl-legend"));
    assert!(out.len() > html.len());
    drop(a);
}

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_pagelevel"))
}

fn temp_dir(test: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("pagelevel-view-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

#[test]
fn cli_writes_the_view_and_matches_segment() {
    let dir = temp_dir("cli");
    let page = example("news-article");
    let out_path = dir.join("view.html");
    let run = bin()
        .args([
            "view",
            page.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
            "--boxes-overlay",
        ])
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let html = std::fs::read_to_string(&out_path).unwrap();
    let seg = bin()
        .args(["segment", page.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(seg.status.success());
    let v: serde_json::Value = serde_json::from_slice(&seg.stdout).unwrap();
    let n = v["segments"].as_array().unwrap().len();
    assert_eq!(
        outlined(&html).len(),
        n,
        "one outline per segment of `segment`"
    );
    assert_eq!(count_ci(&html, "<script"), 0);
    assert!(html.contains("news-article.html"), "legend names the page");
    // Flags of the pipeline reach the view: the basic variant is named in the legend.
    let basic = dir.join("basic.html");
    let run = bin()
        .args([
            "view",
            page.to_str().unwrap(),
            "-o",
            basic.to_str().unwrap(),
            "--variant",
            "basic",
        ])
        .output()
        .unwrap();
    assert!(run.status.success());
    assert!(std::fs::read_to_string(&basic)
        .unwrap()
        .contains("variant basic"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cli_missing_input_is_a_clear_error() {
    let dir = temp_dir("missing");
    let out_path = dir.join("never.html");
    let missing = dir.join("no-such-page.html");
    let run = bin()
        .args([
            "view",
            missing.to_str().unwrap(),
            "-o",
            out_path.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("no-such-page.html") && err.contains("cannot read"),
        "{err}"
    );
    assert!(!out_path.exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn screenshot_when_chromium_is_installed() {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("chromium").is_file()));
    if !on_path {
        eprintln!("screenshot_when_chromium_is_installed: skipped: chromium is not on PATH");
        return;
    }
    let dir = temp_dir("shot");
    let html = dir.join("view.html");
    // windows-1252 on disk: the view is UTF-8 and must say so.
    let page = Page::from_path(&example("forum-thread"), None, &Limits::default()).unwrap();
    let a = analyze(page, Model::embedded(), &Options::default());
    std::fs::write(&html, render(&a, &opts("forum-thread"))).unwrap();
    let png = dir.join("view.png");
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/screenshot.sh");
    let run = Command::new("bash")
        .arg(&script)
        .args([html.as_os_str(), png.as_os_str()])
        .arg("1280,800")
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let bytes = std::fs::read(&png).unwrap();
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n") && bytes.len() > 10_000);
    let _ = std::fs::remove_dir_all(&dir);
}
