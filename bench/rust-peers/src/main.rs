//! `rust-peers`: main text of HTML pages by one of two Rust extractors, rs-trafilatura or
//! dom_smoothie, in the output format of `pagelevel extract`, for `bench/quality.py`.
//!
//! Usage: `rust-peers --system rs-trafilatura|dom-smoothie [--format text|markdown] [-j N]
//! [--timeout-ms MS] [--time] [--manifest M]... [FILE]...`
//!
//! Prints one JSON line per page in input order: `{"path", "text", "error"?, "note"?,
//! "seconds"?}` (`seconds`: the extraction call's wall time, with `--time` only). For a
//! manifest page `path` is the manifest's `html` field (relative to the data root, the manifest
//! folder's parent); for a file it is the argument as given. `.gz` files are gunzipped.
//!
//! - rs-trafilatura: `rs_trafilatura::extract_bytes(bytes)` (default `Options`, no URL), text
//!   = `content_text`. The crate decodes the bytes itself (`<meta charset>` / http-equiv in the
//!   first 1024 bytes, else UTF-8, lossy): its README's call "for HTML with unknown encoding".
//!   `--format markdown` (for `bench/structure.py`): `extract_bytes_with_options` with
//!   `output_markdown: true` and the manifest line's `url` as `Options::url`, text =
//!   `content_markdown` (the crate's GFM rendering of its `content_html`).
//! - dom_smoothie: `Readability::new(str, None, Some(Config::default()))`, `parse()`, text =
//!   `text_content` (`TextMode::Raw`, as readability.js's `textContent`). It takes a str and has
//!   no decoder, so the bytes are decoded by [`decode`]: byte-order mark, else the first
//!   `<meta>` charset in the first 1024 bytes (WHATWG prescan, simplified), else UTF-8 (lossy).
//!
//! A "nothing found" answer (rs-trafilatura `Error::NoContent`, dom_smoothie `GrabFailed`) is
//! an empty `text` with a `note`, as Python trafilatura's `None` is an empty text in the bench;
//! every other error, a panic (caught per page) or a page over `--timeout-ms` is an `error`.
//!
//! `--time` prints `{"system", "pages", "cpu_s", "wall_s"}` to stderr: the sums over pages of
//! the extraction call's thread CPU time and wall time (decoding included, reading and
//! gunzipping the file not).

use std::io::{BufRead, BufReader, Read, Write};
use std::panic::{self, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::{Duration, Instant};

use encoding_rs::{Encoding, UTF_16BE, UTF_16LE, UTF_8, WINDOWS_1252, X_USER_DEFINED};
use rayon::prelude::*;
use serde_json::{json, Map, Value};

/// A page's own thread gets a large stack: deeply nested HTML recurses in the parsers.
const PAGE_STACK: usize = 256 << 20;

#[derive(Clone, Copy)]
enum System {
    RsTrafilatura,
    DomSmoothie,
}

impl System {
    fn parse(s: &str) -> Option<System> {
        match s {
            "rs-trafilatura" | "rs_trafilatura" => Some(System::RsTrafilatura),
            "dom-smoothie" | "dom_smoothie" => Some(System::DomSmoothie),
            _ => None,
        }
    }

    fn name(self) -> &'static str {
        match self {
            System::RsTrafilatura => "rs-trafilatura",
            System::DomSmoothie => "dom_smoothie",
        }
    }
}

/// One input page: the name printed as `path` and the file to read.
struct Page {
    name: String,
    file: PathBuf,
    /// The manifest line's `url`, given to rs-trafilatura in Markdown mode.
    url: Option<String>,
}

/// What one extraction produced: text (maybe with a note) or an error message.
enum Outcome {
    Text(String, Option<String>),
    Error(String),
}

/// One page's result and the CPU and wall seconds of its extraction call.
struct Done {
    outcome: Outcome,
    cpu: f64,
    wall: f64,
}

