//! The rate limits a quote post meets, counted per client behind any trusted proxies.

use std::net::SocketAddr;

use warp::http::HeaderMap;

use crate::http::client_ip::rate_key;
use crate::http::error::ApiError;
use crate::http::rate_limit::RateLimiter;
use crate::settings::rate_limit::RateLimit;
use crate::settings::trusted_proxies::TrustedProxies;

/// Which limit a post is counted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    /// A quote that passed validation.
    Quotes,
    /// Anything else: refused, malformed, or the honeypot.
    Invalid,
}

pub struct PostLimits {
    proxies: TrustedProxies,
    /// `None` when `RATE_LIMIT_PER_MINUTE=0`.
    limiters: Option<(RateLimiter, RateLimiter)>,
}

impl PostLimits {
    pub fn new(limit: Option<RateLimit>, proxies: TrustedProxies) -> PostLimits {
        let limiters = limit.map(|limit| (RateLimiter::new(limit), RateLimiter::new(limit.looser())));
        PostLimits { proxies, limiters }
    }

    /// Spends one token of `bucket` for the client, or says when to retry.
    pub fn check(&self, bucket: Bucket, peer: Option<SocketAddr>, headers: &HeaderMap) -> Result<(), ApiError> {
        let (Some((quotes, invalid)), Some(peer)) = (&self.limiters, peer) else { return Ok(()) };
        let limiter = match bucket {
            Bucket::Quotes => quotes,
            Bucket::Invalid => invalid,
        };
        limiter
            .check(rate_key(self.proxies.client(peer.ip(), headers)))
            .map_err(|wait| ApiError::RateLimited { retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64 })
    }
}
