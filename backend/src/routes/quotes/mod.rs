//! `POST /api/quote-requests`: the quote form's endpoint. JSON from the live form and other
//! clients; the browser's own form post (`form.rs`) before or without the form's script. Both
//! carry the page's form token in its cookie, and both are held as spam on the same signals
//! (`spam`). The routes are lists of filters (`filters.rs`) ending in a handler.

pub mod described;
mod double_submit;
mod filters;
mod form;
mod handlers;
mod idempotency;
pub mod limits;
mod page_language;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::http::body;
use crate::http::methods::methods;
use crate::http::route_list::with;
use crate::http::same_site;
use crate::leads::booking_ref::BookingRefs;
use crate::leads::notice::LeadNotices;
use crate::spam::FormTokens;
use crate::store::Quotes;
use form::FormRoute;
use handlers::Desk;
use limits::PostLimits;

/// Store a quote request; answered only after the row is committed.
///
/// Two bodies: JSON (the live form, the voice tool, other clients), answered 201 or a JSON error; and the browser's own form post (application/x-www-form-urlencoded), always answered 303 to the result page. Send an Idempotency-Key to make JSON retries safe: the same key with the same request is answered with the first quote's id (no new row, kept as long as the quote); the same key with another request gets 409 idempotency_conflict. Only posts that pass validation count against the client's rate limit; invalid ones have their own, six times looser limit. A post the browser says came from a page on another site (Sec-Fetch-Site other than same-origin or none; without it, an Origin other than this site) is refused with 403 and nothing is stored. Each HTML page of the site sets the form_token cookie (Path=/api/quote-requests, HttpOnly, SameSite=Strict), a signed time stamp of when it was served, and the browser sends it back with the post: a post without a valid one, sooner than FORM_MIN_FILL_SECONDS after it, or with the honeypot filled is answered exactly as any other (201, or 303 to the same result page) and stored as spam, never delivered (see the admin API's status=spam).
///
/// With booking on (`booking`), a stored quote is answered with the booking page's link and a
/// reference to its lead (`leads::booking_ref`).
#[utoipa::path(
    post,
    path = "/api/quote-requests",
    operation_id = "createQuoteRequest",
    params(described::Headers),
    request_body(content(
        (described::QuoteRequest = "application/json"),
        (described::QuoteForm = "application/x-www-form-urlencoded"),
    )),
    responses(
        (status = 201,
         description = "JSON: stored (as spam, when its signals say a script sent it), or stored before under the same Idempotency-Key (its id again), or silently dropped when the honeypot field is filled and the other fields break the quote rules.",
         body = handlers::Created),
        described::Refusals,
    )
)]
pub fn routes(
    store: Arc<dyn Quotes>,
    limits: Arc<PostLimits>,
    tokens: Arc<FormTokens>,
    notices: Arc<LeadNotices>,
    booking: Option<Arc<BookingRefs>>,
) -> BoxedFilter<(Response,)> {
    let desk = Arc::new(Desk {
        store,
        tokens,
        notices,
        booking,
    });
    form_route(Arc::clone(&desk), Arc::clone(&limits))
        .or(json_route(desk, limits))
        .unify()
        .boxed()
}

fn quote_post() -> BoxedFilter<()> {
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .boxed()
}

/// A browser's form post is answered `303` to the result page, whatever came of it (only a
/// malformed `Idempotency-Key`, which no browser sends, is refused as in JSON, and a post from
/// another site's page gets a page of its own).
fn form_route(desk: Arc<Desk>, limits: Arc<PostLimits>) -> BoxedFilter<(Response,)> {
    let route = Arc::new(FormRoute::new(desk, Arc::clone(&limits)));
    quote_post()
        .and(body::form_content_type())
        .and(filters::form_request(&limits))
        .and(filters::body())
        .and(with(route))
        .then(FormRoute::answer)
        .boxed()
}

/// A JSON post from another site's page needs the browser's CORS preflight, which this server
/// never allows, so a browser does not send it; one that arrives anyway (from a browser that
/// says so) is refused the same way as a form post, so the rule holds whatever the server's
/// CORS answer ever becomes (in English: it came from none of the site's pages). Every other
/// refusal is written in the language of the page the post came from, as the form's failure
/// toast shows it.
fn json_route(desk: Arc<Desk>, limits: Arc<PostLimits>) -> BoxedFilter<(Response,)> {
    let notices = Arc::clone(&desk.notices);
    quote_post()
        .and(same_site::from_this_site())
        .and(filters::counted_json_post(limits, notices))
        .and(filters::sender())
        .and(with(desk))
        .and_then(handlers::create)
        .boxed()
}
