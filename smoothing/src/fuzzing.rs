//! The body of the `smooth` cargo-fuzz target in `fuzz/`, here so that
//! `tests/fuzz_regressions.rs` replays the kept corpus and crash inputs through exactly the
//! code the fuzzer ran. A panic (a failed check below) is the bug the fuzzer looks for.

use crate::jsonl::parse_line;
use crate::{brute, objective, reference, Smoothed, NO_PARENT};

/// Largest tree whose cost is checked against [`reference::solve`] (`O(n^2)` memory).
const REFERENCE_MAX_NODES: usize = 256;

/// One line of the `smooth` binary's JSON Lines input, parsed and solved as the binary does,
/// then checked: the fast solver accepts exactly the trees the reference accepts; on small
/// trees its cost equals the reference's (and the exhaustive search's on trees of at most
/// [`brute::MAX_NODES`]); its labels are monotone, drawn from the scores, cost what it says,
/// and its segment roots are the root and the nodes whose label differs from their parent's.
///
/// Returns the solution, or `None` for a line the binary reports as an error.
pub fn smooth(data: &[u8]) -> Option<Smoothed> {
    // The binary reads lines as UTF-8 text; other bytes are an I/O error before parsing.
    let line = std::str::from_utf8(data).ok()?;
    let t = parse_line(line).ok()?;
    let fast = t.solve();
    let n = t.parent.len();
    // Costs are sums of at most n weights and n penalties: compare them relative to that sum.
    let scale = t.w.iter().chain(&t.gamma).map(|v| v.abs()).sum::<f64>() + 1.0;
    let close = |a: f64, b: f64| !scale.is_finite() || (a - b).abs() <= 1e-9 * scale;
    if n <= REFERENCE_MAX_NODES {
        let r = reference::solve(&t.parent, &t.x, &t.w, &t.gamma);
        assert_eq!(
            fast.as_ref().err(),
            r.as_ref().err(),
            "fast and reference solvers disagree on validity"
        );
        if let (Ok(f), Ok(r)) = (&fast, &r) {
            assert!(
                close(f.cost, r.cost),
                "fast {} != reference {}",
                f.cost,
                r.cost
            );
        }
        if n <= brute::MAX_NODES {
            if let (Ok(f), Ok(b)) = (&fast, brute::solve(&t.parent, &t.x, &t.w, &t.gamma)) {
                assert!(close(f.cost, b.cost), "fast {} != brute {}", f.cost, b.cost);
            }
        }
    }
    let s = fast.ok()?;
    assert_eq!(s.y.len(), n, "one label per node");
    for &y in &s.y {
        assert!(t.x.contains(&y), "label {y} is not a score");
    }
    let cost = objective(&t.parent, &t.x, &t.w, &t.gamma, &s.y);
    assert!(
        cost.is_finite() || !scale.is_finite(),
        "labels not monotone"
    );
    assert!(
        close(cost, s.cost),
        "labels cost {cost}, solver says {}",
        s.cost
    );
    let roots: Vec<usize> = (0..n)
        .filter(|&i| t.parent[i] == NO_PARENT || s.y[t.parent[i]] != s.y[i])
        .collect();
    assert_eq!(s.segment_roots, roots, "segment roots");
    Some(s)
}
