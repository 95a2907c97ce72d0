//! Flags shared by the commands that run the pipeline.

use std::path::{Path, PathBuf};

pub use pagelevel::input::jobs::Origin;

use pagelevel::config::{DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT_MS};
use pagelevel::dom::Parser;
use pagelevel::model::threshold::DEFAULT_THRESHOLD;
use pagelevel::model::Model;
use pagelevel::pipeline::Options;
use pagelevel::rules::{Rule, RuleSet};
use pagelevel::segment::structured::{
    DEFAULT_SWITCH_PENALTY, DEFAULT_TREE_KEEP_WORDS, DEFAULT_TREE_SHARE,
};
use pagelevel::segment::{Penalty, SegmentOptions, Variant, Weight, DEFAULT_C, DEFAULT_MIN_AREA};
use pagelevel::Limits;

/// `e` as one line (`{e:#}`), without a leading `path: ` that the caller prints already.
pub fn without_path(path: &Path, e: &anyhow::Error) -> String {
    strip_path(&path.display().to_string(), &format!("{e:#}")).to_owned()
}

/// Re-exported for the commands that shape messages (`dedup`, `sitelevel`).
pub use pagelevel::error::strip_path;

/// The help heading of the per-page limits and the parser.
pub const LIMITS: &str = "Limits and parser";

/// The help heading of the model and decoding options (most shown with `--help` only).
pub const MODEL: &str = "Model and decoding";

/// `e` as one line, without the path of `origin` when the error already starts with it (the
/// library's errors name their file; the output names the page once).
pub fn message(origin: &Origin, e: &anyhow::Error) -> String {
    without_path(origin.path(), e)
}

/// The manifest a dataset command reads (`eval`, `label`, `bench`).
#[derive(clap::Args, Debug, Clone)]
pub struct ManifestArgs {
    /// Manifest of the pages, JSON Lines in the ../shared/data format (e.g.
    /// ../shared/data/wcxb-dev/manifest.jsonl).
    #[arg(long)]
    pub manifest: PathBuf,
    /// Folder the manifest's paths are relative to (default: found next to the manifest).
    #[arg(long)]
    pub root: Option<PathBuf>,
}

impl ManifestArgs {
    /// The manifest, its paths resolved.
    pub fn load(&self) -> pagelevel::Result<pagelevel::input::manifest::Manifest> {
        pagelevel::input::manifest::Manifest::load(&self.manifest, self.root.as_deref())
    }
}

/// Per-page size limits (a page over one is reported as failed and the batch goes on), and
/// the parser that reads each page.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// The HTML parser: fast (the purpose-built one) or html5ever (its reference; the same tree
    /// and the same source spans on every shared page, docs/parser.md). Default: fast.
    #[arg(help_heading = LIMITS, hide_short_help = true, long, value_enum)]
    pub parser: Option<Parser>,
    /// Largest page accepted, in bytes after gzip decompression (default 64 MiB).
    #[arg(help_heading = LIMITS, hide_short_help = true, long, value_name = "BYTES", default_value_t = DEFAULT_MAX_INPUT_BYTES)]
    pub max_input_bytes: u64,
    /// Most DOM nodes one page may have.
    #[arg(help_heading = LIMITS, hide_short_help = true, long, value_name = "N", default_value_t = DEFAULT_MAX_NODES)]
    pub max_nodes: usize,
}

impl LimitArgs {
    /// An error when `--parser` picks another parser than the default for `command`, which
    /// takes none (`bench` times both).
    pub fn default_parser_only(&self, command: &str) -> anyhow::Result<()> {
        match self.parser {
            Some(p) if p != Parser::default() => anyhow::bail!(
                "--parser {}: `{command}` parses with the default parser ({}) only",
                p.name(),
                Parser::default().name()
            ),
            _ => Ok(()),
        }
    }

    /// The parser for a command: the one asked for, else the library's default (the fast
    /// parser, whose source spans are html5ever's too, so `segment` and `view` use it as well).
    pub fn parser(&self) -> Parser {
        self.parser.unwrap_or_default()
    }

    /// The limits these flags describe, without a time limit (see [`TimeoutArg`]).
    pub fn limits(&self) -> Limits {
        Limits::sizes(self.max_input_bytes, self.max_nodes)
    }
}

