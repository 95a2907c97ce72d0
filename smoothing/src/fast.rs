//! The production solver: the same recurrence as
//! [`crate::reference`](mod@crate::reference), with each cost function kept as slopes
//! over the gaps between consecutive distinct scores.
//!
//! For a node `i` whose parent takes value `u`, the subtree's cheapest cost is
//!
//! ```text
//!   f_i(u) = min( g_i(u), gamma_i + min_{v > u} g_i(v) ),
//!   g_i(v) = w_i |x_i - v| + sum_{c child of i} f_c(v).
//! ```
//!
//! Only values at the distinct scores `v_0 < ... < v_{m-1}` matter (Lemma 3), so a
//! function is its value at `v_0` plus one slope per gap `[v_k, v_{k+1}]` (linear in `v`
//! in between). With `S(v) = min_{t >= v} g(t)`, the step is `f = min(g, gamma + S)`.
//!
//! The tree is cut into heavy paths. The function of the path being climbed lives in
//! one lazy segment tree over the gaps (range add, assign, sums of `slope * gap`, bounds
//! on the min and max slope, exact but where a prefix add only widened them); a finished path hands its top's function to the parent as a sorted
//! list of slope changes, which the parent adds in `O(k log m)`. Adding `w_i |x_i - v|`
//! is one `O(1)` add to every slope and one prefix add. The cap is one right-to-left
//! walk down the segment tree that writes as it goes, carrying `S` (the minimum of `g`
//! right of the walk) and whether the rank just left behind was capped. A tree node is
//! settled whole when the cap provably leaves it alone (its slopes all `>= 0` and its
//! right end at most `gamma + S`; all `<= 0` and its left end at most `gamma + S`; or
//! mixed, with bounds from its end values and min/max slope putting its highest
//! possible value at most `gamma` above both `S` and its lowest possible value), or
//! when the rank right of it is capped and all its values are provably above `gamma +
//! S` (one assign of zero slopes); otherwise the walk enters its children, and a leaf
//! bucket is done gap by gap. A mixed node left alone may still hold a new suffix
//! minimum; finding it costs a descent, so the walk only notes the node and a lower
//! bound on its minimum (the settling tests then use the lowest `S` possible), and
//! searches noted nodes (branch and bound on the same bounds) only when a node further
//! left fails that test but would pass with the highest `S` possible (then only those
//! whose bound is below the `S` that node needs), or a leaf must be done gap by gap:
//! where `S` must be exact. Writes only touch gaps at or right
//! of the walk, so the sums it reads on its left are still those of `g`. While `g` is
//! convex (sorted slopes: a path starts at 0 and `w |x - v|` keeps it so, until a cap
//! with `gamma > 0` binds) the cap needs no walk: it binds on one prefix of ranks,
//! found by two descents (the first slope `>= 0`, then where `g` falls to `gamma +
//! min g`), and is one prefix assign. Short heavy
//! paths (under 64 nodes) skip the segment tree and sweep their whole breakpoint list
//! instead: on a linear piece `[a, b]` the step is a cut at the constant level `gamma +
//! S(b)`, crossing the piece at most once (a crossing between two ranks becomes a
//! breakpoint at each of them).
//!
//! Where the cap binds, the node starts a new segment at the rank attaining `S`; these
//! capped rank runs are all the top-down reconstruction needs.

use crate::slopes::Slopes;
use crate::tree::Problem;
use crate::{SmoothError, Smoothed, NO_PARENT};

/// A finished path top's function, for its parent: value at `v_0`, slope of gap 0, and
/// slope changes `(k, d)` meaning "add `d` to the slopes of gaps `k..`" (unsorted).
#[derive(Default)]
struct Flat {
    base: f64,
    slope0: f64,
    bps: Vec<(u32, f64)>,
}

impl Flat {
    /// `self += w |x - v|` where `x = v_r`.
    fn add_abs(&mut self, w: f64, r: u32, vals: &[f64]) {
        self.base += w * (vals[r as usize] - vals[0]);
        if r == 0 {
            self.slope0 += w;
        } else {
            self.slope0 -= w;
            if (r as usize) < vals.len() - 1 {
                self.bps.push((r, 2.0 * w));
            }
        }
    }

