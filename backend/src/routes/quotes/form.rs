//! The quote form posted by the browser itself (`application/x-www-form-urlencoded`): before its
//! script has arrived, when it never does, or with JavaScript off. The same rules, rate limits,
//! spam signals and store as a JSON post; every outcome is answered `303` to the result page,
//! which says it in words (POST, redirect, GET: a reload does not post again). A post the
//! browser says came from a page on another site is refused (403) and nothing is stored: a form
//! needs no preflight, so any site could otherwise make its visitors post leads.

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use warp::http::{header, HeaderMap, HeaderValue, StatusCode};
use warp::reply::Response;
use warp::Rejection;
use wasm_core::{ContactInput, QuoteRequest};

use super::double_submit::RecentForms;
use super::handlers::{Desk, Lead, HONEYPOT_FIELD, LANGUAGE_FIELD};
use super::idempotency;
use super::limits::{Bucket, PostLimits};
use super::page_language;
use crate::http::body;
use crate::http::error::ApiError;
use crate::http::page_reply::html;
use crate::http::same_site::from_another_site;
use crate::routes::quote_result::{self, Failure, Outcome, Typed};
use crate::store::consent::ConsentChannel;
use crate::store::Language;

/// The answer to a form post from another site's page: a person sent here by it is shown the
/// way to the form itself, in the language of the form that was posted (a copy of the Spanish
/// form carries `lang=es`).
fn another_site_page(language: Language) -> String {
    let (title, text, link) = match language {
        Language::En => (
            "Please use our quote form",
            "This request was sent from another website, so it was not taken and nothing was kept.",
            "Go to the quote form",
        ),
        Language::Es => (
            "Use nuestro formulario de cotización",
            "Esta solicitud se envió desde otro sitio web, así que no se aceptó y no se guardó nada.",
            "Ir al formulario de cotización",
        ),
    };
    let (lang, form) = (language.as_str(), quote_result::form_path(language));
    format!(
        "<!doctype html><html lang=\"{lang}\"><head><meta charset=\"utf-8\">\
<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
<link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\
<title>{title}</title></head><body><main><h1>{title}</h1><p>{text}</p>\
<p><a href=\"{form}\">{link}</a></p></main></body></html>"
    )
}

/// What the browser sent besides the body.
pub struct FormRequest {
    pub client: Option<IpAddr>,
    pub headers: HeaderMap,
    pub https: bool,
    /// The page's form token (`spam::COOKIE`).
    pub token: Option<String>,
}

/// The form's fields; any other is ignored, a missing one is empty (and gets its message).
#[derive(Debug, Default, PartialEq, Eq)]
struct Fields {
    product: String,
    email: String,
    honeypot: String,
    /// `lang`: the language of the page the form is on.
    language: String,
    /// The fields the broker added, when the page has them; `may_call` is the consent box,
    /// sent (`on`) only when ticked.
    phone: String,
    zip: String,
    may_call: String,
}

impl Fields {
    /// The first value of each field (the page is UTF-8, so a browser sends no other bytes).
    fn parse(body: &[u8]) -> Fields {
        let names = [
            "product",
            "email",
            HONEYPOT_FIELD,
            LANGUAGE_FIELD,
            "phone",
            "zip",
            "may_call",
        ];
        let [product, email, honeypot, language, phone, zip, may_call] =
            body::first_values(body, names);
        Fields {
            product,
            email,
            honeypot,
            language,
            phone,
            zip,
            may_call,
        }
    }

    /// The page's language; English when missing or unknown.
    fn language(&self) -> Language {
        Language::parse(&self.language).unwrap_or_default()
    }
}

pub struct FormRoute {
    desk: Arc<Desk>,
    limits: Arc<PostLimits>,
    recent: RecentForms,
}

impl FormRoute {
    pub fn new(desk: Arc<Desk>, limits: Arc<PostLimits>) -> FormRoute {
        FormRoute {
            desk,
            limits,
            recent: RecentForms::default(),
        }
    }

    /// The route's handler: `submit` on the route's state.
    pub async fn answer(
        request: FormRequest,
        body: Result<Bytes, Rejection>,
        route: Arc<FormRoute>,
    ) -> Response {
        route.submit(request, body).await
    }

