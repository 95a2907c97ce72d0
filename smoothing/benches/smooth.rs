//! Criterion bench: the fast solver and the reference on three synthetic shapes at
//! 1k, 10k and 100k nodes, and on three adversarial paths.
//!
//! The reference needs `8 n m` bytes (800 MB at n = m = 10,000), so it runs at 1k and
//! 10k only (1k only on the adversarial paths); 100k would need 80 GB. Peak memory is
//! measured separately by the `profile` example (see the README).

#[path = "common/shapes.rs"]
mod shapes;

use std::time::Duration;

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};

fn bench(c: &mut Criterion) {
    for shape in shapes::SHAPES.into_iter().chain(shapes::ADVERSARIAL) {
        let reference_up_to = if shapes::SHAPES.contains(&shape) {
            10_000
        } else {
            1_000
        };
        let mut group = c.benchmark_group(shape);
        group
            .sample_size(10)
            .warm_up_time(Duration::from_millis(300))
            .measurement_time(Duration::from_secs(2));
        for n in [1_000, 10_000, 100_000] {
            let t = shapes::build(shape, n, 42);
            group.throughput(Throughput::Elements(n as u64));
            group.bench_with_input(BenchmarkId::new("fast", n), &t, |b, t| {
                b.iter(|| smoothing::solve(&t.parent, &t.x, &t.w, &t.gamma).unwrap())
            });
            if n <= reference_up_to {
                group.bench_with_input(BenchmarkId::new("reference", n), &t, |b, t| {
                    b.iter(|| smoothing::reference::solve(&t.parent, &t.x, &t.w, &t.gamma).unwrap())
                });
            }
        }
        group.finish();
    }
}

criterion_group!(benches, bench);
criterion_main!(benches);
