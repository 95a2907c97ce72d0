//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::io::Read;
use std::path::PathBuf;

use pagelevel::manifest::{shared_data, Manifest};

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
