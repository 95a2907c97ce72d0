//! `pagelevel view`: one outline per segment, the legend, escaping, deep pages, the CLI; a
//! hostile corpus whose views must be inert as a scripting-on parser builds them; and, when
//! Chromium is installed, a screenshot and a check that a hostile view makes no request.

use crate::common;

use std::path::{Path, PathBuf};
use std::process::Command;

use pagelevel::dom::{self, Kind};
use pagelevel::model::Model;
use pagelevel::output::view::{render, ViewOptions};
use pagelevel::pipeline::{analyze, Analysis, Options};
use pagelevel::{Limits, Page};

const EXAMPLES: [&str; 3] = ["news-article", "product-listing", "forum-thread"];

fn example(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/examples")
        .join(format!("{name}.html"))
}

fn analyse_html(html: &str) -> Analysis {
    let page = Page::from_bytes(html.as_bytes(), &pagelevel::PageOptions::default()).unwrap();
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
        let page = Page::from_path(&path, &pagelevel::PageOptions::default()).unwrap();
        let a = analyze(page, Model::embedded(), &Options::default());
        let html = render(&a, &opts(name)).unwrap();
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
        assert_eq!(
            html,
            render(&a, &opts(name)).unwrap(),
            "{name}: deterministic"
        );
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
    let out = render(&a, &opts("hostile")).unwrap();
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
    let out = render(&a, &opts("<b>\"a&b's\"</b>")).unwrap();
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
    let out = render(&a, &opts("implied")).unwrap();
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
        let out = render(&a, &opts("open")).unwrap();
        assert!(
            element_names(&out).iter().any(|t| t == "pl-legend"),
            "{tail}: {out}"
        );
    }
}

#[test]
fn the_legend_is_html_whatever_the_page_leaves_open() {
    for page in [
        "<p>words</p><svg><text>open",
        "<p>words</p><math><mi>open",
        "<p>words</p><select><option>open",
        // A removed unknown SVG element takes the `</svg>` with it.
        "<p>words</p><svg><mi></svg>more words",
    ] {
        let out = render(&analyse_html(page), &opts("open")).unwrap();
        let d = dom::parse(&out, &Limits::default()).unwrap();
        let legend = (0..d.len())
            .find(|&i| d.node(i).kind == Kind::Element && d.tag_name(i) == "pl-legend")
            .unwrap_or_else(|| panic!("{page}: no legend"));
        assert!(
            !d.node(legend).foreign,
            "{page}: the legend is in SVG or MathML"
        );
    }
}

#[test]
fn boxes_overlay_draws_one_box_per_segment_with_area() {
    let a = analyse_html(&std::fs::read_to_string(example("news-article")).unwrap());
    let mut o = opts("boxes");
    o.boxes_overlay = true;
    let out = render(&a, &o).unwrap();
    let rects = &a.features.layout.rects;
    let with_area = a
        .segmentation
        .segments
        .iter()
        .filter(|s| rects[s.node].w > 0.0 && rects[s.node].h > 0.0)
        .count();
    assert!(with_area > 0);
    assert_eq!(out.matches("<pl-box ").count(), with_area);
    assert!(!render(&a, &opts("no boxes")).unwrap().contains("<pl-box "));
}

#[test]
fn million_deep_page() {
    // Heavy: a 1,000,000-deep page.
    let _machine = common::heavy();
    const DEPTH: usize = 1_000_000;
    let mut html = String::with_capacity(DEPTH * 6 + 64);
    html.push_str("<html><body>");
    for _ in 0..DEPTH {
        html.push_str("<span>");
    }
    html.push_str("deep words here");
    let a = analyse_html(&html);
    let out = render(&a, &opts("deep")).unwrap();
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

/// Debian's `chromium`, if installed (on PATH).
fn chromium() -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|d| d.join("chromium"))
        .find(|p| p.is_file())
}

