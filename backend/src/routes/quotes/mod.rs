//! `POST /api/quote-requests`: the quote form's endpoint. JSON from the live form and other
//! clients; the browser's own form post (`form.rs`) before or without the form's script. Both
//! carry the page's form token in its cookie, and both are held as spam on the same signals
//! (`spam`).

mod double_submit;
mod form;
mod handlers;
mod idempotency;
pub mod limits;
mod page_language;

use std::net::IpAddr;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::http::error::rejection_in;
use crate::http::headers::{optional_cookie, optional_header};
use crate::http::methods::methods;
use crate::http::same_site;
use crate::http::{body, forwarded_proto};
use crate::leads::booking_ref::BookingRefs;
use crate::leads::notice::LeadNotices;
use crate::spam::{self, FormTokens};
use crate::store::Quotes;
use form::{FormRequest, FormRoute};
use handlers::{Post, Sender};
use limits::{Bucket, PostLimits};

/// Largest quote request body accepted.
const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;

/// With booking on (`booking`), a stored quote is answered with the booking page's link and a
/// reference to its lead (`leads::booking_ref`).
pub fn routes(
    store: Arc<dyn Quotes>,
    limits: Arc<PostLimits>,
    tokens: Arc<FormTokens>,
    notices: Arc<LeadNotices>,
    booking: Option<Arc<BookingRefs>>,
) -> BoxedFilter<(Response,)> {
    form_route(
        Arc::clone(&store),
        Arc::clone(&limits),
        Arc::clone(&tokens),
        Arc::clone(&notices),
        booking.clone(),
    )
    .or(json_route(store, limits, tokens, notices, booking))
    .unify()
    .boxed()
}

/// A browser's form post is answered `303` to the result page, whatever came of it (only a
/// malformed `Idempotency-Key`, which no browser sends, is refused as in JSON, and a post from
/// another site's page gets a page of its own).
fn form_route(
    store: Arc<dyn Quotes>,
    limits: Arc<PostLimits>,
    tokens: Arc<FormTokens>,
    notices: Arc<LeadNotices>,
    booking: Option<Arc<BookingRefs>>,
) -> BoxedFilter<(Response,)> {
    let route = Arc::new(FormRoute {
        store,
        limits: Arc::clone(&limits),
        tokens,
        notices,
        booking,
        recent: Default::default(),
    });
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .and(body::form_content_type())
        .and(limits.client())
        .and(forwarded_proto::headers_and_https())
        .and(optional_cookie(spam::COOKIE))
        .map(|client, headers, https, token| FormRequest {
            client,
            headers,
            https,
            token,
        })
        .and(outcome(body::limited(MAX_QUOTE_BODY_BYTES)))
        .then(move |request, body| {
            let route = Arc::clone(&route);
            async move { route.submit(request, body).await }
        })
        .boxed()
}

/// A JSON post from another site's page needs the browser's CORS preflight, which this server
/// never allows, so a browser does not send it; one that arrives anyway (from a browser that
/// says so) is refused the same way as a form post, so the rule holds whatever the server's
/// CORS answer ever becomes (in English: it came from none of the site's pages). Every other
/// refusal is written in the language of the page the post came from (`page_language`), as the
/// form's failure toast shows it.
fn json_route(
    store: Arc<dyn Quotes>,
    limits: Arc<PostLimits>,
    tokens: Arc<FormTokens>,
    notices: Arc<LeadNotices>,
    booking: Option<Arc<BookingRefs>>,
) -> BoxedFilter<(Response,)> {
    let rules = Arc::clone(&notices);
    let post = body::json_content_type()
        .and(idempotency::key())
        .and(body::limited(MAX_QUOTE_BODY_BYTES))
        .and_then(move |key, body: bytes::Bytes| {
            let parsed = Post::parse(key, &body, &rules).map_err(warp::reject::custom);
            async move { parsed }
        });
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .and(same_site::from_this_site())
        .and(optional_header("referer"))
        .and(limits.client())
        .and(outcome(post))
        .and_then(
            move |referer: Option<HeaderValue>,
                  client: Option<IpAddr>,
                  post: Result<Post, Rejection>| {
                let limits = Arc::clone(&limits);
                async move {
                    // The `Referer` is read only for a body that was never read.
                    let language = post.as_ref().map_or_else(
                        |_| page_language::from_referer(referer.as_ref()),
                        Post::language,
                    );
                    // Only a post that passes validation spends a quote token; the others (a typo,
                    // the honeypot, junk) are held to the looser limit on invalid posts.
                    let bucket = match &post {
                        Ok(post) if post.is_quote() => Bucket::Quotes,
                        _ => Bucket::Invalid,
                    };
                    limits
                        .check(bucket, client)
                        .map_err(|limited| limited.in_language(language))?;
                    let post = post.map_err(|refused| rejection_in(refused, language))?;
                    Ok::<_, Rejection>((post, client))
                }
            },
        )
        .untuple_one()
        .and(optional_cookie(spam::COOKIE))
        .and(optional_header("user-agent"))
        .and(forwarded_proto::https())
        .and_then(move |post, client, token, user_agent, https| {
            let store = Arc::clone(&store);
            let tokens = Arc::clone(&tokens);
            let notices = Arc::clone(&notices);
            let booking = booking.clone();
            let sender = Sender {
                client,
                token,
                user_agent,
                https,
            };
            async move {
                handlers::create(store, &tokens, &notices, booking.as_deref(), post, sender).await
            }
        })
        .boxed()
}

/// `filter`'s outcome as a value, its rejection included, so the rate limit can count a refused
/// post before its refusal is answered.
fn outcome<T: Send>(
    filter: impl Filter<Extract = (T,), Error = Rejection> + Clone,
) -> impl Filter<Extract = (Result<T, Rejection>,), Error = std::convert::Infallible> + Clone {
    filter
        .map(Ok)
        .or_else(|rejection| async move { Ok::<_, std::convert::Infallible>((Err(rejection),)) })
}
