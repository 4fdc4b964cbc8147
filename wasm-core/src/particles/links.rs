//! Link search on a uniform grid whose cells are one link distance wide: a partner closer than
//! the link distance can only be in the same cell or one of the eight around it, so the work
//! grows with N (at a given density), not N².
//!
//! Segments come out grouped by opacity level, so the page strokes one path per level.

use super::constants::{LINK_ALPHA_BUCKETS, SEGMENT_FLOATS};

/// Buffers reused from frame to frame; they are only reallocated when the canvas size or the
/// particle count changes, or when a frame needs more links than ever reserved.
pub struct LinkGrid {
    distance: f32,
    cols: usize,
    rows: usize,
    /// `cell_start[c]..cell_start[c + 1]` indexes `sorted` for cell `c`.
    cell_start: Vec<u32>,
    cell_of: Vec<u32>,
    /// Positions (x, y) sorted by cell, so a cell's particles are contiguous in memory.
    sorted: Vec<f32>,
    /// Links in search order, then bucketed into `segments`.
    found: Vec<f32>,
    found_bucket: Vec<u8>,
    segments: Vec<f32>,
    bucket_ends: [u32; LINK_ALPHA_BUCKETS],
}

impl LinkGrid {
    pub fn new(
        distance: f32,
        width: f32,
        height: f32,
        count: usize,
        reserved_links: usize,
    ) -> Self {
        let mut grid = Self {
            distance,
            cols: 0,
            rows: 0,
            cell_start: Vec::new(),
            cell_of: vec![0; count],
            sorted: vec![0.0; 2 * count],
            found: Vec::with_capacity(reserved_links * SEGMENT_FLOATS),
            found_bucket: Vec::with_capacity(reserved_links),
            segments: Vec::with_capacity(reserved_links * SEGMENT_FLOATS),
            bucket_ends: [0; LINK_ALPHA_BUCKETS],
        };
        grid.resize(width, height);
        grid
    }

    pub fn resize(&mut self, width: f32, height: f32) {
        self.cols = ((width / self.distance).ceil() as usize).max(1);
        self.rows = ((height / self.distance).ceil() as usize).max(1);
        self.cell_start.clear();
        self.cell_start.resize(self.cols * self.rows + 1, 0);
    }

    pub fn segments(&self) -> &[f32] {
        &self.segments
    }

    pub fn segments_capacity(&self) -> usize {
        self.segments.capacity()
    }

    pub fn bucket_ends(&self) -> &[u32; LINK_ALPHA_BUCKETS] {
        &self.bucket_ends
    }

    pub fn link_count(&self) -> usize {
        self.segments.len() / SEGMENT_FLOATS
    }

    fn cell(&self, x: f32, y: f32) -> usize {
        // Particles may sit exactly on the far edge; they belong to the last cell.
        let cx = ((x / self.distance) as usize).min(self.cols - 1);
        let cy = ((y / self.distance) as usize).min(self.rows - 1);
        cy * self.cols + cx
    }

    /// Finds every pair closer than the link distance among `positions` (x, y interleaved).
    pub fn find(&mut self, positions: &[f32]) {
        self.sort_into_cells(positions);
        self.found.clear();
        self.found_bucket.clear();
        for cy in 0..self.rows {
            for cx in 0..self.cols {
                let here = self.range(cy * self.cols + cx);
                self.pairs_within(here.clone());
                // Each pair of neighbouring cells is visited once: right, and the row below.
                if cx + 1 < self.cols {
                    self.pairs_between(here.clone(), self.range(cy * self.cols + cx + 1));
                }
                if cy + 1 < self.rows {
                    let below = (cy + 1) * self.cols;
                    if cx > 0 {
                        self.pairs_between(here.clone(), self.range(below + cx - 1));
                    }
                    self.pairs_between(here.clone(), self.range(below + cx));
                    if cx + 1 < self.cols {
                        self.pairs_between(here.clone(), self.range(below + cx + 1));
                    }
                }
            }
        }
        self.bucket_segments();
    }

    fn range(&self, cell: usize) -> std::ops::Range<usize> {
        self.cell_start[cell] as usize..self.cell_start[cell + 1] as usize
    }

