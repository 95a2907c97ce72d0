//! `pagelevel extract`: one JSON object per page, `{"path", "text", "error"?}`, where the text is
//! the page's non-template text in document order, one block per line.

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
    args.input.for_each_analysis(
        &args.pipeline,
        |path, a| line(&serde_json::json!({"path": path.to_string_lossy(), "text": a.main_text()})),
        |path, e| {
            line(&serde_json::json!({"path": path.to_string_lossy(), "text": "", "error": format!("{e:#}")}))
                .unwrap_or_default()
        },
    )
}

/// A JSON value as one output line.
pub fn line(v: &serde_json::Value) -> anyhow::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(v)?;
    out.push(b'\n');
    Ok(out)
}
