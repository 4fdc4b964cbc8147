//! The link in a booking's confirmation e-mail to cancel or move it (`/book/manage/<token>`,
//! `/es/book/manage/<token>`, `routes/booking_manage`): the token names the booking, signed with
//! a key every instance shares (`store::signer`), so the page needs nothing stored to trust it
//! and the URL shows nothing about the person. It works once: cancelling or moving the booking
//! ends it (the booking is no longer booked), and a move's new booking has a link of its own.

use crate::store::signer::Signer;
use crate::store::{Language, SiteKeys, StoreError};

/// The key's name in `site_keys`.
const KEY_NAME: &str = "booking_link";
/// What a link's signature is made under (`Signer`).
const DOMAIN: &str = "booking-link:";

pub struct BookingLinks {
    signer: Signer,
}

impl BookingLinks {
    /// The shared key, made now (256 random bits) if the database holds none yet.
    pub async fn load(store: &(impl SiteKeys + ?Sized)) -> Result<BookingLinks, StoreError> {
        let signer = Signer::load(store, KEY_NAME).await?;
        Ok(BookingLinks { signer })
    }

    pub fn new(key: &[u8]) -> BookingLinks {
        BookingLinks {
            signer: Signer::new(key),
        }
    }

    /// `booking.signature`.
    pub fn issue(&self, booking_id: &str) -> String {
        format!("{booking_id}.{}", self.signer.sign(DOMAIN, booking_id))
    }

    /// The booking `token` names, if this site signed it.
    pub fn check(&self, token: &str) -> Option<String> {
        let (booking_id, tag) = token.rsplit_once('.')?;
        (!booking_id.is_empty() && self.signer.verify(DOMAIN, booking_id, tag))
            .then(|| booking_id.to_owned())
    }
}

/// The page's path for `token` on the site in `language`.
pub fn path(token: &str, language: Language) -> String {
    match language {
        Language::En => format!("/book/manage/{token}"),
        Language::Es => format!("/es/book/manage/{token}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOOKING: &str = "0190f3a0-0000-7000-8000-000000000001";

    #[test]
    fn only_the_sites_own_signature_opens_a_link() {
        let links = BookingLinks::new(b"key");
        let token = links.issue(BOOKING);
        assert_eq!(links.check(&token).as_deref(), Some(BOOKING));
        let (_, tag) = token.rsplit_once('.').unwrap();
        let other = format!("0190f3a0-0000-7000-8000-000000000002.{tag}");
        let other_key = BookingLinks::new(b"other").issue(BOOKING);
        for bad in [
            other.as_str(),
            other_key.as_str(),
            &token[..token.len() - 1],
            BOOKING,
            "",
            ".",
        ] {
            assert_eq!(links.check(bad), None, "{bad}");
        }
        assert_eq!(path("t", Language::Es), "/es/book/manage/t");
    }
}
