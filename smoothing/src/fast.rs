//! The production solver: the same recurrence as [`crate::reference`], with each
//! subtree's cost function kept as a list of breakpoints instead of a table row.
//!
//! For a node `i` whose parent takes value `u`, the subtree's cheapest cost is
//!
//! ```text
//!   f_i(u) = min( g_i(u), gamma_i + min_{v > u} g_i(v) ),
//!   g_i(v) = w_i |x_i - v| + sum_{c child of i} f_c(v).
//! ```
//!
//! Only the values of these functions at the distinct scores `v_0 < ... < v_{m-1}`
//! matter (Lemma 3), so a function is stored as its values at a few *ranks* with linear
//! interpolation (in `v`) in between: slope changes at ranks, plus the value and slope at
//! `v_0`. Sums of functions are concatenations of slope-change lists (appended smaller
//! into larger). With `S(v) = min_{t >= v} g(t)`, the step `g -> f` is
//! `f = min(g, gamma + S)`; on each linear piece `[a, b]` of `g` this is
//! `min(g, gamma + S(b))`, a cap at a constant level that cuts the piece at most once, so
//! one right-to-left sweep over the pieces computes `f` exactly at every rank (a cut
//! between two ranks becomes a breakpoint at each of them). Where the cap binds, the
//! node starts a new segment at the rank attaining `S(b)`; the sweep records these
//! capped rank intervals, and they are all the reconstruction needs.

use crate::tree::Problem;
use crate::{SmoothError, Smoothed, NO_PARENT};

/// A piecewise-linear function of `v` on `[v_0, v_{m-1}]` known by its value at `v_0`,
/// its slope just right of `v_0`, and slope changes at interior ranks (unsorted, and a
/// rank may repeat: entries add up).
#[derive(Default)]
struct Func {
    base: f64,
    slope0: f64,
    bps: Vec<(u32, f64)>,
}

impl Func {
    /// `self += other`, reusing the larger buffer.
    fn add(&mut self, mut other: Func) {
        self.base += other.base;
        self.slope0 += other.slope0;
        if other.bps.len() > self.bps.len() {
            std::mem::swap(&mut self.bps, &mut other.bps);
        }
        self.bps.extend_from_slice(&other.bps);
    }
}

/// A maximal run of parent ranks `lo..=hi` for which the node leaves its parent's value
/// and starts a segment at rank `to`.
#[derive(Clone, Copy)]
struct Jump {
    lo: u32,
    hi: u32,
    to: u32,
}

