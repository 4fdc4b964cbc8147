//! `GET /api/admin/quote-requests`: the broker reads every lead, newest first, a page at a time,
//! as JSON or CSV. Off unless `ADMIN_TOKEN` is set.

mod handler;
mod params;

use std::sync::Arc;

use warp::filters::BoxedFilter;
use warp::http::{header, HeaderValue};
use warp::reply::Response;
use warp::Filter;

use crate::http::auth::bearer;
use crate::http::client_ip;
use crate::http::error::recover;
use crate::http::failure_limit::FailureLimit;
use crate::http::methods::methods;
use crate::settings::trusted_proxies::TrustedProxies;
use crate::store::QuoteStore;

/// Its errors are answered here, so that they too carry `Cache-Control: no-store`. Wrong tokens
/// count against `failures`, per client behind `proxies`.
pub fn routes(
    store: Arc<dyn QuoteStore>,
    token: String,
    failures: Arc<FailureLimit>,
    proxies: TrustedProxies,
) -> BoxedFilter<(Response,)> {
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    let page = methods("GET, HEAD")
        .and(bearer(token, failures, client_ip::client(proxies)))
        .and(warp::header::headers_cloned())
        .and(query)
        .and_then(move |headers, query: String| handler::page(Arc::clone(&store), headers, query));
    warp::path!("api" / "admin" / "quote-requests")
        .and(page.recover(recover).unify())
        .map(|mut response: Response| {
            response
                .headers_mut()
                .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
            response
        })
        .boxed()
}
