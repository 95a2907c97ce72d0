//! Flags shared by the commands that run the pipeline.

use std::path::{Path, PathBuf};

use pagelevel::warc;

use pagelevel::classify::Model;
use pagelevel::config::{DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT_MS};
use pagelevel::pipeline::Options;
use pagelevel::segment::{
    Penalty, SegmentOptions, Variant, Weight, DEFAULT_C, DEFAULT_MIN_AREA, DEFAULT_THRESHOLD,
};
use pagelevel::structured::{DEFAULT_SWITCH_PENALTY, DEFAULT_TREE_KEEP_WORDS, DEFAULT_TREE_SHARE};
use pagelevel::Limits;

/// The pages a pipeline command reads.
#[derive(clap::Args, Debug, Clone)]
pub struct PageInputs {
    /// HTML pages (.html or .html.gz) and WARC files (.warc, .warc.gz: their HTML responses);
    /// `-` reads one page (HTML, gzipped or not) from standard input.
    #[arg(required = true)]
    pub pages: Vec<PathBuf>,
    /// The pages' URL (for the intra-site link feature; WARC records use their target URI).
    #[arg(long)]
    pub url: Option<String>,
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

/// `e` as one line (`{e:#}`), without a leading `path: ` that the caller prints already.
pub fn without_path(path: &Path, e: &anyhow::Error) -> String {
    strip_path(&path.display().to_string(), &format!("{e:#}")).to_owned()
}

/// `message` without a leading `path: `.
pub fn strip_path<'a>(path: &str, message: &'a str) -> &'a str {
    message
        .strip_prefix(path)
        .and_then(|rest| rest.strip_prefix(": "))
        .unwrap_or(message)
}

/// Whether `path` is `-`, standard input.
fn is_stdin(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Where a page came from: an HTML file, or a record of a WARC file.
pub enum Origin<'a> {
    /// An HTML file.
    File(&'a Path),
    /// A WARC record (`record_id` empty for a bad record whose header was not read).
    Record {
        path: &'a Path,
        record_id: &'a str,
        uri: Option<&'a str>,
    },
}

impl Origin<'_> {
    /// The JSON fields naming the page: `path`, and for records `warc_record_id` and `uri`.
    pub fn fields(&self) -> serde_json::Map<String, serde_json::Value> {
        let mut m = serde_json::Map::new();
        match self {
            Origin::File(path) => {
                m.insert("path".into(), path.to_string_lossy().into());
            }
            Origin::Record {
                path,
                record_id,
                uri,
            } => {
                m.insert("path".into(), path.to_string_lossy().into());
                m.insert("warc_record_id".into(), (*record_id).into());
                m.insert("url".into(), (*uri).into());
            }
        }
        m
    }

    /// `e` as one line, without the path when the error already starts with it (the library's
    /// errors name their file; the output names the page once).
    pub fn message(&self, e: &anyhow::Error) -> String {
        let path = match self {
            Origin::File(p) | Origin::Record { path: p, .. } => p,
        };
        without_path(path, e)
    }

    /// A one-line name for the page (separator lines, stderr).
    pub fn name(&self) -> String {
        match self {
            Origin::File(path) => path.display().to_string(),
            Origin::Record {
                path,
                record_id,
                uri,
            } => format!("{} {} {}", path.display(), uri.unwrap_or("-"), record_id),
        }
    }
}

