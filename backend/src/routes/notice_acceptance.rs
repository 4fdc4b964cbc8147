//! `POST /api/notice-acceptance`: the page says its visitor accepted the notice before a
//! conversation, once the conversation's id is known: the notice before a call
//! (`{"call_id", "lang"}`, the id the provider's SDK gave the call it started) or the chat's
//! (`{"chat_id", "lang"}`, the session the provider's reply named, as `chat_consent` takes it).
//! The page sends the id and its language, never a text: the record keeps the site's own notice
//! for that language and channel (`LeadNotices::conversation_notice`, from the build), with its
//! SHA-256 and the time, by the conversation's id (`store::notice_acceptance`). The first
//! acceptance of a conversation stands, so the page may post it again; every post is `204`.
//!
//! Posts meet the quote posts' same-site check and their looser limit (the invalid posts'), as
//! `chat_consent`'s do, so recording a notice never costs a visitor a quote.

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::quotes::limits::{Bucket, PostLimits};
use super::voice_events::conversation_id;
use crate::http::error::{store_failed, ApiError};
use crate::http::methods::methods;
use crate::http::{body, same_site};
use crate::leads::notice::LeadNotices;
use crate::store::notice_acceptance::{NewNoticeAcceptance, NoticeAcceptances};
use crate::store::{Language, Source};

/// Largest body accepted: an id and a word.
const MAX_BODY_BYTES: usize = 1024;

/// The page's post. Any other field (a text the page might send) is ignored.
#[derive(Deserialize)]
struct Post {
    #[serde(default)]
    call_id: Option<String>,
    #[serde(default)]
    chat_id: Option<String>,
    /// The page's language (`en`, the default, or `es`): which of the site's texts it showed.
    #[serde(default)]
    lang: Option<String>,
}

pub fn route(
    store: Arc<dyn NoticeAcceptances>,
    limits: Arc<PostLimits>,
    notices: Arc<LeadNotices>,
) -> BoxedFilter<(Response,)> {
    warp::path!("api" / "notice-acceptance")
        .and(methods("POST"))
        .and(same_site::from_this_site())
        .and(limits.counted(Bucket::Invalid))
        .and(body::json_content_type())
        .and(body::limited(MAX_BODY_BYTES))
        .and_then(move |_client: Option<IpAddr>, body: Bytes| {
            let store = Arc::clone(&store);
            let notices = Arc::clone(&notices);
            async move {
                let acceptance = acceptance(&body, &notices)?;
                let call_id = acceptance.call_id.clone();
                let kept = store
                    .accept_notice(acceptance)
                    .await
                    .map_err(store_failed("storing a notice's acceptance failed"))?;
                if kept {
                    tracing::info!(%call_id, "a conversation's notice was accepted");
                }
                Ok::<_, Rejection>(StatusCode::NO_CONTENT.into_response())
            }
        })
        .boxed()
}

/// The acceptance as the store keeps it, its text the site's own; refused when the body is not
/// a post naming one conversation, or when the build has no such notice (404: there is nothing
/// to accept).
fn acceptance(body: &[u8], notices: &LeadNotices) -> Result<NewNoticeAcceptance, ApiError> {
    let post: Post =
        serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let (channel, call_id) = match (&post.call_id, &post.chat_id) {
        (Some(id), None) => (Source::Voice, conversation_id::of_posted_call(id)?),
        (None, Some(id)) => (
            Source::Chat,
            conversation_id::of_chat(conversation_id::posted(id, "chat_id")?),
        ),
        _ => {
            return Err(ApiError::InvalidParameter(
                "expected one of call_id (a call's id) or chat_id (a chat's session)".into(),
            ))
        }
    };
    let language = post
        .lang
        .as_deref()
        .and_then(Language::parse)
        .unwrap_or(Language::En);
    let text = notices
        .conversation_notice(language, channel)
        .ok_or(ApiError::NotFound)?;
    Ok(NewNoticeAcceptance {
        call_id,
        channel,
        text: text.to_owned(),
        language,
        at: time::OffsetDateTime::now_utc(),
    })
}
