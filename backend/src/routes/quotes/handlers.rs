use std::sync::Arc;

use serde_json::Value;
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};
use wasm_core::{FieldErrors, QuoteRequest};

use std::net::IpAddr;

use crate::http::error::ApiError;
use crate::leads::notice::LeadNotices;
use crate::spam::{FormTokens, Signal};
use crate::store::consent::{ConsentChannel, NewConsent};
use crate::store::{Inserted, Language, NewQuote, Quotes, Source, SpentToken};

/// The form's hidden field: people never see it, so a request that fills it is a bot's. It is
/// answered like a success (so the bot learns nothing): stored as spam when its fields pass the
/// rules, otherwise not stored at all.
pub const HONEYPOT_FIELD: &str = "website";
/// The language of the page the quote was sent from (`en`, the default, or `es`).
pub const LANGUAGE_FIELD: &str = "lang";

/// A post whose body was read as a JSON object: a quote that passed the rules, the honeypot with
/// fields that do not, or fields that do not; with the language of its page.
pub struct Post {
    payload: Payload,
    idempotency_key: Option<String>,
    /// The page's (`lang`); English when missing or unknown. The lead records it, and every
    /// answer to the post is written in it.
    language: Language,
}

impl Post {
    /// Refuses (400) only a body that is not a JSON object.
    pub fn parse(idempotency_key: Option<String>, body: &[u8]) -> Result<Post, ApiError> {
        let (payload, language) = parse_payload(body)?;
        Ok(Post {
            payload,
            idempotency_key,
            language,
        })
    }

    /// Whether this post spends a quote token: only a quote that passed validation does.
    pub fn is_quote(&self) -> bool {
        matches!(self.payload, Payload::Quote { .. })
    }

    pub fn language(&self) -> Language {
        self.language
    }
}

/// Who sent a JSON post, as its request says.
pub struct Sender {
    pub client: Option<IpAddr>,
    /// The page's form token (`spam::COOKIE`).
    pub token: Option<String>,
    pub user_agent: Option<HeaderValue>,
    pub https: bool,
}

/// Stores the post's quote (the rate limit is already spent) with its consent record, as spam
/// when `tokens` say so, and answers 201 with its id either way, with a fresh form token for the
/// page's next quote; wrong fields are refused (422). Refusals are in the post's language.
pub async fn create(
    store: Arc<dyn Quotes>,
    tokens: &FormTokens,
    notices: &LeadNotices,
    post: Post,
    sender: Sender,
) -> Result<Response, Rejection> {
    let language = post.language;
    let (request, honeypot) = match post.payload {
        Payload::Quote { request, honeypot } => (request, honeypot),
        Payload::Bot => {
            tracing::info!("honeypot filled; answered 201 and not stored");
            return Ok(created(&uuid::Uuid::now_v7().to_string()));
        }
        Payload::Invalid(errors) => {
            return Err(ApiError::Validation(errors).in_language(language));
        }
    };
    let now = time::OffsetDateTime::now_utc();
    let checked = tokens.check_post(&honeypot, sender.token.as_deref(), now);
    let user_agent = sender.user_agent.as_ref().and_then(|v| v.to_str().ok());
    let consent = notices.consent(language, ConsentChannel::Form, sender.client, user_agent);
    let id = insert(
        &*store,
        request,
        post.idempotency_key,
        consent,
        checked,
        language,
    )
    .await
    .map_err(|error| error.in_language(language))?;
    let mut response = created(&id);
    tokens.set_cookie(&mut response, sender.https);
    Ok(response)
}

