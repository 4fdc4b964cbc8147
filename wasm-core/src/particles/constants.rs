//! Every number of the particle background, named once. The animation draws with them in wasm, and
//! `particleStyle` (bindings.rs) hands the look to any other renderer, so there is one source.

/// Particles on the page (docs/product.md §9).
pub const PARTICLE_COUNT: usize = 100;
/// Two particles closer than this (CSS px) are joined by a line (docs/product.md §9).
pub const LINK_DISTANCE: f32 = 100.0;
/// Line opacities are rounded to this many levels so the page strokes one path per level.
pub const LINK_ALPHA_BUCKETS: usize = 8;
/// Particle speeds are drawn uniformly from this range, in CSS px per second.
pub const MIN_SPEED: f32 = 12.0;
pub const MAX_SPEED: f32 = 36.0;
/// Larger than any canvas a browser allows; bounds the grid's memory.
pub const MAX_SIDE: f32 = 32_768.0;
/// Bounds the buffers' memory; far above anything the page or the benchmarks draw.
pub const MAX_PARTICLE_COUNT: usize = 200_000;
/// Fields up to this many particles reserve room for every possible link (N(N-1)/2), so finding
/// links can never allocate; larger ones reserve `RESERVED_LINKS_PER_PARTICLE` links each and
/// double only if a frame ever needs more.
pub const WORST_CASE_RESERVE_UP_TO: usize = 200;
pub const RESERVED_LINKS_PER_PARTICLE: usize = 64;
/// Floats per segment: x1, y1, x2, y2, alpha.
pub const SEGMENT_FLOATS: usize = 5;

/// How the background looks: the brand blue, kept faint so text stays readable over it.
pub const COLOR: u32 = 0x0d6ea8;
pub const COLOR_CSS: &str = "#0d6ea8";
/// Particles are discs of this radius (CSS px) at this opacity.
pub const PARTICLE_RADIUS: f32 = 2.0;
pub const PARTICLE_ALPHA: f32 = 0.5;
/// Opacity of a link between two particles at the same point; it fades to 0 at the link distance.
pub const LINK_ALPHA: f32 = 0.4;
/// Links are this wide, in CSS px.
pub const LINE_WIDTH: f32 = 1.0;

/// A frame after a stall (debugger, slow device) moves the field at most this far in time.
pub const MAX_FRAME_SECONDS: f32 = 0.1;
/// From this many links a frame the field is drawn into pixels (`FieldRaster`): a canvas without
/// a GPU strokes tens of thousands of lines far slower. Below it, one stroked path per opacity
/// level is cheaper than putting a canvas of pixels. The gap keeps a field that hovers around the
/// threshold from switching back and forth.
pub const PIXELS_FROM_LINKS: usize = 3000;
pub const PATHS_BELOW_LINKS: usize = 2000;
