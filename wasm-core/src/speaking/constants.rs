//! The speaking-detection constants of docs/product.md §9, named once.

/// A raw sum of participants' levels equal to this is full scale (level 1).
pub const RAW_SUM_FULL_SCALE: f64 = 0.15;
/// Speech is detected while the level is above this.
pub const SPEAKING_THRESHOLD: f64 = 0.01;
/// Speech ends after this long with every sample at or below the threshold.
pub const SILENCE_HOLD_MS: f64 = 1000.0;
/// How often the SDK reports levels; documented here, the detector works with any spacing.
pub const SAMPLE_INTERVAL_MS: f64 = 100.0;
