//! The slopes of one piecewise linear function over the `G = m - 1` gaps between
//! consecutive distinct scores, in a lazy segment tree whose leaves are buckets of
//! [`BUCKET`] gaps (range add, range assign, prefix sums of `slope * gap length`, last
//! negative or positive slope, runs of equal slope).
//!
//! Buckets keep the tree small: `G` slopes in one flat array (8 bytes each) plus
//! `2 G / BUCKET` tree nodes of 48 bytes, about 14 bytes per gap, and a bucket's gaps
//! are scanned linearly where a plain tree would descend four more levels. Read-only
//! queries never push pending operations down: they carry the composed pending
//! operation of the ancestors instead, so only updates write.
//!
//! # Complexity
//! Every operation is `O(log(G / BUCKET) + BUCKET)`, except [`Slopes::pieces`], which
//! is that times the number of runs it reports. Recursion depth is `log2(G / BUCKET)`.

/// Gaps per leaf bucket.
const BUCKET: usize = 16;

/// A pending operation on every slope below a node: assign `c` (if `set`), else add `c`.
#[derive(Clone, Copy)]
struct Op {
    set: bool,
    c: f64,
}

const IDENTITY: Op = Op { set: false, c: 0.0 };

impl Op {
    /// `self` applied after `inner`.
    #[inline]
    fn after(self, inner: Op) -> Op {
        if self.set {
            self
        } else {
            Op {
                set: inner.set,
                c: inner.c + self.c,
            }
        }
    }

    #[inline]
    fn slope(self, s: f64) -> f64 {
        if self.set {
            self.c
        } else {
            s + self.c
        }
    }

    /// Sum of `slope * length` over a range of total length `len` whose sum was `sum`.
    #[inline]
    fn sum(self, sum: f64, len: f64) -> f64 {
        if self.set {
            self.c * len
        } else {
            sum + self.c * len
        }
    }
}

/// Aggregates of a tree node (correct for its gaps, its own `lazy` included) and the
/// operation still pending for its children (or, at a leaf, for its bucket's slopes).
#[derive(Clone, Copy)]
struct Node {
    mn: f64,
    mx: f64,
    sum: f64,
    lazy: Op,
    /// Length in `v` of the node's gaps (fixed): next to the sums it scales, so an
    /// update reads one cache line per node.
    len: f64,
}

/// The kind of a piece reported by [`Slopes::runs`].
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Piece {
    /// Slopes `>= 0`: `g` rises left to right.
    Rising,
    /// Slopes `<= 0`: `g` falls left to right.
    Falling,
    /// Mixed slopes, but the cap leaves it alone and `S` is constant across it.
    Flat,
}

/// The state of the right-to-left walk of [`Slopes::runs`].
struct Walk {
    /// The direction of the piece being read (`Flat`: none yet, right after a skip).
    state: Piece,
    /// Minimum of `prefix` over the left ends of the rising pieces reported so far.
    s_min: f64,
    gamma: f64,
}

/// Upper and lower bounds on `prefix` over a node whose ends are at `left` and `right`,
/// of length `len`, with slopes in `[mn, mx]`: the envelopes of the lines of slope `mx`
/// and `mn` through both ends.
fn bounds(left: f64, right: f64, mn: f64, mx: f64, len: f64) -> (f64, f64) {
    if mn >= 0.0 {
        return (right, left);
    }
    if mx <= 0.0 {
        return (left, right);
    }
    // Highest point: left + mx t = right - mn (len - t); lowest: left + mn t = right - mx (len - t).
    let t_hi = ((right - left - mn * len) / (mx - mn)).clamp(0.0, len);
    let t_lo = ((left - right + mx * len) / (mx - mn)).clamp(0.0, len);
    (left + mx * t_hi, left + mn * t_lo)
}

pub(crate) struct Slopes<'a> {
    vals: &'a [f64],
    gaps: usize,
    buckets: usize,
    slope: Vec<f64>,
    tree: Vec<Node>,
}

/// Children of `node` over buckets `l..r`, and the split point. Preorder layout, no
/// padding: the left child follows its parent and the right child follows the left
/// subtree's `2 (mid - l) - 1` nodes.
#[inline]
fn kids(node: usize, l: usize, r: usize) -> (usize, usize, usize) {
    let mid = (l + r) / 2;
    (node + 1, node + 2 * (mid - l), mid)
}

