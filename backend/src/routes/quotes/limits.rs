//! The rate limits a quote post meets, counted per client behind any trusted proxies.
//!
//! Posts that fail validation are counted apart, against a looser limit (`INVALID_POST_FACTOR`
//! times the quote limit): a visitor fixing a typo never loses a quote to it, yet nobody can
//! flood the server with bad posts.

use std::net::IpAddr;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::Filter;

use crate::http::client_ip;
use crate::http::error::{retry_after_secs, ApiError};
use crate::http::rate_limit::RateLimiter;
use crate::settings::rate_limit::RateLimit;
use crate::settings::trusted_proxies::TrustedProxies;

/// How much looser the limit on invalid posts is than the one on quotes.
const INVALID_POST_FACTOR: u32 = 6;

/// Which limit a post is counted against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bucket {
    /// A quote that passed validation.
    Quotes,
    /// Anything else: refused, malformed, or the honeypot.
    Invalid,
}

impl Bucket {
    /// `Quotes` for a post that passed validation, else `Invalid`.
    pub fn of(valid: bool) -> Bucket {
        if valid {
            Bucket::Quotes
        } else {
            Bucket::Invalid
        }
    }
}

pub struct PostLimits {
    proxies: TrustedProxies,
    /// `None` when `RATE_LIMIT_PER_MINUTE=0`.
    limiters: Option<(RateLimiter, RateLimiter)>,
}

impl PostLimits {
    pub fn new(limit: Option<RateLimit>, proxies: TrustedProxies) -> PostLimits {
        let limiters = limit.map(|limit| {
            let invalid = limit.times(INVALID_POST_FACTOR);
            (RateLimiter::new(limit), RateLimiter::new(invalid))
        });
        PostLimits { proxies, limiters }
    }

    /// Each request's client address behind trusted proxies (which the lead's consent record
    /// keeps, limit or none); `None` outside a real connection, as in `warp::test`.
    pub fn client(self: &Arc<Self>) -> BoxedFilter<(Option<IpAddr>,)> {
        client_ip::client(self.proxies.clone())
    }

    /// The client, once a token of `bucket` is spent for it (refused with `429` when none is
    /// left): for a post counted before its body is read.
    pub fn counted(self: &Arc<Self>, bucket: Bucket) -> BoxedFilter<(Option<IpAddr>,)> {
        let limits = Arc::clone(self);
        self.client()
            .and_then(move |client| {
                let checked = limits
                    .check(bucket, client)
                    .map(|()| client)
                    .map_err(warp::reject::custom);
                async move { checked }
            })
            .boxed()
    }

    /// Spends one token of `bucket` for the client, or says when to retry.
    pub fn check(&self, bucket: Bucket, client: Option<IpAddr>) -> Result<(), ApiError> {
        let (Some((quotes, invalid)), Some(client)) = (&self.limiters, client) else {
            return Ok(());
        };
        let limiter = match bucket {
            Bucket::Quotes => quotes,
            Bucket::Invalid => invalid,
        };
        limiter.check(client).map_err(|wait| ApiError::RateLimited {
            retry_after_secs: retry_after_secs(wait),
        })
    }
}
