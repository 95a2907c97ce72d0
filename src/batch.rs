//! Many inputs at once: one job per input over the rayon pool, results written in input order,
//! so the output is identical for any thread count. A failing input is reported and the batch
//! goes on.
//!
//! Inputs go to the pool in windows, and a window's results are written when it ends: a window
//! closes at [`WINDOW`] inputs or when its inputs' bytes reach [`window_budget`], so the bytes
//! in flight (inputs held, pages being parsed, results waiting) stay a small multiple of the
//! largest input's, however many inputs there are and however large each is.

use std::io::Write;
use std::path::{Path, PathBuf};

use rayon::prelude::*;

use crate::config::Deadline;
use crate::input::jobs::{Job, Jobs, Origin};
use crate::input::walk::Input;
use crate::input::warc;
use crate::model::Model;
use crate::pipeline::{analyze_within, Analysis, Options};
use crate::{Error, Limits, Page, PageOptions, Spans};

/// Most inputs in a window (each may hold an open file and a result).
pub const WINDOW: usize = 64;

/// Bytes of inputs a window may always gather, however small the largest input is.
pub const WINDOW_BYTES: u64 = 64 << 20;

/// Bytes of inputs after which a window closes: [`WINDOW_BYTES`], or one input as large as
/// the largest so far per thread, so that every thread has an input while the bytes in flight
/// stay about (threads + 1) × the largest input's.
pub fn window_budget(threads: usize, largest: u64) -> u64 {
    WINDOW_BYTES.max((threads as u64).saturating_mul(largest))
}

/// Outcome of a whole batch.
#[derive(Debug, Clone, Copy, Default)]
pub struct Summary {
    /// Inputs whose job failed.
    pub failed: usize,
}

/// Runs `job` on every input of a stream, each with its size in bytes (`None` when it cannot
/// be told, a stream: its window closes after it), on the current rayon pool, and writes the
/// bytes each returns to `out` in stream order; `job` also says whether its input failed.
/// Inputs are taken until the window is full (see the module docs), and the next one only after
/// a window is written.
///
/// # Errors
/// The first error writing to `out`.
pub fn run_stream<T, F>(
    items: impl Iterator<Item = (T, Option<u64>)>,
    out: &mut impl Write,
    job: F,
) -> std::io::Result<Summary>
where
    T: Send,
    F: Fn(T) -> (Vec<u8>, bool) + Sync,
{
    let mut failed = 0;
    run_stream_with(items, job, |(bytes, bad)| {
        failed += bad as usize;
        out.write_all(&bytes)
    })?;
    out.flush()?;
    Ok(Summary { failed })
}

/// Like [`run_stream`], but each result goes to `sink`, in stream order on the calling thread,
/// whatever it is (the bytes of a page, a file to write, a count).
///
/// # Errors
/// The first error `sink` returns; no input is taken after it.
pub fn run_stream_with<T, R, F, E>(
    items: impl Iterator<Item = (T, Option<u64>)>,
    job: F,
    mut sink: impl FnMut(R) -> Result<(), E>,
) -> Result<(), E>
where
    T: Send,
    R: Send,
    F: Fn(T) -> R + Sync,
{
    let threads = rayon::current_num_threads();
    let mut largest = 0u64;
    let mut window: Vec<T> = Vec::new();
    let mut bytes = 0u64;
    let mut run = |window: Vec<T>| -> Result<(), E> {
        let results: Vec<R> = window.into_par_iter().map(&job).collect();
        results.into_iter().try_for_each(&mut sink)
    };
    for (item, size) in items {
        window.push(item);
        bytes = bytes.saturating_add(size.unwrap_or(u64::MAX));
        // An input of unknown size closes its window without setting the budget.
        if let Some(size) = size {
            largest = largest.max(size);
        }
        if window.len() >= WINDOW || bytes >= window_budget(threads, largest) {
            run(std::mem::take(&mut window))?;
            bytes = 0;
        }
    }
    run(window)
}

/// What [`analyze_job`] runs the pipeline with.
#[derive(Debug, Clone, Copy)]
pub struct JobOptions<'a> {
    /// The model.
    pub model: &'a Model,
    /// The pipeline's settings.
    pub options: &'a Options,
    /// Size and time limits of each page (the time limit runs from the page's job).
    pub limits: Limits,
    /// Whether pages keep their byte spans.
    pub spans: Spans,
    /// The URL of the pages that are not WARC records (which carry their own) and have none of
    /// their own ([`Input::url`]).
    pub url: Option<&'a str>,
}

/// What [`run_inputs`] tells its caller as it goes (from any thread of the pool).
#[derive(Debug, Clone, Copy)]
pub enum Progress<'a> {
    /// A page file or standard input was analysed (or failed).
    Page,
    /// A WARC file was read to its end (each of its records counts as no [`Progress::Page`]).
    WarcDone {
        /// The WARC file.
        path: &'a Path,
        /// Its records that were skipped (not HTML responses).
        skipped: u64,
    },
}

