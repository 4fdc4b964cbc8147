//! Draws a dense field straight into an RGBA pixel buffer that the page puts on its canvas in one
//! call. A canvas without a GPU rasterises stroked paths on the CPU, and tens of thousands of
//! anti-aliased lines a frame (2,000 particles on a 1280 x 800 screen make about 55,000) cost it
//! 50 to 100 ms; written here as Wu lines, one device pixel wide, they cost about 8 ms natively
//! and 9 ms as wasm in Chromium (`scripts/bench-particles.sh`, docs/figures.md). Sparse fields
//! (the page's 100 particles) are still stroked as paths, one per opacity level, which is cheaper
//! than moving a canvas of pixels.
//!
//! Everything is one colour, so a pixel's colour never changes and drawing over it only changes
//! its opacity: `a + s * (1 - a)`, kept as the transparency `t * (1 - s)`.

use super::constants::{MAX_SIDE, SEGMENT_FLOATS};
use super::error::FieldError;
use super::field::ParticleField;

pub struct FieldRaster {
    width: usize,
    height: usize,
    /// Each pixel's transparency while drawing, 255 where nothing is drawn: a byte, a quarter
    /// of a pixel, so more of it stays in the CPU cache. Drawing over a pixel only multiplies
    /// its transparency, the cheapest form of "over". The buffer has a margin of one pixel all
    /// round (`MARGIN`), never shown, so a line's step may touch the pixel just past an edge
    /// and the innermost loop needs no edge checks.
    transparency: Vec<u8>,
    /// One u32 per pixel whose bytes in memory are R, G, B, A: the layout of `ImageData`.
    pixels: Vec<u32>,
    /// The colour with alpha 0: a cleared pixel.
    clear: u32,
    link_alpha: f32,
    particle_radius: f32,
    particle_alpha: f32,
}

/// Pixels of margin on each side of the transparency buffer.
const MARGIN: usize = 1;

impl FieldRaster {
    /// `color` is 0xRRGGBB; a link at distance 0 is drawn with opacity `link_alpha`, fading to 0
    /// at the link distance; particles are discs of `particle_radius` CSS px at `particle_alpha`.
    /// The buffer is empty until the first `resize`.
    pub fn new(
        color: u32,
        link_alpha: f32,
        particle_radius: f32,
        particle_alpha: f32,
    ) -> FieldRaster {
        let [_, r, g, b] = color.to_be_bytes();
        FieldRaster {
            width: 0,
            height: 0,
            transparency: Vec::new(),
            pixels: Vec::new(),
            clear: u32::from_le_bytes([r, g, b, 0]),
            link_alpha: link_alpha.clamp(0.0, 1.0),
            particle_radius: particle_radius.max(0.0),
            particle_alpha: particle_alpha.clamp(0.0, 1.0),
        }
    }

    /// The canvas size in device pixels; the buffer is reallocated only here.
    pub fn resize(&mut self, width: u32, height: u32) -> Result<(), FieldError> {
        let ok = |side: u32| side > 0 && side as f32 <= MAX_SIDE;
        if !(ok(width) && ok(height)) {
            return Err(FieldError::InvalidSize {
                width: width as f32,
                height: height as f32,
            });
        }
        self.width = width as usize;
        self.height = height as usize;
        self.transparency.clear();
        self.transparency
            .resize(self.stride() * (self.height + 2 * MARGIN), 255);
        self.pixels.clear();
        self.pixels.resize(self.width * self.height, self.clear);
        Ok(())
    }

