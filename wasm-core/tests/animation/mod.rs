//! What both hosts' browser tests check: a still frame of a few particles at known places, drawn
//! by the animation, has exactly the pixels the field says.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::{Function, Reflect};
use wasm_bindgen::closure::Closure;
use wasm_bindgen::{JsCast, JsValue};
use wasm_core::particles::animation::{Animation, FrameClock, Surface, View};
use wasm_core::particles::ParticleField;
use web_sys::ImageData;

/// 60 x 40 CSS px at devicePixelRatio 2, under reduced motion: one frame, drawn at once.
pub const VIEW: View = View {
    width: 60.0,
    height: 40.0,
    dpr: 2.0,
    hidden: false,
    reduced_motion: true,
};
/// All closer than the link distance, so each pair is joined by a line.
pub const PLACES: [(f32, f32); 3] = [(10.0, 10.0), (30.0, 20.0), (50.0, 30.0)];
const BRAND_BLUE: [u8; 3] = [0x0d, 0x6e, 0xa8];

/// The animation's reports, as the host page would receive them.
struct Reports {
    seen: Rc<RefCell<Vec<JsValue>>>,
    callback: Closure<dyn FnMut(JsValue)>,
}

impl Reports {
    fn new() -> Reports {
        let seen = Rc::new(RefCell::new(Vec::new()));
        let into = seen.clone();
        Reports {
            seen,
            callback: Closure::new(move |report| into.borrow_mut().push(report)),
        }
    }

    fn function(&self) -> Function {
        self.callback.as_ref().unchecked_ref::<Function>().clone()
    }

    /// The last value reported for `key`.
    fn last(&self, key: &str) -> Option<String> {
        self.seen
            .borrow()
            .iter()
            .rev()
            .find_map(|r| Reflect::get(r, &key.into()).ok()?.as_string())
    }
}

fn start_still(
    surface: Surface,
    clock: FrameClock,
    field: ParticleField,
    reports: &Reports,
) -> Animation {
    Animation::start(surface, field, clock, VIEW, reports.function()).expect("the animation starts")
}

/// A few particles at known places, drawn as paths: `pixels` reads the canvas back.
pub fn check_sparse_frame(
    surface: Surface,
    clock: FrameClock,
    pixels: impl Fn() -> ImageData,
    host: &str,
) {
    let reports = Reports::new();
    let field = ParticleField::at_rest(VIEW.width, VIEW.height, &PLACES).unwrap();
    let _animation = start_still(surface, clock, field, &reports);
    assert_pixels_follow_the_field(&pixels());
    assert_eq!(reports.last("particles").as_deref(), Some("still"));
    assert_eq!(reports.last("particlesHost").as_deref(), Some(host));
    assert_eq!(reports.last("drawn").as_deref(), Some("paths"));
}

/// 150 particles on the small canvas: thousands of links, drawn into pixels.
pub fn check_dense_frame(surface: Surface, clock: FrameClock, pixels: impl Fn() -> ImageData) {
    let reports = Reports::new();
    let field = ParticleField::new(VIEW.width, VIEW.height, 150, 4).unwrap();
    let positions = field.positions().to_vec();
    let _animation = start_still(surface, clock, field, &reports);
    assert_dense_pixels(&pixels(), &positions);
    assert_eq!(reports.last("drawn").as_deref(), Some("pixels"));
}

fn alpha_at(image: &ImageData, data: &[u8], (x, y): (f32, f32)) -> (u8, [u8; 3]) {
    let scale = VIEW.dpr;
    let (px, py) = ((x * scale) as usize, (y * scale) as usize);
    let at = (py * image.width() as usize + px) * 4;
    (data[at + 3], [data[at], data[at + 1], data[at + 2]])
}

/// Each particle is a lit disc in the brand blue, each link is drawn at its middle, and the
/// canvas away from them is empty.
fn assert_pixels_follow_the_field(image: &ImageData) {
    assert_eq!(
        (image.width(), image.height()),
        (120, 80),
        "the canvas is at devicePixelRatio 2"
    );
    let data = image.data().0;
    for place in PLACES {
        let (alpha, colour) = alpha_at(image, &data, place);
        assert!(alpha >= 100, "particle at {place:?}: alpha {alpha}");
        assert!(
            colour
                .iter()
                .zip(BRAND_BLUE)
                .all(|(&c, b)| c.abs_diff(b) <= 3),
            "particle at {place:?}: colour {colour:?}"
        );
    }
    for (i, a) in PLACES.iter().enumerate() {
        for b in &PLACES[i + 1..] {
            let middle = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
            let (alpha, _) = alpha_at(image, &data, middle);
            assert!(alpha > 0, "link {a:?} - {b:?} at its middle {middle:?}");
        }
    }
    for empty in [(58.0, 2.0), (2.0, 38.0), (55.0, 10.0), (5.0, 30.0)] {
        assert_eq!(alpha_at(image, &data, empty).0, 0, "nothing at {empty:?}");
    }
}

/// Every particle of the dense field is lit and links cover most of the canvas.
fn assert_dense_pixels(image: &ImageData, field_positions: &[f32]) {
    let data = image.data().0;
    for p in field_positions.chunks_exact(2) {
        let place = (p[0].min(VIEW.width - 0.5), p[1].min(VIEW.height - 0.5));
        assert!(
            alpha_at(image, &data, place).0 >= 100,
            "particle at {place:?}"
        );
    }
    let lit = data.chunks_exact(4).filter(|px| px[3] > 0).count();
    assert!(lit > 120 * 80 / 2, "links cover the canvas: {lit} pixels");
}
