//! What came of a quote form post, carried from the post's `303` to the result page in a
//! short-lived cookie: the values typed travel in a header the browser sends back once, never in
//! a URL, a `Location` or a log line.

use wasm_core::quote::{EMAIL_MESSAGE, PHONE_MESSAGE, PRODUCT_MESSAGE, ZIP_MESSAGE};
use wasm_core::{FieldErrors, QuoteRequest};

use crate::http::error::ApiError;
use crate::store::Language;

/// Typed values kept for the result page are cut to this many bytes (at a character boundary), so
/// the cookie stays well under the 4 KiB a browser keeps. An e-mail address is at most 254 bytes;
/// anything longer is invalid and shown cut.
const MAX_KEPT_BYTES: usize = 1024;

/// The field values a visitor typed, as the result page shows them again, and for an invalid
/// post the fields the rules refused (`None`: product and e-mail, as the rules find them again).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Typed {
    pub product: String,
    pub email: String,
    pub phone: String,
    pub zip: String,
    pub wrong: Option<FieldErrors>,
}

impl Typed {
    pub fn new(product: &str, email: &str) -> Typed {
        Typed {
            product: cut(product).to_owned(),
            email: cut(email).to_owned(),
            ..Typed::default()
        }
    }

    /// With the fields the broker added, as typed.
    pub fn with_contact(self, phone: &str, zip: &str) -> Typed {
        Typed {
            phone: cut(phone).to_owned(),
            zip: cut(zip).to_owned(),
            ..self
        }
    }

    pub fn refused(self, wrong: FieldErrors) -> Typed {
        Typed {
            wrong: Some(wrong),
            ..self
        }
    }

    /// The fields' problems: as the post found them, or (a cookie from before the added fields)
    /// as the rules find product and e-mail again.
    pub fn errors(&self) -> Option<FieldErrors> {
        match &self.wrong {
            Some(wrong) => Some(wrong.clone()),
            None => QuoteRequest::parse(&self.product, &self.email).err(),
        }
    }
}

/// The wrong fields' names, as the cookie carries them.
fn wrong_names(errors: &FieldErrors) -> String {
    [
        ("product", errors.product),
        ("email", errors.email),
        ("phone", errors.phone),
        ("zip", errors.zip),
    ]
    .into_iter()
    .filter_map(|(name, message)| message.map(|_| name))
    .collect::<Vec<_>>()
    .join(",")
}

fn wrong_fields(names: &str) -> FieldErrors {
    let mut errors = FieldErrors::default();
    for name in names.split(',') {
        match name {
            "product" => errors.product = Some(PRODUCT_MESSAGE),
            "email" => errors.email = Some(EMAIL_MESSAGE),
            "phone" => errors.phone = Some(PHONE_MESSAGE),
            "zip" => errors.zip = Some(ZIP_MESSAGE),
            _ => {}
        }
    }
    errors
}

fn cut(text: &str) -> &str {
    if text.len() <= MAX_KEPT_BYTES {
        return text;
    }
    let end = (0..=MAX_KEPT_BYTES)
        .rev()
        .find(|&i| text.is_char_boundary(i))
        .unwrap_or(0);
    &text[..end]
}

/// Why a valid post was not stored: what the JSON API answers with a status (429, 503, 500...).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    RateLimited {
        retry_after_secs: u64,
    },
    Unavailable,
    Storage,
    TooLarge {
        limit: usize,
    },
    Timeout,
    /// A client's own `Idempotency-Key` used before for another request (a browser sends none).
    Conflict,
}

impl Failure {
    /// The failure a refused valid post meets (anything unforeseen reads as a storage failure).
    pub fn from_error(error: &ApiError) -> Failure {
        match *error {
            ApiError::RateLimited { retry_after_secs } => Failure::RateLimited { retry_after_secs },
            ApiError::Unavailable => Failure::Unavailable,
            ApiError::PayloadTooLarge { limit } => Failure::TooLarge { limit },
            ApiError::RequestTimeout => Failure::Timeout,
            ApiError::IdempotencyConflict => Failure::Conflict,
            _ => Failure::Storage,
        }
    }

