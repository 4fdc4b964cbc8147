//! Shared-secret checks for the voice webhook and the admin API.

use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;
use warp::http::{header, HeaderMap};

/// Compares in constant time; comparing digests keeps the secret's length from leaking too.
pub fn secrets_match(given: &[u8], expected: &[u8]) -> bool {
    Sha256::digest(given).ct_eq(&Sha256::digest(expected)).into()
}

/// Whether `name` holds exactly `secret`.
pub fn header_matches(headers: &HeaderMap, name: &str, secret: &str) -> bool {
    headers.get(name).is_some_and(|given| secrets_match(given.as_bytes(), secret.as_bytes()))
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
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Bearer tok"));
        assert!(bearer_matches(&headers, "tok"));
        assert!(!bearer_matches(&headers, "tok2"));
        headers.insert(header::AUTHORIZATION, HeaderValue::from_static("Basic tok"));
        assert!(!bearer_matches(&headers, "tok"));
        headers.insert("x-vapi-secret", HeaderValue::from_static("abc"));
        assert!(header_matches(&headers, "x-vapi-secret", "abc"));
        assert!(!header_matches(&headers, "x-vapi-secret", "abd"));
    }
}
