//! One call from a page's bytes to its main content: [`extract()`](fn@extract) with
//! [`ExtractOptions`] gives an [`Extraction`] (the text in the format asked for and, when
//! asked, the page's [`Metadata`]).
//!
//! It runs what `pagelevel extract` runs on one page: gunzip (when the bytes start with the
//! gzip magic), decode, parse, [`analyze`](crate::analyze), render, under the options'
//! [`Limits`]. For the stages' own results (segments, boxes, scores) call
//! [`analyze_bytes`] and read the [`Analysis`].
//!
//! # Complexity
//! That of the pipeline: linear in the page's size apart from smoothing
//! ([`crate::segment`]); the metadata pass adds one more O(n) walk ([`crate::metadata`]).

use crate::config::Deadline;
use crate::metadata::Metadata;
use crate::model::Model;
use crate::output::render::Format;
use crate::page::{Page, PageOptions, Spans};
use crate::pipeline::{analyze_within, Analysis, Options};
use crate::{Limits, Result};

/// The form of [`Extraction::text`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum OutputFormat {
    /// Plain text, one block per line ([`Analysis::main_text`]); `pagelevel extract`'s `text`.
    #[default]
    Text,
    /// Markdown with headings, lists, tables and code blocks ([`crate::output::render`]).
    Markdown,
    /// Minimal clean HTML ([`crate::output::render`]).
    Html,
}

impl OutputFormat {
    /// Every format, in the order of [`OutputFormat::name`]'s list.
    pub const ALL: [OutputFormat; 3] = [
        OutputFormat::Text,
        OutputFormat::Markdown,
        OutputFormat::Html,
    ];

    /// The format's name, as `pagelevel extract --format` and Python's `format=` take it.
    pub fn name(self) -> &'static str {
        match self {
            OutputFormat::Text => "text",
            OutputFormat::Markdown => "markdown",
            OutputFormat::Html => "html",
        }
    }

    /// The format called `name`, if there is one.
    pub fn from_name(name: &str) -> Option<OutputFormat> {
        OutputFormat::ALL.into_iter().find(|f| f.name() == name)
    }
}

/// Everything [`extract()`](fn@extract) needs but the page's bytes. The default is the CLI's:
/// plain text, no metadata, no URL, the default pipeline ([`Options`]: the `tree-filter`
/// variant, every rule, the fast parser) and the default [`Limits`] (64 MiB, 2 million
/// nodes, 10 s).
#[derive(Debug, Clone, Default)]
pub struct ExtractOptions {
    /// The page's URL, when known: read by the intra-site link feature and the metadata
    /// (relative URLs, dates in the URL), and named in errors.
    pub url: Option<String>,
    /// The transport's charset label (an HTTP `Content-Type`'s), when there is one; it
    /// overrides the page's `<meta>`.
    pub charset: Option<String>,
    /// The form of [`Extraction::text`].
    pub format: OutputFormat,
    /// Whether [`Extraction::metadata`] is read (one more O(n) pass).
    pub with_metadata: bool,
    /// Markdown and HTML keep links, absolute against [`ExtractOptions::url`] (`--links`).
    pub links: bool,
    /// Markdown and HTML keep images: `srcset`'s best candidate, lazy-load attributes
    /// (`--images`).
    pub images: bool,
    /// The pipeline: variant, smoothing, rules switched off, parser.
    pub pipeline: Options,
    /// Size, node and time limits; the time limit runs from the call.
    pub limits: Limits,
}

impl ExtractOptions {
    /// The default options with the page's URL.
    pub fn url(url: impl Into<String>) -> ExtractOptions {
        ExtractOptions {
            url: Some(url.into()),
            ..ExtractOptions::default()
        }
    }
}

/// What [`extract()`](fn@extract) gives for one page.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Extraction {
    /// The main content in [`ExtractOptions::format`] (empty when the page has none). No
    /// front matter: [`crate::metadata::front::with_front_matter`] adds one as
    /// `pagelevel extract --with-metadata` does.
    pub text: String,
    /// The page's metadata with [`ExtractOptions::with_metadata`], else `None`.
    pub metadata: Option<Metadata>,
}

