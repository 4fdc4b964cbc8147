//! `/api/admin/quote-requests/{id}`: one lead's page (`GET`), its status (`PATCH`
//! `{"status": "new" | "contacted" | "spam"}`: `spam` holds it back, and `new` or `contacted`
//! on spam is "not spam", which delivers it like a lead that has just come) and its deletion
//! (`DELETE`).

use std::sync::Arc;

use bytes::Bytes;
use serde::Deserialize;
use time::OffsetDateTime;
use uuid::Uuid;
use warp::http::{header, Method, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::RequestFacts;
use crate::deletion::{delete_lead, Why};
use crate::http::body::is_json;
use crate::http::error::ApiError;
use crate::store::{LeadStatus, QuoteStore, StoreError};

#[derive(Deserialize)]
struct StatusChange {
    status: String,
}

/// The caller is already checked.
pub async fn handle(
    store: Arc<dyn QuoteStore>,
    id: String,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    respond(store.as_ref(), id, &facts, &body)
        .await
        .map_err(warp::reject::custom)
}

async fn respond(
    store: &dyn QuoteStore,
    id: String,
    facts: &RequestFacts,
    body: &[u8],
) -> Result<Response, ApiError> {
    // Every id this API gives out is a UUID; anything else names no lead.
    let id = Uuid::parse_str(&id)
        .map_err(|_| ApiError::NotFound)?
        .to_string();
    let failed = |error: StoreError| {
        tracing::error!(%error, "the inbox's store operation failed");
        ApiError::from(error)
    };
    match facts.method {
        Method::PATCH => {
            if !is_json(facts.headers.get(header::CONTENT_TYPE)) {
                return Err(ApiError::UnsupportedMediaType);
            }
            let change: StatusChange = serde_json::from_slice(body).map_err(|_| {
                ApiError::MalformedJson(
                    r#"expected {"status": "new" | "contacted" | "spam"}"#.into(),
                )
            })?;
            let status = LeadStatus::parse(&change.status).ok_or_else(|| {
                ApiError::InvalidParameter(format!(
                    "status must be new, contacted or spam, got {:?}",
                    change.status
                ))
            })?;
            let now = OffsetDateTime::now_utc();
            if !store
                .set_status(id.clone(), status, now)
                .await
                .map_err(failed)?
            {
                return Err(ApiError::NotFound);
            }
            show(store, id).await
        }
        Method::DELETE => {
            if delete_lead(store, &id, Why::Asked).await.map_err(failed)? {
                Ok(StatusCode::NO_CONTENT.into_response())
            } else {
                Err(ApiError::NotFound)
            }
        }
        _ => show(store, id).await,
    }
}

async fn show(store: &dyn QuoteStore, id: String) -> Result<Response, ApiError> {
    let lead = store.lead(id).await.map_err(|error| {
        tracing::error!(%error, "reading a lead failed");
        ApiError::from(error)
    })?;
    match lead {
        Some(lead) => Ok(warp::reply::json(&lead).into_response()),
        None => Err(ApiError::NotFound),
    }
}
