//! `RATE_LIMIT_PER_MINUTE` and `RATE_LIMIT_BURST`: the per-client limit on quote posts, and the
//! token bucket it means (the limiter that keeps one per client is `http::rate_limit`).

use std::num::NonZeroU32;

use governor::Quota;

use super::env::Env;
use super::error::ConfigError;

/// Quote posts a client may make per minute once its burst is spent.
pub const DEFAULT_RATE_PER_MINUTE: u32 = 10;
/// Quote posts a client may make at once.
pub const DEFAULT_RATE_BURST: u32 = 5;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    pub per_minute: u32,
    pub burst: u32,
}

impl RateLimit {
    /// `RATE_LIMIT_PER_MINUTE=0` turns the limit off (load tests, trusted networks).
    pub fn from_env(env: &Env) -> Result<Option<RateLimit>, ConfigError> {
        let number = |variable: &'static str, default: u32| {
            Ok::<_, ConfigError>(env.parse(variable, "a whole number")?.unwrap_or(default))
        };
        let per_minute = number("RATE_LIMIT_PER_MINUTE", DEFAULT_RATE_PER_MINUTE)?;
        let burst = number("RATE_LIMIT_BURST", DEFAULT_RATE_BURST)?;
        Ok((per_minute > 0).then_some(RateLimit {
            per_minute,
            burst: burst.max(1),
        }))
    }

    /// A client may post `burst` quotes at once, then one more each time a token refills
    /// (`per_minute` tokens a minute).
    pub fn quota(self) -> Quota {
        let nonzero = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Quota::per_minute(nonzero(self.per_minute)).allow_burst(nonzero(self.burst))
    }

    /// The same limit `factor` times looser.
    pub fn times(self, factor: u32) -> RateLimit {
        RateLimit {
            per_minute: self.per_minute.saturating_mul(factor),
            burst: self.burst.saturating_mul(factor),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    fn limit(vars: &[(&str, &str)]) -> Result<Option<RateLimit>, ConfigError> {
        RateLimit::from_env(&Env::new(&lookup(vars)))
    }

    fn rate(per_minute: u32, burst: u32) -> RateLimit {
        RateLimit { per_minute, burst }
    }

    #[test]
    fn configuration() {
        assert_eq!(limit(&[]).unwrap(), Some(rate(10, 5)));
        assert_eq!(limit(&[("RATE_LIMIT_PER_MINUTE", "0")]).unwrap(), None);
        assert_eq!(
            limit(&[("RATE_LIMIT_PER_MINUTE", "600"), ("RATE_LIMIT_BURST", "50")]).unwrap(),
            Some(rate(600, 50))
        );
        assert_eq!(
            limit(&[("RATE_LIMIT_BURST", "many")])
                .unwrap_err()
                .to_string(),
            "RATE_LIMIT_BURST=\"many\" cannot be read; expected a whole number"
        );
        assert_eq!(
            limit(&[("RATE_LIMIT_PER_MINUTE", " "), ("RATE_LIMIT_BURST", "")]).unwrap(),
            limit(&[]).unwrap(),
            "blank is the default"
        );
    }

    #[test]
    fn a_limit_times_a_factor_is_looser() {
        let limit = rate(10, 5);
        assert_eq!(limit.times(6), rate(60, 30));
        assert_eq!(rate(u32::MAX, 1).times(2).per_minute, u32::MAX);
    }
}
