//! Gradient-boosted decision trees: the node classifier that replaces the paper's per-bucket
//! logistic regressions when it measures better (`pagelevel train --classifier boost`).
//!
//! - **Model.** `z = base + Σ_t leaf_t(row)`, score `σ(z)`. Every tree is *complete* of depth
//!   `d`: its `2^d − 1` split nodes are stored level by level (children of node k are 2k+1 and
//!   2k+2), so a row reaches its leaf with `d` compare-and-shift steps and no pointer chasing.
//!   A node that found no useful split gets threshold `f32::MAX`, sending every row left.
//! - **Training.** Logistic loss (targets in [0, 1], so soft targets too), second-order (Newton) leaf values, depth-wise growth on
//!   quantile histograms (at most [`MAX_BINS`] bins per feature), L2 leaf regularisation λ,
//!   a minimum hessian per child, shrinkage η, and seeded row and column subsampling per tree
//!   (a tree splits only on its share of the features, so no few columns carry the model).
//!   Histograms are built per feature in parallel; each feature's sum runs in sample order,
//!   so the model is identical for any thread count.
//!
//! Thresholds are raw feature values taken from the training samples and rows go right when
//! `value > threshold`, so inference needs no binning; batched scoring compares
//! order-preserving integer images of the values ([`value_key`]), which decide alike.
//!
//! A hand-written learner rather than a crate: the model must be byte-reproducible from
//! `pagelevel train`, embedded as small JSON, and scored in a few hundred nanoseconds per node
//! inside the pipeline; the few hundred lines below do exactly that and nothing else.

use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// Most histogram bins per feature.
pub const MAX_BINS: usize = 64;

/// Settings of a boosting run, one line each.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct BoostParams {
    /// Number of trees.
    pub trees: usize,
    /// Depth of every tree (`2^depth` leaves).
    pub depth: u32,
    /// Shrinkage η applied to every leaf value.
    pub learning_rate: f32,
    /// L2 regularisation λ of the leaf values.
    pub lambda: f64,
    /// Smallest hessian sum allowed in a child (≈ samples × p(1−p)).
    pub min_child_hessian: f64,
    /// Share of the samples each tree sees (seeded, without replacement).
    pub subsample: f64,
    /// Share of the features each tree may split on (seeded per tree; 1 = all).
    pub colsample: f64,
    /// Seed of the row subsampling.
    pub seed: u64,
}

impl Default for BoostParams {
    fn default() -> Self {
        BoostParams {
            trees: 120,
            depth: 5,
            learning_rate: 0.125,
            lambda: 1.0,
            min_child_hessian: 1.0,
            subsample: 0.5,
            colsample: 1.0,
            seed: 0x0b00_57ed,
        }
    }
}

impl BoostParams {
    /// The parameters of a stacked model's second stage: `trees` trees of `depth`, with this
    /// stage's learning rate, subsample and seed, and the default λ and min child hessian.
    pub fn second_stage(&self, trees: usize, depth: u32) -> BoostParams {
        BoostParams {
            trees,
            depth,
            learning_rate: self.learning_rate,
            subsample: self.subsample,
            colsample: self.colsample,
            seed: self.seed,
            ..BoostParams::default()
        }
    }
}

/// A trained ensemble of complete trees.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Forest {
    /// Depth of every tree.
    pub depth: u32,
    /// Initial log-odds.
    pub base: f32,
    /// Split feature per split node, tree after tree (`trees · (2^depth − 1)` values); an
    /// index into the model's feature list.
    pub feature: Vec<u16>,
    /// Split threshold per split node: rows with `value > threshold` go right.
    pub threshold: Vec<f32>,
    /// Leaf value (already shrunk) per leaf, tree after tree (`trees · 2^depth` values).
    pub leaf: Vec<f32>,
    /// `feature` resolved to row indices by [`Forest::resolve`].
    #[serde(skip)]
    pub column: Vec<u16>,
    /// The split nodes as (threshold key, row index) pairs, built by [`Forest::resolve`]: one
    /// load per step of a descent instead of two from separate arrays.
    #[serde(skip)]
    split: Vec<Split>,
    /// One more than the largest row index a split reads: rows must be at least this long.
    #[serde(skip)]
    row_len: usize,
}

