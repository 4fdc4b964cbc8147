//! Request body filters: the body read with a hard size cap, whether or not it declares its
//! length, and a deadline, so a client that stops sending mid-body does not hold its connection
//! open; the checks that a body is declared JSON or an HTML form's; and a form's fields.

use bytes::{Buf, BufMut, Bytes, BytesMut};
use futures_util::StreamExt;
use warp::http::HeaderValue;
use warp::{Filter, Rejection};

use crate::http::error::ApiError;
use crate::http::headers::optional_header;

/// How long a whole request body may take to arrive once its head is in: a 1 MiB webhook body
/// needs 100 KB/s; a stalled one is cut off with 408.
const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Refuses (415) a request that does not say its body is JSON (`application/json`, any
/// parameters).
pub fn json_content_type() -> impl Filter<Extract = (), Error = Rejection> + Clone {
    content_type("application/json", || {
        warp::reject::custom(ApiError::UnsupportedMediaType)
    })
}

/// Passes a request whose body is an HTML form's (`application/x-www-form-urlencoded`); any
/// other is rejected as not found, so a route for another body type can still take it.
pub fn form_content_type() -> impl Filter<Extract = (), Error = Rejection> + Clone {
    content_type("application/x-www-form-urlencoded", warp::reject::not_found)
}

/// Passes a request whose `Content-Type` is `media_type` (any parameters, any case), otherwise
/// rejects it with `refuse()`.
fn content_type(
    media_type: &'static str,
    refuse: fn() -> Rejection,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    optional_header("content-type")
        .and_then(move |value: Option<HeaderValue>| async move {
            if has_media_type(value.as_ref(), media_type) {
                Ok(())
            } else {
                Err(refuse())
            }
        })
        .untuple_one()
}

/// The first value of each of `names` in an HTML form's `body`, empty when absent; bytes that
/// are not UTF-8 become U+FFFD.
pub fn first_values<const N: usize>(body: &[u8], names: [&str; N]) -> [String; N] {
    let mut values: [Option<String>; N] = std::array::from_fn(|_| None);
    for (name, value) in form_urlencoded::parse(body) {
        if let Some(at) = names.iter().position(|wanted| *wanted == name) {
            values[at].get_or_insert_with(|| value.into_owned());
        }
    }
    values.map(Option::unwrap_or_default)
}

/// A form's value without the spaces around it.
pub fn trimmed(value: String) -> String {
    value.trim().to_owned()
}

/// Whether a `Content-Type` value says JSON (`application/json`, any parameters).
pub fn is_json(content_type: Option<&HeaderValue>) -> bool {
    has_media_type(content_type, "application/json")
}

/// Whether a `Content-Type` value is `media_type`, with any parameters, in any case.
fn has_media_type(content_type: Option<&HeaderValue>, media_type: &str) -> bool {
    content_type
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case(media_type))
}

/// The whole body, at most `limit` bytes. A declared `Content-Length` over the limit is refused
/// before reading (413); a chunked body is counted as it arrives (warp's own limit filter would
/// answer 411); a body that does not arrive within `BODY_TIMEOUT` gets 408.
pub fn limited(limit: usize) -> impl Filter<Extract = (Bytes,), Error = Rejection> + Clone {
    optional_header("content-length")
        .and(warp::body::stream())
        .and_then(move |declared: Option<HeaderValue>, body| async move {
            let declared = declared.and_then(|v| v.to_str().ok()?.parse::<u64>().ok());
            read(declared, body, limit)
                .await
                .map_err(warp::reject::custom)
        })
}

async fn read<B: Buf>(
    declared: Option<u64>,
    body: impl futures_util::Stream<Item = Result<B, warp::Error>>,
    limit: usize,
) -> Result<Bytes, ApiError> {
    if declared.is_some_and(|len| len > limit as u64) {
        return Err(ApiError::PayloadTooLarge { limit });
    }
    let mut body = std::pin::pin!(body);
    let mut bytes = BytesMut::with_capacity(declared.unwrap_or(0) as usize);
    let read = async {
        while let Some(chunk) = body.next().await {
            let chunk = chunk.map_err(|e| ApiError::MalformedJson(e.to_string()))?;
            if bytes.len() + chunk.remaining() > limit {
                return Err(ApiError::PayloadTooLarge { limit });
            }
            bytes.put(chunk);
        }
        Ok(())
    };
    tokio::time::timeout(BODY_TIMEOUT, read)
        .await
        .map_err(|_| ApiError::RequestTimeout)??;
    Ok(bytes.freeze())
}
