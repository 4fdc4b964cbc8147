//! Draws a field on a surface, choosing per frame between the two methods (`DrawMethod`): one
//! stroked path per opacity level, or `FieldRaster`'s pixels put on the canvas in one call.

use js_sys::WebAssembly;
use wasm_bindgen::{Clamped, JsCast, JsValue};
use web_sys::ImageData;

use super::surface::{Context2d, Surface};
use crate::particles::constants::{
    COLOR, COLOR_CSS, LINE_WIDTH, LINK_ALPHA, LINK_ALPHA_BUCKETS, PARTICLE_ALPHA, PARTICLE_RADIUS,
    SEGMENT_FLOATS,
};
use crate::particles::{DrawMethod, FieldRaster, ParticleField};

pub struct Painter {
    raster: Option<FieldRaster>,
    /// An `ImageData` over the raster's pixels in wasm memory, and the memory buffer it views:
    /// remade only when the canvas size changes or the memory grows (which detaches the view).
    image: Option<(ImageData, JsValue)>,
    drawn: Option<DrawMethod>,
}

impl Painter {
    pub fn new() -> Painter {
        Painter {
            raster: None,
            image: None,
            drawn: None,
        }
    }

    /// How the last frame was drawn.
    pub fn drawn(&self) -> Option<DrawMethod> {
        self.drawn
    }

    /// Draws the field's links and particles over the whole surface, whose transform scales
    /// CSS px by `dpr`.
    pub fn draw(
        &mut self,
        surface: &Surface,
        field: &mut ParticleField,
        dpr: f32,
    ) -> Result<DrawMethod, JsValue> {
        field.find_links();
        let method = DrawMethod::for_links(field.link_count(), self.drawn);
        match method {
            DrawMethod::Paths => draw_paths(surface.context(), field)?,
            DrawMethod::Pixels => self.draw_pixels(surface, field, dpr)?,
        }
        self.drawn = Some(method);
        Ok(method)
    }

    fn draw_pixels(
        &mut self,
        surface: &Surface,
        field: &ParticleField,
        dpr: f32,
    ) -> Result<(), JsValue> {
        let (width, height) = surface.size();
        let raster = self.raster.get_or_insert_with(|| {
            FieldRaster::new(COLOR, LINK_ALPHA, PARTICLE_RADIUS, PARTICLE_ALPHA)
        });
        if (raster.width(), raster.height()) != (width as usize, height as usize) {
            raster.resize(width, height)?;
            self.image = None;
        }
        raster.draw(field, dpr);
        let buffer = wasm_bindgen::memory()
            .unchecked_into::<WebAssembly::Memory>()
            .buffer();
        let image = match self.image.take() {
            Some((image, viewed)) if viewed == buffer => image,
            _ => ImageData::new_with_u8_clamped_array_and_sh(
                Clamped(raster.pixel_bytes()),
                width,
                height,
            )?,
        };
        surface.context().put_image_data(&image, 0.0, 0.0)?;
        self.image = Some((image, buffer));
        Ok(())
    }
}

/// One stroked path per opacity level, then one filled path for all particles, in CSS px.
fn draw_paths(context: &dyn Context2d, field: &ParticleField) -> Result<(), JsValue> {
    // One CSS px more each way: the device size is rounded, and a sliver must not keep old links.
    context.clear_rect(
        0.0,
        0.0,
        f64::from(field.width()) + 1.0,
        f64::from(field.height()) + 1.0,
    );
    context.set_stroke_style_str(COLOR_CSS);
    context.set_fill_style_str(COLOR_CSS);
    context.set_line_width(LINE_WIDTH.into());
    let segments = field.segments();
    let mut start = 0;
    for (level, &end) in field.bucket_ends().iter().enumerate() {
        let end = end as usize;
        if end > start {
            context.set_global_alpha(f64::from(
                LINK_ALPHA * (level as f32 + 0.5) / LINK_ALPHA_BUCKETS as f32,
            ));
            context.begin_path();
            for s in
                segments[start * SEGMENT_FLOATS..end * SEGMENT_FLOATS].chunks_exact(SEGMENT_FLOATS)
            {
                context.move_to(s[0].into(), s[1].into());
                context.line_to(s[2].into(), s[3].into());
            }
            context.stroke();
        }
        start = end;
    }
    let radius = f64::from(PARTICLE_RADIUS);
    context.set_global_alpha(PARTICLE_ALPHA.into());
    context.begin_path();
    for p in field.positions().chunks_exact(2) {
        let (x, y) = (f64::from(p[0]), f64::from(p[1]));
        context.move_to(x + radius, y);
        context.arc(x, y, radius, 0.0, std::f64::consts::TAU)?;
    }
    context.fill();
    Ok(())
}