/// One split node, laid out for scoring.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
struct Split {
    /// [`threshold_key`] of the threshold.
    key: u32,
    /// The split's value in a [`Forest::margins`] batch: `column · LANES`, to which a lane
    /// adds its index.
    offset: u32,
}

impl Forest {
    /// Number of trees.
    pub fn trees(&self) -> usize {
        self.leaf.len() >> self.depth
    }

    /// Checks the shapes and maps each split's feature (an index into `columns`) to its row
    /// index.
    ///
    /// # Errors
    /// A message naming what does not fit.
    pub fn resolve(&mut self, columns: &[usize]) -> Result<(), String> {
        if self.depth == 0 || self.depth > 16 {
            return Err(format!("tree depth {} is not in 1..=16", self.depth));
        }
        let splits = (1usize << self.depth) - 1;
        let trees = self.trees();
        if self.leaf.len() != trees << self.depth
            || self.feature.len() != trees * splits
            || self.threshold.len() != trees * splits
        {
            return Err("forest arrays do not match its depth".into());
        }
        self.column = self
            .feature
            .iter()
            .map(|&j| columns.get(j as usize).map(|&c| c as u16))
            .collect::<Option<Vec<u16>>>()
            .ok_or("a split uses a feature the model does not list")?;
        self.split = self
            .threshold
            .iter()
            .zip(&self.column)
            .map(|(&threshold, &c)| Split {
                key: threshold_key(threshold),
                offset: c as u32 * LANES as u32,
            })
            .collect();
        self.row_len = self
            .column
            .iter()
            .map(|&c| c as usize + 1)
            .max()
            .unwrap_or(0);
        Ok(())
    }

    /// The log-odds of one feature row (full row, indexed by [`Forest::column`]).
    ///
    /// # Complexity
    /// O(trees · depth).
    #[inline]
    pub fn margin(&self, row: &[f32]) -> f32 {
        let splits = (1usize << self.depth) - 1;
        let mut z = self.base;
        for t in 0..self.trees() {
            let (cols, ths) = (
                &self.column[t * splits..(t + 1) * splits],
                &self.threshold[t * splits..(t + 1) * splits],
            );
            let mut k = 0usize;
            for _ in 0..self.depth {
                k = 2 * k + 1 + (row[cols[k] as usize] > ths[k]) as usize;
            }
            z += self.leaf[(t << self.depth) + k - splits];
        }
        z
    }

    /// The log-odds of up to [`LANES`] rows at once, into `out[..rows.len()]`: the same sums
    /// as [`Forest::margin`], but the rows' descents are independent, so their loads overlap
    /// instead of waiting on one another (one descent is a chain of dependent loads). Short
    /// batches repeat their last row, so every loop has a constant trip count and unrolls.
    ///
    /// The rows are first copied column by column into `scratch` as [`value_key`]s (lane j of
    /// column c at `c · LANES + j`): a lane's value is then one load at a constant distance
    /// from one base pointer, where eight separate row pointers do not fit in the registers
    /// beside the eight descents and were reloaded from the stack at every step.
    ///
    /// # Complexity
    /// O(trees · depth · LANES), plus O(columns · LANES) for the copy.
    pub(crate) fn margins(&self, rows: &[&[f32]], out: &mut [f32], scratch: &mut Vec<u32>) {
        debug_assert!(!rows.is_empty() && rows.len() <= LANES && out.len() >= rows.len());
        let r = rows.len();
        let width = self.row_len;
        scratch.resize(width * LANES, 0);
        let vals = &mut scratch[..width * LANES];
        let lanes: [&[f32]; LANES] = std::array::from_fn(|j| &rows[j.min(r - 1)][..width]);
        write_columns(vals, &lanes);
        self.margins_columns(vals, out, r);
    }

