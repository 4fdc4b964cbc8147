use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Buf;
use futures_util::Stream;
use serde_json::Value;
use warp::http::{header, HeaderMap, StatusCode};
use warp::reply::Response;
use warp::Reply;
use wasm_core::QuoteRequest;

use super::body::{is_json, read_limited};
use super::idempotency::idempotency_key;
use super::limits::{Bucket, PostLimits};
use crate::http::error::ApiError;
use crate::store::{Inserted, NewQuote, QuoteStore, Source};

/// Largest quote request body accepted (issue 2).
const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;

/// The form's hidden field: people never see it, so a request that fills it is a bot's. It is
/// answered like a success (so the bot learns nothing) and not stored.
pub const HONEYPOT_FIELD: &str = "website";

pub async fn create<B: Buf>(
    store: Arc<dyn QuoteStore>,
    limits: Arc<PostLimits>,
    peer: Option<SocketAddr>,
    headers: HeaderMap,
    body: impl Stream<Item = Result<B, warp::Error>>,
) -> Response {
    let read = read_post(&headers, body).await;
    // Only a post that passes validation spends a quote token; the others (a typo, the
    // honeypot, junk) are held to the looser limit on invalid posts.
    let bucket = match &read {
        Ok(Post { payload: Payload::Quote(_), .. }) => Bucket::Quotes,
        _ => Bucket::Invalid,
    };
    if let Err(error) = limits.check(bucket, peer, &headers) {
        return error.into_response();
    }
    let result = match read {
        Ok(post) => store_post(store, post, &headers).await,
        Err(error) => Err(error),
    };
    result.unwrap_or_else(|error| error.into_response())
}

struct Post {
    payload: Payload,
    idempotency_key: Option<String>,
}

async fn read_post<B: Buf>(
    headers: &HeaderMap,
    body: impl Stream<Item = Result<B, warp::Error>>,
) -> Result<Post, ApiError> {
    if !is_json(headers) {
        return Err(ApiError::UnsupportedMediaType);
    }
    let idempotency_key = idempotency_key(headers)?;
    let bytes = read_limited(headers, body, MAX_QUOTE_BODY_BYTES).await?;
    Ok(Post { payload: parse_payload(&bytes)?, idempotency_key })
}

async fn store_post(store: Arc<dyn QuoteStore>, post: Post, headers: &HeaderMap) -> Result<Response, ApiError> {
    let Payload::Quote(request) = post.payload else {
        tracing::info!("honeypot filled; answered 201 and not stored");
        return Ok(created(&uuid::Uuid::now_v7().to_string()));
    };
    let user_agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    let quote = NewQuote::new(request, Source::Web, user_agent).with_idempotency_key(post.idempotency_key);
    let id = quote.id.to_string();
    let inserted = store.insert(quote).await.map_err(|error| {
        tracing::error!(%error, "storing a quote request failed");
        ApiError::from(error)
    })?;
    match inserted {
        Inserted::New => Ok(created(&id)),
        Inserted::Replayed { id } => Ok(created(&id)),
        Inserted::Conflict => Err(ApiError::IdempotencyConflict),
    }
}

fn created(id: &str) -> Response {
    warp::reply::with_status(warp::reply::json(&serde_json::json!({ "id": id })), StatusCode::CREATED)
        .into_response()
}

#[derive(Debug)]
enum Payload {
    Quote(QuoteRequest),
    Bot,
}

/// A JSON object with `product` and `email`; other fields are ignored. A missing, null or
/// non-string field counts as empty, so it gets the field's own message rather than a 400.
fn parse_payload(bytes: &[u8]) -> Result<Payload, ApiError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(ApiError::MalformedJson("expected a JSON object".into()));
    };
    let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or("");
    if !text(HONEYPOT_FIELD).trim().is_empty() {
        return Ok(Payload::Bot);
    }
    QuoteRequest::parse(text("product"), text("email")).map(Payload::Quote).map_err(ApiError::Validation)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_rules() {
        assert!(matches!(
            parse_payload(br#"{"product":"family","email":"a@b.co","extra":1,"website":" "}"#),
            Ok(Payload::Quote(_))
        ));
        assert!(matches!(parse_payload(br#"{"product":"","website":"http://spam"}"#), Ok(Payload::Bot)));
        assert!(matches!(parse_payload(b"[1]"), Err(ApiError::MalformedJson(_))));
        assert!(matches!(parse_payload(b"{"), Err(ApiError::MalformedJson(_))));
        match parse_payload(br#"{"product":7,"email":null}"#) {
            Err(ApiError::Validation(f)) => assert!(f.product.is_some() && f.email.is_some()),
            other => panic!("expected validation errors, got {other:?}"),
        }
    }
}
