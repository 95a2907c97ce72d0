//! The crate's error type.

use thiserror::Error;

/// Why an input tree was rejected. Every message names the offending node and value.
#[derive(Debug, Clone, PartialEq, Error)]
#[non_exhaustive]
pub enum SmoothError {
    /// One of the per-node slices does not have one entry per node.
    #[error("length mismatch: parent has {nodes} entries but {field} has {len}")]
    LengthMismatch {
        /// Name of the slice that disagrees (`"x"`, `"w"` or `"gamma"`).
        field: &'static str,
        /// Number of nodes (length of the parent slice).
        nodes: usize,
        /// Length of the disagreeing slice.
        len: usize,
    },
    /// A score is NaN or outside `[0, 1]`.
    #[error("node {node}: score x = {value} is not in [0, 1]")]
    ScoreOutOfRange {
        /// Node index.
        node: usize,
        /// The offending score.
        value: f64,
    },
    /// A weight is negative, NaN or infinite.
    #[error("node {node}: weight w = {value} is not a finite number >= 0")]
    BadWeight {
        /// Node index.
        node: usize,
        /// The offending weight.
        value: f64,
    },
    /// A penalty is negative, NaN or infinite.
    #[error("node {node}: penalty gamma = {value} is not a finite number >= 0")]
    BadPenalty {
        /// Node index.
        node: usize,
        /// The offending penalty.
        value: f64,
    },
    /// A parent index points outside the tree.
    #[error("node {node}: parent index {parent} is out of range (tree has {nodes} nodes)")]
    ParentOutOfRange {
        /// Node index.
        node: usize,
        /// The offending parent index.
        parent: usize,
        /// Number of nodes.
        nodes: usize,
    },
    /// No node has [`NO_PARENT`](crate::NO_PARENT) as its parent.
    #[error("no root: every one of the {nodes} nodes has a parent")]
    NoRoot {
        /// Number of nodes.
        nodes: usize,
    },
    /// More than one node has [`NO_PARENT`](crate::NO_PARENT) as its parent.
    #[error("several roots: nodes {first} and {second} both have no parent")]
    SeveralRoots {
        /// The first root found.
        first: usize,
        /// The second root found.
        second: usize,
    },
    /// Following parents from this node never reaches the root.
    #[error("node {node}: parent links form a cycle (node is not reachable from the root)")]
    Cycle {
        /// A node on or below the cycle.
        node: usize,
    },
}
