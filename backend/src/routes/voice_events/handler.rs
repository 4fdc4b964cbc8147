use std::sync::Arc;

use bytes::Bytes;
use futures_util::future::join_all;
use serde::Deserialize;
use serde_with::As;
use warp::reply::Response;
use warp::Reply;
use wasm_core::{ContactInput, QuoteRequest};

use super::chat_transcript::{self, Transcript};
use super::conversation::{assistant_rules, settle, Conversation};
use super::lenient::Lenient;
use super::messages::{self, Received, ToolCall};
use super::sdk::{ServerMessageResponseToolCalls, ToolCallResult};
use super::{
    booking_replies, booking_tools, replies, AVAILABLE_TIMES_TOOL, BOOK_CALL_TOOL,
    REQUEST_QUOTE_TOOL,
};
use crate::http::error::ApiError;
use crate::leads::notice::LeadNotices;
use crate::routes::booking::BookingSite;
use crate::store::conversation_consent::ConversationConsents;
use crate::store::{
    CallReport, Contact, Inserted, NewQuote, QuoteStore, Quotes, Source, StoreError, VoiceOrigin,
};

/// `request_quote`'s arguments; one that is not text reads as empty and is refused as invalid.
/// `phone`, `zip` and `may_call` (whether the caller agreed to be called at that number) are
/// read where the page the call came from asks for them.
#[derive(Default, Deserialize)]
struct QuoteArguments {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    product: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    email: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    phone: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    zip: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    may_call: bool,
}

/// What the tool calls are answered with: the store, the pages' notices and, with booking on,
/// the broker's hours and the booking page's words.
pub struct Tools {
    pub store: Arc<dyn QuoteStore>,
    pub notices: Arc<LeadNotices>,
    pub booking: Option<BookingSite>,
}

/// One server message; the method, the secret and the body's size are already checked.
pub async fn receive(tools: Arc<Tools>, body: Bytes) -> Response {
    handle(&tools, body)
        .await
        .unwrap_or_else(ApiError::into_response)
}

async fn handle(tools: &Tools, body: Bytes) -> Result<Response, ApiError> {
    let store = &tools.store;
    match messages::parse(&body)? {
        Received::ToolCalls {
            call_id,
            source,
            language,
            calls,
        } => {
            let conversation = Conversation {
                call_id: &call_id,
                source,
                language,
            };
            // Run together so the store commits them in one group; join_all keeps call order.
            let results = join_all(
                calls
                    .into_iter()
                    .map(|call| run_tool(tools, &conversation, call)),
            )
            .await;
            return Ok(
                warp::reply::json(&ServerMessageResponseToolCalls { results }).into_response(),
            );
        }
        Received::EndOfCallReport(report) => {
            store.record_call(report).await.map_err(|error| {
                tracing::error!(%error, "storing an end-of-call report failed");
                ApiError::from(error)
            })?;
        }
        Received::ChatTurn {
            conversation,
            started_at,
            history,
            turn,
        } => {
            let failed = |error: StoreError| {
                tracing::error!(%error, "storing a chat's transcript failed");
                ApiError::from(error)
            };
            let kept = store.call(conversation.clone()).await.map_err(failed)?;
            let kept = kept.map_or_else(Transcript::default, |kept| Transcript {
                text: kept.transcript.unwrap_or_default(),
                lines_dropped: kept.transcript_lines_dropped,
            });
            let transcript = chat_transcript::after_turn(kept, &history, &turn);
            let report = CallReport {
                call_id: conversation,
                ended_reason: None,
                summary: None,
                transcript: Some(transcript.text),
                transcript_lines_dropped: transcript.lines_dropped,
                recording_url: None,
                started_at,
                channel: Source::Chat,
            };
            store.record_call(report).await.map_err(failed)?;
        }
        Received::Other(kind) => tracing::debug!(kind, "ignored voice provider message"),
    }
    Ok(warp::reply::json(&serde_json::json!({})).into_response())
}

async fn run_tool(
    tools: &Tools,
    conversation: &Conversation<'_>,
    call: ToolCall,
) -> ToolCallResult {
    let store = tools.store.as_ref();
    let notices = tools.notices.as_ref();
    let booking = tools.booking.as_ref();
    let reply = match (call.name.as_str(), booking) {
        (REQUEST_QUOTE_TOOL, _) => request_quote(store, notices, conversation, &call).await,
        (AVAILABLE_TIMES_TOOL, Some(site)) => {
            booking_tools::available_times(store, site, conversation, &call).await
        }
        (BOOK_CALL_TOOL, Some(site)) => {
            booking_tools::book_call(store, notices, site, conversation, &call).await
        }
        (AVAILABLE_TIMES_TOOL | BOOK_CALL_TOOL, None) => {
            Err(booking_replies::words(conversation.language)
                .booking_off
                .to_owned())
        }
        (name, _) => Err(replies::unknown_tool(name, booking.is_some())),
    };
    ToolCallResult {
        tool_call_id: call.id,
        name: call.name,
        result: reply.as_ref().ok().cloned(),
        error: reply.err(),
    }
}

async fn request_quote(
    store: &(impl Quotes + ConversationConsents + ?Sized),
    notices: &LeadNotices,
    conversation: &Conversation<'_>,
    call: &ToolCall,
) -> Result<String, String> {
    let Conversation {
        call_id,
        source,
        language,
    } = *conversation;
    let arguments: QuoteArguments = call
        .arguments()
        .map_err(|reason| replies::unreadable_arguments(&reason))?;
    let (product, email) = (arguments.product.as_str(), arguments.email.as_str());
    let contact = ContactInput {
        phone: &arguments.phone,
        zip: &arguments.zip,
        may_call: arguments.may_call,
    };
    let rules = assistant_rules(notices.rules(language));
    let (request, contact) = QuoteRequest::parse_with(product, email, contact, rules)
        .map_err(|errors| replies::invalid(product, email, &errors))?;
    let origin = VoiceOrigin {
        call_id: call_id.to_owned(),
        tool_call_id: call.id.clone(),
    };
    // A repeated tool call is answered like the first when it asks the same; one asking for
    // something else is refused, never confirmed, as the stored row keeps the first.
    // The visitor heard (or read) the notice in the assistant's first words; the provider's
    // webhook carries neither their address nor their browser.
    let mut consent = notices.consent(language, conversation.channel(), None, None);
    if contact.phone.is_some() {
        consent.phone = notices.phone_consent(language, contact.may_call);
    }
    let quote = NewQuote::from_assistant(request.clone(), source, origin)
        .in_language(language)
        .with_consent(consent)
        .with_contact(Contact::from(&contact));
    match store.insert(quote).await {
        Ok(Inserted::New | Inserted::Replayed { .. }) => {
            if contact.phone.is_some() {
                settle(store, call_id).await;
            }
            Ok(replies::saved(&request))
        }
        Ok(Inserted::Conflict) => Err(replies::earlier_request_stands()),
        Err(error) => {
            tracing::error!(%error, "storing an assistant's quote request failed");
            Err(replies::storage_failed())
        }
    }
}