    /// Answers the post in the language of its page: only a quote that passes the rules spends
    /// a quote token; a body that could not be read, the honeypot or a wrong field is held to the
    /// looser limit on invalid posts, as with JSON. A browser sends no `Idempotency-Key`; a
    /// client that does names its request with it, as in JSON, and a malformed one is refused
    /// (400) like there.
    pub async fn submit(&self, request: FormRequest, body: Result<Bytes, Rejection>) -> Response {
        let FormRequest {
            client,
            headers,
            https,
            token,
        } = request;
        let fields = body.map(|body| Fields::parse(&body));
        if from_another_site(&headers, https) {
            let language = fields.as_ref().map_or(Language::En, Fields::language);
            return html(StatusCode::FORBIDDEN, another_site_page(language));
        }
        let language = match &fields {
            Ok(fields) => fields.language(),
            Err(_) => page_language::from_referer(headers.get(header::REFERER)),
        };
        let key = headers.get(idempotency::IDEMPOTENCY_KEY_HEADER);
        let user_agent = headers.get(header::USER_AGENT);
        let key = match idempotency::parse(key) {
            Ok(key) => key,
            Err(malformed) => {
                return match self.limits.check(Bucket::Invalid, client) {
                    Err(limited) => limited.response_in(language),
                    Ok(()) => malformed.response_in(language),
                };
            }
        };
        let outcome = self.outcome(client, key, fields, user_agent, token).await;
        quote_result::redirect(&outcome, language, https)
    }

    async fn outcome(
        &self,
        client: Option<IpAddr>,
        key: Option<String>,
        fields: Result<Fields, Rejection>,
        user_agent: Option<&HeaderValue>,
        token: Option<String>,
    ) -> Outcome {
        let fields = match fields {
            Ok(fields) => fields,
            Err(rejection) => {
                let failure = match self.limits.check(Bucket::Invalid, client) {
                    Err(limited) => Failure::from_error(&limited),
                    Ok(()) => rejection
                        .find::<ApiError>()
                        .map_or(Failure::Storage, Failure::from_error),
                };
                return Outcome::Failed(failure, Typed::default());
            }
        };
        let typed =
            Typed::new(&fields.product, &fields.email).with_contact(&fields.phone, &fields.zip);
        let honeypot = !fields.honeypot.trim().is_empty();
        let contact = ContactInput {
            phone: &fields.phone,
            zip: &fields.zip,
            may_call: !fields.may_call.is_empty(),
        };
        let rules = self.desk.notices.rules(fields.language());
        let parsed = QuoteRequest::parse_with(&fields.product, &fields.email, contact, rules);
        let (request, contact) = match parsed {
            Ok(parsed) => parsed,
            Err(errors) => {
                let typed = typed.refused(errors);
                return match self.limits.check(Bucket::Invalid, client) {
                    Err(limited) if honeypot => {
                        Outcome::Failed(Failure::from_error(&limited), Typed::default())
                    }
                    Err(limited) => Outcome::Failed(Failure::from_error(&limited), typed),
                    Ok(()) if honeypot => {
                        tracing::info!(
                            "honeypot filled in a form post; answered as submitted, not stored"
                        );
                        Outcome::Submitted {
                            booking: self.desk.booking_token(&uuid::Uuid::now_v7().to_string()),
                        }
                    }
                    Ok(()) => Outcome::Invalid(typed),
                };
            }
        };
        if let Err(limited) = self.limits.check(Bucket::Quotes, client) {
            return Outcome::Failed(Failure::from_error(&limited), typed);
        }
        let now = time::OffsetDateTime::now_utc();
        let checked = self
            .desk
            .tokens
            .check_post(&fields.honeypot, token.as_deref(), now);
        let key = key.unwrap_or_else(|| self.recent.key_for(&request, checked.is_err()));
        let user_agent = user_agent.and_then(|v| v.to_str().ok());
        let consent = self.desk.notices.consent(
            fields.language(),
            ConsentChannel::FormWithoutScript,
            client,
            user_agent,
        );
        let lead = Lead { request, contact };
        match self
            .desk
            .insert(lead, Some(key), consent, checked, fields.language())
            .await
        {
            Ok(id) => Outcome::Submitted {
                booking: self.desk.booking_token(&id),
            },
            Err(error) => Outcome::Failed(Failure::from_error(&error), typed),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_are_read_from_the_form_encoding() {
        assert_eq!(
            Fields::parse(b"product=family&email=ana%40example.com+&website=&extra=1"),
            Fields {
                product: "family".into(),
                email: "ana@example.com ".into(),
                ..Fields::default()
            }
        );
        assert_eq!(
            Fields::parse(b"email=first%40x.co&email=second%40x.co&website=spam&product"),
            Fields {
                email: "first@x.co".into(),
                honeypot: "spam".into(),
                ..Fields::default()
            }
        );
        let contact = Fields::parse(b"phone=%28555%29+555-0123&zip=78701&may_call=on");
        assert_eq!(
            (
                contact.phone.as_str(),
                contact.zip.as_str(),
                contact.may_call.as_str()
            ),
            ("(555) 555-0123", "78701", "on")
        );
        assert_eq!(Fields::parse(b"email=%FF%40x").email, "\u{FFFD}@x");
        assert_eq!(Fields::parse(b""), Fields::default());
        assert_eq!(Fields::parse(b"lang=es").language(), Language::Es);
        assert_eq!(Fields::parse(b"lang=fr").language(), Language::En);
    }
}
