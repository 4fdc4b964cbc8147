//! The canvas a host draws on: an `OffscreenCanvas` in the worker, the page's `<canvas>` on the
//! main thread. Their 2D contexts have the same drawing calls but are different types, so the
//! painter draws through the few calls it needs, named once in `Context2d`.

use wasm_bindgen::{JsCast, JsError, JsValue};
use web_sys::{
    CanvasRenderingContext2d, HtmlCanvasElement, ImageData, OffscreenCanvas,
    OffscreenCanvasRenderingContext2d,
};

/// The drawing calls the painter makes, in CSS px once the transform is set.
pub trait Context2d {
    fn set_transform(&self, a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Result<(), JsValue>;
    fn clear_rect(&self, x: f64, y: f64, width: f64, height: f64);
    fn set_global_alpha(&self, alpha: f64);
    fn set_stroke_style_str(&self, style: &str);
    fn set_fill_style_str(&self, style: &str);
    fn set_line_width(&self, width: f64);
    fn begin_path(&self);
    fn move_to(&self, x: f64, y: f64);
    fn line_to(&self, x: f64, y: f64);
    fn arc(&self, x: f64, y: f64, radius: f64, start: f64, end: f64) -> Result<(), JsValue>;
    fn stroke(&self);
    fn fill(&self);
    fn put_image_data(&self, image: &ImageData, dx: f64, dy: f64) -> Result<(), JsValue>;
}

macro_rules! context_2d {
    ($($context:ty),*) => {$(
        impl Context2d for $context {
            fn set_transform(&self, a: f64, b: f64, c: f64, d: f64, e: f64, f: f64) -> Result<(), JsValue> {
                <$context>::set_transform(self, a, b, c, d, e, f)
            }
            fn clear_rect(&self, x: f64, y: f64, width: f64, height: f64) {
                <$context>::clear_rect(self, x, y, width, height)
            }
            fn set_global_alpha(&self, alpha: f64) {
                <$context>::set_global_alpha(self, alpha)
            }
            fn set_stroke_style_str(&self, style: &str) {
                <$context>::set_stroke_style_str(self, style)
            }
            fn set_fill_style_str(&self, style: &str) {
                <$context>::set_fill_style_str(self, style)
            }
            fn set_line_width(&self, width: f64) {
                <$context>::set_line_width(self, width)
            }
            fn begin_path(&self) {
                <$context>::begin_path(self)
            }
            fn move_to(&self, x: f64, y: f64) {
                <$context>::move_to(self, x, y)
            }
            fn line_to(&self, x: f64, y: f64) {
                <$context>::line_to(self, x, y)
            }
            fn arc(&self, x: f64, y: f64, radius: f64, start: f64, end: f64) -> Result<(), JsValue> {
                <$context>::arc(self, x, y, radius, start, end)
            }
            fn stroke(&self) {
                <$context>::stroke(self)
            }
            fn fill(&self) {
                <$context>::fill(self)
            }
            fn put_image_data(&self, image: &ImageData, dx: f64, dy: f64) -> Result<(), JsValue> {
                <$context>::put_image_data(self, image, dx, dy)
            }
        }
    )*};
}

context_2d!(OffscreenCanvasRenderingContext2d, CanvasRenderingContext2d);

enum Canvas {
    Offscreen(OffscreenCanvas),
    Element(HtmlCanvasElement),
}

pub struct Surface {
    canvas: Canvas,
    context: Box<dyn Context2d>,
}

impl Surface {
    /// A canvas handed to the worker by `transferControlToOffscreen()`.
    pub fn offscreen(canvas: OffscreenCanvas) -> Result<Surface, JsValue> {
        let context = canvas
            .get_context("2d")?
            .ok_or_else(no_context)?
            .dyn_into::<OffscreenCanvasRenderingContext2d>()?;
        Ok(Surface {
            canvas: Canvas::Offscreen(canvas),
            context: Box::new(context),
        })
    }

    /// The page's own canvas, where OffscreenCanvas is missing.
    pub fn element(canvas: HtmlCanvasElement) -> Result<Surface, JsValue> {
        let context = canvas
            .get_context("2d")?
            .ok_or_else(no_context)?
            .dyn_into::<CanvasRenderingContext2d>()?;
        Ok(Surface {
            canvas: Canvas::Element(canvas),
            context: Box::new(context),
        })
    }

    pub fn context(&self) -> &dyn Context2d {
        &*self.context
    }

    /// The size in device pixels.
    pub fn size(&self) -> (u32, u32) {
        match &self.canvas {
            Canvas::Offscreen(canvas) => (canvas.width(), canvas.height()),
            Canvas::Element(canvas) => (canvas.width(), canvas.height()),
        }
    }

    /// Resizing clears the canvas and resets the context, transform included.
    pub fn set_size(&self, width: u32, height: u32) {
        match &self.canvas {
            Canvas::Offscreen(canvas) => {
                canvas.set_width(width);
                canvas.set_height(height);
            }
            Canvas::Element(canvas) => {
                canvas.set_width(width);
                canvas.set_height(height);
            }
        }
    }
}

fn no_context() -> JsValue {
    JsError::new("the particle canvas has no 2D context").into()
}
