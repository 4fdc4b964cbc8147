//! Rules shared by the browser (compiled to wasm) and the server (native).
//!
//! Everything here is plain Rust; the JavaScript-facing API lives in `bindings`, compiled
//! only for `wasm32`, so the server never links wasm-bindgen.

pub mod particles;
pub mod quote;
pub mod speaking;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use quote::{Email, FieldErrors, Product, QuoteRequest};