impl<'a> Slopes<'a> {
    pub fn new(vals: &'a [f64]) -> Self {
        let gaps = vals.len() - 1;
        let buckets = gaps.div_ceil(BUCKET);
        let zero = Node {
            mn: 0.0,
            mx: 0.0,
            sum: 0.0,
            lazy: IDENTITY,
            len: 0.0,
        };
        let mut s = Slopes {
            vals,
            gaps,
            buckets,
            slope: vec![0.0; gaps],
            tree: vec![zero; 2 * buckets - 1],
        };
        s.fill_lens(0, 0, buckets);
        s
    }

    fn fill_lens(&mut self, node: usize, l: usize, r: usize) {
        self.tree[node].len = self.len(self.gap(l), self.gap(r));
        if r - l > 1 {
            let (a, b, mid) = kids(node, l, r);
            self.fill_lens(a, l, mid);
            self.fill_lens(b, mid, r);
        }
    }

    /// First gap of bucket `b` (or `gaps` past the end).
    #[inline]
    fn gap(&self, b: usize) -> usize {
        (b * BUCKET).min(self.gaps)
    }

    /// Length in `v` of gaps `l..r`.
    #[inline]
    fn len(&self, l: usize, r: usize) -> f64 {
        self.vals[r] - self.vals[l]
    }

    /// Applies `op` to every slope of `node`.
    #[inline]
    fn apply(&mut self, node: usize, op: Op) {
        let len = self.tree[node].len;
        let t = &mut self.tree[node];
        t.mn = op.slope(t.mn);
        t.mx = op.slope(t.mx);
        t.sum = op.sum(t.sum, len);
        t.lazy = op.after(t.lazy);
    }

    fn push(&mut self, node: usize, l: usize, r: usize) {
        let op = self.tree[node].lazy;
        if op.set || op.c != 0.0 {
            let (a, b, _) = kids(node, l, r);
            self.apply(a, op);
            self.apply(b, op);
            self.tree[node].lazy = IDENTITY;
        }
    }

    fn pull(&mut self, node: usize, l: usize, r: usize) {
        let (a, b, _) = kids(node, l, r);
        let (x, y) = (self.tree[a], self.tree[b]);
        let t = &mut self.tree[node];
        t.mn = x.mn.min(y.mn);
        t.mx = x.mx.max(y.mx);
        t.sum = x.sum + y.sum;
    }

    /// Sets every slope to 0.
    pub fn reset(&mut self) {
        self.apply(0, Op { set: true, c: 0.0 });
    }

    /// Adds `c` to every slope, `O(1)`.
    pub fn add_all(&mut self, c: f64) {
        self.apply(0, Op { set: false, c });
    }

    /// Adds `c` to the slopes of gaps `ql..qr`.
    pub fn range_add(&mut self, ql: usize, qr: usize, c: f64) {
        if ql < qr && c != 0.0 {
            self.update(0, 0, self.buckets, ql, qr, Op { set: false, c });
        }
    }

    /// Adds `c` to the slopes of gaps `0..qr`: one iterative descent along the path to
    /// `qr` (the common update: half of every `w |x - v|`), no pushes.
    pub fn prefix_add(&mut self, qr: usize, c: f64) {
        if qr == 0 || c == 0.0 {
            return;
        }
        let op = Op { set: false, c };
        // Partly covered internal nodes, to refresh bottom-up (depth < 64).
        let mut stack = [(0usize, 0usize, 0usize); 64];
        let mut depth = 0;
        let (mut node, mut l, mut r) = (0, 0, self.buckets);
        loop {
            let (gl, gr) = (self.gap(l), self.gap(r));
            if qr >= gr {
                self.apply(node, op);
                break;
            }
            if r - l == 1 {
                self.update(node, l, r, gl, qr, op);
                break;
            }
            if self.tree[node].lazy.set {
                self.push(node, l, r);
            }
            stack[depth] = (node, l, r);
            depth += 1;
            let (a, b, mid) = kids(node, l, r);
            if qr >= self.gap(mid) {
                self.apply(a, op);
                if qr == self.gap(mid) {
                    break;
                }
                (node, l) = (b, mid);
            } else {
                (node, r) = (a, mid);
            }
        }
        for &(node, l, r) in stack[..depth].iter().rev() {
            // The node's own pending add still applies on top of its children.
            let lazy = self.tree[node].lazy;
            self.pull(node, l, r);
            if lazy.c != 0.0 {
                let len = self.tree[node].len;
                let t = &mut self.tree[node];
                t.mn += lazy.c;
                t.mx += lazy.c;
                t.sum += lazy.c * len;
            }
        }
    }

