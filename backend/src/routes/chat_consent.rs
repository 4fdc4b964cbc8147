//! `POST /api/chat-consent`: a chat visitor's click on Yes or No beside the consent to be called
//! that the chat panel shows once they have typed a phone number. The page sends the chat's id
//! (the session the provider's replies name), the answer and its language, never the text: the
//! record keeps the site's own text for that language (`LeadNotices::phone_consent`, the quote
//! form's), with the address, the browser and the time, as a form's lead does. A Yes is written
//! consent on the chat's leads with a phone number, stored before or after the click
//! (`store::conversation_consent`); a No records nothing.
//!
//! The chat's id is the provider's session id, which only the visitor's page and the provider
//! know. Posts meet the quote posts' same-site check and their looser limit (the invalid posts'),
//! so a click never costs a visitor a quote.

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use serde::Deserialize;
use warp::filters::BoxedFilter;
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::quotes::limits::{Bucket, PostLimits};
use super::voice_events::conversation_id;
use crate::http::error::{store_failed, ApiError};
use crate::http::headers::optional_header;
use crate::http::methods::methods;
use crate::http::{body, same_site};
use crate::leads::notice::LeadNotices;
use crate::store::consent::ConsentChannel;
use crate::store::conversation_consent::{ChatAnswer, ConversationConsents};
use crate::store::{clean_text, Language};

/// Largest body accepted: an id and two words.
const MAX_BODY_BYTES: usize = 1024;

/// The page's post. Any other field (a text the page might send) is ignored.
#[derive(Deserialize)]
struct Post {
    chat_id: String,
    answer: Answer,
    /// The page's language (`en`, the default, or `es`): which of the site's texts it showed.
    #[serde(default)]
    lang: Option<String>,
}

#[derive(Clone, Copy, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
enum Answer {
    Yes,
    No,
}

pub fn route(
    store: Arc<dyn ConversationConsents>,
    limits: Arc<PostLimits>,
    notices: Arc<LeadNotices>,
) -> BoxedFilter<(Response,)> {
    warp::path!("api" / "chat-consent")
        .and(methods("POST"))
        .and(same_site::from_this_site())
        .and(limits.counted(Bucket::Invalid))
        .and(body::json_content_type())
        .and(body::limited(MAX_BODY_BYTES))
        .and(optional_header("user-agent"))
        .and_then(
            move |client: Option<IpAddr>, body: Bytes, user_agent: Option<HeaderValue>| {
                let store = Arc::clone(&store);
                let notices = Arc::clone(&notices);
                async move {
                    let agent = user_agent.as_ref().and_then(|v| v.to_str().ok());
                    let answer = answer(&body, &notices, client, agent)?;
                    store
                        .record_chat_answer(answer)
                        .await
                        .map_err(store_failed("storing a chat's consent click failed"))?;
                    Ok::<_, Rejection>(StatusCode::NO_CONTENT.into_response())
                }
            },
        )
        .boxed()
}

/// The click as the store keeps it, its text the site's own; refused when the body is not a
/// post, or when the page in its language asks for no phone number (404: there is no question).
fn answer(
    body: &[u8],
    notices: &LeadNotices,
    client: Option<IpAddr>,
    user_agent: Option<&str>,
) -> Result<ChatAnswer, ApiError> {
    let post: Post =
        serde_json::from_slice(body).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let id = conversation_id::posted(&post.chat_id, "chat_id")?;
    let language = post
        .lang
        .as_deref()
        .and_then(Language::parse)
        .unwrap_or(Language::En);
    let disclosure = notices
        .phone_consent(language, post.answer == Answer::Yes)
        .ok_or(ApiError::NotFound)?
        .disclosure;
    let shown = notices.consent(language, ConsentChannel::Chat, client, user_agent);
    Ok(ChatAnswer {
        call_id: conversation_id::of_chat(id),
        yes: post.answer == Answer::Yes,
        disclosure,
        language,
        page: shown.page,
        client: shown.client,
        user_agent: shown.user_agent.as_deref().map(clean_text::user_agent),
        at: time::OffsetDateTime::now_utc(),
    })
}
