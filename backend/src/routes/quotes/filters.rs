//! The quote posts' reusable filters, as in warp's `examples/todos.rs`: each takes one thing
//! from the request (the body, the rate limit, who sent it), so the routes in `mod.rs` read as a
//! list and the handlers only handle.

use std::convert::Infallible;
use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use warp::http::HeaderValue;
use warp::{Filter, Rejection};

use super::form::FormRequest;
use super::handlers::{Post, Sender};
use super::idempotency;
use super::limits::{Bucket, PostLimits};
use super::page_language;
use crate::http::error::rejection_in;
use crate::http::headers::{optional_cookie, optional_header};
use crate::http::{body, forwarded_proto};
use crate::leads::notice::LeadNotices;
use crate::spam;

/// Largest quote request body accepted.
const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;

/// `filter`'s outcome as a value, its rejection included, so the rate limit can count a refused
/// post before its refusal is answered.
pub fn outcome<T: Send>(
    filter: impl Filter<Extract = (T,), Error = Rejection> + Clone,
) -> impl Filter<Extract = (Result<T, Rejection>,), Error = Infallible> + Clone {
    filter
        .map(Ok)
        .or_else(|rejection| async move { Ok::<_, Infallible>((Err(rejection),)) })
}

/// The body of a post, up to the largest quote, or why it could not be read.
pub fn body() -> impl Filter<Extract = (Result<Bytes, Rejection>,), Error = Infallible> + Clone {
    outcome(body::limited(MAX_QUOTE_BODY_BYTES))
}

/// What a browser's form post says besides its body.
pub fn form_request(
    limits: &Arc<PostLimits>,
) -> impl Filter<Extract = (FormRequest,), Error = Rejection> + Clone {
    limits
        .client()
        .and(forwarded_proto::headers_and_https())
        .and(optional_cookie(spam::COOKIE))
        .map(|client, headers, https, token| FormRequest {
            client,
            headers,
            https,
            token,
        })
}

/// A JSON post read as a quote (`Post::parse`, by the rules of its page's language), once it
/// has spent its rate limit: only a post that passes validation spends a quote token; the
/// others (a typo, the honeypot, junk) are held to the looser limit on invalid posts. Every
/// refusal is in the language of the post's page (its `lang`, else its `Referer`).
pub fn counted_json_post(
    limits: Arc<PostLimits>,
    notices: Arc<LeadNotices>,
) -> impl Filter<Extract = (Post, Option<IpAddr>), Error = Rejection> + Clone {
    let post = body::json_content_type()
        .and(idempotency::key())
        .and(body::limited(MAX_QUOTE_BODY_BYTES))
        .and_then(move |key, body: Bytes| {
            let parsed = Post::parse(key, &body, &notices).map_err(warp::reject::custom);
            async move { parsed }
        });
    optional_header("referer")
        .and(limits.client())
        .and(outcome(post))
        .and_then(move |referer, client, post| {
            let counted = spend(&limits, referer, client, post);
            async move { counted }
        })
        .untuple_one()
}

fn spend(
    limits: &PostLimits,
    referer: Option<HeaderValue>,
    client: Option<IpAddr>,
    post: Result<Post, Rejection>,
) -> Result<(Post, Option<IpAddr>), Rejection> {
    // The `Referer` is read only for a body that was never read.
    let language = post.as_ref().map_or_else(
        |_| page_language::from_referer(referer.as_ref()),
        Post::language,
    );
    let bucket = Bucket::of(post.as_ref().is_ok_and(Post::is_quote));
    limits
        .check(bucket, client)
        .map_err(|limited| limited.in_language(language))?;
    let post = post.map_err(|refused| rejection_in(refused, language))?;
    Ok((post, client))
}

/// Who sent a JSON post: its page's form token, its browser, and whether it came over HTTPS.
pub fn sender() -> impl Filter<Extract = (Sender,), Error = Infallible> + Clone {
    optional_cookie(spam::COOKIE)
        .and(optional_header("user-agent"))
        .and(forwarded_proto::https())
        .map(|token, user_agent, https| Sender {
            token,
            user_agent,
            https,
        })
}
