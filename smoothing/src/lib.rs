//! Exact regularised L1 isotonic regression on rooted trees: the smoothing step of
//! PageLevel (Chakrabarti, Kumar and Punera, WWW 2007, section 4).
//!
//! Each node `i` of a rooted tree has a score `x[i]` in `[0, 1]` (say, a classifier's
//! belief that the DOM node is template), a weight `w[i] >= 0` and a penalty
//! `gamma[i] >= 0`. The solvers find labels `y` that minimise
//!
//! ```text
//!   sum_i w[i] * |x[i] - y[i]|  +  sum_{i starts a segment} gamma[i]
//! ```
//!
//! subject to `y[parent] <= y[child]` on every edge, where node `i` starts a segment if
//! it is the root or `y[i] != y[parent(i)]`. By the paper's Lemma 3 an optimal `y` exists
//! whose values are all among the scores; every solver here returns such a `y`.
//!
//! # Main items
//! - [`solve`]: the fast exact solver, memory linear in the input (see its `# Complexity`).
//! - [`reference`](mod@reference): the paper's `BuildError`/`IsotoneSmooth` table, `O(n^2)` time and
//!   memory, kept as the oracle.
//! - [`brute`](mod@brute): exhaustive search over trees of at most 7 nodes (a test oracle).
//! - [`jsonl::smooth_line`]: one JSON line in the `smooth` binary's format, parsed and solved.
//! - [`Smoothed`]: the output; [`SmoothError`]: why an input was rejected.
//!
//! Trees are given as parent indices: `parent[i]` is the parent of node `i`, and the
//! single root has [`NO_PARENT`]. Nodes may appear in any order.
//!
//! # Example
//! ```
//! use smoothing::{solve, NO_PARENT};
//!
//! // A root with two children; the second child scores high.
//! let parent = [NO_PARENT, 0, 0];
//! let x = [0.1, 0.2, 0.9];
//! let w = [1.0, 1.0, 1.0];
//! let gamma = [0.3, 0.3, 0.3];
//! let s = solve(&parent, &x, &w, &gamma).unwrap();
//! // Node 2 is worth its own segment (gain 0.7 > penalty 0.3); node 1 is not (0.1 < 0.3).
//! assert_eq!(s.y, vec![0.1, 0.1, 0.9]);
//! assert_eq!(s.segment_roots, vec![0, 2]);
//! assert!((s.cost - (0.3 + 0.1 + 0.3)).abs() < 1e-12);
//! ```
#![deny(missing_docs)]
#![forbid(unsafe_code)]

pub mod brute;
mod error;
mod fast;
#[doc(hidden)]
pub mod fuzzing;
pub mod jsonl;
pub mod reference;
mod slopes;
mod tree;

pub use error::SmoothError;
pub use fast::solve;

/// Marker in a parent slice for the root (which has no parent).
pub const NO_PARENT: usize = usize::MAX;

/// The result of smoothing one tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothed {
    /// The smoothed value of each node; every value is one of the input scores.
    pub y: Vec<f64>,
    /// The nodes that start a segment (the root, and every node whose value differs
    /// from its parent's), ascending. This is the paper's compressed labelling.
    pub segment_roots: Vec<usize>,
    /// The optimal objective value.
    pub cost: f64,
}

impl Smoothed {
    /// The solution of the empty tree: no nodes, no segments, cost 0.
    pub fn empty() -> Smoothed {
        Smoothed {
            y: vec![],
            segment_roots: vec![],
            cost: 0.0,
        }
    }
}

/// Evaluates the objective for labels `y` (no validation beyond slice lengths).
///
/// Returns `f64::INFINITY` if `y` breaks monotonicity on some edge.
///
/// # Panics
/// If the slices do not all have the same length or a parent index is out of range.
pub fn objective(parent: &[usize], x: &[f64], w: &[f64], gamma: &[f64], y: &[f64]) -> f64 {
    assert!(x.len() == parent.len() && w.len() == parent.len());
    assert!(gamma.len() == parent.len() && y.len() == parent.len());
    let mut cost = 0.0;
    for i in 0..parent.len() {
        cost += w[i] * (x[i] - y[i]).abs();
        let p = parent[i];
        if p == NO_PARENT {
            cost += gamma[i];
        } else if y[p] > y[i] {
            return f64::INFINITY;
        } else if y[p] != y[i] {
            cost += gamma[i];
        }
    }
    cost
}
