//! The page commands' inputs and outputs (`extract`, `segment`, `features`): files, folders
//! walked, input lists and WARC files in; standard output, or one file per page in an output
//! folder, out; a progress bar on a terminal and a summary at the end.
//!
//! Results are written in input order on the main thread ([`pagelevel::batch::run_stream_with`]),
//! so the output, the files written and the messages are the same for any `-j`.

use std::collections::{BTreeMap, HashSet};
use std::io::{IsTerminal, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Instant;

use anyhow::Context as _;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use pagelevel::batch::{analyze_job, JobOptions};
use pagelevel::input::jobs::{check_stdin, Job, Jobs, Origin};
use pagelevel::input::walk::{self, Input};
use pagelevel::input::warc;
use pagelevel::pipeline::{Analysis, Options};
use pagelevel::Limits;

use crate::pipeline_args::{message, PipelineArgs, TimeoutArg};

/// The pages a page command reads, and where its output goes.
#[derive(clap::Args, Debug, Clone)]
pub struct PageInputs {
    /// HTML pages (.html, .htm, .xhtml, gzipped or not), WARC files (.warc, .warc.gz: their HTML
    /// responses) and folders (walked for those, in sorted order); `-` reads one page (HTML,
    /// gzipped or not) from standard input.
    #[arg(required_unless_present = "input_list")]
    pub pages: Vec<PathBuf>,
    #[command(flatten)]
    pub list: InputList,
    /// The pages' URL (for the intra-site link feature and the URL's shape; WARC records use their target URI, and
    /// an input list's URLs come first).
    #[arg(long)]
    pub url: Option<String>,
    /// Write one file per page into this folder instead of standard output: the page's path
    /// relative to the folder it was found in (a file's own name when given itself) with the
    /// format's extension; a WARC record as FOLDER/<record id>.EXT, FOLDER the WARC file's name
    /// without .warc(.gz). Each file is written whole or not at all.
    #[arg(long, value_name = "DIR")]
    pub output_dir: Option<PathBuf>,
    /// With --output-dir: leave pages whose output file exists alone (resumes a run that was
    /// stopped).
    #[arg(long, requires = "output_dir")]
    pub skip_existing: bool,
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// What a command's output for one page is like.
#[derive(Debug, Clone, Copy)]
pub struct Format {
    /// The extension of a page's file in an output folder (without the dot).
    pub ext: &'static str,
    /// Whether a failure is a line of standard output (JSON Lines), rather than a message on
    /// stderr.
    pub failure_lines: bool,
    /// Whether each page on standard output comes after a `==> NAME <==` line when there are
    /// several (the text formats).
    pub headers: bool,
}

/// One page's result: its output, a failure, or nothing done (its output file existed).
pub enum Outcome {
    /// What the page's output is (a file's content, or its part of standard output).
    Done(Vec<u8>),
    /// The page failed.
    Failed {
        /// [`pagelevel::Error::kind`], for the summary.
        kind: &'static str,
        /// The message, without the page's name.
        message: String,
        /// What JSON Lines output holds for it on standard output.
        line: Vec<u8>,
    },
    /// Its output file existed (`--skip-existing`).
    Skipped,
}

/// A page's result with its name, and its output file in an output folder.
struct Item {
    /// [`Origin::name`].
    name: String,
    /// The output file, relative to the output folder (`None` for a failure without a page).
    file: Option<PathBuf>,
    outcome: Outcome,
}

/// The kind of `e` for the summary: the library error's kind, else `other`.
pub fn kind_of(e: &anyhow::Error) -> &'static str {
    if let Some(e) = e.downcast_ref::<pagelevel::Error>() {
        return e.kind();
    }
    if e.downcast_ref::<warc::Junk>().is_some() {
        return "WARC record";
    }
    "other"
}

/// A failure of the page at `origin`: its kind, its message, and the line JSON Lines output
/// holds for it (`line(origin, e)`).
pub fn failure(origin: &Origin, e: &anyhow::Error, line: Vec<u8>) -> Outcome {
    Outcome::Failed {
        kind: kind_of(e),
        message: message(origin, e),
        line,
    }
}

/// `--input-list`, read the same way by every command that takes pages by path (the page
/// commands, `dedup`, `sitelevel`).
#[derive(clap::Args, Debug, Clone)]
pub struct InputList {
    /// A file listing inputs, one a line: a path (page, WARC file or folder), or a path, a tab
    /// and the page's URL. Blank lines are skipped. Read after the PAGES given.
    #[arg(long, value_name = "FILE")]
    pub input_list: Option<PathBuf>,
}

impl InputList {
    /// The inputs `paths` name (folders walked, [`walk::expand`]), then the list's.
    pub fn inputs(&self, paths: &[PathBuf]) -> anyhow::Result<Vec<Input>> {
        let mut inputs = walk::expand(paths);
        inputs.extend(self.listed()?);
        Ok(inputs)
    }

    /// The list's inputs ([`walk::read_list`]; none without `--input-list`): a bad line is an
    /// input with a problem, to report as that input's failure; a list that cannot be read is
    /// the error.
    pub fn listed(&self) -> anyhow::Result<Vec<Input>> {
        let Some(list) = &self.input_list else {
            return Ok(Vec::new());
        };
        walk::read_list(list).map_err(|e| match e {
            pagelevel::Error::Io { source, .. } => anyhow::Error::new(source)
                .context(format!("--input-list {}: cannot read", list.display())),
            e => e.into(),
        })
    }
}

impl PageInputs {
    /// The inputs in order: the pages given (folders walked), then the input list's.
    pub fn inputs(&self) -> anyhow::Result<Vec<Input>> {
        check_stdin(&self.pages)?;
        let inputs = self.list.inputs(&self.pages)?;
        let stdin = inputs.iter().filter(|i| walk_stdin(i)).count();
        if stdin > 1 {
            anyhow::bail!("`-` (standard input) may be given once");
        }
        Ok(inputs)
    }

    /// Runs `work` on every page of the inputs (in parallel) and writes each result in input
    /// order: to standard output, or to its file in `--output-dir`. `work` returns the page's
    /// name ([`Origin::name`]) and its outcome. Reports failures, shows progress on a terminal
    /// and a summary at the end (on a terminal, or with `--output-dir`). Returns the number of
    /// failures.
    pub fn run(
        &self,
        format: Format,
        limits: Limits,
        work: impl Fn(Job<'_>) -> (String, Outcome) + Sync,
    ) -> anyhow::Result<usize> {
        let inputs = self.inputs()?;
        let dir = match &self.output_dir {
            Some(d) => Some(OutDir::create(d)?),
            None => None,
        };
        let total: u64 = inputs.iter().filter_map(|i| i.size).sum();
        let done = Done::default();
        let bar = bar(total, &done);
        let start = Instant::now();
        let mut sink = Sink {
            dir,
            format,
            stdout: std::io::BufWriter::new(std::io::stdout().lock()),
            pending: None,
            seen: 0,
            written: HashSet::new(),
            stats: Stats::default(),
            bar: bar.clone(),
        };
        let note_bar = bar.clone();
        let jobs = Jobs::new(&inputs, limits, |path, skipped| {
            if skipped > 0 {
                let path = path.display();
                note_bar.suspend(|| {
                    eprintln!("{path}: {skipped} records skipped (not HTML responses)")
                });
            }
        });
        // The bytes of the inputs before each job's: whole files before it, and for a record
        // its offset in its WARC file.
        let mut base = 0u64;
        let mut current: Option<&Input> = None;
        let items = jobs.map(|(job, size)| {
            let input = job.input();
            if let Some(c) = current.filter(|c| !std::ptr::eq(*c, input)) {
                base += c.size.unwrap_or(0);
            }
            current = Some(input);
            let pos = base
                + match &job {
                    Job::Record(_, item) => item.place().offset,
                    _ => input.size.unwrap_or(0),
                };
            ((job, pos), size)
        });
        let skip = self.skip_existing;
        let out_dir = sink.dir.as_ref().map(|d| d.path.clone());
        pagelevel::batch::run_stream_with(
            items,
            |(job, pos)| {
                let file = out_dir.as_ref().and_then(|_| output_file(&job, format.ext));
                let exists =
                    skip && matches!((&out_dir, &file), (Some(d), Some(f)) if d.join(f).exists());
                let item = if exists {
                    Item {
                        name: job_name(&job),
                        file,
                        outcome: Outcome::Skipped,
                    }
                } else {
                    let (name, outcome) = work(job);
                    Item {
                        name,
                        file,
                        outcome,
                    }
                };
                done.page(&bar, pos);
                item
            },
            |item| sink.push(item),
        )?;
        sink.finish()?;
        bar.finish_and_clear();
        let stats = &sink.stats;
        if std::io::stderr().is_terminal() || self.output_dir.is_some() {
            eprintln!(
                "pagelevel: {}",
                stats.summary(start.elapsed().as_secs_f64(), sink.dir.is_some())
            );
        }
        Ok(stats.failed.values().sum())
    }
}

impl PageInputs {
    /// Runs the pipeline on every page ([`run`](PageInputs::run)) and writes what `emit` makes
    /// of each analysis; a page that fails has its outcome made of `line(origin, error)`, what
    /// JSON Lines output holds for it. Returns the number of failed pages (and bad WARC
    /// records and junk spans).
    pub fn for_each_analysis(
        &self,
        pipeline: &PipelineArgs,
        spans: pagelevel::Spans,
        format: Format,
        emit: impl Fn(&Origin, &Analysis) -> anyhow::Result<Vec<u8>> + Sync,
        line: impl Fn(&Origin, &anyhow::Error) -> Vec<u8> + Sync,
    ) -> anyhow::Result<usize> {
        let model = pipeline.model()?;
        let options = Options {
            parser: pipeline.limits.parser(),
            ..pipeline.options()
        };
        let limits = self.timeout.with(pipeline.limits.limits());
        let with = JobOptions {
            model: &model,
            options: &options,
            limits,
            spans,
            url: self.url.as_deref(),
        };
        self.run(format, limits, |job| {
            analyze_job(
                job,
                &with,
                |origin, a| {
                    Ok::<_, anyhow::Error>((origin.name(), Outcome::Done(emit(origin, a)?)))
                },
                |origin, e| (origin.name(), failure(origin, e, line(origin, e))),
            )
            .0
        })
    }
}

fn walk_stdin(i: &Input) -> bool {
    pagelevel::input::jobs::is_stdin(&i.path) && i.problem.is_none()
}

/// A job's name before it is read ([`Origin::name`] of what it will be).
fn job_name(job: &Job<'_>) -> String {
    match job {
        Job::Record(i, warc::Item::Page(p)) => Origin::Record {
            path: &i.path,
            record_id: &p.record_id,
            uri: p.uri.as_deref(),
        }
        .name(),
        _ => Origin::File(&job.input().path).name(),
    }
}

/// The output file of a page job, relative to the output folder: the input's name with the
/// extension `ext` (instead of its own, `.gz` and all), or for a WARC record the WARC file's
/// name without `.warc(.gz)`, then its record id made a file name; `None` for what is not a
/// page (a failure, a bad record, junk).
fn output_file(job: &Job<'_>, ext: &str) -> Option<PathBuf> {
    match job {
        Job::Page(input, _) => Some(with_ext(&safe_name(&input.name), ext)),
        Job::Record(input, warc::Item::Page(p)) => {
            let folder = with_ext(&safe_name(&input.name), "");
            Some(folder.join(format!("{}.{ext}", record_file_name(&p.record_id))))
        }
        _ => None,
    }
}

/// `name` with only its plain components (no root, `..` or `.`), `page` when none is left.
fn safe_name(name: &Path) -> PathBuf {
    let p: PathBuf = name
        .components()
        .filter_map(|c| match c {
            Component::Normal(s) => Some(s),
            _ => None,
        })
        .collect();
    if p.as_os_str().is_empty() {
        PathBuf::from("page")
    } else {
        p
    }
}

/// `name` without `.gz` and then its own extension, with `.ext` instead (none when `ext` is
/// empty).
fn with_ext(name: &Path, ext: &str) -> PathBuf {
    let mut p = name.to_path_buf();
    if p.extension().is_some_and(|e| e.eq_ignore_ascii_case("gz")) {
        p.set_extension("");
    }
    p.set_extension(ext);
    p
}

/// A record id as a file name: without `<…>` and a `urn:uuid:` prefix, every character but
/// ASCII letters, digits, `-`, `_` and `.` as `_`, at most 150 bytes; `record` when empty.
pub fn record_file_name(id: &str) -> String {
    let id = id.trim().trim_start_matches('<').trim_end_matches('>');
    let id = id.strip_prefix("urn:uuid:").unwrap_or(id);
    let mut s: String = id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .take(150)
        .collect();
    // No hidden files, no `.` or `..`.
    if s.starts_with('.') {
        s.replace_range(0..1, "_");
    }
    if s.is_empty() {
        s.push_str("record");
    }
    s
}

/// The output folder.
struct OutDir {
    path: PathBuf,
}

impl OutDir {
    /// The folder at `path`, made when missing; an error when it is a file or cannot be made.
    fn create(path: &Path) -> anyhow::Result<OutDir> {
        if path.exists() && !path.is_dir() {
            anyhow::bail!(
                "--output-dir {}: exists and is not a folder",
                path.display()
            );
        }
        std::fs::create_dir_all(path)
            .with_context(|| format!("--output-dir {}: cannot make the folder", path.display()))?;
        Ok(OutDir {
            path: path.to_path_buf(),
        })
    }

    /// Writes `bytes` to `file` (relative to the folder) whole or not at all: into a temporary
    /// file beside it, then renamed over it.
    fn write(&self, file: &Path, bytes: &[u8]) -> std::io::Result<()> {
        let target = self.path.join(file);
        let parent = target.parent().unwrap_or(&self.path);
        std::fs::create_dir_all(parent)?;
        let mut tmp_name = std::ffi::OsString::from(".");
        tmp_name.push(target.file_name().unwrap_or_default());
        tmp_name.push(format!(".{}.tmp", std::process::id()));
        let tmp = parent.join(tmp_name);
        let written = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(bytes)?;
            f.sync_data()?;
            std::fs::rename(&tmp, &target)
        })();
        if written.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        written
    }
}

