//! The compact DOM arena every stage works on.
//!
//! Nodes live in one `Vec` in document preorder: node 0 is the document, `parent(i) < i`, and
//! the subtree of `i` is the contiguous range `i..node.end`. A bottom-up pass is therefore a
//! reverse loop over indices and a top-down pass a forward loop: no recursion anywhere, so a
//! page nested 1,000,000 deep cannot overflow the stack. Text and attribute values live in two
//! shared string buffers, so building a page allocates a handful of vectors, not one per node.
//!
//! [`fast`] builds the arena with a purpose-built tokenizer and tree builder (the pipeline's
//! default, [`Parser::Fast`]); [`parse`] builds it straight from html5ever's `TreeSink`
//! ([`sink`]), the fast parser's reference; [`reference`](mod@reference) converts
//! markup5ever_rcdom's tree into the same arena and serves as the test oracle.

pub mod compare;
pub mod fast;
pub mod reference;
pub mod sink;
pub mod tag;
pub mod tree;
pub mod visible;

pub use sink::{parse, parse_plain_within, parse_within};

use crate::config::Deadline;
use crate::{Limits, Result};

/// Which parser builds the arena.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "cli", derive(clap::ValueEnum))]
pub enum Parser {
    /// html5ever through its `TreeSink` ([`sink`]): the reference.
    #[cfg_attr(
        feature = "cli",
        value(help = "html5ever through its TreeSink: the reference")
    )]
    Html5ever,
    /// The purpose-built tokenizer and tree builder ([`fast`]): html5ever's tree on every
    /// page of the shared data, several times faster; the default.
    #[default]
    #[cfg_attr(
        feature = "cli",
        value(
            help = "the purpose-built tokenizer and tree builder: html5ever's tree on every page of the shared data, several times faster; the default"
        )
    )]
    Fast,
}

impl Parser {
    /// Its name on the command line and in Python.
    pub fn name(self) -> &'static str {
        match self {
            Parser::Html5ever => "html5ever",
            Parser::Fast => "fast",
        }
    }

    /// The parser named `name` ("html5ever" or "fast").
    pub fn from_name(name: &str) -> Option<Parser> {
        match name {
            "html5ever" => Some(Parser::Html5ever),
            "fast" => Some(Parser::Fast),
            _ => None,
        }
    }

    /// Parses with source spans ([`parse_within`] or [`fast::parse_within`]).
    pub fn parse_within(self, html: &str, limits: &Limits, deadline: &Deadline) -> Result<Dom> {
        match self {
            Parser::Html5ever => sink::parse_within(html, limits, deadline),
            Parser::Fast => fast::parse_within(html, limits, deadline),
        }
    }

    /// Parses without source spans ([`parse_plain_within`] or [`fast::parse_plain_within`]).
    pub fn parse_plain_within(
        self,
        html: &str,
        limits: &Limits,
        deadline: &Deadline,
    ) -> Result<Dom> {
        match self {
            Parser::Html5ever => sink::parse_plain_within(html, limits, deadline),
            Parser::Fast => fast::parse_plain_within(html, limits, deadline),
        }
    }
}
pub use tag::Tag;
pub use tree::*;
pub use visible::{is_tab_panel_role, visibility};
