//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;
use std::sync::{RwLock, RwLockReadGuard, RwLockWriteGuard};

use pagelevel::input::manifest::{shared_data, Manifest};

/// Every test module is one binary whose tests run in parallel threads (before, each file was
/// a binary of its own, run one after another), so a test that measures time could share the
/// 2 cores of a CI machine with another module's data set. This lock keeps them apart: a
/// test that asserts on time (a bound on how long a step takes, a deadline that a page must
/// meet or must stop near, a process that must exit within seconds) takes it alone,
/// [`timed`]; a test that keeps the cores busy for long (a whole data set, a pool or a
/// batch of processes of its own) takes it shared, [`heavy`], beside other heavy tests. Light
/// tests take nothing. Not reentrant: a test takes one guard, once.
static MACHINE: RwLock<()> = RwLock::new(());

/// The machine to this test alone, among the timed and heavy tests, until the guard drops. A
/// panicking holder poisons nothing: the guard is taken either way.
pub fn timed() -> RwLockWriteGuard<'static, ()> {
    MACHINE.write().unwrap_or_else(|e| e.into_inner())
}

/// The machine shared with other heavy tests, never with a [`timed`] one, until the guard drops.
pub fn heavy() -> RwLockReadGuard<'static, ()> {
    MACHINE.read().unwrap_or_else(|e| e.into_inner())
}

/// The shared data folder, or `None` after printing a skip message.
pub fn data_or_skip(test: &str) -> Option<PathBuf> {
    let d = shared_data();
    if d.is_none() {
        eprintln!("{test}: skipped: ../shared/data is absent");
    }
    d
}

/// Loads `<data>/<set>/manifest.jsonl`.
pub fn manifest(data: &std::path::Path, set: &str) -> Manifest {
    Manifest::load(&data.join(set).join("manifest.jsonl"), None).expect("manifest")
}

/// Raw bytes of a `.html.gz` page.
pub fn gunzip(path: &std::path::Path) -> Vec<u8> {
    let f = std::fs::File::open(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    flate2::read::MultiGzDecoder::new(f)
        .read_to_end(&mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

/// Asserts that `text` holds each of `phrases`.
pub fn assert_holds(text: &str, phrases: &[&str]) {
    for p in phrases {
        assert!(text.contains(p), "{p}: {text}");
    }
}

/// Asserts that `text` holds none of `phrases`.
pub fn assert_lacks(text: &str, phrases: &[&str]) {
    for p in phrases {
        assert!(!text.contains(p), "{p}: {text}");
    }
}

/// The raw bytes of the shared page `path` (a `.html.gz` under the data folder), or `None`
/// after printing `test`'s skip message when the data is absent.
pub fn shared_page(test: &str, path: &str) -> Option<Vec<u8>> {
    Some(gunzip(&data_or_skip(test)?.join(path)))
}

/// The pipeline's main text of `bytes` (embedded model, `opts`) with the classifier's verdict
/// replaced: node `i` is template exactly when `template(dom, i)` (its score 1, else 0), so that
/// the main-text rules, not the model, decide what is kept.
pub fn main_text_judged(
    bytes: &[u8],
    opts: &pagelevel::pipeline::Options,
    template: impl Fn(&pagelevel::dom::Dom, usize) -> bool,
) -> String {
    use pagelevel::{model::Model, pipeline::analyze, pipeline::Analysis, Page};
    let page = Page::from_bytes(bytes, &pagelevel::PageOptions::default()).unwrap();
    let mut a = analyze(page, Model::embedded(), opts);
    let dom = &a.page.dom;
    let seg = &mut a.segmentation;
    for (i, (t, y)) in seg.template.iter_mut().zip(seg.y.iter_mut()).enumerate() {
        *t = template(dom, i);
        if !y.is_nan() {
            *y = *t as u8 as f32;
        }
    }
    // The rules run on the judged segmentation.
    Analysis::new(a.page, a.features, a.segmentation, opts).main_text()
}

/// The main text `pagelevel::extract` gives `bytes` (embedded model) at `url`, when given,
/// under `rules`: a rule's effect on a real page is this with and without it.
pub fn extract_text(bytes: &[u8], rules: pagelevel::rules::RuleSet, url: Option<&str>) -> String {
    let opts = pagelevel::ExtractOptions {
        url: url.map(str::to_owned),
        pipeline: pagelevel::pipeline::Options {
            rules,
            ..Default::default()
        },
        ..Default::default()
    };
    pagelevel::extract(bytes, &opts).unwrap().text
}

/// The main text of a shared page (`path` under the data folder, at `url` when given) with
/// every rule, and without `rule`; `None` (the test skipped) without the data.
pub fn on_and_off(
    test: &str,
    path: &str,
    url: Option<&str>,
    rule: pagelevel::rules::Rule,
) -> Option<(String, String)> {
    use pagelevel::rules::RuleSet;
    let bytes = shared_page(test, path)?;
    Some((
        extract_text(&bytes, RuleSet::ALL, url),
        extract_text(&bytes, RuleSet::ALL.without(rule), url),
    ))
}
