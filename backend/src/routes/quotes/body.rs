//! Reading a request body with a hard size cap, whether or not it declares its length, and a
//! deadline, so a client that stops sending mid-body does not hold its connection open.

use bytes::{Buf, BufMut, BytesMut};
use futures_util::{Stream, StreamExt};
use warp::http::{header, HeaderMap};

use crate::http::error::ApiError;

/// How long a whole request body may take to arrive once its head is in: a 1 MiB webhook body
/// needs 100 KB/s; a stalled one is cut off with 408.
pub const BODY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);

/// Reads at most `limit` bytes. A declared `Content-Length` over the limit is refused before
/// reading; a chunked body is counted as it arrives (warp's own limit filter would answer 411).
pub async fn read_limited<B: Buf>(
    headers: &HeaderMap,
    body: impl Stream<Item = Result<B, warp::Error>>,
    limit: usize,
) -> Result<BytesMut, ApiError> {
    let declared = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
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
    tokio::time::timeout(BODY_TIMEOUT, read).await.map_err(|_| ApiError::RequestTimeout)??;
    Ok(bytes)
}

/// Whether the request says its body is JSON (`application/json`, any parameters).
pub fn is_json(headers: &HeaderMap) -> bool {
    headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split(';').next())
        .is_some_and(|essence| essence.trim().eq_ignore_ascii_case("application/json"))
}
