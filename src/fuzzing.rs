//! The bodies of the cargo-fuzz targets in `fuzz/`, here so that `tests/fuzz_regressions.rs`
//! replays kept inputs through exactly the code the fuzzer ran. Each returns normally on any
//! input; a panic is the bug the fuzzer looks for.

use crate::classify::Model;
use crate::pipeline::{run_bytes, Options};
use crate::Limits;

/// Bytes → decode → DOM → features → classifier → smoothing → segments and main text.
///
/// Returns the page's main text, or the error for it (a typed page error, never a panic).
pub fn pipeline(data: &[u8]) -> crate::Result<String> {
    let a = run_bytes(
        data,
        None,
        None,
        &Limits::default(),
        Model::embedded(),
        &Options::default(),
    )?;
    // What `pagelevel segment` prints for every segment.
    let dom = &a.page.dom;
    for s in &a.segmentation.segments {
        let _ = (dom.path(s.node), dom.tag_name(s.node));
        let _ = a.features.layout.rects[s.node];
    }
    Ok(a.main_text())
}

/// One line of the `smooth` binary's JSON Lines input, parsed, validated and solved.
pub fn smooth(data: &[u8]) -> Option<smoothing::Smoothed> {
    let line = std::str::from_utf8(data).ok()?;
    smoothing::jsonl::smooth_line(line).ok()
}