/// Counts for the summary.
#[derive(Default)]
struct Stats {
    pages: usize,
    done: usize,
    skipped: usize,
    /// Failures by kind.
    failed: BTreeMap<&'static str, usize>,
}

impl Stats {
    /// `N pages in T s (R pages/s): D written, S skipped, F failed (k kind, …)`.
    fn summary(&self, secs: f64, files: bool) -> String {
        let rate = if secs > 0.0 {
            self.pages as f64 / secs
        } else {
            0.0
        };
        let mut s = format!(
            "{} {} in {secs:.1} s ({rate:.1} pages/s): {} {}",
            self.pages,
            if self.pages == 1 { "page" } else { "pages" },
            self.done,
            if files { "written" } else { "done" }
        );
        if self.skipped > 0 {
            s += &format!(", {} skipped (output exists)", self.skipped);
        }
        let failed: usize = self.failed.values().sum();
        if failed > 0 {
            let kinds: Vec<String> = self
                .failed
                .iter()
                .map(|(k, n)| format!("{n} {k}"))
                .collect();
            s += &format!(", {failed} failed ({})", kinds.join(", "));
        }
        s
    }
}

/// Where the results go, in input order.
struct Sink<W: Write> {
    dir: Option<OutDir>,
    format: Format,
    stdout: W,
    /// The first page on standard output, held until it is known whether there are more
    /// (a text format names the pages only then).
    pending: Option<Item>,
    /// Pages so far.
    seen: usize,
    /// Output files written (or skipped) in this run, to refuse a second page with the same.
    written: HashSet<PathBuf>,
    stats: Stats,
    bar: ProgressBar,
}

