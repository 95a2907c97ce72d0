//! The `features` command's rows: one JSON line per element with its path, tag, box, features
//! and the block classifier's content share.

use crate::config::Deadline;
use crate::dom::{Dom, Kind};
use crate::features::{f, PageFeatures, NAMES};
use crate::Result;

/// Writes one JSON line per element of `dom` to `out`: `{"page", "path", "tag", "box",
/// "features", "content_share"}`, floats rounded to 5 decimals. `pf` must have every row
/// ([`crate::features::Rows::All`]). Deep paths are abbreviated, so the output stays linear
/// in the page; each path is written from one reused buffer, not kept per node.
///
/// # Errors
/// [`crate::Error::Timeout`] when `deadline` passes (checked every few elements).
///
/// # Complexity
/// O(n · COUNT) for n nodes.
pub fn write_rows(
    dom: &Dom,
    pf: &PageFeatures,
    page: &str,
    deadline: &Deadline,
    out: &mut Vec<u8>,
) -> Result<()> {
    let mut k = 0;
    let mut failed = None;
    dom.for_each_short_path(
        |i| dom.node(i).kind == Kind::Element,
        |i, path| {
            if failed.is_some() {
                return;
            }
            if let Err(e) = deadline.check_every(k, "output") {
                failed = Some(e);
                return;
            }
            k += 1;
            let r = pf.layout.rects[i];
            let row = pf.matrix.row(i);
            let feats: serde_json::Map<String, serde_json::Value> = NAMES
                .iter()
                .zip(row)
                .map(|(k, v)| (k.to_string(), json_f32(*v)))
                .collect();
            let obj = serde_json::json!({
                "page": page,
                "path": path,
                "tag": dom.tag_name(i),
                "box": {"x": r.x, "y": r.y, "w": r.w, "h": r.h},
                "features": feats,
                "content_share": json_f32(row[f::BLOCK_CONTENT_SHARE]),
            });
            // A JSON value written to memory cannot fail.
            serde_json::to_writer(&mut *out, &obj).expect("JSON to a Vec");
            out.push(b'\n');
        },
    );
    failed.map_or(Ok(()), Err)
}

/// A float as JSON, rounded to 5 significant decimals to keep lines short.
fn json_f32(v: f32) -> serde_json::Value {
    let r = (v as f64 * 1e5).round() / 1e5;
    serde_json::Number::from_f64(r).map_or(serde_json::Value::Null, serde_json::Value::Number)
}
