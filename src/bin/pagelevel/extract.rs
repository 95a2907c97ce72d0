//! `pagelevel extract`: one JSON object per page, `{"path", "text", "error"?}`, where the text is
//! the page's non-template text in document order, one block per line.

use pagelevel::pipeline::analyze;
use pagelevel::{Limits, Page};

use crate::pipeline_args::{PageInputs, PipelineArgs};

/// Arguments of `pagelevel extract`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: PageInputs,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let model = args.pipeline.model()?;
    let opts = args.pipeline.options();
    let limits = Limits::default();
    let summary = crate::batch::run(
        &args.input.pages,
        |path| {
            let page = Page::from_path(path, args.input.url.as_deref(), &limits)?;
            let text = analyze(page, &model, &opts).main_text();
            line(&serde_json::json!({"path": path.to_string_lossy(), "text": text}))
        },
        |path, e| {
            line(&serde_json::json!({"path": path.to_string_lossy(), "text": "", "error": format!("{e:#}")}))
                .unwrap_or_default()
        },
    )?;
    Ok(summary.failed)
}

/// A JSON value as one output line.
pub fn line(v: &serde_json::Value) -> anyhow::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(v)?;
    out.push(b'\n');
    Ok(out)
}
