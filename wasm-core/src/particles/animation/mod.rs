//! The particle animation: the frame loop, the simulation and the drawing, all in Rust, on either
//! host (a dedicated worker drawing on an `OffscreenCanvas`, or the main thread drawing on the
//! page's canvas where OffscreenCanvas is missing). The host page only sends it `message`s and
//! mirrors its reports on the canvas: `{ particles, drawn, particlesHost }` become
//! `data-particles` (`running`, `still`, `paused`), `data-drawn` (`paths`, `pixels`) and
//! `data-particles-host` (`worker`, `main`).

mod frame_clock;
mod message;
mod painter;
mod surface;

use std::cell::RefCell;
use std::rc::{Rc, Weak};

use js_sys::{Function, Object, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::JsValue;

use frame_clock::FrameCallback;
pub use frame_clock::FrameClock;
use message::asks_for_frames;
pub use message::{Start, View};
use painter::Painter;
pub use surface::Surface;

use super::constants::MAX_FRAME_SECONDS;
use super::{DrawMethod, ParticleField};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    Running,
    /// One frame drawn and kept, under `prefers-reduced-motion`.
    Still,
    /// The tab is hidden.
    Paused,
}

impl State {
    fn as_str(self) -> &'static str {
        match self {
            State::Running => "running",
            State::Still => "still",
            State::Paused => "paused",
        }
    }
}

/// Runs until dropped; dropping cancels the pending frame.
pub struct Animation {
    shared: Rc<Shared>,
}

struct Shared {
    scene: RefCell<Scene>,
    /// The frame callback holds only a weak reference back, so dropping the animation frees both.
    tick: FrameCallback,
}

struct Scene {
    surface: Surface,
    field: ParticleField,
    painter: Painter,
    clock: FrameClock,
    report: Function,
    view: Option<View>,
    state: Option<State>,
    reported: Option<(State, Option<DrawMethod>)>,
    frame: Option<i32>,
    last: Option<f64>,
    frames: u32,
}

impl Animation {
    /// Starts on `surface` with the first message's view; `report` is called with each change
    /// of state or draw method.
    pub fn start(
        surface: Surface,
        field: ParticleField,
        clock: FrameClock,
        view: View,
        report: Function,
    ) -> Result<Animation, JsValue> {
        let shared = Rc::new_cyclic(|weak: &Weak<Shared>| {
            let weak = weak.clone();
            Shared {
                scene: RefCell::new(Scene {
                    surface,
                    field,
                    painter: Painter::new(),
                    clock,
                    report,
                    view: None,
                    state: None,
                    reported: None,
                    frame: None,
                    last: None,
                    frames: 0,
                }),
                tick: Closure::new(move |now: f64| match weak.upgrade() {
                    Some(shared) => shared.frame(now),
                    None => Ok(()),
                }),
            }
        });
        let animation = Animation { shared };
        animation.update(view)?;
        Ok(animation)
    }

    /// A host message: a new view, or a request for the frame count.
    pub fn handle(&self, message: &JsValue) -> Result<(), JsValue> {
        if asks_for_frames(message)? {
            let scene = self.shared.scene.borrow();
            let report = Object::new();
            Reflect::set(&report, &"frames".into(), &scene.frames.into())?;
            scene.report.call1(&JsValue::NULL, &report)?;
            return Ok(());
        }
        self.update(View::from_message(message)?)
    }

    /// Runs, pauses or draws one still frame, whichever the view calls for; resizes first if the
    /// size or the pixel ratio changed. A refused size changes nothing.
    pub fn update(&self, view: View) -> Result<(), JsValue> {
        let mut scene = self.shared.scene.borrow_mut();
        if scene.view.map(|v| (v.width, v.height, v.dpr))
            != Some((view.width, view.height, view.dpr))
        {
            scene.fit(&view)?;
        }
        scene.view = Some(view);
        scene.stop_loop()?;
        let state = if view.reduced_motion {
            scene.draw()?;
            State::Still
        } else if view.hidden {
            State::Paused
        } else {
            scene.frame = Some(scene.clock.request(&self.shared.tick)?);
            State::Running
        };
        scene.state = Some(state);
        scene.report_changes()
    }
}

impl Drop for Animation {
    fn drop(&mut self) {
        // Nothing to report to: the host is going away.
        let _ = self.shared.scene.borrow_mut().stop_loop();
    }
}

impl Shared {
    fn frame(&self, now: f64) -> Result<(), JsValue> {
        let mut scene = self.scene.borrow_mut();
        let seconds = scene
            .last
            .map_or(0.0, |last| ((now - last) / 1000.0) as f32);
        scene.last = Some(now);
        scene.field.step(seconds.clamp(0.0, MAX_FRAME_SECONDS));
        scene.draw()?;
        scene.frames += 1;
        scene.frame = Some(scene.clock.request(&self.tick)?);
        scene.report_changes()
    }
}

impl Scene {
    fn fit(&mut self, view: &View) -> Result<(), JsValue> {
        self.field.resize(view.width, view.height)?;
        let (width, height) = view.device_size();
        self.surface.set_size(width, height);
        let dpr = f64::from(view.dpr);
        self.surface
            .context()
            .set_transform(dpr, 0.0, 0.0, dpr, 0.0, 0.0)
    }

    fn draw(&mut self) -> Result<(), JsValue> {
        let dpr = self.view.map_or(1.0, |v| v.dpr);
        self.painter.draw(&self.surface, &mut self.field, dpr)?;
        Ok(())
    }

    fn stop_loop(&mut self) -> Result<(), JsValue> {
        self.last = None;
        match self.frame.take() {
            Some(handle) => self.clock.cancel(handle),
            None => Ok(()),
        }
    }

    /// Tells the host page the state, the draw method and the host, when one of them changed.
    fn report_changes(&mut self) -> Result<(), JsValue> {
        let Some(state) = self.state else {
            return Ok(());
        };
        let now = (state, self.painter.drawn());
        if self.reported == Some(now) {
            return Ok(());
        }
        self.reported = Some(now);
        let report = Object::new();
        Reflect::set(&report, &"particles".into(), &state.as_str().into())?;
        Reflect::set(&report, &"particlesHost".into(), &self.clock.host().into())?;
        if let Some(drawn) = now.1 {
            Reflect::set(&report, &"drawn".into(), &drawn.as_str().into())?;
        }
        self.report.call1(&JsValue::NULL, &report)?;
        Ok(())
    }
}
