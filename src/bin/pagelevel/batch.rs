//! The binary's side of a batch: a progress bar, the thread count, and [`run`] over a slice
//! of inputs; the windowed runner is [`pagelevel::batch`].

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use pagelevel::batch::Summary;

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
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    let items = inputs.iter().map(|i| (i, Some(size(i))));
    let summary = pagelevel::batch::run_stream(items, &mut out, |input| {
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