/// The per-page time limit, on every command that reads pages (extract, segment, view,
/// features, label, dedup, sitelevel); the dataset commands (eval, train, bench) run without.
#[derive(clap::Args, Debug, Clone)]
pub struct TimeoutArg {
    /// Most milliseconds one page may take from reading to output (0 = no limit). A page over
    /// it is reported as failed; depends on the machine's speed, unlike the size limits.
    #[arg(help_heading = LIMITS, long, value_name = "MS", default_value_t = DEFAULT_TIMEOUT_MS)]
    pub timeout_ms: u64,
}

impl TimeoutArg {
    /// `limits` with this time limit.
    pub fn with(&self, limits: Limits) -> Limits {
        limits.with_timeout(self.timeout_ms)
    }
}

/// Model and smoothing settings, and the per-page limits. All but `--variant` and
/// `--keep-comments` are left out of the short help (`-h`).
#[derive(clap::Args, Debug, Clone)]
pub struct PipelineArgs {
    /// basic (classifier only), smooth (plus isotonic smoothing), viterbi / smooth-viterbi (then Viterbi over the text blocks' labels), tree-filter (smooth, then the tree filter anchored at the page title; the default), smooth-viterbi-tree (smooth, Viterbi, tree filter).
    #[arg(help_heading = MODEL, long, value_enum, default_value_t = Variant::TreeFilter)]
    pub variant: Variant,
    /// Penalty constant c of γᵢ = c·A/Aᵢ.
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_C)]
    pub c: f64,
    /// Form of the segment penalty.
    #[arg(help_heading = MODEL, hide_short_help = true, long, value_enum, default_value_t = Penalty::AreaRatio)]
    pub penalty: Penalty,
    /// What a node weighs in the smoothing cost.
    #[arg(help_heading = MODEL, hide_short_help = true, long, value_enum, default_value_t = Weight::Words)]
    pub weight: Weight,
    /// A node is template when its smoothed score is at least this.
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_THRESHOLD)]
    pub threshold: f32,
    /// Pick the threshold per page with the model's learned threshold part (overrides
    /// --threshold; an error when the model has none).
    #[arg(help_heading = MODEL, hide_short_help = true, long)]
    pub threshold_model: bool,
    /// Nodes with a smaller estimated area (px²) are not scored.
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_MIN_AREA)]
    pub min_area: f32,
    /// Viterbi variants: cost λ (nats) of a label change between consecutive text blocks.
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_SWITCH_PENALTY)]
    pub switch_penalty: f64,
    /// Tree filter: share of content words the main node must hold (0.51–1).
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_TREE_SHARE)]
    pub tree_share: f32,
    /// Tree filter: content blocks of at least this many words are kept wherever they are.
    #[arg(help_heading = MODEL, hide_short_help = true, long, default_value_t = DEFAULT_TREE_KEEP_WORDS)]
    pub tree_keep_words: u32,
    /// Keep second copies of repeated passages in the main text: the same as
    /// `--without-rule repeats`.
    #[arg(help_heading = MODEL, hide_short_help = true, long)]
    pub keep_repeats: bool,
    /// Keep comment threads under an article in the main text: the same as
    /// `--without-rule comments`.
    #[arg(help_heading = MODEL, long)]
    pub keep_comments: bool,
    /// Switch off a rule that runs after the model (repeatable; `pagelevel --rules` lists them).
    #[arg(help_heading = MODEL, hide_short_help = true, long, value_enum, value_name = "RULE")]
    pub without_rule: Vec<Rule>,
    /// A model JSON file instead of the embedded one.
    #[arg(help_heading = MODEL, hide_short_help = true, long)]
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

/// The `--model` file, with its path in the error when it cannot be read or parsed, or the
/// embedded model without one.
pub fn load_model(path: Option<&std::path::Path>) -> anyhow::Result<Model> {
    let Some(path) = path else {
        return Ok(Model::embedded().clone());
    };
    Model::from_path(path).map_err(|e| match e {
        pagelevel::Error::Io { source, .. } => {
            anyhow::Error::new(source).context(format!("--model {}: cannot read", path.display()))
        }
        e => anyhow::Error::new(e).context(format!("--model {}", path.display())),
    })
}

impl PipelineArgs {
    /// The rules to run: all but those switched off.
    pub fn rule_set(&self) -> RuleSet {
        let shorthands = [
            (self.keep_repeats, Rule::Repeats),
            (self.keep_comments, Rule::Comments),
        ];
        let off = shorthands.into_iter().filter(|&(on, _)| on).map(|(_, r)| r);
        RuleSet::ALL.without_all(self.without_rule.iter().copied().chain(off))
    }

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
            rules: self.rule_set(),
            parser: self.limits.parser(),
            ..Options::default()
        }
    }
}
