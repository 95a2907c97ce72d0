//! `pagelevel features`: one JSON object per element with its path, tag, box, features and
//! the block classifier's content share.

use std::io::Write;
use std::path::PathBuf;

use pagelevel::dom::Kind;
use pagelevel::features::{self, f, FeatureOptions, NAMES};
use pagelevel::Page;

/// Arguments of `pagelevel features`.
#[derive(clap::Args)]
pub struct Args {
    /// HTML pages (.html or .html.gz).
    #[arg(required = true)]
    pages: Vec<PathBuf>,
    /// The pages' URL, for the intra-site link feature.
    #[arg(long)]
    url: Option<String>,
    /// A JSON file of browser-rendered boxes keyed by node path, overriding the estimate.
    #[arg(long)]
    boxes: Option<PathBuf>,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let boxes = match &args.boxes {
        Some(p) => Some(pagelevel::geometry::read_boxes(p)?),
        None => None,
    };
    let limits = args.timeout.with(args.limits.limits());
    let summary = crate::batch::run(
        &args.pages,
        |path| crate::batch::file_size(path),
        |path| {
            let deadline = limits.deadline();
            let page = Page::from_path(
                path,
                &pagelevel::PageOptions {
                    url: args.url.as_deref(),
                    limits,
                    deadline: Some(&deadline),
                    ..Default::default()
                },
            )?;
            let dom = &page.dom;
            let pf = features::compute_within(
                dom,
                page.url.as_deref(),
                &FeatureOptions::default(),
                boxes.as_ref(),
                &deadline,
            )?;
            let mut out = Vec::new();
            let name = path.display().to_string();
            // Deep paths are abbreviated, so the output stays linear in the page; each path is
            // written from one reused buffer, not kept per node.
            let mut k = 0;
            let mut failed: Option<anyhow::Error> = None;
            dom.for_each_short_path(
                |i| dom.node(i).kind == Kind::Element,
                |i, path| {
                    if failed.is_some() {
                        return;
                    }
                    if let Err(e) = deadline.check_every(k, "output") {
                        failed = Some(e.into());
                        return;
                    }
                    k += 1;
                    let r = pf.layout.rects[i];
                    let row = pf.matrix.row(i);
                    let feats: serde_json::Map<String, serde_json::Value> = NAMES
                        .iter()
                        .zip(row)
                        .map(|(k, v)| (k.to_string(), json_f32(*v)))
                        .collect();
                    let obj = serde_json::json!({
                        "page": name,
                        "path": path,
                        "tag": dom.tag_name(i),
                        "box": {"x": r.x, "y": r.y, "w": r.w, "h": r.h},
                        "features": feats,
                        "content_share": json_f32(row[f::BLOCK_CONTENT_SHARE]),
                    });
                    match serde_json::to_writer(&mut out, &obj) {
                        Ok(()) => out.push(b'\n'),
                        Err(e) => failed = Some(e.into()),
                    }
                },
            );
            if let Some(e) = failed {
                return Err(e);
            }
            Ok(out)
        },
        |path, e| {
            let message = crate::pipeline_args::without_path(path, e);
            eprintln!("pagelevel: {}: {message}", path.display());
            Vec::new()
        },
    )?;
    std::io::stdout().flush()?;
    Ok(summary.failed)
}

/// A float as JSON, rounded to 5 significant decimals to keep lines short.
fn json_f32(v: f32) -> serde_json::Value {
    let r = (v as f64 * 1e5).round() / 1e5;
    serde_json::Number::from_f64(r).map_or(serde_json::Value::Null, serde_json::Value::Number)
}
