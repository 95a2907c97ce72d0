//! Clusters of near-duplicates: the connected components of the graph whose edges are the
//! near-duplicate pairs ([`super::duplicate_pairs`]), found with a union-find.
//!
//! Near-duplication is not transitive (A ~ B and B ~ C with A and C sharing fewer than
//! [`super::MIN_MATCHES`] hashes), so a cluster is every page reachable through pairs: A, B
//! and C form one cluster. A component does not depend on the order the pairs are joined in,
//! and each cluster is listed with its pages in input order and the clusters in the order of
//! their first page, so the result depends only on the input order (never on threads).

use super::Pair;

/// Disjoint sets over `0..n` (union by size, path halving).
#[derive(Debug, Clone)]
pub struct UnionFind {
    parent: Vec<usize>,
    size: Vec<usize>,
}

impl UnionFind {
    /// `n` singletons. O(n).
    pub fn new(n: usize) -> UnionFind {
        UnionFind {
            parent: (0..n).collect(),
            size: vec![1; n],
        }
    }

    /// The representative of `x`'s set (some member, fixed until the next [`union`]).
    ///
    /// [`union`]: UnionFind::union
    ///
    /// # Panics
    /// If `x` ≥ n.
    ///
    /// # Complexity
    /// Amortised O(α(n)), α the inverse Ackermann function.
    pub fn find(&mut self, mut x: usize) -> usize {
        while self.parent[x] != x {
            self.parent[x] = self.parent[self.parent[x]];
            x = self.parent[x];
        }
        x
    }

    /// Joins the sets of `a` and `b`; whether they were apart.
    ///
    /// # Complexity
    /// Amortised O(α(n)).
    pub fn union(&mut self, a: usize, b: usize) -> bool {
        let (mut a, mut b) = (self.find(a), self.find(b));
        if a == b {
            return false;
        }
        if self.size[a] < self.size[b] {
            std::mem::swap(&mut a, &mut b);
        }
        self.parent[b] = a;
        self.size[a] += self.size[b];
        true
    }
}

/// The clusters of `n` pages under the near-duplicate `pairs` (indices below `n`): every
/// connected component of two pages or more, its pages in increasing order, the clusters
/// ordered by their first page. A page in no pair is in no cluster.
///
/// # Panics
/// If a pair names a page ≥ `n`.
///
/// # Complexity
/// O(n + P·α(n)) time for P pairs, O(n) space besides the output.
pub fn clusters(n: usize, pairs: &[Pair]) -> Vec<Vec<usize>> {
    let mut sets = UnionFind::new(n);
    for p in pairs {
        sets.union(p.a, p.b);
    }
    // Pages in increasing order: a cluster is opened by its first page, so clusters come in
    // the order of their first pages and each lists its pages in order.
    let mut slot = vec![usize::MAX; n];
    let mut out: Vec<Vec<usize>> = Vec::new();
    for i in 0..n {
        let root = sets.find(i);
        if sets.size[root] < 2 {
            continue;
        }
        if slot[root] == usize::MAX {
            slot[root] = out.len();
            out.push(Vec::new());
        }
        out[slot[root]].push(i);
    }
    out
}

/// Which of `n` pages to keep under the near-duplicate `pairs`: the first page of each
/// cluster ([`clusters`]) and every page with no duplicate; with, per kept page, how many
/// pages of its cluster are dropped (0 for a page with no duplicate).
///
/// # Complexity
/// That of [`clusters`].
pub fn keep_first(n: usize, pairs: &[Pair]) -> Vec<Option<usize>> {
    let mut keep: Vec<Option<usize>> = vec![Some(0); n];
    for c in clusters(n, pairs) {
        keep[c[0]] = Some(c.len() - 1);
        for &i in &c[1..] {
            keep[i] = None;
        }
    }
    keep
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(a: usize, b: usize) -> Pair {
        Pair { a, b, matches: 4 }
    }

    #[test]
    fn a_chain_is_one_cluster() {
        // A~B, B~C (A and C not paired), D alone.
        let pairs = [pair(0, 1), pair(1, 2)];
        assert_eq!(clusters(4, &pairs), [vec![0, 1, 2]]);
        assert_eq!(keep_first(4, &pairs), [Some(2), None, None, Some(0)]);
    }

    #[test]
    fn clusters_come_in_order_of_their_first_page() {
        // {1, 4, 6} and {0, 5}: the second opens first; 2 and 3 are alone.
        let pairs = [pair(4, 6), pair(0, 5), pair(1, 4)];
        assert_eq!(clusters(7, &pairs), [vec![0, 5], vec![1, 4, 6]]);
        let kept: Vec<usize> = keep_first(7, &pairs)
            .iter()
            .enumerate()
            .filter_map(|(i, k)| k.map(|_| i))
            .collect();
        assert_eq!(kept, [0, 1, 2, 3]);
    }

    #[test]
    fn order_of_the_pairs_does_not_matter() {
        let mut pairs = vec![
            pair(0, 9),
            pair(2, 3),
            pair(3, 7),
            pair(7, 8),
            pair(1, 9),
            pair(5, 6),
        ];
        let want = clusters(10, &pairs);
        assert_eq!(want, [vec![0, 1, 9], vec![2, 3, 7, 8], vec![5, 6]]);
        // Every rotation and the reverse give the same clusters.
        for _ in 0..pairs.len() {
            pairs.rotate_left(1);
            assert_eq!(clusters(10, &pairs), want);
            let rev: Vec<Pair> = pairs.iter().rev().copied().collect();
            assert_eq!(clusters(10, &rev), want);
        }
    }

    #[test]
    fn union_find_joins_and_finds() {
        let mut s = UnionFind::new(5);
        assert!(s.union(0, 1));
        assert!(s.union(3, 4));
        assert!(!s.union(1, 0));
        assert!(s.union(1, 4));
        let r = s.find(0);
        assert!((0..5).filter(|&i| i != 2).all(|i| s.find(i) == r));
        assert_ne!(s.find(2), r);
        // No pairs: no clusters, every page kept.
        assert!(clusters(3, &[]).is_empty());
        assert_eq!(keep_first(3, &[]), [Some(0); 3]);
    }
}