/// Runs the pipeline on every input of `paths` (HTML files, `-` for standard input, WARC
/// files' records; see [`Jobs`]) with [`analyze_job`], in parallel windows ([`run_stream`]),
/// and writes what `emit` makes of each analysis, or `failed` of each error, to `out` in input
/// order. Inputs are opened once each and WARC files streamed. `progress` is told of each page
/// input and each WARC file done. Callers check `paths` with
/// [`crate::input::jobs::check_stdin`] first.
///
/// # Errors
/// The first error writing to `out`.
///
/// # Complexity
/// That of [`analyze_job`] per page; memory that of one window.
pub fn run_inputs<E>(
    paths: &[PathBuf],
    with: &JobOptions<'_>,
    out: &mut impl Write,
    emit: impl Fn(&Origin, &Analysis) -> Result<Vec<u8>, E> + Sync,
    failed: impl Fn(&Origin, &E) -> Vec<u8> + Sync,
    progress: &(dyn Fn(Progress<'_>) + Sync),
) -> std::io::Result<Summary>
where
    E: From<Error> + From<warc::Junk>,
{
    let inputs: Vec<Input> = paths.iter().map(|p| Input::file(p)).collect();
    let jobs = Jobs::new(&inputs, with.limits, |path, skipped| {
        progress(Progress::WarcDone { path, skipped })
    });
    run_stream(jobs, out, |job| {
        let page = matches!(job, Job::Page(..));
        let r = analyze_job(job, with, &emit, &failed);
        if page {
            progress(Progress::Page);
        }
        r
    })
}

/// Reads and analyses one input of [`crate::input::jobs::Jobs`] within its own deadline
/// (started here, not when the batch did) and returns what `emit` makes of the analysis, or
/// what `failed` makes of the error (a page's error, a bad WARC record's
/// [`Error::BadRecord`], junk's [`warc::Junk`], or `emit`'s own), with whether it failed. The
/// deadline is checked once more after `emit`.
///
/// # Complexity
/// That of reading and [`analyze_within`] one page.
pub fn analyze_job<T, E>(
    job: Job<'_>,
    with: &JobOptions<'_>,
    emit: impl FnOnce(&Origin, &Analysis) -> Result<T, E>,
    failed: impl FnOnce(&Origin, &E) -> T,
) -> (T, bool)
where
    E: From<Error> + From<warc::Junk>,
{
    let limits = with.limits;
    // The clock starts when this page's job does, not when the batch did.
    let deadline = limits.deadline();
    let (origin, result) = match job {
        Job::Failed(input, e) => (Origin::File(&input.path), Err(E::from(e))),
        Job::Record(input, warc::Item::Bad(b)) => {
            let path = &input.path;
            let origin = Origin::Record {
                path,
                record_id: b.record_id.as_deref().unwrap_or(""),
                uri: b.uri.as_deref(),
            };
            let e = Error::BadRecord {
                offset: b.offset,
                len: b.len,
                source: b.error,
            };
            return (failed(&origin, &E::from(e)), true);
        }
        Job::Record(input, warc::Item::Junk(j)) => {
            let origin = Origin::Record {
                path: &input.path,
                record_id: "",
                uri: None,
            };
            return (failed(&origin, &E::from(j)), true);
        }
        Job::Page(input, source) => {
            let origin = Origin::File(&input.path);
            let url = input.url.as_deref().or(with.url);
            let result = source.read(&limits).and_then(|bytes| {
                deadline.check("read")?;
                analyze_page(&bytes, url, None, with, &deadline)
            });
            (origin, result.map_err(E::from))
        }
        Job::Record(input, warc::Item::Page(p)) => {
            let path = &input.path;
            let result = analyze_page(
                &p.body,
                p.uri.as_deref(),
                p.charset.as_deref(),
                with,
                &deadline,
            );
            let origin = Origin::Record {
                path,
                record_id: &p.record_id,
                uri: p.uri.as_deref(),
            };
            let out = result
                .map_err(E::from)
                .and_then(|a| emit_within(&origin, &a, emit, &deadline));
            return match out {
                Ok(out) => (out, false),
                Err(e) => (failed(&origin, &e), true),
            };
        }
    };
    let out = result.and_then(|a| emit_within(&origin, &a, emit, &deadline));
    match out {
        Ok(out) => (out, false),
        Err(e) => (failed(&origin, &e), true),
    }
}

/// Parses `bytes` and analyses the page within `deadline`.
fn analyze_page(
    bytes: &[u8],
    url: Option<&str>,
    charset: Option<&str>,
    with: &JobOptions<'_>,
    deadline: &Deadline,
) -> crate::Result<Analysis> {
    let page = Page::from_bytes(
        bytes,
        &PageOptions {
            url,
            charset,
            limits: with.limits,
            deadline: Some(deadline),
            spans: with.spans,
            parser: with.options.parser,
        },
    )?;
    analyze_within(page, with.model, with.options, deadline)
}

/// `emit(origin, analysis)`, then the deadline checked once more.
fn emit_within<T, E: From<Error>>(
    origin: &Origin,
    analysis: &Analysis,
    emit: impl FnOnce(&Origin, &Analysis) -> Result<T, E>,
    deadline: &Deadline,
) -> Result<T, E> {
    let out = emit(origin, analysis)?;
    deadline.check("output")?;
    Ok(out)
}
