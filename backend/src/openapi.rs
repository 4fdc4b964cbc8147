//! `GET /api/openapi.json`: the API's description. The document lives in `openapi.json` beside
//! this file so new endpoints are described in one place; it is compiled into the binary.

use warp::filters::BoxedFilter;
use warp::http::header;
use warp::reply::Response;
use warp::{Filter, Reply};

pub const DOCUMENT: &str = include_str!("openapi.json");

pub fn routes() -> BoxedFilter<(Response,)> {
    warp::path!("api" / "openapi.json")
        .and(warp::get().or(warp::head()).unify())
        .map(|| warp::reply::with_header(DOCUMENT, header::CONTENT_TYPE, "application/json").into_response())
        .boxed()
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_document_is_valid_json_describing_every_endpoint() {
        let doc: serde_json::Value = serde_json::from_str(super::DOCUMENT).unwrap();
        assert_eq!(doc["openapi"], "3.0.3");
        for path in ["/api/quote-requests", "/healthz", "/api/openapi.json"] {
            assert!(doc["paths"][path].is_object(), "{path} is described");
        }
    }
}
