//! `GET /api/openapi.json`: the API's description. The document lives in `openapi.json` beside
//! this file so new endpoints are described in one place; it is compiled into the binary.

use warp::filters::BoxedFilter;
use warp::http::header;
use warp::reply::Response;
use warp::{Filter, Reply};

use crate::http::methods::methods;

pub const DOCUMENT: &str = include_str!("openapi.json");

pub fn routes() -> BoxedFilter<(Response,)> {
    warp::path!("api" / "openapi.json")
        .and(methods("GET, HEAD"))
        .map(|| {
            warp::reply::with_header(DOCUMENT, header::CONTENT_TYPE, "application/json")
                .into_response()
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use crate::http::error::ApiError;

    fn document() -> serde_json::Value {
        serde_json::from_str(super::DOCUMENT).unwrap()
    }

    #[test]
    fn the_document_is_valid_json_describing_every_endpoint() {
        let doc = document();
        assert_eq!(doc["openapi"], "3.0.3");
        for path in [
            "/api/quote-requests",
            "/api/client-config",
            "/api/admin/quote-requests",
            "/api/admin/quote-requests/{id}",
            "/api/admin/session",
            "/api/vapi/webhook",
            "/healthz",
            "/api/openapi.json",
        ] {
            assert!(doc["paths"][path].is_object(), "{path} is described");
        }
    }

    #[test]
    fn every_error_code_the_server_sends_is_in_the_document() {
        let every_error = ApiError::every();
        let doc = document();
        let codes = doc["components"]["schemas"]["ErrorBody"]["properties"]["code"]["enum"]
            .as_array()
            .unwrap();
        for error in every_error {
            assert!(
                codes.iter().any(|code| code == error.code()),
                "{} is in the ErrorBody enum",
                error.code()
            );
        }
    }
}