/// Stores a quote from the web page in `language` under its idempotency key with its consent
/// record, spending its form token or as spam for the signal `checked` found, and gives its id:
/// the new one, or the first one stored under the same key and request.
pub async fn insert(
    store: &dyn Quotes,
    request: QuoteRequest,
    idempotency_key: Option<String>,
    consent: NewConsent,
    checked: Result<SpentToken, Signal>,
    language: Language,
) -> Result<String, ApiError> {
    if let Err(signal) = checked {
        tracing::info!(signal = signal.as_str(), "quote post held as spam");
    }
    let quote = NewQuote::new(request, Source::Web, consent.user_agent.as_deref())
        .with_idempotency_key(idempotency_key)
        .in_language(language)
        .with_consent(consent);
    let quote = match checked {
        Ok(token) => quote.spending(Some(token)),
        Err(signal) => quote.with_spam(Some(signal.as_str())),
    };
    let id = quote.id.to_string();
    let inserted = store.insert(quote).await.map_err(|error| {
        tracing::error!(%error, "storing a quote request failed");
        ApiError::from(error)
    })?;
    match inserted {
        Inserted::New => Ok(id),
        Inserted::Replayed { id } => Ok(id),
        Inserted::Conflict => Err(ApiError::IdempotencyConflict),
    }
}

fn created(id: &str) -> Response {
    warp::reply::with_status(
        warp::reply::json(&serde_json::json!({ "id": id })),
        StatusCode::CREATED,
    )
    .into_response()
}

#[derive(Debug)]
enum Payload {
    /// A quote that passed the rules, with the honeypot's value.
    Quote {
        request: QuoteRequest,
        honeypot: String,
    },
    /// The honeypot filled, and fields that do not pass the rules.
    Bot,
    /// Fields that do not pass the rules, each with its message.
    Invalid(FieldErrors),
}

/// A JSON object with `product` and `email`, and the page's `lang`; other fields are ignored. A
/// missing, null or non-string field counts as empty, so it gets the field's own message rather
/// than a 400.
fn parse_payload(bytes: &[u8]) -> Result<(Payload, Language), ApiError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(ApiError::MalformedJson("expected a JSON object".into()));
    };
    let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or("");
    let honeypot = text(HONEYPOT_FIELD);
    let language = Language::parse(text(LANGUAGE_FIELD)).unwrap_or_default();
    let payload = match QuoteRequest::parse(text("product"), text("email")) {
        Ok(request) => Payload::Quote {
            request,
            honeypot: honeypot.to_owned(),
        },
        Err(_) if !honeypot.trim().is_empty() => Payload::Bot,
        Err(errors) => Payload::Invalid(errors),
    };
    Ok((payload, language))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn payload_rules() {
        assert!(matches!(
            parse_payload(br#"{"product":"family","email":"a@b.co","extra":1,"website":" "}"#),
            Ok((Payload::Quote { .. }, Language::En))
        ));
        for (body, language) in [
            (
                &br#"{"product":"family","email":"a@b.co","lang":"es"}"#[..],
                Language::Es,
            ),
            (
                br#"{"product":"family","email":"a@b.co","lang":"xx"}"#,
                Language::En,
            ),
            (br#"{"product":"family","email":"a@b.co"}"#, Language::En),
            // Wrong fields are answered in the page's language too.
            (br#"{"product":"dental","lang":"es"}"#, Language::Es),
        ] {
            let (_, got) = parse_payload(body).unwrap();
            assert_eq!(got, language);
        }
        match parse_payload(br#"{"product":"family","email":"a@b.co","website":"x"}"#) {
            Ok((Payload::Quote { honeypot, .. }, _)) => assert_eq!(honeypot, "x"),
            other => panic!("a valid quote with the honeypot is kept as spam, got {other:?}"),
        }
        assert!(matches!(
            parse_payload(br#"{"product":"","website":"http://spam"}"#),
            Ok((Payload::Bot, _))
        ));
        assert!(matches!(
            parse_payload(b"[1]"),
            Err(ApiError::MalformedJson(_))
        ));
        assert!(matches!(
            parse_payload(b"{"),
            Err(ApiError::MalformedJson(_))
        ));
        match parse_payload(br#"{"product":7,"email":null}"#) {
            Ok((Payload::Invalid(f), _)) => assert!(f.product.is_some() && f.email.is_some()),
            other => panic!("expected validation errors, got {other:?}"),
        }
    }
}
