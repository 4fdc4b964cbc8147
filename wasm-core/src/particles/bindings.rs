//! The constants and the memory the page needs to read the field's buffers as views.

use wasm_bindgen::prelude::*;

use super::constants::{LINK_ALPHA_BUCKETS, LINK_DISTANCE, PARTICLE_COUNT};

#[wasm_bindgen(js_name = particleCount)]
pub fn particle_count() -> usize {
    PARTICLE_COUNT
}

#[wasm_bindgen(js_name = linkDistance)]
pub fn link_distance() -> f32 {
    LINK_DISTANCE
}

#[wasm_bindgen(js_name = linkAlphaBuckets)]
pub fn link_alpha_buckets() -> usize {
    LINK_ALPHA_BUCKETS
}

/// The module's `WebAssembly.Memory`; views over its buffer must be remade after it grows.
#[wasm_bindgen(js_name = wasmMemory)]
pub fn wasm_memory() -> JsValue {
    wasm_bindgen::memory()
}