#[test]
fn screenshot_when_chromium_is_installed() {
    // Heavy: a browser.
    let _machine = common::heavy();
    if chromium().is_none() {
        eprintln!("screenshot_when_chromium_is_installed: skipped: chromium is not on PATH");
        return;
    }
    let dir = temp_dir("shot");
    let html = dir.join("view.html");
    // windows-1252 on disk: the view is UTF-8 and must say so.
    let page =
        Page::from_path(&example("forum-thread"), &pagelevel::PageOptions::default()).unwrap();
    let a = analyze(page, Model::embedded(), &Options::default());
    std::fs::write(&html, render(&a, &opts("forum-thread")).unwrap()).unwrap();
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

/// Hostile pages: each tries to run script, navigate, submit, embed or load from `HOST` (a
/// placeholder for the server it points at) in one way. Names say how.
const HOSTILE: &[(&str, &str)] = &[
    (
        "non-ascii-attribute-name",
        "<p a\u{e9}>hello</p><p \u{e9}=1 onclick=alert(1) a\u{e9}b=2>x</p>",
    ),
    (
        "refresh-by-reference",
        r#"<meta http-equiv="&#82;efresh" content="0;url=http://HOST/refresh-ref"><p>words</p>"#,
    ),
    (
        "refresh-after-lt-in-value",
        r#"<meta name="a<b>" http-equiv=refresh content="0;url=http://HOST/refresh-lt"><p>words</p>"#,
    ),
    (
        "refresh-plain",
        r#"<meta http-equiv=refresh content="0; url=http://HOST/refresh">"#,
    ),
    (
        "lt-in-earlier-values",
        r#"<img alt="a<b>" src=x onerror=alert(1)><a title="<" href="javascript:alert(2)">x</a><iframe title="<" srcdoc="<script>alert(3)</script>"></iframe><img title='<p>' srcset="http://HOST/srcset-lt 1x">"#,
    ),
    (
        "noscript-attribute",
        r#"<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript><p>after</p>"#,
    ),
    (
        "noscript-markup",
        r#"<noscript><img src="http://HOST/noscript.png"><meta http-equiv=refresh content="0;url=http://HOST/noscript-refresh"></noscript>"#,
    ),
    (
        "second-body",
        r#"<body onload=alert(1)><p>x</p><body onpageshow=alert(2) onload=alert(3) background="http://HOST/body2.png">"#,
    ),
    (
        "declarative-shadow-root",
        r#"<div><template shadowrootmode=open><script>alert(1)</script><img src=x onerror=alert(2)><slot></slot></template>light</div><template><img src="http://HOST/template.png"></template>"#,
    ),
    (
        "long-references",
        r#"<a href="&#0000000000106;avascript:alert(1)">a</a><a href="&#x00000000006A;avascript:alert(2)">b</a><a href="java&#x09;script:alert(3)">c</a><a href="jav&#x0A;ascript:alert(4)">d</a><a href="JAVASCRIPT:alert(5)">e</a><a href="&#x6A&#x61vascript&colon;alert(6)">f</a><a href="javascript&#58;alert(7)">g</a><a href=" &#1;javascript:alert(8)">h</a><a href="vbscript:msgbox(9)">i</a>"#,
    ),
    (
        "svg-animation",
        r#"<svg><a><animate attributeName=href values="javascript:alert(1)"/><set attributeName=href to="javascript:alert(2)"/><animateMotion/><text y=20>click</text></a><animate attributeName=href from="http://HOST/anim" to="http://HOST/anim"/></svg>"#,
    ),
    (
        "base",
        r#"<base href="http://HOST/base/"><img src="rel.png"><a href="rel">r</a>"#,
    ),
    (
        "frames",
        r#"<iframe src="http://HOST/iframe"></iframe><iframe srcdoc="<img src=http://HOST/srcdoc>"></iframe><frameset onload=alert(1)><frame src="http://HOST/frame"></frameset>"#,
    ),
    (
        "embeddings",
        r#"<object data="http://HOST/object"><param name=movie value="http://HOST/param"></object><embed src="http://HOST/embed"><applet code=x codebase="http://HOST/applet"></applet><object data="data:text/html,<script>alert(1)</script>"></object><portal src="http://HOST/portal"></portal>"#,
    ),
    (
        "forms",
        r#"<form action="http://HOST/form" method=post><input name=q value=x autofocus onfocus=alert(1)><input type=image src="http://HOST/input-image"><button formaction="javascript:alert(2)">go</button><button form=f2 formaction="http://HOST/formaction">go</button></form><form id=f2 action="javascript:alert(3)"></form><isindex action="http://HOST/isindex">"#,
    ),
    (
        "link-rels",
        r#"<link rel=dns-prefetch href="//HOST"><link rel=preconnect href="http://HOST/preconnect"><link rel=prefetch href="http://HOST/prefetch"><link rel=preload as=image href="http://HOST/preload"><link rel=modulepreload href="http://HOST/modulepreload"><link rel=icon href="http://HOST/icon"><link rel=stylesheet href="http://HOST/link.css"><link rel="stylesheet prefetch" href="http://HOST/link2.css"><link rel=import href="http://HOST/import"><link rel=manifest href="http://HOST/manifest">"#,
    ),
    (
        "foreign-links",
        r#"<svg><a xlink:href="javascript:alert(1)"><circle r=5></circle></a><a href="javascript:alert(2)"><text>t</text></a></svg><math href="javascript:alert(3)"><mi xlink:href="javascript:alert(4)">x</mi></math>"#,
    ),
    (
        "image-loads",
        r#"<img src="http://HOST/img"><img srcset="http://HOST/srcset 1x, //HOST/srcset2 2x"><picture><source srcset="http://HOST/source-srcset"><img src="data:image/png;base64,AAAA"></picture><video poster="http://HOST/poster" src="http://HOST/video"><source src="http://HOST/video-source"><track src="http://HOST/track"></video><audio src="http://HOST/audio"></audio><image src="http://HOST/image-element"><table background="http://HOST/table-bg"><tr><td background="http://HOST/td-bg">c</td></tr></table>"#,
    ),
    (
        "svg-loads",
        r##"<svg><image href="http://HOST/svg-image"/><image xlink:href="http://HOST/svg-image-xlink"/><use href="http://HOST/use.svg#a"/><use href="#ok"/><filter id=f><feImage href="http://HOST/feimage"/></filter><rect fill="url(http://HOST/fill.svg#p)" filter="url(#f)" width=5 height=5 /><style>@import url(http://HOST/svg-style.css)</style><script href="http://HOST/svg-script"></script></svg>"##,
    ),
    (
        "meta-others",
        r#"<meta http-equiv=set-cookie content="a=b"><meta http-equiv=content-security-policy content="script-src *"><meta charset=iso-8859-1><meta name=viewport content="width=device-width"><meta http-equiv=link content="<http://HOST/meta-link>; rel=preload">"#,
    ),
    (
        "ping",
        r#"<a ping="http://HOST/ping" href="/ok">ok</a><a href="/ok2" attributionsrc="http://HOST/attribution">ok2</a>"#,
    ),
    (
        "style-sheet-loads",
        r#"<style>@import url(http://HOST/import.css); @import 'http://HOST/import2.css'; @\69mport "http://HOST/import3.css"; body{background:url(http://HOST/sheet-bg)} @font-face{font-family:x;src:url(//HOST/font.woff)} .a{background:image-set("http://HOST/image-set" 1x)} .b{background:u\72l(http://HOST/escaped-url)} .c{cursor:url('http://HOST/cursor'),auto} .d{background:-webkit-image-set(url(http://HOST/wis) 1x)}</style><p class=a>styled</p>"#,
    ),
    (
        "style-attribute-loads",
        r#"<div style="background:url(http://HOST/style-attr)">a</div><div style="background:url(&quot;http://HOST/style-attr-quoted&quot;)">b</div><div style="background:&#117;rl(http://HOST/style-attr-ref)">c</div><div style="list-style:url(//HOST/list)">d</div><div style="behavior:url(x.htc);-moz-binding:url(http://HOST/binding.xml#x)">e</div>"#,
    ),
    (
        "data-urls",
        r#"<a href="data:text/html,<script>alert(1)</script>">d</a><img src="data:image/svg+xml,<svg onload=alert(2)>"><a href="DaTa:text/html;base64,PHNjcmlwdD5hbGVydCgzKTwvc2NyaXB0Pg==">e</a>"#,
    ),
    (
        "svg-style-script",
        r#"<svg><style>@import url(http://HOST/svg-style2.css);</style><script>alert(1)</script><script xlink:href="http://HOST/svg-script2"/></svg>"#,
    ),
    (
        "mxss-mglyph",
        r#"<math><mtext><table><mglyph><style><img src=x onerror=alert(1)></style></mglyph></table></mtext></math>"#,
    ),
    (
        "svg-style-breakout",
        r#"<svg></p><style><a id="</style><img src=x onerror=alert(1)>"></style></svg>"#,
    ),
    (
        "select-raw-text",
        r#"<select><style><img src=x onerror=alert(1)></style><template><style></template><img src=x onerror=alert(2)></style></template><xmp><script>alert(3)</script></xmp></select>"#,
    ),
    (
        "raw-text-elements",
        r#"<xmp><img src=x onerror=alert(1)></xmp><noembed><img src=x onerror=alert(2)></noembed><noframes><img src=x onerror=alert(3)></noframes><title><img src=x onerror=alert(4)></title><textarea></textarea><img src=x onerror=alert(5)></textarea>"#,
    ),
    (
        "comments-and-cdata",
        r#"<!--<img src=x onerror=alert(1)>--><!--x--!><img src=x onerror=alert(2)>--><![CDATA[<img src=x onerror=alert(3)>]]><svg><![CDATA[</svg><img src=x onerror=alert(4)>]]></svg><p>end</p>"#,
    ),
    (
        "unterminated",
        r#"<p>words</p><img src=x onerror=alert(1)//"#,
    ),
    (
        "unterminated-href",
        r#"<p>words</p><a href="javascript:alert(1)"#,
    ),
    (
        "style-moved-into-svg",
        r#"<svg><mi><circle></circle></svg><style>.a{background:u&#x72;l(http://HOST/ref-in-svg-style)}</style><p class=a>words</p>"#,
    ),
    (
        "unterminated-before-value",
        r#"<p>words</p><img src=x onerror="#,
    ),
    (
        "unterminated-end-tag",
        r#"<p>words</p></p a="<img src=x onerror=alert(1)>"#,
    ),
    (
        "plaintext",
        r#"<p>before</p><plaintext><img src=x onerror=alert(1)>"#,
    ),
    (
        "misc-handlers",
        r#"<details open ontoggle=alert(1)><summary>s</summary></details><marquee onstart=alert(2)>m</marquee><keygen autofocus onfocus=alert(3)><svg onload=alert(4)></svg><body/onload=alert(5)><div/onclick=alert(6)>x</div>"#,
    ),
    (
        "forged-outlines",
        r#"<div data-pl-c="t4" data-pl-seg="0"><p data-pl-seg="99">x</p></div>"#,
    ),
    (
        "html-manifest",
        r#"<html manifest="http://HOST/manifest2" xmlns="http://www.w3.org/1999/xhtml"><head><title>t</title></head><body><p>words</p></body></html>"#,
    ),
    (
        "foreign-object",
        r#"<svg><foreignObject><iframe src="http://HOST/fo-iframe"></iframe><img src="http://HOST/fo-img" onerror=alert(1)><form action="http://HOST/fo-form"></form></foreignObject></svg>"#,
    ),
    (
        "scheme-relative",
        r#"<img src="//HOST/scheme-relative"><img src="/\HOST/backslash"><img src="\\HOST/backslashes">"#,
    ),
    (
        "page-csp-first",
        r#"<!DOCTYPE html><!-- c --><html><head><meta http-equiv="Content-Security-Policy" content="default-src *"><base href="http://HOST/"><link rel=stylesheet href="x.css"></head><body><p>words</p></body></html>"#,
    ),
    (
        "text-first",
        r#"Some words before any tag <img src="http://HOST/text-first">"#,
    ),
];

/// The hostile pages with `HOST` replaced.
fn hostile_pages(host: &str) -> Vec<(&'static str, String)> {
    HOSTILE
        .iter()
        .map(|(name, html)| (*name, html.replace("HOST", host)))
        .collect()
}

/// Every option set a view is checked under: remote loads off and on, page styles on and off.
fn option_sets() -> Vec<ViewOptions> {
    let mut sets = Vec::new();
    for allow_remote in [false, true] {
        for page_styles in [true, false] {
            sets.push(ViewOptions {
                label: "hostile".to_owned(),
                allow_remote,
                page_styles,
                boxes_overlay: allow_remote,
                ..ViewOptions::default()
            });
        }
    }
    sets
}

#[test]
fn hostile_corpus_is_inert() {
    let mut names = std::collections::HashSet::new();
    for (name, html) in hostile_pages("evil.example") {
        assert!(names.insert(name), "{name} twice");
        // Spans kept (as the CLI parses) and skipped (parsed again inside render).
        for spans in [pagelevel::Spans::Keep, pagelevel::Spans::Skip] {
            let page = Page::from_bytes(
                html.as_bytes(),
                &pagelevel::PageOptions {
                    deadline: Some(&pagelevel::config::Deadline::none()),
                    spans,
                    ..Default::default()
                },
            )
            .unwrap();
            let a = analyze(page, Model::embedded(), &Options::default());
            for o in option_sets() {
                let out = render(&a, &o).unwrap();
                let caught = std::panic::catch_unwind(|| {
                    pagelevel::fuzzing::assert_inert(&out, o.allow_remote)
                });
                assert!(caught.is_ok(), "{name} (remote {}): {out}", o.allow_remote);
                // The host is gone too, but where it stays as plain text: in the sheet of
                // `style-moved-into-svg`, whose `u&#x72;l(` is escaped, not a URL.
                if !o.allow_remote && name != "style-moved-into-svg" {
                    assert!(!out.contains("evil.example"), "{name}: {out}");
                }
                assert_eq!(out, render(&a, &o).unwrap(), "{name}: deterministic");
            }
        }
    }
}

#[test]
fn hostile_pages_keep_their_words_and_look() {
    let page = |html: &str| render(&analyse_html(html), &opts("keep")).unwrap();
    // The non-ASCII attribute name that once panicked: the text stays.
    let out = page("<p a\u{e9}>hello</p>");
    assert!(out.contains(">hello</p>"), "{out}");
    // Classes, ids, inline styles and sheets stay; in-document references too.
    let out = page(
        r##"<style>.x{color:red}</style><div class="x" id="y" style="margin:1px"><svg viewBox="0 0 1 1"><use href="#i"/><rect fill="url(#g)"/></svg><a href="/ok" title="t">link</a></div>"##,
    );
    for keep in [
        ".x{color:red}",
        "class=\"x\"",
        "id=\"y\"",
        "style=\"margin:1px\"",
        "href=\"#i\"",
        "fill=\"url(#g)\"",
        "href=\"/ok\"",
        "viewbox=\"0 0 1 1\"",
    ] {
        assert!(out.contains(keep), "{keep} lost: {out}");
    }
    // A form's fields stay, in a custom element with the form's box.
    let out = page(r#"<form action="/s"><input name="q" value="v"></form>"#);
    assert!(out.contains("<pl-form "), "{out}");
    assert!(
        out.contains("<input name=\"q\" value=\"v\"></pl-form>"),
        "{out}"
    );
    // With remote loads allowed, http(s) images stay (and only those).
    let mut o = opts("remote");
    o.allow_remote = true;
    let out = render(
        &analyse_html(r#"<img src="https://example.com/a.png" alt="a"><img src="b.png">"#),
        &o,
    )
    .unwrap();
    assert!(
        out.contains("src=\"https://example.com/a.png\" alt=\"a\">"),
        "{out}"
    );
    assert!(!out.contains("b.png"), "{out}");
}

#[test]
fn random_bytes_do_not_panic() {
    // The issue's reproduction: random bytes hit a byte slice inside a character.
    let bytes = pagelevel::fuzzing::Xorshift(0x9e37_79b9_7f4a_7c15).bytes(2_000_000);
    let limits = Limits {
        max_nodes: usize::MAX,
        ..Limits::default()
    };
    // Behind an HTML signature, or the sniff would refuse them as binary data.
    let page = Page::from_bytes(
        &[&b"<p>"[..], &bytes].concat(),
        &pagelevel::PageOptions {
            limits,
            ..Default::default()
        },
    )
    .unwrap();
    let a = analyze(page, Model::embedded(), &Options::default());
    let out = render(&a, &opts("random")).unwrap();
    pagelevel::fuzzing::assert_inert(&out, false);
}

#[test]
fn hostile_corpus_seeds_the_view_fuzz_target() {
    // The fuzz target's seeds are these pages (host `evil.example`); PAGELEVEL_WRITE_SEEDS=1
    // writes them after a change here.
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz/corpus/view");
    let write = std::env::var_os("PAGELEVEL_WRITE_SEEDS").is_some();
    for (name, html) in hostile_pages("evil.example") {
        let path = dir.join(format!("hostile-{name}.html"));
        if write {
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(&path, &html).unwrap();
        }
        let seed = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e} (PAGELEVEL_WRITE_SEEDS=1 writes it)",
                path.display()
            )
        });
        assert_eq!(seed, html, "{} differs from HOSTILE", path.display());
    }
}

