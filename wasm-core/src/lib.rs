//! Rules shared by the browser (compiled to wasm) and the server (native): the quote rules, the
//! Medicare disclaimer's words, the open times of booked calls, the particle background and the speaking detector.
//!
//! # One binding convention for every export
//!
//! - Each module (`quote`, `disclaimer`, `booking`, `particles`, `speaking`) is plain Rust, built and tested natively; its
//!   JavaScript API is its own public `bindings` module (so the wasm tests call it as the page
//!   does), compiled only for `wasm32`, so the server never links wasm-bindgen, web-sys or
//!   js-sys. Domain types carry no `#[wasm_bindgen]`.
//! - JavaScript sees camelCase names (`js_name`): free functions (`validateQuote`, `checkPhone`,
//!   `startParticleWorker`) and classes that wrap a domain type in a `Js…` newtype
//!   (`SpeakingDetector`, `ParticleAnimation`), created with `new` and released with `free()`.
//! - Values cross as plain JavaScript values (numbers, booleans, strings, objects built with
//!   serde-wasm-bindgen or js-sys), never as pointers into wasm memory.
//! - Bad input is refused with a JavaScript `Error` whose message is the domain error's: a
//!   `Result<_, JsError>` (or `JsValue`) return, never a panic.
//! - The front end loads the module through one loader, `frontend/src/wasm/wasm-core.ts`, on
//!   the main thread (quote rules, speaking detector, particle fallback) and in the particle
//!   worker.

/// Native only (see wasm-core/Cargo.toml): the server computes the open times, the page shows them.
#[cfg(not(target_arch = "wasm32"))]
pub mod booking;
pub mod disclaimer;
pub mod particles;
pub mod quote;
pub mod speaking;

pub use quote::{
    ContactDetails, ContactInput, ContactRules, Email, FieldErrors, FieldRule, Phone, PhoneError,
    Product, QuoteRequest, State, Zip, ZipError,
};