    /// [`Forest::margins`] of a batch already laid out column by column, as [`value_key`]s
    /// (lane j of column c at `c · LANES + j`; lanes from `r` on are ignored), into
    /// `out[..r]`: callers that assemble rows themselves write them there directly instead of
    /// copying them twice.
    ///
    /// # Panics
    /// When `vals` is shorter than [`Forest::row_len`] · [`LANES`].
    ///
    /// # Complexity
    /// O(trees · depth · LANES).
    pub(crate) fn margins_columns(&self, vals: &[u32], out: &mut [f32], r: usize) {
        // The one check that makes the unchecked reads in `sums` sound: every split reads
        // inside the batch.
        assert!(vals.len() >= self.row_len * LANES, "batch too short");
        let z = self.sums(vals);
        out[..r].copy_from_slice(&z[..r]);
    }

    /// The margins of the [`LANES`] lanes of a checked batch (see
    /// [`Forest::margins_columns`]). Every lane starts at the root, so its split is loaded
    /// once and the first level compares adjacent values; the sums are added in the same
    /// order as [`Forest::margin`].
    ///
    /// # Complexity
    /// O(trees · depth · LANES).
    #[inline]
    fn sums(&self, vals: &[u32]) -> [f32; LANES] {
        let depth = self.depth;
        let splits = (1usize << depth) - 1;
        let mut z = [self.base; LANES];
        for (nodes, leaves) in self
            .split
            .chunks_exact(splits)
            .zip(self.leaf.chunks_exact(1 << depth))
        {
            let root = nodes[0];
            let first = &vals[root.offset as usize..][..LANES];
            let mut k: [usize; LANES] = std::array::from_fn(|j| 1 + (first[j] > root.key) as usize);
            for _ in 1..depth {
                for (j, kj) in k.iter_mut().enumerate() {
                    // SAFETY: *kj < 2^level − 1 + 2^level ≤ splits = nodes.len() before the
                    // last level's step, and s.offset + j = column · LANES + j with
                    // column < row_len, so inside vals (checked by the caller).
                    let s = unsafe { *nodes.get_unchecked(*kj) };
                    let v = unsafe { *vals.get_unchecked(s.offset as usize + j) };
                    *kj = 2 * *kj + 1 + (v > s.key) as usize;
                }
            }
            for j in 0..LANES {
                z[j] += leaves[k[j] - splits];
            }
        }
        z
    }

    /// One more than the largest row index a split reads: how wide a batch
    /// [`Forest::margins_columns`] reads.
    pub(crate) fn row_len(&self) -> usize {
        self.row_len
    }
}

/// An order-preserving image of a feature value as an integer: `value_key(v) >
/// threshold_key(t)` exactly when `v > t`, for any `v` and `t` (±0 are one value, and NaN
/// is never greater, so it goes left as the float comparison sends it). Descents compare
/// these: an integer load and compare is a shorter dependent chain than a float one. O(1).
#[inline]
pub fn value_key(v: f32) -> u32 {
    // Adding +0 turns −0 into +0; the sign-magnitude bits then map to an ascending order
    // (negatives inverted, positives above them). Branch-free, so batch copies vectorise.
    let b = (v + 0.0).to_bits();
    let k = b ^ (((b as i32 >> 31) as u32) | 0x8000_0000);
    if v.is_nan() {
        0
    } else {
        k
    }
}

/// Writes `lanes` column by column as [`value_key`]s: lane j's value of column c at
/// `out[c · LANES + j]`, for the `out.len() / LANES` columns (every lane at least that long).
/// O(columns · LANES).
#[inline]
pub(crate) fn write_columns(out: &mut [u32], lanes: &[&[f32]; LANES]) {
    // Each lane cut to the column count once, so the copy has no bounds checks left.
    let lanes: [&[f32]; LANES] = std::array::from_fn(|j| &lanes[j][..out.len() / LANES]);
    for (c, column) in out.chunks_exact_mut(LANES).enumerate() {
        for (v, row) in column.iter_mut().zip(&lanes) {
            *v = value_key(row[c]);
        }
    }
}