struct Args {
    system: System,
    markdown: bool,
    jobs: usize,
    timeout: Option<Duration>,
    time: bool,
    pages: Vec<Page>,
}

const USAGE: &str = "usage: rust-peers --system rs-trafilatura|dom-smoothie \
[--format text|markdown (rs-trafilatura only)] [-j N] \
[--timeout-ms MS (default 60000, 0 = none)] [--time] [--manifest M]... [FILE]...";

fn parse_args() -> Result<Args, String> {
    let mut system = None;
    let mut markdown = false;
    let mut jobs = 0;
    let mut timeout_ms: u64 = 60_000;
    let mut time = false;
    let mut pages = Vec::new();
    let mut it = std::env::args().skip(1);
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().ok_or_else(|| format!("{what} needs a value"));
        match a.as_str() {
            "-h" | "--help" => {
                println!("{USAGE}");
                std::process::exit(0);
            }
            "--system" => {
                let v = value("--system")?;
                system = Some(System::parse(&v).ok_or_else(|| format!("unknown system {v:?}"))?);
            }
            "--format" => {
                markdown = match value("--format")?.as_str() {
                    "text" => false,
                    "markdown" => true,
                    v => return Err(format!("unknown format {v:?}")),
                }
            }
            "-j" | "--jobs" => jobs = value("-j")?.parse().map_err(|e| format!("-j: {e}"))?,
            "--timeout-ms" => {
                timeout_ms = value("--timeout-ms")?
                    .parse()
                    .map_err(|e| format!("--timeout-ms: {e}"))?
            }
            "--time" => time = true,
            "--manifest" => pages.extend(read_manifest(Path::new(&value("--manifest")?))?),
            _ if a.starts_with('-') && a != "-" => return Err(format!("unknown option {a}")),
            _ => pages.push(Page {
                file: PathBuf::from(&a),
                name: a,
                url: None,
            }),
        }
    }
    let system = system.ok_or("--system is required")?;
    if markdown && !matches!(system, System::RsTrafilatura) {
        return Err("--format markdown is for rs-trafilatura only".into());
    }
    Ok(Args {
        system,
        markdown,
        jobs,
        timeout: (timeout_ms > 0).then(|| Duration::from_millis(timeout_ms)),
        time,
        pages,
    })
}

