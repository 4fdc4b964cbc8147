//! `/api/admin/quote-requests/{id}`: one lead's page (`GET`), its status and the broker's note
//! (`PATCH` `{"status": "new" | "contacted" | "spam", "note": "..."}`, either or both: `spam`
//! holds it back, and `new` or `contacted` on spam is "not spam", which delivers it like a lead
//! that has just come) and its deletion (`DELETE`).

use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use uuid::Uuid;
use warp::http::{Method, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::RequestFacts;
use super::params;
use crate::http::error::{store_failed, ApiError};
use crate::http::error_answers::{AdminErrors, BodyRefused, CrossSite, NotFound};
use crate::leads::deletion::{delete_lead, Why};
use crate::leads::ended_reason;
use crate::leads::licence;
use crate::settings::site::SiteSettings;
use crate::store::{clean_text, Inbox, LeadDetail, LeadStatus, StoreError};

/// The longest note kept, in characters: a few paragraphs.
const MAX_NOTE_CHARS: usize = 2000;
const CHANGE_FORM: &str = r#"expected {"status": "new" | "contacted" | "spam" | "do_not_contact"} and/or {"note": "text"}"#;

/// Either or both.
#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = LeadChange)]
#[serde(deny_unknown_fields)]
pub struct Change {
    /// A status must be one when given (`null` is no status).
    #[serde(default, deserialize_with = "given")]
    #[schema(value_type = LeadStatus)]
    status: Option<String>,
    /// The broker's note, kept with the lead (trimmed); blank or null removes it; a NUL
    /// character is refused (400).
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>, max_length = 2000, pattern = r"^[^\u0000]*$")]
    note: Option<Option<String>>,
}

/// A `note` that is present, even as `null`, is `Some`.
fn present<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(deserializer).map(Some)
}

fn given<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    String::deserialize(deserializer).map(Some)
}

/// The lead as the inbox shows it: with its call's ended reason in words.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = Lead)]
pub struct Shown {
    #[serde(flatten)]
    lead: LeadDetail,
    /// How the call ended, in words ("The caller hung up" for customer-ended-call).
    #[schema(required = true)]
    call_ended: Option<String>,
}

/// The caller is already checked.
pub async fn handle(
    store: Arc<dyn Inbox>,
    site: Arc<SiteSettings>,
    id: String,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    let (store, site) = (store.as_ref(), site.as_ref());
    // Every id this API gives out is a UUID; anything else names no lead.
    let id = Uuid::parse_str(&id)
        .map_err(|_| ApiError::NotFound)?
        .to_string();
    Ok(match facts.method {
        Method::PATCH => change(store, site, id, &facts, &body).await?,
        Method::DELETE => delete(store, id).await?,
        _ => show(store, site, id).await?,
    })
}

fn failed(error: StoreError) -> ApiError {
    store_failed("the inbox's store operation failed")(error)
}

/// Marks the lead contacted, back to new, or spam (with the time), and/or keeps the broker's
/// note on it. Spam is no longer delivered; new or contacted on spam ("not spam") queues it for
/// delivery like a lead that has just come.
#[utoipa::path(
    patch,
    path = "/api/admin/quote-requests/{id}",
    operation_id = "changeQuoteRequest",
    params(("id" = Uuid, Path)),
    request_body = Change,
    responses(
        (status = 200, description = "The lead as it is now.", body = Shown),
        AdminErrors, BodyRefused, CrossSite, NotFound
    )
)]
async fn change(
    store: &dyn Inbox,
    site: &SiteSettings,
    id: String,
    facts: &RequestFacts,
    body: &[u8],
) -> Result<Response, ApiError> {
    let change: Change = facts.json(body, CHANGE_FORM)?;
    let status = change.status.as_deref().map(params::status).transpose()?;
    let note = change.note.map(|note| {
        note.map(|text| text.trim().to_owned())
            .filter(|text| !text.is_empty())
    });
    if let Some(Some(text)) = &note {
        // PostgreSQL's text cannot hold a NUL: stored, it would be its error, a 500.
        if text.contains('\0') {
            return Err(ApiError::InvalidParameter(
                "the note must not contain a NUL character".into(),
            ));
        }
        let chars = text.chars().count();
        if chars > MAX_NOTE_CHARS {
            return Err(ApiError::InvalidParameter(format!(
                "the note has {chars} characters; at most {MAX_NOTE_CHARS} are kept"
            )));
        }
    }
    if status.is_none() && note.is_none() {
        return Err(ApiError::MalformedJson(CHANGE_FORM.into()));
    }
    let mut found = true;
    if let Some(note) = note {
        let note = note.as_deref().map(clean_text::text);
        found = store.set_note(id.clone(), note).await.map_err(failed)?;
    }
    if let (true, Some(status)) = (found, status) {
        let now = OffsetDateTime::now_utc();
        found = store
            .set_status(id.clone(), status, now)
            .await
            .map_err(failed)?;
    }
    if !found {
        return Err(ApiError::NotFound);
    }
    show(store, site, id).await
}

/// Deletes the lead whole: the row, its outbox entry, its idempotency key. Its conversation
/// (the call's report) and consent record stay. The log records the id, never the e-mail.
#[utoipa::path(
    delete,
    path = "/api/admin/quote-requests/{id}",
    operation_id = "deleteQuoteRequest",
    params(("id" = Uuid, Path)),
    responses((status = 204, description = "Deleted."), AdminErrors, CrossSite, NotFound)
)]
async fn delete(store: &dyn Inbox, id: String) -> Result<Response, ApiError> {
    if delete_lead(store, &id, Why::Asked).await.map_err(failed)? {
        Ok(StatusCode::NO_CONTENT.into_response())
    } else {
        Err(ApiError::NotFound)
    }
}

/// One lead with everything the inbox shows: its call's transcript too.
#[utoipa::path(
    get,
    path = "/api/admin/quote-requests/{id}",
    operation_id = "getQuoteRequest",
    params(("id" = Uuid, Path)),
    responses((status = 200, description = "The lead.", body = Shown), AdminErrors, NotFound)
)]
async fn show(store: &dyn Inbox, site: &SiteSettings, id: String) -> Result<Response, ApiError> {
    let mut lead = store
        .lead(id)
        .await
        .map_err(store_failed("reading a lead failed"))?
        .ok_or(ApiError::NotFound)?;
    licence::check(site, [&mut lead.quote]);
    let call_ended = lead
        .quote
        .call_ended_reason
        .as_deref()
        .map(ended_reason::describe);
    Ok(warp::reply::json(&Shown { lead, call_ended }).into_response())
}
