//! The `smooth` binary's line format, shared with its fuzz target.
//!
//! An input line is `{"parent": [...], "x": [...], "w": [...], "gamma": [...]}` with
//! `parent = -1` for the root; [`smooth_line`] parses, validates and solves it.

use serde::Deserialize;

use crate::{SmoothError, Smoothed, NO_PARENT};

/// One input tree, as typed by the user.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Input {
    parent: Vec<i64>,
    x: Vec<f64>,
    w: Vec<f64>,
    gamma: Vec<f64>,
}

/// Why a line was rejected.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum LineError {
    /// Not JSON, or not an object with exactly the four arrays.
    #[error("bad JSON: {0}")]
    Json(#[from] serde_json::Error),
    /// A parent index below -1.
    #[error("node {node}: parent index {parent} is invalid (use -1 for the root)")]
    BadParent {
        /// Node index.
        node: usize,
        /// The offending parent index.
        parent: i64,
    },
    /// The tree or its values were rejected by the solver.
    #[error(transparent)]
    Tree(#[from] SmoothError),
}

/// Parses one JSON line and smooths its tree with [`crate::solve`].
///
/// # Complexity
/// Linear parse, then the solver's time.
pub fn smooth_line(line: &str) -> Result<Smoothed, LineError> {
    let input: Input = serde_json::from_str(line)?;
    let parent = input
        .parent
        .iter()
        .enumerate()
        .map(|(node, &p)| match p {
            -1 => Ok(NO_PARENT),
            // An index past usize on 32-bit targets is out of range like any other.
            p if p >= 0 => Ok(usize::try_from(p).unwrap_or(usize::MAX - 1)),
            parent => Err(LineError::BadParent { node, parent }),
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(crate::solve(&parent, &input.x, &input.w, &input.gamma)?)
}
