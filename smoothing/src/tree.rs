//! Input validation and the shared tree layout (CSR children, BFS order, value ranks).

use crate::{SmoothError, Smoothed, NO_PARENT};

/// A validated problem: the tree in CSR form, a top-down order, and the scores
/// mapped to ranks among the distinct score values.
pub(crate) struct Problem<'a> {
    pub parent: &'a [usize],
    pub x: &'a [f64],
    pub w: &'a [f64],
    pub gamma: &'a [f64],
    pub root: usize,
    /// Nodes in breadth-first order from the root (parents before children).
    pub order: Vec<u32>,
    /// Distinct scores, ascending.
    pub vals: Vec<f64>,
    /// `rank[i]` is the index of `x[i]` in `vals`.
    pub rank: Vec<u32>,
}

impl<'a> Problem<'a> {
    /// Checks the input and builds the layout. Iterative; `O(n)` (the scores' radix
    /// sort; `O(n log n)` under 2,048 nodes).
    pub fn new(
        parent: &'a [usize],
        x: &'a [f64],
        w: &'a [f64],
        gamma: &'a [f64],
    ) -> Result<Option<Self>, SmoothError> {
        let n = parent.len();
        for (field, len) in [("x", x.len()), ("w", w.len()), ("gamma", gamma.len())] {
            if len != n {
                return Err(SmoothError::LengthMismatch {
                    field,
                    nodes: n,
                    len,
                });
            }
        }
        if n > u32::MAX as usize - 1 {
            // The fast solver stores node indices and ranks as u32.
            return Err(SmoothError::ParentOutOfRange {
                node: n - 1,
                parent: n,
                nodes: n,
            });
        }
        for i in 0..n {
            if !(0.0..=1.0).contains(&x[i]) {
                return Err(SmoothError::ScoreOutOfRange {
                    node: i,
                    value: x[i],
                });
            }
            if !(w[i].is_finite() && w[i] >= 0.0) {
                return Err(SmoothError::BadWeight {
                    node: i,
                    value: w[i],
                });
            }
            if !(gamma[i].is_finite() && gamma[i] >= 0.0) {
                return Err(SmoothError::BadPenalty {
                    node: i,
                    value: gamma[i],
                });
            }
        }
        if n == 0 {
            return Ok(None);
        }
        let mut root = None;
        let mut child_count = vec![0u32; n + 1];
        for (i, &p) in parent.iter().enumerate() {
            if p == NO_PARENT {
                if let Some(first) = root {
                    return Err(SmoothError::SeveralRoots { first, second: i });
                }
                root = Some(i);
            } else if p >= n {
                return Err(SmoothError::ParentOutOfRange {
                    node: i,
                    parent: p,
                    nodes: n,
                });
            } else {
                child_count[p] += 1;
            }
        }
        let root = root.ok_or(SmoothError::NoRoot { nodes: n })?;
        // CSR: prefix sums, then fill.
        let mut child_start = vec![0u32; n + 1];
        for i in 0..n {
            child_start[i + 1] = child_start[i] + child_count[i];
        }
        let mut fill = child_start.clone();
        let mut children = vec![0u32; n - 1];
        for (i, &p) in parent.iter().enumerate() {
            if p != NO_PARENT {
                children[fill[p] as usize] = i as u32;
                fill[p] += 1;
            }
        }
        drop(fill);
        drop(child_count);
        let mut order = Vec::with_capacity(n);
        order.push(root as u32);
        let mut head = 0;
        while head < order.len() {
            let v = order[head] as usize;
            head += 1;
            order
                .extend_from_slice(&children[child_start[v] as usize..child_start[v + 1] as usize]);
        }
        if order.len() != n {
            let mut seen = vec![false; n];
            for &v in &order {
                seen[v as usize] = true;
            }
            let node = seen.iter().position(|s| !s).unwrap_or(0);
            return Err(SmoothError::Cycle { node });
        }
        drop((children, child_start));
        let (vals, rank) = ranks(x);
        Ok(Some(Problem {
            parent,
            x,
            w,
            gamma,
            root,
            order,
            vals,
            rank,
        }))
    }

    pub fn n(&self) -> usize {
        self.parent.len()
    }

    /// Builds the output from ranks of the chosen values.
    pub fn finish(&self, y_rank: &[u32], cost: f64) -> Smoothed {
        let y: Vec<f64> = y_rank.iter().map(|&r| self.vals[r as usize]).collect();
        let segment_roots = segment_roots(self.parent, &y);
        Smoothed {
            y,
            segment_roots,
            cost,
        }
    }
}