/// Solves exactly (same optimum as [`crate::reference::solve`], up to floating-point
/// rounding; on ties the labels may differ).
///
/// # Arguments
/// - `parent[i]`: the parent of node `i`, or [`NO_PARENT`] for the single root.
/// - `x[i]`: the score, in `[0, 1]`. `w[i]`: the weight, finite and `>= 0`.
/// - `gamma[i]`: the penalty paid when node `i` starts a segment, finite and `>= 0`.
///
/// # Returns
/// The labels, the segment roots and the optimal cost. An empty tree gives an empty
/// result of cost 0.
///
/// # Errors
/// [`SmoothError`] for mismatched lengths, a bad score, weight or penalty, a parent out
/// of range, no root or several roots, or a cycle.
///
/// # Complexity
/// Let `n` be the number of nodes, `m <= n` the number of distinct scores and `K_i`
/// the number of breakpoints of `g_i` (at most `min(m, 2 * size of i's subtree)`).
/// Time is `O(n log n + sum_i K_i log(d_i + 1))` where `d_i` is the number of children
/// (sorting concatenated sorted runs), and memory `O(n + max live breakpoints + number
/// of capped intervals)`, about 40 bytes per node plus 16 per live breakpoint.
/// Worst case `sum_i K_i` is `O(n * depth)`, hence `O(n^2)` for a long path whose
/// functions keep many breakpoints, e.g. a chain with one huge segment. On shallow trees
/// (DOM-like, depth <= 25) it is `O(n * depth)`, and on random recursive trees
/// `O(n log n)`. See the crate's README for measured numbers.
///
/// # Example
/// ```
/// use smoothing::{solve, NO_PARENT};
/// let s = solve(&[NO_PARENT, 0], &[0.8, 0.2], &[1.0, 1.0], &[0.0, 0.0]).unwrap();
/// assert_eq!(s.y, vec![0.2, 0.2]); // or any tie; the cost is what is exact
/// assert!((s.cost - 0.6).abs() < 1e-12);
/// ```
pub fn solve(
    parent: &[usize],
    x: &[f64],
    w: &[f64],
    gamma: &[f64],
) -> Result<Smoothed, SmoothError> {
    let Some(p) = Problem::new(parent, x, w, gamma)? else {
        return Ok(Smoothed { y: vec![], segment_roots: vec![], cost: 0.0 });
    };
    let n = p.n();
    let vals = &p.vals;
    let m = vals.len();
    let mut acc: Vec<Func> = (0..n).map(|_| Func::default()).collect();
    let mut jumps: Vec<Jump> = Vec::new();
    // jump_end[t]: end in `jumps` of the runs of the t-th processed node (reverse BFS).
    let mut jump_end: Vec<u32> = Vec::with_capacity(n);
    let mut pts: Vec<(u32, f64)> = Vec::new();
    let mut out: Vec<(u32, f64)> = Vec::new();
    let mut root_rank = 0u32;
    let mut cost = 0.0;
    for &i in p.order.iter().rev() {
        let i = i as usize;
        let mut g = std::mem::take(&mut acc[i]);
        // g += w_i |x_i - v|.
        let (wi, r) = (w[i], p.rank[i]);
        if wi > 0.0 {
            g.base += wi * (x[i] - vals[0]);
            if r == 0 {
                g.slope0 += wi;
            } else {
                g.slope0 -= wi;
                if (r as usize) < m - 1 {
                    g.bps.push((r, 2.0 * wi));
                }
            }
        }
        evaluate(&mut g, vals, &mut pts);
        if parent[i] == NO_PARENT {
            let (mut arg, mut min) = (0, f64::INFINITY);
            for &(k, val) in &pts {
                if val < min {
                    (arg, min) = (k, val);
                }
            }
            root_rank = arg;
            cost = gamma[i] + min;
            jump_end.push(jumps.len() as u32);
            continue;
        }
        cap(&pts, gamma[i], vals, &mut out, &mut jumps);
        jump_end.push(jumps.len() as u32);
        // Back to slope form, reusing g's buffer.
        g.bps.clear();
        g.base = out[0].1;
        g.slope0 = 0.0;
        if out.len() > 1 {
            let slope = |j: usize| {
                let ((ka, fa), (kb, fb)) = (out[j], out[j + 1]);
                (fb - fa) / (vals[kb as usize] - vals[ka as usize])
            };
            let mut prev = slope(0);
            g.slope0 = prev;
            for j in 1..out.len() - 1 {
                let s = slope(j);
                if s != prev {
                    g.bps.push((out[j].0, s - prev));
                }
                prev = s;
            }
        }
        acc[parent[i]].add(g);
    }
    drop(acc);
    // Top-down: a node keeps its parent's rank unless that rank falls in a capped run.
    let mut y = vec![0u32; n];
    y[p.root] = root_rank;
    for (j, &i) in p.order.iter().enumerate().skip(1) {
        let i = i as usize;
        let t = n - 1 - j;
        let start = if t == 0 { 0 } else { jump_end[t - 1] as usize };
        // Runs are stored right to left: descending `lo`.
        let runs = &jumps[start..jump_end[t] as usize];
        let k = y[parent[i]];
        let idx = runs.partition_point(|run| run.lo > k);
        y[i] = match runs.get(idx) {
            Some(run) if run.hi >= k => run.to,
            _ => k,
        };
    }
    Ok(p.finish(&y, cost))
}