impl PageInputs {
    /// Runs the pipeline on every page (in parallel, output in input order) and writes what
    /// `emit` makes of each analysis; a page that fails writes `failed(origin, error)` instead.
    /// WARC files are streamed record by record in bounded windows. Returns the number of
    /// failed pages (and bad WARC records).
    pub fn for_each_analysis(
        &self,
        pipeline: &PipelineArgs,
        spans: pagelevel::Spans,
        emit: impl Fn(&Origin, &pagelevel::pipeline::Analysis) -> anyhow::Result<Vec<u8>> + Sync,
        failed: impl Fn(&Origin, &anyhow::Error) -> Vec<u8> + Sync,
    ) -> anyhow::Result<usize> {
        if self.pages.iter().filter(|p| is_stdin(p)).count() > 1 {
            anyhow::bail!("`-` (standard input) may be given once");
        }
        let model = pipeline.model()?;
        let opts = pipeline.options();
        let limits = self.timeout.with(pipeline.limits.limits());
        let mut n_failed = 0;
        let mut rest = &self.pages[..];
        while !rest.is_empty() {
            // Consecutive HTML files run as one batch; each WARC file is streamed.
            let html = rest.iter().take_while(|p| !warc::is_warc(p)).count();
            if html > 0 {
                let summary = crate::batch::run(
                    &rest[..html],
                    |path| {
                        // The clock starts when this page's job does, not when the batch did.
                        let deadline = limits.deadline();
                        let url = self.url.as_deref();
                        let page = if is_stdin(path) {
                            let stdin = std::io::stdin().lock();
                            let bytes = pagelevel::input::read_stream(stdin, "-", &limits)?;
                            deadline.check("read")?;
                            pagelevel::Page::from_bytes_with(
                                &bytes, url, None, &limits, &deadline, spans,
                            )?
                        } else {
                            pagelevel::Page::from_path_with(path, url, &limits, &deadline, spans)?
                        };
                        let analysis =
                            pagelevel::pipeline::analyze_within(page, &model, &opts, &deadline)?;
                        let out = emit(&Origin::File(path), &analysis)?;
                        deadline.check("output")?;
                        Ok(out)
                    },
                    |path, e| failed(&Origin::File(path), e),
                )?;
                n_failed += summary.failed;
                rest = &rest[html..];
                continue;
            }
            let path = &rest[0];
            rest = &rest[1..];
            let mut reader = match warc::WarcReader::open(path, &limits) {
                Ok(r) => r,
                Err(e) => {
                    let e = anyhow::Error::new(e).context("cannot read");
                    std::io::Write::write_all(
                        &mut std::io::stdout(),
                        &failed(&Origin::File(path), &e),
                    )?;
                    n_failed += 1;
                    continue;
                }
            };
            let summary = crate::batch::run_stream(&mut reader, |item| match item {
                warc::Item::Page(p) => {
                    let origin = Origin::Record {
                        path,
                        record_id: &p.record_id,
                        uri: p.uri.as_deref(),
                    };
                    let deadline = limits.deadline();
                    let result = pagelevel::Page::from_bytes_with(
                        &p.body,
                        p.uri.as_deref(),
                        p.charset.as_deref(),
                        &limits,
                        &deadline,
                        spans,
                    )
                    .and_then(|page| {
                        pagelevel::pipeline::analyze_within(page, &model, &opts, &deadline)
                    })
                    .map_err(anyhow::Error::new)
                    .and_then(|analysis| {
                        let out = emit(&origin, &analysis)?;
                        deadline.check("output")?;
                        Ok(out)
                    });
                    match result {
                        Ok(bytes) => (bytes, false),
                        Err(e) => (failed(&origin, &e), true),
                    }
                }
                warc::Item::Bad(b) => {
                    let origin = Origin::Record {
                        path,
                        record_id: b.record_id.as_deref().unwrap_or(""),
                        uri: b.uri.as_deref(),
                    };
                    let e = anyhow::Error::new(b.error)
                        .context(format!("WARC record at offset {}", b.offset));
                    (failed(&origin, &e), true)
                }
            })?;
            n_failed += summary.failed;
            if reader.skipped() > 0 {
                eprintln!(
                    "{}: {} records skipped (not HTML responses)",
                    path.display(),
                    reader.skipped()
                );
            }
        }
        Ok(n_failed)
    }
}

/// Per-page size limits; a page over one is reported as failed and the batch goes on.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Largest page accepted, in bytes after gzip decompression (default 64 MiB).
    #[arg(long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,
    /// Most DOM nodes one page may have.
    #[arg(long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
}

impl LimitArgs {
    /// The limits these flags describe, without a time limit (see [`TimeoutArg`]).
    pub fn limits(&self) -> Limits {
        Limits {
            max_input_bytes: self.max_input_bytes,
            max_nodes: self.max_nodes,
            timeout_ms: 0,
        }
    }
}

/// The per-page time limit, on every command that reads pages (extract, segment, view,
/// features, label, dedup, sitelevel); the dataset commands (eval, train, bench) run without.
#[derive(clap::Args, Debug, Clone)]
pub struct TimeoutArg {
    /// Most milliseconds one page may take from reading to output (0 = no limit). A page over
    /// it is reported as failed; depends on the machine's speed, unlike the size limits.
    #[arg(long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
}