    /// Sets the slopes of gaps `ql..qr` to `c`.
    pub fn range_set(&mut self, ql: usize, qr: usize, c: f64) {
        if ql < qr {
            self.update(0, 0, self.buckets, ql, qr, Op { set: true, c });
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn update(&mut self, node: usize, l: usize, r: usize, ql: usize, qr: usize, op: Op) {
        let (gl, gr) = (self.gap(l), self.gap(r));
        if qr <= gl || gr <= ql {
            return;
        }
        if ql <= gl && gr <= qr {
            self.apply(node, op);
            return;
        }
        if r - l == 1 {
            // A partly covered bucket: apply its pending operation to its slopes, then
            // the update, then recompute its aggregates.
            let lazy = self.tree[node].lazy;
            let bucket = &mut self.slope[gl..gr];
            if lazy.set || lazy.c != 0.0 {
                for s in bucket.iter_mut() {
                    *s = lazy.slope(*s);
                }
            }
            for s in &mut bucket[ql.max(gl) - gl..qr.min(gr) - gl] {
                *s = op.slope(*s);
            }
            let (mut mn, mut mx, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
            for (&s, v) in bucket.iter().zip(self.vals[gl..=gr].windows(2)) {
                mn = mn.min(s);
                mx = mx.max(s);
                sum += s * (v[1] - v[0]);
            }
            let len = self.tree[node].len;
            self.tree[node] = Node {
                mn,
                mx,
                sum,
                lazy: IDENTITY,
                len,
            };
            return;
        }
        // A pending add commutes with an add below it, so only assigns need a push.
        let lazy = self.tree[node].lazy;
        let keep = !op.set && !lazy.set;
        if !keep {
            self.push(node, l, r);
        }
        let (a, b, mid) = kids(node, l, r);
        // Only into children the range reaches: a call costs more than the test.
        let gm = self.gap(mid);
        if ql < gm {
            self.update(a, l, mid, ql, qr, op);
        }
        if qr > gm {
            self.update(b, mid, r, ql, qr, op);
        }
        self.pull(node, l, r);
        if keep && lazy.c != 0.0 {
            let len = self.tree[node].len;
            let t = &mut self.tree[node];
            t.mn += lazy.c;
            t.mx += lazy.c;
            t.sum += lazy.c * len;
            t.lazy = lazy;
        }
    }

    /// Sum of `slope * gap length` over gaps `0..k`, i.e. `g(v_k) - g(v_0)`.
    pub fn prefix(&self, k: usize) -> f64 {
        let (mut node, mut l, mut r, mut acc, mut op) = (0, 0, self.buckets, 0.0, IDENTITY);
        loop {
            let (gl, gr) = (self.gap(l), self.gap(r));
            if k >= gr {
                return acc + op.sum(self.tree[node].sum, self.tree[node].len);
            }
            if k <= gl {
                return acc;
            }
            op = op.after(self.tree[node].lazy);
            if r - l == 1 {
                for j in gl..k {
                    acc += op.slope(self.slope[j]) * (self.vals[j + 1] - self.vals[j]);
                }
                return acc;
            }
            let (a, b, mid) = kids(node, l, r);
            let gm = self.gap(mid);
            if k <= gm {
                node = a;
                r = mid;
            } else {
                acc += op.sum(self.tree[a].sum, self.tree[a].len);
                node = b;
                l = mid;
            }
        }
    }

    /// The smallest rank `k` in `lo + 1..=hi` with `c(prefix(k))`, where `c` is false
    /// at `lo`, true at `hi` and monotone on `lo..=hi`. One descent.
    pub fn first_rank(&self, lo: usize, hi: usize, mut c: impl FnMut(f64) -> bool) -> usize {
        let mut test = |k: usize, p: f64| {
            if k <= lo {
                false
            } else if k > hi {
                true
            } else {
                c(p)
            }
        };
        let (mut node, mut l, mut r, mut acc, mut op) = (0, 0, self.buckets, 0.0, IDENTITY);
        while r - l > 1 {
            op = op.after(self.tree[node].lazy);
            let (a, b, mid) = kids(node, l, r);
            let gm = self.gap(mid);
            let at_mid = acc + op.sum(self.tree[a].sum, self.tree[a].len);
            if test(gm, at_mid) {
                node = a;
                r = mid;
            } else {
                acc = at_mid;
                node = b;
                l = mid;
            }
        }
        op = op.after(self.tree[node].lazy);
        let (gl, gr) = (self.gap(l), self.gap(r));
        for j in gl..gr {
            acc += op.slope(self.slope[j]) * (self.vals[j + 1] - self.vals[j]);
            if test(j + 1, acc) {
                return j + 1;
            }
        }
        gr
    }

    /// Cuts the ranks left of the last negative slope into pieces for the cap
    /// `f = min(g, gamma + S)` (`S` the suffix minimum of `g`), right to left, as
    /// `(k, prefix(k), kind)`: first `k = b0`, one past the last negative slope (its kind
    /// is unused), then the left end of each piece `k..` (up to the previous entry's
    /// rank), ending with rank 0. Empty if no slope is negative.
    ///
    /// A [`Piece::Rising`] or [`Piece::Falling`] piece is monotone (slopes `>= 0` or
    /// `<= 0`); consecutive pieces alternate except around a [`Piece::Flat`] one. A
    /// `Flat` piece is a tree node skipped whole because bounds from its end values and
    /// its min/max slope show the cap cannot bind in it and `S` does not change across it
    /// (`S` tracked as the minimum over the rising pieces' left ends, as the cap does).
    ///
    /// One right-to-left traversal that skips every node whose slopes all keep the
    /// current direction, and every node the bounds clear: `O((1 + R) log(G / BUCKET) +
    /// (1 + R) BUCKET)` for `R` pieces.
    pub fn runs(&self, gamma: f64, out: &mut Vec<(u32, f64, Piece)>) {
        out.clear();
        let mut w = Walk {
            state: Piece::Rising,
            s_min: f64::INFINITY,
            gamma,
        };
        self.walk(0, 0, self.buckets, IDENTITY, 0.0, &mut w, out);
        if !out.is_empty() && out.last().map(|p| p.0) != Some(0) {
            out.push((0, 0.0, w.state));
        }
    }

    /// `op`: the ancestors' pending operation; `left`: the sum of `slope * length` left
    /// of the node, accumulated exactly as [`Slopes::prefix`] does (same values).
    /// Inlined into its caller, so a node whose slopes keep the direction costs no call.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn walk(
        &self,
        node: usize,
        l: usize,
        r: usize,
        op: Op,
        left: f64,
        w: &mut Walk,
        out: &mut Vec<(u32, f64, Piece)>,
    ) {
        let t = &self.tree[node];
        let (mn, mx) = (op.slope(t.mn), op.slope(t.mx));
        let keeps = match w.state {
            Piece::Rising => mn >= 0.0,
            Piece::Falling => mx <= 0.0,
            // Right after a skipped node a monotone node starts the next piece.
            Piece::Flat if mn >= 0.0 => {
                w.state = Piece::Rising;
                true
            }
            Piece::Flat if mx <= 0.0 => {
                w.state = Piece::Falling;
                true
            }
            Piece::Flat => false,
        };
        if !keeps {
            self.descend(node, l, r, op, left, (mn, mx), w, out);
        }
    }

    /// The body of [`Slopes::walk`] for a node whose slopes `mn..=mx` do not keep the
    /// direction: skip it whole, scan it (a leaf) or walk its children right to left.
    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        node: usize,
        l: usize,
        r: usize,
        op: Op,
        left: f64,
        (mn, mx): (f64, f64),
        w: &mut Walk,
        out: &mut Vec<(u32, f64, Piece)>,
    ) {
        let t = &self.tree[node];
        if !out.is_empty() {
            // Past b0: skip the node if the cap cannot bind in it (g <= gamma + S) and S
            // does not change across it (g >= S), from bounds on g over the node.
            let len = t.len;
            let right = left + op.sum(t.sum, len);
            let s = match w.state {
                Piece::Rising => w.s_min.min(right),
                _ => w.s_min,
            };
            let (hi, lo) = bounds(left, right, mn, mx, len);
            let tol =
                1e-12 * (left.abs() + right.abs() + (mx - mn).abs() * len + s.abs() + w.gamma);
            if hi + tol <= w.gamma + s && lo - tol >= s {
                let (gl, gr) = (self.gap(l) as u32, self.gap(r) as u32);
                if out.last().map(|p| p.0) != Some(gr) {
                    out.push((gr, right, w.state));
                    if w.state == Piece::Rising {
                        w.s_min = w.s_min.min(right);
                    }
                }
                out.push((gl, left, Piece::Flat));
                w.state = Piece::Flat;
                return;
            }
        }
        let op = op.after(t.lazy);
        if r - l == 1 {
            let (gl, gr) = (self.gap(l), self.gap(r));
            for k in (gl..gr).rev() {
                let s = op.slope(self.slope[k]);
                let turn = match w.state {
                    Piece::Rising => s < 0.0,
                    Piece::Falling => s > 0.0,
                    Piece::Flat => {
                        // The first gap left of a skipped node sets the direction.
                        w.state = if s < 0.0 {
                            Piece::Falling
                        } else {
                            Piece::Rising
                        };
                        false
                    }
                };
                if turn {
                    // The piece ends at rank k + 1; sum left to right as `prefix` does.
                    let mut at = left;
                    for j in gl..=k {
                        at += op.slope(self.slope[j]) * (self.vals[j + 1] - self.vals[j]);
                    }
                    out.push(((k + 1) as u32, at, w.state));
                    if w.state == Piece::Rising {
                        w.s_min = w.s_min.min(at);
                        w.state = Piece::Falling;
                    } else {
                        w.state = Piece::Rising;
                    }
                }
            }
            return;
        }
        let (a, b, mid) = kids(node, l, r);
        let mid_left = left + op.sum(self.tree[a].sum, self.tree[a].len);
        self.walk(b, mid, r, op, mid_left, w, out);
        self.walk(a, l, mid, op, left, w, out);
    }

    /// Calls `f(start, slope)` for each maximal run of equal slope over all gaps, left
    /// to right.
    pub fn each_piece(&self, mut f: impl FnMut(u32, f64)) {
        let mut last = None;
        self.collect(0, 0, self.buckets, IDENTITY, &mut last, &mut f);
    }

    /// Writes the maximal runs of equal slope over all gaps as `(start, slope)`.
    #[cfg(test)]
    pub fn pieces(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
        self.each_piece(|k, s| out.push((k, s)));
    }

    fn collect<F: FnMut(u32, f64)>(
        &self,
        node: usize,
        l: usize,
        r: usize,
        op: Op,
        last: &mut Option<f64>,
        f: &mut F,
    ) {
        let t = &self.tree[node];
        let mut emit = |k: usize, s: f64| {
            if *last != Some(s) {
                f(k as u32, s);
                *last = Some(s);
            }
        };
        let (mn, mx) = (op.slope(t.mn), op.slope(t.mx));
        if mn == mx {
            emit(self.gap(l), mn);
            return;
        }
        let op = op.after(t.lazy);
        if r - l == 1 {
            for k in self.gap(l)..self.gap(r) {
                emit(k, op.slope(self.slope[k]));
            }
            return;
        }
        let (a, b, mid) = kids(node, l, r);
        self.collect(a, l, mid, op, last, f);
        self.collect(b, mid, r, op, last, f);
    }
}

#[cfg(test)]
mod tests {
    use super::{Piece, Slopes};