impl<W: Write> Sink<W> {
    fn push(&mut self, item: Item) -> std::io::Result<()> {
        self.seen += 1;
        self.stats.pages += 1;
        if self.dir.is_some() {
            return self.write_file(item);
        }
        if !self.format.headers {
            return self.write_stdout(item, false);
        }
        match self.seen {
            1 => {
                self.pending = Some(item);
                Ok(())
            }
            _ => {
                if let Some(first) = self.pending.take() {
                    self.write_stdout(first, true)?;
                }
                self.write_stdout(item, true)
            }
        }
    }

    fn fail(&mut self, name: &str, kind: &'static str, message: &str) {
        *self.stats.failed.entry(kind).or_default() += 1;
        self.bar
            .suspend(|| eprintln!("pagelevel: {name}: {message}"));
    }

    fn write_file(&mut self, item: Item) -> std::io::Result<()> {
        let dir = self.dir.as_ref().expect("an output folder");
        let (file, outcome) = match (item.file, item.outcome) {
            (_, Outcome::Failed { kind, message, .. }) => {
                self.fail(&item.name, kind, &message);
                return Ok(());
            }
            (Some(file), outcome) => (file, outcome),
            // A page always has a file; a failure has been handled.
            (None, _) => return Ok(()),
        };
        if !self.written.insert(file.clone()) {
            let message = format!(
                "output file {} is already that of an earlier page of this run",
                dir.path.join(&file).display()
            );
            self.fail(&item.name, "output name taken", &message);
            return Ok(());
        }
        match outcome {
            Outcome::Done(bytes) => match dir.write(&file, &bytes) {
                Ok(()) => self.stats.done += 1,
                Err(e) => {
                    let message = format!("{}: cannot write: {e}", dir.path.join(&file).display());
                    self.fail(&item.name, "cannot write", &message);
                }
            },
            Outcome::Skipped => self.stats.skipped += 1,
            Outcome::Failed { .. } => unreachable!("handled above"),
        }
        Ok(())
    }

