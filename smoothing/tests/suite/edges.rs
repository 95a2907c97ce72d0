//! Hand-worked cases, special penalties, ties and very deep trees.

use smoothing::{reference, solve, NO_PARENT};

use crate::common::{chain_parents, check, classifier_score, close, Case, Rng};

/// Plain L1 isotonic regression on a path (nondecreasing from the root), by an
/// independent dynamic program over the distinct scores: `h_k(v) = w_k |x_k - v| +
/// min_{u <= v} h_{k-1}(u)`.
fn l1_isotonic_chain(x: &[f64], w: &[f64]) -> f64 {
    let mut vals = x.to_vec();
    vals.sort_by(f64::total_cmp);
    vals.dedup();
    let mut h = vec![0.0; vals.len()];
    for k in 0..x.len() {
        let mut prefix_min = f64::INFINITY;
        for (j, v) in vals.iter().enumerate() {
            prefix_min = prefix_min.min(h[j]);
            h[j] = prefix_min + w[k] * (x[k] - v).abs();
        }
    }
    h.into_iter().fold(f64::INFINITY, f64::min)
}

fn random_case(rng: &mut Rng, n: usize, gamma: f64) -> Case {
    let parent = (0..n)
        .map(|i| if i == 0 { NO_PARENT } else { rng.below(i) })
        .collect();
    let x = (0..n).map(|_| (rng.below(11) as f64) / 10.0).collect();
    let w = (0..n).map(|_| rng.f64() * 2.0).collect();
    Case {
        parent,
        x,
        w,
        gamma: vec![gamma; n],
    }
}

#[test]
fn doc_example_by_hand() {
    let c = Case {
        parent: vec![NO_PARENT, 0, 0],
        x: vec![0.1, 0.2, 0.9],
        w: vec![1.0; 3],
        gamma: vec![0.3; 3],
    };
    for s in [
        solve(&c.parent, &c.x, &c.w, &c.gamma),
        reference::solve(&c.parent, &c.x, &c.w, &c.gamma),
    ] {
        let s = s.unwrap();
        check(&c, &s, "doc example");
        assert_eq!(s.y, vec![0.1, 0.1, 0.9]);
        assert_eq!(s.segment_roots, vec![0, 2]);
        assert!(close(s.cost, 0.7));
    }
}

#[test]
fn zero_penalty_is_l1_isotonic_regression_on_chains() {
    let mut rng = Rng(7);
    for n in [1, 2, 3, 5, 10, 50, 200] {
        for _ in 0..5 {
            let x: Vec<f64> = (0..n).map(|_| rng.f64()).collect();
            let w: Vec<f64> = (0..n).map(|_| rng.f64() * 3.0).collect();
            let c = Case {
                parent: chain_parents(n),
                x,
                w,
                gamma: vec![0.0; n],
            };
            let want = l1_isotonic_chain(&c.x, &c.w);
            let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
            let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
            check(&c, &f, "fast");
            check(&c, &r, "reference");
            assert!(
                close(f.cost, want),
                "n={n}: fast {} isotonic {want}",
                f.cost
            );
            assert!(
                close(r.cost, want),
                "n={n}: reference {} isotonic {want}",
                r.cost
            );
        }
    }
}

#[test]
fn huge_penalty_gives_one_segment_at_the_weighted_median() {
    let mut rng = Rng(11);
    for n in [1, 2, 7, 40, 300] {
        let c = random_case(&mut rng, n, 1e9);
        let median_cost =
            c.x.iter()
                .map(|&v| {
                    c.x.iter()
                        .zip(&c.w)
                        .map(|(x, w)| w * (x - v).abs())
                        .sum::<f64>()
                })
                .fold(f64::INFINITY, f64::min);
        for s in [
            solve(&c.parent, &c.x, &c.w, &c.gamma),
            reference::solve(&c.parent, &c.x, &c.w, &c.gamma),
        ] {
            let s = s.unwrap();
            check(&c, &s, "huge gamma");
            assert_eq!(s.segment_roots, vec![0]);
            assert!(s.y.iter().all(|&y| y == s.y[0]));
            assert!(
                close(s.cost, 1e9 + median_cost),
                "cost {} want {}",
                s.cost,
                1e9 + median_cost
            );
        }
    }
}

#[test]
fn ties_and_degenerate_inputs() {
    // All scores equal: one segment, cost is the root's penalty.
    let c = Case {
        parent: vec![NO_PARENT, 0, 0, 1],
        x: vec![0.4; 4],
        w: vec![1.0; 4],
        gamma: vec![2.0; 4],
    };
    let s = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
    check(&c, &s, "all equal");
    assert_eq!(s.cost, 2.0);
    // Zero weights: anything monotone is free; only the root's penalty remains.
    let c = Case {
        parent: vec![NO_PARENT, 0, 1],
        x: vec![0.9, 0.1, 0.5],
        w: vec![0.0; 3],
        gamma: vec![0.5; 3],
    };
    let s = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
    check(&c, &s, "zero weights");
    assert_eq!(s.cost, 0.5);
    // Empty tree.
    let s = solve(&[], &[], &[], &[]).unwrap();
    assert!(s.y.is_empty() && s.segment_roots.is_empty() && s.cost == 0.0);
    // Many ties on random trees, against the reference.
    let mut rng = Rng(3);
    for _ in 0..20 {
        let c = random_case(&mut rng, 150, 0.4);
        let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
        check(&c, &f, "ties fast");
        assert!(close(f.cost, r.cost));
    }
}

#[test]
fn root_need_not_be_node_zero() {
    let c = Case {
        parent: vec![2, 2, NO_PARENT],
        x: vec![0.8, 0.3, 0.2],
        w: vec![1.0; 3],
        gamma: vec![0.05; 3],
    };
    let s = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
    check(&c, &s, "root 2");
    assert_eq!(s.y, vec![0.8, 0.3, 0.2]);
    assert!(close(s.cost, 0.15));
}

#[test]
fn wide_tree_matches_reference() {
    let mut rng = Rng(5);
    let n = 2000;
    let parent = (0..n)
        .map(|i| {
            if i == 0 {
                NO_PARENT
            } else {
                rng.below(i.min(20))
            }
        })
        .collect();
    let x = (0..n).map(|_| classifier_score(&mut rng)).collect();
    let w = (0..n).map(|_| 0.5 + rng.f64()).collect();
    let gamma = (0..n).map(|_| 0.5 + rng.f64()).collect();
    let c = Case {
        parent,
        x,
        w,
        gamma,
    };
    let f = solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
    let r = reference::solve(&c.parent, &c.x, &c.w, &c.gamma).unwrap();
    check(&c, &f, "wide");
    assert!(
        close(f.cost, r.cost),
        "fast {} reference {}",
        f.cost,
        r.cost
    );
}

#[test]
fn million_deep_chain() {
    // Scores rise along the path, so with no penalty every node keeps its own score.
    // No recursion may overflow the stack on the way down or up.
    let n = 1_000_000;
    let parent = chain_parents(n);
    let x: Vec<f64> = (0..n).map(|i| i as f64 / n as f64).collect();
    let w = vec![1.0; n];
    let gamma = vec![0.0; n];
    let s = solve(&parent, &x, &w, &gamma).unwrap();
    assert_eq!(s.y, x);
    assert_eq!(s.segment_roots.len(), n);
    // The optimum is 0; the solver's sums of slopes may round (by about 1e-16).
    assert!(s.cost.abs() < 1e-9, "cost {}", s.cost);
    let c = Case {
        parent,
        x,
        w,
        gamma,
    };
    check(&c, &s, "1M chain");
}
