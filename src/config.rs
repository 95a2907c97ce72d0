//! Settings with named defaults, one line each.

/// Default for [`Limits::max_input_bytes`]: 256 MiB of HTML after decompression.
pub const DEFAULT_MAX_INPUT_BYTES: u64 = 256 << 20;
/// Default for [`Limits::max_nodes`]: 20 million DOM nodes.
pub const DEFAULT_MAX_NODES: usize = 20_000_000;

/// Resource limits for one page. Exceeding one is an error for that page alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Largest input accepted, in bytes after gzip decompression; a larger one is `Error::TooLarge`.
    pub max_input_bytes: u64,
    /// Most DOM nodes one page may produce; more is `Error::TooManyNodes`.
    pub max_nodes: usize,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            max_input_bytes: DEFAULT_MAX_INPUT_BYTES,
            max_nodes: DEFAULT_MAX_NODES,
        }
    }
}
