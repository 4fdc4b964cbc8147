//! Per-client rate limits on quote posts: a `governor` token bucket per client key (see
//! `client_ip::rate_key`).
//!
//! A client may post `burst` quotes at once, then one more each time a token refills
//! (`per_minute` tokens a minute). Posts that fail validation are counted apart, against a
//! looser limit (`INVALID_POST_FACTOR` times the quote limit): a visitor fixing a typo never
//! loses a quote to it, yet nobody can flood the server with bad posts.

use std::net::IpAddr;
use std::num::NonZeroU32;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::state::keyed::DefaultKeyedStateStore;
use governor::Quota;

use crate::settings::rate_limit::RateLimit;

/// Clients whose rate is tracked before idle ones are forgotten.
const MAX_TRACKED_CLIENTS: usize = 100_000;

/// How much looser the limit on invalid posts is than the one on quotes.
pub const INVALID_POST_FACTOR: u32 = 6;

impl RateLimit {
    /// The limit on posts that fail validation.
    pub fn looser(self) -> RateLimit {
        RateLimit {
            per_minute: self.per_minute.saturating_mul(INVALID_POST_FACTOR),
            burst: self.burst.saturating_mul(INVALID_POST_FACTOR),
        }
    }

    fn quota(self) -> Quota {
        let nonzero = |n: u32| NonZeroU32::new(n).unwrap_or(NonZeroU32::MIN);
        Quota::per_minute(nonzero(self.per_minute)).allow_burst(nonzero(self.burst))
    }
}

pub struct RateLimiter<C: Clock = DefaultClock> {
    buckets: governor::RateLimiter<
        IpAddr,
        DefaultKeyedStateStore<IpAddr>,
        C,
        NoOpMiddleware<C::Instant>,
    >,
    clock: C,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> RateLimiter {
        RateLimiter::with_clock(limit, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    fn with_clock(limit: RateLimit, clock: C) -> RateLimiter<C> {
        RateLimiter {
            buckets: governor::RateLimiter::dashmap_with_clock(limit.quota(), clock.clone()),
            clock,
        }
    }

    /// Takes one token for this client key, or says how long until one is available.
    pub fn check(&self, key: IpAddr) -> Result<(), Duration> {
        if self.buckets.len() >= MAX_TRACKED_CLIENTS {
            // A full bucket holds no information: forgetting it changes nobody's limit.
            self.buckets.retain_recent();
        }
        self.buckets
            .check_key(&key)
            .map_err(|not_until| not_until.wait_time_from(self.clock.now()))
    }
}

#[cfg(test)]
mod tests {
    use governor::clock::FakeRelativeClock;

    use super::*;

    const LIMIT: RateLimit = RateLimit {
        per_minute: 10,
        burst: 5,
    };

    #[test]
    fn burst_then_refill_at_the_configured_rate() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(LIMIT, clock.clone());
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        for _ in 0..5 {
            limiter.check(ip).unwrap();
        }
        let wait = limiter.check(ip).unwrap_err();
        assert_eq!(
            wait.as_secs_f64().ceil(),
            6.0,
            "10 a minute is one every 6 s"
        );
        limiter
            .check("10.0.0.2".parse().unwrap())
            .expect("another client has its own bucket");
        clock.advance(Duration::from_secs(6));
        limiter.check(ip).expect("one token back after 6 s");
        assert!(limiter.check(ip).is_err());
    }

    #[test]
    fn idle_clients_are_forgotten_once_too_many_are_tracked() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(LIMIT, clock.clone());
        for i in 0..MAX_TRACKED_CLIENTS as u32 {
            limiter.check(IpAddr::from(i.to_be_bytes())).unwrap();
        }
        clock.advance(Duration::from_secs(60));
        limiter.check("255.255.255.255".parse().unwrap()).unwrap();
        assert!(
            limiter.buckets.len() < 10,
            "{} buckets kept",
            limiter.buckets.len()
        );
    }

    #[test]
    fn the_invalid_post_limit_is_looser() {
        assert_eq!(
            LIMIT.looser(),
            RateLimit {
                per_minute: 60,
                burst: 30
            }
        );
    }
}
