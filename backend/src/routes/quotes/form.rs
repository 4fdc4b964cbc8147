//! The quote form posted by the browser itself (`application/x-www-form-urlencoded`): before its
//! script has arrived, when it never does, or with JavaScript off. The same rules, rate limits,
//! honeypot and store as a JSON post; every outcome is answered `303` to the result page, which
//! says it in words (POST, redirect, GET: a reload does not post again).

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::{Rejection, Reply};
use wasm_core::QuoteRequest;

use super::double_submit::RecentForms;
use super::handlers::{self, HONEYPOT_FIELD};
use super::idempotency;
use super::limits::{Bucket, PostLimits};
use crate::http::error::ApiError;
use crate::routes::quote_result::{self, Failure, Outcome, Typed};
use crate::store::QuoteStore;

/// The form's fields; any other is ignored, a missing one is empty (and gets its message).
#[derive(Debug, Default, PartialEq, Eq)]
struct Fields {
    product: String,
    email: String,
    honeypot: String,
}

impl Fields {
    /// The first value of each field; bytes that are not UTF-8 become U+FFFD (the page is UTF-8,
    /// so a browser does not send them).
    fn parse(body: &[u8]) -> Fields {
        let mut fields = Fields::default();
        let mut seen = [false; 3];
        for (name, value) in form_urlencoded::parse(body) {
            let (slot, field) = match &*name {
                "product" => (0, &mut fields.product),
                "email" => (1, &mut fields.email),
                HONEYPOT_FIELD => (2, &mut fields.honeypot),
                _ => continue,
            };
            if !seen[slot] {
                seen[slot] = true;
                *field = value.into_owned();
            }
        }
        fields
    }
}

pub struct FormRoute {
    pub store: Arc<dyn QuoteStore>,
    pub limits: Arc<PostLimits>,
    pub recent: RecentForms,
}

impl FormRoute {
    /// Answers the post: only a quote that passes the rules spends a quote token; a body that
    /// could not be read, the honeypot or a wrong field is held to the looser limit on invalid
    /// posts, as with JSON. A browser sends no `Idempotency-Key`; a client that does names its
    /// request with it, as in JSON, and a malformed one is refused (400) like there.
    pub async fn submit(
        &self,
        client: Option<IpAddr>,
        key: Option<HeaderValue>,
        body: Result<Bytes, Rejection>,
        user_agent: Option<HeaderValue>,
        https: bool,
    ) -> Response {
        let key = match idempotency::parse(key.as_ref()) {
            Ok(key) => key,
            Err(malformed) => {
                return match self.limits.check(Bucket::Invalid, client) {
                    Err(limited) => limited.into_response(),
                    Ok(()) => malformed.into_response(),
                };
            }
        };
        quote_result::redirect(&self.outcome(client, key, body, user_agent).await, https)
    }

    async fn outcome(
        &self,
        client: Option<IpAddr>,
        key: Option<String>,
        body: Result<Bytes, Rejection>,
        user_agent: Option<HeaderValue>,
    ) -> Outcome {
        let body = match body {
            Ok(body) => body,
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
        let fields = Fields::parse(&body);
        let typed = Typed::new(&fields.product, &fields.email);
        if !fields.honeypot.trim().is_empty() {
            if let Err(limited) = self.limits.check(Bucket::Invalid, client) {
                return Outcome::Failed(Failure::from_error(&limited), Typed::default());
            }
            tracing::info!("honeypot filled in a form post; answered as submitted, not stored");
            return Outcome::Submitted;
        }
        let request = match QuoteRequest::parse(&fields.product, &fields.email) {
            Ok(request) => request,
            Err(_) => {
                return match self.limits.check(Bucket::Invalid, client) {
                    Err(limited) => Outcome::Failed(Failure::from_error(&limited), typed),
                    Ok(()) => Outcome::Invalid(typed),
                };
            }
        };
        if let Err(limited) = self.limits.check(Bucket::Quotes, client) {
            return Outcome::Failed(Failure::from_error(&limited), typed);
        }
        let key = key.unwrap_or_else(|| self.recent.key_for(&request));
        match handlers::insert(&*self.store, request, Some(key), user_agent.as_ref()).await {
            Ok(_) => Outcome::Submitted,
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
                honeypot: String::new(),
            }
        );
        assert_eq!(
            Fields::parse(b"email=first%40x.co&email=second%40x.co&website=spam&product"),
            Fields {
                product: String::new(),
                email: "first@x.co".into(),
                honeypot: "spam".into(),
            }
        );
        assert_eq!(Fields::parse(b"email=%FF%40x").email, "\u{FFFD}@x");
        assert_eq!(Fields::parse(b""), Fields::default());
    }
}
