//! Properties of the particle field, run natively (`cargo test`) and as wasm
//! (`wasm-pack test --node`).

use super::constants::{LINK_ALPHA_BUCKETS, LINK_DISTANCE, PARTICLE_COUNT, SEGMENT_FLOATS};
use super::rng::Rng;
use super::*;

macro_rules! both_targets {
    ($(fn $name:ident() $body:block)*) => {$(
        #[cfg_attr(not(target_arch = "wasm32"), test)]
        #[cfg_attr(target_arch = "wasm32", wasm_bindgen_test::wasm_bindgen_test)]
        fn $name() $body
    )*};
}

/// A segment as exact bits, its two ends in a fixed order, so link sets compare exactly.
fn canonical(s: &[f32]) -> [u32; 5] {
    let (a, b) = (
        (s[0].to_bits(), s[1].to_bits()),
        (s[2].to_bits(), s[3].to_bits()),
    );
    let ((x1, y1), (x2, y2)) = if a <= b { (a, b) } else { (b, a) };
    [x1, y1, x2, y2, s[4].to_bits()]
}

fn grid_links(field: &ParticleField) -> Vec<[u32; 5]> {
    let mut links: Vec<_> = field
        .segments()
        .chunks_exact(SEGMENT_FLOATS)
        .map(canonical)
        .collect();
    links.sort_unstable();
    links
}

/// The O(N²) reference: every pair checked.
fn brute_force_links(positions: &[f32]) -> Vec<[u32; 5]> {
    let mut links = Vec::new();
    let points: Vec<_> = positions.chunks_exact(2).collect();
    for (i, p) in points.iter().enumerate() {
        for q in &points[i + 1..] {
            if let Some(alpha) = link_alpha(p[0], p[1], q[0], q[1], LINK_DISTANCE) {
                links.push(canonical(&[p[0], p[1], q[0], q[1], alpha]));
            }
        }
    }
    links.sort_unstable();
    links
}

fn assert_inside(field: &ParticleField, context: &str) {
    for p in field.positions().chunks_exact(2) {
        assert!(
            (0.0..=field.width()).contains(&p[0]) && (0.0..=field.height()).contains(&p[1]),
            "{context}: ({}, {}) outside {} x {}",
            p[0],
            p[1],
            field.width(),
            field.height()
        );
    }
}

