//! Which of the two ways of drawing suits a frame: stroked paths for sparse fields, the pixel
//! rasteriser for dense ones.

use super::constants::{PATHS_BELOW_LINKS, PIXELS_FROM_LINKS};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DrawMethod {
    /// One stroked path per opacity level and one filled path for the particles.
    Paths,
    /// `FieldRaster` writes the pixels, put on the canvas in one call.
    Pixels,
}

impl DrawMethod {
    /// The method for a frame of `links` links, given the previous frame's (if any).
    pub fn for_links(links: usize, previous: Option<DrawMethod>) -> DrawMethod {
        let threshold = if previous == Some(DrawMethod::Pixels) {
            PATHS_BELOW_LINKS
        } else {
            PIXELS_FROM_LINKS
        };
        if links >= threshold {
            DrawMethod::Pixels
        } else {
            DrawMethod::Paths
        }
    }

    /// As mirrored on the canvas's `data-drawn`.
    pub fn as_str(self) -> &'static str {
        match self {
            DrawMethod::Paths => "paths",
            DrawMethod::Pixels => "pixels",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[cfg_attr(not(target_arch = "wasm32"), test)]
    #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
    fn switches_with_a_gap_so_a_hovering_field_does_not_flicker() {
        assert_eq!(DrawMethod::for_links(150, None), DrawMethod::Paths);
        assert_eq!(
            DrawMethod::for_links(PIXELS_FROM_LINKS, None),
            DrawMethod::Pixels
        );
        assert_eq!(
            DrawMethod::for_links(2500, Some(DrawMethod::Paths)),
            DrawMethod::Paths
        );
        assert_eq!(
            DrawMethod::for_links(2500, Some(DrawMethod::Pixels)),
            DrawMethod::Pixels
        );
        assert_eq!(
            DrawMethod::for_links(PATHS_BELOW_LINKS - 1, Some(DrawMethod::Pixels)),
            DrawMethod::Paths
        );
    }
}
