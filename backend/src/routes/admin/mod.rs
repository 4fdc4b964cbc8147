//! `GET /api/admin/quote-requests`: the broker reads every lead, newest first, a page at a time,
//! as JSON or CSV. Off unless `ADMIN_TOKEN` is set.

mod handler;
mod params;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::Filter;

use crate::store::QuoteStore;

/// Matches every method on the path, so a wrong one gets our 405 body rather than a rejection.
pub fn routes(store: Arc<dyn QuoteStore>, token: String) -> BoxedFilter<(Response,)> {
    let token = Arc::new(token);
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    warp::path!("api" / "admin" / "quote-requests")
        .and(warp::method())
        .and(warp::header::headers_cloned())
        .and(query)
        .then(move |method, headers, query: String| {
            handler::list(Arc::clone(&store), Arc::clone(&token), method, headers, query)
        })
        .boxed()
}
