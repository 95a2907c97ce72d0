//! pagelevel finds the template of a web page (navigation, headers, footers, ads, link
//! lists, cookie bars) one page at a time, segments the page and extracts its main content.
//!
//! One call runs the whole pipeline on a page's bytes; the [`pipeline::Analysis`] it returns
//! gives the main text, the main content as Markdown or HTML, and the segments:
//!
//! ```
//! use pagelevel::model::Model;
//! use pagelevel::pipeline::{run_bytes, Options};
//! use pagelevel::output::render::Format;
//! use pagelevel::Limits;
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
//! let analysis = run_bytes(
//!     html.as_bytes(),
//!     Some("https://example.com/bridge"),
//!     None, // the transport's charset, when there is one
//!     &Limits::default(),
//!     Model::embedded(),
//!     &Options::default(),
//! )?;
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
//! The stages are modules named after what they do, in this order (see
//! `docs/architecture.md`): `decode → dom → geometry → blocks, features → classify (the model)
//! → segment → rules → extract, render, view`. [`rules`] holds the passes after the model,
//! each switchable through [`pipeline::Options::rules`].

#![deny(missing_docs)]

pub mod batch;
pub mod config;
pub mod decode;
pub mod dedup;
pub mod dom;
pub mod error;
pub mod eval;
pub mod features;
#[doc(hidden)]
pub mod fuzzing;
pub mod geometry;
pub mod input;
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
pub use error::{Error, Result};
pub use page::{Page, PageOptions, Spans};
