use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};
use wasm_core::{ContactDetails, ContactInput, ContactRules, FieldErrors, QuoteRequest};

use std::net::IpAddr;

use crate::http::error::{store_failed, ApiError};
use crate::leads::booking_ref::{self, BookingRefs};
use crate::leads::notice::LeadNotices;
use crate::routes::form_token_cookie;
use crate::spam::{FormTokens, Signal};
use crate::store::consent::{ConsentChannel, NewConsent};
use crate::store::{Contact, Inserted, Language, NewQuote, Quotes, Source, SpentToken};

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
    /// Refuses (400) only a body that is not a JSON object. The fields the page in the post's
    /// language adds (`notices`) are checked by their rules; others are ignored.
    pub fn parse(
        idempotency_key: Option<String>,
        body: &[u8],
        notices: &LeadNotices,
    ) -> Result<Post, ApiError> {
        let (payload, language) = parse_payload(body, |language| notices.rules(language))?;
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

/// Who sent a JSON post, as its request says (its address is the rate limit's).
pub struct Sender {
    /// The page's form token (`spam::COOKIE`).
    pub token: Option<String>,
    pub user_agent: Option<HeaderValue>,
    pub https: bool,
}

/// What the quote handlers share: the store, the form tokens and the texts the leads keep.
pub struct Desk {
    pub store: Arc<dyn Quotes>,
    pub tokens: Arc<FormTokens>,
    /// The notice beside the form, each lead's consent record keeps.
    pub notices: Arc<LeadNotices>,
    /// With booking on, a stored quote is answered with the booking page's link and a reference
    /// to its lead (`leads::booking_ref`).
    pub booking: Option<Arc<BookingRefs>>,
}

/// Stores the post's quote (the rate limit is already spent) with its consent record, as spam
/// when the form tokens say so, and answers 201 with its id either way (and with booking on, the
/// booking page's link with a reference to it), with a fresh form token for the page's next quote; wrong fields are refused (422). Refusals are in the post's language.
pub async fn create(
    post: Post,
    client: Option<IpAddr>,
    sender: Sender,
    desk: Arc<Desk>,
) -> Result<Response, Rejection> {
    let language = post.language;
    let (request, contact, honeypot) = match post.payload {
        Payload::Quote {
            request,
            contact,
            honeypot,
        } => (request, contact, honeypot),
        Payload::Bot => {
            tracing::info!("honeypot filled; answered 201 and not stored");
            let id = uuid::Uuid::now_v7().to_string();
            return Ok(created(&id, desk.booking_path(&id, language)));
        }
        Payload::Invalid(errors) => {
            return Err(ApiError::Validation(errors).in_language(language));
        }
    };
    let now = time::OffsetDateTime::now_utc();
    let checked = desk
        .tokens
        .check_post(&honeypot, sender.token.as_deref(), now);
    let user_agent = sender.user_agent.as_ref().and_then(|v| v.to_str().ok());
    let consent = desk
        .notices
        .consent(language, ConsentChannel::Form, client, user_agent);
    let lead = Lead { request, contact };
    let id = desk
        .insert(lead, post.idempotency_key, consent, checked, language)
        .await
        .map_err(|error| error.in_language(language))?;
    let mut response = created(&id, desk.booking_path(&id, language));
    form_token_cookie::give(&desk.tokens, &mut response, sender.https);
    Ok(response)
}

/// A quote from the web page that passed the rules, with the fields the broker added.
pub struct Lead {
    pub request: QuoteRequest,
    pub contact: ContactDetails,
}

impl Desk {
    /// A reference to lead `id` on the booking page, when booking is on.
    pub fn booking_token(&self, id: &str) -> Option<String> {
        let now = time::OffsetDateTime::now_utc();
        self.booking.as_ref().map(|refs| refs.issue(id, now).0)
    }

    /// The booking page in `language` with a reference to lead `id`, when booking is on.
    fn booking_path(&self, id: &str, language: Language) -> Option<String> {
        booking_ref::path(&self.booking_token(id)?, language)
    }

    /// Stores a quote from the web page in `language` under its idempotency key with its
    /// consent record (with a phone number, the disclosure beside it and whether its box was
    /// ticked), spending its form token or as spam for the signal `checked` found, and gives its
    /// id: the new one, or the first one stored under the same key and request.
    pub async fn insert(
        &self,
        lead: Lead,
        idempotency_key: Option<String>,
        mut consent: NewConsent,
        checked: Result<SpentToken, Signal>,
        language: Language,
    ) -> Result<String, ApiError> {
        if let Err(signal) = checked {
            tracing::info!(signal = signal.as_str(), "quote post held as spam");
        }
        let Lead { request, contact } = lead;
        if contact.phone.is_some() {
            consent.phone = self.notices.phone_consent(language, contact.may_call);
        }
        let quote = NewQuote::new(request, Source::Web, consent.user_agent.as_deref())
            .with_idempotency_key(idempotency_key)
            .in_language(language)
            .with_consent(consent)
            .with_contact(Contact::from(&contact));
        let quote = match checked {
            Ok(token) => quote.spending(Some(token)),
            Err(signal) => quote.with_spam(Some(signal.as_str())),
        };
        let id = quote.id.to_string();
        let inserted = self
            .store
            .insert(quote)
            .await
            .map_err(store_failed("storing a quote request failed"))?;
        match inserted {
            Inserted::New => Ok(id),
            Inserted::Replayed { id } => Ok(id),
            Inserted::Conflict => Err(ApiError::IdempotencyConflict),
        }
    }
}

/// The answer to a stored quote.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Created<'a> {
    #[schema(format = Uuid)]
    id: &'a str,
    /// With booking on: the booking page in the post's language with a signed reference to the
    /// lead (/book?lead=..., /es/book?lead=...), good for a day; followed, the form is
    /// pre-filled and the booking joins this lead.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    booking_path: Option<String>,
}

