//! The particle animation for JavaScript (wasm32 only): `startParticleWorker()` in the worker host,
//! `new ParticleAnimation(canvas, message, report)` on the main-thread host, and the style for
//! anything that draws the same scene (the benchmark's tsParticles).

use std::cell::RefCell;

use js_sys::{Function, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::{DedicatedWorkerGlobalScope, HtmlCanvasElement, MessageEvent, OffscreenCanvas};

use super::animation::{Animation, FrameClock, Start, Surface, View};
use super::constants::{
    COLOR_CSS, LINE_WIDTH, LINK_ALPHA, LINK_DISTANCE, PARTICLE_ALPHA, PARTICLE_RADIUS,
};
use super::ParticleField;

/// The animation on the main thread, drawing on the page's canvas: the fallback where
/// OffscreenCanvas is missing. `message` is the worker's first message without the canvas;
/// `report` receives what the worker would post back.
#[wasm_bindgen(js_name = ParticleAnimation)]
pub struct JsParticleAnimation(Animation);

#[wasm_bindgen(js_class = ParticleAnimation)]
impl JsParticleAnimation {
    #[wasm_bindgen(constructor)]
    pub fn new(
        canvas: HtmlCanvasElement,
        message: JsValue,
        report: Function,
    ) -> Result<JsParticleAnimation, JsValue> {
        start(
            Surface::element(canvas)?,
            FrameClock::window()?,
            &message,
            report,
        )
        .map(JsParticleAnimation)
    }

    /// The messages the worker takes, after the first.
    pub fn post(&self, message: JsValue) -> Result<(), JsValue> {
        self.0.handle(&message)
    }
}

/// Runs in the particle worker: the first message brings the canvas
/// (`{ canvas, ...view, count?, seed? }`), every later one is passed to the animation. Posts
/// `"ready"` once it listens, then the animation's reports.
#[wasm_bindgen(js_name = startParticleWorker)]
pub fn start_particle_worker() -> Result<(), JsValue> {
    let scope: DedicatedWorkerGlobalScope = js_sys::global().dyn_into()?;
    let post: Function = Reflect::get(&scope, &"postMessage".into())?
        .dyn_into::<Function>()?
        .bind0(&scope);
    let animation: RefCell<Option<Animation>> = RefCell::new(None);
    let report = post.clone();
    let on_message = Closure::<dyn FnMut(MessageEvent) -> Result<(), JsValue>>::new(
        move |event: MessageEvent| {
            let message = event.data();
            let mut animation = animation.borrow_mut();
            match animation.as_ref() {
                Some(animation) => animation.handle(&message),
                None => {
                    let canvas: OffscreenCanvas =
                        Reflect::get(&message, &"canvas".into())?.dyn_into()?;
                    *animation = Some(start(
                        Surface::offscreen(canvas)?,
                        FrameClock::worker()?,
                        &message,
                        report.clone(),
                    )?);
                    Ok(())
                }
            }
        },
    );
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The handler lives as long as the worker, which the page terminates to stop it.
    on_message.forget();
    post.call1(&JsValue::NULL, &"ready".into())?;
    Ok(())
}

fn start(
    surface: Surface,
    clock: FrameClock,
    message: &JsValue,
    report: Function,
) -> Result<Animation, JsValue> {
    let view = View::from_message(message)?;
    let Start { count, seed } = Start::from_message(message)?;
    let field = ParticleField::new(view.width, view.height, count, seed)?;
    Animation::start(surface, field, clock, view, report)
}

/// How the background looks, `{ color, particleRadius, particleAlpha, linkAlpha, lineWidth,
/// linkDistance }`, so another renderer can draw the same scene.
#[wasm_bindgen(js_name = particleStyle)]
pub fn particle_style() -> Result<JsValue, JsError> {
    #[derive(serde::Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Style {
        color: &'static str,
        particle_radius: f32,
        particle_alpha: f32,
        link_alpha: f32,
        line_width: f32,
        link_distance: f32,
    }
    let style = Style {
        color: COLOR_CSS,
        particle_radius: PARTICLE_RADIUS,
        particle_alpha: PARTICLE_ALPHA,
        link_alpha: LINK_ALPHA,
        line_width: LINE_WIDTH,
        link_distance: LINK_DISTANCE,
    };
    Ok(serde_wasm_bindgen::to_value(&style)?)
}
