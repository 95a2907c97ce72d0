//! The `smooth` binary's line format, shared with its fuzz target.
//!
//! An input line is `{"parent": [...], "x": [...], "w": [...], "gamma": [...]}` with
//! `parent = -1` for the root; [`parse_line`] reads it into a [`Tree`] and [`smooth_line`]
//! also solves it.

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

/// One parsed line: the solver's four slices, with `-1` turned into [`NO_PARENT`].
#[derive(Debug, Clone, PartialEq)]
pub struct Tree {
    /// Parent index of each node, [`NO_PARENT`] for the root.
    pub parent: Vec<usize>,
    /// Scores.
    pub x: Vec<f64>,
    /// Weights.
    pub w: Vec<f64>,
    /// Segment penalties.
    pub gamma: Vec<f64>,
}

impl Tree {
    /// Smooths the tree with [`crate::solve`].
    pub fn solve(&self) -> Result<Smoothed, SmoothError> {
        crate::solve(&self.parent, &self.x, &self.w, &self.gamma)
    }
}

/// Parses one JSON line; the tree itself is checked by the solver, not here.
///
/// # Complexity
/// Linear in the line.
pub fn parse_line(line: &str) -> Result<Tree, LineError> {
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
    Ok(Tree {
        parent,
        x: input.x,
        w: input.w,
        gamma: input.gamma,
    })
}

/// Parses one JSON line and smooths its tree with [`crate::solve`].
///
/// # Complexity
/// Linear parse, then the solver's time.
pub fn smooth_line(line: &str) -> Result<Smoothed, LineError> {
    Ok(parse_line(line)?.solve()?)
}
