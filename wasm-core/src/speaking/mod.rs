//! Speaking detection from audio levels: the constants of docs/product.md §9, computed by the product
//! itself to drive the voice button's level ring and the "we cannot hear you" hint.
//!
//! Samples arrive about every 100 ms either as raw sums of the participants' levels or as
//! levels already scaled by the SDK (`volume-level`, `local-volume-level`); each kind has its
//! own entry point so a level is never scaled twice.

mod constants;
mod detector;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

pub use constants::{RAW_SUM_FULL_SCALE, SAMPLE_INTERVAL_MS, SILENCE_HOLD_MS, SPEAKING_THRESHOLD};
pub use detector::{level_from_raw_sum, SpeakingDetector};
