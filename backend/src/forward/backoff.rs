//! How long to wait before the next delivery attempt.

use std::time::Duration;

/// Doubles from `first` with each failed attempt, capped at `longest`, then picks a random point
/// in the upper half ("equal jitter"), so leads failing together do not retry together.
pub fn delay(failed_attempts: u32, first: Duration, longest: Duration) -> Duration {
    let doubled = first.saturating_mul(2u32.saturating_pow(failed_attempts.min(31)));
    let ceiling = doubled.min(longest);
    let half = ceiling / 2;
    half + half.mul_f64(fastrand::f64())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grows_and_is_capped_with_jitter() {
        let (first, longest) = (Duration::from_secs(2), Duration::from_secs(60));
        for _ in 0..100 {
            for (failed, low, high) in [(0, 1, 2), (3, 8, 16), (40, 30, 60)] {
                let wait = delay(failed, first, longest);
                let bounds = Duration::from_secs(low)..=Duration::from_secs(high);
                assert!(bounds.contains(&wait), "{failed}: {wait:?}");
            }
        }
        let spread: std::collections::HashSet<_> =
            (0..20).map(|_| delay(2, first, longest)).collect();
        assert!(spread.len() > 1, "jitter varies the wait");
    }
}
