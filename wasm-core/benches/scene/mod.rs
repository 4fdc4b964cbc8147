// The benchmarked scene, shared by the native and the wasm benches: N particles at the density
// of the product's 100 on a 1280 x 800 screen, so the links per particle stay what the page sees.

use wasm_core::particles::constants::{COLOR, LINK_ALPHA, PARTICLE_ALPHA, PARTICLE_RADIUS};
use wasm_core::particles::{FieldRaster, ParticleField};

pub const COUNTS: [usize; 3] = [100, 1_000, 10_000];

pub fn field(count: usize) -> ParticleField {
    let scale = (count as f32 / 100.0).sqrt();
    let mut field = ParticleField::new(1280.0 * scale, 800.0 * scale, count, 1).unwrap();
    field.find_links();
    field
}

/// One 60 Hz frame: move, then find the links.
pub fn frame(field: &mut ParticleField) {
    field.step(1.0 / 60.0);
    field.find_links();
}

/// The browser benchmark's densest scene: 2,000 particles on one 1280 x 800 screen, about 60,000
/// links a frame, which the page draws into pixels with `FieldRaster`.
pub const DENSE_COUNT: usize = 2_000;

pub fn dense_scene() -> (ParticleField, FieldRaster) {
    let mut field = ParticleField::new(1280.0, 800.0, DENSE_COUNT, 1).unwrap();
    field.find_links();
    let mut raster = FieldRaster::new(COLOR, LINK_ALPHA, PARTICLE_RADIUS, PARTICLE_ALPHA);
    raster.resize(1280, 800).unwrap();
    (field, raster)
}
