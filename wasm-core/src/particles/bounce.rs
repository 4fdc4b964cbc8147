//! What a particle does at the canvas edge: it reflects, and any overshoot is folded back inside
//! however long the timestep, so a frame after a stall cannot leave a particle outside.

/// The coordinate brought back into `[0, len]` and its velocity after reflecting off the edges.
#[inline]
pub fn bounce(p: f32, v: f32, len: f32) -> (f32, f32) {
    if (0.0..=len).contains(&p) {
        return (p, v);
    }
    // Unfolded motion is a straight line; the folded one is a triangle wave of period 2·len,
    // moving backwards on its second half.
    let period = 2.0 * len;
    let t = p.rem_euclid(period);
    if t > len {
        // max/min, not clamp: clamp's panic message would pull float formatting into the wasm
        // file.
        ((period - t).max(0.0).min(len), -v)
    } else {
        (t, v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn bounce_reflects_and_reverses() {
        assert_eq!(bounce(105.0, 3.0, 100.0), (95.0, -3.0));
        assert_eq!(bounce(-5.0, -3.0, 100.0), (5.0, 3.0));
        // Two reflections (past the far edge, then the near one) keep the direction.
        assert_eq!(bounce(205.0, 3.0, 100.0), (5.0, 3.0));
        assert_eq!(bounce(50.0, 3.0, 100.0), (50.0, 3.0));
    }
}
