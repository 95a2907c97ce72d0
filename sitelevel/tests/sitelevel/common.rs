//! Helpers shared by the test modules.

use sitelevel::{NodeView, PageTree, SimpleTree};

/// A distinct word for page `k` without digits (digits are masked by default): "qa", "qb", …
pub fn word(k: usize) -> String {
    let mut s = String::from("q");
    let mut k = k;
    loop {
        s.push((b'a' + (k % 26) as u8) as char);
        k /= 26;
        if k == 0 {
            return s;
        }
    }
}

/// A short description of node `i` for assertion messages: `div`, `"text"`, `#other`.
pub fn describe(t: &SimpleTree, i: usize) -> String {
    match t.node(i) {
        NodeView::Element(n) => n.to_string(),
        NodeView::Text(s) => format!("{s:?}"),
        NodeView::Other => "#other".to_string(),
    }
}

/// Asserts labels node by node against `(description, expected)` pairs.
pub fn assert_labels(t: &SimpleTree, got: &[bool], expected: &[(&str, bool)]) {
    assert_eq!(got.len(), expected.len(), "node count");
    for (i, (&g, &(d, e))) in got.iter().zip(expected).enumerate() {
        assert_eq!(describe(t, i), d, "node {i} is not what the test expects");
        assert_eq!(g, e, "node {i} ({d}) labelled {g}, expected {e}");
    }
}