/// [`value_key`] for a split's threshold: a NaN threshold sends every row left. O(1).
pub(crate) fn threshold_key(t: f32) -> u32 {
    if t.is_nan() {
        u32::MAX
    } else {
        value_key(t)
    }
}

/// Rows scored together by [`Forest::margins`].
pub(crate) const LANES: usize = 8;

/// Training data for [`fit`]: `rows[i]` holds sample i's values of the model's features.
pub struct Samples<'a> {
    /// Feature values per sample (all the same length).
    pub rows: &'a [Vec<f32>],
    /// Target per sample in [0, 1]: 1 = template, 0 = content; a value between is a soft
    /// target (the logistic loss's minimum is at p = target).
    pub targets: &'a [f32],
    /// Weight per sample.
    pub weights: &'a [f32],
}

/// Per feature, ascending cut values; bin b of a value is the number of cuts below it.
fn cuts_of(rows: &[Vec<f32>], k: usize) -> Vec<f32> {
    let mut v: Vec<f32> = rows.iter().map(|r| r[k]).collect();
    v.sort_by(f32::total_cmp);
    v.dedup();
    // The largest value is never a cut: nothing would go right of it.
    v.pop();
    if v.len() < MAX_BINS {
        return v;
    }
    let mut cuts: Vec<f32> = (1..MAX_BINS)
        .map(|q| v[(q * v.len() / MAX_BINS).min(v.len() - 1)])
        .collect();
    cuts.dedup();
    cuts
}

/// Fits a forest by gradient boosting on the logistic loss.
///
/// # Complexity
/// O(trees · depth · s · k) for s (subsampled) samples and k features, plus O(n · k log n)
/// for the cuts; memory O(n · k) bytes of bins.
pub fn fit(data: &Samples<'_>, params: &BoostParams) -> Forest {
    let n = data.rows.len();
    let k = data.rows.first().map_or(0, Vec::len);
    let depth = params.depth.clamp(1, 16);
    let splits = (1usize << depth) - 1;
    let cuts: Vec<Vec<f32>> = (0..k)
        .into_par_iter()
        .map(|j| cuts_of(data.rows, j))
        .collect();
    // Column-major bins, so a feature's histogram reads one contiguous column.
    let bins: Vec<Vec<u8>> = (0..k)
        .into_par_iter()
        .map(|j| {
            let c = &cuts[j];
            data.rows
                .iter()
                .map(|r| c.partition_point(|&x| x < r[j]) as u8)
                .collect()
        })
        .collect();
    let (mut wp, mut wn) = (0.0f64, 0.0f64);
    for i in 0..n {
        let (w, y) = (data.weights[i], data.targets[i]);
        wp += (w * y) as f64;
        wn += (w * (1.0 - y)) as f64;
    }
    let base = if wp > 0.0 && wn > 0.0 {
        (wp / wn).ln() as f32
    } else {
        0.0
    };
    let mut margin = vec![base; n];
    let mut forest = Forest {
        depth,
        base,
        feature: Vec::with_capacity(params.trees * splits),
        threshold: Vec::with_capacity(params.trees * splits),
        leaf: Vec::with_capacity(params.trees << depth),
        column: Vec::new(),
        split: Vec::new(),
        row_len: 0,
    };
    let mut grad = vec![0.0f32; n];
    let mut hess = vec![0.0f32; n];
    let mut rng = params.seed | 1;
    let take = ((n as f64 * params.subsample.clamp(0.0, 1.0)).ceil() as usize).clamp(1, n.max(1));
    // Columns are drawn from their own stream, so that all columns (the default) leave the
    // row draws, and so the model, as they were.
    let mut col_rng = (params.seed ^ 0x9e37_79b9_7f4a_7c15) | 1;
    let col_take =
        ((k as f64 * params.colsample.clamp(0.0, 1.0)).ceil() as usize).clamp(1, k.max(1));
    let mut allowed = vec![true; k];
    let mut cols: Vec<usize> = Vec::with_capacity(k);
    for _ in 0..params.trees {
        if col_take < k {
            cols.clear();
            cols.extend(0..k);
            draw_front(&mut cols, col_take, &mut col_rng);
            allowed.iter_mut().for_each(|a| *a = false);
            cols[..col_take].iter().for_each(|&c| allowed[c] = true);
        }
        for i in 0..n {
            let p = 1.0 / (1.0 + (-margin[i]).exp());
            let w = data.weights[i];
            grad[i] = w * (p - data.targets[i]);
            hess[i] = (w * p * (1.0 - p)).max(1e-6 * w);
        }
        // The tree's rows, in ascending order.
        let mut rows: Vec<u32> = (0..n as u32).collect();
        if take < n {
            draw_front(&mut rows, take, &mut rng);
            rows.truncate(take);
            rows.sort_unstable();
        }
        let (features, thresholds, leaves) =
            grow(&rows, &bins, &cuts, &allowed, &grad, &hess, depth, params);
        // Every sample (not only the subsample) moves by its leaf.
        margin.par_iter_mut().enumerate().for_each(|(i, m)| {
            let mut node = 0usize;
            for _ in 0..depth {
                let f = features[node] as usize;
                node = 2 * node + 1 + (data.rows[i][f] > thresholds[node]) as usize;
            }
            *m += leaves[node - splits];
        });
        forest.feature.extend_from_slice(&features);
        forest.threshold.extend_from_slice(&thresholds);
        forest.leaf.extend_from_slice(&leaves);
    }
    forest
}

