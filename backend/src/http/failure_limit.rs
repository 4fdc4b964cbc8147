//! Failed sign-in attempts, for every secret there is to guess (the admin API's bearer token,
//! the inbox's password, the voice events' secret), counted per client and per network.
//!
//! A client (`client_ip::rate_key`: an IPv4 address or IPv6 /64) may fail `MAX_FAILURES` times
//! in any `FAILURE_WINDOW`, and all the clients of one network (`client_ip::network_key`: an
//! IPv6 /48 or IPv4 /24) `MAX_NETWORK_FAILURES` times together; past either, every attempt from
//! there is refused, right or wrong, until the oldest failure leaves the window. So a guess
//! costs `FAILURE_WINDOW / MAX_FAILURES` of waiting, fresh /64s of one /48 (or addresses of one
//! /24) buy no more than `MAX_NETWORK_FAILURES` guesses together, and a refusal says nothing
//! about the guess.
//!
//! An attempt counts as a failure from the moment it begins (`begin`) until it is found right
//! (`succeeded`): parallel guesses cannot slip in before the count is written, and a slow check
//! (a password hash) runs outside the lock. One turned away unchecked (`turned_away`: too many
//! checks waiting) stays a failure of its network, so that retrying at once from many networks
//! spends their budgets rather than nothing.

use std::net::IpAddr;
use std::time::{Duration, Instant};

use crate::http::client_ip::{network_key, rate_key};
use crate::http::recent_clients::RecentClients;

/// Failed attempts a client may make within `FAILURE_WINDOW`.
pub const MAX_FAILURES: usize = 5;
/// Failed attempts all the clients of one network may make within `FAILURE_WINDOW`: four
/// clients' worth, so a household or office with a forgetful member or two is not refused,
/// while 25 /64s of one /48 guessing once each are.
pub const MAX_NETWORK_FAILURES: usize = 20;
pub const FAILURE_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Clients (and networks) whose failures are remembered (see `RecentClients`).
const MAX_TRACKED_CLIENTS: usize = 100_000;

pub struct FailureLimit {
    /// Each client's failures within the window, oldest first.
    clients: RecentClients<Vec<Instant>>,
    /// Each network's.
    networks: RecentClients<Vec<Instant>>,
}

/// An attempt under way; a failure unless `FailureLimit::succeeded` (or, for its client only,
/// `turned_away`) is told otherwise.
#[derive(Debug)]
pub struct Attempt {
    client: IpAddr,
    network: IpAddr,
    at: Instant,
}

impl Default for FailureLimit {
    fn default() -> FailureLimit {
        FailureLimit {
            clients: RecentClients::new(MAX_TRACKED_CLIENTS),
            networks: RecentClients::new(MAX_TRACKED_CLIENTS),
        }
    }
}

impl FailureLimit {
    /// Starts an attempt from the address `ip`, or says how long until it may try again.
    pub fn begin(&self, ip: IpAddr, now: Instant) -> Result<Attempt, Duration> {
        let (client, network) = (rate_key(ip), network_key(ip));
        record(&self.clients, client, MAX_FAILURES, now)?;
        if let Err(wait) = record(&self.networks, network, MAX_NETWORK_FAILURES, now) {
            forget(&self.clients, client, now);
            return Err(wait);
        }
        Ok(Attempt {
            client,
            network,
            at: now,
        })
    }

    /// The attempt was right: it is no failure.
    pub fn succeeded(&self, attempt: Attempt) {
        forget(&self.clients, attempt.client, attempt.at);
        forget(&self.networks, attempt.network, attempt.at);
    }

    /// The attempt was never checked (the server was too busy). It guessed nothing, so the
    /// client's own count takes it back (the broker clicking again is not locked out after five),
    /// but its network's keeps it: a flood retrying at once spends its networks' budgets.
    pub fn turned_away(&self, attempt: Attempt) {
        forget(&self.clients, attempt.client, attempt.at);
    }
}

/// Records a failure of `key` at `now`, unless it already has `max` within the window: then
/// how long until the oldest leaves it.
fn record(
    counts: &RecentClients<Vec<Instant>>,
    key: IpAddr,
    max: usize,
    now: Instant,
) -> Result<(), Duration> {
    counts.update(key, |held| {
        let mut failures: Vec<Instant> = held
            .unwrap_or_default()
            .into_iter()
            .filter(|at| now.saturating_duration_since(*at) < FAILURE_WINDOW)
            .collect();
        if let Some(oldest) = failures.first().filter(|_| failures.len() >= max) {
            return Err((*oldest + FAILURE_WINDOW).saturating_duration_since(now));
        }
        failures.push(now);
        Ok(((), failures))
    })
}

/// Takes back the failure `record` made for `key` at `at`.
fn forget(counts: &RecentClients<Vec<Instant>>, key: IpAddr, at: Instant) {
    let _ = counts.update(key, |held| {
        let mut failures = held.unwrap_or_default();
        if let Some(i) = failures.iter().position(|failed| *failed == at) {
            failures.remove(i);
        }
        Ok::<_, std::convert::Infallible>(((), failures))
    });
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
    fn the_clients_of_one_network_share_a_count() {
        let limit = FailureLimit::default();
        let now = Instant::now();
        // 25 /64s of one /48, one wrong guess each: the 21st is refused, as is any /64 after.
        let slash64 = |n: u32| ip(&format!("2001:db8:5:{n:x}::1"));
        let refused = (0..25)
            .filter(|n| limit.begin(slash64(*n), now).is_err())
            .count();
        assert_eq!(refused, 25 - MAX_NETWORK_FAILURES);
        assert!(limit.begin(slash64(999), now).is_err());
        limit
            .begin(ip("2001:db8:6::1"), now)
            .expect("another /48 has its own count");
        // The same for IPv4 addresses of one /24.
        for n in 1..=20 {
            limit.begin(ip(&format!("198.51.100.{n}")), now).unwrap();
        }
        assert!(limit.begin(ip("198.51.100.200"), now).is_err());
        limit.begin(ip("198.51.101.1"), now).expect("another /24");
    }

    #[test]
    fn a_refusal_by_the_network_costs_the_client_nothing_and_turned_away_attempts_the_network() {
        let limit = FailureLimit::default();
        let now = Instant::now();
        let failures_of = |client| {
            let held = limit.clients.update(client, |held| {
                Ok::<_, std::convert::Infallible>((held.clone(), held.unwrap_or_default()))
            });
            held.unwrap().map_or(0, |failures| failures.len())
        };
        let turned_away = ip("203.0.113.1");
        for _ in 0..10 {
            let attempt = limit.begin(turned_away, now).unwrap();
            limit.turned_away(attempt);
        }
        assert_eq!(failures_of(turned_away), 0, "past five, and never a guess");
        // 10 turned away: the /24 has 10 failures left.
        for n in 2..=11 {
            limit.begin(ip(&format!("203.0.113.{n}")), now).unwrap();
        }
        let client = ip("203.0.113.99");
        assert!(limit.begin(client, now).is_err());
        assert!(limit.begin(turned_away, now).is_err());
        assert_eq!(failures_of(client), 0);
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
