//! `GET /api/openapi.json`: the API's description, generated from the handlers' types and the
//! `#[utoipa::path]` beside each route (the admin API's in `admin::AdminApi`), built once.
//! What the code reads by hand rather than by a type (the quote post's fields, the voice
//! provider's messages) is described beside its reader as a schema of its own.

use std::sync::LazyLock;

use serde_json::Value;
use utoipa::openapi::security::{ApiKey, ApiKeyValue, Http, HttpAuthScheme, SecurityScheme};
use utoipa::openapi::{OpenApi as Document, RefOr};
use utoipa::{Modify, OpenApi};
use warp::filters::BoxedFilter;
use warp::http::header;
use warp::reply::Response;
use warp::{Filter, Reply};

use crate::http::methods::methods;
use crate::http::{error_answers, request_id};

#[derive(OpenApi)]
#[openapi(
    info(
        title = "Health insurance broker API",
        version = "1.0.0",
        description = "Quote requests from the landing page and the voice assistant, the broker's admin list, the page's run-time settings and the health check. Every error is a JSON ErrorBody. Every response carries X-Request-Id. The admin list and the voice webhook exist only when ADMIN_TOKEN and VAPI_WEBHOOK_SECRET are set; otherwise they answer 404 like any unknown path."
    ),
    servers((url = "/")),
    paths(
        crate::routes::quotes::routes,
        crate::routes::client_config::routes,
        crate::routes::voice_events::routes,
        crate::routes::health::routes,
        routes,
    ),
    components(schemas(crate::http::error::ErrorBody)),
    modifiers(&Shared)
)]
struct ApiDoc;

/// What every operation shares: the error answers, the security schemes, `X-Request-Id`.
struct Shared;

impl Modify for Shared {
    fn modify(&self, document: &mut Document) {
        let components = document.components.get_or_insert_with(Default::default);
        for (name, response) in error_answers::components() {
            components
                .responses
                .insert(name.to_owned(), RefOr::T(response));
        }
        components.add_security_scheme(
            "adminToken",
            SecurityScheme::Http({
                let mut bearer = Http::new(HttpAuthScheme::Bearer);
                bearer.description = Some("ADMIN_TOKEN.".into());
                bearer
            }),
        );
        components.add_security_scheme(
            "adminSession",
            SecurityScheme::ApiKey(ApiKey::Cookie(ApiKeyValue::with_description(
                "inbox_session",
                "The session cookie POST /api/admin/session sets (named __Host-inbox_session over HTTPS). Requests that change something with it must come from the site itself (Origin or Sec-Fetch-Site: same-origin), or get 403 cross_site_request.",
            ))),
        );
        components.add_security_scheme(
            "vapiSecret",
            SecurityScheme::ApiKey(ApiKey::Header(ApiKeyValue::with_description(
                "X-Vapi-Secret",
                "VAPI_WEBHOOK_SECRET (at least 32 characters), configured as the server secret on the provider's side. A wrong one counts as a failed sign-in of the client.",
            ))),
        );
    }
}

/// A schema's name and the JSON of it.
type Written = (&'static str, fn() -> Value);

/// The schemas of the bodies read by hand, not by a type (see each one's module), as JSON:
/// utoipa's `Schema` has no room for a property of any type, nor for `not`.
const WRITTEN: [Written; 3] = [
    (
        "QuoteRequest",
        crate::routes::quotes::described::quote_request,
    ),
    ("QuoteForm", crate::routes::quotes::described::quote_form),
    (
        "VoiceServerMessage",
        crate::routes::voice_events::described::server_message,
    ),
];

/// The headers an answer always carries where the document names them: the request id on
/// every answer, `Retry-After` on a refusal to wait out, and those a route names so.
const ALWAYS_SENT: [&str; 4] = ["X-Request-Id", "Retry-After", "Location", "Set-Cookie"];

/// The document as served: utoipa's, every answer given `X-Request-Id` (`http::request_id`
/// sets it on each) and the headers that are always sent marked `required` (utoipa's `Header`
/// has no such field).
fn generated() -> Value {
    let mut document = ApiDoc::openapi();
    document.merge(crate::routes::admin::AdminApi::openapi());
    let mut document = serde_json::to_value(document).expect("the document serializes");
    let request_id = serde_json::to_value(request_id::header_schema()).expect("a header");
    let mark = |responses: &mut Value| {
        let answers = responses
            .as_object_mut()
            .into_iter()
            .flat_map(|r| r.values_mut());
        for answer in answers.filter(|answer| answer.get("$ref").is_none()) {
            let headers = answer
                .as_object_mut()
                .expect("a response")
                .entry("headers")
                .or_insert_with(|| Value::Object(Default::default()));
            headers["X-Request-Id"] = request_id.clone();
            for (name, header) in headers.as_object_mut().expect("headers") {
                if ALWAYS_SENT.contains(&name.as_str()) {
                    header["required"] = Value::Bool(true);
                }
            }
        }
    };
    for (name, schema) in WRITTEN {
        document["components"]["schemas"][name] = schema();
    }
    // utoipa-gen 5.5 writes `#[schema(min_properties = 1)]` as `maxProperties`: a change names
    // a status or a note or both (`admin::lead`), so never none.
    document["components"]["schemas"]["LeadChange"]["minProperties"] = Value::from(1);
    if let Some(responses) = document.pointer_mut("/components/responses") {
        mark(responses);
    }
    let operations = document["paths"]
        .as_object_mut()
        .expect("paths")
        .values_mut()
        .flat_map(|item| {
            item.as_object_mut()
                .into_iter()
                .flat_map(|ops| ops.values_mut())
        });
    for operation in operations {
        if let Some(responses) = operation.get_mut("responses") {
            mark(responses);
        }
    }
    document
}

static DOCUMENT: LazyLock<String> = LazyLock::new(|| generated().to_string());

/// The document, for `backend openapi` (the front end's types are made from it).
pub fn document() -> &'static str {
    &DOCUMENT
}

/// This document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    operation_id = "openapi",
    responses((status = 200, description = "The OpenAPI document.", body = Object))
)]
pub fn routes() -> BoxedFilter<(Response,)> {
    warp::path!("api" / "openapi.json")
        .and(methods("GET, HEAD"))
        .map(|| {
            warp::reply::with_header(document(), header::CONTENT_TYPE, "application/json")
                .into_response()
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use crate::http::error::ApiError;

    fn document() -> serde_json::Value {
        serde_json::from_str(super::document()).unwrap()
    }

    #[test]
    fn the_document_describes_every_endpoint() {
        let doc = document();
        assert_eq!(doc["openapi"], "3.1.0");
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

    #[test]
    fn every_answer_names_its_request_id_and_every_ref_resolves() {
        let doc = document();
        let text = doc.to_string();
        for name in text
            .split("\"$ref\":\"#/components/")
            .skip(1)
            .map(|rest| rest.split('"').next().unwrap())
        {
            let (kind, name) = name.split_once('/').unwrap();
            assert!(doc["components"][kind][name].is_object(), "{kind}/{name}");
        }
        for (path, item) in doc["paths"].as_object().unwrap() {
            for (method, operation) in item.as_object().unwrap() {
                for (status, answer) in operation["responses"].as_object().unwrap() {
                    let answer = match answer["$ref"].as_str() {
                        Some(name) => {
                            &doc["components"]["responses"][name.rsplit('/').next().unwrap()]
                        }
                        None => answer,
                    };
                    assert_eq!(
                        answer["headers"]["X-Request-Id"]["required"], true,
                        "{method} {path} {status}"
                    );
                }
            }
        }
    }
}
