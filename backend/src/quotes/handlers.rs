use std::net::SocketAddr;
use std::sync::Arc;

use bytes::Buf;
use futures_util::Stream;
use serde_json::Value;
use warp::http::{header, HeaderMap, Method, StatusCode};
use warp::reply::Response;
use warp::Reply;
use wasm_core::QuoteRequest;

use super::body::{is_json, read_limited};
use crate::error::ApiError;
use crate::limits::MAX_QUOTE_BODY_BYTES;
use crate::rate_limit::RateLimiter;
use crate::store::{NewQuote, QuoteStore, Source};

/// The form's hidden field: people never see it, so a request that fills it is a bot's. It is
/// answered like a success (so the bot learns nothing) and not stored.
pub const HONEYPOT_FIELD: &str = "website";

pub async fn create<B: Buf>(
    store: Arc<dyn QuoteStore>,
    limiter: Option<Arc<RateLimiter>>,
    peer: Option<SocketAddr>,
    method: Method,
    headers: HeaderMap,
    body: impl Stream<Item = Result<B, warp::Error>>,
) -> Response {
    if method == Method::POST {
        if let Some(Err(wait)) = limiter.map(|l| l.check(peer, &headers)) {
            return ApiError::RateLimited { retry_after_secs: wait.as_secs_f64().ceil().max(1.0) as u64 }
                .into_response();
        }
    }
    match create_quote(store, method, headers, body).await {
        Ok(response) => response,
        Err(error) => error.into_response(),
    }
}

async fn create_quote<B: Buf>(
    store: Arc<dyn QuoteStore>,
    method: Method,
    headers: HeaderMap,
    body: impl Stream<Item = Result<B, warp::Error>>,
) -> Result<Response, ApiError> {
    if method != Method::POST {
        return Err(ApiError::MethodNotAllowed { allow: "POST" });
    }
    if !is_json(&headers) {
        return Err(ApiError::UnsupportedMediaType);
    }
    let bytes = read_limited(&headers, body, MAX_QUOTE_BODY_BYTES).await?;
    let Payload::Quote(request) = parse_payload(&bytes)? else {
        tracing::info!("honeypot filled; answered 201 and not stored");
        return Ok(created(uuid::Uuid::now_v7()));
    };
    let user_agent = headers.get(header::USER_AGENT).and_then(|v| v.to_str().ok());
    let quote = NewQuote::new(request, Source::Web, user_agent);
    let id = quote.id;
    store.insert(quote).await.map_err(|error| {
        tracing::error!(%error, "storing a quote request failed");
        ApiError::from(error)
    })?;
    Ok(created(id))
}

fn created(id: uuid::Uuid) -> Response {
    warp::reply::with_status(
        warp::reply::json(&serde_json::json!({ "id": id.to_string() })),
        StatusCode::CREATED,
    )
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
