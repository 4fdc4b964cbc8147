//! Shared-secret checks for the voice webhook and the admin API, and the filters that refuse a
//! request without them.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use warp::http::{header, HeaderMap};
use warp::{Filter, Rejection};

use crate::http::error::ApiError;

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
pub fn bearer(token: String) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    require(
        move |headers| bearer_matches(headers, &token),
        Some("Bearer"),
    )
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
