use super::constants::{RAW_SUM_FULL_SCALE, SILENCE_HOLD_MS, SPEAKING_THRESHOLD};

/// `min(1, sum / 0.15)`; NaN and negative sums are silence (0).
pub fn level_from_raw_sum(sum: f64) -> f64 {
    clean(sum / RAW_SUM_FULL_SCALE)
}

/// A level clamped to 0..=1, with NaN and negative values read as silence.
fn clean(level: f64) -> f64 {
    if level.is_nan() || level <= 0.0 {
        0.0
    } else {
        level.min(1.0)
    }
}

/// Says whether someone is speaking, from levels sampled over time.
///
/// Speaking starts with the first sample above the threshold and stops once `SILENCE_HOLD_MS`
/// have passed since the last such sample. Time never runs backwards: a timestamp earlier than
/// the previous one (timer jitter, clock adjustments) counts as the previous one.
#[derive(Clone, Debug, Default)]
pub struct SpeakingDetector {
    level: f64,
    now_ms: Option<f64>,
    started_ms: Option<f64>,
    last_loud_ms: Option<f64>,
}

impl SpeakingDetector {
    pub fn new() -> SpeakingDetector {
        SpeakingDetector::default()
    }

    /// Feeds a level already on the 0..1 scale (the SDK's `volume-level`); returns `speaking`.
    pub fn feed_level(&mut self, level: f64, now_ms: f64) -> bool {
        self.level = clean(level);
        let now = self.advance(now_ms);
        if self.level > SPEAKING_THRESHOLD {
            self.last_loud_ms = Some(now);
        }
        self.is_speaking()
    }

    /// Feeds a raw sum of participants' levels; it is scaled once, then fed as a level.
    pub fn feed_raw_sum(&mut self, sum: f64, now_ms: f64) -> bool {
        self.feed_level(level_from_raw_sum(sum), now_ms)
    }

    /// Moves the clock without a sample, so speaking can end while samples have stopped.
    pub fn advance(&mut self, now_ms: f64) -> f64 {
        let now = match (self.now_ms, now_ms.is_finite()) {
            (Some(previous), true) => previous.max(now_ms),
            (Some(previous), false) => previous,
            (None, true) => now_ms,
            (None, false) => 0.0,
        };
        self.now_ms = Some(now);
        self.started_ms.get_or_insert(now);
        now
    }

    /// The latest level, 0..=1.
    pub fn level(&self) -> f64 {
        self.level
    }

    pub fn is_speaking(&self) -> bool {
        match (self.last_loud_ms, self.now_ms) {
            (Some(loud), Some(now)) => now - loud < SILENCE_HOLD_MS,
            _ => false,
        }
    }

    /// How long, at the detector's clock, nothing has been above the threshold (since the first
    /// sample when nothing ever was).
    pub fn silent_for_ms(&self) -> f64 {
        match (self.last_loud_ms.or(self.started_ms), self.now_ms) {
            (Some(since), Some(now)) if self.level <= SPEAKING_THRESHOLD => now - since,
            _ => 0.0,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::speaking::SAMPLE_INTERVAL_MS;

    /// Feeds levels every 100 ms from t = 0 and returns the speaking flag after each.
    fn script(levels: &[f64]) -> Vec<bool> {
        let mut d = SpeakingDetector::new();
        levels
            .iter()
            .enumerate()
            .map(|(i, &l)| d.feed_level(l, i as f64 * SAMPLE_INTERVAL_MS))
            .collect()
    }

    #[test]
    fn raw_sums_are_scaled_once_and_capped() {
        assert_eq!(level_from_raw_sum(0.0), 0.0);
        assert!((level_from_raw_sum(0.075) - 0.5).abs() < 1e-12);
        assert_eq!(level_from_raw_sum(0.15), 1.0);
        assert_eq!(level_from_raw_sum(3.0), 1.0);
        let mut raw = SpeakingDetector::new();
        let mut scaled = SpeakingDetector::new();
        raw.feed_raw_sum(0.03, 0.0);
        scaled.feed_level(0.2, 0.0);
        assert!((raw.level() - scaled.level()).abs() < 1e-12);
        scaled.feed_level(0.9, 100.0);
        assert_eq!(
            scaled.level(),
            0.9,
            "an already-scaled level is not divided again"
        );
    }

    #[test]
    fn the_threshold_is_strictly_above_one_hundredth() {
        assert_eq!(script(&[SPEAKING_THRESHOLD]), [false]);
        assert_eq!(script(&[0.0100001]), [true]);
        let mut d = SpeakingDetector::new();
        assert!(!d.feed_raw_sum(SPEAKING_THRESHOLD * RAW_SUM_FULL_SCALE, 0.0));
        assert!(d.feed_raw_sum(0.0016, 100.0));
    }

    #[test]
    fn speaking_ends_exactly_one_second_after_the_last_loud_sample() {
        let mut d = SpeakingDetector::new();
        assert!(d.feed_level(0.5, 0.0));
        assert!(d.feed_level(0.0, 999.0));
        assert!(d.feed_level(0.0, 999.999));
        assert!(!d.feed_level(0.0, 1000.0));
        assert!(!d.feed_level(0.0, 1500.0));
    }

    #[test]
    fn a_loud_sample_inside_the_hold_extends_it() {
        let mut levels = vec![0.4, 0.0, 0.0, 0.0, 0.0, 0.3];
        levels.extend([0.0; 10]);
        let flags = script(&levels);
        // Last loud sample at 500 ms: still speaking at 1400 ms, silent from 1500 ms.
        assert!(flags[..15].iter().all(|&s| s), "{flags:?}");
        assert!(!flags[15], "{flags:?}");
    }

    #[test]
    fn jittered_timestamps_and_backwards_clocks_are_tolerated() {
        let mut d = SpeakingDetector::new();
        let times = [0.0, 130.0, 190.0, 330.0, 300.0, 420.0];
        for t in times {
            assert!(d.feed_level(0.2, t));
        }
        // The clock went back to 300 but counts as 330; the last loud sample is at 420.
        assert!(d.feed_level(0.0, 1419.0));
        assert!(!d.feed_level(0.0, 1420.0));
        assert!(
            !d.feed_level(0.0, 1000.0),
            "an earlier time does not revive speech"
        );
    }

    #[test]
    fn nan_negative_and_infinite_input() {
        let mut d = SpeakingDetector::new();
        assert!(!d.feed_level(f64::NAN, 0.0));
        assert_eq!(d.level(), 0.0);
        assert!(!d.feed_level(-0.5, 100.0));
        assert!(!d.feed_raw_sum(-1.0, 200.0));
        assert_eq!(d.level(), 0.0);
        assert!(d.feed_level(f64::INFINITY, 300.0));
        assert_eq!(d.level(), 1.0);
        assert!(
            d.feed_level(0.0, f64::NAN),
            "a NaN time keeps the previous time"
        );
        assert!(!d.feed_level(0.0, 1300.0));
    }

    #[test]
    fn silence_is_measured_from_the_last_loud_sample_or_the_first_sample() {
        let mut d = SpeakingDetector::new();
        assert_eq!(d.silent_for_ms(), 0.0);
        d.feed_level(0.0, 1000.0);
        d.feed_level(0.0, 4000.0);
        assert_eq!(d.silent_for_ms(), 3000.0);
        d.feed_level(0.5, 4100.0);
        assert_eq!(d.silent_for_ms(), 0.0);
        d.feed_level(0.0, 4200.0);
        d.advance(9100.0);
        assert_eq!(d.silent_for_ms(), 5000.0);
        assert!(!d.is_speaking());
    }
}
