//! `pagelevel label`: the gold-alignment labels of a manifest's pages as JSON Lines, one line
//! per scored node (see `pagelevel::train::label`). Pages without gold are skipped; a page that cannot
//! be read gives one line with an error. Deterministic, in manifest order.

use crate::pipeline_args::ManifestArgs;

use pagelevel::features::FeatureOptions;
use pagelevel::input::manifest::Entry;
use pagelevel::train::label::label_page;
use pagelevel::Page;

use crate::batch;

/// Arguments of `pagelevel label`.
#[derive(clap::Args)]
#[command(
    after_help = "Each line: {\"id\", \"set\", \"html\", \"node\", \"path\", \"tag\", \
\"words\", \"aligned\", \"share\", \"template\"} (+ \"features\" with --features). \"share\" is \
the fraction of the node's visible words aligned with the gold text, \"template\" is share < 0.5 \
(null for nodes without words). A page that fails gives {\"id\", \"html\", \"error\"}. \
See docs/label.md."
)]
pub struct Args {
    #[command(flatten)]
    data: ManifestArgs,
    /// Also write each node's feature values, keyed by feature name
    #[arg(long)]
    features: bool,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
    #[command(flatten)]
    timeout: crate::pipeline_args::TimeoutArg,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let m = args.data.load()?;
    let entries: Vec<&Entry> = m.entries.iter().filter(|e| e.gold.is_some()).collect();
    let limits = args.timeout.with(args.limits.limits());
    let fopts = FeatureOptions::default();
    let summary = batch::run(
        &entries,
        |e| batch::file_size(&m.html_path(e)),
        |e| {
            let gold_path = m.gold_path(e).expect("filtered on gold");
            let gold = std::fs::read_to_string(&gold_path)
                .map_err(|err| anyhow::anyhow!("{}: {err}", gold_path.display()))?;
            let deadline = limits.deadline();
            let page = Page::from_path(
                &m.html_path(e),
                &pagelevel::PageOptions {
                    url: e.url.as_deref(),
                    limits,
                    deadline: Some(&deadline),
                    parser: args.limits.parser(),
                    ..Default::default()
                },
            )?;
            let labels = label_page(&page, &gold, &fopts);
            let mut out = Vec::new();
            labels.write_rows(&page, e, args.features, &mut out);
            Ok(out)
        },
        |e, err| {
            let mut line = serde_json::to_vec(
                &serde_json::json!({"id": e.id, "html": e.html, "error": format!("{err:#}")}),
            )
            .unwrap_or_default();
            line.push(b'\n');
            line
        },
    )?;
    Ok(summary.failed)
}