    /// Clears the buffer and draws the field's current links, then its particles, scaling CSS px
    /// by `scale` (the device pixel ratio). Call `find_links` on the field first.
    pub fn draw(&mut self, field: &ParticleField, scale: f32) {
        self.transparency.fill(255);
        for segment in field.segments().chunks_exact(SEGMENT_FLOATS) {
            self.draw_segment(segment, scale);
        }
        let radius = self.particle_radius * scale;
        for p in field.positions().chunks_exact(2) {
            self.disc(
                to_pixel_centres(p[0], scale),
                to_pixel_centres(p[1], scale),
                radius,
                self.particle_alpha,
            );
        }
        let (clear, stride) = (self.clear, self.stride());
        let shown = self
            .transparency
            .chunks_exact(stride)
            .skip(MARGIN)
            .map(|row| &row[MARGIN..]);
        for (pixels, transparency) in self.pixels.chunks_exact_mut(self.width).zip(shown) {
            for (pixel, &transparency) in pixels.iter_mut().zip(transparency) {
                *pixel = clear | (u32::from(255 - transparency) << 24);
            }
        }
    }

    /// Where the pixels are; the allocation tests watch that no frame moves them.
    #[cfg(test)]
    pub fn pixels_ptr(&self) -> *const u32 {
        self.pixels.as_ptr()
    }

    pub fn width(&self) -> usize {
        self.width
    }

    pub fn height(&self) -> usize {
        self.height
    }

    pub fn pixels(&self) -> &[u32] {
        &self.pixels
    }

    /// The pixels as `ImageData` bytes: R, G, B, A per pixel, row by row.
    pub fn pixel_bytes(&self) -> &[u8] {
        // SAFETY: u8 has no alignment or validity requirement, and the byte length covers
        // exactly the u32s, which live as long as the borrow of `self`.
        unsafe {
            std::slice::from_raw_parts(self.pixels.as_ptr().cast::<u8>(), self.pixels.len() * 4)
        }
    }

    /// The opacity drawn at pixel (x, y) so far, 0 to 255.
    #[cfg(test)]
    pub fn alpha_at(&self, x: usize, y: usize) -> u8 {
        255 - self.transparency[self.index(x, y)]
    }