/// Moves a seeded uniform draw of `take` of `items` to their front: a partial Fisher–Yates
/// shuffle on the xorshift64 stream `rng` (its state must not be 0), the same draws on every
/// run and platform. O(take).
fn draw_front<T>(items: &mut [T], take: usize, rng: &mut u64) {
    for i in 0..take {
        *rng ^= *rng << 13;
        *rng ^= *rng >> 7;
        *rng ^= *rng << 17;
        let j = i + (*rng % (items.len() - i) as u64) as usize;
        items.swap(i, j);
    }
}

/// Grows one complete tree of `depth` levels on `rows`, splitting on the `allowed` features;
/// returns its split features, thresholds and shrunk leaf values.
#[allow(clippy::too_many_arguments)]
fn grow(
    rows: &[u32],
    bins: &[Vec<u8>],
    cuts: &[Vec<f32>],
    allowed: &[bool],
    grad: &[f32],
    hess: &[f32],
    depth: u32,
    params: &BoostParams,
) -> (Vec<u16>, Vec<f32>, Vec<f32>) {
    let splits = (1usize << depth) - 1;
    let mut features = vec![0u16; splits];
    let mut thresholds = vec![f32::MAX; splits];
    // The rows of each node of the current level, as ranges of one permutation.
    let mut order: Vec<u32> = rows.to_vec();
    let mut ranges: Vec<(usize, usize)> = vec![(0, order.len())];
    for level in 0..depth {
        let first = (1usize << level) - 1;
        let mut next = Vec::with_capacity(ranges.len() * 2);
        for (slot, &(lo, hi)) in ranges.iter().enumerate() {
            let node = first + slot;
            let members = &order[lo..hi];
            let best = best_split(members, bins, allowed, grad, hess, params);
            let mid = match best {
                Some((f, b)) => {
                    features[node] = f as u16;
                    thresholds[node] = cuts[f][b];
                    // Stable partition: left (bin ≤ b) then right, each in ascending order.
                    let col = &bins[f];
                    let (mut left, mut right): (Vec<u32>, Vec<u32>) = members
                        .iter()
                        .partition(|&&i| col[i as usize] as usize <= b);
                    let m = lo + left.len();
                    left.append(&mut right);
                    order[lo..hi].copy_from_slice(&left);
                    m
                }
                None => hi,
            };
            next.push((lo, mid));
            next.push((mid, hi));
        }
        ranges = next;
    }
    let leaves = ranges
        .iter()
        .map(|&(lo, hi)| {
            let (g, h) = order[lo..hi].iter().fold((0.0f64, 0.0f64), |(g, h), &i| {
                (g + grad[i as usize] as f64, h + hess[i as usize] as f64)
            });
            (-g / (h + params.lambda)) as f32 * params.learning_rate
        })
        .collect();
    (features, thresholds, leaves)
}

