//! The fast parser: a byte-level tokenizer (`tokenizer.rs`) and tree construction straight into
//! the arena (`builder.rs`), with html5ever's behaviour as its reference.
//!
//! It builds the same [`Dom`] as [`crate::dom::sink`] (same nodes, names, namespaces, kept
//! attributes, text, comment lengths and byte estimates), under the same limits and deadline,
//! with the same errors; `docs/parser.md` says where it differs and how much faster it is.

mod builder;
mod tokenizer;

use crate::config::Deadline;
use crate::dom::tree::Dom;
use crate::{Error, Limits, Result};

/// Input bytes between two deadline checks.
const CHECK_BYTES: usize = 4 << 10;

/// Parses decoded HTML into the arena, with source spans.
///
/// # Errors
/// [`Error::TooManyNodes`] when the page builds more than `limits.max_nodes` nodes, and
/// [`Error::TooLarge`] when the text is over `limits.max_input_bytes` (or 4 GiB).
///
/// # Complexity
/// Linear in the input on real pages (see `builder.rs` for the per-token bounds); no recursion,
/// so any depth parses.
pub fn parse(html: &str, limits: &Limits) -> Result<Dom> {
    parse_within(html, limits, &Deadline::none())
}

/// Like [`parse`], and [`Error::Timeout`] once `deadline` passes (checked every 64 tokens
/// and every 4 KiB of input).
pub fn parse_within(html: &str, limits: &Limits, deadline: &Deadline) -> Result<Dom> {
    drive(html, limits, deadline, true)
}

/// Like [`parse_within`] without source spans (every [`crate::dom::tree::Span`] unknown).
pub fn parse_plain_within(html: &str, limits: &Limits, deadline: &Deadline) -> Result<Dom> {
    drive(html, limits, deadline, false)
}

fn drive(html: &str, limits: &Limits, deadline: &Deadline, spans: bool) -> Result<Dom> {
    crate::dom::tree::check_size(html, limits)?;
    let mut tok = tokenizer::Tokenizer::new(html);
    let mut tree = builder::Tree::new(html, limits.max_nodes, spans);
    let mut checked_at = 0;
    let mut count = 0usize;
    loop {
        let token = tok.next(tree.in_foreign());
        if let Some(raw) = tree.process(&tok, token) {
            tok.set_raw(raw);
        }
        if tree.overflow {
            return Err(Error::TooManyNodes {
                limit: limits.max_nodes,
            });
        }
        if token == tokenizer::Token::Eof {
            break;
        }
        count += 1;
        if count.is_multiple_of(64) || tok.pos() - checked_at >= CHECK_BYTES {
            checked_at = tok.pos();
            deadline.check("parse")?;
        }
    }
    Ok(tree.into_dom())
}
