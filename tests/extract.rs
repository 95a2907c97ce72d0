//! The simple entry point `pagelevel::extract`: the same results as the stages called one by
//! one and as `pagelevel extract`, on the bundled example pages; options that reach the
//! pipeline; errors.

use crate::common;
use std::io::Write;
use std::path::PathBuf;
use std::process::Command;

use pagelevel::segment::Variant;
use pagelevel::{
    analyze, extract, Error, ExtractOptions, Format, Limits, Model, Options, OutputFormat, Page,
    PageOptions, Rule, RuleSet,
};

fn examples() -> Vec<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data/examples");
    let mut pages: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    assert!(!pages.is_empty(), "data/examples has no pages");
    pages
}

const URL: &str = "https://www.example.com/page";

#[test]
fn extract_equals_the_stages_one_by_one_in_every_format_and_variant() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    for path in examples() {
        let bytes = std::fs::read(&path).unwrap();
        for variant in [Variant::TreeFilter, Variant::Basic, Variant::SmoothViterbi] {
            let pipeline = Options {
                segment: pagelevel::segment::SegmentOptions {
                    variant,
                    ..Default::default()
                },
                ..Options::default()
            };
            let page = Page::from_bytes(&bytes, &PageOptions::url(Some(URL))).unwrap();
            let a = analyze(page, Model::embedded(), &pipeline);
            for format in OutputFormat::ALL {
                let opts = ExtractOptions {
                    format,
                    with_metadata: true,
                    pipeline: pipeline.clone(),
                    ..ExtractOptions::url(URL)
                };
                let got = extract(&bytes, &opts).unwrap();
                let want = match format {
                    OutputFormat::Text => a.main_text(),
                    OutputFormat::Markdown => a.main_rendered(Format::Markdown),
                    OutputFormat::Html => a.main_rendered(Format::Html),
                };
                let what = format!("{} {variant:?} {format:?}", path.display());
                assert!(!got.text.trim().is_empty(), "{what}: no text");
                assert_eq!(got.text, want, "{what}");
                assert_eq!(got.metadata, Some(a.metadata()), "{what}");
            }
        }
    }
}

#[test]
fn extract_equals_the_cli_with_metadata() {
    // Runs the pipeline or the binary over several pages: not beside a timed test.
    let _machine = common::heavy();
    let pages = examples();
    let out = Command::new(env!("CARGO_BIN_EXE_pagelevel"))
        .args(["extract", "--with-metadata", "--url", URL])
        .args(&pages)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), pages.len());
    for (path, line) in pages.iter().zip(lines) {
        let opts = ExtractOptions {
            with_metadata: true,
            ..ExtractOptions::url(URL)
        };
        let got = extract(&std::fs::read(path).unwrap(), &opts).unwrap();
        let mut want = line.as_object().unwrap().clone();
        assert_eq!(want.remove("path").unwrap(), path.display().to_string());
        assert_eq!(want.remove("text").unwrap(), got.text, "{}", path.display());
        assert_eq!(want, got.metadata.unwrap().to_json(), "{}", path.display());
    }
}

#[test]
fn gzip_and_a_transport_charset_are_read_like_the_cli() {
    let html = "<html><head><meta charset=\"windows-1251\"></head><body><article>\
                <p>Привет, мир. The harbour wall was rebuilt in granite after the storms.</p>\
                </article></body></html>";
    let cp1251: Vec<u8> = {
        let (bytes, _, _) = encoding_rs::WINDOWS_1251.encode(html);
        bytes.into_owned()
    };
    let plain = extract(&cp1251, &ExtractOptions::default()).unwrap();
    assert!(plain.text.starts_with("Привет, мир."), "{}", plain.text);
    let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    gz.write_all(&cp1251).unwrap();
    let gzipped = extract(&gz.finish().unwrap(), &ExtractOptions::default()).unwrap();
    assert_eq!(gzipped, plain);
    // The UTF-8 bytes of a decoded string, said to be UTF-8 by the transport: the <meta> loses.
    let utf8 = ExtractOptions {
        charset: Some("utf-8".into()),
        ..ExtractOptions::default()
    };
    assert_eq!(extract(html.as_bytes(), &utf8).unwrap().text, plain.text);
}

#[test]
fn switched_off_rules_reach_the_pipeline() {
    let para = "The river town rebuilt its old stone bridge this summer, and the engineers who \
                led the work explained how they matched the original lime mortar and why the \
                arches needed new foundations after two hundred years in the water. ";
    let comment = "I grew up next to that bridge and walked across it every morning on my way \
                   to school, so it is wonderful to see the arches restored with such care. ";
    let html = format!(
        "<html><head><title>The bridge is back</title></head><body><article>\
         <h1>The bridge is back</h1><p>{para}</p><p>{para}</p><p>{para}</p></article>\
         <div class=\"comments\"><div class=\"comment\"><p>{comment}</p></div>\
         <div class=\"comment\"><p>{comment}</p></div></div></body></html>"
    );
    let default = extract(html.as_bytes(), &ExtractOptions::default()).unwrap();
    assert!(default.text.contains("stone bridge") && !default.text.contains("I grew up"));
    // With no rules at all the text is the model's mask alone, as `analyze` gives it.
    let pipeline = Options {
        rules: RuleSet::NONE,
        ..Options::default()
    };
    let page = Page::from_bytes(html.as_bytes(), &PageOptions::default()).unwrap();
    let want = analyze(page, Model::embedded(), &pipeline).main_text();
    let opts = ExtractOptions {
        pipeline,
        ..ExtractOptions::default()
    };
    assert_eq!(extract(html.as_bytes(), &opts).unwrap().text, want);
    assert!(RuleSet::ALL.without(Rule::Comments) != RuleSet::ALL);
}

#[test]
fn bad_input_is_an_error_not_a_panic() {
    let pdf = extract(b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", &ExtractOptions::default());
    assert!(matches!(pdf, Err(Error::NotHtml { .. })), "{pdf:?}");
    let gzip = extract(
        b"\x1f\x8b\x08\x00not gzip",
        &ExtractOptions::url("https://x.example/p"),
    );
    let e = gzip.unwrap_err();
    assert!(matches!(e, Error::Gzip { .. }), "{e:?}");
    assert!(
        e.to_string()
            .starts_with("https://x.example/p: corrupt or truncated gzip"),
        "{e}"
    );
    let small = ExtractOptions {
        limits: Limits::sizes(100, 1000),
        ..ExtractOptions::default()
    };
    let big = extract(&[b'a'; 101], &small);
    assert!(
        matches!(
            big,
            Err(Error::TooLarge {
                size: 101,
                limit: 100,
                ..
            })
        ),
        "{big:?}"
    );
    // Nothing kept is no error: an empty text.
    assert_eq!(extract(b"", &ExtractOptions::default()).unwrap().text, "");
}
