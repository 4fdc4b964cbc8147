//! The messages a host page sends the animation, the same on both hosts (posted to the worker, or
//! passed to `ParticleAnimation.post` on the main thread):
//! - every message: `{ width, height, dpr, hidden, reducedMotion }`, the canvas's CSS size, the
//!   device pixel ratio, whether the tab is hidden and the visitor's `prefers-reduced-motion`;
//! - the first also `{ count?, seed? }` (and, to the worker, the `canvas`);
//! - `{ countFrames: true }` asks for a `{ frames }` report (the benchmark's frame rate).

use js_sys::Reflect;
use wasm_bindgen::{JsError, JsValue};

use crate::particles::constants::PARTICLE_COUNT;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct View {
    pub width: f32,
    pub height: f32,
    pub dpr: f32,
    pub hidden: bool,
    pub reduced_motion: bool,
}

impl View {
    pub fn from_message(message: &JsValue) -> Result<View, JsValue> {
        let dpr = number(message, "dpr")?;
        if !(dpr.is_finite() && dpr > 0.0) {
            return Err(JsError::new("particle message: dpr must be a positive number").into());
        }
        Ok(View {
            width: number(message, "width")? as f32,
            height: number(message, "height")? as f32,
            dpr: dpr as f32,
            hidden: flag(message, "hidden")?,
            reduced_motion: flag(message, "reducedMotion")?,
        })
    }

    /// The canvas size in device pixels.
    pub fn device_size(&self) -> (u32, u32) {
        let side = |css: f32| (css * self.dpr).round().max(1.0) as u32;
        (side(self.width), side(self.height))
    }
}

/// How many particles and which seed, from the first message; the product's count and a seed from
/// the clock by default.
pub struct Start {
    pub count: usize,
    pub seed: u32,
}

impl Start {
    pub fn from_message(message: &JsValue) -> Result<Start, JsValue> {
        let optional = |key: &str| -> Result<Option<f64>, JsValue> {
            let value = Reflect::get(message, &key.into())?;
            if value.is_undefined() {
                Ok(None)
            } else {
                number(message, key).map(Some)
            }
        };
        let count = optional("count")?.map_or(PARTICLE_COUNT, |n| n as usize);
        let seed = optional("seed")?.unwrap_or_else(js_sys::Date::now) as u64 as u32;
        Ok(Start { count, seed })
    }
}

pub fn asks_for_frames(message: &JsValue) -> Result<bool, JsValue> {
    Ok(Reflect::get(message, &"countFrames".into())?.is_truthy())
}

fn number(message: &JsValue, key: &str) -> Result<f64, JsValue> {
    Reflect::get(message, &key.into())?
        .as_f64()
        .ok_or_else(|| JsError::new(&format!("particle message: {key} must be a number")).into())
}

fn flag(message: &JsValue, key: &str) -> Result<bool, JsValue> {
    Reflect::get(message, &key.into())?
        .as_bool()
        .ok_or_else(|| {
            JsError::new(&format!("particle message: {key} must be true or false")).into()
        })
}
