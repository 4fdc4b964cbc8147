//! The `Idempotency-Key` request header: the client's name for one quote request, so a retry
//! after a network error is answered with the first quote instead of storing a second.

use warp::http::HeaderValue;
use warp::{Filter, Rejection};

use crate::http::error::ApiError;
use crate::http::headers::optional_header;

pub(super) const IDEMPOTENCY_KEY_HEADER: &str = "idempotency-key";
/// The longest key accepted (the usual bound of the IETF Idempotency-Key draft's users).
pub const MAX_IDEMPOTENCY_KEY_CHARS: usize = 255;

/// The request's key, if it has one; a malformed one is refused (400).
pub fn key() -> impl Filter<Extract = (Option<String>,), Error = Rejection> + Clone {
    optional_header(IDEMPOTENCY_KEY_HEADER).and_then(|value: Option<HeaderValue>| async move {
        parse(value.as_ref()).map_err(warp::reject::custom)
    })
}

/// A key is 1 to 255 visible ASCII characters.
pub(super) fn parse(value: Option<&HeaderValue>) -> Result<Option<String>, ApiError> {
    let Some(value) = value else { return Ok(None) };
    let bytes = value.as_bytes();
    if bytes.is_empty()
        || bytes.len() > MAX_IDEMPOTENCY_KEY_CHARS
        || !bytes.iter().all(u8::is_ascii_graphic)
    {
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
        parse(Some(&HeaderValue::from_bytes(value).unwrap()))
    }

    #[test]
    fn keys_are_visible_ascii_of_bounded_length() {
        assert_eq!(parse(None).unwrap(), None);
        assert_eq!(key(b"a").unwrap().as_deref(), Some("a"));
        assert_eq!(key(&[b'~'; 255]).unwrap().unwrap().len(), 255);
        for bad in [
            &b""[..],
            &[b'k'; 256],
            b"two words",
            b"tab\there",
            "caf\u{e9}".as_bytes(),
        ] {
            assert!(
                matches!(key(bad), Err(ApiError::InvalidParameter(_))),
                "{bad:?}"
            );
        }
    }
}