/// The best (feature, last left bin) of a node among the `allowed` features, or `None` when
/// no split gains.
fn best_split(
    members: &[u32],
    bins: &[Vec<u8>],
    allowed: &[bool],
    grad: &[f32],
    hess: &[f32],
    params: &BoostParams,
) -> Option<(usize, usize)> {
    if members.len() < 2 {
        return None;
    }
    let (gt, ht) = members.iter().fold((0.0f64, 0.0f64), |(g, h), &i| {
        (g + grad[i as usize] as f64, h + hess[i as usize] as f64)
    });
    let lambda = params.lambda;
    let parent = gt * gt / (ht + lambda);
    let per_feature: Vec<Option<(f64, usize)>> = bins
        .par_iter()
        .zip(allowed)
        .map(|(col, &allowed)| {
            if !allowed {
                return None;
            }
            let mut hg = [0.0f64; MAX_BINS + 1];
            let mut hh = [0.0f64; MAX_BINS + 1];
            for &i in members {
                let b = col[i as usize] as usize;
                hg[b] += grad[i as usize] as f64;
                hh[b] += hess[i as usize] as f64;
            }
            let (mut gl, mut hl) = (0.0, 0.0);
            let mut best: Option<(f64, usize)> = None;
            for b in 0..MAX_BINS {
                gl += hg[b];
                hl += hh[b];
                let (gr, hr) = (gt - gl, ht - hl);
                if hl < params.min_child_hessian || hr < params.min_child_hessian {
                    continue;
                }
                let gain = gl * gl / (hl + lambda) + gr * gr / (hr + lambda) - parent;
                if gain > best.map_or(1e-9, |b| b.0) {
                    best = Some((gain, b));
                }
            }
            best
        })
        .collect();
    let mut best: Option<(f64, usize, usize)> = None;
    for (f, c) in per_feature.iter().enumerate() {
        if let Some((gain, b)) = *c {
            if gain > best.map_or(0.0, |x| x.0) {
                best = Some((gain, f, b));
            }
        }
    }
    best.map(|(_, f, b)| (f, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resolved(mut f: Forest, k: usize) -> Forest {
        f.resolve(&(0..k).collect::<Vec<_>>()).unwrap();
        f
    }

    #[test]
    fn keys_compare_as_the_floats_do() {
        let specials = [
            f32::NEG_INFINITY,
            f32::MIN,
            -1.5,
            -f32::MIN_POSITIVE,
            -1e-45,
            -0.0,
            0.0,
            1e-45,
            f32::MIN_POSITIVE,
            0.5,
            1.0,
            f32::MAX,
            f32::INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        for &v in &specials {
            for &t in &specials {
                assert_eq!(
                    value_key(v) > threshold_key(t),
                    v > t,
                    "value {v:?} against threshold {t:?}"
                );
            }
        }
        // Worked by hand: +0 and −0 are one key; 1.0 is 0x3F80_0000 with the sign bit set;
        // −1.0 is 0xBF80_0000 inverted.
        assert_eq!(value_key(0.0), 0x8000_0000);
        assert_eq!(value_key(-0.0), 0x8000_0000);
        assert_eq!(value_key(1.0), 0xBF80_0000);
        assert_eq!(value_key(-1.0), 0x407F_FFFF);
        assert_eq!(value_key(f32::NAN), 0);
        assert_eq!(threshold_key(f32::NAN), u32::MAX);
    }

    proptest::proptest! {
        #[test]
        fn keys_keep_the_order_of_any_bits(a: u32, b: u32) {
            let (v, t) = (f32::from_bits(a), f32::from_bits(b));
            proptest::prop_assert_eq!(value_key(v) > threshold_key(t), v > t);
        }
    }

    /// The forest `params` fits to hard `labels` (targets 0 or 1) of unit weight.
    fn fit_labels(rows: &[Vec<f32>], labels: &[bool], params: &BoostParams) -> Forest {
        let weights = vec![1.0; rows.len()];
        let targets: Vec<f32> = labels.iter().map(|&y| y as u8 as f32).collect();
        let data = Samples {
            rows,
            targets: &targets,
            weights: &weights,
        };
        fit(&data, params)
    }

    #[test]
    fn one_stump_by_hand() {
        // Depth-1 tree on feature 1 at 0.5: left leaf −1, right leaf +2, base 0.25.
        let f = resolved(
            Forest {
                depth: 1,
                base: 0.25,
                feature: vec![1],
                threshold: vec![0.5],
                leaf: vec![-1.0, 2.0],
                column: vec![],
                split: vec![],
                row_len: 0,
            },
            2,
        );
        assert_eq!(f.margin(&[9.0, 0.5]), -0.75);
        assert_eq!(f.margin(&[9.0, 0.6]), 2.25);
    }

    #[test]
    fn learns_an_interaction_a_linear_model_cannot() {
        // Template iff exactly one of two features is high (XOR): depth 2 trees separate it.
        let mut rows = Vec::new();
        let mut labels = Vec::new();
        for i in 0..2000u32 {
            let a = (i % 10) as f32 / 10.0;
            let b = ((i / 10) % 10) as f32 / 10.0;
            let noise = ((i * 7919) % 13) as f32;
            rows.push(vec![a, b, noise]);
            labels.push((a > 0.45) != (b > 0.45));
        }
        let params = BoostParams {
            trees: 30,
            depth: 2,
            learning_rate: 0.5,
            subsample: 1.0,
            ..BoostParams::default()
        };
        let f = resolved(fit_labels(&rows, &labels, &params), 3);
        let correct = rows
            .iter()
            .zip(&labels)
            .filter(|(r, &y)| (f.margin(r) > 0.0) == y)
            .count();
        assert_eq!(correct, rows.len());
    }

    #[test]
    fn column_subsampling_gives_each_tree_its_share_of_the_features() {
        // Four independent features (a hash of row and column), each able to split (the label
        // reads all four), a third of them a tree: ⌈4 / 3⌉ = 2 features per tree, drawn anew
        // for each tree.
        let cell = |i: u32, j: u32| {
            let h = (i.wrapping_mul(0x9e37_79b9) ^ j.wrapping_mul(0x85eb_ca6b))
                .wrapping_mul(0xc2b2_ae35);
            ((h >> 16) % 13) as f32
        };
        let rows: Vec<Vec<f32>> = (0..800u32)
            .map(|i| (0..4).map(|j| cell(i, j)).collect())
            .collect();
        let labels: Vec<bool> = rows.iter().map(|r| r.iter().sum::<f32>() > 24.0).collect();
        let p = BoostParams {
            trees: 20,
            depth: 3,
            colsample: 1.0 / 3.0,
            ..BoostParams::default()
        };
        let f = fit_labels(&rows, &labels, &p);
        let mut seen = std::collections::BTreeSet::new();
        for t in 0..f.trees() {
            let used: std::collections::BTreeSet<u16> = (t * 7..(t + 1) * 7)
                .filter(|&s| f.threshold[s] != f32::MAX)
                .map(|s| f.feature[s])
                .collect();
            assert!(used.len() <= 2, "tree {t} splits on {used:?}");
            seen.extend(used);
        }
        // Across trees every feature gets its turn.
        assert_eq!(seen.len(), 4);
    }

    #[test]
    fn deterministic_for_any_thread_count() {
        let rows: Vec<Vec<f32>> = (0..3000u32)
            .map(|i| vec![(i % 17) as f32, ((i * 31) % 101) as f32, (i % 5) as f32])
            .collect();
        let labels: Vec<bool> = rows
            .iter()
            .map(|r| r[0] * 3.0 + r[2] > r[1] / 4.0)
            .collect();
        let weights: Vec<f32> = labels.iter().map(|&y| if y { 1.5 } else { 0.7 }).collect();
        let targets: Vec<f32> = labels.iter().map(|&y| y as u8 as f32).collect();
        let data = Samples {
            rows: &rows,
            targets: &targets,
            weights: &weights,
        };
        let p = BoostParams {
            trees: 8,
            ..BoostParams::default()
        };
        let one = rayon::ThreadPoolBuilder::new()
            .num_threads(1)
            .build()
            .unwrap()
            .install(|| fit(&data, &p));
        let two = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap()
            .install(|| fit(&data, &p));
        assert_eq!(one, two);
        assert_eq!(one.trees(), 8);
    }

    #[test]
    fn soft_targets_are_fitted_as_probabilities() {
        // Two groups told apart by feature 0, each with targets averaging 0.2 (left) and 0.8
        // (right) under equal weights. The base is ln(Σwy / Σw(1−y)) = ln(1/1) = 0; the
        // logistic loss's minimum in each group is p = its mean target, so with λ = 0 and
        // enough trees the margins reach logit(0.2) = −ln 4 and logit(0.8) = ln 4.
        let mut rows = Vec::new();
        let mut targets = Vec::new();
        for i in 0..200u32 {
            let right = i % 2 == 1;
            rows.push(vec![right as u8 as f32]);
            // 0.1 and 0.3 alternate within a group (mean 0.2); the right group mirrors it.
            let t = if i % 4 < 2 { 0.1 } else { 0.3 };
            targets.push(if right { 1.0 - t } else { t });
        }
        let weights = vec![1.0; rows.len()];
        let data = Samples {
            rows: &rows,
            targets: &targets,
            weights: &weights,
        };
        let params = BoostParams {
            trees: 60,
            depth: 1,
            learning_rate: 0.5,
            lambda: 0.0,
            subsample: 1.0,
            ..BoostParams::default()
        };
        let f = resolved(fit(&data, &params), 1);
        assert!(f.base.abs() < 1e-6, "{}", f.base);
        let ln4 = 4f32.ln();
        assert!(
            (f.margin(&[0.0]) + ln4).abs() < 1e-3,
            "{}",
            f.margin(&[0.0])
        );
        assert!(
            (f.margin(&[1.0]) - ln4).abs() < 1e-3,
            "{}",
            f.margin(&[1.0])
        );
    }

    #[test]
    fn soft_base_is_the_weighted_target_odds() {
        // One constant feature offers no split: the forest is its base,
        // ln(Σ w·y / Σ w·(1−y)).
        let rows = vec![vec![1.0f32]; 3];
        let fit_base = |targets: &[f32], weights: &[f32]| {
            let data = Samples {
                rows: &rows,
                targets,
                weights,
            };
            fit(&data, &BoostParams::default()).base
        };
        // (0.25 + 0.25 + 1) / (0.75 + 0.75 + 0) = 1.
        assert_eq!(fit_base(&[0.25, 0.25, 1.0], &[1.0, 1.0, 1.0]), 0.0);
        // (1·0.25 + 3·1 + 0) / (1·0.75 + 0 + 0) = 13/3.
        let b = fit_base(&[0.25, 1.0, 0.25], &[1.0, 3.0, 0.0]);
        assert!((b - (13.0f32 / 3.0).ln()).abs() < 1e-6, "{b}");
        // Three samples of target 0.3: 0.9 / 2.1.
        let b = fit_base(&[0.3, 0.3, 0.3], &[1.0, 1.0, 1.0]);
        assert!((b - (0.3f32 / 0.7).ln()).abs() < 1e-6, "{b}");
    }

    #[test]
    fn resolve_rejects_bad_shapes() {
        let mut f = Forest {
            depth: 2,
            base: 0.0,
            feature: vec![0, 0],
            threshold: vec![0.0; 3],
            leaf: vec![0.0; 4],
            column: vec![],
            split: vec![],
            row_len: 0,
        };
        assert!(f.resolve(&[0]).is_err());
        f.feature.push(5);
        assert!(f.resolve(&[0]).is_err());
    }
}
