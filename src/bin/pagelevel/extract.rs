//! `pagelevel extract`: per page, its main content (the non-template text in document order).
//!
//! `--format jsonl` (default): one JSON object per page, `{"path", "text", "error"?}`, plus
//! `warc_record_id` and `url` (the target URI) for WARC records. `text`, `markdown`, `html`: the
//! content itself, each page preceded by a separator line `==> NAME <==` when there are several
//! (NAME = the path, or for a WARC record the path, target URI and record id); failures go to
//! stderr only. With `--output-dir`, each page's output goes to its own file (`.json`, `.txt`,
//! `.md`, `.html`), without the separator line.
//!
//! `--with-metadata` adds the page's metadata (`pagelevel::metadata`): its fields in each JSON
//! line (absent ones left out; a WARC record's `url` stays its target URI), a front-matter block and the title as first heading in
//! Markdown and HTML; the text format is unchanged.
//!
//! `--links` and `--images` keep links and images in Markdown and HTML (not in the text or
//! JSON formats).

use pagelevel::metadata::front::with_front_matter;
use pagelevel::output::render::Format as Render;

use crate::pages::{self, PageInputs};
use crate::pipeline_args::{message, PipelineArgs};

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
    /// Add the page's metadata (title, author, date, language, …): JSON fields, or a
    /// front-matter block and the title as first heading in Markdown and HTML.
    #[arg(long)]
    with_metadata: bool,
    /// Markdown and HTML: keep links, `[text](url)` with the URL absolute against the page's.
    #[arg(long)]
    links: bool,
    /// Markdown and HTML: keep images, `![alt](src)` (srcset's best candidate, lazy-load
    /// attributes).
    #[arg(long)]
    images: bool,
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
    let with_metadata = args.with_metadata;
    let ext = match format {
        Format::Jsonl => "json",
        Format::Text => "txt",
        Format::Markdown => "md",
        Format::Html => "html",
    };
    let out = pages::Format {
        ext,
        failure_lines: format == Format::Jsonl,
        headers: format != Format::Jsonl,
    };
    let (links, images) = (args.links, args.images);
    args.input.for_each_analysis(
        &args.pipeline,
        pagelevel::Spans::Skip,
        out,
        |origin, a| {
            let body = match format {
                Format::Jsonl => {
                    let mut m = origin.fields();
                    m.insert("text".into(), a.main_text().into());
                    if with_metadata {
                        // A WARC record's `url` (its target URI) stays; the others are new keys.
                        for (k, v) in a.metadata().to_json() {
                            m.entry(k).or_insert(v);
                        }
                    }
                    return line(&m.into());
                }
                Format::Text => a.main_text(),
                Format::Markdown | Format::Html => {
                    let render = if format == Format::Markdown {
                        Render::Markdown
                    } else {
                        Render::Html
                    };
                    let body = a.main_rendered_with(render, links, images);
                    if with_metadata {
                        with_front_matter(&a.metadata(), &body, render)
                    } else {
                        body
                    }
                }
            };
            let mut out = body;
            if !out.is_empty() && !out.ends_with('\n') {
                out.push('\n');
            }
            Ok(out.into_bytes())
        },
        |origin, e| {
            if format != Format::Jsonl {
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
