//! The decorative particle background: a field of moving particles and the lines between those
//! closer than the link distance, simulated and drawn here (`animation`) on a worker or the page.

mod bounce;
pub mod constants;
mod draw_method;
mod error;
mod field;
mod links;
mod raster;
mod rng;

#[cfg(target_arch = "wasm32")]
pub mod animation;

#[cfg(target_arch = "wasm32")]
pub mod bindings;

#[cfg(test)]
mod tests;

pub use draw_method::DrawMethod;
pub use error::FieldError;
pub use field::ParticleField;
pub use links::{alpha_bucket, link_alpha};
pub use raster::FieldRaster;
