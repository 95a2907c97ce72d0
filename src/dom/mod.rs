//! The compact DOM arena every stage works on.
//!
//! Nodes live in one `Vec` in document preorder: node 0 is the document, `parent(i) < i`, and
//! the subtree of `i` is the contiguous range `i..node.end`. A bottom-up pass is therefore a
//! reverse loop over indices and a top-down pass a forward loop: no recursion anywhere, so a
//! page nested 1,000,000 deep cannot overflow the stack. Text and attribute values live in two
//! shared string buffers, so building a page allocates a handful of vectors, not one per node.
//!
//! [`parse`] builds the arena straight from html5ever's `TreeSink` ([`sink`]); [`reference`](mod@reference)
//! converts markup5ever_rcdom's tree into the same arena and serves as the test oracle.

pub mod reference;
pub mod sink;
pub mod tag;
pub mod tree;
pub mod visible;

pub use sink::{parse, parse_plain_within, parse_within};
pub use tag::Tag;
pub use tree::*;
pub use visible::{is_tab_panel_role, visibility};