    /// The opacity drawn at every pixel so far, row by row (the margin left out).
    #[cfg(test)]
    pub fn coverage(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.height).flat_map(move |y| {
            let start = self.index(0, y);
            self.transparency[start..start + self.width]
                .iter()
                .map(|t| 255 - t)
        })
    }

    /// One link as the field writes it (x1, y1, x2, y2, alpha in CSS px), over what is drawn.
    pub fn draw_segment(&mut self, segment: &[f32], scale: f32) {
        let at = |v: f32| to_pixel_centres(v, scale);
        self.line(
            at(segment[0]),
            at(segment[1]),
            at(segment[2]),
            at(segment[3]),
            self.link_alpha * segment[4],
        );
    }

    /// Pixels from one transparency row to the next.
    fn stride(&self) -> usize {
        self.width + 2 * MARGIN
    }

    /// Where pixel (x, y) of the canvas is in the transparency buffer.
    fn index(&self, x: usize, y: usize) -> usize {
        (y + MARGIN) * self.stride() + x + MARGIN
    }

    /// Xiaolin Wu's anti-aliased line, one pixel wide, between pixel-centre coordinates: it steps
    /// one pixel at a time along the longer axis and shares each step's opacity between the two
    /// pixels the line passes between on the other axis. Only the steps that can touch the buffer
    /// are walked.
    fn line(&mut self, x0: f32, y0: f32, x1: f32, y1: f32, alpha: f32) {
        let strength = (alpha.clamp(0.0, 1.0) * 256.0) as u32;
        // A link near the link distance rounds to no opacity: walking it would change no pixel.
        if strength == 0 {
            return;
        }
        let steep = (y1 - y0).abs() > (x1 - x0).abs();
        // (major, minor) coordinates and the buffer's extent along each.
        let (mut a0, mut b0, mut a1, mut b1, major_len, minor_len) = if steep {
            (y0, x0, y1, x1, self.height, self.width)
        } else {
            (x0, y0, x1, y1, self.width, self.height)
        };
        if a0 > a1 {
            std::mem::swap(&mut a0, &mut a1);
            std::mem::swap(&mut b0, &mut b1);
        }
        let gradient = if a1 > a0 { (b1 - b0) / (a1 - a0) } else { 0.0 };
        // Steps inside the buffer along the major axis, where the minor coordinate is in
        // [-1, minor_len): either of the two pixels it falls between can be inside.
        let (mut first, mut last) = (a0.ceil().max(0.0), a1.floor().min(major_len as f32 - 1.0));
        let (low, high) = (-1.0, minor_len as f32);
        // A link between particles on the field stays inside; only others need clipping.
        if !(low <= b0.min(b1) && b0.max(b1) < high) {
            if gradient != 0.0 {
                let (p, q) = (a0 + (low - b0) / gradient, a0 + (high - b0) / gradient);
                first = first.max(p.min(q).ceil());
                last = last.min(p.max(q).floor());
            } else if !(low..high).contains(&b0) {
                return;
            }
        }
        if last < first {
            return;
        }
        // The minor coordinate biased by the margin, so it is never negative inside the buffer.
        let minor = ((b0 + gradient * (first - a0) + MARGIN as f32) * FIXED_ONE) as i64;
        let Some(walk) = Walk::clipped(
            first as usize,
            last as usize,
            minor,
            (gradient * FIXED_ONE) as i64,
            minor_len,
            strength,
        ) else {
            return;
        };
        let stride = self.stride();
        let pixels = &mut self.transparency;
        // One loop per orientation and blend, so the index arithmetic of each compiles to constants.
        match (steep, strength >= SMOOTH_FROM_STRENGTH) {
            (true, true) => walk.run::<true, true>(pixels, stride),
            (true, false) => walk.run::<true, false>(pixels, stride),
            (false, true) => walk.run::<false, true>(pixels, stride),
            (false, false) => walk.run::<false, false>(pixels, stride),
        }
    }

    /// A disc centred on a pixel-centre coordinate, its edge anti-aliased over one pixel.
    fn disc(&mut self, cx: f32, cy: f32, radius: f32, alpha: f32) {
        let reach = radius + 0.5;
        let span = |c: f32, len: usize| {
            (
                (c - reach).ceil().max(0.0),
                (c + reach).floor().min(len as f32 - 1.0),
            )
        };
        let ((left, right), (top, bottom)) = (span(cx, self.width), span(cy, self.height));
        if right < left || bottom < top {
            return;
        }
        for y in top as usize..=bottom as usize {
            for x in left as usize..=right as usize {
                let (dx, dy) = (x as f32 - cx, y as f32 - cy);
                let coverage = (reach - (dx * dx + dy * dy).sqrt()).clamp(0.0, 1.0);
                let index = self.index(x, y);
                fade(
                    &mut self.transparency[index],
                    256 - (coverage * alpha * 256.0) as u32,
                );
            }
        }
    }
}
/// Pixel (i, j) is the square [i, i + 1) x [j, j + 1); shifting by half a pixel puts its centre at
/// (i, j), which is where line and disc coverage is measured from.
#[inline]
fn to_pixel_centres(css_px: f32, scale: f32) -> f32 {
    css_px * scale - 0.5
}

/// Draws over a pixel: its transparency is multiplied by `keep` / 256, where `keep` is 256 less
/// the opacity drawn (0 to 256); opacity `a + s * (1 - a)` is transparency `t * (1 - s)`.
#[inline]
fn fade(transparency: &mut u8, keep: u32) {
    *transparency = ((u32::from(*transparency) * keep) >> 8) as u8;
}

/// Lines at least this opaque (of 256, a tenth) are anti-aliased; fainter ones, the longest
/// links and over half a dense field's steps, light only the nearer of the two pixels with the
/// whole step's opacity: the same ink for half the pixel writes, and that faint, no stair steps
/// show (screenshots compared in docs/figures.md).
const SMOOTH_FROM_STRENGTH: u32 = 26;

