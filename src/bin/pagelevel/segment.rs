//! `pagelevel segment`: one JSON object per page with its segments.

use crate::extract::line;
use crate::pipeline_args::{PageInputs, PipelineArgs};

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
        |origin, a| {
            let dom = &a.page.dom;
            let segments: Vec<serde_json::Value> = a
                .segmentation
                .segments
                .iter()
                .enumerate()
                .map(|(k, s)| {
                    let node = dom.node(s.node);
                    let r = a.features.layout.rects[s.node];
                    let span = node
                        .span
                        .is_known()
                        .then_some([node.span.start, node.span.end]);
                    serde_json::json!({
                        "id": k,
                        "path": dom.path(s.node),
                        "tag": dom.tag_name(s.node),
                        "span": span,
                        "box": {"x": r.x, "y": r.y, "w": r.w, "h": r.h},
                        "score": (s.score as f64 * 1e4).round() / 1e4,
                        "template": s.template,
                        "words": s.words,
                        "parent": s.parent,
                    })
                })
                .collect();
            let mut m = origin.fields();
            m.insert("variant".into(), serde_json::to_value(variant)?);
            m.insert("segments".into(), segments.into());
            line(&m.into())
        },
        |origin, e| {
            let mut m = origin.fields();
            m.insert("segments".into(), serde_json::Value::Array(Vec::new()));
            m.insert("error".into(), format!("{e:#}").into());
            line(&m.into()).unwrap_or_default()
        },
    )
}
