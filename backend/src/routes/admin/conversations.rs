//! `/api/admin/conversations`: the conversations with the assistant the site keeps
//! (`CONVERSATION_RETENTION_DAYS`), newest first, with or without a lead; and
//! `/api/admin/conversations/{call_id}`: one, with its transcript.

use std::sync::Arc;

use serde::Serialize;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::http::error::ApiError;
use crate::store::{Conversation, Conversations, StoreError};

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

/// The caller is already checked.
pub async fn one(store: Arc<dyn Conversations>, call_id: String) -> Result<Response, Rejection> {
    match store.conversation(call_id).await.map_err(failed)? {
        Some(conversation) => Ok(warp::reply::json(&conversation).into_response()),
        None => Err(warp::reject::custom(ApiError::NotFound)),
    }
}
