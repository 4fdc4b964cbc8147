//! Failed sign-in attempts per client, for every sign-in there is (the admin API's bearer token
//! now; a password sign-in would share the same instance).
//!
//! A client may fail `MAX_FAILURES` times in any `FAILURE_WINDOW`; past that every attempt it
//! makes, right or wrong, is refused until its oldest failure leaves the window. So a guess
//! costs `FAILURE_WINDOW / MAX_FAILURES` of waiting, and a refusal says nothing about the guess.
//!
//! An attempt counts as a failure from the moment it begins (`begin`) until it is found right
//! (`succeeded`): parallel guesses cannot slip in before the count is written, and a slow check
//! (a password hash) runs outside the lock.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::http::recent_clients::RecentClients;

/// Failed attempts a client may make within `FAILURE_WINDOW`.
pub const MAX_FAILURES: usize = 5;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Clients whose failures are remembered (see `RecentClients`).
const MAX_TRACKED_CLIENTS: usize = 100_000;

pub struct FailureLimit {
    /// Each client's failures within the window, oldest first.
    clients: RecentClients<Vec<Instant>>,
}

/// An attempt under way; a failure unless `FailureLimit::succeeded` is told otherwise.
#[derive(Debug)]
pub struct Attempt {
    client: IpAddr,
    at: Instant,
}

impl Default for FailureLimit {
    fn default() -> FailureLimit {
        FailureLimit {
            clients: RecentClients::new(MAX_TRACKED_CLIENTS),
        }
    }
}

impl FailureLimit {
    /// Starts an attempt by `client` (a `client_ip::rate_key`), or says how long until it may
    /// try again.
    pub fn begin(&self, client: IpAddr, now: Instant) -> Result<Attempt, Duration> {
        self.clients.update(client, |held| {
            let mut failures: Vec<Instant> = held
                .unwrap_or_default()
                .into_iter()
                .filter(|at| now.saturating_duration_since(*at) < FAILURE_WINDOW)
                .collect();
            if let Some(oldest) = failures.first().filter(|_| failures.len() >= MAX_FAILURES) {
                return Err((*oldest + FAILURE_WINDOW).saturating_duration_since(now));
            }
            failures.push(now);
            Ok(((), failures))
        })?;
        Ok(Attempt { client, at: now })
    }

    /// The attempt was right: it is no failure.
    pub fn succeeded(&self, attempt: Attempt) {
        let _ = self.clients.update(attempt.client, |held| {
            let mut failures = held.unwrap_or_default();
            if let Some(i) = failures.iter().position(|at| *at == attempt.at) {
                failures.remove(i);
            }
            Ok::<_, std::convert::Infallible>(((), failures))
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn five_failures_in_fifteen_minutes_then_every_attempt_waits() {
        let limit = FailureLimit::default();
        let start = Instant::now();
        let client = ip("203.0.113.7");
        for minute in [0, 1, 2, 3, 4] {
            limit
                .begin(client, start + Duration::from_secs(minute * 60))
                .expect("the first five attempts");
        }
        let wait = limit
            .begin(client, start + Duration::from_secs(5 * 60))
            .unwrap_err();
        assert_eq!(
            wait,
            Duration::from_secs(10 * 60),
            "until the first failure is 15 minutes old"
        );
        limit
            .begin(ip("203.0.113.8"), start + Duration::from_secs(5 * 60))
            .expect("another client has its own count");
        let later = start + Duration::from_secs(15 * 60);
        let attempt = limit
            .begin(client, later)
            .expect("the first failure has left the window");
        assert!(
            limit.begin(client, later).is_err(),
            "and the sixth attempt is a failure already"
        );
        limit.succeeded(attempt);
        limit
            .begin(client, later)
            .expect("a right attempt was no failure");
    }

    #[test]
    fn right_attempts_never_add_up() {
        let limit = FailureLimit::default();
        let now = Instant::now();
        for _ in 0..50 {
            let attempt = limit.begin(ip("198.51.100.1"), now).unwrap();
            limit.succeeded(attempt);
        }
    }
}
