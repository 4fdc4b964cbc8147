//! `POST /api/quote-requests`: the quote form's endpoint.

pub mod body;
mod handlers;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::rate_limit::RateLimiter;
use crate::store::QuoteStore;

/// Matches every method on the path, so a wrong one gets our 405 body rather than a rejection.
pub fn routes(store: Arc<dyn QuoteStore>, limiter: Option<Arc<RateLimiter>>) -> BoxedFilter<(Response,)> {
    warp::path!("api" / "quote-requests")
        .and(warp::addr::remote())
        .and(warp::method())
        .and(warp::header::headers_cloned())
        .and(warp::body::stream())
        .then(move |peer, method, headers, body| {
            handlers::create(Arc::clone(&store), limiter.clone(), peer, method, headers, body)
        })
        .boxed()
}
