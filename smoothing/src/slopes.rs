//! The slopes of one piecewise linear function over the `G = m - 1` gaps between
//! consecutive distinct scores, in a lazy segment tree whose leaves are buckets of
//! [`BUCKET`] gaps (add to all or a prefix or a range, sums of `slope * gap length`,
//! runs of equal slope), and the cap `f = min(g, gamma + S)` as one walk
//! ([`Slopes::cap`]), or two descents while the slopes are known to be sorted
//! ([`Slopes::cap_convex`]).
//!
//! Buckets keep the tree small: `G` slopes in one flat array (8 bytes each) plus
//! `2 G / BUCKET` tree nodes of 48 bytes, about 20 bytes per gap, and a bucket's gaps
//! are scanned linearly where a plain tree would descend three more levels. Read-only queries never push pending operations down: they carry the
//! composed pending operation of the ancestors instead, so only updates write.
//!
//! # Complexity
//! Every update and query is `O(log(G / BUCKET) + BUCKET)`, except
//! [`Slopes::each_piece`], which is that times the number of runs it reports, and
//! [`Slopes::cap`] (see there). Recursion depth is `log2(G / BUCKET)`.

/// Gaps per leaf bucket. 8 does 3 to 7% fewer instructions than 16 on long paths
/// (the walk scans half as many gaps where it must go gap by gap) for 0.6 MB more at
/// `G = 100,000`; 4 is no faster than 8 and doubles the tree again.
const BUCKET: usize = 8;

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

/// Aggregates of a tree node (for its gaps, its own `lazy` included) and the operation
/// still pending for its children (or, at a leaf, for its bucket's slopes). `sum` is
/// exact; `mn` and `mx` are bounds (`mn <= ` every slope `<= mx`), exact after a pull
/// and only widened by [`Slopes::prefix_add`]: every test on them is a bound test, and
/// `mn == mx` still means one slope.
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

/// The state of the right-to-left walk of [`Slopes::cap`], at the left end of the part
/// done (rank `k`, say).
struct CapWalk {
    gamma: f64,
    /// Widens the bounds of mixed nodes for rounding: `1e-12` times a bound on every
    /// `|g|`, on every node's `(mx - mn) len` and on `gamma`, so one value for the walk.
    tol: f64,
    /// `min g(v_t)` over the ranks `t >= k` outside the deferred nodes, and a rank
    /// attaining it. The suffix minimum `S` is the lower of it and the deferred nodes'
    /// minima.
    s: f64,
    s_arg: u32,
    /// A lower bound on the deferred nodes' minima (infinite if none).
    s_low: f64,
    /// Nodes skipped whole that may hold a new suffix minimum: searched only when a
    /// test needs `S` below their bound.
    deferred: Vec<Noted>,
    /// `f(v_k)`, and whether the cap binds at `k` (`f < g` there).
    f: f64,
    capped: bool,
}

/// A node the cap walk left alone that may hold a new suffix minimum.
#[derive(Clone, Copy)]
struct Noted {
    node: u32,
    l: u32,
    r: u32,
    /// `g` at its left end, and a lower bound on `g` over it.
    left: f64,
    lo: f64,
}

/// A node's slopes, as the cap walk sees them.
#[derive(Clone, Copy)]
enum Kind {
    /// All `>= 0`.
    Rising,
    /// All `<= 0`.
    Falling,
    /// Mixed, with upper and lower bounds on `g` over the node (widened for rounding).
    Mixed(f64, f64),
}

/// The lower of two values that are never NaN: one `minsd`, where `f64::min` also
/// handles NaN (the tests on every node use it several times).
#[inline(always)]
fn fmin(a: f64, b: f64) -> f64 {
    if a < b {
        a
    } else {
        b
    }
}

/// The higher of two values that are never NaN (see [`fmin`]).
#[inline(always)]
fn fmax(a: f64, b: f64) -> f64 {
    if a > b {
        a
    } else {
        b
    }
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
    // Highest point: left + mx t = right - mn (len - t); lowest: left + mn t = right - mx
    // (len - t), which is at `len - t_hi` (one division; the callers widen by far more
    // than its rounding).
    let t_hi = fmin(fmax((right - left - mn * len) / (mx - mn), 0.0), len);
    (left + mx * t_hi, left + mn * (len - t_hi))
}

