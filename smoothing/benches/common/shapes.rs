//! Synthetic trees shared by the bench and the `profile` example.
//!
//! Every shape is deterministic in `(n, seed)`. Weights are uniform in `[0.5, 1.5)`
//! (like text lengths) and penalties uniform in `[0.5, 1.5)`.

#![allow(dead_code)]

use smoothing::NO_PARENT;

/// A problem instance.
pub struct Tree {
    pub parent: Vec<usize>,
    pub x: Vec<f64>,
    pub w: Vec<f64>,
    pub gamma: Vec<f64>,
}

/// The bench shapes, by name.
pub const SHAPES: [&str; 3] = ["random", "dom", "chain"];

/// Adversarial paths for the segment tree, by name: scores rising with no penalty
/// (every node its own segment), one huge segment (`gamma = 1e9`), uniform scores.
pub const ADVERSARIAL: [&str; 3] = ["chain-sorted", "chain-one-segment", "chain-uniform"];

/// Builds shape `name` with `n` nodes.
pub fn build(name: &str, n: usize, seed: u64) -> Tree {
    match name {
        "random" => random(n, seed),
        "dom" => dom(n, seed),
        "chain" => chain(n, seed),
        "chain-sorted" => chain_sorted(n),
        "chain-one-segment" => chain_one_segment(n, seed),
        "chain-uniform" => chain_uniform(n, seed),
        _ => panic!("unknown shape {name}"),
    }
}

/// SplitMix64.
pub struct Rng(pub u64);

impl Rng {
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

fn weights(n: usize, rng: &mut Rng) -> (Vec<f64>, Vec<f64>) {
    let w = (0..n).map(|_| 0.5 + rng.f64()).collect();
    let gamma = (0..n).map(|_| 0.5 + rng.f64()).collect();
    (w, gamma)
}

/// A classifier-like score for a node whose true label is `template`: near 0.9 or 0.05,
/// with uniform noise of width 0.2.
fn score(template: bool, rng: &mut Rng) -> f64 {
    let base = if template { 0.9 } else { 0.05 };
    (base + 0.2 * (rng.f64() - 0.5)).clamp(0.0, 1.0)
}

/// Random recursive tree: node `i`'s parent is uniform in `0..i`; scores uniform.
pub fn random(n: usize, seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { rng.below(i) })
        .collect();
    let x = (0..n).map(|_| rng.f64()).collect();
    let (w, gamma) = weights(n, &mut rng);
    Tree {
        parent,
        x,
        w,
        gamma,
    }
}

/// DOM-like: wide and shallow. Nodes are expanded in random order; each gets 1..=30
/// children while its depth is below 25. True labels are inherited from the parent and
/// flip with probability 0.1; scores are classifier-like.
pub fn dom(n: usize, seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let mut parent = vec![NO_PARENT];
    let mut depth = vec![0u32];
    let mut label = vec![false];
    let mut frontier = vec![0usize];
    while parent.len() < n && !frontier.is_empty() {
        let f = rng.below(frontier.len());
        let v = frontier.swap_remove(f);
        let k = (1 + rng.below(30)).min(n - parent.len());
        for _ in 0..k {
            let id = parent.len();
            parent.push(v);
            depth.push(depth[v] + 1);
            label.push(if rng.f64() < 0.1 { !label[v] } else { label[v] });
            if depth[id] < 25 {
                frontier.push(id);
            }
        }
    }
    let x = label.iter().map(|&t| score(t, &mut rng)).collect();
    let (w, gamma) = weights(parent.len(), &mut rng);
    Tree {
        parent,
        x,
        w,
        gamma,
    }
}

/// A path `0 -> 1 -> ... -> n-1` with classifier-like scores whose true label flips
/// with probability 0.01 per step.
pub fn chain(n: usize, seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { i - 1 })
        .collect();
    let mut t = false;
    let x = (0..n)
        .map(|_| {
            if rng.f64() < 0.01 {
                t = !t;
            }
            score(t, &mut rng)
        })
        .collect();
    let (w, gamma) = weights(n, &mut rng);
    Tree {
        parent,
        x,
        w,
        gamma,
    }
}

/// Adversarial path: scores strictly increasing from root to leaf, no penalty, so the
/// optimum follows every score and each cost function keeps every breakpoint below.
pub fn chain_sorted(n: usize) -> Tree {
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { i - 1 })
        .collect();
    let x = (0..n).map(|i| i as f64 / n as f64).collect();
    Tree {
        parent,
        x,
        w: vec![1.0; n],
        gamma: vec![0.0; n],
    }
}

/// Adversarial path: uniform scores and a penalty so large that the optimum is one
/// segment, so the cost function is a sum of `|x - v|` with every score a breakpoint.
pub fn chain_one_segment(n: usize, seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { i - 1 })
        .collect();
    let x = (0..n).map(|_| rng.f64()).collect();
    Tree {
        parent,
        x,
        w: vec![1.0; n],
        gamma: vec![1e9; n],
    }
}

/// A path with uniform scores: many segments, cost functions with many wiggles.
pub fn chain_uniform(n: usize, seed: u64) -> Tree {
    let mut rng = Rng(seed);
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { i - 1 })
        .collect();
    let x = (0..n).map(|_| rng.f64()).collect();
    let (w, gamma) = weights(n, &mut rng);
    Tree {
        parent,
        x,
        w,
        gamma,
    }
}
