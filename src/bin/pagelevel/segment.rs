//! `pagelevel segment`: one JSON object per page with its segments.

use crate::extract::line;
use crate::pages::{Format, PageInputs};
use crate::pipeline_args::{message, PipelineArgs};

/// Arguments of `pagelevel segment`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: PageInputs,
    #[command(flatten)]
    pipeline: PipelineArgs,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let variant = args.pipeline.variant;
    args.input.for_each_analysis(
        &args.pipeline,
        // The segments carry their byte spans.
        pagelevel::Spans::Keep,
        Format {
            ext: "json",
            failure_lines: true,
            headers: false,
        },
        |origin, a| {
            let segments = a.segments_json();
            let mut m = origin.fields();
            m.insert("variant".into(), serde_json::to_value(variant)?);
            m.insert("segments".into(), segments);
            line(&m.into())
        },
        |origin, e| {
            let mut m = origin.fields();
            m.insert("segments".into(), serde_json::Value::Array(Vec::new()));
            m.insert("error".into(), message(origin, e).into());
            line(&m.into()).unwrap_or_default()
        },
    )
}
