//! `POST /api/vapi/webhook`: the voice provider's server messages. Quotes spoken to the assistant
//! arrive as `tool-calls`; `end-of-call-report` says how each call ended.

mod handler;
mod messages;
mod replies;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::store::QuoteStore;

/// The header holding the shared secret configured on the provider's side.
pub const SECRET_HEADER: &str = "x-vapi-secret";
/// The one tool the assistant may call.
pub const REQUEST_QUOTE_TOOL: &str = "request_quote";

/// Matches every method on the path, so a wrong one gets our 405 body rather than a rejection.
pub fn routes(store: Arc<dyn QuoteStore>, secret: String) -> BoxedFilter<(Response,)> {
    let secret = Arc::new(secret);
    warp::path!("api" / "vapi" / "webhook")
        .and(warp::method())
        .and(warp::header::headers_cloned())
        .and(warp::body::stream())
        .then(move |method, headers, body| {
            handler::receive(Arc::clone(&store), Arc::clone(&secret), method, headers, body)
        })
        .boxed()
}
