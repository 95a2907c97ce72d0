//! Times one solver on one synthetic shape; run it under `/usr/bin/time -v` for peak
//! memory.
//!
//! ```text
//! cargo run --release -p smoothing --example profile -- SHAPE N [fast|reference]
//! ```
//! SHAPE is `random`, `dom`, `chain`, `chain-sorted` or `chain-one-segment`.

#[path = "../benches/common/shapes.rs"]
mod shapes;

use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape = args.first().map_or("random", String::as_str);
    let n: usize = args
        .get(1)
        .map_or(100_000, |s| s.parse().expect("N must be a number"));
    let solver = args.get(2).map_or("fast", String::as_str);
    let t = shapes::build(shape, n, 42);
    let start = Instant::now();
    let s = match solver {
        "fast" => smoothing::solve(&t.parent, &t.x, &t.w, &t.gamma),
        "reference" => smoothing::reference::solve(&t.parent, &t.x, &t.w, &t.gamma),
        other => panic!("unknown solver {other}"),
    }
    .expect("valid tree");
    let secs = start.elapsed().as_secs_f64();
    println!(
        "shape={shape} n={} solver={solver} time_ms={:.3} cost={:.6} segments={}",
        t.parent.len(),
        secs * 1e3,
        s.cost,
        s.segment_roots.len()
    );
}
