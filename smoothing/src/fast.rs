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

use std::collections::BinaryHeap;

use crate::tree::Problem;
use crate::{SmoothError, Smoothed, NO_PARENT};

/// A piecewise-linear function of `v` on `[v_0, v_{m-1}]`, split at rank `p`.
///
/// The *head* covers `[v_0, v_p]` in slope form: value `base` at `v_0`, slope `slope0`
/// just right of `v_0`, and slope changes `bps` at ranks in `(0, p)` (unsorted; a rank
/// may repeat and entries add up). The *tail* covers `[v_p, v_{m-1}]` and is convex and
/// (once a node is finished) nondecreasing: value `val_p` at `v_p`, slope `slope_p` just
/// right of it, and nonnegative slope changes at ranks above `p` in a min-heap. On the
/// tail the cap `f = min(g, gamma + S)` is the identity (`S = g` there), so a path step
/// only touches the head, and adding `w |x - v|` touches the tail in `O(log K)`.
#[derive(Default)]
struct Func {
    base: f64,
    slope0: f64,
    bps: Vec<(u32, f64)>,
    p: u32,
    val_p: f64,
    slope_p: f64,
    tail: BinaryHeap<TailBp>,
}

/// A tail slope change, ordered so that `BinaryHeap` pops the smallest rank first.
struct TailBp(u32, f64);

impl PartialEq for TailBp {
    fn eq(&self, other: &Self) -> bool {
        self.0 == other.0
    }
}
impl Eq for TailBp {}
impl PartialOrd for TailBp {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for TailBp {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other.0.cmp(&self.0)
    }
}

impl Func {
    fn size(&self) -> usize {
        self.bps.len() + self.tail.len()
    }

    /// Slope of the head just left of `v_p` (meaningless when `p == 0`).
    fn head_end_slope(&self) -> f64 {
        self.slope0 + self.bps.iter().map(|b| b.1).sum::<f64>()
    }

    /// Moves the boundary right to rank `to`, turning tail pieces into head pieces.
    fn extend_head(&mut self, to: u32, vals: &[f64]) {
        if to <= self.p {
            return;
        }
        let mut end_slope = self.head_end_slope();
        loop {
            let k = match self.tail.peek() {
                Some(b) if b.0 < to => b.0,
                _ => to,
            };
            if k > self.p {
                if self.p == 0 {
                    self.base = self.val_p;
                    self.slope0 = self.slope_p;
                } else if self.slope_p != end_slope {
                    self.bps.push((self.p, self.slope_p - end_slope));
                }
                end_slope = self.slope_p;
                self.val_p += self.slope_p * (vals[k as usize] - vals[self.p as usize]);
                self.p = k;
            }
            while self.tail.peek().is_some_and(|b| b.0 == k) {
                self.slope_p += self.tail.pop().expect("peeked").1;
            }
            if k == to {
                break;
            }
        }
    }

    /// Restores a nondecreasing tail by moving its decreasing start into the head.
    fn fix_tail(&mut self, vals: &[f64]) {
        let last = (vals.len() - 1) as u32;
        while self.slope_p < 0.0 && self.p < last {
            let k = self.tail.peek().map_or(last, |b| b.0);
            self.extend_head(k, vals);
        }
    }

    /// `self += w |x - v|` where `x = v_r`.
    fn add_abs(&mut self, w: f64, r: u32, vals: &[f64]) {
        let m = vals.len();
        let x = vals[r as usize];
        let vp = vals[self.p as usize];
        if self.p > 0 {
            self.base += w * (x - vals[0]);
            if r == 0 {
                self.slope0 += w;
            } else {
                self.slope0 -= w;
                if r < self.p {
                    self.bps.push((r, 2.0 * w));
                }
            }
        }
        if r <= self.p {
            self.val_p += w * (vp - x);
            self.slope_p += w;
        } else {
            self.val_p += w * (x - vp);
            self.slope_p -= w;
            if (r as usize) < m - 1 {
                self.tail.push(TailBp(r, 2.0 * w));
            }
        }
    }

