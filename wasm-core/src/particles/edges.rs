//! What a particle does at the canvas edge. Both rules fold any overshoot back inside, however
//! long the timestep, so a frame after a stall cannot leave a particle outside.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edges {
    /// Reflect off the edge, reversing that velocity component.
    Bounce = 0,
    /// Leave through one edge and come back through the opposite one.
    Wrap = 1,
}

impl Edges {
    /// The coordinate brought back into `[0, len]` and its velocity after the edge rule.
    #[inline]
    pub fn fold(self, p: f32, v: f32, len: f32) -> (f32, f32) {
        if (0.0..=len).contains(&p) {
            return (p, v);
        }
        match self {
            Edges::Wrap => {
                let t = p.rem_euclid(len);
                (if t >= len { 0.0 } else { t }, v)
            }
            Edges::Bounce => {
                // Unfolded motion is a straight line; the folded one is a triangle wave of period
                // 2·len, moving backwards on its second half.
                let period = 2.0 * len;
                let t = p.rem_euclid(period);
                if t > len {
                    // max/min, not clamp: clamp's panic message would pull float formatting
                    // (about 10 KB) into the wasm file.
                    ((period - t).max(0.0).min(len), -v)
                } else {
                    (t, v)
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn bounce_reflects_and_reverses() {
        assert_eq!(Edges::Bounce.fold(105.0, 3.0, 100.0), (95.0, -3.0));
        assert_eq!(Edges::Bounce.fold(-5.0, -3.0, 100.0), (5.0, 3.0));
        // Two reflections (past the far edge, then the near one) keep the direction.
        assert_eq!(Edges::Bounce.fold(205.0, 3.0, 100.0), (5.0, 3.0));
        assert_eq!(Edges::Bounce.fold(50.0, 3.0, 100.0), (50.0, 3.0));
    }

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn wrap_comes_back_on_the_other_side() {
        assert_eq!(Edges::Wrap.fold(105.0, 3.0, 100.0), (5.0, 3.0));
        assert_eq!(Edges::Wrap.fold(-5.0, -3.0, 100.0), (95.0, -3.0));
        assert_eq!(Edges::Wrap.fold(-1e-9, -3.0, 100.0).0, 0.0);
        assert_eq!(Edges::Wrap.fold(1234.5, 1.0, 100.0), (34.5, 1.0));
    }
}
