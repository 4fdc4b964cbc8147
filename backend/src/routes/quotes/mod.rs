//! `POST /api/quote-requests`: the quote form's endpoint. JSON from the live form and other
//! clients; the browser's own form post (`form.rs`) before or without the form's script. Both
//! carry the page's form token in its cookie, and both are held as spam on the same signals
//! (`spam`). The routes are lists of filters (`filters.rs`) ending in a handler.

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
use crate::http::same_site;
use crate::leads::booking_ref::BookingRefs;
use crate::leads::notice::LeadNotices;
use crate::spam::FormTokens;
use crate::store::Quotes;
use filters::with;
use form::FormRoute;
use handlers::Desk;
use limits::PostLimits;

/// With booking on (`booking`), a stored quote is answered with the booking page's link and a
/// reference to its lead (`leads::booking_ref`).
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