#[derive(Clone)]
pub(crate) struct Slopes<'a> {
    vals: &'a [f64],
    gaps: usize,
    buckets: usize,
    slope: Vec<f64>,
    tree: Vec<Node>,
    /// The cap walk's deferred nodes (kept to reuse the allocation).
    deferred: Vec<Noted>,
    /// The slopes are nondecreasing left to right (`g` is convex), so every node's
    /// `mn` and `mx` are its first and last slope, exact (up to rounding) even where
    /// [`Slopes::prefix_add`] only widened them: that adds `c <= 0` to a prefix, which
    /// holds the lowest slope and not the highest. Then [`Slopes::cap`] takes
    /// [`Slopes::cap_convex`]. Set by [`Slopes::reset`], cleared by any update that may
    /// break it and by a cap that leaves `f` non-convex.
    convex: bool,
    /// [`Slopes::prefix_set`]'s path (kept to reuse the allocation).
    path: Vec<(u32, u32, u32)>,
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
            deferred: Vec::new(),
            convex: true,
            path: Vec::new(),
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

    /// Forced inline: the walk pushes every node it enters, and a call costs a third
    /// of the push.
    #[inline(always)]
    fn push(&mut self, node: usize, l: usize, r: usize) {
        let op = self.tree[node].lazy;
        if op.set || op.c != 0.0 {
            self.tree[node].lazy = IDENTITY;
            let (a, b, _) = kids(node, l, r);
            // [`Slopes::apply`] on both children, the kind of `op` tested once.
            let c = op.c;
            for t in [a, b] {
                let t = &mut self.tree[t];
                if op.set {
                    (t.mn, t.mx, t.sum, t.lazy) = (c, c, c * t.len, op);
                } else {
                    t.mn += c;
                    t.mx += c;
                    t.sum += c * t.len;
                    t.lazy.c += c;
                }
            }
        }
    }

    #[inline]
    fn pull(&mut self, node: usize, l: usize, r: usize) {
        let (a, b, _) = kids(node, l, r);
        let (x, y) = (self.tree[a], self.tree[b]);
        let t = &mut self.tree[node];
        t.mn = fmin(x.mn, y.mn);
        t.mx = fmax(x.mx, y.mx);
        t.sum = x.sum + y.sum;
    }

    /// Sets every slope to 0.
    pub fn reset(&mut self) {
        self.apply(0, Op { set: true, c: 0.0 });
        self.convex = true;
    }

    /// Adds `c` to every slope, `O(1)`.
    pub fn add_all(&mut self, c: f64) {
        self.apply(0, Op { set: false, c });
    }

    /// Adds `c` to the slopes of gaps `ql..qr`.
    pub fn range_add(&mut self, ql: usize, qr: usize, c: f64) {
        if ql < qr && c != 0.0 {
            // A nonnegative add to a suffix keeps the slopes sorted.
            self.convex &= qr >= self.gaps && c > 0.0;
            self.update(0, 0, self.buckets, ql, qr, Op { set: false, c });
        }
    }

    /// Adds `c` to the slopes of gaps `0..qr`: one iterative descent along the path to
    /// `qr` (the common update: half of every `w |x - v|`), no pushes but of assigns,
    /// no way back up. Leaves the min/max slope of the partly covered nodes as bounds
    /// (see the body), which is all the cap walk and the queries need.
    pub fn prefix_add(&mut self, qr: usize, c: f64) {
        if qr == 0 || c == 0.0 {
            return;
        }
        // Lowering a prefix keeps the slopes sorted (and the widened bounds exact).
        self.convex &= c < 0.0 || qr >= self.gaps;
        let op = Op { set: false, c };
        if qr >= self.gaps {
            self.apply(0, op);
            return;
        }
        // The node is partly covered: `gap(l) < qr < gap(r)`, and stays so below. Its
        // sum moves by `c` times the covered length; its min/max slope are only
        // widened (a valid bound, made exact again by the next pull), so no child is
        // read on the way back.
        let (mut node, mut l, mut r) = (0, 0, self.buckets);
        // `g` moves by `c` times the covered length right of the node's left end.
        let (v_end, mut v_left) = (self.vals[qr], self.vals[0]);
        let (widen_mn, widen_mx) = if c < 0.0 { (c, 0.0) } else { (0.0, c) };
        loop {
            if r - l == 1 {
                self.prefix_add_bucket(node, self.gap(l), self.gap(r), qr, c);
                break;
            }
            if self.tree[node].lazy.set {
                self.push(node, l, r);
            }
            let t = &mut self.tree[node];
            t.sum += c * (v_end - v_left);
            t.mn += widen_mn;
            t.mx += widen_mx;
            let (a, b, mid) = kids(node, l, r);
            let gm = self.gap(mid);
            if qr >= gm {
                self.apply(a, op);
                if qr == gm {
                    break;
                }
                (node, l, v_left) = (b, mid, self.vals[gm]);
            } else {
                (node, r) = (a, mid);
            }
        }
    }

    /// [`Slopes::prefix_add`] on a partly covered bucket: its pending operation, then
    /// `c` on gaps `gl..qr`, then its aggregates.
    fn prefix_add_bucket(&mut self, node: usize, gl: usize, gr: usize, qr: usize, c: f64) {
        let lazy = self.tree[node].lazy;
        self.tree[node].lazy = IDENTITY;
        let bucket = &mut self.slope[gl..gr];
        // Simple loops over a few slopes: a test per slope costs more than a pass.
        if lazy.set {
            bucket.fill(lazy.c);
        } else if lazy.c != 0.0 {
            bucket.iter_mut().for_each(|s| *s += lazy.c);
        }
        bucket[..qr - gl].iter_mut().for_each(|s| *s += c);
        self.refresh_bucket(node, gl, gr);
    }

    /// Sets the slopes of gaps `0..qr` to 0: one descent along the path to `qr` (the
    /// covered children assigned whole), then exact pulls back up that path.
    fn prefix_set(&mut self, qr: usize) {
        let op = Op { set: true, c: 0.0 };
        if qr == 0 {
            return;
        }
        if qr >= self.gaps {
            self.apply(0, op);
            return;
        }
        // The partly covered nodes, for the pulls: one per level.
        let mut path = std::mem::take(&mut self.path);
        let (mut node, mut l, mut r) = (0, 0, self.buckets);
        loop {
            if r - l == 1 {
                self.update_bucket(node, self.gap(l), self.gap(r), 0, qr, op);
                break;
            }
            self.push(node, l, r);
            path.push((node as u32, l as u32, r as u32));
            let (a, b, mid) = kids(node, l, r);
            let gm = self.gap(mid);
            if qr >= gm {
                self.apply(a, op);
                if qr == gm {
                    break;
                }
                (node, l) = (b, mid);
            } else {
                (node, r) = (a, mid);
            }
        }
        for &(node, l, r) in path.iter().rev() {
            self.pull(node as usize, l as usize, r as usize);
        }
        path.clear();
        self.path = path;
    }

    /// Sets the slopes of gaps `ql..qr` to `c`.
    #[cfg(test)]
    pub fn range_set(&mut self, ql: usize, qr: usize, c: f64) {
        if ql < qr {
            self.convex = false;
            self.update(0, 0, self.buckets, ql, qr, Op { set: true, c });
        }
    }

    /// A partly covered bucket: applies its pending operation to its slopes, then `op`
    /// to gaps `ql..qr`, then recomputes its aggregates.
    fn update_bucket(&mut self, node: usize, gl: usize, gr: usize, ql: usize, qr: usize, op: Op) {
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
        self.tree[node].lazy = IDENTITY;
        self.refresh_bucket(node, gl, gr);
    }

    /// Recomputes a bucket's aggregates from its slopes (its pending operation applied).
    #[inline]
    fn refresh_bucket(&mut self, node: usize, gl: usize, gr: usize) {
        let (mut mn, mut mx, mut sum) = (f64::INFINITY, f64::NEG_INFINITY, 0.0);
        for (&s, v) in self.slope[gl..gr].iter().zip(self.vals[gl..=gr].windows(2)) {
            let len = v[1] - v[0];
            if s < mn {
                mn = s;
            }
            if s > mx {
                mx = s;
            }
            sum += s * len;
        }
        let t = &mut self.tree[node];
        (t.mn, t.mx, t.sum) = (mn, mx, sum);
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
            self.update_bucket(node, gl, gr, ql, qr, op);
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
    #[cfg(test)]
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

    /// Replaces `g` (value `base` at rank 0, these slopes) by the capped function
    /// `f(v_k) = min(g(v_k), gamma + S_k)`, `S_k = min_{t > k} g(v_t)`, and returns
    /// `f(v_0)`. Calls `capped(lo, hi, to)` for runs of ranks `lo..=hi` where the cap
    /// binds (`f < g`) with one rank `to > hi` attaining their `S`, right to left (a run
    /// may come in several adjacent pieces with the same `to`).
    ///
    /// One right-to-left walk that writes as it goes. A tree node is settled whole when
    /// no rank in it can exceed `gamma + S` (untouched), or when its right end is capped
    /// and every rank provably exceeds `gamma + S` (one assign of zero slopes); it is
    /// descended into otherwise, and a leaf bucket is done gap by gap. An untouched node
    /// with mixed slopes may hold a new suffix minimum: it is only noted (with a lower
    /// bound on its minimum, which makes the untouched test pessimistic from there on)
    /// and searched when a node further left needs `S` exactly. Writes only touch gaps
    /// at or right of the node being read, so left sums still read the original `g`.
    ///
    /// `O((1 + B) (log(G / BUCKET) + BUCKET))` for `B` nodes that cannot be settled
    /// whole: about two per level for each run of capped ranks and each new suffix
    /// minimum that must be found, plus some near them when the bounds are loose.
    pub fn cap(&mut self, base: f64, gamma: f64, mut capped: impl FnMut(u32, u32, u32)) -> f64 {
        if self.convex {
            return self.cap_convex(base, gamma, &mut capped);
        }
        let root = self.tree[0];
        let last = base + root.sum;
        let steep = fmax(root.mx.abs(), root.mn.abs()) * root.len;
        let mut st = CapWalk {
            gamma,
            tol: 1e-12 * (3.0 * (base.abs() + steep) + (root.mx - root.mn) * root.len + gamma),
            s: last,
            s_arg: self.gaps as u32,
            s_low: f64::INFINITY,
            deferred: std::mem::take(&mut self.deferred),
            f: last,
            capped: false,
        };
        self.cap_node(0, 0, self.buckets, base, &mut st, &mut capped);
        st.deferred.clear();
        self.deferred = st.deferred;
        st.f
    }

    /// [`Slopes::cap`] when `g` is convex: it falls to its first minimum at rank `a`
    /// (the first gap of slope `>= 0`) and rises after it, so `S = g(v_a)` left of
    /// `a`, nothing at or right of `a` caps, and the ranks that cap are those left of
    /// `c`, the first rank where `g` is at most `gamma + g(v_a)`: one run `0..c` to `a`,
    /// whose slopes become 0 but the last gap's, which joins `g(v_c)`. A cap that binds
    /// leaves `f` convex only if that gap is flat too (`gamma = 0`).
    /// `O(log(G / BUCKET) + BUCKET)`: at most two descents and two range assigns, where
    /// the walk would test every node along the run's boundary and note the minimum's.
    fn cap_convex(&mut self, base: f64, gamma: f64, capped: &mut impl FnMut(u32, u32, u32)) -> f64 {
        let t = self.tree[0];
        let right = base + t.sum;
        // The largest fall of a convex `g` is `g(v_0) - min g`: with a lower bound on
        // the minimum (widened for rounding, as the walk does), most caps that do not
        // bind cost no descent.
        let lo = bounds(base, right, t.mn, t.mx, t.len).1;
        let tol = 1e-12 * (base.abs() + right.abs() + (t.mx - t.mn).abs() * t.len + gamma);
        if base <= gamma + lo - tol {
            return base;
        }
        if gamma == 0.0 {
            // `g` falls strictly before `a`: every rank left of it caps, and `f`, the
            // suffix minimum, is flat up to `a`, then `g`: still convex.
            let (a, ga) = self.flatten_to_min(base);
            if a > 0 && base > ga {
                capped(0, (a - 1) as u32, a as u32);
                return ga;
            }
            // `g` flat up to `a` but for rounding: `f = g`.
            return base;
        }
        let (a, ga) = self.first_rising(base);
        let level = gamma + ga;
        if a == 0 || base <= level {
            return base;
        }
        let (c, gc) = self.first_at_most(base, level, a);
        // Past `a` only through rounding (`g(v_a)` summed along another path).
        let (c, gc) = if c >= a { (a, ga) } else { (c, gc) };
        capped(0, (c - 1) as u32, a as u32);
        self.prefix_set(c - 1);
        let last = (gc - level) / self.len(c - 1, c);
        self.update(0, 0, self.buckets, c - 1, c, Op { set: true, c: last });
        // Flat, then the falling gap `c - 1`, then `g` (falling again if `c < a`).
        self.convex = false;
        level
    }

    /// Sets the slopes before the first one `>= 0` to 0 (`g` convex, `g(v_0) = base`),
    /// and returns that gap (`G` if none) and `g` at its left end: the cap with
    /// `gamma = 0` in one descent along the path to it (the children left of it assigned
    /// whole), then exact pulls back up that path.
    fn flatten_to_min(&mut self, base: f64) -> (usize, f64) {
        let zero = Op { set: true, c: 0.0 };
        let t = self.tree[0];
        if t.mx < 0.0 {
            self.apply(0, zero);
            return (self.gaps, base + t.sum);
        }
        let mut path = std::mem::take(&mut self.path);
        let (mut node, mut l, mut r, mut at) = (0, 0, self.buckets, base);
        let arg = loop {
            if r - l == 1 {
                let (gl, gr) = (self.gap(l), self.gap(r));
                let lazy = self.tree[node].lazy;
                self.tree[node].lazy = IDENTITY;
                let bucket = &mut self.slope[gl..gr];
                if lazy.set || lazy.c != 0.0 {
                    bucket.iter_mut().for_each(|s| *s = lazy.slope(*s));
                }
                let mut k = gl;
                while k < gr && bucket[k - gl] < 0.0 {
                    at += bucket[k - gl] * (self.vals[k + 1] - self.vals[k]);
                    bucket[k - gl] = 0.0;
                    k += 1;
                }
                self.refresh_bucket(node, gl, gr);
                break k;
            }
            self.push(node, l, r);
            path.push((node as u32, l as u32, r as u32));
            let (a, b, mid) = kids(node, l, r);
            let ta = self.tree[a];
            if ta.mx >= 0.0 {
                (node, r) = (a, mid);
            } else {
                at += ta.sum;
                self.apply(a, zero);
                (node, l) = (b, mid);
            }
        };
        for &(node, l, r) in path.iter().rev() {
            self.pull(node as usize, l as usize, r as usize);
        }
        path.clear();
        self.path = path;
        (arg, at)
    }

    /// The first gap whose slope is `>= 0` (`G` if none) and `g` at its left end, `g`
    /// being convex with `g(v_0) = base`. One read-only descent on the exact max slopes.
    fn first_rising(&self, base: f64) -> (usize, f64) {
        let t = &self.tree[0];
        if t.mx < 0.0 {
            return (self.gaps, base + t.sum);
        }
        let (mut node, mut l, mut r, mut at, mut op) = (0, 0, self.buckets, base, IDENTITY);
        loop {
            op = op.after(self.tree[node].lazy);
            if r - l == 1 {
                let (gl, gr) = (self.gap(l), self.gap(r));
                for k in gl..gr {
                    let s = op.slope(self.slope[k]);
                    if s >= 0.0 {
                        return (k, at);
                    }
                    at += s * (self.vals[k + 1] - self.vals[k]);
                }
                // Only if the bucket's max was rounded up to 0.
                return (gr, at);
            }
            let (a, b, mid) = kids(node, l, r);
            let ta = &self.tree[a];
            if op.slope(ta.mx) >= 0.0 {
                (node, r) = (a, mid);
            } else {
                at += op.sum(ta.sum, ta.len);
                (node, l) = (b, mid);
            }
        }
    }

    /// The first rank `c` in `1..=a` where `g <= level` (or the end of the bucket
    /// holding `a`, through rounding) and `g` there, given `g(v_0) = base > level` and
    /// `g(v_a) <= level`. One read-only descent on the sums: `g` is convex with its
    /// minimum at `a`, so it falls until `a` and the ranks where it is at most `level`
    /// are one interval around `a`.
    fn first_at_most(&self, base: f64, level: f64, arg: usize) -> (usize, f64) {
        let (mut node, mut l, mut r, mut at, mut op) = (0, 0, self.buckets, base, IDENTITY);
        loop {
            op = op.after(self.tree[node].lazy);
            if r - l == 1 {
                let (gl, gr) = (self.gap(l), self.gap(r));
                for k in gl..gr {
                    at += op.slope(self.slope[k]) * (self.vals[k + 1] - self.vals[k]);
                    if at <= level {
                        return (k + 1, at);
                    }
                }
                return (gr, at);
            }
            let (a, b, mid) = kids(node, l, r);
            let ta = &self.tree[a];
            let at_mid = at + op.sum(ta.sum, ta.len);
            if self.gap(mid) >= arg || at_mid <= level {
                (node, r) = (a, mid);
            } else {
                (node, l, at) = (b, mid, at_mid);
            }
        }
    }

    /// Caps the node's ranks `gap(l)..gap(r)` (its right end belongs to the part already
    /// done); `left` is `g` at its left end. Returns whether a slope changed. The
    /// ancestors' pending operations have been pushed down.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn cap_node(
        &mut self,
        node: usize,
        l: usize,
        r: usize,
        left: f64,
        st: &mut CapWalk,
        capped: &mut impl FnMut(u32, u32, u32),
    ) -> bool {
        let (gl, gr) = (self.gap(l), self.gap(r));
        let t = self.tree[node];
        let right = left + t.sum;
        let kind = if t.mn >= 0.0 {
            Kind::Rising
        } else if t.mx <= 0.0 {
            Kind::Falling
        } else {
            let (hi, lo) = bounds(left, right, t.mn, t.mx, t.len);
            Kind::Mixed(hi + st.tol, lo - st.tol)
        };
        if !st.capped {
            // Untouched if no rank can exceed `gamma + S`: `top` at most `gamma + S` and,
            // for a mixed node, where `S` may fall inside to `lo` at the lowest, `hi` at
            // most `gamma + lo` (`spread_ok`, which no `S` changes).
            let gamma = st.gamma;
            let (top, spread_ok) = match kind {
                // A rank caps iff it exceeds `gamma + S`, the right end being highest.
                Kind::Rising => (right, true),
                // Every value is at least the right end's, so `S` stays.
                Kind::Falling => (left, true),
                Kind::Mixed(hi, lo) => (hi, hi <= gamma + lo),
            };
            // The lowest `S` possible (the noted nodes at their lower bounds); if that
            // fails, a leaf needs the exact `S` (all noted nodes searched), and another
            // node, if it would pass at `st.s` (`S <= st.s`), has only the noted nodes
            // whose bound is below the `S` it needs (`top - gamma`) searched.
            let mut settled = spread_ok && top <= gamma + fmin(st.s, st.s_low);
            if !settled && !st.deferred.is_empty() {
                if r - l == 1 {
                    self.settle(st);
                    settled = spread_ok && top <= gamma + st.s;
                } else if spread_ok && top <= gamma + st.s {
                    self.settle_below(st, top - gamma);
                    settled = top <= gamma + fmin(st.s, st.s_low);
                }
            }
            if settled {
                match kind {
                    Kind::Rising if left < st.s => (st.s, st.s_arg) = (left, gl as u32),
                    Kind::Mixed(_, lo) if lo < st.s => {
                        // A new suffix minimum may lie inside: found only if needed.
                        st.deferred.push(Noted {
                            node: node as u32,
                            l: l as u32,
                            r: r as u32,
                            left,
                            lo,
                        });
                        st.s_low = fmin(st.s_low, lo);
                    }
                    _ => {}
                }
                (st.f, st.capped) = (left, false);
                return false;
            }
        } else if match kind {
            // With the right end capped, `S` there is the `S` of the node's ranks (the
            // capped rank did not lower it), so every rank above `gamma + S` caps to it.
            Kind::Rising => left > st.gamma + st.s,
            Kind::Falling => true,
            Kind::Mixed(_, lo) => lo > st.gamma + st.s,
        } {
            capped(gl as u32, (gr - 1) as u32, st.s_arg);
            self.apply(node, Op { set: true, c: 0.0 });
            return true;
        }
        self.descend(node, l, r, left, st, capped)
    }

    /// The body of [`Slopes::cap_node`] for a node it cannot settle whole: a leaf gap by
    /// gap, else its children right to left (then a refresh if needed). Kept out of
    /// line, so that settling a node costs no call.
    #[inline(never)]
    fn descend(
        &mut self,
        node: usize,
        l: usize,
        r: usize,
        left: f64,
        st: &mut CapWalk,
        capped: &mut impl FnMut(u32, u32, u32),
    ) -> bool {
        if r - l == 1 {
            let (gl, gr) = (self.gap(l), self.gap(r));
            return self.cap_bucket(node, gl, gr, left, st, capped);
        }
        self.push(node, l, r);
        let (a, b, mid) = kids(node, l, r);
        let mid_left = left + self.tree[a].sum;
        let changed = self.cap_node(b, mid, r, mid_left, st, capped)
            | self.cap_node(a, l, mid, left, st, capped);
        if changed {
            self.pull(node, l, r);
        }
        changed
    }

    /// Makes `st.s` exact: the minimum of `g` over the deferred nodes joins it.
    #[inline(never)]
    fn settle(&self, st: &mut CapWalk) {
        for e in &st.deferred {
            let mut best = (st.s, st.s_arg);
            self.min_in(
                e.node as usize,
                e.l as usize,
                e.r as usize,
                IDENTITY,
                e.left,
                &mut best,
            );
            (st.s, st.s_arg) = best;
        }
        st.deferred.clear();
        st.s_low = f64::INFINITY;
    }

    /// Searches the noted nodes whose bound is below `need` (the others stay noted).
    #[inline(never)]
    fn settle_below(&self, st: &mut CapWalk, need: f64) {
        let mut best = (st.s, st.s_arg);
        let mut s_low = f64::INFINITY;
        st.deferred.retain(|e| {
            if e.lo < need {
                self.min_in(
                    e.node as usize,
                    e.l as usize,
                    e.r as usize,
                    IDENTITY,
                    e.left,
                    &mut best,
                );
                false
            } else {
                s_low = fmin(s_low, e.lo);
                true
            }
        });
        (st.s, st.s_arg) = best;
        st.s_low = s_low;
    }

    /// Lowers `best` to the minimum of `g` over the node's ranks, with a rank attaining
    /// it; `op` is the ancestors' pending operation, `left` is `g` at its left end.
    /// Children whose lower bound cannot beat `best` are not entered.
    #[inline(always)]
    fn min_in(&self, node: usize, l: usize, r: usize, op: Op, left: f64, best: &mut (f64, u32)) {
        let t = &self.tree[node];
        let (mn, mx) = (op.slope(t.mn), op.slope(t.mx));
        let right = left + op.sum(t.sum, t.len);
        if mn >= 0.0 {
            if left < best.0 {
                *best = (left, self.gap(l) as u32);
            }
            return;
        }
        if mx <= 0.0 {
            if right < best.0 {
                *best = (right, self.gap(r) as u32);
            }
            return;
        }
        if bounds(left, right, mn, mx, t.len).1 >= best.0 {
            return;
        }
        self.min_descend(node, l, r, op, left, best);
    }

    /// The body of [`Slopes::min_in`] for a node it must enter: a leaf gap by gap, else
    /// its children. Kept out of line, so that testing a node costs no call.
    #[inline(never)]
    fn min_descend(
        &self,
        node: usize,
        l: usize,
        r: usize,
        op: Op,
        left: f64,
        best: &mut (f64, u32),
    ) {
        let op = op.after(self.tree[node].lazy);
        if r - l == 1 {
            let (gl, gr) = (self.gap(l), self.gap(r));
            if left < best.0 {
                *best = (left, gl as u32);
            }
            let mut at = left;
            for k in gl..gr {
                at += op.slope(self.slope[k]) * (self.vals[k + 1] - self.vals[k]);
                if at < best.0 {
                    *best = (at, (k + 1) as u32);
                }
            }
            return;
        }
        let (a, b, mid) = kids(node, l, r);
        let mid_left = left + op.sum(self.tree[a].sum, self.tree[a].len);
        self.min_in(b, mid, r, op, mid_left, best);
        self.min_in(a, l, mid, op, left, best);
    }

    /// [`Slopes::cap_node`] on a leaf, gap by gap (forced inline into
    /// [`Slopes::descend`], its one caller).
    #[inline(always)]
    fn cap_bucket(
        &mut self,
        node: usize,
        gl: usize,
        gr: usize,
        left: f64,
        st: &mut CapWalk,
        capped: &mut impl FnMut(u32, u32, u32),
    ) -> bool {
        let lazy = self.tree[node].lazy;
        let bucket = &mut self.slope[gl..gr];
        if lazy.set || lazy.c != 0.0 {
            for s in bucket.iter_mut() {
                *s = lazy.slope(*s);
            }
            self.tree[node].lazy = IDENTITY;
        }
        // g at the bucket's ranks, summed left to right.
        let mut g = [0.0f64; BUCKET];
        let mut at = left;
        for (j, gj) in g[..gr - gl].iter_mut().enumerate() {
            *gj = at;
            at += bucket[j] * (self.vals[gl + j + 1] - self.vals[gl + j]);
        }
        let mut changed = false;
        // A run of capped ranks `k..=hi` being gathered.
        let mut run: Option<(usize, u32)> = None;
        for k in (gl..gr).rev() {
            let gk = g[k - gl];
            let level = st.gamma + st.s;
            let len = self.vals[k + 1] - self.vals[k];
            if gk > level {
                match run {
                    Some((_, to)) if to == st.s_arg => {}
                    _ => {
                        if let Some((hi, to)) = run {
                            capped((k + 1) as u32, hi as u32, to);
                        }
                        run = Some((k, st.s_arg));
                    }
                }
                bucket[k - gl] = (st.f - level) / len;
                (st.f, st.capped) = (level, true);
                changed = true;
            } else {
                if let Some((hi, to)) = run.take() {
                    capped((k + 1) as u32, hi as u32, to);
                }
                if st.capped {
                    bucket[k - gl] = (st.f - gk) / len;
                    changed = true;
                }
                (st.f, st.capped) = (gk, false);
                if gk < st.s {
                    (st.s, st.s_arg) = (gk, k as u32);
                }
            }
        }
        if let Some((hi, to)) = run {
            capped(gl as u32, hi as u32, to);
        }
        if changed {
            self.refresh_bucket(node, gl, gr);
        }
        changed
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
    use super::Slopes;

    /// A deterministic xorshift stream: each call gives a value in `0..bound`.
    fn xorshift(mut state: u64) -> impl FnMut(usize) -> usize {
        move |bound| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % bound as u64) as usize
        }
    }

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-12
    }

    /// 40 gaps of length 1/40: several buckets, so the tree has internal nodes.
    fn grid() -> Vec<f64> {
        (0..=40).map(|k| k as f64 / 40.0).collect()
    }

    /// The cap on plain values `g` (one per rank): `f`, and for each rank where it binds
    /// the suffix minimum `S` it caps to.
    fn plain_cap(g: &[f64], gamma: f64) -> (Vec<f64>, Vec<Option<f64>>) {
        let mut f = g.to_vec();
        let mut to = vec![None; g.len()];
        let mut s = f64::INFINITY; // min over ranks right of k
        for k in (0..g.len()).rev() {
            if g[k] > gamma + s {
                f[k] = gamma + s;
                to[k] = Some(s);
            }
            s = s.min(g[k]);
        }
        (f, to)
    }

    /// Runs [`Slopes::cap`] and returns `f(v_0)` and the capped runs (adjacent ones
    /// with one target merged), checking that they come right to left.
    fn cap(s: &mut Slopes<'_>, base: f64, gamma: f64) -> (f64, Vec<(u32, u32, u32)>) {
        let mut runs: Vec<(u32, u32, u32)> = Vec::new();
        let f0 = s.cap(base, gamma, |lo, hi, to| {
            assert!(lo <= hi && hi < to, "run {lo}..={hi} -> {to}");
            if let Some(prev) = runs.last_mut() {
                assert!(hi < prev.0, "runs come right to left");
                if prev.0 == hi + 1 && prev.2 == to {
                    // One run split at a node boundary.
                    prev.0 = lo;
                    return;
                }
            }
            runs.push((lo, hi, to));
        });
        (f0, runs)
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
        s.range_set(10, 25, 0.0);
        s.pieces(&mut out);
        assert_eq!(
            out,
            vec![(0, -1.0), (5, 1.0), (10, 0.0), (25, 2.0), (30, 0.0)]
        );
        assert!(close(s.prefix(40), 0.25));
        s.reset();
        s.pieces(&mut out);
        assert_eq!(out, vec![(0, 0.0)]);
    }

    /// Slopes -1.5, 0.5, -0.5, 1.5, -0.5 on gaps 0..5, 5..10, 10..25, 25..30, 30..40:
    /// g(0) = 0, g(5) = -0.1875, g(10) = -0.125, g(25) = -0.3125 (the minimum),
    /// g(30) = -0.125, g(40) = -0.25. With gamma = 0.11 the cap binds at ranks 30 and
    /// 31 (above -0.25 + 0.11 = -0.14, S attained at 40) and at ranks 0..=16 (above
    /// -0.3125 + 0.11 = -0.2025, S attained at 25); g(17) = -0.2125 is below the level.
    #[test]
    fn hand_worked_cap() {
        let vals = grid();
        let mut s = Slopes::new(&vals);
        s.range_add(0, 5, -1.5);
        s.range_add(5, 10, 0.5);
        s.range_add(10, 25, -0.5);
        s.range_add(25, 30, 1.5);
        s.range_add(30, 40, -0.5);
        let (f0, runs) = cap(&mut s, 0.0, 0.11);
        assert_eq!(runs, vec![(30, 31, 40), (0, 16, 25)]);
        assert!(close(f0, -0.2025));
        // f: flat at -0.2025 to rank 16, g from 17 to 29, -0.14 at 30 and 31, g after.
        let want = [
            (0, 0.0),
            (16, -0.4),
            (17, -0.5),
            (25, 1.5),
            (29, 0.9),
            (30, 0.0),
            (31, -0.4),
            (32, -0.5),
        ];
        let mut out = Vec::new();
        s.pieces(&mut out);
        assert_eq!(out.len(), want.len(), "{out:?}");
        for (got, want) in out.iter().zip(want) {
            assert_eq!(got.0, want.0, "{out:?}");
            assert!((got.1 - want.1).abs() < 1e-9, "{out:?}");
        }
        // A second cap with the same penalty changes nothing.
        let (again, runs) = cap(&mut s, f0, 0.11);
        assert!(runs.is_empty());
        assert!(close(again, f0));
        // A huge penalty never binds; no penalty leaves the suffix minimum.
        assert!(cap(&mut s, f0, 1e9).1.is_empty());
        let (f0, runs) = cap(&mut s, f0, 0.0);
        assert_eq!(runs.last(), Some(&(0, 24, 25)));
        assert!(close(f0, -0.3125));
    }

    /// A cap that binds inside a mixed stretch, left of a fall deeper than gamma, with
    /// every value within gamma of `g(40)`. Meant to need the spread test
    /// (`hi <= gamma + lo`), but it does not: the root's bound `hi` is loose (above
    /// gamma + g(40)), so the walk descends anyway and the test passes with that
    /// condition replaced by `true`. Slopes 1, -1, 1 on gaps 0..5, 5..20, 20..40:
    /// g(0) = 0, g(5) = 0.125 (the highest), g(20) = -0.25 (the minimum), g(40) = 0.25.
    /// With gamma = 0.23 the level is -0.25 + 0.23 = -0.02: g(k) = k/40 > -0.02 on 0..=5
    /// and g(k) = 0.125 - (k - 5)/40 > -0.02 iff k <= 10 (g(10) = 0, g(11) = -0.025), so
    /// ranks 0..=10 cap to rank 20; ranks 11..=40 keep g (right of 20 g rises, so S = g
    /// there is never undercut by more than gamma). After: f = -0.02 on 0..=10, then
    /// -0.025 at 11 (slope -1 from 10 to 20), -0.25 at 20, 0.25 at 40.
    #[test]
    fn a_fall_deeper_than_gamma_inside_a_mixed_node() {
        let vals = grid();
        let mut s = Slopes::new(&vals);
        s.range_add(0, 5, 1.0);
        s.range_add(5, 20, -1.0);
        s.range_add(20, 40, 1.0);
        let g: Vec<f64> = (0..=40).map(|k| s.prefix(k)).collect();
        let (f, to) = plain_cap(&g, 0.23);
        assert_eq!(to.iter().filter(|t| t.is_some()).count(), 11);
        let (f0, runs) = cap(&mut s, 0.0, 0.23);
        assert_eq!(runs, vec![(0, 10, 20)]);
        assert!(close(f0, -0.02));
        for (k, &fk) in f.iter().enumerate() {
            assert!(close(f0 + s.prefix(k), fk), "f({k})");
        }
        // f: flat to rank 10, slope -1 to 20 (from -0.02 at 10: the gap 10..11 joins
        // the level to g(11) = -0.025), slope 1 after.
        let mut out = Vec::new();
        s.pieces(&mut out);
        let want = [(0, 0.0), (10, -0.2), (11, -1.0), (20, 1.0)];
        assert_eq!(out.len(), want.len(), "{out:?}");
        for (got, want) in out.iter().zip(want) {
            assert_eq!(got.0, want.0, "{out:?}");
            assert!((got.1 - want.1).abs() < 1e-9, "{out:?}");
        }
    }

    /// The cap walk notes a node whose minimum is at its first rank, which starts a
    /// bucket, and must find it there when a cap further left needs `S`. `3 B` gaps of
    /// `1 / (3 B)` (three buckets of `B = BUCKET` gaps): g falls from 3 to 0 on ranks
    /// `0..B`, rises to 0.8 at `1.5 B`, falls to 0.5 at `2 B`, rises to 1 at `3 B`. With
    /// gamma = 2 the middle bucket is noted (bounds 0.8 and -0.3 from its end values
    /// and slopes, within 2 of each other), and the ranks where g exceeds 2 + g(B) = 2,
    /// i.e. `k < B / 3` (`g(k) = 3 - 3 k / B`), cap to the minimum at rank `B`.
    #[test]
    fn a_noted_minimum_at_a_bucket_start() {
        let b = super::BUCKET;
        let vals: Vec<f64> = (0..=3 * b).map(|k| k as f64 / (3 * b) as f64).collect();
        let mut s = Slopes::new(&vals);
        s.range_add(0, b, -9.0);
        s.range_add(b, 3 * b / 2, 4.8);
        s.range_add(3 * b / 2, 2 * b, -1.8);
        s.range_add(2 * b, 3 * b, 1.5);
        let (f0, runs) = cap(&mut s, 3.0, 2.0);
        assert_eq!(runs, vec![(0, (b as u32).div_ceil(3) - 1, b as u32)]);
        assert!((f0 - 2.0).abs() < 1e-12, "{f0}");
    }

    /// A convex `g` on the 40-gap grid: slopes -2 on gaps 0..10, -0.5 on 10..20, 0 on
    /// 20..25, 1 on 25..40, so g(0) = 0, g(10) = -0.5, g(20) = g(25) = -0.625 (the
    /// minimum, first at rank 20), g(40) = -0.25. With gamma = 0.25 the level is
    /// -0.375 and `g(k) = -k / 20` exceeds it for k < 7.5: ranks 0..=7 cap to 20, and
    /// gap 7 joins the level to g(8) = -0.4 (slope -1). With gamma = 0 every rank left
    /// of 20 caps (`f` is the suffix minimum, still convex); with gamma = 1 nothing does
    /// (the largest fall is 0.625).
    #[test]
    fn hand_worked_convex_cap() {
        let vals = grid();
        let build = || {
            let mut s = Slopes::new(&vals);
            s.reset();
            s.add_all(-1.0);
            s.range_add(10, 40, 0.5);
            s.range_add(20, 40, 0.5);
            s.range_add(25, 40, 1.0);
            s.prefix_add(10, -1.0);
            s
        };
        let mut s = build();
        assert!(s.convex);
        // Raising a prefix may unsort the slopes.
        let mut t = s.clone();
        t.prefix_add(5, 1.0);
        assert!(!t.convex);
        let (f0, runs) = cap(&mut s, 0.0, 0.25);
        assert_eq!(runs, vec![(0, 7, 20)]);
        assert!(close(f0, -0.375));
        let mut out = Vec::new();
        s.pieces(&mut out);
        let want = [
            (0, 0.0),
            (7, -1.0),
            (8, -2.0),
            (10, -0.5),
            (20, 0.0),
            (25, 1.0),
        ];
        assert_eq!(out.len(), want.len(), "{out:?}");
        for (got, want) in out.iter().zip(want) {
            assert_eq!(got.0, want.0, "{out:?}");
            assert!((got.1 - want.1).abs() < 1e-9, "{out:?}");
        }
        assert!(
            !s.convex,
            "a cap with gamma > 0 that binds leaves f non-convex"
        );

        let mut s = build();
        let (f0, runs) = cap(&mut s, 0.0, 0.0);
        assert_eq!(runs, vec![(0, 19, 20)]);
        assert!(close(f0, -0.625));
        s.pieces(&mut out);
        assert_eq!(out, vec![(0, 0.0), (25, 1.0)]);
        assert!(s.convex);

        let mut s = build();
        let (f0, runs) = cap(&mut s, 0.0, 1.0);
        assert!(runs.is_empty());
        assert!(close(f0, 0.0));
        assert!(s.convex);
    }

    /// The solver's updates on a path whose functions stay convex (`w |x - v|` and
    /// light children rising to the right) with caps of penalty 0 or too large to bind,
    /// and now and then one that binds: the convex cap against the plain cap and against
    /// the walk on a copy, aggregates checked after every step.
    #[test]
    fn convex_caps_match_plain_values_and_the_walk() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64 ^ 0xabcd);
        // 96 gaps of length 1/64 (dyadic: integer slopes keep every value exact).
        let vals: Vec<f64> = (0..=96).map(|k| k as f64 / 64.0).collect();
        let gaps = vals.len() - 1;
        let mut s = Slopes::new(&vals);
        let mut plain = vec![0.0f64; gaps];
        let (mut convex_caps, mut binding) = (0, 0);
        for step in 0..3000 {
            if step % 60 == 0 {
                s.reset();
                plain.iter_mut().for_each(|p| *p = 0.0);
            }
            let w = (1 + next(4)) as f64;
            let r = next(gaps + 1);
            s.add_all(w);
            s.prefix_add(r, -2.0 * w);
            for (k, p) in plain.iter_mut().enumerate() {
                *p += if k < r { -w } else { w };
            }
            if step % 3 == 0 {
                let (k, d) = (next(gaps), next(3) as f64);
                s.range_add(k, gaps, d);
                plain[k..].iter_mut().for_each(|p| *p += d);
            }
            let g: Vec<f64> = std::iter::once(0.0)
                .chain((0..gaps).scan(0.0, |acc, k| {
                    *acc += plain[k] * (vals[k + 1] - vals[k]);
                    Some(*acc)
                }))
                .collect();
            let gamma = match next(32) {
                0 => 1.0 / 8.0,
                1..=4 => 1000.0,
                _ => 0.0,
            };
            let (f, to) = plain_cap(&g, gamma);
            convex_caps += usize::from(s.convex);
            let mut walk = s.clone();
            walk.convex = false;
            for t in [&mut s, &mut walk] {
                let mut got = vec![None; gaps + 1];
                let (f0, runs) = cap(t, 0.0, gamma);
                for (lo, hi, target) in runs {
                    for k in lo..=hi {
                        got[k as usize] = Some(g[target as usize]);
                    }
                }
                assert_eq!(got, to, "step {step} gamma {gamma} capped ranks");
                for (k, &fk) in f.iter().enumerate() {
                    assert!(close(f0 + t.prefix(k), fk), "step {step} f({k})");
                }
            }
            binding += usize::from(f[0] < g[0]);
            for k in 0..gaps {
                plain[k] = (f[k + 1] - f[k]) / (vals[k + 1] - vals[k]);
            }
            check_nodes(&s, &plain, 0, 0, s.buckets, super::IDENTITY);
            if s.convex {
                // Known convex: the slopes are sorted and the root's min/max exact.
                assert!(plain.windows(2).all(|p| p[0] <= p[1]), "step {step}");
                assert_eq!(s.tree[0].mn, plain[0], "step {step}");
                assert_eq!(s.tree[0].mx, plain[gaps - 1], "step {step}");
            }
        }
        assert!(convex_caps > 1000, "the convex cap is not exercised");
        assert!(binding > 1000, "the caps never bind");
    }

    #[test]
    fn matches_a_plain_array_of_slopes() {
        let mut next = xorshift(0x9e37_79b9_7f4a_7c15u64);
        let mut vals = vec![0.0];
        for _ in 0..77 {
            let last = *vals.last().unwrap();
            vals.push(last + (1 + next(9)) as f64 / 64.0);
        }
        let gaps = vals.len() - 1;
        let mut s = Slopes::new(&vals);
        let mut plain = vec![0.0f64; gaps];
        let mut out = Vec::new();
        let mut capped_ranks = 0;
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
            // Dyadic penalties keep the plain cap exact too.
            for gamma in [0.0, 1.0 / 64.0, 0.25, 1.0, 1000.0] {
                let (f, to) = plain_cap(&prefix, gamma);
                let mut t = s.clone();
                let (f0, runs) = cap(&mut t, 0.0, gamma);
                assert!(close(f0, f[0]), "step {step} gamma {gamma} f(0)");
                for (k, &fk) in f.iter().enumerate() {
                    assert!(
                        close(f0 + t.prefix(k), fk),
                        "step {step} gamma {gamma} f({k})"
                    );
                }
                let mut got = vec![None; gaps + 1];
                for (lo, hi, target) in runs {
                    for k in lo..=hi {
                        got[k as usize] = Some(prefix[target as usize]);
                    }
                }
                assert_eq!(got, to, "step {step} gamma {gamma} capped ranks");
                capped_ranks += to.iter().flatten().count();
            }
        }
        assert!(capped_ranks > 10_000, "the cap is not exercised");
    }

    /// Caps and updates in turn on one structure, against plain values (rounding now
    /// creeps in, so values are compared within a tolerance).
    #[test]
    fn repeated_caps_match_plain_values() {
        let mut next = xorshift(0x2545_f491_4f6c_dd1du64);
        let vals: Vec<f64> = (0..=200).map(|k| (k as f64 / 200.0).powi(2)).collect();
        let gaps = vals.len() - 1;
        let mut s = Slopes::new(&vals);
        // g at every rank.
        let mut g = vec![0.0f64; gaps + 1];
        for step in 0..3000 {
            // w |x - v| with x = v_r, as the solver adds it.
            let (r, w) = (next(gaps + 1), (1 + next(8)) as f64 / 4.0);
            s.add_all(w);
            s.prefix_add(r, -2.0 * w);
            for (k, gk) in g.iter_mut().enumerate() {
                *gk += w * (vals[k] - vals[r]).abs();
            }
            let gamma = next(5) as f64 / 8.0;
            let (f, to) = plain_cap(&g, gamma);
            let (f0, runs) = cap(&mut s, g[0], gamma);
            let scale = 1.0 + g.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (k, &fk) in f.iter().enumerate() {
                let got = f0 + s.prefix(k);
                assert!(
                    (got - fk).abs() < 1e-9 * scale,
                    "step {step} f({k}) {got} vs {fk}"
                );
            }
            let mut got = vec![None; gaps + 1];
            for (lo, hi, target) in runs {
                for k in lo..=hi {
                    got[k as usize] = Some(g[target as usize]);
                }
            }
            let mut s_right = f64::INFINITY;
            for k in (0..=gaps).rev() {
                let margin = (g[k] - gamma - s_right).abs();
                match (got[k], to[k]) {
                    (Some(a), Some(b)) => assert!((a - b).abs() < 1e-9 * scale, "step {step} S"),
                    // Only a tie within rounding may go either way.
                    (None, None) => {}
                    _ => assert!(margin < 1e-9 * scale, "step {step} rank {k} capped?"),
                }
                s_right = s_right.min(g[k]);
            }
            g = f;
        }
    }

    /// Checks every tree node against the plain slopes under it: `mn` and `mx` bound
    /// them (prefix adds only widen them), `sum` is their sum (`op`: the ancestors'
    /// pending operation).
    fn check_nodes(s: &Slopes<'_>, plain: &[f64], node: usize, l: usize, r: usize, op: super::Op) {
        let t = &s.tree[node];
        let (gl, gr) = (s.gap(l), s.gap(r));
        let under = &plain[gl..gr];
        let lowest = under.iter().fold(f64::INFINITY, |m, &p| m.min(p));
        let highest = under.iter().fold(f64::NEG_INFINITY, |m, &p| m.max(p));
        let sum: f64 = (gl..gr)
            .map(|k| plain[k] * (s.vals[k + 1] - s.vals[k]))
            .sum();
        assert!(
            op.slope(t.mn) <= lowest + 1e-9,
            "node {node}: mn above the slopes"
        );
        assert!(
            op.slope(t.mx) >= highest - 1e-9,
            "node {node}: mx below the slopes"
        );
        assert!(
            (op.sum(t.sum, t.len) - sum).abs() < 1e-9,
            "node {node}: sum"
        );
        if r - l > 1 {
            let (a, b, mid) = super::kids(node, l, r);
            let op = op.after(t.lazy);
            check_nodes(s, plain, a, l, mid, op);
            check_nodes(s, plain, b, mid, r, op);
        }
    }

    /// Prefix adds (which leave the partly covered nodes' min/max slope as bounds)
    /// between caps and the other updates, against a plain array of slopes: the
    /// aggregates stay valid, pieces and `f` stay exact, and a bound left wide still
    /// means one slope when `mn == mx`.
    #[test]
    fn prefix_adds_keep_the_aggregates_valid() {
        let mut next = xorshift(0x5851_f42d_4c95_7f2du64);
        // 100 gaps of length 1/100: several levels of buckets.
        let vals: Vec<f64> = (0..=100).map(|k| k as f64 / 100.0).collect();
        let gaps = vals.len() - 1;
        let mut s = Slopes::new(&vals);
        let mut plain = vec![0.0f64; gaps];
        let mut out = Vec::new();
        let mut widened = 0;
        for step in 0..3000 {
            let c = next(9) as f64 - 4.0;
            let r = next(gaps + 1);
            match step % 4 {
                0 | 1 => {
                    // The solver's `w |x - v|`, integer slopes keep sums exact.
                    s.add_all(c.abs());
                    s.prefix_add(r, -2.0 * c.abs());
                    for (k, p) in plain.iter_mut().enumerate() {
                        *p += if k < r { -c.abs() } else { c.abs() };
                    }
                }
                2 => {
                    s.prefix_add(r, c);
                    plain[..r].iter_mut().for_each(|p| *p += c);
                }
                _ => {
                    let gamma = next(4) as f64 / 8.0;
                    let g: Vec<f64> = std::iter::once(0.0)
                        .chain((0..gaps).scan(0.0, |acc, k| {
                            *acc += plain[k] * (vals[k + 1] - vals[k]);
                            Some(*acc)
                        }))
                        .collect();
                    let (f, _) = plain_cap(&g, gamma);
                    let f0 = s.cap(0.0, gamma, |_, _, _| {});
                    for (k, &fk) in f.iter().enumerate() {
                        assert!((f0 + s.prefix(k) - fk).abs() < 1e-9, "step {step} f({k})");
                    }
                    for k in 0..gaps {
                        plain[k] = (f[k + 1] - f[k]) / (vals[k + 1] - vals[k]);
                    }
                }
            }
            check_nodes(&s, &plain, 0, 0, s.buckets, super::IDENTITY);
            widened +=
                usize::from(s.tree[0].mn < plain.iter().fold(f64::INFINITY, |m, &p| m.min(p)));
            // Each piece's slope is the plain slope on every gap it covers.
            s.pieces(&mut out);
            for (j, &(k, slope)) in out.iter().enumerate() {
                let end = out.get(j + 1).map_or(gaps, |p| p.0 as usize);
                for (g, p) in plain.iter().enumerate().take(end).skip(k as usize) {
                    assert!((p - slope).abs() < 1e-9, "step {step} gap {g} piece {k}");
                }
            }
        }
        assert!(widened > 100, "the prefix adds never left a bound wide");
    }
}
