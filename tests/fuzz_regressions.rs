//! Replays every kept fuzz input (the minimised corpus in `fuzz/corpus/<target>/` and the
//! crash reproducers in `fuzz/crashes/<target>/`) through the same function the cargo-fuzz
//! target calls, so CI checks them without cargo-fuzz or a nightly toolchain. A panic in
//! the replayed function is the failure; errors are expected answers for most inputs.

use std::path::{Path, PathBuf};

/// Every file kept for `target`, sorted; counts the corpus files separately.
fn inputs(target: &str) -> (Vec<PathBuf>, usize) {
    let fuzz = Path::new(env!("CARGO_MANIFEST_DIR")).join("fuzz");
    let mut all = Vec::new();
    let mut corpus = 0;
    for dir in ["corpus", "crashes"] {
        let Ok(entries) = std::fs::read_dir(fuzz.join(dir).join(target)) else {
            continue;
        };
        let mut files: Vec<PathBuf> = entries.map(|e| e.unwrap().path()).collect();
        files.sort();
        if dir == "corpus" {
            corpus = files.len();
        }
        all.extend(files);
    }
    (all, corpus)
}

fn replay(target: &str, body: impl Fn(&[u8])) {
    let (files, corpus) = inputs(target);
    // The corpus is committed: an empty one means it went missing, not that all is well.
    assert!(corpus >= 10, "{target}: only {corpus} corpus files");
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f.display().to_string();
        if std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| body(&data))).is_err() {
            panic!("{name} panics (replay: cargo fuzz run {target} {name})");
        }
    }
    println!("{target}: {} inputs replayed", files.len());
}

#[test]
fn pipeline_corpus_and_crashes() {
    replay("pipeline", |d| {
        let _ = pagelevel::fuzzing::pipeline(d);
        // Every page of the corpus is a parser input too: both parsers must agree on it.
        pagelevel::fuzzing::parser(d);
    });
}

#[test]
fn smooth_corpus_and_crashes() {
    replay("smooth", |d| {
        let _ = smoothing::fuzzing::smooth(d);
    });
}

#[test]
fn warc_corpus_and_crashes() {
    replay("warc", |d| {
        let _ = pagelevel::fuzzing::warc(d);
    });
}

#[test]
fn render_corpus_and_crashes() {
    replay("render", |d| {
        let _ = pagelevel::fuzzing::render(d);
    });
    // Any page is a render input: the pipeline's corpus goes through the renderers too.
    replay("pipeline", |d| {
        let _ = pagelevel::fuzzing::render(d);
    });
}

#[test]
fn view_corpus_and_crashes() {
    replay("view", |d| {
        let _ = pagelevel::fuzzing::view(d);
    });
}

#[test]
fn parser_crashes() {
    // The parser target runs on the pipeline's corpus (replayed above through
    // `fuzzing::parser`); its own folder keeps only the crash reproducers.
    let (files, _) = inputs("parser");
    assert!(!files.is_empty(), "no fuzz/crashes/parser inputs");
    for f in &files {
        let data = std::fs::read(f).unwrap();
        let name = f.display().to_string();
        if std::panic::catch_unwind(|| pagelevel::fuzzing::parser(&data)).is_err() {
            panic!("{name} panics (replay: cargo fuzz run parser {name})");
        }
    }
    println!("parser: {} crash inputs replayed", files.len());
}
