//! What a page behind a signed link (`/consent/<token>`, `/book/manage/<token>`, and their
//! Spanish twins) is asked: the filters both share, ending in the request and its body.

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use warp::http::{HeaderMap, Method};
use warp::{Filter, Rejection};

use super::quotes::limits::PostLimits;
use crate::http::body;
use crate::http::forwarded_proto;
use crate::http::methods::methods;
use crate::store::Language;

/// What the browser sent besides the body.
pub struct LinkRequest {
    pub language: Language,
    pub token: String,
    pub method: Method,
    pub client: Option<IpAddr>,
    pub headers: HeaderMap,
    pub https: bool,
}

/// `GET`, `HEAD` or `POST` on the English or the Spanish path (each ending in the link's token),
/// the client as the post limits see it, and a body of at most `max_body` bytes.
pub fn link_page(
    english: impl Filter<Extract = (String,), Error = Rejection> + Clone + Send + Sync + 'static,
    spanish: impl Filter<Extract = (String,), Error = Rejection> + Clone + Send + Sync + 'static,
    limits: &Arc<PostLimits>,
    max_body: usize,
) -> impl Filter<Extract = (LinkRequest, Bytes), Error = Rejection> + Clone {
    english
        .map(|token| (Language::En, token))
        .or(spanish.map(|token| (Language::Es, token)))
        .unify()
        .and(methods("GET, HEAD, POST"))
        .and(warp::method())
        .and(limits.client())
        .and(forwarded_proto::headers_and_https())
        .map(
            |(language, token), method, client, headers, https| LinkRequest {
                language,
                token,
                method,
                client,
                headers,
                https,
            },
        )
        .and(body::limited(max_body))
}