impl TimeoutArg {
    /// `limits` with this time limit.
    pub fn with(&self, limits: Limits) -> Limits {
        Limits {
            timeout_ms: self.timeout_ms,
            ..limits
        }
    }
}

/// Model and smoothing settings, and the per-page limits.
#[derive(clap::Args, Debug, Clone)]
pub struct PipelineArgs {
    /// basic (classifier only), smooth (plus isotonic smoothing), viterbi / smooth-viterbi (then Viterbi over the text blocks' labels), tree-filter (smooth, then the tree filter anchored at the page title; the default), smooth-viterbi-tree (smooth, Viterbi, tree filter).
    #[arg(long, value_enum, default_value_t = Variant::TreeFilter)]
    pub variant: Variant,
    /// Penalty constant c of γᵢ = c·A/Aᵢ.
    #[arg(long, default_value_t = DEFAULT_C)]
    pub c: f64,
    /// Form of the segment penalty.
    #[arg(long, value_enum, default_value_t = Penalty::AreaRatio)]
    pub penalty: Penalty,
    /// What a node weighs in the smoothing cost.
    #[arg(long, value_enum, default_value_t = Weight::Words)]
    pub weight: Weight,
    /// A node is template when its smoothed score is at least this.
    #[arg(long, default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f32,
    /// Pick the threshold per page with the model's learned threshold part (overrides
    /// --threshold; an error when the model has none).
    #[arg(long)]
    pub threshold_model: bool,
    /// Nodes with a smaller estimated area (px²) are not scored.
    #[arg(long, default_value_t = DEFAULT_MIN_AREA)]
    pub min_area: f32,
    /// Viterbi variants: cost λ (nats) of a label change between consecutive text blocks.
    #[arg(long, default_value_t = DEFAULT_SWITCH_PENALTY)]
    pub switch_penalty: f64,
    /// Tree filter: share of content words the main node must hold (0.51–1).
    #[arg(long, default_value_t = DEFAULT_TREE_SHARE)]
    pub tree_share: f32,
    /// Tree filter: content blocks of at least this many words are kept wherever they are.
    #[arg(long, default_value_t = DEFAULT_TREE_KEEP_WORDS)]
    pub tree_keep_words: u32,
    /// Keep second copies of repeated passages in the main text (by default a passage of
    /// two or more text blocks that repeats one outside it is dropped: responsive copies,
    /// carousel clones).
    #[arg(long)]
    pub keep_repeats: bool,
    /// Keep comment threads under an article in the main text (by default, when the page keeps
    /// 100 words or more outside comment regions, the text inside them is dropped unless its
    /// replies are marked up as the opening post, a forum thread's; share bars, skip links,
    /// search or account controls, photo galleries, asides, the page's own header and footer
    /// and related-link lists are dropped either way).
    #[arg(long)]
    pub keep_comments: bool,
    /// A model JSON file instead of the embedded one.
    #[arg(long)]
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The `--model` file, with its path in the error when it cannot be read or parsed, or the
/// embedded model without one.
pub fn load_model(path: Option<&std::path::Path>) -> anyhow::Result<Model> {
    use anyhow::Context;
    let Some(path) = path else {
        return Ok(Model::embedded().clone());
    };
    let json = std::fs::read_to_string(path)
        .with_context(|| format!("--model {}: cannot read", path.display()))?;
    Model::from_json(&json).with_context(|| format!("--model {}", path.display()))
}

impl PipelineArgs {
    /// The model to use: the given file or the embedded one.
    pub fn model(&self) -> anyhow::Result<Model> {
        let model = load_model(self.model.as_deref())?;
        if self.threshold_model && model.threshold.is_none() {
            anyhow::bail!("--threshold-model: the model has no threshold part (train it with `train --cv --threshold-model`)");
        }
        Ok(model)
    }

    /// The pipeline options these flags describe.
    pub fn options(&self) -> Options {
        Options {
            segment: SegmentOptions {
                variant: self.variant,
                c: self.c,
                penalty: self.penalty,
                weight: self.weight,
                threshold: self.threshold,
                learned_threshold: self.threshold_model,
                min_area: self.min_area,
                switch_penalty: self.switch_penalty,
                tree_share: self.tree_share,
                tree_keep_words: self.tree_keep_words,
            },
            keep_repeats: self.keep_repeats,
            keep_comments: self.keep_comments,
            ..Options::default()
        }
    }
}
