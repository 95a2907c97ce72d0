//! `pagelevel features`: one JSON object per element with its path, tag, box, features and
//! the block classifier's content share.

use std::path::PathBuf;

use pagelevel::features::{self, FeatureOptions};
use pagelevel::input::jobs::{Job, Origin};
use pagelevel::input::warc::Item;
use pagelevel::{Error, Page, PageOptions};

use crate::pages::{failure, Format, Outcome, PageInputs};

/// Arguments of `pagelevel features`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: PageInputs,
    /// A JSON file of browser-rendered boxes keyed by node path, overriding the estimate.
    #[arg(long)]
    boxes: Option<PathBuf>,
    #[command(flatten)]
    limits: crate::pipeline_args::LimitArgs,
}

pub fn run(args: Args) -> anyhow::Result<usize> {
    let boxes = match &args.boxes {
        Some(p) => Some(pagelevel::geometry::read_boxes(p)?),
        None => None,
    };
    let limits = args.input.timeout.with(args.limits.limits());
    // JSON Lines, one row per element; a failure is a message on stderr.
    let format = Format {
        ext: "jsonl",
        failure_lines: false,
        headers: false,
    };
    let parser = args.limits.parser();
    args.input.run(format, limits, |job| {
        let deadline = limits.deadline();
        // One page's rows, or its failure.
        let rows = |origin: &Origin, page: Result<Page, anyhow::Error>| {
            let out = page.and_then(|page| {
                let dom = &page.dom;
                let pf = features::compute_within(
                    dom,
                    page.url.as_deref(),
                    &FeatureOptions::default(),
                    boxes.as_ref(),
                    &deadline,
                )?;
                let mut out = Vec::new();
                let name = origin.name();
                pagelevel::output::features::write_rows(dom, &pf, &name, &deadline, &mut out)?;
                Ok(out)
            });
            let outcome = match out {
                Ok(out) => Outcome::Done(out),
                Err(e) => failure(origin, &e, Vec::new()),
            };
            (origin.name(), outcome)
        };
        let options = |url, charset| PageOptions {
            url,
            charset,
            limits,
            deadline: Some(&deadline),
            parser,
            ..Default::default()
        };
        match job {
            Job::Failed(input, e) => rows(&Origin::File(&input.path), Err(e.into())),
            Job::Page(input, source) => {
                let url = input.url.as_deref().or(args.input.url.as_deref());
                let page = source.read(&limits).and_then(|bytes| {
                    deadline.check("read")?;
                    Page::from_bytes(&bytes, &options(url, None))
                });
                rows(&Origin::File(&input.path), page.map_err(Into::into))
            }
            Job::Record(input, Item::Page(p)) => {
                let origin = Origin::Record {
                    path: &input.path,
                    record_id: &p.record_id,
                    uri: p.uri.as_deref(),
                };
                let page =
                    Page::from_bytes(&p.body, &options(p.uri.as_deref(), p.charset.as_deref()));
                rows(&origin, page.map_err(Into::into))
            }
            Job::Record(input, Item::Bad(b)) => {
                let origin = Origin::Record {
                    path: &input.path,
                    record_id: b.record_id.as_deref().unwrap_or(""),
                    uri: b.uri.as_deref(),
                };
                let e = Error::BadRecord {
                    offset: b.offset,
                    len: b.len,
                    source: b.error,
                };
                rows(&origin, Err(e.into()))
            }
            Job::Record(input, Item::Junk(j)) => {
                let origin = Origin::Record {
                    path: &input.path,
                    record_id: "",
                    uri: None,
                };
                rows(&origin, Err(j.into()))
            }
        }
    })
}
