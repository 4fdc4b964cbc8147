//! The voice events: the voice provider's server messages to us, at `POST /api/vapi/webhook`
//! (the provider calls it a webhook; our outgoing forward of a lead is `forward/lead_post.rs`).
//! Quotes spoken to the assistant, and with booking on the open times asked for and the calls
//! booked (`booking_tools.rs`), arrive as `tool-calls`; `end-of-call-report` says how each call
//! ended.

mod booking_replies;
mod booking_tools;
mod chat_transcript;
mod conversation;
pub mod conversation_id;
pub mod described;
mod handler;
mod lenient;
mod messages;
mod replies;
mod sdk;

use crate::leads::notice::LeadNotices;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::http::auth::secret_header;
use crate::http::body;
use crate::http::client_ip::client;
use crate::http::failure_limit::FailureLimit;
use crate::http::methods::methods;
use crate::routes::booking::BookingSite;
use crate::settings::trusted_proxies::TrustedProxies;
use crate::store::QuoteStore;

/// The longest id of a call or chat the provider's messages may carry.
pub use sdk::MAX_ID_CHARS;

/// The header holding the shared secret configured on the provider's side.
pub const SECRET_HEADER: &str = "x-vapi-secret";
/// Largest voice event body accepted (an end-of-call report carries the transcript).
const MAX_VOICE_EVENT_BODY_BYTES: usize = 1024 * 1024;
/// The tool that takes a quote request.
pub const REQUEST_QUOTE_TOOL: &str = "request_quote";
/// With booking on: the tool that answers the next open times.
pub const AVAILABLE_TIMES_TOOL: &str = "available_times";
/// With booking on: the tool that books one, with its Scope of Appointment.
pub const BOOK_CALL_TOOL: &str = "book_call";

/// The voice provider's server messages.
///
/// tool-calls: each request_quote call (product, email) is validated and stored, and answered with a one-line result or error for the assistant to read out; a repeated tool call is answered like the first and stored once. With booking on in the build, available_times (optional from, a date) answers the next open times and book_call (slot, name, email, products, language, and phone and may_call where the page asks for a phone) books one with its Scope of Appointment, each answered the same way in the conversation's language; with booking off their calls are answered with an error. end-of-call-report: how the call ended is stored against its quote requests, once: a repeated report adds what the first lacked and replaces nothing it had; a transcript is kept to its first 256 KiB, the lines past it counted. A call id may not start with chat: (the prefix of the chats' ids; 400). Any other message type is acknowledged with {} and ignored.
///
/// Wrong secrets count against `failures`, per client, with the admin API's sign-ins. The
/// booking tools are answered only with `booking` (on in the build).
#[utoipa::path(
    post,
    path = "/api/vapi/webhook",
    operation_id = "voiceWebhook",
    security(("vapiSecret" = [])),
    request_body = described::VoiceServerMessage,
    responses(
        (status = 200, description = "results for tool-calls; {} for any other message.", body = sdk::ServerMessageResponseToolCalls),
        described::Refusals,
    )
)]
pub fn routes(
    store: Arc<dyn QuoteStore>,
    notices: Arc<LeadNotices>,
    booking: Option<BookingSite>,
    secret: String,
    failures: Arc<FailureLimit>,
    proxies: TrustedProxies,
) -> BoxedFilter<(Response,)> {
    let tools = Arc::new(handler::Tools {
        store,
        notices,
        booking,
    });
    warp::path!("api" / "vapi" / "webhook")
        .and(methods("POST"))
        .and(secret_header(
            SECRET_HEADER,
            secret,
            failures,
            client(proxies),
        ))
        .and(body::limited(MAX_VOICE_EVENT_BODY_BYTES))
        .then(move |body| handler::receive(Arc::clone(&tools), body))
        .boxed()
}
