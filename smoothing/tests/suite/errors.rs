//! Every rejected input gives its own error, naming the node and the value.

use smoothing::{solve, SmoothError, NO_PARENT};

fn err(parent: &[usize], x: &[f64], w: &[f64], gamma: &[f64]) -> SmoothError {
    solve(parent, x, w, gamma).unwrap_err()
}

#[test]
fn each_error_names_node_and_value() {
    let p = [NO_PARENT, 0];
    let ok = [0.5, 0.5];
    let cases: Vec<(SmoothError, &str)> = vec![
        (err(&p, &[0.5], &ok, &ok), "x has 1"),
        (err(&p, &ok, &[1.0], &ok), "w has 1"),
        (err(&p, &ok, &ok, &[1.0, 1.0, 1.0]), "gamma has 3"),
        (err(&p, &[0.5, f64::NAN], &ok, &ok), "node 1: score x = NaN"),
        (err(&p, &[-0.1, 0.5], &ok, &ok), "node 0: score x = -0.1"),
        (err(&p, &[0.5, 1.5], &ok, &ok), "node 1: score x = 1.5"),
        (err(&p, &ok, &[0.5, -1.0], &ok), "node 1: weight w = -1"),
        (
            err(&p, &ok, &[f64::NAN, 1.0], &ok),
            "node 0: weight w = NaN",
        ),
        (
            err(&p, &ok, &ok, &[0.5, -2.0]),
            "node 1: penalty gamma = -2",
        ),
        (
            err(&p, &ok, &ok, &[f64::INFINITY, 0.0]),
            "node 0: penalty gamma = inf",
        ),
        (
            err(&[NO_PARENT, 5], &ok, &ok, &ok),
            "node 1: parent index 5",
        ),
        (err(&[1, 0], &ok, &ok, &ok), "no root"),
        (err(&[NO_PARENT, NO_PARENT], &ok, &ok, &ok), "nodes 0 and 1"),
        (
            err(&[NO_PARENT, 2, 1], &[0.5; 3], &[0.5; 3], &[0.5; 3]),
            "node 1: parent links form a cycle",
        ),
        (
            err(&[NO_PARENT, 1], &ok, &ok, &ok),
            "node 1: parent links form a cycle",
        ),
    ];
    for (e, want) in cases {
        let msg = e.to_string();
        assert!(msg.contains(want), "{msg:?} should contain {want:?}");
    }
    assert!(matches!(
        err(&[1, 0], &ok, &ok, &ok),
        SmoothError::NoRoot { nodes: 2 }
    ));
    assert!(matches!(
        err(&[NO_PARENT, 2, 1], &[0.5; 3], &[0.5; 3], &[0.5; 3]),
        SmoothError::Cycle { node: 1 }
    ));
}
