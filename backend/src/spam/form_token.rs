//! The form token: when the site served a page, signed with a key every instance shares (made
//! once and kept in the database, `SiteKeys`). It travels in a cookie set with the page, so the
//! prerendered page stays one file for everyone (precompressed, revalidated by its `ETag`), the
//! form without JavaScript carries it like the live form's `fetch`, and only the path the form
//! posts to receives it.

use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use hmac::{Hmac, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use super::Signal;
use crate::store::{SiteKeys, StoreError};

pub const COOKIE: &str = "form_token";
/// The only path the cookie is sent to.
const COOKIE_PATH: &str = "/api/quote-requests";
/// The key's name in `site_keys`.
const KEY_NAME: &str = "form_token";
/// How long a served page's token counts: a visitor may leave the page open overnight.
const MAX_AGE: Duration = Duration::from_secs(2 * 24 * 60 * 60);
/// The signature's bytes kept in the token (128 bits).
const TAG_BYTES: usize = 16;

pub struct FormTokens {
    /// Keyed once: keying hashes the key, which would otherwise be done again for every token.
    keyed: Hmac<Sha256>,
    min_fill: Duration,
}

impl FormTokens {
    /// The shared key (made now if the database holds none yet); a post sooner than `min_fill`
    /// after its page is too quick for a person.
    pub async fn load(
        store: &(impl SiteKeys + ?Sized),
        min_fill: Duration,
    ) -> Result<FormTokens, StoreError> {
        let mut candidate = [0u8; 32];
        OsRng.fill_bytes(&mut candidate);
        let key = store.site_key(KEY_NAME, hex::encode(candidate)).await?;
        Ok(FormTokens::new(key.into_bytes(), min_fill))
    }

    pub fn new(key: Vec<u8>, min_fill: Duration) -> FormTokens {
        let keyed = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC takes a key of any length");
        FormTokens { keyed, min_fill }
    }

    /// `issued.signature`: the milliseconds since the Unix epoch, and their signature in hex.
    pub fn issue(&self, now: OffsetDateTime) -> String {
        let issued = millis(now).to_string();
        let tag = self.mac(&issued).finalize().into_bytes();
        format!("{issued}.{}", hex::encode(&tag[..TAG_BYTES]))
    }

    /// The `Set-Cookie` value that gives a served page its token.
    pub fn cookie(&self, now: OffsetDateTime, https: bool) -> String {
        let secure = if https { "; Secure" } else { "" };
        format!(
            "{COOKIE}={}; Path={COOKIE_PATH}; Max-Age={}; HttpOnly; SameSite=Strict{secure}",
            self.issue(now),
            MAX_AGE.as_secs()
        )
    }

    /// Why a post carrying `token` (and the honeypot's value) is a script's, if it is.
    pub fn spam_signal(
        &self,
        honeypot: &str,
        token: Option<&str>,
        now: OffsetDateTime,
    ) -> Option<Signal> {
        if !honeypot.trim().is_empty() {
            return Some(Signal::Honeypot);
        }
        self.check(token, now).err()
    }

    fn check(&self, token: Option<&str>, now: OffsetDateTime) -> Result<(), Signal> {
        let token = token.ok_or(Signal::NoToken)?;
        let (issued_text, tag) = token.split_once('.').ok_or(Signal::BadToken)?;
        let issued: i64 = issued_text.parse().map_err(|_| Signal::BadToken)?;
        let mut tag_bytes = [0; TAG_BYTES];
        hex::decode_to_slice(tag, &mut tag_bytes).map_err(|_| Signal::BadToken)?;
        // The text is signed as issued, digit for digit, not the number it reads as.
        self.mac(issued_text)
            .verify_truncated_left(&tag_bytes)
            .map_err(|_| Signal::BadToken)?;
        // A token from a moment ahead (another instance's clock) counts as just issued.
        let age = Duration::from_millis(u64::try_from(millis(now) - issued).unwrap_or(0));
        if age < self.min_fill {
            Err(Signal::TooFast)
        } else if age > MAX_AGE {
            Err(Signal::ExpiredToken)
        } else {
            Ok(())
        }
    }

    fn mac(&self, issued: &str) -> Hmac<Sha256> {
        let mut mac = self.keyed.clone();
        mac.update(b"form-token:");
        mac.update(issued.as_bytes());
        mac
    }
}

fn millis(at: OffsetDateTime) -> i64 {
    i64::try_from(at.unix_timestamp_nanos() / 1_000_000).unwrap_or(i64::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MIN_FILL: Duration = Duration::from_secs(3);

    fn tokens() -> FormTokens {
        FormTokens::new(b"key".to_vec(), MIN_FILL)
    }

    #[test]
    fn a_token_counts_from_the_fill_time_until_it_expires() {
        let tokens = tokens();
        let served = OffsetDateTime::now_utc();
        let token = tokens.issue(served);
        let signal = |at: OffsetDateTime| tokens.spam_signal("", Some(&token), at);
        assert_eq!(signal(served), Some(Signal::TooFast));
        assert_eq!(
            signal(served + Duration::from_millis(2_999)),
            Some(Signal::TooFast)
        );
        assert_eq!(
            signal(served - Duration::from_secs(1)),
            Some(Signal::TooFast)
        );
        assert_eq!(signal(served + MIN_FILL), None);
        assert_eq!(signal(served + MAX_AGE), None);
        assert_eq!(
            signal(served + MAX_AGE + Duration::from_secs(1)),
            Some(Signal::ExpiredToken)
        );
    }

    #[test]
    fn only_the_sites_own_signature_counts() {
        let tokens = tokens();
        let served = OffsetDateTime::now_utc() - Duration::from_secs(10);
        let now = OffsetDateTime::now_utc();
        let token = tokens.issue(served);
        let (issued, tag) = token.split_once('.').unwrap();
        let other_key = FormTokens::new(b"other".to_vec(), MIN_FILL).issue(served);
        let earlier = format!("{}.{tag}", issued.parse::<i64>().unwrap() - 60_000);
        for bad in [
            other_key.as_str(),
            earlier.as_str(),
            &token[..token.len() - 2],
            &format!("{issued}.{}", &tag[..2]),
            issued,
            &format!("0{token}"),
            "",
            "x.y",
        ] {
            assert_eq!(
                tokens.spam_signal("", Some(bad), now),
                Some(Signal::BadToken),
                "{bad:?}"
            );
        }
        assert_eq!(tokens.spam_signal("", None, now), Some(Signal::NoToken));
        assert_eq!(tokens.spam_signal("", Some(&token), now), None);
        assert_eq!(
            tokens.spam_signal(" http://spam ", Some(&token), now),
            Some(Signal::Honeypot)
        );
    }

    #[test]
    fn the_cookie_goes_only_to_the_form_post() {
        let cookie = tokens().cookie(OffsetDateTime::now_utc(), true);
        assert!(cookie.starts_with("form_token="), "{cookie}");
        assert!(cookie.ends_with(
            "; Path=/api/quote-requests; Max-Age=172800; HttpOnly; SameSite=Strict; Secure"
        ));
        assert!(!tokens()
            .cookie(OffsetDateTime::now_utc(), false)
            .contains("Secure"));
    }
}
