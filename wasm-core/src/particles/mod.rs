//! The decorative particle background: a field of moving particles and the lines between those
//! closer than the link distance, computed here and only drawn by the page.

pub mod constants;
mod edges;
mod error;
mod field;
mod links;
mod raster;
mod rng;

#[cfg(target_arch = "wasm32")]
mod bindings;

#[cfg(test)]
mod tests;

pub use edges::Edges;
pub use error::FieldError;
pub use field::ParticleField;
pub use links::{alpha_bucket, link_alpha};
pub use raster::FieldRaster;
