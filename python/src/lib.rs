//! Python bindings of pagelevel: `extract`, `metadata`, `segment` and `SiteLevel`, built with maturin.
//!
//! Every call copies its input out of Python, then releases the GIL while the Rust pipeline
//! runs, so Python threads calling in parallel use several cores. Results mirror the CLI:
//! `segment` returns the `segments` of `pagelevel segment`, `SiteLevel.labels` the lines of
//! `pagelevel sitelevel`, `SiteLevel.texts` those of `pagelevel sitelevel --extract`.

use pagelevel::config::Deadline;
use pagelevel::model::Model;
use std::borrow::Cow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{mpsc, Arc};
use std::time::Duration;

use pagelevel::config::DEFAULT_TIMEOUT_MS;
use pagelevel::pipeline::{analyze_within, Analysis, Options};
use pagelevel::rules::{Rule, RuleSet};
use pagelevel::site::{self, SiteTree};

// The literal `timeout_ms=10000` in the signatures below shows in Python's signature (an
// expression would not); it is the CLI's default.
const _: () = assert!(DEFAULT_TIMEOUT_MS == 10000);
use pagelevel::dom::Parser;
use pagelevel::{Limits, Page, Spans};
use pyo3::create_exception;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

create_exception!(
    pagelevel,
    PageLevelError,
    PyValueError,
    "A page could not be read or analysed, or SiteLevel could not label a site."
);

/// How `extract` renders an analysed page in one output format.
type Render = fn(&Analysis) -> String;

/// The output formats of `extract`, by name. Adding one is one line here.
const FORMATS: &[(&str, Render)] = &[
    ("text", Analysis::main_text),
    ("json", render_json),
    ("markdown", render_markdown),
    ("html", render_html),
];

/// The main content as Markdown (`pagelevel extract --format markdown` without its separator line).
fn render_markdown(a: &Analysis) -> String {
    a.main_rendered(pagelevel::output::render::Format::Markdown)
}

/// The main content as minimal HTML (`pagelevel extract --format html` without its separator line).
fn render_html(a: &Analysis) -> String {
    a.main_rendered(pagelevel::output::render::Format::Html)
}

/// `{"url": …, "text": …}` as one JSON object (the line `pagelevel extract` prints, with the
/// page's URL in place of its file path).
fn render_json(a: &Analysis) -> String {
    serde_json::json!({"url": a.page.url, "text": a.main_text()}).to_string()
}

/// The renderer of the format called `name`, or ValueError listing the known ones.
fn format_of(name: &str) -> PyResult<Render> {
    FORMATS
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, render)| *render)
        .ok_or_else(|| {
            let known: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
            PyValueError::new_err(format!(
                "unknown format {name:?}; expected one of: {}",
                known.join(", ")
            ))
        })
}

/// The bytes of `html` (bytes or str), borrowed from the Python object without a copy, and the
/// transport charset they are known to be in. Input over `limits.max_input_bytes` (compressed or
/// not) is refused here, before anything is copied or decompressed.
fn html_bytes<'a>(
    html: &'a Bound<'_, PyAny>,
    limits: &Limits,
) -> PyResult<(Cow<'a, [u8]>, Option<&'static str>)> {
    let (bytes, charset) = if let Ok(b) = html.downcast::<PyBytes>() {
        (Cow::Borrowed(b.as_bytes()), None)
    } else if let Ok(s) = html.downcast::<PyString>() {
        // A str is already decoded: its UTF-8 bytes must not be re-detected as another charset.
        let bytes = match s.to_cow()? {
            Cow::Borrowed(t) => Cow::Borrowed(t.as_bytes()),
            Cow::Owned(t) => Cow::Owned(t.into_bytes()),
        };
        (bytes, Some("utf-8"))
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(format!(
            "html must be bytes or str, not {}",
            html.get_type().name()?
        )));
    };
    if bytes.len() as u64 > limits.max_input_bytes {
        return Err(PageLevelError::new_err(format!(
            "input is over the limit of {} bytes ({} bytes)",
            limits.max_input_bytes,
            bytes.len()
        )));
    }
    Ok((bytes, charset))
}

/// The CLI's default limits with `timeout_ms` (0 = none).
fn limits(timeout_ms: u64) -> Limits {
    Limits {
        timeout_ms,
        ..Limits::default()
    }
}

/// The parser called `name` ("html5ever" or "fast"), or ValueError.
fn parser_of(name: &str) -> PyResult<Parser> {
    Parser::from_name(name).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown parser {name:?}; expected \"html5ever\" or \"fast\""
        ))
    })
}

/// Decodes (gunzipping bytes that start with the gzip magic) and parses one page.
fn parse(
    bytes: &[u8],
    charset: Option<&str>,
    url: Option<&str>,
    spans: Spans,
    limits: &Limits,
    deadline: &Deadline,
    parser: Parser,
) -> Result<Page, String> {
    let what = url.unwrap_or("<html>");
    let raw = pagelevel::input::read_bytes(bytes, what, limits).map_err(|e| e.to_string())?;
    deadline.check("read").map_err(|e| format!("{what}: {e}"))?;
    Page::from_bytes(
        &raw,
        &pagelevel::PageOptions {
            url,
            charset,
            limits: *limits,
            deadline: Some(deadline),
            spans,
            parser,
        },
    )
    .map_err(|e| format!("{what}: {e}"))
}