    /// Counting sort of the particles by cell.
    fn sort_into_cells(&mut self, positions: &[f32]) {
        self.cell_start.fill(0);
        for i in 0..self.cell_of.len() {
            let cell = self.cell(positions[2 * i], positions[2 * i + 1]);
            self.cell_of[i] = cell as u32;
            self.cell_start[cell + 1] += 1;
        }
        for c in 1..self.cell_start.len() {
            self.cell_start[c] += self.cell_start[c - 1];
        }
        // Scatter using cell_start as a cursor, then shift it back into start offsets.
        for i in 0..self.cell_of.len() {
            let cell = self.cell_of[i] as usize;
            let slot = self.cell_start[cell] as usize;
            self.sorted[2 * slot] = positions[2 * i];
            self.sorted[2 * slot + 1] = positions[2 * i + 1];
            self.cell_start[cell] += 1;
        }
        for c in (1..self.cell_start.len()).rev() {
            self.cell_start[c] = self.cell_start[c - 1];
        }
        self.cell_start[0] = 0;
    }

    fn pairs_within(&mut self, cell: std::ops::Range<usize>) {
        for a in cell.clone() {
            self.links_from(a, a + 1..cell.end);
        }
    }

    fn pairs_between(&mut self, first: std::ops::Range<usize>, second: std::ops::Range<usize>) {
        for a in first {
            self.links_from(a, second.clone());
        }
    }

    /// The links between particle `a` and each of `others` (indexes into `sorted`). The hot loop
    /// of the search (a dense field tests about 170,000 pairs a frame), so it reads the
    /// partners as one slice and borrows each buffer once.
    #[inline]
    fn links_from(&mut self, a: usize, others: std::ops::Range<usize>) {
        let LinkGrid {
            sorted,
            found,
            found_bucket,
            distance,
            ..
        } = self;
        let (x1, y1) = (sorted[2 * a], sorted[2 * a + 1]);
        for partner in sorted[2 * others.start..2 * others.end].chunks_exact(2) {
            let (x2, y2) = (partner[0], partner[1]);
            if let Some(alpha) = link_alpha(x1, y1, x2, y2, *distance) {
                found.extend_from_slice(&[x1, y1, x2, y2, alpha]);
                found_bucket.push(alpha_bucket(alpha) as u8);
            }
        }
    }

    /// Stable counting sort of the found links by opacity level into `segments`.
    fn bucket_segments(&mut self) {
        let mut starts = [0u32; LINK_ALPHA_BUCKETS];
        for &b in &self.found_bucket {
            starts[b as usize] += 1;
        }
        let mut total = 0;
        for (start, end) in starts.iter_mut().zip(self.bucket_ends.iter_mut()) {
            let n = *start;
            *start = total;
            total += n;
            *end = total;
        }
        self.segments.clear();
        self.segments.resize(self.found.len(), 0.0);
        for (link, &b) in self
            .found
            .chunks_exact(SEGMENT_FLOATS)
            .zip(&self.found_bucket)
        {
            let at = starts[b as usize] as usize * SEGMENT_FLOATS;
            self.segments[at..at + SEGMENT_FLOATS].copy_from_slice(link);
            starts[b as usize] += 1;
        }
    }
}

/// The line's opacity, fading linearly from 1 (same point) to 0 (at the link distance), or
/// `None` when the two points are not closer than the link distance.
#[inline]
pub fn link_alpha(x1: f32, y1: f32, x2: f32, y2: f32, distance: f32) -> Option<f32> {
    let (dx, dy) = (x2 - x1, y2 - y1);
    let d2 = dx * dx + dy * dy;
    (d2 < distance * distance).then(|| 1.0 - d2.sqrt() / distance)
}

/// The opacity level a link is drawn at: `alpha` in (0, 1] rounded down to one of the levels.
#[inline]
pub fn alpha_bucket(alpha: f32) -> usize {
    ((alpha * LINK_ALPHA_BUCKETS as f32) as usize).min(LINK_ALPHA_BUCKETS - 1)
}
