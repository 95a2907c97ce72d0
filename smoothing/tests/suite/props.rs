//! Property tests: the three solvers agree, and every result is well formed.

use proptest::prelude::*;
use smoothing::{brute, reference, solve, NO_PARENT};

use crate::common::{check, close, Case};

/// Scores with many ties, exact ends, or anything in [0, 1].
fn score() -> impl Strategy<Value = f64> {
    prop_oneof![
        3 => prop::sample::select(vec![0.0, 0.25, 0.5, 0.75, 1.0]),
        2 => 0.0..=1.0f64,
    ]
}

fn weight() -> impl Strategy<Value = f64> {
    prop_oneof![1 => Just(0.0), 1 => Just(1.0), 3 => 0.0..3.0f64]
}

fn penalty() -> impl Strategy<Value = f64> {
    prop_oneof![2 => Just(0.0), 4 => 0.0..1.0f64, 1 => 0.0..5.0f64, 1 => Just(1e6)]
}

/// A random tree on `1..=max_n` nodes: node `k` of a random recursive tree gets a
/// parent among `0..k`, then labels are shuffled so nodes come in any order.
fn case(max_n: usize) -> impl Strategy<Value = Case> {
    (1..=max_n).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<u32>(), n),
            prop::collection::vec(score(), n),
            prop::collection::vec(weight(), n),
            prop::collection::vec(penalty(), n),
            Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
        )
            .prop_map(|(seeds, x, w, gamma, label)| {
                let n = x.len();
                let mut parent = vec![NO_PARENT; n];
                for k in 1..n {
                    let p = seeds[k] as usize % k;
                    parent[label[k]] = label[p];
                }
                Case {
                    parent,
                    x,
                    w,
                    gamma,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn reference_matches_brute_force(c in case(7)) {
        let b = brute::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &b, "brute");
        check(&c, &r, "reference");
        prop_assert!(close(b.cost, r.cost), "brute {} reference {}", b.cost, r.cost);
    }

    #[test]
    fn fast_matches_brute_force(c in case(7)) {
        let b = brute::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &f, "fast");
        prop_assert!(close(b.cost, f.cost), "brute {} fast {}", b.cost, f.cost);
    }
}

/// A tree on `1..=max_n` nodes made mostly of long paths: node `k` hangs below
/// `k - 1` with probability 7/8, so heavy paths are long enough for the fast solver's
/// segment tree.
fn deep_case(max_n: usize) -> impl Strategy<Value = Case> {
    (1..=max_n).prop_flat_map(|n| {
        (
            prop::collection::vec(any::<u32>(), n),
            prop::collection::vec(score(), n),
            prop::collection::vec(weight(), n),
            prop::collection::vec(penalty(), n),
        )
            .prop_map(|(seeds, x, w, gamma)| {
                let n = x.len();
                let parent = (0..n)
                    .map(|k| match k {
                        0 => NO_PARENT,
                        _ if seeds[k] % 8 != 0 => k - 1,
                        _ => (seeds[k] / 8) as usize % k,
                    })
                    .collect();
                Case {
                    parent,
                    x,
                    w,
                    gamma,
                }
            })
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fast_matches_reference_on_deep_trees(c in deep_case(300)) {
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &f, "fast");
        prop_assert!(close(r.cost, f.cost), "reference {} fast {}", r.cost, f.cost);
    }

    #[test]
    fn fast_matches_reference(c in case(300)) {
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &r, "reference");
        check(&c, &f, "fast");
        prop_assert!(close(r.cost, f.cost), "reference {} fast {}", r.cost, f.cost);
    }
}

/// A path of 64 to 300 nodes (long enough for the fast solver's segment tree) whose
/// scores oscillate: a wave of random period and amplitude plus noise, so the cost
/// functions have many monotone runs and the walk has nodes to skip or descend into.
fn oscillating_chain() -> impl Strategy<Value = Case> {
    (64..=300usize, 2..40u32, 0.05..0.5f64, 0.0..0.3f64).prop_flat_map(
        |(n, period, amplitude, noise)| {
            (
                prop::collection::vec(0.0..=1.0f64, n),
                prop::collection::vec(weight(), n),
                prop::collection::vec(penalty(), n),
            )
                .prop_map(move |(jitter, w, gamma)| {
                    let x = jitter
                        .iter()
                        .enumerate()
                        .map(|(k, &j)| {
                            let phase = std::f64::consts::TAU * k as f64 / period as f64;
                            (0.5 + amplitude * phase.sin() + noise * (j - 0.5)).clamp(0.0, 1.0)
                        })
                        .collect();
                    Case {
                        parent: crate::common::chain_parents(n),
                        x,
                        w,
                        gamma,
                    }
                })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn fast_matches_reference_on_oscillating_chains(c in oscillating_chain()) {
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &f, "fast");
        prop_assert!(close(r.cost, f.cost), "reference {} fast {}", r.cost, f.cost);
    }
}

/// A path-heavy tree of 64 to 600 nodes: node `k` hangs below `k - 1` except with
/// probability 1/16 (then below a random earlier node), with classifier-like scores
/// whose true label flips with probability `flip` along the path (or scores from a few
/// values, many ties), and one penalty scale. Long paths with noisy two-level scores
/// are where the cap walk notes nodes that may hold a new suffix minimum and searches
/// them later; small and large penalties make it cap often or almost never.
fn path_heavy_tree() -> impl Strategy<Value = Case> {
    (64..=600usize, 0.0..0.2f64, prop::bool::ANY, 0.0..3.0f64).prop_flat_map(
        |(n, flip, ties, scale)| {
            (
                prop::collection::vec(any::<u32>(), n),
                prop::collection::vec(0.0..1.0f64, n),
                prop::collection::vec(0.0..1.0f64, n),
                prop::collection::vec(weight(), n),
                prop::collection::vec(0.0..1.0f64, n),
            )
                .prop_map(move |(seeds, coin, noise, w, g)| {
                    let parent = (0..n)
                        .map(|k| match k {
                            0 => NO_PARENT,
                            _ if seeds[k] % 16 != 0 => k - 1,
                            _ => (seeds[k] / 16) as usize % k,
                        })
                        .collect();
                    let mut template = false;
                    let x = (0..n)
                        .map(|k| {
                            if coin[k] < flip {
                                template = !template;
                            }
                            let base = if template { 0.9 } else { 0.05 };
                            let v = (base + 0.2 * (noise[k] - 0.5)).clamp(0.0, 1.0);
                            if ties {
                                (v * 8.0).round() / 8.0
                            } else {
                                v
                            }
                        })
                        .collect();
                    Case {
                        parent,
                        x,
                        w,
                        gamma: g.iter().map(|g| scale * g).collect(),
                    }
                })
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn fast_matches_reference_on_path_heavy_trees(c in path_heavy_tree()) {
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &r, "reference");
        check(&c, &f, "fast");
        prop_assert!(close(r.cost, f.cost), "reference {} fast {}", r.cost, f.cost);
    }
}
