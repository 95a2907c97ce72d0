//! Flags shared by the commands that run the pipeline.

use std::path::PathBuf;

use pagelevel::classify::Model;
use pagelevel::config::{DEFAULT_MAX_INPUT_BYTES, DEFAULT_MAX_NODES, DEFAULT_TIMEOUT_MS};
use pagelevel::pipeline::Options;
use pagelevel::segment::{
    Penalty, SegmentOptions, Variant, Weight, DEFAULT_C, DEFAULT_MIN_AREA, DEFAULT_THRESHOLD,
};
use pagelevel::Limits;

/// The pages a pipeline command reads.
#[derive(clap::Args, Debug, Clone)]
pub struct PageInputs {
    /// HTML pages (.html or .html.gz).
    #[arg(required = true)]
    pub pages: Vec<PathBuf>,
    /// The pages' URL (for the intra-site link feature).
    #[arg(long)]
    pub url: Option<String>,
    #[command(flatten)]
    pub timeout: TimeoutArg,
}

impl PageInputs {
    /// Runs the pipeline on every page (in parallel, output in input order) and writes what
    /// `emit` makes of each analysis; a page that fails writes `failed(path, error)` instead.
    /// Returns the number of failed pages.
    pub fn for_each_analysis(
        &self,
        pipeline: &PipelineArgs,
        emit: impl Fn(&std::path::Path, &pagelevel::pipeline::Analysis) -> anyhow::Result<Vec<u8>>
            + Sync,
        failed: impl Fn(&std::path::Path, &anyhow::Error) -> Vec<u8> + Sync,
    ) -> anyhow::Result<usize> {
        let model = pipeline.model()?;
        let opts = pipeline.options();
        let limits = self.timeout.with(pipeline.limits.limits());
        let summary = crate::batch::run(
            &self.pages,
            |path| {
                // The clock starts when this page's job does, not when the batch did.
                let deadline = limits.deadline();
                let page = pagelevel::Page::from_path_within(
                    path,
                    self.url.as_deref(),
                    &limits,
                    &deadline,
                )?;
                let analysis = pagelevel::pipeline::analyze_within(page, &model, &opts, &deadline)?;
                let out = emit(path, &analysis)?;
                deadline.check("output")?;
                Ok(out)
            },
            |path, e| failed(path, e),
        )?;
        Ok(summary.failed)
    }
}

/// Per-page size limits; a page over one is reported as failed and the batch goes on.
#[derive(clap::Args, Debug, Clone)]
pub struct LimitArgs {
    /// Largest page accepted, in bytes after gzip decompression (default 256 MiB).
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

/// The per-page time limit, on the commands that run one page at a time from reading to
/// output (extract, segment, view); the others apply the size limits only.
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
    /// Basic (classifier only) or smooth (classifier plus isotonic smoothing).
    #[arg(long, value_enum, default_value_t = Variant::Smooth)]
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
    /// Nodes with a smaller estimated area (px²) are not scored.
    #[arg(long, default_value_t = DEFAULT_MIN_AREA)]
    pub min_area: f32,
    /// A model JSON file instead of the embedded one.
    #[arg(long)]
    pub model: Option<PathBuf>,
    #[command(flatten)]
    pub limits: LimitArgs,
}

impl PipelineArgs {
    /// The model to use: the given file or the embedded one.
    pub fn model(&self) -> anyhow::Result<Model> {
        Ok(match &self.model {
            Some(p) => Model::from_json(&std::fs::read_to_string(p)?)?,
            None => Model::embedded().clone(),
        })
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
                min_area: self.min_area,
            },
            ..Options::default()
        }
    }
}
