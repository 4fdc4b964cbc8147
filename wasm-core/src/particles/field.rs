//! The particle field: positions and velocities in flat `f32` buffers (x, y interleaved), moved
//! by a timestep, plus the links between particles closer than the link distance.
//!
//! Plain Rust: the animation (`animation/`) steps and draws it in the browser, the tests and benches
//! natively; nothing of it crosses to JavaScript.

use super::bounce::bounce;
use super::constants::{
    LINK_DISTANCE, MAX_PARTICLE_COUNT, MAX_SPEED, MIN_SPEED, RESERVED_LINKS_PER_PARTICLE,
    WORST_CASE_RESERVE_UP_TO,
};
use super::error::{check_size, FieldError};
use super::links::LinkGrid;
use super::rng::Rng;

pub struct ParticleField {
    width: f32,
    height: f32,
    positions: Vec<f32>,
    velocities: Vec<f32>,
    links: LinkGrid,
}

impl ParticleField {
    /// `count` particles spread uniformly over a `width` x `height` CSS px canvas, each moving in
    /// a random direction; the same seed gives the same field.
    pub fn new(
        width: f32,
        height: f32,
        count: usize,
        seed: u32,
    ) -> Result<ParticleField, FieldError> {
        check_size(width, height)?;
        if count > MAX_PARTICLE_COUNT {
            return Err(FieldError::TooManyParticles { count });
        }
        let mut rng = Rng::new(u64::from(seed));
        let mut positions = Vec::with_capacity(2 * count);
        let mut velocities = Vec::with_capacity(2 * count);
        for _ in 0..count {
            positions.extend_from_slice(&[rng.range(0.0, width), rng.range(0.0, height)]);
            let (dx, dy) = random_direction(&mut rng);
            let speed = rng.range(MIN_SPEED, MAX_SPEED);
            velocities.extend_from_slice(&[speed * dx, speed * dy]);
        }
        let reserved_links = if count <= WORST_CASE_RESERVE_UP_TO {
            count * count.saturating_sub(1) / 2
        } else {
            count * RESERVED_LINKS_PER_PARTICLE
        };
        let links = LinkGrid::new(LINK_DISTANCE, width, height, count, reserved_links);
        Ok(ParticleField {
            width,
            height,
            positions,
            velocities,
            links,
        })
    }

    /// Moves every particle by its velocity times `seconds`, so the speed on screen is the same
    /// at any frame rate, then applies the edge rule.
    pub fn step(&mut self, seconds: f32) {
        let (width, height) = (self.width, self.height);
        for (p, v) in self
            .positions
            .chunks_exact_mut(2)
            .zip(self.velocities.chunks_exact_mut(2))
        {
            let (x, vx) = bounce(p[0] + v[0] * seconds, v[0], width);
            let (y, vy) = bounce(p[1] + v[1] * seconds, v[1], height);
            p.copy_from_slice(&[x, y]);
            v.copy_from_slice(&[vx, vy]);
        }
    }

    /// Recomputes the links for the current positions into the segment buffer.
    pub fn find_links(&mut self) {
        self.links.find(&self.positions);
    }

    /// A new canvas size; particles keep their relative place, so all stay inside and the
    /// density pattern is kept.
    pub fn resize(&mut self, width: f32, height: f32) -> Result<(), FieldError> {
        check_size(width, height)?;
        let (sx, sy) = (width / self.width, height / self.height);
        for p in self.positions.chunks_exact_mut(2) {
            p[0] = (p[0] * sx).max(0.0).min(width);
            p[1] = (p[1] * sy).max(0.0).min(height);
        }
        self.width = width;
        self.height = height;
        self.links.resize(width, height);
        Ok(())
    }

    pub fn count(&self) -> usize {
        self.positions.len() / 2
    }

    pub fn link_count(&self) -> usize {
        self.links.link_count()
    }

    /// Where the positions are; the allocation tests watch that no frame moves them.
    pub fn positions_ptr(&self) -> *const f32 {
        self.positions.as_ptr()
    }

    /// Where the segments are; they move only when a frame needs more links than ever before.
    pub fn segments_ptr(&self) -> *const f32 {
        self.links.segments().as_ptr()
    }

    /// Where the per-level end indexes are.
    pub fn bucket_ends_ptr(&self) -> *const u32 {
        self.links.bucket_ends().as_ptr()
    }
}

impl ParticleField {
    /// Particles at rest at the given places (x, y in CSS px, kept inside the canvas): a scene
    /// whose pixels a test can predict.
    pub fn at_rest(
        width: f32,
        height: f32,
        places: &[(f32, f32)],
    ) -> Result<ParticleField, FieldError> {
        let mut field = ParticleField::new(width, height, places.len(), 0)?;
        for ((p, v), &(x, y)) in field
            .positions
            .chunks_exact_mut(2)
            .zip(field.velocities.chunks_exact_mut(2))
            .zip(places)
        {
            p.copy_from_slice(&[x.max(0.0).min(width), y.max(0.0).min(height)]);
            v.copy_from_slice(&[0.0, 0.0]);
        }
        Ok(field)
    }

    pub fn width(&self) -> f32 {
        self.width
    }

    pub fn height(&self) -> f32 {
        self.height
    }

    pub fn positions(&self) -> &[f32] {
        &self.positions
    }

    pub fn velocities(&self) -> &[f32] {
        &self.velocities
    }

    /// x1, y1, x2, y2, alpha per link, grouped by opacity level.
    pub fn segments(&self) -> &[f32] {
        self.links.segments()
    }

    pub fn segments_capacity(&self) -> usize {
        self.links.segments_capacity()
    }

    pub fn bucket_ends(&self) -> &[u32] {
        self.links.bucket_ends()
    }
}

/// A uniformly random unit vector, by rejection from the unit disc: no sin/cos, which would add
/// a few KB of libm to the wasm file.
fn random_direction(rng: &mut Rng) -> (f32, f32) {
    loop {
        let (x, y) = (rng.range(-1.0, 1.0), rng.range(-1.0, 1.0));
        let r2 = x * x + y * y;
        if r2 > 1e-4 && r2 <= 1.0 {
            let r = r2.sqrt();
            return (x / r, y / r);
        }
    }
}
