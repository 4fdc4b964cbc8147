//! The quote post as the OpenAPI document (`routes/openapi`) describes it. Its bodies are read by
//! hand, not by a type (JSON's fields through wasm-core's rules, some read only when the page asks
//! for them and any value taken; the form's fields as a browser posts them), so their schemas are
//! written here, beside the reader, with the rules' own constants; so are its answers besides
//! `201`, whose headers and content types utoipa's attributes cannot say.

use std::collections::BTreeMap;

use serde_json::{json, Value};
use utoipa::openapi::header::Header;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Required;
use utoipa::openapi::{ContentBuilder, RefOr, Response, ResponseBuilder, Schema};
use utoipa::{IntoParams, IntoResponses, PartialSchema, ToSchema};
use wasm_core::quote::MAX_EMAIL_LEN;
use wasm_core::Product;

use super::idempotency::MAX_IDEMPOTENCY_KEY_CHARS;
use crate::http::error::ErrorBody;
use crate::http::error_answers::{error, errors, retry_after, ServerErrors};
use crate::routes::quote_result::{RESULT_PATH, SPANISH_RESULT_PATH};
use crate::store::schema;
use crate::store::schema::written;

/// The JSON body (`handlers::parse_payload`).
pub struct QuoteRequest;

impl PartialSchema for QuoteRequest {
    fn schema() -> RefOr<Schema> {
        written("QuoteRequest")
    }
}

impl ToSchema for QuoteRequest {}

/// `QuoteRequest`'s schema.
pub fn quote_request() -> Value {
    let products: Vec<&str> = Product::ALL
        .iter()
        .map(|product| product.as_str())
        .collect();
    json!({
        "type": "object",
        "required": ["product", "email"],
        "properties": {
            "product": { "type": "string", "enum": products },
            "email": { "type": "string", "format": "email", "maxLength": MAX_EMAIL_LEN },
            "phone": { "description": "Read only when the page asks for it (quote.fields.phone in the content: optional or required): a US number, ten digits after an optional +1, any common punctuation; kept as E.164. A wrong one gets fields.phone; a page without it ignores whatever is sent." },
            "may_call": { "description": "With a phone number: true when the visitor ticked the box agreeing to be called or texted (the disclosure beside it is kept in the lead's consent record); anything but true is e-mail only." },
            "zip": { "description": "Read only when the page asks for it (quote.fields.zip): a 5-digit ZIP code (ZIP+4 is cut to 5); its state is kept with it. A wrong one gets fields.zip; a page without it ignores whatever is sent." },
            "website": { "description": "Honeypot: hidden from people, so left empty by them. Filled in, the request is answered 201 and stored as spam (not stored at all when the other fields break the quote rules)." },
            "lang": { "description": "The language of the page the request was sent from, which the lead records and every error message is written in: en or es; anything else, or none, counts as en." }
        }
    })
}

/// The browser's own form post (`form::FormRoute`).
pub struct QuoteForm;

impl PartialSchema for QuoteForm {
    fn schema() -> RefOr<Schema> {
        written("QuoteForm")
    }
}

impl ToSchema for QuoteForm {}

/// `QuoteForm`'s schema.
pub fn quote_form() -> Value {
    json!({
        "description": "The landing page's form as the browser posts it itself (before its script has run, or without one). Any values are taken: the same rules, rate limits, honeypot and store as JSON apply, and the result page says what came of them. The same product and e-mail posted again within 10 minutes are the same request (one quote), so a double submit is one lead. A client that sends its own Idempotency-Key names the request with it instead, as with JSON (a malformed one is answered 400).",
        "properties": {
            "product": { "description": "medicare, individual, family, medicaid or employer; anything else gets 'Please select a product' on the result page." },
            "email": { "description": "The e-mail address; one that breaks the quote rules gets 'Please enter a valid email address' on the result page, with what was typed." },
            "phone": { "description": "As in JSON, when the page asks for it." },
            "may_call": { "description": "The consent box: on when ticked (a browser sends nothing for an unticked box)." },
            "zip": { "description": "As in JSON, when the page asks for it." },
            "website": { "description": "Honeypot: hidden from people, so left empty by them. Filled in, the post is answered like a stored one and stored as spam (not stored at all when the other fields break the quote rules)." },
            "lang": { "description": "The language of the form's page (en or es, else en): the lead records it, and the post is answered 303 to /quote-result, or /es/quote-result for es." }
        }
    })
}

/// The post's headers: `Idempotency-Key` as `idempotency::key` takes it.
pub struct Headers;

impl IntoParams for Headers {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let key = ObjectBuilder::new()
            .schema_type(Type::String)
            .min_length(Some(1))
            .max_length(Some(MAX_IDEMPOTENCY_KEY_CHARS))
            .pattern(Some("^[!-~]+$"));
        vec![ParameterBuilder::new()
            .name("Idempotency-Key")
            .parameter_in(ParameterIn::Header)
            .required(Required::False)
            .description(Some("The client's name for this request: 1 to 255 visible ASCII characters. A retry after a network error sends the same key."))
            .schema(Some(key))
            .build()]
    }
}

/// Every answer but `201`.
pub struct Refusals;

impl IntoResponses for Refusals {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let text = || ObjectBuilder::new().schema_type(Type::String);
        let mut answers = errors(&[400, 408, 409, 413, 415, 422]);
        answers.extend(ServerErrors::responses());
        let form = ResponseBuilder::new()
            .description("A form post, whatever came of it (stored, a wrong field, the rate limit, the database unavailable...): see the result page at Location, which says it in words. The outcome travels in the short-lived HttpOnly quote_result cookie (Path=/quote-result, or /es/quote-result for a post with lang=es, whose result page is in Spanish), which the page clears as it reads it; no typed value is ever in a URL.")
            .header("Location", Header::new(schema::words(&[RESULT_PATH, SPANISH_RESULT_PATH])))
            .header("Set-Cookie", Header::new(text().pattern(Some("^quote_result="))));
        let another_site = ResponseBuilder::new()
            .description("The browser says the post came from a page on another site: nothing stored. A form post gets an HTML page that links to the site's own form; a JSON post the cross_site_request error.")
            .content("text/html", ContentBuilder::new().schema(Some(text())).build())
            .content("application/json", ContentBuilder::new().schema(Some(ErrorBody::schema())).build());
        let too_many =
            error("Too many quote requests from this client.").header("Retry-After", retry_after());
        for (status, answer) in [(303, form), (403, another_site), (429, too_many)] {
            answers.insert(status.to_string(), RefOr::T(answer.build()));
        }
        answers
    }
}
