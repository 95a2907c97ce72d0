//! Where two arenas differ: the check behind the parsers' differential tests.

use super::tree::Dom;

/// The first node whose source span differs between `a` and `b` (two parses of one page with
/// spans, checked by [`first_difference`] to be the same tree), described with its path. O(n).
pub fn first_span_difference(a: &Dom, b: &Dom) -> Option<String> {
    (0..a.len().min(b.len()))
        .find(|&i| a.node(i).span != b.node(i).span)
        .map(|i| {
            format!(
                "{}: span {:?} vs {:?}",
                a.path(i),
                a.node(i).span,
                b.node(i).span
            )
        })
}

/// The first node where `a` and `b` differ (kind, name, namespace, parent, subtree end, text,
/// kept attributes, comment length, byte estimate), described with its path; `None` when they
/// hold the same tree.
///
/// # Complexity
/// O(n + text + attributes), one pass in preorder.
pub fn first_difference(a: &Dom, b: &Dom) -> Option<String> {
    let (ba, bb) = (a.subtree_bytes(), b.subtree_bytes());
    for i in 0..a.len().min(b.len()) {
        let (x, y) = (a.node(i), b.node(i));
        let what = if x.kind != y.kind {
            format!("kind {:?} vs {:?}", x.kind, y.kind)
        } else if a.tag_name(i) != b.tag_name(i) || x.foreign != y.foreign {
            format!("element {} vs {}", a.tag_name(i), b.tag_name(i))
        } else if x.parent != y.parent || x.end != y.end {
            format!("nesting (subtree ends {} vs {})", x.end, y.end)
        } else if a.text(i) != b.text(i) {
            format!("text {:?} vs {:?}", clip(a.text(i)), clip(b.text(i)))
        } else if !a.attrs(i).eq(b.attrs(i)) {
            format!(
                "attributes {:?} vs {:?}",
                a.attrs(i).collect::<Vec<_>>(),
                b.attrs(i).collect::<Vec<_>>()
            )
        } else if a.comment_len(i) != b.comment_len(i) {
            format!(
                "comment length {} vs {}",
                a.comment_len(i),
                b.comment_len(i)
            )
        } else if ba[i] != bb[i] {
            format!("byte estimate {} vs {}", ba[i], bb[i])
        } else {
            continue;
        };
        return Some(format!("{}: {what}", a.path(i)));
    }
    (a.len() != b.len()).then(|| format!("node count {} vs {}", a.len(), b.len()))
}

fn clip(s: &str) -> String {
    s.chars().take(60).collect()
}
