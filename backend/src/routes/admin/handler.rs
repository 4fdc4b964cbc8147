use std::sync::Arc;

use serde::Serialize;
use warp::http::{header, HeaderMap, HeaderValue, Method};
use warp::reply::Response;
use warp::Reply;

use super::params::{self, Format};
use crate::http::auth::bearer_matches;
use crate::http::error::ApiError;
use crate::export::write_csv;
use crate::store::{ListQuery, QuoteStore, StoredQuote};

/// Where the CSV answer puts the cursor of the next page (the JSON answer has it in the body).
pub const NEXT_CURSOR_HEADER: &str = "x-next-cursor";

#[derive(Serialize)]
struct Page<'a> {
    quote_requests: &'a [StoredQuote],
    /// Pass as `cursor` to get the next page; `null` on the last one.
    next_cursor: Option<&'a str>,
}

pub async fn list(
    store: Arc<dyn QuoteStore>,
    token: Arc<String>,
    method: Method,
    headers: HeaderMap,
    query: String,
) -> Response {
    let mut response = match page(store, &token, method, &headers, &query).await {
        Ok(response) => response,
        Err(error) => {
            let unauthorized = matches!(error, ApiError::Unauthorized);
            let mut response = error.into_response();
            if unauthorized {
                response.headers_mut().insert(header::WWW_AUTHENTICATE, HeaderValue::from_static("Bearer"));
            }
            response
        }
    };
    response.headers_mut().insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}

async fn page(
    store: Arc<dyn QuoteStore>,
    token: &str,
    method: Method,
    headers: &HeaderMap,
    query: &str,
) -> Result<Response, ApiError> {
    if method != Method::GET && method != Method::HEAD {
        return Err(ApiError::MethodNotAllowed { allow: "GET, HEAD" });
    }
    if !bearer_matches(headers, token) {
        return Err(ApiError::Unauthorized);
    }
    let params = params::parse(query, headers)?;
    // One row beyond the page tells whether another page follows.
    let mut rows = store
        .list(ListQuery {
            since: params.since,
            after: params.cursor,
            limit: Some(params.limit + 1),
            newest_first: true,
        })
        .await
        .map_err(|error| {
            tracing::error!(%error, "listing quote requests failed");
            ApiError::from(error)
        })?;
    let more = rows.len() > params.limit;
    rows.truncate(params.limit);
    let next_cursor = if more { rows.last().map(|row| row.id.as_str()) } else { None };
    match params.format {
        Format::Json => {
            Ok(warp::reply::json(&Page { quote_requests: &rows, next_cursor }).into_response())
        }
        Format::Csv => {
            let mut body = Vec::new();
            write_csv(&rows, &mut body).map_err(|_| ApiError::Storage)?;
            let mut response = Response::new(body.into());
            let headers = response.headers_mut();
            headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/csv; charset=utf-8"));
            if let Some(cursor) = next_cursor.and_then(|c| HeaderValue::from_str(c).ok()) {
                headers.insert(NEXT_CURSOR_HEADER, cursor);
            }
            Ok(response)
        }
    }
}
