//! The paper's dynamic program (`BuildError` then `IsotoneSmooth`), kept as the oracle.
//!
//! For every node `i` and every candidate value `a` (the distinct scores, ascending as
//! `v_0 < ... < v_{m-1}`), `BuildError` tabulates
//!
//! ```text
//!   err(i, a) = w_i |x_i - v_a| + sum_{c child of i} best(c, a)
//!   best(c, a) = min( err(c, a),  gamma_c + min_{b > a} err(c, b) )
//! ```
//!
//! bottom-up: `err(i, a)` is the cheapest cost of the subtree of `i` when `y_i = v_a`,
//! not counting `i`'s own penalty, and `best(c, a)` the cheapest cost of the subtree of
//! `c` when its parent has value `v_a`: either `c` continues its parent's segment
//! (`y_c = v_a`, no penalty) or starts one at a *strictly* larger value. The paper's
//! strict/non-strict care: `b > a` is what the objective says (a segment starts only
//! where the value changes); `b >= a` would give the same numbers, since paying `gamma_c`
//! to stay at `v_a` never beats staying for free, but the reconstruction must then not
//! report a segment start where the value did not change. The optimum is
//! `gamma_root + min_a err(root, a)`. `IsotoneSmooth` then walks top-down, choosing for
//! each node the option that attains `best(c, y_parent)`, preferring to continue on ties.

use crate::tree::Problem;
use crate::{SmoothError, Smoothed};

/// Solves with the full `err(i, a)` table.
///
/// Same input conventions as [`crate::solve`].
///
/// # Complexity
/// With `n` nodes and `m <= n` distinct scores: `O(n m)` time (each node fills one row
/// of `m` entries and adds it into its parent's row; the paper states `O(n^2 log n)`,
/// the log coming from sorting candidate lists) plus `O(n log n)` to sort the scores,
/// and `O(n m)` memory, 8 bytes per entry: 8 MB at `n = m = 1000`, 800 MB at 10,000.
pub fn solve(
    parent: &[usize],
    x: &[f64],
    w: &[f64],
    gamma: &[f64],
) -> Result<Smoothed, SmoothError> {
    let Some(p) = Problem::new(parent, x, w, gamma)? else {
        return Ok(Smoothed::empty());
    };
    let err = build_error(&p);
    let (y_rank, cost) = isotone_smooth(&p, &err);
    Ok(p.finish(&y_rank, cost))
}

/// Fills `err(i, a)` (row `i`, column `a`), children before parents.
fn build_error(p: &Problem<'_>) -> Vec<f64> {
    let n = p.n();
    let m = p.vals.len();
    let mut err = vec![0.0f64; n * m];
    let mut best = vec![0.0f64; m];
    // Reverse breadth-first order visits every child before its parent.
    for &i in p.order.iter().rev() {
        let i = i as usize;
        let row = &mut err[i * m..(i + 1) * m];
        for (a, e) in row.iter_mut().enumerate() {
            *e += p.w[i] * (p.x[i] - p.vals[a]).abs();
        }
        let parent = p.parent[i];
        if parent == crate::NO_PARENT {
            continue;
        }
        // best(i, a) = min(err(i, a), gamma_i + min_{b > a} err(i, b)), right to left.
        let mut suffix_min = f64::INFINITY; // min_{b > a} err(i, b)
        for a in (0..m).rev() {
            best[a] = row[a].min(p.gamma[i] + suffix_min);
            suffix_min = suffix_min.min(row[a]);
        }
        let prow = &mut err[parent * m..(parent + 1) * m];
        for (e, b) in prow.iter_mut().zip(&best) {
            *e += b;
        }
    }
    err
}

/// Top-down reconstruction from the table; returns the ranks of `y` and the cost.
fn isotone_smooth(p: &Problem<'_>, err: &[f64]) -> (Vec<u32>, f64) {
    let m = p.vals.len();
    let row = |i: usize| &err[i * m..(i + 1) * m];
    let root_row = row(p.root);
    let (mut arg, mut min) = (0, f64::INFINITY);
    for (a, &e) in root_row.iter().enumerate() {
        if e < min {
            (arg, min) = (a, e);
        }
    }
    let mut y = vec![0u32; p.n()];
    y[p.root] = arg as u32;
    for &i in p.order.iter().skip(1) {
        let i = i as usize;
        let a = y[p.parent[i]] as usize;
        let r = row(i);
        let (mut arg, mut min) = (a, f64::INFINITY);
        for (b, &e) in r.iter().enumerate().skip(a + 1) {
            if e < min {
                (arg, min) = (b, e);
            }
        }
        y[i] = if r[a] <= p.gamma[i] + min { a } else { arg } as u32;
    }
    (y, p.gamma[p.root] + min)
}
