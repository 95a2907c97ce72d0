//! Python bindings of pagelevel: `extract`, `metadata`, `segment`, the reusable `Extractor`
//! (with `extract_many` over a thread pool) and `SiteLevel`, built with maturin.
//!
//! Every call copies its input out of Python (or borrows a `bytes` object), then releases the
//! GIL while the Rust pipeline runs, so Python threads calling in parallel use several cores.
//! Results mirror the CLI: `extract` is `pagelevel::extract` (`pagelevel extract`), `segment`
//! returns the `segments` of `pagelevel segment`, `SiteLevel.labels` the lines of
//! `pagelevel sitelevel`, `SiteLevel.texts` those of `pagelevel sitelevel --extract`.

use pagelevel::config::Deadline;
use pagelevel::error::strip_path;
use pagelevel::extract::{analyze_bytes, ExtractOptions, Extraction, OutputFormat};
use pagelevel::model::Model;
use pagelevel::segment::Variant;
use rayon::prelude::*;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc, Mutex};
use std::time::Duration;

use pagelevel::config::DEFAULT_TIMEOUT_MS;
use pagelevel::pipeline::{Analysis, Options};
use pagelevel::rules::{Rule, RuleSet};
use pagelevel::site::{self, SiteTree};

// The literal `timeout_ms=10000` in the signatures below shows in Python's signature (an
// expression would not); it is the CLI's default.
const _: () = assert!(DEFAULT_TIMEOUT_MS == 10000);
use pagelevel::dom::Parser;
use pagelevel::{Limits, Page, Spans};
use pyo3::create_exception;
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyList, PyMemoryView, PyString, PyTuple};

create_exception!(
    pagelevel,
    PageLevelError,
    PyValueError,
    "A page could not be read or analysed, or SiteLevel could not label a site."
);

/// An output format of `extract`: one of the library's, or `json`, the text with the URL.
#[derive(Debug, Clone, Copy)]
enum PyFormat {
    /// [`Extraction::text`] in this format.
    Plain(OutputFormat),
    /// `{"url": …, "text": …}` as one JSON object (the line `pagelevel extract` prints, with
    /// the page's URL in place of its file path).
    Json,
}

/// The output formats of `extract`, by name. Adding one is one line here.
const FORMATS: &[(&str, PyFormat)] = &[
    ("text", PyFormat::Plain(OutputFormat::Text)),
    ("json", PyFormat::Json),
    ("markdown", PyFormat::Plain(OutputFormat::Markdown)),
    ("html", PyFormat::Plain(OutputFormat::Html)),
];

/// ValueError for `what` called `name`, listing the `known` names.
fn unknown(what: &str, name: &str, known: &[&str]) -> PyErr {
    PyValueError::new_err(format!(
        "unknown {what} {name:?}; expected one of: {}",
        known.join(", ")
    ))
}

/// The format called `name`, or ValueError listing the known ones.
fn format_of(name: &str) -> PyResult<PyFormat> {
    FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, f)| *f)
        .ok_or_else(|| {
            let known: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
            unknown("format", name, &known)
        })
}

/// The variant called `name` (as `--variant` takes it), or ValueError listing them.
fn variant_of(name: &str) -> PyResult<Variant> {
    Variant::from_name(name).ok_or_else(|| {
        let known: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
        unknown("variant", name, &known)
    })
}

/// The parser called `name` ("html5ever" or "fast"), or ValueError.
fn parser_of(name: &str) -> PyResult<Parser> {
    Parser::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown parser {name:?}; expected \"html5ever\" or \"fast\""
        ))
    })
}

/// The rules to run: all but those named in `without_rules` (and `comments` with
/// `keep_comments`, as the CLI's `--keep-comments`); ValueError for a name that is no rule.
fn rules_without(without_rules: &[String], keep_comments: bool) -> PyResult<RuleSet> {
    let mut rules = RuleSet::ALL;
    for name in without_rules {
        let rule = Rule::from_name(name).ok_or_else(|| {
            let names: Vec<&str> = Rule::ALL.iter().map(|r| r.name()).collect();
            PyValueError::new_err(format!(
                "unknown rule {name:?} (rules: {})",
                names.join(", ")
            ))
        })?;
        rules = rules.without(rule);
    }
    if keep_comments {
        rules = rules.without(Rule::Comments);
    }
    Ok(rules)
}