    /// Sorts and sums the slope changes and writes the value at rank 0, at each
    /// breakpoint and at rank `m - 1` into `pts`.
    fn evaluate(&mut self, vals: &[f64], pts: &mut Vec<(u32, f64)>) {
        // Children's lists are sorted runs: the stable sort merges them in O(K log runs).
        self.bps.sort_by_key(|&(k, _)| k);
        pts.clear();
        pts.push((0, self.base));
        let (mut val, mut slope, mut at) = (self.base, self.slope0, vals[0]);
        let mut j = 0;
        while j < self.bps.len() {
            let k = self.bps[j].0;
            let mut delta = 0.0;
            while j < self.bps.len() && self.bps[j].0 == k {
                delta += self.bps[j].1;
                j += 1;
            }
            let v = vals[k as usize];
            val += slope * (v - at);
            at = v;
            slope += delta;
            pts.push((k, val));
        }
        let last = vals.len() - 1;
        pts.push((last as u32, val + slope * (vals[last] - at)));
    }

    /// Replaces the function by the interpolation of `pts` (ascending, from rank 0 to
    /// rank `m - 1`).
    fn set_points(&mut self, pts: &[(u32, f64)], vals: &[f64]) {
        let slope =
            |a: (u32, f64), b: (u32, f64)| (b.1 - a.1) / (vals[b.0 as usize] - vals[a.0 as usize]);
        self.bps.clear();
        self.base = pts[0].1;
        let mut prev = slope(pts[0], pts[1]);
        self.slope0 = prev;
        for j in 1..pts.len() - 1 {
            let s = slope(pts[j], pts[j + 1]);
            if s != prev {
                self.bps.push((pts[j].0, s - prev));
            }
            prev = s;
        }
    }