/// The distinct scores ascending, and each score's index among them. Scores must lie in
/// `[0, 1]` (checked by the caller), where `-0.0` and `0.0` count as one score.
///
/// One sort of `(bits, node)` pairs and one pass: the bit patterns of non-negative
/// floats order like the floats, and the pass writes ranks directly instead of a binary
/// search per node (whose scattered reads cost more than the sort at 100k nodes).
/// `O(n)` time (a radix sort, [`sort_by_bits`]) from 2,048 scores, `O(n log n)` below;
/// `32 n` bytes of scratch.
fn ranks(x: &[f64]) -> (Vec<f64>, Vec<u32>) {
    // `+ 0.0` turns -0.0 into 0.0, whose bits would otherwise sort last.
    let mut keyed: Vec<(u64, u32)> = x
        .iter()
        .enumerate()
        .map(|(i, &xi)| ((xi + 0.0).to_bits(), i as u32))
        .collect();
    // Already sorted (a path of rising scores): one pass, where the radix sort would
    // make all of its passes.
    if keyed.is_sorted() {
    } else if keyed.len() < RADIX {
        keyed.sort_unstable();
    } else {
        sort_by_bits(&mut keyed);
    }
    let mut vals = Vec::new();
    let mut rank = vec![0u32; x.len()];
    let mut last = None;
    for &(bits, i) in &keyed {
        if last != Some(bits) {
            vals.push(f64::from_bits(bits));
            last = Some(bits);
        }
        rank[i as usize] = (vals.len() - 1) as u32;
    }
    drop(keyed);
    // Kept for the whole solve: give back the doubling slack.
    vals.shrink_to_fit();
    (vals, rank)
}

/// Bits per digit of [`sort_by_bits`]: 6 passes cover the 64 bits, and the counts
/// (16 KB per pass) stay in the first-level cache.
const DIGIT: u32 = 11;
const RADIX: usize = 1 << DIGIT;

/// Sorts by the key, stably: a least-significant-digit radix sort (6 passes of
/// [`DIGIT`] bits; a pass whose digit is the same for every key is skipped). At 100k
/// scores it does about a fifth of the instructions of `sort_unstable`, which was 4 to
/// 10% of the whole solve. `O(n)` time, one buffer of `n` pairs; the counts are on the
/// stack (48 KB).
fn sort_by_bits(keyed: &mut Vec<(u64, u32)>) {
    const PASSES: usize = 64_usize.div_ceil(DIGIT as usize);
    let digit = |key: u64, pass: usize| ((key >> (pass as u32 * DIGIT)) as usize) & (RADIX - 1);
    let n = keyed.len();
    let mut counts = [[0u32; RADIX]; PASSES];
    for &(key, _) in keyed.iter() {
        for (pass, count) in counts.iter_mut().enumerate() {
            count[digit(key, pass)] += 1;
        }
    }
    let mut other = vec![(0u64, 0u32); n];
    for (pass, count) in counts.iter_mut().enumerate() {
        if count[digit(keyed[0].0, pass)] as usize == n {
            continue;
        }
        // Each digit's first slot in the output.
        let mut at = 0;
        for c in count.iter_mut() {
            (*c, at) = (at, at + *c);
        }
        for &(key, i) in keyed.iter() {
            let d = digit(key, pass);
            other[count[d] as usize] = (key, i);
            count[d] += 1;
        }
        std::mem::swap(keyed, &mut other);
    }
}

/// Nodes whose value differs from their parent's, plus the root, ascending.
pub(crate) fn segment_roots(parent: &[usize], y: &[f64]) -> Vec<usize> {
    (0..parent.len())
        .filter(|&i| parent[i] == NO_PARENT || y[i] != y[parent[i]])
        .collect()
}

#[cfg(test)]
mod tests {
    use super::ranks;

    #[test]
    fn ranks_are_indices_among_the_distinct_scores() {
        let (vals, rank) = ranks(&[0.5, 0.0, 1.0, 0.5, 0.25, -0.0]);
        assert_eq!(vals, vec![0.0, 0.25, 0.5, 1.0]);
        assert_eq!(rank, vec![2, 0, 3, 2, 1, 0]);
    }

    /// Above the radix sort's threshold: scores with many shared digits (a coarse grid,
    /// so most passes move nothing and some are skipped) and exact ties, against a plain
    /// sort and deduplication.
    #[test]
    fn radix_sorted_ranks_match_a_plain_sort() {
        let mut state = 0x2545_f491_4f6c_dd1du64;
        let x: Vec<f64> = (0..5000)
            .map(|i| {
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                match i % 3 {
                    0 => (state % 97) as f64 / 96.0,
                    1 => (state >> 11) as f64 / (1u64 << 53) as f64,
                    _ => -0.0,
                }
            })
            .collect();
        let (vals, rank) = ranks(&x);
        let mut want: Vec<f64> = x.iter().map(|v| v + 0.0).collect();
        want.sort_by(f64::total_cmp);
        want.dedup();
        assert_eq!(vals, want);
        assert!(vals.len() > 1000 && vals[0] == 0.0 && vals[0].is_sign_positive());
        for (i, &r) in rank.iter().enumerate() {
            assert_eq!(vals[r as usize], x[i] + 0.0, "node {i}");
        }
    }

    #[test]
    fn one_distinct_score_has_rank_zero() {
        let (vals, rank) = ranks(&[0.75; 3]);
        assert_eq!(vals, vec![0.75]);
        assert_eq!(rank, vec![0, 0, 0]);
    }
}
