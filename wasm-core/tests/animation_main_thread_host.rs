//! The animation's main-thread host in headless Chromium: the page's own `<canvas>`, the fallback
//! where OffscreenCanvas is missing.
//! Run: `wasm-pack test --chrome --headless wasm-core --test animation_main_thread_host` (scripts/test.sh).
#![cfg(target_arch = "wasm32")]

mod animation;

use wasm_bindgen::JsCast;
use wasm_bindgen_test::{wasm_bindgen_test, wasm_bindgen_test_configure};
use wasm_core::particles::animation::{FrameClock, Surface};
use web_sys::{CanvasRenderingContext2d, HtmlCanvasElement, ImageData};

wasm_bindgen_test_configure!(run_in_browser);

fn host() -> (Surface, FrameClock, impl Fn() -> ImageData) {
    let document = web_sys::window().unwrap().document().unwrap();
    let canvas: HtmlCanvasElement = document
        .create_element("canvas")
        .unwrap()
        .dyn_into()
        .unwrap();
    let surface = Surface::element(canvas.clone()).unwrap();
    let pixels = move || {
        let context: CanvasRenderingContext2d = canvas
            .get_context("2d")
            .unwrap()
            .unwrap()
            .dyn_into()
            .unwrap();
        context
            .get_image_data(0.0, 0.0, canvas.width().into(), canvas.height().into())
            .unwrap()
    };
    (surface, FrameClock::window().unwrap(), pixels)
}

#[wasm_bindgen_test]
fn the_main_thread_host_draws_what_the_field_says() {
    let (surface, clock, pixels) = host();
    animation::check_sparse_frame(surface, clock, pixels, "main");
}

#[wasm_bindgen_test]
fn the_main_thread_host_draws_a_dense_field_into_pixels() {
    let (surface, clock, pixels) = host();
    animation::check_dense_frame(surface, clock, pixels);
}
