//! Times one solver on one synthetic shape and reports the heap the solve itself
//! allocated at its peak (a counting global allocator; the input is not counted).
//!
//! ```text
//! cargo run --release -p smoothing --example profile -- SHAPE N [fast|reference]
//! ```
//! SHAPE is `random`, `dom`, `chain`, `chain-sorted`, `chain-one-segment` or
//! `chain-uniform`.

#[path = "../benches/common/shapes.rs"]
mod shapes;

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Instant;

/// Counts live heap bytes and their peak, so the solver's own peak can be reported.
struct Counting;

static LIVE: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

// SAFETY: forwards to the system allocator and only updates counters.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let live = LIVE.fetch_add(layout.size(), Ordering::Relaxed) + layout.size();
        PEAK.fetch_max(live, Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        LIVE.fetch_sub(layout.size(), Ordering::Relaxed);
        // SAFETY: same contract as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if new_size > layout.size() {
            let grow = new_size - layout.size();
            let live = LIVE.fetch_add(grow, Ordering::Relaxed) + grow;
            PEAK.fetch_max(live, Ordering::Relaxed);
        } else {
            LIVE.fetch_sub(layout.size() - new_size, Ordering::Relaxed);
        }
        // SAFETY: same contract as the caller's.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOC: Counting = Counting;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let shape = args.first().map_or("random", String::as_str);
    let n: usize = args
        .get(1)
        .map_or(100_000, |s| s.parse().expect("N must be a number"));
    let solver = args.get(2).map_or("fast", String::as_str);
    let t = shapes::build(shape, n, 42);
    let before = LIVE.load(Ordering::Relaxed);
    PEAK.store(before, Ordering::Relaxed);
    let start = Instant::now();
    let s = match solver {
        "fast" => smoothing::solve(&t.parent, &t.x, &t.w, &t.gamma),
        "reference" => smoothing::reference::solve(&t.parent, &t.x, &t.w, &t.gamma),
        other => panic!("unknown solver {other}"),
    }
    .expect("valid tree");
    let secs = start.elapsed().as_secs_f64();
    let peak_kib = (PEAK.load(Ordering::Relaxed) - before) as f64 / 1024.0;
    println!(
        "shape={shape} n={} solver={solver} time_ms={:.3} peak_kib={peak_kib:.0} cost={:.6} segments={}",
        t.parent.len(),
        secs * 1e3,
        s.cost,
        s.segment_roots.len()
    );
}
