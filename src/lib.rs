//! pagelevel finds the template of a web page (navigation, headers, footers, ads, link
//! lists, cookie bars) one page at a time, segments the page and extracts its main content.
//!
//! The simple entry point is [`extract()`](fn@extract): a page's bytes and [`ExtractOptions`]
//! in, an [`Extraction`] out (the main content as text, Markdown or HTML, and the page's
//! [`Metadata`] when asked), as `pagelevel extract` gives it:
//!
//! ```
//! use pagelevel::{extract, ExtractOptions, OutputFormat};
//!
//! let html = br#"<html><head><title>Harbour wall rebuilt | The Coast Gazette</title>
//!   <meta name="author" content="Ann Mason"></head><body>
//!   <nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About</a></nav>
//!   <article><h1>Harbour wall rebuilt</h1>
//!   <p>The harbour wall was rebuilt in granite after the winter storms, and the masons
//!   explained why the old lime mortar had to be matched stone by stone.</p></article>
//!   <footer><a href="/privacy">Privacy</a> <a href="/terms">Terms</a></footer></body></html>"#;
//!
//! // Plain text with the defaults (the CLI's): one block per line, the menu and footer gone.
//! let page = extract(html, &ExtractOptions::default())?;
//! assert!(page.text.starts_with("Harbour wall rebuilt\nThe harbour wall"));
//! assert!(!page.text.contains("Privacy") && page.metadata.is_none());
//!
//! // Markdown and the metadata, for a page whose URL is known.
//! let opts = ExtractOptions {
//!     format: OutputFormat::Markdown,
//!     with_metadata: true,
//!     ..ExtractOptions::url("https://coastgazette.example/news/harbour")
//! };
//! let page = extract(html, &opts)?;
//! assert!(page.text.starts_with("# Harbour wall rebuilt"));
//! let meta = page.metadata.expect("asked for");
//! assert_eq!(meta.title.as_deref(), Some("Harbour wall rebuilt"));
//! assert_eq!(meta.author.as_deref(), Some("Ann Mason"));
//! # Ok::<(), pagelevel::Error>(())
//! ```
//!
//! [`ExtractOptions::pipeline`] picks the variant, the rules switched off and the parser;
//! [`ExtractOptions::limits`] the size, node and time limits. `examples/extract.rs` runs it on
//! files (`cargo run --example extract -- data/examples/news-article.html`).
//!
//! To see the stages' own results (segments, boxes, scores), read a page ([`Page`]),
//! [`analyze`] it with a [`Model`] (the embedded one, trained on the shared data sets, or one
//! of your own), and the [`Analysis`] gives the main text, the main content as Markdown or
//! HTML, and the segments with their boxes and scores:
//!
//! ```
//! use pagelevel::{analyze, Format, Model, Options, Page, PageOptions};
//!
//! let para = "The river town rebuilt its old stone bridge this summer, and the engineers \
//!             explained how they matched the original lime mortar and why the arches \
//!             needed new foundations after two hundred years in the water.";
//! let html = format!(
//!     "<html><head><title>The bridge is back</title></head><body>\
//!      <nav><a href='/'>Home</a> <a href='/news'>News</a> <a href='/about'>About</a></nav>\
//!      <article><h1>The bridge is back</h1><p>{para}</p><p>{para}</p></article>\
//!      <footer><a href='/privacy'>Privacy</a> <a href='/terms'>Terms</a></footer></body></html>"
//! );
//! // The URL, a transport charset, limits, a deadline: all optional, in one value.
//! let page = Page::from_bytes(
//!     html.as_bytes(),
//!     &PageOptions::url(Some("https://example.com/bridge")),
//! )?;
//! let analysis = analyze(page, Model::embedded(), &Options::default());
//! let text = analysis.main_text();
//! assert!(text.contains("lime mortar") && !text.contains("Privacy"));
//! let markdown = analysis.main_rendered(Format::Markdown);
//! assert!(markdown.starts_with("# The bridge is back"));
//! // Each segment: path, tag, span, box, smoothed score, template flag, words.
//! let segments = analysis.segments_json();
//! assert!(segments.as_array().is_some_and(|s| !s.is_empty()));
//! # Ok::<(), pagelevel::Error>(())
//! ```
//!
//! # Stages
//! Each stage is a module, in the order a page goes through them (`docs/architecture.md`
//! draws them with the data between them); a stage imports only the helpers ([`config`],
//! [`date`], [`error`], [`text`], [`url`]) and the stages before it, which
//! `tests/architecture.rs` checks.
//!
//! | stage | what it does |
//! |---|---|
//! | [`input`] | files, gzip, WARC records, manifests: bytes in, within size limits |
//! | [`decode`] | bytes → UTF-8 (BOM, transport charset, `<meta>`, detection); MIME sniffing |
//! | [`dom`] | html5ever → one arena in document order |
//! | [`page`] | read → decode → parse: a [`Page`] |
//! | [`geometry`] | visibility and a flow-layout box per node |
//! | [`features`] | boilerpipe's text blocks, class-name groups, one feature row per scored node |
//! | [`model`] | templateness per node: boosted trees, stacking, the page's threshold |
//! | [`segment`] | isotonic smoothing on the tree into segments; the tree filter |
//! | [`rules`] | the passes after the model, in order, each switchable ([`Options::rules`]) |
//! | [`pipeline`] | the stages for one page: [`analyze`] → [`Analysis`] |
//! | [`output`], [`metadata`], [`mod@extract`] | main text, Markdown and HTML, segments JSON, the inert view; title, author, dates, language and the other metadata; bytes to text in one call |
//! | [`batch`] | many inputs in parallel, each within its deadline, output in input order |
//! | [`eval`] | word-F1, template and segmentation metrics against gold |
//! | [`site`], [`dedup`] | SiteLevel over a site's pages; shingle near-duplicates |
//! | [`train`] | labels from gold text, fitting the model, cross-validation |

#![deny(missing_docs)]

/// `impl AddAssign` for a struct of counters, field by field: totals over pages and folds.
macro_rules! add_assign_fields {
    ($t:ty: $($field:ident),+) => {
        impl std::ops::AddAssign for $t {
            fn add_assign(&mut self, o: $t) {
                $(self.$field += o.$field;)+
            }
        }
    };
}

pub mod batch;
pub mod config;
pub mod date;
pub mod decode;
pub mod dedup;
pub mod dom;
pub mod error;
pub mod eval;
pub mod extract;
pub mod features;
#[doc(hidden)]
pub mod fuzzing;
pub mod geometry;
pub mod input;
pub mod metadata;
pub mod model;
pub mod output;
pub mod page;
pub mod pipeline;
pub mod rules;
pub mod segment;
pub mod site;
pub mod text;
pub mod train;
pub mod url;

pub use config::Limits;
pub use dom::Parser;
pub use error::{Error, Result};
pub use extract::{extract, ExtractOptions, Extraction, OutputFormat};
pub use metadata::Metadata;
pub use model::Model;
pub use output::render::Format;
pub use page::{Page, PageOptions, Spans};
pub use pipeline::{analyze, Analysis, Options};
pub use rules::{Rule, RuleSet};