/// Parses and analyses one page with the embedded model and `opts` (the CLI's defaults but
/// for the rules switched off).
fn analyse(
    bytes: &[u8],
    charset: Option<&str>,
    url: Option<&str>,
    spans: Spans,
    limits: &Limits,
    deadline: &Deadline,
    opts: &Options,
) -> Result<Analysis, String> {
    let what = url.unwrap_or("<html>");
    let page = parse(bytes, charset, url, spans, limits, deadline, opts.parser)?;
    analyze_within(page, Model::embedded(), opts, deadline).map_err(|e| format!("{what}: {e}"))
}

/// The CLI's default options with the rules named in `without_rules` switched off;
/// `ValueError` for a name that is no rule.
fn options_without(without_rules: &[String]) -> PyResult<Options> {
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
    Ok(Options {
        rules,
        ..Options::default()
    })
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

/// How often a call waiting for its page looks for a pending signal (Ctrl-C), in ms.
const SIGNAL_POLL_MS: u64 = 50;

/// Runs `work` under `limits`' deadline without the GIL, so other Python threads run. On the
/// main thread (the only one Python delivers signals to) the work runs on a helper thread while
/// this one checks for signals every [`SIGNAL_POLL_MS`]: a KeyboardInterrupt cancels the page
/// (it stops at its next deadline check) and is raised at once.
fn interruptible<T: Send>(
    py: Python<'_>,
    limits: &Limits,
    work: impl FnOnce(&Deadline) -> Result<T, String> + Send,
) -> PyResult<T> {
    let threading = py.import("threading")?;
    let on_main_thread = threading
        .call_method0("main_thread")?
        .is(&threading.call_method0("current_thread")?);
    if !on_main_thread {
        let deadline = limits.deadline();
        return py
            .allow_threads(|| work(&deadline))
            .map_err(PageLevelError::new_err);
    }
    let cancel = Arc::new(AtomicBool::new(false));
    let deadline = limits.deadline().with_cancel(cancel.clone());
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel();
        scope.spawn(move || {
            let _ = tx.send(work(&deadline));
        });
        let mut rx = rx;
        loop {
            let wait = Duration::from_millis(SIGNAL_POLL_MS);
            // A receiver is Send, not Sync: it goes into the GIL-free closure and back.
            let (got, back) = py.allow_threads(move || (rx.recv_timeout(wait), rx));
            rx = back;
            match got {
                Ok(result) => return result.map_err(PageLevelError::new_err),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PageLevelError::new_err("the page's worker thread stopped"))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(e) = py.check_signals() {
                cancel.store(true, Ordering::Relaxed);
                return Err(e);
            }
        }
    })
}

/// A JSON text as Python objects, through the standard library's `json.loads`.
fn json_to_py(py: Python<'_>, json: &str) -> PyResult<PyObject> {
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// The main content of one page: the CLI's pipeline (decode, parse, layout, features,
/// classifier, smoothing, render), linear in the page's size apart from smoothing, under the
/// CLI's limits and a time limit of `timeout_ms` (0 = none). Ctrl-C interrupts it. With
/// `with_metadata`, a dict: `text` (the content in `format`) and the page's metadata fields
/// (those `pagelevel extract --with-metadata` adds; absent ones left out).
#[pyfunction]
#[pyo3(signature = (html, url=None, format="text", timeout_ms=10000, without_rules=None, parser="fast", with_metadata=false))]
#[allow(clippy::too_many_arguments)] // Python's keyword arguments
fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    format: &str,
    timeout_ms: u64,
    without_rules: Option<Vec<String>>,
    parser: &str,
    with_metadata: bool,
) -> PyResult<PyObject> {
    let render = format_of(format)?;
    let mut opts = options_without(without_rules.as_deref().unwrap_or_default())?;
    opts.parser = parser_of(parser)?;
    let limits = limits(timeout_ms);
    let (bytes, charset) = html_bytes(html, &limits)?;
    let (text, meta) = interruptible(py, &limits, |deadline| {
        analyse(
            &bytes,
            charset,
            url.as_deref(),
            Spans::Skip,
            &limits,
            deadline,
            &opts,
        )
        .map(|a| (render(&a), with_metadata.then(|| a.metadata())))
    })?;
    match meta {
        None => Ok(text.into_pyobject(py)?.into_any().unbind()),
        Some(m) => {
            let mut fields = serde_json::Map::new();
            fields.insert("text".into(), text.into());
            fields.extend(m.to_json());
            json_to_py(py, &serde_json::Value::Object(fields).to_string())
        }
    }
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
    let limits = limits(timeout_ms);
    let (bytes, charset) = html_bytes(html, &limits)?;
    let json = interruptible(py, &limits, |deadline| {
        analyse(
            &bytes,
            charset,
            url.as_deref(),
            Spans::Skip,
            &limits,
            deadline,
            &Options::default(),
        )
        .map(|a| serde_json::Value::Object(a.metadata().to_json()).to_string())
    })?;
    json_to_py(py, &json)
}

