//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;

use pagelevel::input::manifest::{shared_data, Manifest};

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