    fn error(self) -> ApiError {
        match self {
            Failure::RateLimited { retry_after_secs } => ApiError::RateLimited { retry_after_secs },
            Failure::Unavailable => ApiError::Unavailable,
            Failure::Storage => ApiError::Storage,
            Failure::TooLarge { limit } => ApiError::PayloadTooLarge { limit },
            Failure::Timeout => ApiError::RequestTimeout,
            Failure::Conflict => ApiError::IdempotencyConflict,
        }
    }

    /// The reason as the form's failure toast gives it (docs/product.md §8): `<status>: <message>`,
    /// the server's message in the language of the form's page (`ApiError::message`).
    pub fn reason(self, language: Language) -> String {
        let error = self.error();
        format!("{}: {}", error.status().as_u16(), error.message(language))
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Stored (or stored before, or the honeypot): the product's success words, and with booking
    /// on the booking page's link with `booking`, the reference to the lead
    /// (`leads::booking_ref`; `None` the plain page).
    Submitted { booking: Option<String> },
    /// The quote rules refused a field: the result page says which, with what was typed.
    Invalid(Typed),
    /// A valid post that could not be stored now.
    Failed(Failure, Typed),
}

impl Outcome {
    /// The cookie value: form-encoded pairs, whose characters all fit a cookie unquoted.
    pub fn encode(&self) -> String {
        let mut pairs = form_urlencoded::Serializer::new(String::new());
        let typed = match self {
            Outcome::Submitted { booking } => {
                pairs.append_pair("o", "submitted");
                if let Some(token) = booking {
                    pairs.append_pair("b", token);
                }
                None
            }
            Outcome::Invalid(typed) => {
                pairs.append_pair("o", "invalid");
                Some(typed)
            }
            Outcome::Failed(failure, typed) => {
                pairs.append_pair("o", "failed");
                let (code, number) = match *failure {
                    Failure::RateLimited { retry_after_secs } => ("rate_limited", retry_after_secs),
                    Failure::Unavailable => ("unavailable", 0),
                    Failure::Storage => ("storage", 0),
                    Failure::TooLarge { limit } => ("too_large", limit as u64),
                    Failure::Timeout => ("timeout", 0),
                    Failure::Conflict => ("conflict", 0),
                };
                pairs.append_pair("f", code);
                pairs.append_pair("n", &number.to_string());
                Some(typed)
            }
        };
        if let Some(typed) = typed {
            pairs.append_pair("p", &typed.product);
            pairs.append_pair("e", &typed.email);
            for (key, value) in [("t", &typed.phone), ("z", &typed.zip)] {
                if !value.is_empty() {
                    pairs.append_pair(key, value);
                }
            }
            if let Some(wrong) = &typed.wrong {
                pairs.append_pair("w", &wrong_names(wrong));
            }
        }
        pairs.finish()
    }