    /// A negative penalty never lets [`Slopes::runs`] skip a node: every turn is reported.
    const NO_SKIP: f64 = -1.0;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// 40 gaps of length 1/40: three buckets, so the tree has internal nodes.
    fn grid() -> Vec<f64> {
        (0..=40).map(|k| k as f64 / 40.0).collect()
    }

    #[test]
    fn hand_worked_updates_and_queries() {
        let vals = grid();
        let mut s = Slopes::new(&vals);
        assert!(close(s.prefix(40), 0.0));
        s.range_add(5, 30, 2.0);
        assert!(close(s.prefix(10), 0.25)); // 5 gaps of slope 2
        assert!(close(s.prefix(40), 1.25));
        // Slopes now -1 on 0..5, 1 on 5..20, 2 on 20..30, 0 on 30..40.
        s.prefix_add(20, -1.0);
        assert!(close(s.prefix(40), 0.75));
        let mut out = Vec::new();
        s.pieces(&mut out);
        assert_eq!(out, vec![(0, -1.0), (5, 1.0), (20, 2.0), (30, 0.0)]);
        // One falling run, 0..5, left of the last negative slope.
        let mut pcs = Vec::new();
        s.runs(NO_SKIP, &mut pcs);
        assert_eq!(pcs.len(), 2);
        assert_eq!(pcs[0].0, 5);
        assert!(close(pcs[0].1, -0.125));
        assert_eq!(pcs[1], (0, 0.0, Piece::Falling));
        // prefix rises on 5..=30 from -0.125; it passes 0.49 at rank 25 (0.5).
        assert_eq!(s.first_rank(5, 30, |p| p > 0.49), 25);
        s.range_set(10, 25, 0.0);
        s.pieces(&mut out);
        assert_eq!(
            out,
            vec![(0, -1.0), (5, 1.0), (10, 0.0), (25, 2.0), (30, 0.0)]
        );
        assert!(close(s.prefix(40), 0.25));
        // Slopes -1.5, 0.5, -0.5, 1.5, -0.5: five runs, read right to left.
        s.add_all(-0.5);
        s.runs(NO_SKIP, &mut pcs);
        let want = [
            (40, -0.25, Piece::Rising),
            (30, -0.125, Piece::Falling),
            (25, -0.3125, Piece::Rising),
            (10, -0.125, Piece::Falling),
            (5, -0.1875, Piece::Rising),
            (0, 0.0, Piece::Falling),
        ];
        assert_eq!(pcs.len(), want.len());
        for (got, want) in pcs.iter().zip(want) {
            assert_eq!((got.0, got.2), (want.0, want.2));
            assert!(close(got.1, want.1), "{got:?} vs {want:?}");
        }
        // Left of rank 30 the values stay within 0.1875 of S = -0.3125 (from rank 25),
        // so with gamma = 1 the cap cannot bind there and the walk skips nodes: fewer
        // pieces, the same ends.
        s.runs(1.0, &mut pcs);
        assert_eq!(pcs[0].0, 40);
        assert_eq!(pcs.last().map(|p| p.0), Some(0));
        assert!(pcs.len() < want.len(), "{pcs:?}");
        s.reset();
        s.pieces(&mut out);
        assert_eq!(out, vec![(0, 0.0)]);
        s.runs(NO_SKIP, &mut pcs);
        assert!(pcs.is_empty());
    }