/// The bytes of `html` and the transport charset they are known to be in: a `bytes` object
/// is borrowed without a copy, a `bytearray` or `memoryview` copied (either may change once
/// the GIL is released), a `str` taken as already decoded (its UTF-8, which must not be
/// re-detected as another charset). TypeError for anything else.
fn html_bytes<'a>(html: &'a Bound<'_, PyAny>) -> PyResult<(Cow<'a, [u8]>, Option<&'static str>)> {
    if let Ok(b) = html.downcast::<PyBytes>() {
        Ok((Cow::Borrowed(b.as_bytes()), None))
    } else if let Ok(s) = html.downcast::<PyString>() {
        let bytes = match s.to_cow()? {
            Cow::Borrowed(t) => Cow::Borrowed(t.as_bytes()),
            Cow::Owned(t) => Cow::Owned(t.into_bytes()),
        };
        Ok((bytes, Some("utf-8")))
    } else if let Ok(b) = html.downcast::<PyByteArray>() {
        Ok((Cow::Owned(b.to_vec()), None))
    } else if html.downcast::<PyMemoryView>().is_ok() {
        let copy = html.call_method0("tobytes")?;
        Ok((
            Cow::Owned(copy.downcast::<PyBytes>()?.as_bytes().to_vec()),
            None,
        ))
    } else {
        Err(PyTypeError::new_err(format!(
            "html must be bytes, bytearray, memoryview or str, not {}",
            html.get_type().name()?
        )))
    }
}

/// The CLI's default limits with `timeout_ms` (0 = none).
fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout_ms,
        ..Limits::default()
    }
}

/// One page's input: its bytes, their transport charset and its URL.
struct Input<'a> {
    bytes: Cow<'a, [u8]>,
    charset: Option<&'static str>,
    url: Option<String>,
}

impl<'a> Input<'a> {
    /// The input of `html` at `url`; TypeError for an html of another type.
    fn new(html: &'a Bound<'_, PyAny>, url: Option<String>) -> PyResult<Input<'a>> {
        let (bytes, charset) = html_bytes(html)?;
        Ok(Input {
            bytes,
            charset,
            url,
        })
    }
}

/// The settings of `extract` and of an `Extractor`, read and checked once.
#[derive(Debug, Clone)]
struct Settings {
    format: PyFormat,
    /// Everything but the page's URL and charset (set per page).
    opts: ExtractOptions,
    /// The parser asked for; `None`: the fast parser, as the CLI's `--parser` left out.
    parser: Option<Parser>,
}

impl Settings {
    /// The settings these options name; ValueError for an unknown format, variant, rule or
    /// parser.
    #[allow(clippy::too_many_arguments)]
    fn new(
        format: &str,
        variant: &str,
        keep_comments: bool,
        with_metadata: bool,
        links: (bool, bool),
        timeout_ms: u64,
        without_rules: Option<&[String]>,
        parser: Option<&str>,
    ) -> PyResult<Settings> {
        let format = format_of(format)?;
        let mut pipeline = Options {
            rules: rules_without(without_rules.unwrap_or_default(), keep_comments)?,
            ..Options::default()
        };
        pipeline.segment.variant = variant_of(variant)?;
        let parser = parser.map(parser_of).transpose()?;
        Ok(Settings {
            format,
            opts: ExtractOptions {
                format: match format {
                    PyFormat::Plain(f) => f,
                    PyFormat::Json => OutputFormat::Text,
                },
                with_metadata,
                links: links.0,
                images: links.1,
                pipeline,
                limits: limits(timeout_ms),
                ..ExtractOptions::default()
            },
            parser,
        })
    }

    /// The CLI's defaults with `timeout_ms` and `parser`.
    fn defaults(timeout_ms: u64, parser: Option<&str>) -> PyResult<Settings> {
        Settings::new(
            "text",
            "tree-filter",
            false,
            false,
            (false, false),
            timeout_ms,
            None,
            parser,
        )
    }

