//! Runs one job per input over a rayon pool and writes the results in input order, so the
//! output is identical for any thread count. A failing input is reported and the batch goes on.

use std::io::Write;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use rayon::prelude::*;

/// Inputs handed to the pool at a time: bounds memory while keeping both cores busy.
const WINDOW: usize = 64;

/// Outcome of a whole batch.
pub struct Summary {
    /// Inputs whose job returned an error.
    pub failed: usize,
}

/// Runs `job` on every input; `job` returns the bytes to write for it, or an error message
/// that `on_error` turns into the bytes to write instead (and counts as a failure).
pub fn run<I, F, E>(inputs: &[I], job: F, on_error: E) -> anyhow::Result<Summary>
where
    I: Sync,
    F: Fn(&I) -> anyhow::Result<Vec<u8>> + Sync,
    E: Fn(&I, &anyhow::Error) -> Vec<u8> + Sync,
{
    let bar = progress(inputs.len());
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    for window in inputs.chunks(WINDOW) {
        let results: Vec<(Vec<u8>, bool)> = window
            .par_iter()
            .map(|input| {
                let r = match job(input) {
                    Ok(bytes) => (bytes, false),
                    Err(e) => (on_error(input, &e), true),
                };
                bar.inc(1);
                r
            })
            .collect();
        for (bytes, bad) in results {
            failed += bad as usize;
            out.write_all(&bytes)?;
        }
    }
    out.flush()?;
    bar.finish_and_clear();
    Ok(Summary { failed })
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

/// Like [`run`] over a stream (the records of a WARC file): items are taken `WINDOW` at a
/// time, so memory holds one window of items and results, and written in stream order.
/// `job` returns the bytes to write and whether the item failed.
pub fn run_stream<T, F>(items: impl Iterator<Item = T>, job: F) -> anyhow::Result<Summary>
where
    T: Send,
    F: Fn(T) -> (Vec<u8>, bool) + Sync,
{
    let stdout = std::io::stdout();
    let mut out = std::io::BufWriter::new(stdout.lock());
    let mut failed = 0;
    let mut items = items.peekable();
    while items.peek().is_some() {
        let window: Vec<T> = items.by_ref().take(WINDOW).collect();
        let results: Vec<(Vec<u8>, bool)> = window.into_par_iter().map(&job).collect();
        for (bytes, bad) in results {
            failed += bad as usize;
            out.write_all(&bytes)?;
        }
    }
    out.flush()?;
    Ok(Summary { failed })
}
