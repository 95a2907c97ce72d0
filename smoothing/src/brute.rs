//! Exhaustive search: a test oracle for trees of at most [`MAX_NODES`] nodes.
//!
//! It tries every monotone assignment whose values are scores from `x` (enough by the
//! paper's Lemma 3) and keeps the cheapest. Do not use it in production.

use crate::tree::Problem;
use crate::{objective, SmoothError, Smoothed};

/// Largest tree [`solve`] accepts.
pub const MAX_NODES: usize = 7;

/// Solves by trying every monotone assignment of score values.
///
/// Same input conventions as [`crate::solve`]; ties are broken towards the first
/// assignment found in lexicographic order of ranks along a breadth-first order.
///
/// # Complexity
/// `O(m^n * n)` time for `n` nodes and `m` distinct scores, `O(n)` memory.
///
/// # Panics
/// If the tree has more than [`MAX_NODES`] nodes.
pub fn solve(
    parent: &[usize],
    x: &[f64],
    w: &[f64],
    gamma: &[f64],
) -> Result<Smoothed, SmoothError> {
    let Some(p) = Problem::new(parent, x, w, gamma)? else {
        return Ok(Smoothed::empty());
    };
    let n = p.n();
    assert!(
        n <= MAX_NODES,
        "brute::solve takes at most {MAX_NODES} nodes, got {n}"
    );
    let m = p.vals.len();
    let mut y = vec![0.0; n];
    let mut cur = vec![0usize; n]; // cur[k]: candidate rank for node order[k]
    let mut best: Option<(f64, Vec<f64>)> = None;
    let mut pos = 0usize;
    loop {
        if pos == n {
            let c = objective(parent, x, w, gamma, &y);
            if !matches!(&best, Some((b, _)) if c >= *b) {
                best = Some((c, y.clone()));
            }
            pos -= 1;
            cur[pos] += 1;
            continue;
        }
        let node = p.order[pos] as usize;
        let lo = if node == p.root {
            0
        } else {
            cur_rank(&p, &y, parent[node])
        };
        if cur[pos] < lo {
            cur[pos] = lo;
        }
        if cur[pos] >= m {
            if pos == 0 {
                break;
            }
            pos -= 1;
            cur[pos] += 1;
            continue;
        }
        y[node] = p.vals[cur[pos]];
        pos += 1;
        if pos < n {
            cur[pos] = 0;
        }
    }
    let (cost, y) = best.expect("at least one assignment");
    let segment_roots = crate::tree::segment_roots(parent, &y);
    Ok(Smoothed {
        y,
        segment_roots,
        cost,
    })
}

fn cur_rank(p: &Problem<'_>, y: &[f64], node: usize) -> usize {
    p.vals.partition_point(|&v| v < y[node])
}