/// The pages of a JSON-lines manifest; `html` is relative to the manifest folder's parent.
fn read_manifest(path: &Path) -> Result<Vec<Page>, String> {
    let f = std::fs::File::open(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let root = path
        .canonicalize()
        .map_err(|e| format!("{}: {e}", path.display()))?
        .parent()
        .and_then(Path::parent)
        .map(Path::to_path_buf)
        .unwrap_or_default();
    let mut pages = Vec::new();
    for (n, line) in BufReader::new(f).lines().enumerate() {
        let line = line.map_err(|e| format!("{}: {e}", path.display()))?;
        if line.trim().is_empty() {
            continue;
        }
        let rec: Value = serde_json::from_str(&line)
            .map_err(|e| format!("{}:{}: {e}", path.display(), n + 1))?;
        let html = rec["html"]
            .as_str()
            .ok_or_else(|| format!("{}:{}: no \"html\" field", path.display(), n + 1))?;
        pages.push(Page {
            name: html.to_string(),
            file: root.join(html),
            url: rec["url"].as_str().map(str::to_string),
        });
    }
    Ok(pages)
}

/// The file's bytes, gunzipped when it ends in `.gz`.
fn read_page(file: &Path) -> std::io::Result<Vec<u8>> {
    let raw = std::fs::read(file)?;
    if file.extension().is_some_and(|e| e == "gz") {
        let mut out = Vec::with_capacity(raw.len() * 4);
        flate2::read::MultiGzDecoder::new(&raw[..]).read_to_end(&mut out)?;
        Ok(out)
    } else {
        Ok(raw)
    }
}

/// Bytes to str for dom_smoothie: BOM, else the first `<meta>` charset in the first 1024 bytes,
/// else UTF-8; malformed sequences become U+FFFD.
fn decode(bytes: &[u8]) -> String {
    if let Some((enc, bom)) = Encoding::for_bom(bytes) {
        return enc
            .decode_without_bom_handling(&bytes[bom..])
            .0
            .into_owned();
    }
    let enc = meta_charset(&bytes[..bytes.len().min(1024)]).unwrap_or(UTF_8);
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

/// The encoding named by the first `<meta ... charset=X ...>` in `head` (covers `<meta charset>`
/// and http-equiv's `content="...; charset=X"`), with WHATWG's UTF-16 → UTF-8 and
/// x-user-defined → windows-1252 overrides.
fn meta_charset(head: &[u8]) -> Option<&'static Encoding> {
    let lower = head.to_ascii_lowercase();
    let mut from = 0;
    while let Some(at) = find(&lower[from..], b"<meta") {
        let start = from + at + 5;
        let end = find(&lower[start..], b">").map_or(lower.len(), |e| start + e);
        let tag = &lower[start..end];
        from = end;
        let Some(c) = find(tag, b"charset") else {
            continue;
        };
        let rest = &tag[c + 7..];
        let rest = &rest[rest.iter().take_while(|b| b.is_ascii_whitespace()).count()..];
        let Some(rest) = rest.strip_prefix(b"=") else {
            continue;
        };
        let rest = &rest[rest
            .iter()
            .take_while(|&&b| b.is_ascii_whitespace() || b == b'"' || b == b'\'')
            .count()..];
        let len = rest
            .iter()
            .take_while(|&&b| !(b.is_ascii_whitespace() || b"\"';/>".contains(&b)))
            .count();
        if let Some(enc) = Encoding::for_label(&rest[..len]) {
            return Some(match enc {
                e if e == UTF_16BE || e == UTF_16LE => UTF_8,
                e if e == X_USER_DEFINED => WINDOWS_1252,
                e => e,
            });
        }
    }
    None
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// rs-trafilatura's Markdown (`output_markdown`), with the page's URL as trafilatura gets it.
fn extract_markdown(bytes: &[u8], url: Option<String>) -> Outcome {
    let options = rs_trafilatura::Options {
        output_markdown: true,
        url,
        ..rs_trafilatura::Options::default()
    };
    match rs_trafilatura::extract_bytes_with_options(bytes, &options) {
        Ok(r) => match r.content_markdown {
            Some(md) => Outcome::Text(md, None),
            None => Outcome::Text(String::new(), Some("no content html to render".into())),
        },
        Err(rs_trafilatura::Error::NoContent) => {
            Outcome::Text(String::new(), Some("no content found".into()))
        }
        Err(e) => Outcome::Error(e.to_string()),
    }
}

/// The call each crate documents for main text as plain text.
fn extract(system: System, bytes: &[u8]) -> Outcome {
    match system {
        System::RsTrafilatura => match rs_trafilatura::extract_bytes(bytes) {
            Ok(r) => Outcome::Text(r.content_text, None),
            Err(rs_trafilatura::Error::NoContent) => {
                Outcome::Text(String::new(), Some("no content found".into()))
            }
            Err(e) => Outcome::Error(e.to_string()),
        },
        System::DomSmoothie => {
            let cfg = dom_smoothie::Config::default();
            let parsed = dom_smoothie::Readability::new(decode(bytes), None, Some(cfg))
                .and_then(|mut r| r.parse());
            match parsed {
                Ok(a) => Outcome::Text(a.text_content.to_string(), None),
                Err(dom_smoothie::ReadabilityError::GrabFailed) => {
                    Outcome::Text(String::new(), Some("failed to grab the article".into()))
                }
                Err(e) => Outcome::Error(e.to_string()),
            }
        }
    }
}

/// CPU time of the calling thread in seconds.
fn thread_cpu() -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes one timespec through a valid pointer.
    unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
    ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
}

fn panic_message(p: &(dyn std::any::Any + Send)) -> String {
    p.downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| p.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string payload".into())
}

/// Reads and extracts one page in its own thread; a page over `timeout` is reported and its
/// thread left running (threads cannot be killed; it ends with the process).
fn run_page(system: System, markdown: bool, page: &Page, timeout: Option<Duration>) -> Done {
    let failed = |msg: String| Done {
        outcome: Outcome::Error(msg),
        cpu: 0.0,
        wall: 0.0,
    };
    let bytes = match read_page(&page.file) {
        Ok(b) => b,
        Err(e) => return failed(format!("{}: {e}", page.file.display())),
    };
    let url = page.url.clone();
    let (tx, rx) = mpsc::channel();
    let spawned = std::thread::Builder::new()
        .stack_size(PAGE_STACK)
        .spawn(move || {
            let (c0, t0) = (thread_cpu(), Instant::now());
            let outcome = panic::catch_unwind(AssertUnwindSafe(|| match markdown {
                true => extract_markdown(&bytes, url),
                false => extract(system, &bytes),
            }))
            .unwrap_or_else(|p| Outcome::Error(format!("panic: {}", panic_message(&*p))));
            let _ = tx.send(Done {
                outcome,
                cpu: thread_cpu() - c0,
                wall: t0.elapsed().as_secs_f64(),
            });
        });
    if let Err(e) = spawned {
        return failed(format!("cannot start a thread: {e}"));
    }
    let got = match timeout {
        Some(t) => rx.recv_timeout(t).map_err(|_| {
            format!(
                "timeout: over {} ms (its thread keeps running)",
                t.as_millis()
            )
        }),
        None => rx.recv().map_err(|_| "the page's thread died".to_string()),
    };
    got.unwrap_or_else(failed)
}

fn main() {
    let args = parse_args().unwrap_or_else(|e| {
        eprintln!("rust-peers: {e}\n{USAGE}");
        std::process::exit(2);
    });
    // Panics are caught per page and reported in its line; keep the default hook's trace off stderr.
    panic::set_hook(Box::new(|_| {}));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs)
        .build()
        .unwrap_or_else(|e| {
            eprintln!("rust-peers: {e}");
            std::process::exit(2);
        });
    let done: Vec<Done> = pool.install(|| {
        args.pages
            .par_iter()
            .map(|p| run_page(args.system, args.markdown, p, args.timeout))
            .collect()
    });
    let mut out = std::io::BufWriter::new(std::io::stdout().lock());
    for (page, d) in args.pages.iter().zip(&done) {
        let mut m = Map::new();
        m.insert("path".into(), page.name.clone().into());
        if args.time {
            m.insert("seconds".into(), d.wall.into());
        }
        match &d.outcome {
            Outcome::Text(text, note) => {
                m.insert("text".into(), text.clone().into());
                if let Some(n) = note {
                    m.insert("note".into(), n.clone().into());
                }
            }
            Outcome::Error(e) => {
                m.insert("text".into(), "".into());
                m.insert("error".into(), e.clone().into());
            }
        }
        let line = serde_json::to_string(&Value::Object(m)).expect("a JSON map serialises");
        // Python's str.splitlines() also breaks at U+0085/U+2028/U+2029, which serde_json leaves raw.
        let line = line
            .replace('\u{85}', "\\u0085")
            .replace('\u{2028}', "\\u2028")
            .replace('\u{2029}', "\\u2029");
        if writeln!(out, "{line}").is_err() {
            std::process::exit(1);
        }
    }
    if out.flush().is_err() {
        std::process::exit(1);
    }
    if args.time {
        let t = json!({
            "system": args.system.name(),
            "pages": done.len(),
            "cpu_s": done.iter().map(|d| d.cpu).sum::<f64>(),
            "wall_s": done.iter().map(|d| d.wall).sum::<f64>(),
        });
        eprintln!("{t}");
    }
}
