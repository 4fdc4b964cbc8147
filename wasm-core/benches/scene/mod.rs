// The benchmarked scene, shared by the native and the wasm benches: N particles at the density
// of the spec's 100 on a 1280 x 800 screen, so the links per particle stay what the page sees.

use wasm_core::particles::ParticleField;

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