impl Extraction {
    /// The extraction of an analysed page as `opts` asks for it (its format and metadata).
    /// O(n + text).
    pub fn of(analysis: &Analysis, opts: &ExtractOptions) -> Extraction {
        let text = match opts.format {
            OutputFormat::Text => analysis.main_text(),
            OutputFormat::Markdown => {
                analysis.main_rendered_with(Format::Markdown, opts.links, opts.images)
            }
            OutputFormat::Html => {
                analysis.main_rendered_with(Format::Html, opts.links, opts.images)
            }
        };
        Extraction {
            text,
            metadata: opts.with_metadata.then(|| analysis.metadata()),
        }
    }
}

/// The main content of one page with the embedded model, as `pagelevel extract` gives it.
///
/// `bytes` is the page as a file or an HTTP body holds it: gzip is unpacked, the encoding
/// found as the CLI finds it (BOM, [`ExtractOptions::charset`], `<meta>`, detection).
///
/// # Errors
/// [`crate::Error::TooLarge`], [`crate::Error::Gzip`], [`crate::Error::NotHtml`] (an image,
/// a PDF), [`crate::Error::TooManyNodes`] and [`crate::Error::Timeout`] when the page breaks
/// [`ExtractOptions::limits`].
///
/// # Example
/// ```
/// use pagelevel::{extract, ExtractOptions, OutputFormat};
///
/// let html = b"<html><head><title>Tides | Harbour News</title></head><body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav>\
///     <article><h1>Tides</h1><p>The spring tide reached the harbour wall twice this week, \
///     and the fishermen moved their boats to the inner basin before the evening.</p>\
///     </article></body></html>";
/// let opts = ExtractOptions {
///     format: OutputFormat::Markdown,
///     with_metadata: true,
///     ..ExtractOptions::url("https://example.com/tides")
/// };
/// let page = extract(html, &opts)?;
/// assert!(page.text.starts_with("# Tides"));
/// assert_eq!(page.metadata.unwrap().title.as_deref(), Some("Tides"));
/// # Ok::<(), pagelevel::Error>(())
/// ```
pub fn extract(bytes: &[u8], opts: &ExtractOptions) -> Result<Extraction> {
    extract_with(bytes, opts, Model::embedded(), &opts.limits.deadline())
}

/// [`extract()`](fn@extract) with a model of your own and a [`Deadline`] of your own (one
/// with a cancel flag, say); the deadline takes the place of `opts.limits.timeout_ms`.
pub fn extract_with(
    bytes: &[u8],
    opts: &ExtractOptions,
    model: &Model,
    deadline: &Deadline,
) -> Result<Extraction> {
    let analysis = analyze_bytes(bytes, opts, Spans::Skip, model, deadline)?;
    Ok(Extraction::of(&analysis, opts))
}

/// The steps of [`extract_with`] before rendering: gunzip, decode, parse (recording source
/// spans with [`Spans::Keep`]) and analyse one page. `opts.format` and `opts.with_metadata`
/// are not read.
pub fn analyze_bytes(
    bytes: &[u8],
    opts: &ExtractOptions,
    spans: Spans,
    model: &Model,
    deadline: &Deadline,
) -> Result<Analysis> {
    let what = opts.url.as_deref().unwrap_or("<html>");
    let raw = crate::input::read_bytes(bytes, what, &opts.limits)?;
    deadline.check("read")?;
    let page = Page::from_bytes(
        &raw,
        &PageOptions {
            url: opts.url.as_deref(),
            charset: opts.charset.as_deref(),
            limits: opts.limits,
            deadline: Some(deadline),
            spans,
            parser: opts.pipeline.parser,
        },
    )?;
    analyze_within(page, model, &opts.pipeline, deadline)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn format_names_round_trip() {
        for f in OutputFormat::ALL {
            assert_eq!(OutputFormat::from_name(f.name()), Some(f));
        }
        assert_eq!(OutputFormat::from_name("jsonl"), None);
    }
}