    fn write_stdout(&mut self, item: Item, header: bool) -> std::io::Result<()> {
        match item.outcome {
            Outcome::Done(bytes) => {
                self.stats.done += 1;
                if header {
                    writeln!(self.stdout, "==> {} <==", item.name)?;
                }
                self.stdout.write_all(&bytes)?;
                if header && !bytes.is_empty() && !bytes.ends_with(b"\n") {
                    self.stdout.write_all(b"\n")?;
                }
            }
            Outcome::Failed {
                kind,
                message,
                line,
            } => {
                if self.format.failure_lines {
                    *self.stats.failed.entry(kind).or_default() += 1;
                    self.stdout.write_all(&line)?;
                } else {
                    self.fail(&item.name, kind, &message);
                }
            }
            Outcome::Skipped => self.stats.skipped += 1,
        }
        Ok(())
    }

    fn finish(&mut self) -> std::io::Result<()> {
        if let Some(only) = self.pending.take() {
            self.write_stdout(only, false)?;
        }
        self.stdout.flush()
    }
}

/// The pages done and the input bytes reached, counted on the worker threads as each page
/// ends (results are written a window later); the bar reads them when it draws, so a page
/// costs two atomic operations, not a lock.
#[derive(Clone, Default)]
struct Done {
    pages: Arc<AtomicU64>,
    bytes: Arc<AtomicU64>,
}

