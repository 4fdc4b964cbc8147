//! The animation's worker host in headless Chromium: an `OffscreenCanvas` in a dedicated worker.
//! Run: `wasm-pack test --chrome --headless wasm-core --test animation_worker_host` (scripts/test.sh).
#![cfg(target_arch = "wasm32")]

mod animation;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use wasm_core::particles::animation::{FrameClock, Surface};
use web_sys::{ImageData, OffscreenCanvas, OffscreenCanvasRenderingContext2d};

wasm_bindgen_test_configure!(run_in_dedicated_worker);

fn host() -> (Surface, FrameClock, impl Fn() -> ImageData) {
    let canvas = OffscreenCanvas::new(1, 1).unwrap();
    let surface = Surface::offscreen(canvas.clone()).unwrap();
    let pixels = move || {
        let context: OffscreenCanvasRenderingContext2d = canvas
            .get_context("2d")
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap();
        context
            .get_image_data(0.0, 0.0, canvas.width().into(), canvas.height().into())
            .unwrap()
    };
    (surface, FrameClock::worker().unwrap(), pixels)
}

#[wasm_bindgen_test]
fn the_worker_host_draws_what_the_field_says() {
    let (surface, clock, pixels) = host();
    animation::check_sparse_frame(surface, clock, pixels, "worker");
}

#[wasm_bindgen_test]
fn the_worker_host_draws_a_dense_field_into_pixels() {
    let (surface, clock, pixels) = host();
    animation::check_dense_frame(surface, clock, pixels);
}