both_targets! {
    fn grid_finds_exactly_the_brute_force_links() {
        let mut rng = Rng::new(2026);
        let mut counts = vec![1, 2, 3, 5, 10, 50, 100, 250, 500, 1000, 2000];
        counts.extend((0..10).map(|_| 1 + (rng.next_u64() % 2000) as usize));
        // Exact multiples of the cell size and odd sizes; thin strips and small squares, where
        // nearly every pair links, only for small fields to keep the reference affordable.
        let roomy = [(1280.0, 800.0), (390.0, 844.0), (333.3, 1001.7)];
        let dense = [(1280.0, 800.0), (333.3, 1001.7), (100.0, 100.0), (2000.0, 40.0), (250.0, 250.0)];
        let mut checked_links = 0;
        for (case, &count) in counts.iter().enumerate() {
            for seed in 0..3u32 {
                let sizes: &[(f32, f32)] = if count <= 300 { &dense } else { &roomy };
                let (width, height) = sizes[(case + seed as usize) % sizes.len()];
                let mut field = ParticleField::new(width, height, count, seed * 7919 + case as u32).unwrap();
                field.step(0.5 + seed as f32);
                field.find_links();
                let expected = brute_force_links(field.positions());
                assert_eq!(grid_links(&field), expected, "N = {count}, seed {seed}, {width} x {height}");
                checked_links += expected.len();
            }
        }
        assert!(checked_links > 50_000, "the fields should be dense enough to link a lot: {checked_links}");
    }

    fn segments_are_grouped_by_opacity_level() {
        let mut field = ParticleField::new(400.0, 300.0, 300, 5).unwrap();
        field.find_links();
        let ends = field.bucket_ends();
        assert_eq!(ends.len(), LINK_ALPHA_BUCKETS);
        assert_eq!(ends[LINK_ALPHA_BUCKETS - 1] as usize, field.link_count());
        let mut start = 0;
        for (level, &end) in ends.iter().enumerate() {
            for link in field.segments()[start * SEGMENT_FLOATS..end as usize * SEGMENT_FLOATS].chunks_exact(SEGMENT_FLOATS) {
                assert_eq!(alpha_bucket(link[4]), level);
                assert!(link[4] > 0.0 && link[4] <= 1.0);
            }
            start = end as usize;
        }
    }

    fn particles_stay_inside_over_ten_thousand_steps() {
        let mut field = ParticleField::new(390.0, 844.0, 200, 11).unwrap();
        let mut rng = Rng::new(3);
        for step in 0..10_000 {
            // 60 Hz, 120 Hz, 144 Hz frames and the odd multi-second stall.
            let seconds = [1.0 / 60.0, 1.0 / 120.0, 1.0 / 144.0, rng.range(0.0, 30.0)][step % 4];
            field.step(seconds);
            assert_inside(&field, &format!("after step {step}"));
        }
    }

    fn speed_does_not_depend_on_the_frame_rate() {
        let mut at_60 = ParticleField::new(1000.0, 1000.0, 50, 4).unwrap();
        let mut at_120 = ParticleField::new(1000.0, 1000.0, 50, 4).unwrap();
        for _ in 0..60 {
            at_60.step(1.0 / 60.0);
        }
        for _ in 0..120 {
            at_120.step(1.0 / 120.0);
        }
        for (a, b) in at_60.positions().iter().zip(at_120.positions()) {
            assert!((a - b).abs() < 0.01, "{a} vs {b}");
        }
    }

    fn resize_keeps_every_particle_inside() {
        let mut field = ParticleField::new(1280.0, 800.0, PARTICLE_COUNT, 9).unwrap();
        for (width, height) in [(390.0, 844.0), (100.5, 50.25), (1.0, 1.0), (1920.0, 1080.0), (320.0, 640.0)] {
            field.resize(width, height).unwrap();
            assert_eq!((field.width(), field.height()), (width, height));
            assert_inside(&field, &format!("after resize to {width} x {height}"));
            field.step(1.0 / 60.0);
            field.find_links();
            assert_eq!(grid_links(&field), brute_force_links(field.positions()));
            assert_inside(&field, &format!("after a step at {width} x {height}"));
        }
    }

    fn step_and_links_never_allocate() {
        let mut field = ParticleField::new(1280.0, 800.0, PARTICLE_COUNT, 1).unwrap();
        field.find_links();
        let buffers = |f: &ParticleField| {
            (f.positions_ptr(), f.positions().len(), f.segments_ptr(), f.segments_capacity(), f.bucket_ends_ptr())
        };
        let before = buffers(&field);
        let mut most_links = 0;
        for _ in 0..10_000 {
            field.step(1.0 / 60.0);
            field.find_links();
            most_links = most_links.max(field.link_count());
            assert_eq!(buffers(&field), before);
        }
        assert!(most_links > 0);
        // The page's field (100 particles) reserves room for every possible link, so no frame can outgrow it.
        assert_eq!(field.segments_capacity(), PARTICLE_COUNT * (PARTICLE_COUNT - 1) / 2 * SEGMENT_FLOATS);
    }

    fn same_seed_same_field() {
        let a = ParticleField::new(800.0, 600.0, 100, 42).unwrap();
        let b = ParticleField::new(800.0, 600.0, 100, 42).unwrap();
        let c = ParticleField::new(800.0, 600.0, 100, 43).unwrap();
        assert_eq!(a.positions(), b.positions());
        assert_eq!(a.velocities(), b.velocities());
        assert_ne!(a.positions(), c.positions());
    }

    fn bad_sizes_and_counts_are_refused_with_a_clear_error() {
        for (width, height) in [(0.0, 100.0), (100.0, -1.0), (f32::NAN, 100.0), (f32::INFINITY, 10.0), (1e6, 10.0)] {
            let error = ParticleField::new(width, height, 10, 0).err().unwrap();
            assert!(matches!(error, FieldError::InvalidSize { .. }), "{error:?}");
            assert!(error.to_string().starts_with("particle field width and height must be finite, positive"));
        }
        let error = ParticleField::new(100.0, 100.0, 10_000_000, 0).err().unwrap();
        assert_eq!(error.to_string(), "particle count must be at most 200000, got 10000000");
        let mut field = ParticleField::new(100.0, 100.0, 10, 0).unwrap();
        let before = field.positions().to_vec();
        assert!(field.resize(0.0, 100.0).is_err());
        assert_eq!((field.width(), field.positions()), (100.0, &before[..]), "a refused resize changes nothing");
    }

    fn an_empty_field_has_no_links() {
        let mut field = ParticleField::new(100.0, 100.0, 0, 0).unwrap();
        field.step(1.0);
        field.find_links();
        assert_eq!(field.link_count(), 0);
    }

    fn raster_draws_a_line_on_the_pixels_it_crosses() {
        let mut raster = FieldRaster::new(0x0d6ea8, 1.0, 0.0, 0.0);
        raster.resize(40, 20).unwrap();
        // Along the centres of row 10, from the centre of column 5 to that of column 30.
        raster_line(&mut raster, 5.5, 10.5, 30.5, 10.5, 1.0);
        for y in 0..20 {
            for x in 0..40 {
                let expected = if y == 10 && (5..=30).contains(&x) { 255 } else { 0 };
                assert_eq!(raster.alpha_at(x, y), expected, "pixel ({x}, {y})");
            }
        }
        let [r, g, b, _] = raster.pixels()[0].to_le_bytes();
        assert_eq!((r, g, b), (0x0d, 0x6e, 0xa8), "bytes in ImageData order");
    }

    fn raster_lines_keep_their_ink_at_any_angle() {
        let mut rng = Rng::new(8);
        let mut raster = FieldRaster::new(0x000000, 1.0, 0.0, 0.0);
        raster.resize(300, 300).unwrap();
        for _ in 0..200 {
            let (x0, y0) = (rng.range(100.0, 200.0), rng.range(100.0, 200.0));
            let (x1, y1) = (rng.range(20.0, 280.0), rng.range(20.0, 280.0));
            let alpha = rng.range(0.1, 1.0);
            raster.resize(300, 300).unwrap();
            raster_line(&mut raster, x0, y0, x1, y1, alpha);
            // A one-pixel line lays down its length along the longer axis, at its opacity.
            let major = (x1 - x0).abs().max((y1 - y0).abs());
            let ink: f32 = raster.coverage().map(|a| f32::from(a) / 255.0).sum();
            // Each step may lose up to 2/255 to rounding down, and the ends one step either way.
            assert!((ink - major * alpha).abs() <= 2.0 + major * 2.0 / 255.0, "{ink} vs {} for {x0},{y0} -> {x1},{y1}", major * alpha);
        }
    }

    fn raster_clips_whatever_lies_outside() {
        let mut raster = FieldRaster::new(0x0d6ea8, 1.0, 3.0, 1.0);
        raster.resize(50, 30).unwrap();
        for (x0, y0, x1, y1) in [(-100.0, -100.0, 200.0, 150.0), (-5.0, 10.0, -1.0, 20.0), (60.0, 0.0, 49.9, 29.9), (25.0, -1e6, 25.0, 1e6), (1e9, 1e9, -1e9, -1e9)] {
            raster_line(&mut raster, x0, y0, x1, y1, 1.0);
        }
        assert!(raster.alpha_at(25, 15) > 0, "the visible middle of a long line is drawn");
        let mut field = ParticleField::new(50.0, 30.0, 200, 3).unwrap();
        field.find_links();
        // A scale that throws most of the field off the buffer.
        raster.draw(&field, 7.5);
        assert_eq!((raster.pixels().len(), raster.coverage().count()), (50 * 30, 50 * 30));
    }

    fn raster_lines_along_the_edges_light_the_edge_pixels() {
        let mut raster = FieldRaster::new(0x0d6ea8, 1.0, 0.0, 0.0);
        raster.resize(40, 20).unwrap();
        // On the canvas's edges, each line half on the edge pixels and half off the canvas.
        for (x0, y0, x1, y1) in [(0.5, 0.0, 39.5, 0.0), (0.5, 20.0, 39.5, 20.0), (0.0, 0.5, 0.0, 19.5), (40.0, 0.5, 40.0, 19.5)] {
            raster_line(&mut raster, x0, y0, x1, y1, 1.0);
        }
        for y in 0..20 {
            for x in 0..40 {
                let edges = [x == 0, x == 39, y == 0, y == 19].into_iter().filter(|&e| e).count();
                // Half covered by one line, three quarters where two cross (a corner).
                let expected = [0, 128, 192][edges];
                assert!(raster.alpha_at(x, y).abs_diff(expected) <= 1, "pixel ({x}, {y}): {}", raster.alpha_at(x, y));
            }
        }
    }

    fn raster_draws_every_particle_and_never_allocates() {
        let mut field = ParticleField::new(1280.0, 800.0, 2000, 12).unwrap();
        let mut raster = FieldRaster::new(0x0d6ea8, 0.4, 2.0, 0.5);
        raster.resize(1280, 800).unwrap();
        let buffer = (raster.pixels_ptr(), raster.pixels().len());
        for _ in 0..20 {
            field.step(1.0 / 60.0);
            field.find_links();
            raster.draw(&field, 1.0);
            assert_eq!((raster.pixels_ptr(), raster.pixels().len()), buffer);
        }
        assert!(field.link_count() > 30_000, "a dense field: {}", field.link_count());
        for p in field.positions().chunks_exact(2) {
            let (x, y) = ((p[0] as usize).min(1279), (p[1] as usize).min(799));
            assert!(raster.alpha_at(x, y) >= 127, "particle at ({}, {})", p[0], p[1]);
        }
        // The pixels the page puts on the canvas: the colour, at the opacity drawn.
        for (&pixel, alpha) in raster.pixels().iter().zip(raster.coverage()) {
            assert_eq!(pixel.to_le_bytes(), [0x0d, 0x6e, 0xa8, alpha]);
        }
        let lit = raster.coverage().filter(|&a| a > 0).count();
        assert!(lit > 1280 * 800 / 2, "links cover most of a dense field: {lit} pixels");
    }

    fn raster_refuses_bad_sizes_and_keeps_its_buffer() {
        let mut raster = FieldRaster::new(0x0d6ea8, 0.4, 2.0, 0.5);
        raster.resize(10, 10).unwrap();
        for (width, height) in [(0, 10), (10, 0), (40_000, 10)] {
            let error = raster.resize(width, height).unwrap_err();
            assert!(error.to_string().starts_with("particle field width and height must be finite, positive"));
            assert_eq!((raster.width(), raster.height(), raster.pixels().len()), (10, 10, 100));
        }
    }
}

/// Draws one segment (x1, y1, x2, y2, alpha) in CSS px at scale 1, as `draw` draws each link.
fn raster_line(raster: &mut FieldRaster, x0: f32, y0: f32, x1: f32, y1: f32, alpha: f32) {
    raster.draw_segment(&[x0, y0, x1, y1, alpha], 1.0);
}
