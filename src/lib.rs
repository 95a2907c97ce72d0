//! pagelevel finds the template of a web page (navigation, headers, footers, ads, link
//! lists, cookie bars) one page at a time, segments the page and extracts its main content.
//!
//! The pipeline's stages are modules named after what they do:
//! `decode → dom → geometry → features → blocks → classify → segment → extract`.

pub mod align;
pub mod blocks;
pub mod boost;
pub mod config;
pub mod decode;
pub mod dedup;
pub mod dom;
pub mod error;
pub mod evaluate;
pub mod extract;
pub mod features;
#[doc(hidden)]
pub mod fuzzing;
pub mod geometry;
pub mod input;
pub mod label;
pub mod manifest;
pub mod math;
pub mod metrics;
pub mod page;
pub mod render;
pub mod rules;
pub mod site;
pub mod sniff;
pub mod stack;
pub mod structured;
pub mod text;
pub mod threshold;
pub mod url;
pub mod warc;

pub use config::Limits;
pub use error::{Error, Result};
pub use page::{Page, Spans};
pub mod classify;
pub mod pipeline;
pub mod segment;
pub mod train;
pub mod view;
