//! `pagelevel extract`: per page, its main content (the non-template text in document order).
//!
//! `--format jsonl` (default): one JSON object per page, `{"path", "text", "error"?}`, plus
//! `warc_record_id` and `url` (the target URI) for WARC records. `text`, `markdown`, `html`: the content itself,
//! each page preceded by a separator line `==> NAME <==` (NAME = the path, or for a WARC record
//! the path, target URI and record id); failures go to stderr only.

use pagelevel::output::render::Format as Render;

use crate::pipeline_args::{message, PageInputs, PipelineArgs};

/// Arguments of `pagelevel extract`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: PageInputs,
    #[command(flatten)]
    pipeline: PipelineArgs,
    /// Output: JSON Lines, plain text, Markdown or minimal HTML of the main content.
    #[arg(long, value_enum, default_value_t = Format::Jsonl)]
    format: Format,
}

#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
enum Format {
    Jsonl,
    Text,
    Markdown,
    Html,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let format = args.format;
    args.input.for_each_analysis(
        &args.pipeline,
        pagelevel::Spans::Skip,
        |origin, a| {
            let body = match format {
                Format::Jsonl => {
                    let mut m = origin.fields();
                    m.insert("text".into(), a.main_text().into());
                    return line(&m.into());
                }
                Format::Text => a.main_text(),
                Format::Markdown => a.main_rendered(Render::Markdown),
                Format::Html => a.main_rendered(Render::Html),
            };
            let mut out = format!("==> {} <==\n{}", origin.name(), body);
            if !out.ends_with('\n') {
                out.push('\n');
            }
            Ok(out.into_bytes())
        },
        |origin, e| {
            if format != Format::Jsonl {
                eprintln!("pagelevel: {}: {}", origin.name(), message(origin, e));
                return Vec::new();
            }
            let mut m = origin.fields();
            m.insert("text".into(), "".into());
            m.insert("error".into(), message(origin, e).into());
            line(&m.into()).unwrap_or_default()
        },
    )
}

/// A JSON value as one output line.
pub fn line(v: &serde_json::Value) -> anyhow::Result<Vec<u8>> {
    let mut out = serde_json::to_vec(v)?;
    out.push(b'\n');
    Ok(out)
}
