//! The segments JSON that `pagelevel segment` prints and Python's `segment` returns.

use crate::pipeline::Analysis;

impl Analysis {
    /// The segments as `pagelevel segment` prints them (and Python's `segment` returns): per
    /// segment its `id`, `path` (abbreviated past [`crate::dom::PATH_MAX_STEPS`] steps), `tag`,
    /// source `span` (null when unknown), estimated `box`, smoothed `score`, `template` flag,
    /// `words` and enclosing segment `parent`. O(n + segments).
    pub fn segments_json(&self) -> serde_json::Value {
        let dom = &self.page.dom;
        let segments = &self.segmentation.segments;
        let roots: Vec<usize> = segments.iter().map(|s| s.node).collect();
        let paths = dom.short_paths_of(&roots);
        let rows = segments
            .iter()
            .zip(paths)
            .enumerate()
            .map(|(k, (s, path))| {
                let node = dom.node(s.node);
                let r = self.features.layout.rects[s.node];
                let span = node
                    .span
                    .is_known()
                    .then_some([node.span.start, node.span.end]);
                serde_json::json!({
                    "id": k,
                    "path": path,
                    "tag": dom.tag_name(s.node),
                    "span": span,
                    "box": {"x": r.x, "y": r.y, "w": r.w, "h": r.h},
                    "score": (s.score as f64 * 1e4).round() / 1e4,
                    "template": s.template,
                    "words": s.words,
                    "parent": s.parent,
                })
            })
            .collect();
        serde_json::Value::Array(rows)
    }
}