    /// `None` for anything `encode` did not write (an old or altered cookie): the visitor is then
    /// sent back to the form rather than shown a made-up outcome.
    pub fn decode(value: &str) -> Option<Outcome> {
        let mut outcome = None;
        let (mut failure, mut number, mut typed) = (None, None, Typed::default());
        let mut booking = None;
        for (key, value) in form_urlencoded::parse(value.as_bytes()) {
            match &*key {
                "o" => outcome = Some(value.into_owned()),
                "f" => failure = Some(value.into_owned()),
                "n" => number = value.parse::<u64>().ok(),
                "p" => typed.product = cut(&value).to_owned(),
                "e" => typed.email = cut(&value).to_owned(),
                "t" => typed.phone = cut(&value).to_owned(),
                "z" => typed.zip = cut(&value).to_owned(),
                "w" => typed.wrong = Some(wrong_fields(&value)),
                "b" => booking = Some(value.into_owned()),
                _ => return None,
            }
        }
        match outcome.as_deref()? {
            "submitted" => Some(Outcome::Submitted { booking }),
            "invalid" => Some(Outcome::Invalid(typed)),
            "failed" => {
                let number = number?;
                let failure = match failure.as_deref()? {
                    "rate_limited" => Failure::RateLimited {
                        retry_after_secs: number.max(1),
                    },
                    "unavailable" => Failure::Unavailable,
                    "storage" => Failure::Storage,
                    "too_large" => Failure::TooLarge {
                        limit: usize::try_from(number).ok()?,
                    },
                    "timeout" => Failure::Timeout,
                    "conflict" => Failure::Conflict,
                    _ => return None,
                };
                Some(Outcome::Failed(failure, typed))
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_outcome_survives_its_cookie() {
        let typed = Typed::new("family", "ana; \"x\"=1,+é@example.com");
        let contact = Typed::new("family", "ana@example.com")
            .with_contact("555-155-0123", "7870")
            .refused(FieldErrors {
                phone: Some(PHONE_MESSAGE),
                zip: Some(ZIP_MESSAGE),
                ..FieldErrors::default()
            });
        for outcome in [
            Outcome::Invalid(contact),
            Outcome::Submitted { booking: None },
            Outcome::Submitted {
                booking: Some("0b7e9a52-3c1f-4a8e-9d2b-5f6a7c8d9e0f.1767225600.0a1b".into()),
            },
            Outcome::Invalid(typed.clone()),
            Outcome::Failed(
                Failure::RateLimited {
                    retry_after_secs: 42,
                },
                typed.clone(),
            ),
            Outcome::Failed(Failure::Unavailable, typed.clone()),
            Outcome::Failed(Failure::Storage, Typed::default()),
            Outcome::Failed(Failure::TooLarge { limit: 16384 }, typed.clone()),
            Outcome::Failed(Failure::Timeout, typed.clone()),
            Outcome::Failed(Failure::Conflict, typed.clone()),
        ] {
            let value = outcome.encode();
            // RFC 6265 cookie-octet: no white space, DQUOTE, comma, semicolon or backslash.
            assert!(
                value
                    .bytes()
                    .all(|b| b.is_ascii_graphic() && !b"\",;\\".contains(&b)),
                "{value}"
            );
            assert_eq!(Outcome::decode(&value), Some(outcome));
        }
    }

    #[test]
    fn anything_else_is_no_outcome() {
        for value in [
            "",
            "o=maybe",
            "o=failed&f=rate_limited",
            "o=failed&f=teapot&n=1",
            "o=invalid&x=1",
        ] {
            assert_eq!(Outcome::decode(value), None, "{value}");
        }
    }

    #[test]
    fn long_values_are_cut_at_a_character_boundary() {
        let long = "é".repeat(MAX_KEPT_BYTES);
        let typed = Typed::new("", &long);
        assert!(typed.email.len() <= MAX_KEPT_BYTES && typed.email.len() >= MAX_KEPT_BYTES - 1);
        assert!(typed.email.chars().all(|c| c == 'é'));
    }

    #[test]
    fn the_reason_is_status_and_message_in_the_page_language() {
        let limited = Failure::RateLimited {
            retry_after_secs: 7,
        };
        assert_eq!(
            limited.reason(Language::En),
            "429: Too many quote requests from your network. Please try again in 7 seconds."
        );
        assert_eq!(
            limited.reason(Language::Es),
            "429: Demasiadas solicitudes de cotización desde su red. Inténtelo de nuevo en 7 segundos."
        );
        assert_eq!(
            Failure::Unavailable.reason(Language::En),
            "503: The service is briefly unavailable. Please try again in a few seconds."
        );
        assert_eq!(
            Failure::Unavailable.reason(Language::Es),
            "503: El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos."
        );
    }
}
