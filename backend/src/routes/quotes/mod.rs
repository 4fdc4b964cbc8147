//! `POST /api/quote-requests`: the quote form's endpoint. JSON from the live form and other
//! clients; the browser's own form post (`form.rs`) before or without the form's script.

mod double_submit;
mod form;
mod handlers;
mod idempotency;
pub mod limits;

use std::net::IpAddr;
use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::http::headers::optional_header;
use crate::http::methods::methods;
use crate::http::{body, forwarded_proto};
use crate::settings::trusted_proxies::TrustedProxies;
use crate::store::QuoteStore;
use form::FormRoute;
use handlers::Post;
use limits::{Bucket, PostLimits};

/// Largest quote request body accepted.
const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;

pub fn routes(
    store: Arc<dyn QuoteStore>,
    limits: Arc<PostLimits>,
    proxies: TrustedProxies,
) -> BoxedFilter<(Response,)> {
    form_route(Arc::clone(&store), Arc::clone(&limits), proxies)
        .or(json_route(store, limits))
        .unify()
        .boxed()
}

/// A browser's form post is answered `303` to the result page, whatever came of it (only a
/// malformed `Idempotency-Key`, which no browser sends, is refused as in JSON).
fn form_route(
    store: Arc<dyn QuoteStore>,
    limits: Arc<PostLimits>,
    proxies: TrustedProxies,
) -> BoxedFilter<(Response,)> {
    let route = Arc::new(FormRoute {
        store,
        limits: Arc::clone(&limits),
        recent: Default::default(),
    });
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .and(body::form_content_type())
        .and(limits.client())
        .and(optional_header(idempotency::IDEMPOTENCY_KEY_HEADER))
        .and(outcome(body::limited(MAX_QUOTE_BODY_BYTES)))
        .and(optional_header("user-agent"))
        .and(forwarded_proto::https(proxies))
        .then(move |client, key, body, user_agent, https| {
            let route = Arc::clone(&route);
            async move { route.submit(client, key, body, user_agent, https).await }
        })
        .boxed()
}

fn json_route(store: Arc<dyn QuoteStore>, limits: Arc<PostLimits>) -> BoxedFilter<(Response,)> {
    let post = body::json_content_type()
        .and(idempotency::key())
        .and(body::limited(MAX_QUOTE_BODY_BYTES))
        .and_then(|key, body: bytes::Bytes| async move {
            Post::parse(key, &body).map_err(warp::reject::custom)
        });
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .and(limits.client())
        .and(outcome(post))
        .and_then(
            move |client: Option<IpAddr>, post: Result<Post, Rejection>| {
                let limits = Arc::clone(&limits);
                async move {
                    // Only a post that passes validation spends a quote token; the others (a typo,
                    // the honeypot, junk) are held to the looser limit on invalid posts.
                    let bucket = match &post {
                        Ok(post) if post.is_quote() => Bucket::Quotes,
                        _ => Bucket::Invalid,
                    };
                    limits.check(bucket, client).map_err(warp::reject::custom)?;
                    post
                }
            },
        )
        .and(optional_header("user-agent"))
        .and_then(move |post, user_agent| handlers::create(Arc::clone(&store), post, user_agent))
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
