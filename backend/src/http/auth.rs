//! Shared-secret checks for the voice events and the admin API, and the filters that refuse a
//! request without them; every wrong secret counts against the client's failure limit.
//!
//! The two differ once a client's network is past its limit. An admin token or password is
//! refused there even when right, so the limit bounds guessing. The voice events' secret is
//! always let through when right: the provider posts from addresses it may share with others,
//! and wrong guesses from its network must not lose its leads. That is safe because the secret
//! is at least `settings::leads::MIN_SECRET_CHARS` long, out of reach of guessing, limit or not.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Instant;

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap};
use warp::{Filter, Rejection};

use crate::http::error::{retry_after_secs, ApiError};
use crate::http::failure_limit::{Attempt, FailureLimit};

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

/// Checks the request's bearer token against `token`: one sign-in attempt by `client` (its
/// address behind trusted proxies), counted by `failures`; the admin API's check for scripts,
/// the inbox's session being the other way in. Past the client's failure limit it is refused
/// with 429 whatever it sends; a wrong token is a failure, a right one none.
pub fn check_bearer_token(
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
    let attempt = begin(failures, client)?;
    if !bearer_matches(headers, token) {
        return Err(unauthorized);
    }
    if let Some(attempt) = attempt {
        failures.succeeded(attempt);
    }
    Ok(())
}

/// Refuses with 401 a request whose header `name` does not hold `secret`. The right secret always
/// passes; a wrong one is a failure of its client (`client`), counted by `failures` with every
/// other sign-in, so guessing the secret meets the same limit (429) as guessing the admin token.
pub fn secret_header(
    name: &'static str,
    secret: String,
    failures: Arc<FailureLimit>,
    client: BoxedFilter<(Option<IpAddr>,)>,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    client
        .and(warp::header::headers_cloned())
        .and_then(move |client: Option<IpAddr>, headers: HeaderMap| {
            let unauthorized = ApiError::Unauthorized { challenge: None };
            let outcome = if !headers.contains_key(name) {
                Err(unauthorized)
            } else if header_matches(&headers, name, &secret) {
                Ok(())
            } else {
                begin(&failures, client).and(Err(unauthorized))
            };
            async move { outcome.map_err(warp::reject::custom) }
        })
        .untuple_one()
}

/// An attempt of `client` begun (a failure until told otherwise), or 429 past its limit.
fn begin(failures: &FailureLimit, client: Option<IpAddr>) -> Result<Option<Attempt>, ApiError> {
    client
        .map(|client| failures.begin(client, Instant::now()))
        .transpose()
        .map_err(|wait| ApiError::TooManyFailedAttempts {
            retry_after_secs: retry_after_secs(wait),
        })
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