    /// `self += other`, where `other` is usually the smaller function.
    fn add(&mut self, mut other: Func, vals: &[f64]) {
        if other.size() > self.size() {
            std::mem::swap(self, &mut other);
        }
        // Flatten `other` to one slope-form list over the whole domain.
        let (base, slope0) = if other.p == 0 {
            (other.val_p, other.slope_p)
        } else {
            let end = other.head_end_slope();
            if other.slope_p != end {
                other.bps.push((other.p, other.slope_p - end));
            }
            (other.base, other.slope0)
        };
        other
            .bps
            .extend(other.tail.into_vec().into_iter().map(|b| (b.0, b.1)));
        let q = other.bps.iter().map(|b| b.0).max().unwrap_or(0);
        self.extend_head(q, vals);
        // Now every breakpoint of `other` is at or left of `p`.
        let vp = vals[self.p as usize];
        let mut val = base + slope0 * (vp - vals[0]);
        let mut end_slope = slope0;
        for &(k, d) in &other.bps {
            val += d * (vp - vals[k as usize]);
            end_slope += d;
        }
        self.val_p += val;
        self.slope_p += end_slope;
        if self.p > 0 {
            self.base += base;
            self.slope0 += slope0;
            let p = self.p;
            self.bps.extend(other.bps.iter().filter(|b| b.0 < p));
        }
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
/// Let `n` be the number of nodes, `m <= n` the number of distinct scores, and `H_i` the
/// number of *head* breakpoints of node `i`'s function (those left of the point from
/// which the function is convex and nondecreasing; see the module docs). A node with one
/// child costs `O(H_i + t_i log n)`, where `t_i` breakpoints move between head and tail;
/// a node with several children also merges them smaller-into-larger, flattening each
/// smaller function (`O(k log k)` for `k` breakpoints) and uncovering the larger one's
/// tail up to the smaller one's last breakpoint. Time is
/// `O(n log n + sum_i (H_i + t_i log n))`. Worst case this is `O(n * m)`, i.e. `O(n^2)`
/// (heads can hold every breakpoint, e.g. scores that oscillate in a band narrower than
/// the penalties along a long path, and merges at every level of a deep branching
/// tree); on DOM-like trees of depth `D` it is `O(n D log n)`, and on the measured
/// paths (classifier-like scores, sorted scores, one huge segment) it is near linear.
/// Memory is `O(n)`: about 30 bytes per node plus 16 per live breakpoint and 12 per
/// capped interval kept for the reconstruction. See the README for measured numbers.
///
/// # Example
/// ```
/// use smoothing::{solve, NO_PARENT};
/// let s = solve(&[NO_PARENT, 0], &[0.8, 0.2], &[1.0, 1.0], &[0.0, 0.0]).unwrap();
/// assert!((s.cost - 0.6).abs() < 1e-12); // y = [0.2, 0.2] or [0.8, 0.8]: a tie
/// ```
pub fn solve(
    parent: &[usize],
    x: &[f64],
    w: &[f64],
    gamma: &[f64],
) -> Result<Smoothed, SmoothError> {
    let Some(p) = Problem::new(parent, x, w, gamma)? else {
        return Ok(Smoothed {
            y: vec![],
            segment_roots: vec![],
            cost: 0.0,
        });
    };
    let n = p.n();
    let vals = &p.vals;
    let m = vals.len();
    if m == 1 {
        // One distinct score: a single segment costs only the root's penalty.
        return Ok(p.finish(&vec![0; n], gamma[p.root]));
    }
    let mut acc: Vec<Option<Box<Func>>> = (0..n).map(|_| None).collect();
    let mut jumps: Vec<Jump> = Vec::new();
    // jump_end[t]: end in `jumps` of the runs of the t-th processed node (reverse BFS).
    let mut jump_end: Vec<u32> = Vec::with_capacity(n);
    let mut pts: Vec<(u32, f64)> = Vec::new();
    let mut out: Vec<(u32, f64)> = Vec::new();
    let mut root_rank = 0u32;
    let mut cost = 0.0;
    for &i in p.order.iter().rev() {
        let i = i as usize;
        let mut g = acc[i].take().unwrap_or_default();
        if w[i] > 0.0 {
            g.add_abs(w[i], p.rank[i], vals);
        }
        g.fix_tail(vals);
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
        give_back(&mut g, &mut out, vals);
        match &mut acc[parent[i]] {
            Some(a) => a.add(*g, vals),
            slot => *slot = Some(g),
        }
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

/// After the cap, `out` holds the head's new points (ascending, ending at `p`). Moves
/// their convex nondecreasing right end into the tail and stores the rest as the head.
fn give_back(g: &mut Func, out: &mut Vec<(u32, f64)>, vals: &[f64]) {
    let last = (vals.len() - 1) as u32;
    let slope =
        |a: (u32, f64), b: (u32, f64)| (b.1 - a.1) / (vals[b.0 as usize] - vals[a.0 as usize]);
    let mut j = out.len() - 1;
    debug_assert_eq!(out[j].0, g.p);
    while j > 0 {
        let s = slope(out[j - 1], out[j]);
        if !(s >= 0.0 && (g.p == last || s <= g.slope_p)) {
            break;
        }
        if g.p < last && s < g.slope_p {
            g.tail.push(TailBp(g.p, g.slope_p - s));
        }
        g.slope_p = s;
        g.p = out[j - 1].0;
        g.val_p = out[j - 1].1;
        j -= 1;
    }
    out.truncate(j + 1);
    g.bps.clear();
    g.base = out[0].1;
    g.slope0 = 0.0;
    if j > 0 {
        let mut prev = slope(out[0], out[1]);
        g.slope0 = prev;
        for k in 1..j {
            let s = slope(out[k], out[k + 1]);
            if s != prev {
                g.bps.push((out[k].0, s - prev));
            }
            prev = s;
        }
    }
}

/// Sorts and sums the head's slope changes and writes the head's value at rank 0, at
/// each head breakpoint, and `val_p` at rank `p` into `pts` (ascending ranks).
fn evaluate(g: &mut Func, vals: &[f64], pts: &mut Vec<(u32, f64)>) {
    pts.clear();
    if g.p > 0 {
        // Children's lists are sorted runs: the stable sort merges them in O(K log runs).
        g.bps.sort_by_key(|&(k, _)| k);
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
    }
    pts.push((g.p, g.val_p));
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