fn created(id: &str, booking_path: Option<String>) -> Response {
    let body = Created { id, booking_path };
    warp::reply::with_status(warp::reply::json(&body), StatusCode::CREATED).into_response()
}

#[derive(Debug)]
enum Payload {
    /// A quote that passed the rules, with the honeypot's value.
    Quote {
        request: QuoteRequest,
        contact: ContactDetails,
        honeypot: String,
    },
    /// The honeypot filled, and fields that do not pass the rules.
    Bot,
    /// Fields that do not pass the rules, each with its message.
    Invalid(FieldErrors),
}

/// A JSON object with `product` and `email`, the page's `lang`, and the fields its page adds
/// (`rules`): `phone`, `zip`, and `may_call` (`true` when the consent box was ticked); other
/// fields are ignored. A missing, null or non-string field counts as empty, so it gets the
/// field's own message rather than a 400.
fn parse_payload(
    bytes: &[u8],
    rules: impl Fn(Language) -> ContactRules,
) -> Result<(Payload, Language), ApiError> {
    let value: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let Value::Object(fields) = value else {
        return Err(ApiError::MalformedJson("expected a JSON object".into()));
    };
    let text = |name: &str| fields.get(name).and_then(Value::as_str).unwrap_or("");
    let honeypot = text(HONEYPOT_FIELD);
    let language = Language::parse(text(LANGUAGE_FIELD)).unwrap_or_default();
    let contact = ContactInput {
        phone: text("phone"),
        zip: text("zip"),
        may_call: fields.get("may_call") == Some(&Value::Bool(true)),
    };
    let parsed = QuoteRequest::parse_with(text("product"), text("email"), contact, rules(language));
    let payload = match parsed {
        Ok((request, contact)) => Payload::Quote {
            request,
            contact,
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
    use wasm_core::FieldRule;

    fn no_fields(_: Language) -> ContactRules {
        ContactRules::default()
    }

    #[test]
    fn the_added_fields_are_read_by_their_pages_rules() {
        let optional = |_: Language| ContactRules {
            phone: FieldRule::Optional,
            zip: FieldRule::Optional,
        };
        let body = br#"{"product":"family","email":"a@b.co","phone":"(555) 555-0123","zip":"78701","may_call":true}"#;
        match parse_payload(body, optional) {
            Ok((Payload::Quote { contact, .. }, _)) => {
                let stored = Contact::from(&contact);
                assert_eq!(stored.phone.as_deref(), Some("+15555550123"));
                assert!(stored.may_call);
                assert_eq!(stored.state.as_deref(), Some("TX"));
            }
            other => panic!("{other:?}"),
        }
        match parse_payload(
            br#"{"product":"family","email":"a@b.co","phone":"555-155-0123","lang":"es"}"#,
            optional,
        ) {
            Ok((Payload::Invalid(errors), Language::Es)) => {
                assert!(errors.phone.is_some() && errors.zip.is_none())
            }
            other => panic!("{other:?}"),
        }
        // A page without the fields ignores them, whatever they hold.
        assert!(matches!(
            parse_payload(
                br#"{"product":"family","email":"a@b.co","phone":"x"}"#,
                no_fields
            ),
            Ok((Payload::Quote { .. }, _))
        ));
        // `may_call` counts only as `true`, and only with a number.
        match parse_payload(
            br#"{"product":"family","email":"a@b.co","phone":"5555550123","may_call":"yes"}"#,
            optional,
        ) {
            Ok((Payload::Quote { contact, .. }, _)) => assert!(!contact.may_call),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn payload_rules() {
        assert!(matches!(
            parse_payload(
                br#"{"product":"family","email":"a@b.co","extra":1,"website":" "}"#,
                no_fields
            ),
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
            let (_, got) = parse_payload(body, no_fields).unwrap();
            assert_eq!(got, language);
        }
        match parse_payload(
            br#"{"product":"family","email":"a@b.co","website":"x"}"#,
            no_fields,
        ) {
            Ok((Payload::Quote { honeypot, .. }, _)) => assert_eq!(honeypot, "x"),
            other => panic!("a valid quote with the honeypot is kept as spam, got {other:?}"),
        }
        assert!(matches!(
            parse_payload(br#"{"product":"","website":"http://spam"}"#, no_fields),
            Ok((Payload::Bot, _))
        ));
        assert!(matches!(
            parse_payload(b"[1]", no_fields),
            Err(ApiError::MalformedJson(_))
        ));
        assert!(matches!(
            parse_payload(b"{", no_fields),
            Err(ApiError::MalformedJson(_))
        ));
        match parse_payload(br#"{"product":7,"email":null}"#, no_fields) {
            Ok((Payload::Invalid(f), _)) => assert!(f.product.is_some() && f.email.is_some()),
            other => panic!("expected validation errors, got {other:?}"),
        }
    }
}
