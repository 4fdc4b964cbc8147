//! Native step + links per frame, and drawing a dense field into pixels. Run: `scripts/bench-particles.sh native`.

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

/// Drawing the dense scene's links and particles into pixels (the links are found once).
fn raster(c: &mut Criterion) {
    let (field, mut raster) = scene::dense_scene();
    c.bench_function(&format!("raster/{}", scene::DENSE_COUNT), |b| {
        b.iter(|| raster.draw(&field, 1.0))
    });
}

criterion_group!(benches, step_and_links, raster);
criterion_main!(benches);
