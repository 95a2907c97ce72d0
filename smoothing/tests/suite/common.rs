//! Shared helpers: result checks and tree generators.

use smoothing::{objective, Smoothed, NO_PARENT};

/// A problem instance.
#[derive(Debug, Clone)]
pub struct Case {
    pub parent: Vec<usize>,
    pub x: Vec<f64>,
    pub w: Vec<f64>,
    pub gamma: Vec<f64>,
}

/// Tolerance for comparing costs: 1e-9, relative for large costs.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * a.abs().max(b.abs()).max(1.0)
}

/// Checks the invariants every result must satisfy; panics with `what` on failure.
pub fn check(case: &Case, s: &Smoothed, what: &str) {
    let Case {
        parent,
        x,
        w,
        gamma,
    } = case;
    let n = parent.len();
    assert_eq!(s.y.len(), n, "{what}: y length");
    let mut sorted = x.clone();
    sorted.sort_by(f64::total_cmp);
    for (i, &pi) in parent.iter().enumerate() {
        assert!(
            sorted.binary_search_by(|v| v.total_cmp(&s.y[i])).is_ok(),
            "{what}: y[{i}] = {} is not a score",
            s.y[i]
        );
        if pi != NO_PARENT {
            assert!(
                s.y[pi] <= s.y[i],
                "{what}: not monotone on edge {pi} -> {i}"
            );
        }
    }
    let recomputed = objective(parent, x, w, gamma, &s.y);
    assert!(
        close(recomputed, s.cost),
        "{what}: cost {} but y costs {recomputed}",
        s.cost
    );
    let expected: Vec<usize> = (0..n)
        .filter(|&i| parent[i] == NO_PARENT || s.y[i] != s.y[parent[i]])
        .collect();
    assert_eq!(s.segment_roots, expected, "{what}: segment roots");
}

/// A small deterministic generator (SplitMix64), so tests need no extra crate.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `[0, 1)`.
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in `0..n`.
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// A chain `0 -> 1 -> ... -> n-1` rooted at 0.
pub fn chain_parents(n: usize) -> Vec<usize> {
    (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { i - 1 })
        .collect()
}

/// A classifier-like score: mostly near 0 or 1, with noise.
pub fn classifier_score(rng: &mut Rng) -> f64 {
    let base = if rng.f64() < 0.5 { 0.05 } else { 0.9 };
    (base + 0.1 * (rng.f64() - 0.5)).clamp(0.0, 1.0)
}