impl Done {
    /// Counts a page whose input ends `pos` bytes into the inputs, and moves the bar there
    /// (pages end out of order within a window: the bar shows the furthest).
    fn page(&self, bar: &ProgressBar, pos: u64) {
        self.pages.fetch_add(1, Ordering::Relaxed);
        let furthest = self.bytes.fetch_max(pos, Ordering::Relaxed).max(pos);
        bar.set_position(furthest);
    }
}

/// A progress bar on stderr when it is a terminal (hidden otherwise) over `total` bytes of
/// input: position, the pages `done` and pages/s, and an ETA; a spinner when the total is not
/// known (standard input).
fn bar(total: u64, done: &Done) -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(total), ProgressDrawTarget::hidden());
    }
    let pages = done.pages.clone();
    let key = move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
        let n = pages.load(Ordering::Relaxed);
        let secs = state.elapsed().as_secs_f64().max(1e-3);
        let _ = std::fmt::Write::write_fmt(
            w,
            format_args!("{n} pages, {:.1} pages/s", n as f64 / secs),
        );
    };
    if total == 0 {
        let bar = ProgressBar::new_spinner();
        bar.set_style(
            ProgressStyle::with_template("{spinner} {pages} {elapsed}")
                .map(|s| s.with_key("pages", key))
                .unwrap_or_else(|_| ProgressStyle::default_spinner()),
        );
        return bar;
    }
    let bar = ProgressBar::new(total);
    bar.set_style(
        ProgressStyle::with_template("{bar:30} {percent:>3}% {pages}, eta {eta}")
            .map(|s| s.with_key("pages", key))
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    bar
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn record_ids_become_plain_file_names() {
        assert_eq!(
            record_file_name("<urn:uuid:0f3a-11ee-b8c2>"),
            "0f3a-11ee-b8c2"
        );
        assert_eq!(
            record_file_name("<http://x.test/a?b=c>"),
            "http___x.test_a_b_c"
        );
        assert_eq!(record_file_name("../../etc/passwd"), "_._.._etc_passwd");
        assert_eq!(record_file_name("<>"), "record");
        assert_eq!(record_file_name(&"é".repeat(400)).len(), 150);
    }

    #[test]
    fn output_names_take_the_formats_extension() {
        assert_eq!(
            with_ext(Path::new("a/b.html.gz"), "txt"),
            PathBuf::from("a/b.txt")
        );
        assert_eq!(with_ext(Path::new("b.XHTML"), "md"), PathBuf::from("b.md"));
        assert_eq!(with_ext(Path::new("c.warc.gz"), ""), PathBuf::from("c"));
        assert_eq!(safe_name(Path::new("/x/../y")), PathBuf::from("x/y"));
        assert_eq!(safe_name(Path::new("..")), PathBuf::from("page"));
    }
}