    /// Runs the pipeline on one page (`spans` recorded for `segment`) and gives `f` the
    /// analysis with the page's options. The error names the page (its URL, else `<html>`).
    fn run<T>(
        &self,
        page: &Input<'_>,
        spans: Spans,
        cancel: &Arc<AtomicBool>,
        f: impl FnOnce(&Analysis, &ExtractOptions) -> T,
    ) -> Result<T, String> {
        let what = page.url.as_deref().unwrap_or("<html>");
        let fail = |e: String| format!("{what}: {}", strip_path(what, &e));
        let limit = self.opts.limits.max_input_bytes;
        // Refused before it is decompressed or copied again.
        if page.bytes.len() as u64 > limit {
            let n = page.bytes.len();
            return Err(fail(format!(
                "input is over the limit of {limit} bytes ({n} bytes)"
            )));
        }
        let mut opts = self.opts.clone();
        opts.url = page.url.clone();
        opts.charset = page.charset.map(str::to_owned);
        opts.pipeline.parser = self.parser.unwrap_or_default();
        let deadline = opts.limits.deadline().with_cancel(cancel.clone());
        let analysis = analyze_bytes(&page.bytes, &opts, spans, Model::embedded(), &deadline)
            .map_err(|e| fail(e.to_string()))?;
        Ok(f(&analysis, &opts))
    }

    /// The extraction of one page: its text in the format asked for, its metadata if asked.
    fn extract(&self, page: &Input<'_>, cancel: &Arc<AtomicBool>) -> Result<Extraction, String> {
        let format = self.format;
        self.run(page, Spans::Skip, cancel, |a, opts| {
            let mut out = Extraction::of(a, opts);
            if let PyFormat::Json = format {
                out.text = serde_json::json!({"url": a.page.url, "text": out.text}).to_string();
            }
            out
        })
    }

    /// The page's metadata fields as JSON.
    fn metadata(&self, page: &Input<'_>, cancel: &Arc<AtomicBool>) -> Result<String, String> {
        self.run(page, Spans::Skip, cancel, |a, _| {
            serde_json::Value::Object(a.metadata().to_json()).to_string()
        })
    }

    /// The page's segments as JSON.
    fn segment(&self, page: &Input<'_>, cancel: &Arc<AtomicBool>) -> Result<String, String> {
        self.run(page, Spans::Keep, cancel, |a, _| {
            a.segments_json().to_string()
        })
    }
}

/// An extraction as Python returns it: the text, or with metadata a dict of `text` and the
/// metadata fields.
fn extraction_to_py(py: Python<'_>, e: Extraction) -> PyResult<PyObject> {
    match e.metadata {
        None => Ok(e.text.into_pyobject(py)?.into_any().unbind()),
        Some(m) => {
            let mut fields = serde_json::Map::new();
            fields.insert("text".into(), e.text.into());
            fields.extend(m.to_json());
            json_to_py(py, &serde_json::Value::Object(fields).to_string())
        }
    }
}

/// The rules that run after the model, in order, as (name, description) pairs; each can be
/// switched off with `without_rules=[name]`.
#[pyfunction]
fn rules() -> Vec<(&'static str, &'static str)> {
    Rule::ALL
        .iter()
        .map(|r| (r.name(), r.description()))
        .collect()
}

/// How often a call waiting for its pages looks for a pending signal (Ctrl-C), in ms.
const SIGNAL_POLL_MS: u64 = 50;

/// Work for [`WORKER`], its borrows' lifetime erased (see [`interruptible`]).
type Job = Box<dyn FnOnce() + Send + 'static>;

/// The helper thread that runs the main thread's calls (see [`interruptible`]), named
/// `pagelevel_call` (apart from `extract_many`'s `pagelevel-N`), and its process id; started
/// at the first such call and kept: a thread spawned per call cost about 60 µs of CPU a call
/// (clone, stack mapping and release). A forked child (Spark's Python workers) inherits the
/// slot but not the thread, so it starts its own.
static WORKER: Mutex<Option<(u32, mpsc::Sender<Job>)>> = Mutex::new(None);

/// The sender to this process's [`WORKER`], started if it is not.
fn worker() -> PyResult<mpsc::Sender<Job>> {
    let mut slot = WORKER.lock().unwrap_or_else(|e| e.into_inner());
    let pid = std::process::id();
    if let Some((owner, tx)) = &*slot {
        if *owner == pid {
            return Ok(tx.clone());
        }
    }
    let (tx, rx) = mpsc::channel::<Job>();
    std::thread::Builder::new()
        .name("pagelevel_call".into())
        .spawn(move || {
            for job in rx {
                // A panicking job drops its result's sender, which its caller sees; the
                // thread stays for the next call.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(job));
            }
        })
        .map_err(|e| PageLevelError::new_err(format!("cannot start a thread: {e}")))?;
    *slot = Some((pid, tx.clone()));
    Ok(tx)
}

