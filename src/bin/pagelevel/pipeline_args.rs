//! Flags shared by the commands that run the pipeline.

use std::path::PathBuf;

use pagelevel::classify::Model;
use pagelevel::pipeline::Options;
use pagelevel::segment::{
    Penalty, SegmentOptions, Variant, Weight, DEFAULT_C, DEFAULT_MIN_AREA, DEFAULT_THRESHOLD,
};
use pagelevel::structured::{DEFAULT_SWITCH_PENALTY, DEFAULT_TREE_KEEP_WORDS, DEFAULT_TREE_SHARE};

/// The pages a pipeline command reads.
#[derive(clap::Args, Debug, Clone)]
pub struct PageInputs {
    /// HTML pages (.html or .html.gz).
    #[arg(required = true)]
    pub pages: Vec<PathBuf>,
    /// The pages' URL (for the intra-site link feature).
    #[arg(long)]
    pub url: Option<String>,
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
        let limits = pagelevel::Limits::default();
        let summary = crate::batch::run(
            &self.pages,
            |path| {
                let page = pagelevel::Page::from_path(path, self.url.as_deref(), &limits)?;
                emit(path, &pagelevel::pipeline::analyze(page, &model, &opts))
            },
            |path, e| failed(path, e),
        )?;
        Ok(summary.failed)
    }
}

/// Model and smoothing settings.
#[derive(clap::Args, Debug, Clone)]
pub struct PipelineArgs {
    /// basic (classifier only), smooth (plus isotonic smoothing), viterbi / smooth-viterbi (then Viterbi over the text blocks' labels), tree-filter (smooth, then the tree filter), smooth-viterbi-tree (smooth, Viterbi, tree filter).
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
    /// Viterbi variants: cost λ (nats) of a label change between consecutive text blocks.
    #[arg(long, default_value_t = DEFAULT_SWITCH_PENALTY)]
    pub switch_penalty: f64,
    /// Tree filter: share of content words the main node must hold (0.51–1).
    #[arg(long, default_value_t = DEFAULT_TREE_SHARE)]
    pub tree_share: f32,
    /// Tree filter: content blocks of at least this many words are kept wherever they are.
    #[arg(long, default_value_t = DEFAULT_TREE_KEEP_WORDS)]
    pub tree_keep_words: u32,
    /// A model JSON file instead of the embedded one.
    #[arg(long)]
    pub model: Option<PathBuf>,
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
                switch_penalty: self.switch_penalty,
                tree_share: self.tree_share,
                tree_keep_words: self.tree_keep_words,
            },
            ..Options::default()
        }
    }
}
