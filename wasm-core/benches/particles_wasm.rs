//! Step + links per frame compiled to wasm, with wasm-bindgen-test's `#[wasm_bindgen_bench]`
//! (a trimmed criterion). Run: `scripts/bench-particles.sh wasm-node` or `wasm-browser`.
#![cfg(target_arch = "wasm32")]

use wasm_bindgen_test::{wasm_bindgen_bench, Criterion};

mod scene;

fn bench(c: &mut Criterion, count: usize) {
    let mut field = scene::field(count);
    c.bench_function(&format!("step_and_links/{count}"), |b| b.iter(|| scene::frame(&mut field)));
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