/// A web server on 127.0.0.1 (an ephemeral port) that answers every request with a small
/// body and records each connection it accepts: the request line, `(no request)` for a
/// connection that sends none (a preconnect), `(not HTTP)` for a TLS hello. It stops when
/// dropped, or after 120 s.
struct LogServer {
    port: u16,
    log: std::sync::Arc<std::sync::Mutex<Vec<String>>>,
    stop: std::sync::Arc<std::sync::atomic::AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl LogServer {
    fn start() -> LogServer {
        use std::io::{Read, Write};
        use std::sync::atomic::Ordering;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        let port = listener.local_addr().unwrap().port();
        let log = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let (log2, stop2) = (log.clone(), stop.clone());
        let thread = std::thread::spawn(move || {
            let started = std::time::Instant::now();
            while !stop2.load(Ordering::Relaxed) && started.elapsed().as_secs() < 120 {
                let Ok((mut conn, _)) = listener.accept() else {
                    std::thread::sleep(std::time::Duration::from_millis(5));
                    continue;
                };
                let _ = conn.set_nonblocking(false);
                let _ = conn.set_read_timeout(Some(std::time::Duration::from_millis(300)));
                let mut buf = vec![0u8; 8192];
                let mut got = 0;
                while got < buf.len() {
                    match conn.read(&mut buf[got..]) {
                        Ok(0) | Err(_) => break,
                        Ok(n) => got += n,
                    }
                    if buf[..got].windows(4).any(|w| w == b"\r\n\r\n") {
                        break;
                    }
                }
                let head = String::from_utf8_lossy(&buf[..got]);
                let line = head.lines().next().unwrap_or("");
                log2.lock().unwrap().push(if line.is_empty() {
                    "(no request)".to_owned()
                } else if !line.starts_with(|c: char| c.is_ascii_uppercase()) {
                    // An https: URL (scheme-relative ones become https:) sends a TLS hello.
                    "(not HTTP)".to_owned()
                } else {
                    line.to_owned()
                });
                let body = "/* pagelevel test server */";
                let _ = write!(
                    conn,
                    "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
                    body.len()
                );
            }
        });
        LogServer {
            port,
            log,
            stop,
            thread: Some(thread),
        }
    }

    /// Takes the log so far.
    fn take(&self) -> Vec<String> {
        std::mem::take(&mut *self.log.lock().unwrap())
    }
}

impl Drop for LogServer {
    fn drop(&mut self) {
        self.stop.store(true, std::sync::atomic::Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Loads `page` in headless Chromium (a fresh profile, networking extras off) for 3 s of
/// virtual time, and waits for it to exit (at most 30 s).
fn load_in_chromium(browser: &Path, page: &Path, profile: &Path) {
    let mut child = Command::new(browser)
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--disable-quic",
            "--no-first-run",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--virtual-time-budget=3000",
            "--dump-dom",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .arg(format!("file://{}", page.display()))
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    let started = std::time::Instant::now();
    while child.try_wait().unwrap().is_none() {
        if started.elapsed().as_secs() > 30 {
            let _ = child.kill();
            let _ = child.wait();
            panic!(
                "chromium did not exit within 30 s (a dialog open?) on {}",
                page.display()
            );
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    // Let connections still in flight land in the log.
    std::thread::sleep(std::time::Duration::from_millis(200));
}

/// Request paths that no view may ask for, even with `--allow-remote`: navigation, frames,
/// embeddings, forms, pings, preloads, scripts (`/js/…` is any payload that ran), the base,
/// and what the page hides in noscript, templates and SVG style or animation. A path ending
/// in `/` stands for every path under it.
const NEVER_REQUESTED: &[&str] = &[
    "/anim",
    "/applet",
    "/applet/",
    "/attribution",
    "/base/",
    "/binding.xml",
    "/embed",
    "/feimage",
    "/fo-form",
    "/fo-iframe",
    "/form",
    "/formaction",
    "/frame",
    "/icon",
    "/iframe",
    "/import",
    "/isindex",
    "/js/",
    "/link2.css",
    "/manifest",
    "/manifest2",
    "/meta-link",
    "/modulepreload",
    "/noscript-refresh",
    "/noscript.png",
    "/object",
    "/param",
    "/ping",
    "/portal",
    "/prefetch",
    "/preconnect",
    "/preload",
    "/refresh",
    "/refresh-lt",
    "/refresh-ref",
    "/script-fetch",
    "/script-src",
    "/srcdoc",
    "/svg-script",
    "/svg-script2",
    "/svg-style.css",
    "/svg-style2.css",
    "/template",
    "/use.svg",
];

#[test]
fn hostile_view_makes_no_requests_in_chromium() {
    // Timed: Chromium must exit within 30 s, the server stops after 120 s.
    let _machine = common::timed();
    let Some(browser) = chromium() else {
        eprintln!(
            "hostile_view_makes_no_requests_in_chromium: skipped: chromium is not installed \
             (apt-get install chromium)"
        );
        return;
    };
    let server = LogServer::start();
    let host = format!("127.0.0.1:{}", server.port);
    // One page with every hostile case; those that swallow the rest of the page go last.
    let last = [
        "plaintext",
        "unterminated-href",
        "unterminated-end-tag",
        "unterminated-before-value",
        "unterminated",
    ];
    let mut pages = hostile_pages(&host);
    pages.sort_by_key(|(name, _)| last.iter().position(|l| l == name));
    let html: String = pages.iter().map(|(_, p)| p.as_str()).collect();
    // Every script payload reports to the server when it runs (instead of opening a dialog,
    // which would block headless Chromium), and two plain scripts for the control.
    let html = format!(
        "<script>fetch('http://{host}/script-fetch')</script>\
         <script src=\"http://{host}/script-src\"></script>{}",
        html.replace("alert(", &format!("fetch('http://{host}/js/'+"))
    );
    let dir = temp_dir("chromium");
    let page = dir.join("hostile.html");
    std::fs::write(&page, &html).unwrap();
    let view = |name: &str, extra: &[&str]| {
        let out = dir.join(name);
        let run = bin()
            .args(["view", page.to_str().unwrap(), "-o", out.to_str().unwrap()])
            .args(extra)
            .output()
            .unwrap();
        assert!(
            run.status.success(),
            "{}",
            String::from_utf8_lossy(&run.stderr)
        );
        out
    };
    let inert = view("view.html", &[]);
    let remote = view("view-remote.html", &["--allow-remote"]);

    // The control: the page itself makes requests, so the check below can fail.
    load_in_chromium(&browser, &page, &dir.join("profile-page"));
    let control = server.take();
    eprintln!(
        "hostile_view_makes_no_requests_in_chromium: the unsanitised page made {} requests",
        control.len()
    );
    assert!(
        control.len() >= 5,
        "the control made too few requests: {control:?}"
    );

    load_in_chromium(&browser, &inert, &dir.join("profile-view"));
    let seen = server.take();
    assert!(seen.is_empty(), "the view made requests: {seen:?}");

    // With remote loads allowed, images, media, style sheets and fonts may load, nothing else.
    load_in_chromium(&browser, &remote, &dir.join("profile-remote"));
    for line in server.take() {
        let path = line.split(' ').nth(1).unwrap_or("");
        assert!(
            !NEVER_REQUESTED
                .iter()
                .any(|p| path == *p || (p.ends_with('/') && path.starts_with(p))),
            "the --allow-remote view requested {line:?}"
        );
    }
    drop(server);
    let _ = std::fs::remove_dir_all(&dir);
}
