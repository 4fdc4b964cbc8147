//! A limit on failures per client, such as wrong passwords: at most `max` failures within
//! `window`, after which the client is refused until its oldest failure leaves the window.
//! Unlike the token bucket on quote posts, only failures count, so a client that gets it right
//! is never slowed down.

use std::collections::{HashMap, VecDeque};
use std::net::IpAddr;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Clients whose failures are tracked before those with none in the window are forgotten.
const MAX_TRACKED_CLIENTS: usize = 100_000;

pub struct FailureLimiter {
    max: usize,
    window: Duration,
    failures: Mutex<HashMap<IpAddr, VecDeque<Instant>>>,
}

impl FailureLimiter {
    pub fn new(max: usize, window: Duration) -> FailureLimiter {
        FailureLimiter {
            max,
            window,
            failures: Mutex::new(HashMap::new()),
        }
    }

    /// `Err(wait)` while the client has `max` failures in the window: how long until it may
    /// try again.
    pub fn check(&self, key: IpAddr, now: Instant) -> Result<(), Duration> {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        let Some(times) = failures.get_mut(&key) else {
            return Ok(());
        };
        self.forget_old(times, now);
        if times.len() < self.max {
            return Ok(());
        }
        let oldest = times.front().copied().unwrap_or(now);
        Err((oldest + self.window).saturating_duration_since(now))
    }

    pub fn record_failure(&self, key: IpAddr, now: Instant) {
        let mut failures = self.failures.lock().unwrap_or_else(|p| p.into_inner());
        if failures.len() >= MAX_TRACKED_CLIENTS && !failures.contains_key(&key) {
            failures.retain(|_, times| {
                times
                    .back()
                    .is_some_and(|last| now.saturating_duration_since(*last) < self.window)
            });
        }
        let times = failures.entry(key).or_default();
        self.forget_old(times, now);
        times.push_back(now);
    }

    /// A success wipes the client's slate.
    pub fn clear(&self, key: IpAddr) {
        self.failures
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(&key);
    }

    fn forget_old(&self, times: &mut VecDeque<Instant>, now: Instant) {
        while times
            .front()
            .is_some_and(|t| now.saturating_duration_since(*t) >= self.window)
        {
            times.pop_front();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixth_failure_in_the_window_waits_for_the_oldest_to_leave_it() {
        let window = Duration::from_secs(15 * 60);
        let limiter = FailureLimiter::new(5, window);
        let (a, b): (IpAddr, IpAddr) = ("192.0.2.1".parse().unwrap(), "192.0.2.2".parse().unwrap());
        let start = Instant::now();
        for minute in 0..5 {
            let at = start + Duration::from_secs(minute * 60);
            assert_eq!(limiter.check(a, at), Ok(()));
            limiter.record_failure(a, at);
        }
        let later = start + Duration::from_secs(5 * 60);
        assert_eq!(limiter.check(a, later), Err(Duration::from_secs(10 * 60)));
        assert_eq!(
            limiter.check(b, later),
            Ok(()),
            "another client is not affected"
        );
        assert_eq!(
            limiter.check(a, start + window),
            Ok(()),
            "the first failure left"
        );
        limiter.record_failure(a, start + window);
        assert!(limiter.check(a, start + window).is_err());
        limiter.clear(a);
        assert_eq!(limiter.check(a, start + window), Ok(()));
    }
}