    /// `self += other`; gives back the emptied list of one of the two, for reuse.
    fn add(&mut self, mut other: Flat) -> Vec<(u32, f64)> {
        self.base += other.base;
        self.slope0 += other.slope0;
        if other.bps.len() > self.bps.len() {
            std::mem::swap(&mut self.bps, &mut other.bps);
        }
        self.bps.extend_from_slice(&other.bps);
        other.bps.clear();
        other.bps
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

const NONE: u32 = u32::MAX;

/// Heavy paths at least this long go through the segment tree; shorter ones sweep
/// whole functions, which is faster when paths are short (DOM-like and random trees).
const LONG_PATH: usize = 64;

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
/// `n` nodes, `m <= n` distinct scores, `K_i` the number of breakpoints of `g_i`
/// (at most `min(m, 2 * subtree size)` in practice), `R_i` the number of monotone runs
/// of `g_i` left of its last decreasing gap.
/// - Heavy paths shorter than 64 nodes sweep the whole function at every node:
///   `O(K_i log d_i)` (sorting `d_i` children's sorted runs) plus `O(K_i)`.
/// - Longer paths keep the function in the segment tree: `O((1 + B_i) log m)` per node,
///   `B_i` the number of segment tree nodes the cap walk cannot settle whole (each
///   costs a bucket scan at a leaf, and the deferred minimum searches cost at most the
///   descents they replace). Each capped run and each new suffix minimum the cap needs
///   exactly causes at most two such nodes per level, and loose bounds add some near
///   them; a new suffix minimum the cap never needs costs nothing. While `g_i` is
///   convex (from the path's bottom until a cap with a penalty `> 0` binds; forever
///   with penalties 0, plain isotonic regression, or penalties too large to bind) the
///   cap costs `O(log m)` instead: two descents and a prefix assign.
/// - Handing a finished path's function of `k` breakpoints to its parent costs
///   `O(k log m)` (or `O(k)` on a short path); by heavy-light decomposition a
///   breakpoint is handed up at most `log2 n` times.
///
/// So time is `O(n log n log m + sum_i cost_i)` with `cost_i` as above. The worst case
/// is still quadratic, `O(n m log m)`: `B_i` can reach `m / 8` when `g_i` oscillates
/// across the whole score range on a long path, and `K_i` can reach `m` at every node
/// of a short path under a large subtree. Measured (README): DOM-like and random trees
/// grow about like `n log n`; paths with sorted scores, with one huge segment, with
/// classifier-like noisy scores and with uniform scores grow near-linearly too (at
/// `n = 100,000` the cap tests 21 to 32 segment tree nodes per path node, and its
/// minimum searches visit 0 to 15 more; one huge segment settles at the root), with
/// the segment tree's larger constant.
///
/// Memory is `O(n + m)`, never `O(n m)`: about 32 bytes per node (the input copied
/// into heavy-first order, 28; where each node's capped runs start, 4), the light
/// children's breakpoint lists waiting for their parent (16 bytes each, on one stack),
/// 12 bytes per capped run kept for the reconstruction, and, only if some heavy path
/// has 64 nodes or more, the segment tree:
/// `m - 1` slopes plus `2 (m - 1) / 8` nodes of 48 bytes, about 20 bytes per distinct
/// score (2 MB at `m = 100,000`), and the cap walk's noted nodes (at most one per
/// tree node it tests, 32 bytes each). No recursion depends on the tree's depth; the
/// segment tree recurses `log2(m / 8)` deep.
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
    let Some(mut p) = Problem::new(parent, x, w, gamma)? else {
        return Ok(Smoothed::empty());
    };
    let n = p.n();
    let m = p.vals.len();
    if m == 1 {
        // One distinct score: a single segment costs only the root's penalty.
        return Ok(p.finish(&vec![0; n], gamma[p.root]));
    }
    let gaps = m - 1;
    // Relabel the nodes in heavy-first preorder: every heavy path becomes a run of
    // consecutive positions and every subtree a range, so the passes below read their
    // arrays sequentially instead of chasing random parent indices (a random tree's
    // parents are scattered; the cache misses cost more than the arithmetic).
    let lay = Layout::new(&p);
    // The layout replaces the BFS order and the per-node ranks.
    (p.order, p.rank) = (Vec::new(), Vec::new());
    let vals = &p.vals;
    let Layout {
        ppos,
        node_of,
        rank,
        w,
        gamma,
    } = &lay;
    let is_heavy = |pos: usize| pos > 0 && ppos[pos] as usize == pos - 1;
    let mut seg: Option<Slopes<'_>> = None;
    // Finished light children's functions, each with its parent's position. Positions
    // are processed in decreasing order, so a node's pending functions are always the
    // last ones pushed (those of nodes below it were pushed later and are consumed).
    let mut pending: Vec<(u32, Flat)> = Vec::new();
    let mut jumps: Vec<Jump> = Vec::new();
    // Node `i`'s capped runs are `jumps[jump_start[i]..jump_start[i - 1]]`.
    let mut jump_start = vec![0u32; n];
    let (mut pts, mut out) = (Vec::new(), Vec::new());
    // Emptied breakpoint lists of consumed functions: a path top's function takes one
    // instead of allocating its own (one per path, most of them a few entries long).
    let mut spare: Vec<Vec<(u32, f64)>> = Vec::new();
    let mut root_rank = 0u32;
    let mut cost = 0.0;
    // Reverse preorder meets every path top after all tops below it.
    for t in (0..n).rev() {
        if is_heavy(t) {
            continue;
        }
        // The path is positions t..=e, processed bottom-up.
        let mut e = t;
        while e + 1 < n && is_heavy(e + 1) && ppos[e + 1] as usize == e {
            e += 1;
        }
        let q = if t == 0 { NONE } else { ppos[t] };
        let path = (t..e + 1).rev();
        if path.len() < LONG_PATH {
            // Short path: each node sweeps its whole function.
            let mut f = Flat {
                bps: spare.pop().unwrap_or_default(),
                ..Flat::default()
            };
            for i in path {
                jump_start[i] = jumps.len() as u32;
                while let Some((_, light)) = pop_owned_by(&mut pending, i) {
                    spare.push(f.add(light));
                }
                if w[i] > 0.0 {
                    f.add_abs(w[i], rank[i], vals);
                }
                f.evaluate(vals, &mut pts);
                if i == 0 {
                    let (mut arg, mut min) = (0, f64::INFINITY);
                    for &(k, val) in &pts {
                        if val < min {
                            (arg, min) = (k, val);
                        }
                    }
                    root_rank = arg;
                    cost = gamma[i] + min.max(0.0);
                    continue;
                }
                cap(&pts, gamma[i], vals, &mut out, &mut jumps);
                f.set_points(&out, vals);
            }
            if q != NONE {
                pending.push((q, f));
            }
            continue;
        }
        let seg = seg.get_or_insert_with(|| Slopes::new(vals));
        seg.reset();
        let mut base = 0.0; // g(v_0)
        for i in path {
            jump_start[i] = jumps.len() as u32;
            while let Some((_, light)) = pop_owned_by(&mut pending, i) {
                base += light.base;
                seg.add_all(light.slope0);
                for &(k, d) in &light.bps {
                    seg.range_add(k as usize, gaps, d);
                }
                let mut bps = light.bps;
                bps.clear();
                spare.push(bps);
            }
            if w[i] > 0.0 {
                let r = rank[i] as usize;
                base += w[i] * (vals[r] - vals[0]);
                seg.add_all(w[i]);
                seg.prefix_add(r, -2.0 * w[i]);
            }
            if i == 0 {
                // The minimum is at a piece's end: fold them, nothing materialised.
                let (mut val, mut min, mut arg) = (base, base, 0u32);
                let mut last: Option<(u32, f64)> = None;
                let mut close = |end: u32, last: Option<(u32, f64)>| {
                    if let Some((k, s)) = last {
                        val += s * (vals[end as usize] - vals[k as usize]);
                        if val < min {
                            (min, arg) = (val, end);
                        }
                    }
                };
                seg.each_piece(|k, s| {
                    close(k, last);
                    last = Some((k, s));
                });
                close(gaps as u32, last);
                root_rank = arg;
                // Every term of the objective is `>= 0`: a negative minimum is rounding
                // in the sums of slopes (a few ulps).
                cost = gamma[i] + min.max(0.0);
                continue;
            }
            base = cap_node(seg, base, gamma[i], &mut jumps);
        }
        if q != NONE {
            // Hand the top's function to its parent as slope changes.
            let mut flat = Flat {
                base,
                bps: spare.pop().unwrap_or_default(),
                ..Flat::default()
            };
            let mut prev = None;
            seg.each_piece(|k, s| {
                match prev {
                    None => flat.slope0 = s,
                    Some(p) => flat.bps.push((k, s - p)),
                }
                prev = Some(s);
            });
            pending.push((q, flat));
        }
    }
    drop(pending);
    drop(seg);
    // Top-down (preorder puts parents first): a node keeps its parent's rank unless
    // that rank falls in a capped run.
    let mut y_pos = vec![0u32; n];
    y_pos[0] = root_rank;
    for i in 1..n {
        let (s, e) = (jump_start[i], jump_start[i - 1]);
        // Runs are stored right to left: descending `lo`.
        let runs = &jumps[s as usize..e as usize];
        let k = y_pos[ppos[i] as usize];
        let idx = runs.partition_point(|run| run.lo > k);
        y_pos[i] = match runs.get(idx) {
            Some(run) if run.hi >= k => run.to,
            _ => k,
        };
    }
    drop((jumps, jump_start));
    let mut y = vec![0u32; n];
    for (pos, &v) in node_of.iter().enumerate() {
        y[v as usize] = y_pos[pos];
    }
    drop(y_pos);
    drop(lay);
    Ok(p.finish(&y, cost))
}

/// The input in heavy-first preorder positions: the root at 0, a node's heavy child
/// (largest subtree) right after it, then its light children's subtrees.
struct Layout {
    /// Position of the parent (unused at the root).
    ppos: Vec<u32>,
    /// The original node at each position.
    node_of: Vec<u32>,
    rank: Vec<u32>,
    w: Vec<f64>,
    gamma: Vec<f64>,
}

impl Layout {
    /// `O(n)`, iterative.
    fn new(p: &Problem<'_>) -> Layout {
        let n = p.n();
        let parent = p.parent;
        let mut size = vec![1u32; n];
        let mut heavy = vec![NONE; n];
        for &i in p.order.iter().rev() {
            let q = parent[i as usize];
            if q != NO_PARENT {
                size[q] += size[i as usize];
                if heavy[q] == NONE || size[i as usize] > size[heavy[q] as usize] {
                    heavy[q] = i;
                }
            }
        }
        // In BFS order a parent is placed before its children: the heavy child goes
        // right after it, light children's subtrees one after another after the heavy
        // subtree (`next[q]`: the next free position for a light child of `q`).
        let mut pos = vec![0u32; n];
        let mut next = vec![0u32; n];
        for &v in &p.order {
            let v = v as usize;
            let q = parent[v];
            if q != NO_PARENT {
                pos[v] = if heavy[q] as usize == v {
                    pos[q] + 1
                } else {
                    let at = next[q];
                    next[q] += size[v];
                    at
                };
            }
            next[v] = pos[v]
                + 1
                + if heavy[v] == NONE {
                    0
                } else {
                    size[heavy[v] as usize]
                };
        }
        drop((size, heavy, next));
        let mut lay = Layout {
            ppos: vec![NONE; n],
            node_of: vec![0; n],
            rank: vec![0; n],
            w: vec![0.0; n],
            gamma: vec![0.0; n],
        };
        for v in 0..n {
            let at = pos[v] as usize;
            if parent[v] != NO_PARENT {
                lay.ppos[at] = pos[parent[v]];
            }
            lay.node_of[at] = v as u32;
            lay.rank[at] = p.rank[v];
            lay.w[at] = p.w[v];
            lay.gamma[at] = p.gamma[v];
        }
        drop(pos);
        lay
    }
}

/// Replaces `g` (value `base` at `v_0`, slopes in `seg`) by `f = min(g, gamma + S)`,
/// appends the capped runs to `jumps` (right to left, adjacent runs with one target
/// merged), and returns `f(v_0)`.
fn cap_node(seg: &mut Slopes<'_>, base: f64, gamma: f64, jumps: &mut Vec<Jump>) -> f64 {
    let first_new = jumps.len();
    seg.cap(base, gamma, |lo, hi, to| {
        if jumps.len() > first_new {
            let prev = jumps.last_mut().expect("non-empty");
            if prev.to == to && prev.lo == hi + 1 {
                prev.lo = lo;
                return;
            }
        }
        jumps.push(Jump { lo, hi, to });
    })
}

/// Computes `f = min(g, gamma + S)` at the points of `g` (plus the cut ranks), into
/// `out` in ascending rank order, and appends the capped runs to `jumps`. `g` must be
/// nondecreasing right of the last point. Returns the suffix minimum of `g` from the
/// first point on, and the rank attaining it.
fn cap(
    pts: &[(u32, f64)],
    gamma: f64,
    vals: &[f64],
    out: &mut Vec<(u32, f64)>,
    jumps: &mut Vec<Jump>,
) -> (f64, u32) {
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
    (s_val, s_arg)
}

/// Number of ranks `k` in `lo..hi` (half-open) for which `pred` holds, given that it
/// holds on a prefix of that range.
fn partition(lo: u32, hi: u32, mut pred: impl FnMut(u32) -> bool) -> u32 {
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

/// Pops the last pending function if it belongs to node `i` (what `Vec::pop_if` does).
fn pop_owned_by<T>(pending: &mut Vec<(u32, T)>, i: usize) -> Option<(u32, T)> {
    if pending.last().is_some_and(|(o, _)| *o as usize == i) {
        pending.pop()
    } else {
        None
    }
}
