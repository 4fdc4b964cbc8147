//! `POST /api/quote-requests`: the quote form's endpoint.

pub mod body;
mod handlers;
mod idempotency;
pub mod limits;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::http::client_ip;
use crate::http::methods::methods;
use crate::store::QuoteStore;
use limits::PostLimits;

pub fn routes(store: Arc<dyn QuoteStore>, limits: Arc<PostLimits>) -> BoxedFilter<(Response,)> {
    warp::path!("api" / "quote-requests")
        .and(methods("POST"))
        .and(client_ip::peer())
        .and(warp::header::headers_cloned())
        .and(warp::body::stream())
        .then(move |peer, headers, body| {
            handlers::create(Arc::clone(&store), Arc::clone(&limits), peer, headers, body)
        })
        .boxed()
}