/// Runs `work` without the GIL, so other Python threads run; `work` sets the flag it is
/// given on each page's deadline. On the main thread (the only one Python delivers signals
/// to) the work runs on the [`WORKER`] thread while this one checks for signals every
/// [`SIGNAL_POLL_MS`]: a KeyboardInterrupt sets the flag, which stops the pages at their next
/// deadline check, and is raised once the work has stopped.
fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> T + Send,
) -> PyResult<T> {
    let cancel = Arc::new(AtomicBool::new(false));
    let threading = py.import("threading")?;
    let on_main_thread = threading
        .call_method0("main_thread")?
        .is(&threading.call_method0("current_thread")?);
    if !on_main_thread {
        return Ok(py.allow_threads(|| work(&cancel)));
    }
    let (tx, rx) = mpsc::channel();
    let flag = &cancel;
    let job: Box<dyn FnOnce() + Send + '_> = Box::new(move || {
        let _ = tx.send(work(flag));
    });
    // SAFETY: the job borrows `work`'s captures and `cancel`, which live until this function
    // returns; it returns only after the job has sent its result (the job touches nothing
    // borrowed after that) or dropped its sender unsent (ended by a panic), or when the job
    // was never accepted (a failed send gives it back, and it is dropped unrun).
    let job: Job = unsafe { std::mem::transmute::<Box<dyn FnOnce() + Send + '_>, Job>(job) };
    worker()?
        .send(job)
        .map_err(|_| PageLevelError::new_err("the page's worker thread stopped"))?;
    let mut rx = rx;
    loop {
        let wait = Duration::from_millis(SIGNAL_POLL_MS);
        // A receiver is Send, not Sync: it goes into the GIL-free closure and back.
        let (got, back) = py.allow_threads(move || (rx.recv_timeout(wait), rx));
        rx = back;
        match got {
            Ok(result) => return Ok(result),
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(PageLevelError::new_err("the page's worker thread stopped"))
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
        }
        if let Err(e) = py.check_signals() {
            cancel.store(true, Ordering::Relaxed);
            // The job borrows from this frame: wait for it to stop before raising.
            py.allow_threads(move || drop(rx.recv()));
            return Err(e);
        }
    }
}

/// [`interruptible`] for work on one page: its error becomes a PageLevelError.
fn one_page<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&Arc<AtomicBool>) -> Result<T, String> + Send,
) -> PyResult<T> {
    interruptible(py, work)?.map_err(PageLevelError::new_err)
}

/// A JSON text as Python objects, through the standard library's `json.loads`.
fn json_to_py(py: Python<'_>, json: &str) -> PyResult<PyObject> {
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// The main content of one page, `pagelevel::extract`: the CLI's pipeline (decode, parse,
/// layout, features, classifier, smoothing, rules, render), linear in the page's size apart
/// from smoothing, under the CLI's limits and a time limit of `timeout_ms` (0 = none). Ctrl-C
/// interrupts it. With `with_metadata`, a dict: `text` (the content in `format`) and the
/// page's metadata fields (those `pagelevel extract --with-metadata` adds; absent ones left
/// out). The options after `url` are keyword-only, named as the CLI's flags.
#[pyfunction]
#[pyo3(signature = (html, url=None, *, format="text", variant="tree-filter", keep_comments=false, with_metadata=false, include_links=false, include_images=false, timeout_ms=10000, without_rules=None, parser="fast"))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    format: &str,
    variant: &str,
    keep_comments: bool,
    with_metadata: bool,
    include_links: bool,
    include_images: bool,
    timeout_ms: u64,
    without_rules: Option<Vec<String>>,
    parser: &str,
) -> PyResult<PyObject> {
    let settings = Settings::new(
        format,
        variant,
        keep_comments,
        with_metadata,
        (include_links, include_images),
        timeout_ms,
        without_rules.as_deref(),
        Some(parser),
    )?;
    let page = Input::new(html, url)?;
    let out = one_page(py, |cancel| settings.extract(&page, cancel))?;
    extraction_to_py(py, out)
}

