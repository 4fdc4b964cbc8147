//! `/api/admin/bookings`: the booked calls, the latest time first, each with its Scope of
//! Appointment; `/api/admin/bookings/{id}`: one, cancelled by `PATCH {"status": "cancelled"}`.

use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use warp::http::header::CONTENT_TYPE;
use warp::http::Method;
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::RequestFacts;
use crate::http::body::is_json;
use crate::http::error::ApiError;
use crate::store::bookings::{self, Booking, Bookings};
use crate::store::StoreError;

/// The latest bookings a list holds: a broker's months of calls.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize)]
struct Listed {
    bookings: Vec<Booking>,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the bookings failed");
    warp::reject::custom(ApiError::from(error))
}

/// The caller is already checked.
pub async fn list(store: Arc<dyn Bookings>) -> Result<Response, Rejection> {
    let bookings = store.bookings(MAX_LISTED).await.map_err(failed)?;
    Ok(warp::reply::json(&Listed { bookings }).into_response())
}

const CANCEL_FORM: &str = r#"expected {"status": "cancelled"}"#;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Change {
    status: Cancelled,
}

#[derive(Deserialize)]
#[serde(rename_all = "snake_case")]
enum Cancelled {
    Cancelled,
}

/// The caller is already checked.
pub async fn one(
    store: Arc<dyn Bookings>,
    id: String,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    if facts.method == Method::PATCH {
        if !is_json(facts.headers.get(CONTENT_TYPE)) {
            return Err(warp::reject::custom(ApiError::UnsupportedMediaType));
        }
        let Change {
            status: Cancelled::Cancelled,
        } = serde_json::from_slice(&body)
            .map_err(|_| warp::reject::custom(ApiError::MalformedJson(CANCEL_FORM.into())))?;
        let cancelled = store
            .cancel_booking(id.clone(), OffsetDateTime::now_utc())
            .await
            .map_err(failed)?;
        if cancelled == bookings::Cancelled::Now {
            tracing::info!(booking = %id, "a booking was cancelled");
        }
    }
    match store.booking(id).await.map_err(failed)? {
        Some(booking) => Ok(warp::reply::json(&booking).into_response()),
        None => Err(warp::reject::custom(ApiError::NotFound)),
    }
}
