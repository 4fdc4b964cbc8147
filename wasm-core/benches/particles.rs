//! Native step + links per frame. Run: `scripts/bench-particles.sh native`.

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion};

mod scene;

fn step_and_links(c: &mut Criterion) {
    let mut group = c.benchmark_group("step_and_links");
    for count in scene::COUNTS {
        let mut field = scene::field(count);
        group.bench_with_input(BenchmarkId::from_parameter(count), &count, |b, _| {
            b.iter(|| scene::frame(&mut field))
        });
    }
    group.finish();
}

criterion_group!(benches, step_and_links);
criterion_main!(benches);