    /// A long pseudo-random mix of every update against a plain array of slopes, on
    /// uneven gaps that do not fill the last bucket.
    #[test]
    fn matches_a_plain_array_of_slopes() {
        let mut state = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |bound: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        };
        let mut vals = vec![0.0];
        for _ in 0..77 {
            let last = *vals.last().unwrap();
            vals.push(last + (1 + next(9)) as f64 / 64.0);
        }
        let gaps = vals.len() - 1;
        let mut s = Slopes::new(&vals);
        let mut plain = vec![0.0f64; gaps];
        let mut out = Vec::new();
        let mut skipped = 0;
        for step in 0..2000 {
            // Small integer slopes keep every sum exact in f64.
            let c = next(9) as f64 - 4.0;
            let (a, b) = (next(gaps + 1), next(gaps + 1));
            let (l, r) = (a.min(b), a.max(b));
            match step % 5 {
                0 => {
                    s.range_add(l, r, c);
                    plain[l..r].iter_mut().for_each(|p| *p += c);
                }
                1 => {
                    s.prefix_add(r, c);
                    plain[..r].iter_mut().for_each(|p| *p += c);
                }
                2 => {
                    s.range_set(l, r, c);
                    plain[l..r].iter_mut().for_each(|p| *p = c);
                }
                3 => {
                    s.add_all(c);
                    plain.iter_mut().for_each(|p| *p += c);
                }
                _ => {}
            }
            let prefix: Vec<f64> = std::iter::once(0.0)
                .chain((0..gaps).scan(0.0, |acc, k| {
                    *acc += plain[k] * (vals[k + 1] - vals[k]);
                    Some(*acc)
                }))
                .collect();
            for k in [0, l, r, gaps] {
                assert!(close(s.prefix(k), prefix[k]), "step {step} prefix({k})");
            }
            s.pieces(&mut out);
            let mut want = Vec::new();
            for (k, &p) in plain.iter().enumerate() {
                if k == 0 || plain[k - 1] != p {
                    want.push((k as u32, p));
                }
            }
            assert_eq!(out, want, "step {step} pieces");
            // Run starts: one past the last negative slope, then every turn leftwards.
            let mut want = Vec::new();
            if let Some(last_neg) = plain.iter().rposition(|&p| p < 0.0) {
                want.push(last_neg + 1);
                let mut falling = true;
                for k in (0..=last_neg).rev() {
                    if falling && plain[k] > 0.0 || !falling && plain[k] < 0.0 {
                        want.push(k + 1);
                        falling = !falling;
                    }
                }
                want.push(0);
            }
            let mut pcs = Vec::new();
            s.runs(NO_SKIP, &mut pcs);
            let got: Vec<usize> = pcs.iter().map(|&(k, _, _)| k as usize).collect();
            assert_eq!(got, want, "step {step} runs");
            for (j, &(k, p, kind)) in pcs.iter().enumerate() {
                assert!(close(p, prefix[k as usize]), "step {step} run value at {k}");
                if j > 0 {
                    let alternate = if j % 2 == 1 {
                        Piece::Falling
                    } else {
                        Piece::Rising
                    };
                    assert_eq!(kind, alternate, "step {step} kind at {k}");
                }
            }
            for gamma in [0.0, 0.1, 1.0, 10.0, 1000.0] {
                s.runs(gamma, &mut pcs);
                check_pieces(&plain, &prefix, gamma, &pcs, want.first().copied());
                skipped += pcs.iter().filter(|p| p.2 == Piece::Flat).count();
            }
        }
        assert!(
            skipped > 100,
            "only {skipped} skipped nodes: the skip is not exercised"
        );
    }

