//! Per-client rate limit on quote posts: a token bucket per client IP.
//!
//! A client may post `burst` quotes at once, then one more each time a token refills
//! (`per_minute` tokens a minute). The client is the peer address, or the last hop of
//! `X-Forwarded-For` when `TRUST_PROXY` says a proxy we trust appends it (the left entries are
//! whatever the client chose to send, so they are never believed).

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use warp::http::HeaderMap;

use crate::limits::{DEFAULT_RATE_BURST, DEFAULT_RATE_PER_MINUTE, MAX_TRACKED_CLIENTS};

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
    pub fn from_lookup(get: &impl Fn(&str) -> Option<String>) -> Result<Option<RateLimit>, RateLimitError> {
        let number = |name: &'static str, default: u32| match get(name) {
            Some(value) => value.trim().parse().map_err(|_| RateLimitError { name, value }),
            None => Ok(default),
        };
        let per_minute = number("RATE_LIMIT_PER_MINUTE", DEFAULT_RATE_PER_MINUTE)?;
        let burst = number("RATE_LIMIT_BURST", DEFAULT_RATE_BURST)?;
        Ok((per_minute > 0).then_some(RateLimit { per_minute, burst: burst.max(1) }))
    }

    fn refill_per_second(&self) -> f64 {
        f64::from(self.per_minute) / 60.0
    }
}

struct Bucket {
    tokens: f64,
    updated: Instant,
}

pub struct RateLimiter {
    limit: RateLimit,
    trust_proxy: bool,
    buckets: Mutex<HashMap<IpAddr, Bucket>>,
}

impl RateLimiter {
    pub fn new(limit: RateLimit, trust_proxy: bool) -> RateLimiter {
        RateLimiter { limit, trust_proxy, buckets: Mutex::new(HashMap::new()) }
    }

    /// Takes one token for this client, or says how long until one is available.
    pub fn check(&self, peer: Option<SocketAddr>, headers: &HeaderMap) -> Result<(), Duration> {
        match client_ip(peer, headers, self.trust_proxy) {
            Some(ip) => self.take(ip, Instant::now()),
            None => Ok(()),
        }
    }

    fn take(&self, ip: IpAddr, now: Instant) -> Result<(), Duration> {
        let capacity = f64::from(self.limit.burst);
        let rate = self.limit.refill_per_second();
        let mut buckets = self.buckets.lock().unwrap_or_else(|p| p.into_inner());
        if buckets.len() >= MAX_TRACKED_CLIENTS && !buckets.contains_key(&ip) {
            // A full bucket holds no information: forgetting it changes nobody's limit.
            buckets.retain(|_, b| b.tokens + now.duration_since(b.updated).as_secs_f64() * rate < capacity);
        }
        let bucket = buckets.entry(ip).or_insert(Bucket { tokens: capacity, updated: now });
        let elapsed = now.duration_since(bucket.updated).as_secs_f64();
        bucket.tokens = (bucket.tokens + elapsed * rate).min(capacity);
        bucket.updated = now;
        if bucket.tokens >= 1.0 {
            bucket.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - bucket.tokens) / rate))
        }
    }
}

fn client_ip(peer: Option<SocketAddr>, headers: &HeaderMap, trust_proxy: bool) -> Option<IpAddr> {
    let forwarded = trust_proxy
        .then(|| headers.get_all("x-forwarded-for").iter().next_back())
        .flatten()
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.rsplit(',').next())
        .and_then(|ip| ip.trim().parse().ok());
    forwarded.or(peer.map(|p| p.ip()))
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: RateLimit = RateLimit { per_minute: 10, burst: 5 };

    fn headers(xff: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert("x-forwarded-for", xff.parse().unwrap());
        h
    }

    #[test]
    fn burst_then_refill_at_the_configured_rate() {
        let limiter = RateLimiter::new(LIMIT, false);
        let ip: IpAddr = "10.0.0.1".parse().unwrap();
        let start = Instant::now();
        for _ in 0..5 {
            limiter.take(ip, start).unwrap();
        }
        let wait = limiter.take(ip, start).unwrap_err();
        assert_eq!(wait.as_secs_f64().ceil(), 6.0, "10 a minute is one every 6 s");
        limiter.take("10.0.0.2".parse().unwrap(), start).expect("another client has its own bucket");
        limiter.take(ip, start + Duration::from_secs(6)).expect("one token back after 6 s");
        assert!(limiter.take(ip, start + Duration::from_secs(6)).is_err());
    }

    #[test]
    fn forwarded_for_is_believed_only_behind_a_trusted_proxy() {
        let peer = Some("127.0.0.1:9".parse().unwrap());
        let h = headers("6.6.6.6, 203.0.113.7");
        assert_eq!(client_ip(peer, &h, false), Some("127.0.0.1".parse().unwrap()));
        assert_eq!(client_ip(peer, &h, true), Some("203.0.113.7".parse().unwrap()));
        assert_eq!(client_ip(peer, &headers("garbage"), true), Some("127.0.0.1".parse().unwrap()));
    }

    #[test]
    fn configuration() {
        let get = |vars: &'static [(&'static str, &'static str)]| {
            move |k: &str| vars.iter().find(|(key, _)| *key == k).map(|(_, v)| v.to_string())
        };
        assert_eq!(RateLimit::from_lookup(&get(&[])).unwrap(), Some(LIMIT));
        assert_eq!(RateLimit::from_lookup(&get(&[("RATE_LIMIT_PER_MINUTE", "0")])).unwrap(), None);
        assert_eq!(
            RateLimit::from_lookup(&get(&[("RATE_LIMIT_PER_MINUTE", "600"), ("RATE_LIMIT_BURST", "50")])).unwrap(),
            Some(RateLimit { per_minute: 600, burst: 50 })
        );
        assert!(RateLimit::from_lookup(&get(&[("RATE_LIMIT_BURST", "many")])).is_err());
    }
}
