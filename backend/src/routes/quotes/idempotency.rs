//! The `Idempotency-Key` request header: the client's name for one quote request, so a retry
//! after a network error is answered with the first quote instead of storing a second.

use warp::http::HeaderMap;

use crate::http::error::ApiError;

pub const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";
/// The longest key accepted (the usual bound of the IETF Idempotency-Key draft's users).
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 255;

/// The key, if the request has one: 1 to 255 visible ASCII characters.
pub fn idempotency_key(headers: &HeaderMap) -> Result<Option<String>, ApiError> {
    let Some(value) = headers.get(IDEMPOTENCY_KEY_HEADER) else { return Ok(None) };
    let bytes = value.as_bytes();
    if bytes.is_empty() || bytes.len() > MAX_IDEMPOTENCY_KEY_CHARS || !bytes.iter().all(u8::is_ascii_graphic) {
        return Err(ApiError::InvalidParameter(format!(
            "Idempotency-Key must be 1 to {MAX_IDEMPOTENCY_KEY_CHARS} visible ASCII characters"
        )));
    }
    Ok(Some(String::from_utf8_lossy(bytes).into_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(value: &[u8]) -> Result<Option<String>, ApiError> {
        let mut headers = HeaderMap::new();
        headers.insert(IDEMPOTENCY_KEY_HEADER, warp::http::HeaderValue::from_bytes(value).unwrap());
        idempotency_key(&headers)
    }

    #[test]
    fn keys_are_visible_ascii_of_bounded_length() {
        assert_eq!(idempotency_key(&HeaderMap::new()).unwrap(), None);
        assert_eq!(key(b"a").unwrap().as_deref(), Some("a"));
        assert_eq!(key(&[b'~'; 255]).unwrap().unwrap().len(), 255);
        for bad in [&b""[..], &[b'k'; 256], b"two words", b"tab\there", "caf\u{e9}".as_bytes()] {
            assert!(matches!(key(bad), Err(ApiError::InvalidParameter(_))), "{bad:?}");
        }
    }
}