/// The metadata of one page (title, author, date, date_modified, language, description,
/// site_name, url, image, categories, tags, type; absent fields left out), as
/// `pagelevel extract --with-metadata` gives it.
#[pyfunction]
#[pyo3(signature = (html, url=None, timeout_ms=10000))]
fn metadata(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    timeout_ms: u64,
) -> PyResult<PyObject> {
    let settings = Settings::defaults(timeout_ms, None)?;
    let page = Input::new(html, url)?;
    let json = one_page(py, |cancel| settings.metadata(&page, cancel))?;
    json_to_py(py, &json)
}

/// The segments of one page: id, path, tag, span, box, score, template, words, parent.
#[pyfunction]
#[pyo3(signature = (html, url=None, timeout_ms=10000, parser="fast"))]
fn segment(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    timeout_ms: u64,
    parser: &str,
) -> PyResult<PyObject> {
    let settings = Settings::defaults(timeout_ms, Some(parser))?;
    let page = Input::new(html, url)?;
    let json = one_page(py, |cancel| settings.segment(&page, cancel))?;
    json_to_py(py, &json)
}

/// An extractor: the options of `extract` read and checked once, then used for every page.
///
/// `extract`, `metadata` and `segment` take one page; `extract_many` takes many and runs
/// them on a pool of threads without the GIL, giving the results in input order.
#[pyclass(module = "pagelevel", frozen)]
struct Extractor {
    settings: Settings,
    /// The arguments it was made with, for `repr`.
    repr: String,
    /// `extract_many`'s pool and its thread count, kept for the next call with the same count
    /// (starting a pool costs a thread spawn per thread, more than a small page's extraction).
    pool: Mutex<Option<(usize, Arc<rayon::ThreadPool>)>>,
}

impl Extractor {
    /// The pool of `threads` threads (0 = one per core): the last one made, or a new one in its
    /// place.
    fn pool(&self, threads: usize) -> PyResult<Arc<rayon::ThreadPool>> {
        // A panic elsewhere cannot leave the slot half-written: take it either way.
        let mut slot = self.pool.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((n, pool)) = slot.as_ref() {
            if *n == threads {
                return Ok(pool.clone());
            }
        }
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .thread_name(|i| format!("pagelevel-{i}"))
            .build()
            .map_err(|e| PageLevelError::new_err(format!("cannot start {threads} threads: {e}")))?;
        let pool = Arc::new(pool);
        *slot = Some((threads, pool.clone()));
        Ok(pool)
    }
}

