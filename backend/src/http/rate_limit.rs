//! Per-client rate limits: a `governor` token bucket (`RateLimit::quota`) per client key (see
//! `client_ip::rate_key`).
//!
//! The buckets live in `RecentClients`: at most `MAX_TRACKED_CLIENTS` per limit, at a constant
//! cost per request however many clients come. A client unseen while `MAX_TRACKED_CLIENTS / 2`
//! others came is forgotten and starts again with a full burst.
//!
//! A client is counted by its address (an IPv6 /64) and, beside it, by its network
//! (`client_ip::network_key`): an IPv6 /48 against a limit `IPV6_NETWORK_FACTOR` times looser
//! (whoever holds a /48 has 65,536 /64s, and without it as many fresh buckets), an IPv4 /24
//! against one `IPV4_NETWORK_FACTOR` times looser (whoever holds a /24 has 256 addresses). The
//! client's own bucket is checked first, so a client already over its own limit spends nothing
//! of its neighbours' shared one.

use std::net::IpAddr;
use std::time::Duration;

use governor::clock::{Clock, DefaultClock};
use governor::middleware::NoOpMiddleware;
use governor::nanos::Nanos;
use governor::state::StateStore;

use crate::http::client_ip::{network_key, rate_key};
use crate::http::recent_clients::RecentClients;
use crate::settings::rate_limit::RateLimit;

/// Clients whose rate is tracked at most, per limit.
const MAX_TRACKED_CLIENTS: usize = 100_000;

/// How much looser the limit on an IPv6 /48 is than the one on each of its /64s.
pub const IPV6_NETWORK_FACTOR: u32 = 16;
/// How much looser the limit on an IPv4 /24 is than the one on each of its addresses: with the
/// default 10 a minute (burst 5), a /24 gets at most 30 posts into a minute (burst 10, 20 a
/// minute) however many of its addresses post.
pub const IPV4_NETWORK_FACTOR: u32 = 2;

/// governor keeps one number per key (the bucket's theoretical arrival time); these are kept
/// for the recent clients only.
impl StateStore for RecentClients<Nanos> {
    type Key = IpAddr;

    fn measure_and_replace<T, F, E>(&self, key: &IpAddr, f: F) -> Result<T, E>
    where
        F: Fn(Option<Nanos>) -> Result<(T, Nanos), E>,
    {
        self.update(*key, f)
    }
}

type Buckets<C> =
    governor::RateLimiter<IpAddr, RecentClients<Nanos>, C, NoOpMiddleware<<C as Clock>::Instant>>;

pub struct RateLimiter<C: Clock = DefaultClock> {
    /// By IPv4 address or IPv6 /64.
    buckets: Buckets<C>,
    /// By IPv6 /48.
    ipv6_networks: Buckets<C>,
    /// By IPv4 /24.
    ipv4_networks: Buckets<C>,
    clock: C,
}

impl RateLimiter {
    pub fn new(limit: RateLimit) -> RateLimiter {
        RateLimiter::with_clock(limit, DefaultClock::default())
    }
}

impl<C: Clock + Clone> RateLimiter<C> {
    fn with_clock(limit: RateLimit, clock: C) -> RateLimiter<C> {
        let buckets = |limit: RateLimit| {
            let clients = RecentClients::new(MAX_TRACKED_CLIENTS);
            governor::RateLimiter::new(limit.quota(), clients, clock.clone())
        };
        RateLimiter {
            buckets: buckets(limit),
            ipv6_networks: buckets(limit.times(IPV6_NETWORK_FACTOR)),
            ipv4_networks: buckets(limit.times(IPV4_NETWORK_FACTOR)),
            clock,
        }
    }

    /// Takes one token for the client at `ip` and one for its network, or says how long until
    /// one is available.
    pub fn check(&self, ip: IpAddr) -> Result<(), Duration> {
        self.take(&self.buckets, rate_key(ip))?;
        let network = network_key(ip);
        let networks = if network.is_ipv4() {
            &self.ipv4_networks
        } else {
            &self.ipv6_networks
        };
        self.take(networks, network)
    }

    fn take(&self, buckets: &Buckets<C>, key: IpAddr) -> Result<(), Duration> {
        buckets
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
    fn an_ipv6_48_has_a_limit_of_its_own_sixteen_times_looser() {
        let limiter = RateLimiter::with_clock(LIMIT, FakeRelativeClock::default());
        let client = |n: u32| -> IpAddr { format!("2001:db8:7:{n:x}::1").parse().unwrap() };
        // 16 /64s spend their bursts: 80 posts, the /48's own burst.
        for n in 0..16 {
            for _ in 0..5 {
                limiter.check(client(n)).unwrap();
            }
            assert!(limiter.check(client(n)).is_err(), "each /64 has its limit");
        }
        assert!(
            limiter.check(client(16)).is_err(),
            "a fresh /64 in the same /48 is refused"
        );
        limiter
            .check("2001:db8:8::1".parse().unwrap())
            .expect("another /48 has its own");
    }

    #[test]
    fn an_ipv4_24_has_a_limit_of_its_own_twice_as_loose() {
        let clock = FakeRelativeClock::default();
        let limiter = RateLimiter::with_clock(LIMIT, clock.clone());
        let client = |n: u8| -> IpAddr { format!("203.0.113.{n}").parse().unwrap() };
        // 20 addresses post 5 each, 100 posts over a minute: the /24's burst of 10 and its 20
        // a minute let at most 30 through, where each address alone would have let all 100.
        let mut accepted = 0;
        for _ in 0..5 {
            for n in 1..=20 {
                accepted += usize::from(limiter.check(client(n)).is_ok());
            }
            clock.advance(Duration::from_secs(12));
        }
        assert!((10..=30).contains(&accepted), "{accepted} accepted");
        limiter
            .check("203.0.114.1".parse().unwrap())
            .expect("another /24 has its own");
    }

    #[test]
    fn memory_stays_bounded_and_a_busy_client_keeps_its_count() {
        let limiter = RateLimiter::with_clock(LIMIT, FakeRelativeClock::default());
        let busy: IpAddr = "198.51.100.1".parse().unwrap();
        for _ in 0..5 {
            limiter.check(busy).unwrap();
        }
        for i in 0..(MAX_TRACKED_CLIENTS as u32 * 5 / 2) {
            // Each in a /24 of its own, so only the memory bound is tested here.
            limiter.check(IpAddr::from((i << 8).to_be_bytes())).unwrap();
            if i % 10_000 == 0 {
                assert!(limiter.check(busy).is_err(), "still over its limit");
            }
        }
        let tracked = limiter.buckets.into_state_store().len();
        assert!(tracked <= MAX_TRACKED_CLIENTS, "{tracked} clients tracked");
    }
}
