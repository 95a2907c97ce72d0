//! Runs one job per input over a rayon pool and writes the results in input order, so the
//! output is identical for any thread count. A failing input is reported and the batch goes on.
//!
//! Inputs go to the pool in windows, and a window's results are written when it ends: a window
//! closes at [`WINDOW`] inputs or when its inputs' bytes reach [`window_budget`], so the bytes
//! in flight (inputs held, pages being parsed, results waiting) stay a small multiple of the
//! largest input's, however many inputs there are and however large each is.

use std::io::Write;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// Most inputs in a window (each may hold an open file and a result).
const WINDOW: usize = 64;

/// Bytes of inputs a window may always gather, however small the largest input is.
const WINDOW_BYTES: u64 = 64 << 20;

/// Bytes of inputs after which a window closes: [`WINDOW_BYTES`], or one input as large as
/// the largest so far per thread, so that every thread has an input while the bytes in flight
/// stay about (threads + 1) × the largest input's.
pub fn window_budget(threads: usize, largest: u64) -> u64 {
    WINDOW_BYTES.max((threads as u64).saturating_mul(largest))
}

/// Outcome of a whole batch.
pub struct Summary {
    /// Inputs whose job returned an error.
    pub failed: usize,
}

/// Runs `job` on every input; `job` returns the bytes to write for it, or an error message
/// that `on_error` turns into the bytes to write instead (and counts as a failure). `size` is
/// an input's size in bytes (a file's, from its metadata) for the window's byte budget.
pub fn run<I, F, E>(
    inputs: &[I],
    size: impl Fn(&I) -> u64,
    job: F,
    on_error: E,
) -> anyhow::Result<Summary>
where
    I: Sync,
    F: Fn(&I) -> anyhow::Result<Vec<u8>> + Sync,
    E: Fn(&I, &anyhow::Error) -> Vec<u8> + Sync,
{
    let bar = progress(inputs.len());
    let summary = run_stream(inputs.iter().map(|i| (i, size(i))), |input| {
        let r = match job(input) {
            Ok(bytes) => (bytes, false),
            Err(e) => (on_error(input, &e), true),
        };
        bar.inc(1);
        r
    })?;
    bar.finish_and_clear();
    Ok(summary)
}

/// The size of the file at `path` in bytes (0 when it cannot be told).
pub fn file_size(path: &std::path::Path) -> u64 {
    std::fs::metadata(path).map_or(0, |m| m.len())
}

/// A progress bar on stderr when it is a terminal, hidden otherwise.
pub fn progress(len: usize) -> ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(len as u64), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} pages {per_sec} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

/// Configures the global rayon pool; `0` means one thread per core.
pub fn threads(n: usize) -> anyhow::Result<()> {
    if n > 0 {
        rayon::ThreadPoolBuilder::new()
            .num_threads(n)
            .build_global()?;
    }
    Ok(())
}

/// The size of an input that cannot be told (a stream): its window closes after it.
pub const UNKNOWN_SIZE: u64 = u64::MAX;

/// Like [`run`] over a stream of inputs, each with its size in bytes ([`UNKNOWN_SIZE`] when it
/// cannot be told) (the records of a WARC file, pages opened one after another): inputs are taken until the window is full (see the
/// module docs), run, and their results written in stream order. `job` returns the bytes to
/// write and whether the input failed.
pub fn run_stream<T, F>(items: impl Iterator<Item = (T, u64)>, job: F) -> anyhow::Result<Summary>
where
    T: Send,
    F: Fn(T) -> (Vec<u8>, bool) + Sync,
{
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let threads = rayon::current_num_threads();
    let mut failed = 0;
    let mut largest = 0u64;
    let mut window: Vec<T> = Vec::new();
    let mut bytes = 0u64;
    // The next input is taken only after a full window is written: never one more in memory.
    let mut run = |window: Vec<T>, out: &mut std::io::BufWriter<_>| -> std::io::Result<()> {
        let results: Vec<(Vec<u8>, bool)> = window.into_par_iter().map(&job).collect();
        for (bytes, bad) in results {
            failed += bad as usize;
            out.write_all(&bytes)?;
        }
        Ok(())
    };
    for (item, size) in items {
        window.push(item);
        bytes = bytes.saturating_add(size);
        // An input of unknown size (a stream) closes its window without setting the budget.
        if size != UNKNOWN_SIZE {
            largest = largest.max(size);
        }
        if window.len() >= WINDOW || bytes >= window_budget(threads, largest) {
            run(std::mem::take(&mut window), &mut out)?;
            bytes = 0;
        }
    }
    run(window, &mut out)?;
    out.flush()?;
    Ok(Summary { failed })
}
