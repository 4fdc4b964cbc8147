//! Where animation frames come from: the worker's own `requestAnimationFrame` (which follows the
//! placeholder canvas's display) or the window's, on the main-thread host.

use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsError, JsValue};
use web_sys::{DedicatedWorkerGlobalScope, Window};

pub enum FrameClock {
    Worker(DedicatedWorkerGlobalScope),
    Window(Window),
}

/// Called with the frame's timestamp in ms; an error is thrown into the host's event loop.
pub type FrameCallback = Closure<dyn FnMut(f64) -> Result<(), JsValue>>;

impl FrameClock {
    pub fn worker() -> Result<FrameClock, JsValue> {
        Ok(FrameClock::Worker(js_sys::global().dyn_into()?))
    }

    pub fn window() -> Result<FrameClock, JsValue> {
        web_sys::window()
            .map(FrameClock::Window)
            .ok_or_else(|| JsError::new("no window on this thread").into())
    }

    pub fn request(&self, callback: &FrameCallback) -> Result<i32, JsValue> {
        let callback = callback.as_ref().unchecked_ref();
        match self {
            FrameClock::Worker(scope) => scope.request_animation_frame(callback),
            FrameClock::Window(window) => window.request_animation_frame(callback),
        }
    }

    pub fn cancel(&self, handle: i32) -> Result<(), JsValue> {
        match self {
            FrameClock::Worker(scope) => scope.cancel_animation_frame(handle),
            FrameClock::Window(window) => window.cancel_animation_frame(handle),
        }
    }

    /// As mirrored on the canvas's `data-particles-host`.
    pub fn host(&self) -> &'static str {
        match self {
            FrameClock::Worker(_) => "worker",
            FrameClock::Window(_) => "main",
        }
    }
}
