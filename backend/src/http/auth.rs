//! Shared-secret checks for the voice webhook and the admin API, and the filters that refuse a
//! request without them.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap};
use warp::{Filter, Rejection};

use crate::http::client_ip::rate_key;
use crate::http::error::{retry_after_secs, ApiError};
use crate::http::failure_limit::FailureLimit;

/// Compares in constant time; comparing digests keeps the secret's length from leaking too.
pub fn secrets_match(given: &[u8], expected: &[u8]) -> bool {
    Sha256::digest(given)
        .ct_eq(&Sha256::digest(expected))
        .into()
}

/// Whether `name` holds exactly `secret`.
pub fn header_matches(headers: &HeaderMap, name: &str, secret: &str) -> bool {
    headers
        .get(name)
        .is_some_and(|given| secrets_match(given.as_bytes(), secret.as_bytes()))
}

/// Whether the request carries `Authorization: Bearer <token>`.
pub fn bearer_matches(headers: &HeaderMap, token: &str) -> bool {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .is_some_and(|(_, given)| secrets_match(given.trim().as_bytes(), token.as_bytes()))
}

/// Refuses with 401 (and a `Bearer` challenge) a request without `Authorization: Bearer <token>`.
/// Each request that sends credentials is a sign-in attempt of its client (`client`, by
/// `rate_key`) counted by `failures`: past its limit, 429 whatever it sends. A request sending
/// none guesses nothing and is not counted.
pub fn bearer(
    token: String,
    failures: Arc<FailureLimit>,
    client: BoxedFilter<(Option<IpAddr>,)>,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    client
        .and(warp::header::headers_cloned())
        .and_then(move |client: Option<IpAddr>, headers: HeaderMap| {
            let outcome = sign_in(&token, &failures, client, &headers);
            async move { outcome.map_err(warp::reject::custom) }
        })
        .untuple_one()
}

/// One bearer sign-in attempt by `client` (its address behind trusted proxies), counted by
/// `failures`; also the admin API's check when the inbox's session is the other way in.
pub fn sign_in(
    token: &str,
    failures: &FailureLimit,
    client: Option<IpAddr>,
    headers: &HeaderMap,
) -> Result<(), ApiError> {
    let unauthorized = ApiError::Unauthorized {
        challenge: Some("Bearer"),
    };
    if !headers.contains_key(header::AUTHORIZATION) {
        return Err(unauthorized);
    }
    let attempt = client
        .map(|client| failures.begin(rate_key(client), Instant::now()))
        .transpose()
        .map_err(|wait| ApiError::TooManyFailedAttempts {
            retry_after_secs: retry_after_secs(wait),
        })?;
    if !bearer_matches(headers, token) {
        return Err(unauthorized);
    }
    if let Some(attempt) = attempt {
        failures.succeeded(attempt);
    }
    Ok(())
}

/// Refuses with 401 a request whose header `name` does not hold `secret`.
pub fn secret_header(
    name: &'static str,
    secret: String,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    require(move |headers| header_matches(headers, name, &secret), None)
}

fn require(
    check: impl Fn(&HeaderMap) -> bool + Clone + Send + Sync + 'static,
    challenge: Option<&'static str>,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::header::headers_cloned()
        .and_then(move |headers: HeaderMap| {
            let passed = check(&headers);
            async move {
                if passed {
                    Ok(())
                } else {
                    Err(warp::reject::custom(ApiError::Unauthorized { challenge }))
                }
            }
        })
        .untuple_one()
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::HeaderValue;

    #[test]
    fn matching() {
        assert!(secrets_match(b"s3cret", b"s3cret"));
        assert!(!secrets_match(b"s3cre", b"s3cret"));
        assert!(!secrets_match(b"", b"s3cret"));
        let mut headers = HeaderMap::new();
        assert!(!bearer_matches(&headers, "t"));
        headers.insert(
            header::AUTHORIZATION,
            HeaderValue::from_static("Bearer tok"),
        );
        assert!(bearer_matches(&headers, "tok"));
        assert!(!bearer_matches(&headers, "tok2"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic tok"));
        assert!(!bearer_matches(&headers, "tok"));
        headers.insert("x-vapi-secret", HeaderValue::from_static("abc"));
        assert!(header_matches(&headers, "x-vapi-secret", "abc"));
        assert!(!header_matches(&headers, "x-vapi-secret", "abd"));
    }
}
