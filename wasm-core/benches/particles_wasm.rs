//! Step + links per frame, and drawing a dense field into pixels, compiled to wasm with wasm-bindgen-test's `#[wasm_bindgen_bench]`
//! (a trimmed criterion). Run: `scripts/bench-particles.sh wasm-node` or `wasm-browser`.
#![cfg(target_arch = "wasm32")]

use std::time::Duration;

use wasm_bindgen_test::{wasm_bindgen_bench, Criterion};

mod scene;

/// Shorter than criterion's defaults: the browser run blocks the page for the whole benchmark,
/// and chromedriver gives up on a page that does not answer for 30 s.
fn bench(c: &mut Criterion, count: usize) {
    let defaults = std::mem::take(c);
    *c = defaults
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .nresamples(10_000);
    let mut field = scene::field(count);
    c.bench_function(&format!("step_and_links/{count}"), |b| {
        b.iter(|| scene::frame(&mut field))
    });
}

#[wasm_bindgen_bench]
fn step_and_links_100(c: &mut Criterion) {
    bench(c, scene::COUNTS[0]);
}

#[wasm_bindgen_bench]
fn step_and_links_1000(c: &mut Criterion) {
    bench(c, scene::COUNTS[1]);
}

#[wasm_bindgen_bench]
fn step_and_links_10000(c: &mut Criterion) {
    bench(c, scene::COUNTS[2]);
}

#[wasm_bindgen_bench]
fn raster_2000(c: &mut Criterion) {
    let (field, mut raster) = scene::dense_scene();
    c.bench_function(&format!("raster/{}", scene::DENSE_COUNT), |b| {
        b.iter(|| raster.draw(&field, 1.0))
    });
}