#[pymethods]
impl Extractor {
    /// Options as `extract`'s, all keyword-only; `parser=None` (the default) is the fast
    /// parser, as the CLI without `--parser`.
    #[new]
    #[pyo3(signature = (*, format="text", variant="tree-filter", keep_comments=false, with_metadata=false, include_links=false, include_images=false, timeout_ms=10000, without_rules=None, parser=None))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        format: &str,
        variant: &str,
        keep_comments: bool,
        with_metadata: bool,
        include_links: bool,
        include_images: bool,
        timeout_ms: u64,
        without_rules: Option<Vec<String>>,
        parser: Option<&str>,
    ) -> PyResult<Self> {
        let settings = Settings::new(
            format,
            variant,
            keep_comments,
            with_metadata,
            (include_links, include_images),
            timeout_ms,
            without_rules.as_deref(),
            parser,
        )?;
        let r = |o: Bound<'_, PyAny>| o.repr().map(|r| r.to_string());
        let repr = format!(
            "Extractor(format={}, variant={}, keep_comments={}, with_metadata={}, \
             include_links={}, include_images={}, timeout_ms={timeout_ms}, without_rules={}, \
             parser={})",
            r(PyString::new(py, format).into_any())?,
            r(PyString::new(py, variant).into_any())?,
            r(keep_comments.into_pyobject(py)?.to_owned().into_any())?,
            r(with_metadata.into_pyobject(py)?.to_owned().into_any())?,
            r(include_links.into_pyobject(py)?.to_owned().into_any())?,
            r(include_images.into_pyobject(py)?.to_owned().into_any())?,
            r(without_rules.into_pyobject(py)?.into_any())?,
            r(parser.into_pyobject(py)?.into_any())?,
        );
        Ok(Extractor {
            settings,
            repr,
            pool: Mutex::new(None),
        })
    }

    /// The main content of one page, as `pagelevel.extract` with this extractor's options.
    #[pyo3(signature = (html, url=None))]
    fn extract(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
    ) -> PyResult<PyObject> {
        let page = Input::new(html, url)?;
        let out = one_page(py, |cancel| self.settings.extract(&page, cancel))?;
        extraction_to_py(py, out)
    }

    /// The metadata of one page, as `pagelevel.metadata`.
    #[pyo3(signature = (html, url=None))]
    fn metadata(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
    ) -> PyResult<PyObject> {
        let page = Input::new(html, url)?;
        let json = one_page(py, |cancel| self.settings.metadata(&page, cancel))?;
        json_to_py(py, &json)
    }

    /// The segments of one page, as `pagelevel.segment` with this extractor's options.
    #[pyo3(signature = (html, url=None))]
    fn segment(
        &self,
        py: Python<'_>,
        html: &Bound<'_, PyAny>,
        url: Option<String>,
    ) -> PyResult<PyObject> {
        let page = Input::new(html, url)?;
        let json = one_page(py, |cancel| self.settings.segment(&page, cancel))?;
        json_to_py(py, &json)
    }

    /// `extract` over many pages (each an html, or an `(html, url)` pair) on `threads`
    /// threads (0 = one per core) without the GIL; a list in input order, each item what
    /// `extract` returns or, for a page that failed, the PageLevelError it would raise. The
    /// results do not depend on `threads`. All pages are read in before the work starts. The
    /// pool stays for the next call with the same `threads`.
    #[pyo3(signature = (pages, threads=0))]
    fn extract_many(
        &self,
        py: Python<'_>,
        pages: &Bound<'_, PyAny>,
        threads: usize,
    ) -> PyResult<Py<PyList>> {
        let items = pages
            .try_iter()?
            .map(|item| {
                let item = item?;
                if let Ok(pair) = item.downcast::<PyTuple>() {
                    if pair.len() != 2 {
                        return Err(PyTypeError::new_err(format!(
                            "a page is an html or an (html, url) pair, not a tuple of {}",
                            pair.len()
                        )));
                    }
                    let url: Option<String> = pair.get_item(1)?.extract()?;
                    Ok((pair.get_item(0)?, url))
                } else {
                    Ok((item, None))
                }
            })
            .collect::<PyResult<Vec<_>>>()?;
        let inputs = items
            .iter()
            .map(|(html, url)| Input::new(html, url.clone()))
            .collect::<PyResult<Vec<_>>>()?;
        let pool = self.pool(threads)?;
        let settings = &self.settings;
        let results = interruptible(py, |cancel| {
            pool.install(|| {
                inputs
                    .par_iter()
                    .map(|page| settings.extract(page, cancel))
                    .collect::<Vec<_>>()
            })
        })?;
        let out = PyList::empty(py);
        for r in results {
            match r {
                Ok(e) => out.append(extraction_to_py(py, e)?)?,
                Err(msg) => out.append(PageLevelError::new_err(msg).into_value(py))?,
            }
        }
        Ok(out.unbind())
    }

    fn __repr__(&self) -> String {
        self.repr.clone()
    }
}

/// Decodes (gunzipping bytes that start with the gzip magic) and parses one page, for
/// SiteLevel (which needs the page, not its analysis).
fn parse(
    page: &Input<'_>,
    spans: Spans,
    limits: &Limits,
    deadline: &Deadline,
    parser: Parser,
) -> Result<Page, String> {
    let what = page.url.as_deref().unwrap_or("<html>");
    if page.bytes.len() as u64 > limits.max_input_bytes {
        return Err(format!(
            "input is over the limit of {} bytes ({} bytes)",
            limits.max_input_bytes,
            page.bytes.len()
        ));
    }
    let raw = pagelevel::input::read_bytes(&page.bytes, what, limits).map_err(|e| e.to_string())?;
    deadline.check("read").map_err(|e| format!("{what}: {e}"))?;
    Page::from_bytes(
        &raw,
        &pagelevel::PageOptions {
            url: page.url.as_deref(),
            charset: page.charset,
            limits: *limits,
            deadline: Some(deadline),
            spans,
            parser,
        },
    )
    .map_err(|e| format!("{what}: {e}"))
}

/// The registrable domain (public suffix list, looking through Wayback Machine captures) of
/// a URL, as `pagelevel sitelevel` groups manifest pages; `None` without an http(s) host.
#[pyfunction(name = "site")]
fn site_of(url: &str) -> Option<String> {
    pagelevel::url::site_of(&site::unwrap_wayback(url))
}

