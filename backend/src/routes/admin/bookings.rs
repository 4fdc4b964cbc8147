//! `/api/admin/bookings`: the booked calls, the latest time first, each with its Scope of
//! Appointment (`?lead_id=` one lead's); `/api/admin/bookings/{id}`: one, cancelled by `PATCH {"status": "cancelled"}`.

use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;
use warp::http::Method;
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::RequestFacts;
use crate::http::error::ApiError;
use crate::http::error_answers::{AdminErrors, BadRequest, BodyRefused, CrossSite, NotFound};
use crate::store::bookings::{self, Booking, Bookings};
use crate::store::StoreError;

/// The latest bookings a list holds: a broker's months of calls.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = BookingList)]
#[serde(deny_unknown_fields)]
struct Listed {
    bookings: Vec<Booking>,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the bookings failed");
    warp::reject::custom(ApiError::from(error))
}

/// The lead `?lead_id=` names (a lead's id, as the API gives it out), if any.
fn lead_asked(query: &str) -> Result<Option<String>, ApiError> {
    let mut lead = None;
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "lead_id" => {
                let id = Uuid::parse_str(&value).map_err(|_| {
                    ApiError::InvalidParameter(format!("lead_id {value:?} is no lead's id"))
                })?;
                lead = Some(id.to_string());
            }
            other => {
                return Err(ApiError::InvalidParameter(format!(
                    "unknown parameter {other:?}"
                )))
            }
        }
    }
    Ok(lead)
}

/// The caller is already checked.
#[utoipa::path(
    get,
    path = "/api/admin/bookings",
    operation_id = "listBookings",
    summary = "The booked calls (at most 500), the latest time first, each with its Scope of Appointment.",
    params(("lead_id" = Option<Uuid>, Query, description = "Only this lead's bookings (a lead's id; anything else, or another parameter, is refused with 400).")),
    responses((status = 200, description = "The bookings.", body = Listed), AdminErrors, BadRequest)
)]
pub async fn list(store: Arc<dyn Bookings>, query: String) -> Result<Response, Rejection> {
    let lead = lead_asked(&query)?;
    let bookings = store.bookings(MAX_LISTED, lead).await.map_err(failed)?;
    Ok(warp::reply::json(&Listed { bookings }).into_response())
}

const CANCEL_FORM: &str = r#"expected {"status": "cancelled"}"#;

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = BookingChange)]
#[serde(deny_unknown_fields)]
struct Change {
    status: Cancelled,
}

#[derive(Deserialize, utoipa::ToSchema)]
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
        cancel(store.as_ref(), &id, &facts, &body).await?;
    }
    show(store.as_ref(), id).await
}

/// Cancels the booking (its time is open again); a booking cancelled already is answered as it
/// is.
#[utoipa::path(
    patch,
    path = "/api/admin/bookings/{id}",
    operation_id = "cancelBooking",
    params(("id" = String, Path)),
    request_body = Change,
    responses(
        (status = 200, description = "The booking as it is now.", body = Booking),
        AdminErrors, BodyRefused, CrossSite, NotFound
    )
)]
async fn cancel(
    store: &dyn Bookings,
    id: &str,
    facts: &RequestFacts,
    body: &[u8],
) -> Result<(), Rejection> {
    let Change {
        status: Cancelled::Cancelled,
    } = facts.json(body, CANCEL_FORM)?;
    let cancelled = store
        .cancel_booking(id.to_owned(), OffsetDateTime::now_utc())
        .await
        .map_err(failed)?;
    if cancelled == bookings::Cancelled::Now {
        tracing::info!(booking = %id, "a booking was cancelled");
    }
    Ok(())
}

/// One booking.
#[utoipa::path(
    get,
    path = "/api/admin/bookings/{id}",
    operation_id = "getBooking",
    params(("id" = String, Path)),
    responses((status = 200, description = "The booking.", body = Booking), AdminErrors, NotFound)
)]
async fn show(store: &dyn Bookings, id: String) -> Result<Response, Rejection> {
    let booking = store.booking(id).await.map_err(failed)?;
    Ok(warp::reply::json(&booking.ok_or(ApiError::NotFound)?).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_lead_by_its_id_and_nothing_else() {
        let id = "0192f0a4-7b1c-7d2e-8f3a-4b5c6d7e8f90";
        assert_eq!(lead_asked("").ok(), Some(None));
        assert_eq!(
            lead_asked(&format!("lead_id={}", id.to_uppercase())).ok(),
            Some(Some(id.to_owned()))
        );
        assert!(lead_asked("lead_id=x").is_err());
        assert!(lead_asked("status=booked").is_err());
    }
}