/// 1.0 in the 16.16 fixed point a line's minor coordinate is stepped in: its integer part is the
/// pixel above the line and its fraction the share of the pixel below, with no float rounding
/// per step.
const FIXED_ONE: f32 = 65_536.0;

/// The steps of one Wu line along its major axis, clipped to the buffer and its margin.
struct Walk {
    /// The first step along the major axis and how many there are.
    first: usize,
    steps: usize,
    /// The minor coordinate at the first step, biased by `MARGIN`, and its change per step, in
    /// 16.16 fixed point.
    minor: u32,
    step: i32,
    /// The line's opacity, 0 to 256.
    strength: u32,
    /// The buffer's extent along the minor axis, margin left out.
    rows: usize,
}

impl Walk {
    /// The steps `first..=last` less any end step whose minor coordinate, after float rounding,
    /// lies a hair outside [-1, rows) (here biased by the margin to [0, rows + 1)): the minor
    /// coordinate moves linearly, so with both ends inside, every step's two pixels are inside
    /// the buffer and its margin.
    fn clipped(
        mut first: usize,
        mut last: usize,
        mut minor: i64,
        step: i64,
        rows: usize,
        strength: u32,
    ) -> Option<Walk> {
        let inside = |m: i64| (0..(rows + 2 * MARGIN - 1) as i64 * (1 << 16)).contains(&m);
        let ends_inside = |first: usize, last: usize, minor: i64| {
            inside(minor) && inside(minor + step * (last - first) as i64)
        };
        // Rounding moves an end by far less than a pixel, so a step or two at most.
        let mut trims = 0;
        while !ends_inside(first, last, minor) {
            if first >= last || trims == 4 {
                return None;
            }
            if inside(minor) {
                last -= 1;
            } else {
                first += 1;
                minor += step;
            }
            trims += 1;
        }
        Some(Walk {
            first,
            steps: last - first + 1,
            minor: minor as u32,
            step: step as i32,
            strength,
            rows,
        })
    }

    /// Blends each step's opacity into the two pixels it falls between (`SMOOTH`) or all of it
    /// into the nearer one.
    #[inline(always)]
    fn run<const STEEP: bool, const SMOOTH: bool>(self, transparency: &mut [u8], stride: usize) {
        let Walk {
            first,
            steps,
            mut minor,
            step,
            strength,
            rows,
        } = self;
        // The major axis is y for a steep line, x otherwise; `minor >> 16` is already biased by
        // the margin and the major coordinate is biased here.
        let (major_stride, minor_stride) = if STEEP { (stride, 1) } else { (1, stride) };
        let mut base = (first + MARGIN) * major_stride;
        let unlit = 256 - strength;
        let last_pixel = base + (steps - 1) * major_stride + (rows + 2 * MARGIN - 1) * minor_stride;
        assert!(
            last_pixel < transparency.len(),
            "a line's steps are clipped to the buffer"
        );
        for _ in 0..steps {
            let row = (minor >> 16) as usize;
            let upper = base + row * minor_stride;
            // SAFETY: `Walk::clipped` keeps every step's minor coordinate in [0, rows + 1) with
            // the margin's bias, and its major one inside the buffer, so both pixels, `row` and
            // `row + 1` of the margin-biased rows, are inside the buffer and its margin, and the
            // nearer is one of them. This is the innermost loop of a dense frame (millions of
            // steps), where bounds checks cost a quarter of it (`scripts/bench-particles.sh native`).
            unsafe {
                if SMOOTH {
                    let lower = (((minor >> 8) & 0xff) * strength) >> 8;
                    fade(transparency.get_unchecked_mut(upper), unlit + lower);
                    fade(
                        transparency.get_unchecked_mut(upper + minor_stride),
                        256 - lower,
                    );
                } else {
                    let nearer = upper + ((minor >> 15) & 1) as usize * minor_stride;
                    fade(transparency.get_unchecked_mut(nearer), unlit);
                }
            }
            minor = minor.wrapping_add_signed(step);
            base += major_stride;
        }
    }
}
