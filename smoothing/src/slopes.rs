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
        self.update(a, l, mid, ql, qr, op);
        self.update(b, mid, r, ql, qr, op);
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

    /// Writes the starts of the monotone runs left of the last negative slope, right to
    /// left, as `(k, prefix(k))`: first `k = b0`, one past the last negative slope, then
    /// each rank where the slopes, read leftwards, turn from `<= 0` to `> 0` or from
    /// `>= 0` to `< 0`, ending with rank 0. Empty if no slope is negative.
    ///
    /// One right-to-left traversal that skips every node whose slopes all keep the
    /// current direction: `O((1 + R) log(G / BUCKET) + (1 + R) BUCKET)` for `R` runs,
    /// instead of two root descents per run.
    pub fn runs(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
        // `rising`: inside a run of slopes >= 0 (read leftwards), looking for a negative.
        let mut rising = true;
        self.walk(0, 0, self.buckets, IDENTITY, 0.0, &mut rising, out);
        if !out.is_empty() {
            out.push((0, 0.0));
        }
    }

    /// `op`: the ancestors' pending operation; `left`: the sum of `slope * length` left
    /// of the node, accumulated exactly as [`Slopes::prefix`] does (same values).
    #[allow(clippy::too_many_arguments)]
    fn walk(
        &self,
        node: usize,
        l: usize,
        r: usize,
        op: Op,
        left: f64,
        rising: &mut bool,
        out: &mut Vec<(u32, f64)>,
    ) {
        let t = &self.tree[node];
        let keeps = if *rising {
            op.slope(t.mn) >= 0.0
        } else {
            op.slope(t.mx) <= 0.0
        };
        if keeps {
            return;
        }
        let op = op.after(t.lazy);
        if r - l == 1 {
            let (gl, gr) = (self.gap(l), self.gap(r));
            for k in (gl..gr).rev() {
                let s = op.slope(self.slope[k]);
                if *rising && s < 0.0 || !*rising && s > 0.0 {
                    // The run ends at rank k + 1; sum left to right as `prefix` does.
                    let mut at = left;
                    for j in gl..=k {
                        at += op.slope(self.slope[j]) * (self.vals[j + 1] - self.vals[j]);
                    }
                    out.push(((k + 1) as u32, at));
                    *rising = !*rising;
                }
            }
            return;
        }
        let (a, b, mid) = kids(node, l, r);
        let mid_left = left + op.sum(self.tree[a].sum, self.tree[a].len);
        self.walk(b, mid, r, op, mid_left, rising, out);
        self.walk(a, l, mid, op, left, rising, out);
    }

    /// Writes the maximal runs of equal slope over all gaps as `(start, slope)`.
    pub fn pieces(&self, out: &mut Vec<(u32, f64)>) {
        out.clear();
        self.collect(0, 0, self.buckets, IDENTITY, out);
    }

    fn collect(&self, node: usize, l: usize, r: usize, op: Op, out: &mut Vec<(u32, f64)>) {
        let t = &self.tree[node];
        let mut emit = |k: usize, s: f64| {
            if !matches!(out.last(), Some(p) if p.1 == s) {
                out.push((k as u32, s));
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
        self.collect(a, l, mid, op, out);
        self.collect(b, mid, r, op, out);
    }
}

#[cfg(test)]
mod tests {
    use super::Slopes;

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
        s.runs(&mut out);
        assert_eq!(out.len(), 2);
        assert_eq!(out[0].0, 5);
        assert!(close(out[0].1, -0.125));
        assert_eq!(out[1], (0, 0.0));
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
        s.runs(&mut out);
        let want = [
            (40, -0.25),
            (30, -0.125),
            (25, -0.3125),
            (10, -0.125),
            (5, -0.1875),
            (0, 0.0),
        ];
        assert_eq!(out.len(), want.len());
        for (got, want) in out.iter().zip(want) {
            assert_eq!(got.0, want.0);
            assert!(close(got.1, want.1), "{got:?} vs {want:?}");
        }
        s.reset();
        s.pieces(&mut out);
        assert_eq!(out, vec![(0, 0.0)]);
        s.runs(&mut out);
        assert!(out.is_empty());
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
            s.runs(&mut out);
            let got: Vec<usize> = out.iter().map(|&(k, _)| k as usize).collect();
            assert_eq!(got, want, "step {step} runs");
            for &(k, p) in &out {
                assert!(close(p, prefix[k as usize]), "step {step} run value at {k}");
            }
        }
    }
}
