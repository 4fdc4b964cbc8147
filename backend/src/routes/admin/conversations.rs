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
use crate::http::body::is_json;
use crate::http::error::ApiError;
use crate::leads::recording_type::audio_type;
use crate::store::{Conversation, Conversations, Recordings, StoreError};

/// The newest conversations a list holds: a broker's months, and a page the inbox reads at once.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize)]
struct Listed {
    conversations: Vec<Conversation>,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the conversations failed");
    warp::reject::custom(ApiError::from(error))
}

/// The caller is already checked.
pub async fn list(store: Arc<dyn Conversations>) -> Result<Response, Rejection> {
    let conversations = store.conversations(MAX_LISTED).await.map_err(failed)?;
    Ok(warp::reply::json(&Listed { conversations }).into_response())
}

const HOLD_FORM: &str = r#"expected {"legal_hold": true | false}"#;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Hold {
    legal_hold: bool,
}

/// The caller is already checked.
pub async fn one(
    store: Arc<dyn Conversations>,
    call_id: String,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    if facts.method == Method::PATCH {
        if !is_json(facts.headers.get(CONTENT_TYPE)) {
            return Err(warp::reject::custom(ApiError::UnsupportedMediaType));
        }
        let hold: Hold = serde_json::from_slice(&body)
            .map_err(|_| warp::reject::custom(ApiError::MalformedJson(HOLD_FORM.into())))?;
        let at = hold.legal_hold.then(OffsetDateTime::now_utc);
        let kept = store
            .set_legal_hold(call_id.clone(), at)
            .await
            .map_err(failed)?;
        if kept {
            tracing::info!(%call_id, legal_hold = hold.legal_hold, "a conversation's legal hold changed");
        }
    }
    match store.conversation(call_id).await.map_err(failed)? {
        Some(conversation) => Ok(warp::reply::json(&conversation).into_response()),
        None => Err(warp::reject::custom(ApiError::NotFound)),
    }
}

/// The caller is already checked. The recording as it was copied, its SHA-256 as its ETag; 404
/// until the copy is made. Its bytes came from elsewhere: a download of an audio type (else opaque
/// bytes) that a browser neither sniffs nor runs, in a sandbox of no origin if it is ever opened.
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