/// One added page's URL and what was computed for it (or why it failed).
type PageResult<T> = (Option<String>, Result<T, String>);

/// SiteLevel(θ) over the pages of one site: add every page, then ask for labels or texts.
///
/// Adding hashes the page (O(n log n) for n nodes); labels cost O(n) per page, one thread (a
/// Spark executor core runs one site at a time). Every added page's parsed DOM is kept until
/// the object is dropped, so memory grows with the site (the CLI re-reads its files instead).
/// A site with too few distinct pages gets PageLevel's labels and texts instead, as the CLI's
/// `sitelevel` gives them ([`site::report::Fallback`]), unless made with `fallback=False`.
#[pyclass(module = "pagelevel")]
struct SiteLevel {
    options: sitelevel::SiteLevelOptions,
    /// Added pages in order: URL, parsed page, its limits (for a PageLevel run), index in `run`.
    pages: Vec<(Option<String>, Page, Limits, usize)>,
    run: sitelevel::SiteLevel,
    /// Whether a site SiteLevel refuses for too few distinct pages gets PageLevel's output.
    fallback: bool,
    /// `None` until the run is finished for the pages added; then whether its labels are
    /// SiteLevel's (`false`: the site was too small and they are PageLevel's).
    by_sitelevel: Option<bool>,
}

impl SiteLevel {
    /// Finishes the run if needed: whether SiteLevel labels the site (`false`: too few
    /// distinct pages, and PageLevel stands in); the error when it refuses without fallback.
    fn verdict(&mut self) -> Result<bool, String> {
        if let Some(v) = self.by_sitelevel {
            return Ok(v);
        }
        let v = match self.run.finish() {
            Ok(_) => true,
            Err(sitelevel::SiteError::TooFewPages { .. }) if self.fallback => false,
            Err(e) => return Err(e.to_string()),
        };
        self.by_sitelevel = Some(v);
        Ok(v)
    }

    /// Finishes the run if needed and computes, for every page, `by_sitelevel(page, labels)`,
    /// or `by_pagelevel(analysis)` when the site is too small for SiteLevel; with whether
    /// SiteLevel labelled it.
    fn per_page<T: Send>(
        &mut self,
        py: Python<'_>,
        by_sitelevel: impl Fn(&Page, &[bool]) -> T + Send + Sync,
        by_pagelevel: impl Fn(&Analysis) -> T + Send + Sync,
    ) -> PyResult<(bool, Vec<PageResult<T>>)> {
        py.allow_threads(|| {
            let labelled = self.verdict()?;
            let run = &self.run;
            let options = Options::default();
            let rows = self.pages.iter().map(|(url, page, limits, k)| {
                let out = if labelled {
                    run.labels_of(*k, &SiteTree::new(&page.dom))
                        .map(|labels| by_sitelevel(page, &labels))
                        .map_err(|e| e.to_string())
                } else {
                    let fallback = site::report::Fallback {
                        model: Model::embedded(),
                        options: &options,
                        limits: *limits,
                    };
                    // The page stays for later calls: the pipeline runs on a copy.
                    fallback
                        .analyze(page.clone(), &limits.deadline())
                        .map(|a| by_pagelevel(&a))
                };
                (url.clone(), out)
            });
            Ok::<_, String>((labelled, rows.collect()))
        })
        .map_err(PageLevelError::new_err)
    }
}

#[pymethods]
impl SiteLevel {
    /// θ: a subtree is template when it occurs on at least max(2, ⌈θ·N⌉) of the N pages.
    /// `fallback`: a site with too few distinct pages gets PageLevel's labels and texts
    /// (`False`: `labels` and `texts` raise PageLevelError for it).
    #[new]
    // The literal (sitelevel::DEFAULT_THETA) shows in Python's signature; an expression would not.
    #[pyo3(signature = (theta=0.1, *, fallback=true))]
    fn new(theta: f64, fallback: bool) -> PyResult<Self> {
        sitelevel::min_pages_for(1, theta).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let options = sitelevel::SiteLevelOptions::with_theta(theta);
        Ok(SiteLevel {
            run: sitelevel::SiteLevel::new(options.clone()),
            options,
            pages: Vec::new(),
            fallback,
            by_sitelevel: None,
        })
    }

