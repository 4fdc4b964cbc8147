//! `/api/admin/conversations`: the conversations with the assistant the site keeps
//! (`CONVERSATION_RETENTION_DAYS`), newest first, with or without a lead; and
//! `/api/admin/conversations/{call_id}`: one, with its transcript (`GET`), put on legal hold or
//! let go (`PATCH {"legal_hold": true | false}`);
//! `/api/admin/conversations/{call_id}/recording`: the site's copy of its recording.

use std::sync::Arc;

use bytes::Bytes;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use warp::http::header::{
    CONTENT_DISPOSITION, CONTENT_SECURITY_POLICY, CONTENT_TYPE, ETAG, X_CONTENT_TYPE_OPTIONS,
};
use warp::http::{HeaderValue, Method};
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::RequestFacts;
use crate::http::error::ApiError;
use crate::http::error_answers::{AdminErrors, BodyRefused, CrossSite, NotFound};
use crate::leads::recording_type::audio_type;
use crate::store::schema::{self, Binary};
use crate::store::{Conversation, Conversations, Recordings, StoreError};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

/// The newest conversations a list holds: a broker's months, and a page the inbox reads at once.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ConversationList)]
#[serde(deny_unknown_fields)]
struct Listed {
    conversations: Vec<Conversation>,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the conversations failed");
    warp::reject::custom(ApiError::from(error))
}

/// The conversations with the assistant the site keeps (CONVERSATION_RETENTION_DAYS, with or
/// without a lead, after their lead is deleted), newest first, the newest 500, without
/// transcripts. The caller is already checked.
#[utoipa::path(
    get,
    path = "/api/admin/conversations",
    operation_id = "listConversations",
    responses((status = 200, description = "The conversations.", body = Listed), AdminErrors)
)]
pub async fn list(store: Arc<dyn Conversations>) -> Result<Response, Rejection> {
    let conversations = store.conversations(MAX_LISTED).await.map_err(failed)?;
    Ok(warp::reply::json(&Listed { conversations }).into_response())
}

const HOLD_FORM: &str = r#"expected {"legal_hold": true | false}"#;

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = LegalHold)]
#[serde(deny_unknown_fields)]
struct Hold {
    legal_hold: bool,
}

/// The recording's `Content-Disposition`: a download, never a page.
struct Attachment;

impl PartialSchema for Attachment {
    fn schema() -> RefOr<Schema> {
        schema::words(&["attachment"]).into()
    }
}

impl ToSchema for Attachment {}

/// The recording's `Content-Security-Policy`: a sandbox of no origin.
struct Sandbox;

impl PartialSchema for Sandbox {
    fn schema() -> RefOr<Schema> {
        schema::words(&["sandbox"]).into()
    }
}

impl ToSchema for Sandbox {}

/// The caller is already checked.
pub async fn one(
    store: Arc<dyn Conversations>,
    call_id: String,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    if facts.method == Method::PATCH {
        hold(store.as_ref(), &call_id, &facts, &body).await?;
    }
    show(store.as_ref(), call_id).await
}

/// Puts the conversation on legal hold (true: no purge deletes it or its recording's copy,
/// CONVERSATION_RETENTION_DAYS or not) or lets it go (false); answered with the conversation as
/// it is now.
#[utoipa::path(
    patch,
    path = "/api/admin/conversations/{call_id}",
    operation_id = "holdConversation",
    params(("call_id" = String, Path, description = "Percent-encoded (a/b c% as a%2Fb%20c%25).")),
    request_body = Hold,
    responses(
        (status = 200, description = "The conversation as it is now.", body = Conversation),
        AdminErrors, BodyRefused, CrossSite, NotFound
    )
)]
async fn hold(
    store: &dyn Conversations,
    call_id: &str,
    facts: &RequestFacts,
    body: &[u8],
) -> Result<(), Rejection> {
    let hold: Hold = facts.json(body, HOLD_FORM)?;
    let at = hold.legal_hold.then(OffsetDateTime::now_utc);
    let kept = store
        .set_legal_hold(call_id.to_owned(), at)
        .await
        .map_err(failed)?;
    if kept {
        tracing::info!(%call_id, legal_hold = hold.legal_hold, "a conversation's legal hold changed");
    }
    Ok(())
}

/// One kept conversation, with its transcript.
#[utoipa::path(
    get,
    path = "/api/admin/conversations/{call_id}",
    operation_id = "getConversation",
    params(("call_id" = String, Path, description = "Percent-encoded (a/b c% as a%2Fb%20c%25).")),
    responses((status = 200, description = "The conversation.", body = Conversation), AdminErrors, NotFound)
)]
async fn show(store: &dyn Conversations, call_id: String) -> Result<Response, Rejection> {
    let conversation = store.conversation(call_id).await.map_err(failed)?;
    Ok(warp::reply::json(&conversation.ok_or(ApiError::NotFound)?).into_response())
}

/// The call's recording as the site copied it from the provider, byte for byte; 404 until the
/// copy is made.
///
/// The caller is already checked. Its SHA-256 is its ETag. Its bytes came from elsewhere: a
/// download of an audio type (else opaque bytes) that a browser neither sniffs nor runs, in a
/// sandbox of no origin if it is ever opened.
#[utoipa::path(
    get,
    path = "/api/admin/conversations/{call_id}/recording",
    operation_id = "getConversationRecording",
    params(("call_id" = String, Path, description = "Percent-encoded.")),
    responses(
        (status = 200,
         description = "The recording, with the audio type the provider gave it (audio/wav for its mono WAV) when it is on the server's list of audio types, else application/octet-stream; never sniffed (X-Content-Type-Options: nosniff).",
         content((Binary = "audio/*"), (Binary = "application/octet-stream")),
         headers(
            ("ETag" = String, description = "The recording's SHA-256 (hex), quoted."),
            ("Content-Disposition" = inline(Attachment), description = "Always attachment: a download, never a page."),
            ("Content-Security-Policy" = inline(Sandbox), description = "Always sandbox."),
         )),
        AdminErrors, NotFound
    )
)]
pub async fn recording(store: Arc<dyn Recordings>, call_id: String) -> Result<Response, Rejection> {
    let Some(recording) = store.recording(call_id.clone()).await.map_err(failed)? else {
        return Err(warp::reject::custom(ApiError::NotFound));
    };
    let mut response = Response::new(recording.audio.into());
    let headers = response.headers_mut();
    let content_type = audio_type(&recording.content_type);
    headers.insert(CONTENT_TYPE, HeaderValue::from_static(content_type));
    if let Ok(etag) = HeaderValue::from_str(&format!("\"{}\"", recording.sha256)) {
        headers.insert(ETAG, etag);
    }
    headers.insert(CONTENT_DISPOSITION, HeaderValue::from_static("attachment"));
    headers.insert(X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    headers.insert(CONTENT_SECURITY_POLICY, HeaderValue::from_static("sandbox"));
    Ok(response)
}
