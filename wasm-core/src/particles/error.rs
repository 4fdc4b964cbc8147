//! Why a particle field could not be made or resized.

use std::fmt;

use super::constants::{MAX_PARTICLE_COUNT, MAX_SIDE};

#[derive(Debug, Clone, PartialEq)]
pub enum FieldError {
    /// Width or height not a finite number in (0, MAX_SIDE].
    InvalidSize {
        width: f32,
        height: f32,
    },
    TooManyParticles {
        count: usize,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The sizes are not echoed: formatting floats would double the wasm file, and the
            // caller has them at hand.
            FieldError::InvalidSize { .. } => write!(
                f,
                "particle field width and height must be finite, positive and at most {} px",
                MAX_SIDE as u32
            ),
            FieldError::TooManyParticles { count } => {
                write!(
                    f,
                    "particle count must be at most {MAX_PARTICLE_COUNT}, got {count}"
                )
            }
        }
    }
}

impl std::error::Error for FieldError {}

#[cfg(target_arch = "wasm32")]
impl From<FieldError> for wasm_bindgen::JsValue {
    fn from(error: FieldError) -> Self {
        wasm_bindgen::JsError::new(&error.to_string()).into()
    }
}

pub fn check_size(width: f32, height: f32) -> Result<(), FieldError> {
    let ok = |side: f32| side.is_finite() && side > 0.0 && side <= MAX_SIDE;
    if ok(width) && ok(height) {
        Ok(())
    } else {
        Err(FieldError::InvalidSize { width, height })
    }
}
