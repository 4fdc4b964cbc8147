//! `GET /healthz`: the process is alive, and whether its database answers.

use std::sync::Arc;

use serde_json::json;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Reply};

use crate::store::QuoteStore;

pub fn routes(store: Arc<dyn QuoteStore>) -> BoxedFilter<(Response,)> {
    warp::path!("healthz")
        .and(warp::get().or(warp::head()).unify())
        .then(move || {
            let store = Arc::clone(&store);
            async move {
                let (status, database) = match store.ping().await {
                    Ok(()) => (StatusCode::OK, "ok"),
                    Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
                };
                let ready = status == StatusCode::OK;
                let body = json!({ "status": if ready { "ok" } else { "degraded" }, "database": database });
                let mut response = warp::reply::with_status(warp::reply::json(&body), status).into_response();
                response.headers_mut().insert("cache-control", warp::http::HeaderValue::from_static("no-store"));
                response
            }
        })
        .boxed()
}