    /// Adds a page; returns its index. A page that cannot be parsed (or takes over
    /// `timeout_ms`, 0 = none) raises PageLevelError and is not added. Ctrl-C interrupts it.
    #[pyo3(signature = (url, html, timeout_ms=10000, parser="fast"))]
    fn add(
        &mut self,
        py: Python<'_>,
        url: Option<String>,
        html: &Bound<'_, PyAny>,
        timeout_ms: u64,
        parser: &str,
    ) -> PyResult<usize> {
        let parser = parser_of(parser)?;
        let limits = limits(timeout_ms);
        let input = Input::new(html, url)?;
        let hash = &self.options.hash;
        let page = one_page(py, |cancel| {
            let deadline = limits.deadline().with_cancel(cancel.clone());
            let page = parse(&input, Spans::Skip, &limits, &deadline, parser)?;
            let hashes = sitelevel::hash_page(&SiteTree::new(&page.dom), hash);
            Ok::<_, String>((page, hashes))
        })?;
        let k = self.run.add_page_hashes(page.1);
        self.by_sitelevel = None;
        self.pages.push((input.url, page.0, limits, k));
        Ok(self.pages.len() - 1)
    }

    /// Pages added so far.
    fn __len__(&self) -> usize {
        self.pages.len()
    }

    /// Whether the labels and texts are SiteLevel's: `False` when the site has too few
    /// distinct pages and they are PageLevel's (the CLI's `"sitelevel"` field). Finishes the
    /// run; PageLevelError when SiteLevel refuses the site and there is no fallback.
    #[getter]
    fn sitelevel(&mut self, py: Python<'_>) -> PyResult<bool> {
        py.allow_threads(|| self.verdict())
            .map_err(PageLevelError::new_err)
    }

    /// Per page in the order added, `{"url", "sitelevel", "labels": [{"path", "template"},
    /// …]}` over its elements and non-blank text nodes (the lines of `pagelevel sitelevel`),
    /// or `{"url", "sitelevel", "error"}` for a page PageLevel could not analyse. Raises
    /// PageLevelError when the site has too few distinct pages and there is no fallback.
    fn labels(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let reported = |dom: &pagelevel::dom::Dom, labels: &[bool]| {
            let mut out = Vec::new();
            site::for_each_reported(dom, |i, path| {
                out.push(serde_json::json!({"path": path, "template": labels[i]}));
            });
            out
        };
        let (labelled, rows) = self.per_page(
            py,
            |page, labels| reported(&page.dom, labels),
            |a| reported(&a.page.dom, &site::report::pagelevel_labels(a)),
        )?;
        let json: Vec<serde_json::Value> = rows
            .into_iter()
            .map(|(url, r)| match r {
                Ok(labels) => {
                    serde_json::json!({"url": url, "sitelevel": labelled, "labels": labels})
                }
                Err(e) => serde_json::json!({"url": url, "sitelevel": labelled, "error": e}),
            })
            .collect();
        json_to_py(py, &serde_json::Value::Array(json).to_string())
    }

    /// Per page in the order added, its visible text outside templates (the `text` of
    /// `pagelevel sitelevel --extract`): PageLevel's main text when `sitelevel` is False.
    /// Raises PageLevelError for the first page PageLevel could not analyse.
    fn texts(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        let (_, rows) = self.per_page(
            py,
            |page, labels| site::extract_text(&page.dom, labels),
            |a| a.main_text(),
        )?;
        rows.into_iter()
            .map(|(_, r)| r.map_err(PageLevelError::new_err))
            .collect()
    }
}

#[pymodule]
fn _pagelevel(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("PageLevelError", m.py().get_type::<PageLevelError>())?;
    m.add_function(wrap_pyfunction!(extract, m)?)?;
    m.add_function(wrap_pyfunction!(segment, m)?)?;
    m.add_function(wrap_pyfunction!(metadata, m)?)?;
    m.add_function(wrap_pyfunction!(rules, m)?)?;
    m.add_function(wrap_pyfunction!(site_of, m)?)?;
    m.add_class::<SiteLevel>()?;
    m.add_class::<Extractor>()?;
    let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
    m.add("FORMATS", names)?;
    let variants: Vec<&str> = Variant::ALL.iter().map(|v| v.name()).collect();
    m.add("VARIANTS", variants)?;
    Ok(())
}
