//! `RATE_LIMIT_PER_MINUTE` and `RATE_LIMIT_BURST`: the per-client limit on quote posts (the
//! limiter itself is `http::rate_limit`).

/// Quote posts a client may make per minute once its burst is spent.
pub const DEFAULT_RATE_PER_MINUTE: u32 = 10;
/// Quote posts a client may make at once.
pub const DEFAULT_RATE_BURST: u32 = 5;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RateLimit {
    pub per_minute: u32,
    pub burst: u32,
}

#[derive(Debug, thiserror::Error)]
#[error("{name} must be a whole number, got {value:?}")]
pub struct RateLimitError {
    pub name: &'static str,
    pub value: String,
}

impl RateLimit {
    /// `RATE_LIMIT_PER_MINUTE=0` turns the limit off (load tests, trusted networks).
    pub fn from_lookup(
        get: &impl Fn(&str) -> Option<String>,
    ) -> Result<Option<RateLimit>, RateLimitError> {
        let number = |name: &'static str, default: u32| match get(name) {
            Some(value) => value
                .trim()
                .parse()
                .map_err(|_| RateLimitError { name, value }),
            None => Ok(default),
        };
        let per_minute = number("RATE_LIMIT_PER_MINUTE", DEFAULT_RATE_PER_MINUTE)?;
        let burst = number("RATE_LIMIT_BURST", DEFAULT_RATE_BURST)?;
        Ok((per_minute > 0).then_some(RateLimit {
            per_minute,
            burst: burst.max(1),
        }))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn configuration() {
        let get = crate::settings::lookup;
        assert_eq!(
            RateLimit::from_lookup(&get(&[])).unwrap(),
            Some(RateLimit {
                per_minute: 10,
                burst: 5
            })
        );
        assert_eq!(
            RateLimit::from_lookup(&get(&[("RATE_LIMIT_PER_MINUTE", "0")])).unwrap(),
            None
        );
        assert_eq!(
            RateLimit::from_lookup(&get(&[
                ("RATE_LIMIT_PER_MINUTE", "600"),
                ("RATE_LIMIT_BURST", "50")
            ]))
            .unwrap(),
            Some(RateLimit {
                per_minute: 600,
                burst: 50
            })
        );
        assert!(RateLimit::from_lookup(&get(&[("RATE_LIMIT_BURST", "many")])).is_err());
    }
}
