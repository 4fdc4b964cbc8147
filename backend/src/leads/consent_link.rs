//! The link in the e-mail asking a visitor for written consent to be called
//! (`/consent/<token>`, `/es/consent/<token>` for a Spanish lead): the token names the lead and
//! when the link stops working, signed with a key every instance shares (`store::signer`), so
//! the page needs nothing stored to trust it and the URL shows nothing about the person: only
//! the lead's random id.

use std::time::Duration;

pub use super::signed_lead::LinkError;
use super::signed_lead::{LinkKind, SignedLeads};
use crate::store::Language;

/// How long a link works: time to read the e-mail after a holiday, not years of an old inbox.
pub const MAX_AGE: Duration = Duration::from_secs(30 * 24 * 60 * 60);

/// `issue` makes `lead.expires.signature`: the lead's id, the second the link stops working
/// (Unix time) and their signature in hex; `check` gives back the lead.
pub type ConsentLinks = SignedLeads<ConsentLink>;

pub struct ConsentLink;

impl LinkKind for ConsentLink {
    const KEY_NAME: &'static str = "consent_link";
    const DOMAIN: &'static str = "consent-link:";
    const MAX_AGE: Duration = MAX_AGE;
}

/// The consent page's path for `token` on the site in `language`.
pub fn path(token: &str, language: Language) -> String {
    match language {
        Language::En => format!("/consent/{token}"),
        Language::Es => format!("/es/consent/{token}"),
    }
}

#[cfg(test)]
mod tests {
    use time::OffsetDateTime;

    use super::*;

    const LEAD: &str = "0b7e9a52-3c1f-4a8e-9d2b-5f6a7c8d9e0f";

    #[test]
    fn a_link_names_its_lead_until_it_expires() {
        let links = ConsentLinks::new(b"key");
        let now = OffsetDateTime::now_utc();
        let (token, expires) = links.issue(LEAD, now);
        assert_eq!(expires, now + MAX_AGE);
        assert!(token.starts_with(&format!("{LEAD}.")), "{token}");
        assert_eq!(links.check(&token, now).as_deref(), Ok(LEAD));
        assert_eq!(links.check(&token, now + MAX_AGE).as_deref(), Ok(LEAD));
        assert_eq!(
            links.check(&token, now + MAX_AGE + Duration::from_secs(1)),
            Err(LinkError::Expired)
        );
    }

    #[test]
    fn only_the_sites_own_signature_opens_a_link() {
        let links = ConsentLinks::new(b"key");
        let now = OffsetDateTime::now_utc();
        let (token, _) = links.issue(LEAD, now);
        let (signed, tag) = token.rsplit_once('.').unwrap();
        let (_, expires) = signed.split_once('.').unwrap();
        let other_lead = format!("1b7e9a52-3c1f-4a8e-9d2b-5f6a7c8d9e0f.{expires}.{tag}");
        let later = format!("{LEAD}.{}.{tag}", expires.parse::<i64>().unwrap() + 86_400);
        let (other_key, _) = ConsentLinks::new(b"other").issue(LEAD, now);
        for bad in [
            other_lead.as_str(),
            later.as_str(),
            other_key.as_str(),
            &token[..token.len() - 1],
            signed,
            LEAD,
            "",
            "..",
            &format!(".{expires}.{tag}"),
        ] {
            assert_eq!(links.check(bad, now), Err(LinkError::Invalid), "{bad:?}");
        }
    }

    #[test]
    fn each_language_has_its_page() {
        assert_eq!(path("t", Language::En), "/consent/t");
        assert_eq!(path("t", Language::Es), "/es/consent/t");
    }
}
