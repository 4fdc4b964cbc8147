//! The booking page's reference to the lead a quote just made (`/book?lead=<token>`, docs/product.md
//! §13): the quote's success message (the page's, and the result page's without JavaScript)
//! links there, and following it the form is pre-filled and the booking joins that lead. The
//! token is a `signed_lead` one under a key and domain of its own: nothing to guess, and only for
//! a day, since the page it opens shows the lead's e-mail address and phone number.

use std::time::Duration;

use super::signed_lead::{LinkKind, SignedLeads};
use crate::store::Language;

/// How long a reference works: the visit the quote was sent in and the day after it, not the
/// browser's history for months on a shared computer.
pub const MAX_AGE: Duration = Duration::from_secs(24 * 60 * 60);
/// The query parameter the page reads it from, and the form's hidden field that carries it.
pub const FIELD: &str = "lead";

pub struct BookingRef;

impl LinkKind for BookingRef {
    const KEY_NAME: &'static str = "booking_ref";
    const DOMAIN: &'static str = "booking-ref:";
    const MAX_AGE: Duration = MAX_AGE;
}

/// The references: issued to a lead id at a time, checked against the time they are followed at.
pub type BookingRefs = SignedLeads<BookingRef>;

/// The booking page in `language` opened with `token`, which (as this site issues them: an id,
/// digits and hex, with dots) needs no escaping in a URL; `None` for anything else.
pub fn path(token: &str, language: Language) -> Option<String> {
    let plain = |c: char| c.is_ascii_alphanumeric() || c == '-' || c == '.';
    (!token.is_empty() && token.chars().all(plain))
        .then(|| format!("{}?{FIELD}={token}", page(language)))
}

/// The booking page in `language`.
pub fn page(language: Language) -> &'static str {
    match language {
        Language::En => "/book",
        Language::Es => "/es/book",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use time::OffsetDateTime;

    const LEAD: &str = "0b7e9a52-3c1f-4a8e-9d2b-5f6a7c8d9e0f";

    #[test]
    fn a_reference_names_its_lead_for_a_day_on_its_languages_page() {
        let refs = BookingRefs::new(b"key");
        let now = OffsetDateTime::now_utc();
        let token = refs.issue(LEAD, now).0;
        let path = path(&token, Language::Es).unwrap();
        assert_eq!(path, format!("/es/book?lead={token}"));
        assert_eq!(
            refs.check(&token, now + MAX_AGE).ok().as_deref(),
            Some(LEAD)
        );
        let later = now + MAX_AGE + Duration::from_secs(1);
        assert_eq!(refs.check(&token, later).ok(), None);
        assert!(super::path(&token, Language::En)
            .unwrap()
            .starts_with("/book?lead="));
        assert_eq!(super::path("\"javascript:x", Language::En), None);
        assert_eq!(super::path("", Language::En), None);
    }

    #[test]
    fn a_consent_links_token_is_no_reference() {
        let now = OffsetDateTime::now_utc();
        let (consent, _) = super::super::consent_link::ConsentLinks::new(b"key").issue(LEAD, now);
        let refs = BookingRefs::new(b"key");
        assert_eq!(refs.check(&consent, now).ok(), None);
        assert_eq!(
            refs.check(&format!("{LEAD}.99999999999.00"), now).ok(),
            None
        );
    }
}