/// The segments of one page: id, path, tag, span, box, score, template, words, parent.
#[pyfunction]
#[pyo3(signature = (html, url=None, timeout_ms=10000, parser="html5ever"))]
fn segment(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    timeout_ms: u64,
    parser: &str,
) -> PyResult<PyObject> {
    let opts = Options {
        parser: parser_of(parser)?,
        ..Options::default()
    };
    let limits = limits(timeout_ms);
    let (bytes, charset) = html_bytes(html, &limits)?;
    let json = interruptible(py, &limits, |deadline| {
        analyse(
            &bytes,
            charset,
            url.as_deref(),
            Spans::Keep,
            &limits,
            deadline,
            &opts,
        )
        .map(|a| a.segments_json().to_string())
    })?;
    json_to_py(py, &json)
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
#[pyclass(module = "pagelevel")]
struct SiteLevel {
    options: sitelevel::SiteLevelOptions,
    /// Added pages in order: URL, parsed page, index in `run`.
    pages: Vec<(Option<String>, Page, usize)>,
    run: sitelevel::SiteLevel,
    finished: bool,
}

impl SiteLevel {
    /// Finishes the run if needed and computes `f(page, labels)` for every page.
    fn per_page<T: Send>(
        &mut self,
        py: Python<'_>,
        f: impl Fn(&Page, &[bool]) -> T + Send + Sync,
    ) -> PyResult<Vec<PageResult<T>>> {
        py.allow_threads(|| {
            if !self.finished {
                self.run.finish().map_err(|e| e.to_string())?;
                self.finished = true;
            }
            let run = &self.run;
            Ok::<_, String>(
                self.pages
                    .iter()
                    .map(|(url, page, k)| {
                        let out = run
                            .labels_of(*k, &SiteTree::new(&page.dom))
                            .map(|labels| f(page, &labels))
                            .map_err(|e| e.to_string());
                        (url.clone(), out)
                    })
                    .collect(),
            )
        })
        .map_err(PageLevelError::new_err)
    }
}

#[pymethods]
impl SiteLevel {
    /// θ: a subtree is template when it occurs on at least max(2, ⌈θ·N⌉) of the N pages.
    #[new]
    // The literal (sitelevel::DEFAULT_THETA) shows in Python's signature; an expression would not.
    #[pyo3(signature = (theta=0.1))]
    fn new(theta: f64) -> PyResult<Self> {
        sitelevel::min_pages_for(1, theta).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let options = sitelevel::SiteLevelOptions::with_theta(theta);
        Ok(SiteLevel {
            run: sitelevel::SiteLevel::new(options.clone()),
            options,
            pages: Vec::new(),
            finished: false,
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
        let (bytes, charset) = html_bytes(html, &limits)?;
        let hash = &self.options.hash;
        let page = interruptible(py, &limits, |deadline| {
            let page = parse(
                &bytes,
                charset,
                url.as_deref(),
                Spans::Skip,
                &limits,
                deadline,
                parser,
            )?;
            let hashes = sitelevel::hash_page(&SiteTree::new(&page.dom), hash);
            Ok::<_, String>((page, hashes))
        })?;
        let k = self.run.add_page_hashes(page.1);
        self.finished = false;
        self.pages.push((url, page.0, k));
        Ok(self.pages.len() - 1)
    }

    /// Pages added so far.
    fn __len__(&self) -> usize {
        self.pages.len()
    }

    /// Per page in the order added, `{"url", "labels": [{"path", "template"}, …]}` over its
    /// elements and non-blank text nodes (the lines of `pagelevel sitelevel`). Raises
    /// PageLevelError when the site has too few distinct pages.
    fn labels(&mut self, py: Python<'_>) -> PyResult<PyObject> {
        let rows = self.per_page(py, |page, labels| {
            let mut out = Vec::new();
            site::for_each_reported(&page.dom, |i, path| {
                out.push(serde_json::json!({"path": path, "template": labels[i]}));
            });
            out
        })?;
        let json: Vec<serde_json::Value> = rows
            .into_iter()
            .map(|(url, r)| match r {
                Ok(labels) => serde_json::json!({"url": url, "labels": labels}),
                Err(e) => serde_json::json!({"url": url, "error": e}),
            })
            .collect();
        json_to_py(py, &serde_json::Value::Array(json).to_string())
    }

    /// Per page in the order added, its visible text outside templates (the `text` of
    /// `pagelevel sitelevel --extract`).
    fn texts(&mut self, py: Python<'_>) -> PyResult<Vec<String>> {
        let rows = self.per_page(py, |page, labels| site::extract_text(&page.dom, labels))?;
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
    let names: Vec<&str> = FORMATS.iter().map(|(n, _)| *n).collect();
    m.add("FORMATS", names)?;
    Ok(())
}