    /// What the cap relies on in the pieces of [`Slopes::runs`]: they start at `b0` and
    /// end at 0, ranks strictly fall, values are the prefix sums, a rising (falling)
    /// piece has slopes `>= 0` (`<= 0`), and across a flat piece the cap cannot bind
    /// and the suffix minimum does not change (within rounding).
    fn check_pieces(
        plain: &[f64],
        prefix: &[f64],
        gamma: f64,
        pcs: &[(u32, f64, Piece)],
        b0: Option<usize>,
    ) {
        assert_eq!(pcs.first().map(|p| p.0 as usize), b0, "b0");
        if b0.is_none() {
            return;
        }
        assert_eq!(pcs.last().map(|p| p.0), Some(0), "ends at 0");
        for pair in pcs.windows(2) {
            let ((b, _, _), (a, p, kind)) = (pair[0], pair[1]);
            let (a, b) = (a as usize, b as usize);
            assert!(a < b, "ranks fall: {pcs:?}");
            assert!(close(p, prefix[a]), "value at {a}");
            match kind {
                Piece::Rising => assert!(plain[a..b].iter().all(|&s| s >= 0.0), "rising {a}..{b}"),
                Piece::Falling => {
                    assert!(plain[a..b].iter().all(|&s| s <= 0.0), "falling {a}..{b}")
                }
                Piece::Flat => {
                    let s_right = prefix[b..].iter().copied().fold(f64::INFINITY, f64::min);
                    for (j, &g) in prefix.iter().enumerate().take(b + 1).skip(a) {
                        assert!(g >= s_right - 1e-9, "flat {a}..{b}: new minimum at {j}");
                        assert!(g <= gamma + s_right + 1e-9, "flat {a}..{b}: capped at {j}");
                    }
                }
            }
        }
    }
}