/// Sorts and sums `g`'s slope changes and writes `g`'s value at rank 0, at each
/// breakpoint and at rank `m - 1` into `pts` (ascending ranks).
fn evaluate(g: &mut Func, vals: &[f64], pts: &mut Vec<(u32, f64)>) {
    let m = vals.len();
    // Children's lists are sorted runs: the stable sort merges them in O(K log runs).
    g.bps.sort_by_key(|&(k, _)| k);
    pts.clear();
    pts.push((0, g.base));
    let (mut val, mut slope, mut at) = (g.base, g.slope0, vals[0]);
    let mut j = 0;
    while j < g.bps.len() {
        let k = g.bps[j].0;
        let mut delta = 0.0;
        while j < g.bps.len() && g.bps[j].0 == k {
            delta += g.bps[j].1;
            j += 1;
        }
        let v = vals[k as usize];
        val += slope * (v - at);
        at = v;
        slope += delta;
        pts.push((k, val));
    }
    if m > 1 {
        let v = vals[m - 1];
        pts.push(((m - 1) as u32, val + slope * (v - at)));
    }
}

/// Computes `f = min(g, gamma + S)` at the points of `g` (plus the cut ranks), into
/// `out` in ascending rank order, and appends the capped runs to `jumps`.
fn cap(
    pts: &[(u32, f64)],
    gamma: f64,
    vals: &[f64],
    out: &mut Vec<(u32, f64)>,
    jumps: &mut Vec<Jump>,
) {
    out.clear();
    let (last_k, last_g) = *pts.last().expect("at least one point");
    out.push((last_k, last_g));
    // Suffix minimum of g over ranks >= the current right end, and where it is attained.
    let (mut s_val, mut s_arg) = (last_g, last_k);
    // Runs of one node come right to left; adjacent runs with one target merge. Runs of
    // different nodes never merge (`first_new`).
    let first_new = jumps.len();
    let mut push_jump = |lo: u32, hi: u32, to: u32| {
        if jumps.len() > first_new {
            let prev = jumps.last_mut().expect("non-empty");
            if prev.to == to && prev.lo == hi + 1 {
                prev.lo = lo;
                return;
            }
        }
        jumps.push(Jump { lo, hi, to });
    };
    for j in (0..pts.len() - 1).rev() {
        let ((ka, ga), (kb, gb)) = (pts[j], pts[j + 1]);
        if gb < s_val {
            (s_val, s_arg) = (gb, kb);
        }
        let level = gamma + s_val;
        let (va, vb) = (vals[ka as usize], vals[kb as usize]);
        // g at rank k of this piece, exact at both ends.
        let at = |k: u32| -> f64 {
            if k == kb {
                gb
            } else {
                ga + (gb - ga) * ((vals[k as usize] - va) / (vb - va))
            }
        };
        let a_cut = ga > level;
        let b_cut = gb > level;
        match (a_cut, b_cut) {
            (false, false) => out.push((ka, ga)),
            (true, true) => {
                push_jump(ka, kb - 1, s_arg);
                out.push((ka, level));
            }
            (true, false) => {
                // Decreasing piece: ranks ka..=k1 are cut, k1+1..=kb are not.
                let k2 = ka + 1 + partition(ka + 1, kb, |k| at(k) > level);
                let k1 = k2 - 1;
                push_jump(ka, k1, s_arg);
                if k2 < kb {
                    out.push((k2, at(k2)));
                }
                if k1 > ka {
                    out.push((k1, level));
                }
                out.push((ka, level));
            }
            (false, true) => {
                // Increasing piece: ranks ka..=k1 are not cut, k2..kb are.
                let k2 = ka + 1 + partition(ka + 1, kb, |k| at(k) <= level);
                let k1 = k2 - 1;
                if k2 < kb {
                        push_jump(k2, kb - 1, s_arg);
                    out.push((k2, level));
                }
                if k1 > ka {
                    out.push((k1, at(k1)));
                }
                out.push((ka, ga));
            }
        }
        if ga < s_val {
            (s_val, s_arg) = (ga, ka);
        }
    }
    out.reverse();
}

/// Number of ranks `k` in `lo..hi` (half-open) for which `pred` holds, given that it
/// holds on a prefix of that range.
fn partition(lo: u32, hi: u32, pred: impl Fn(u32) -> bool) -> u32 {
    let (mut l, mut h) = (lo, hi);
    while l < h {
        let mid = l + (h - l) / 2;
        if pred(mid) {
            l = mid + 1;
        } else {
            h = mid;
        }
    }
    l - lo
}
