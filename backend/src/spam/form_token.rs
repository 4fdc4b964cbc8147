//! The form token: when the site served a page, signed with a key every instance shares (made
//! once and kept in the database, `SiteKeys`). It travels in a cookie set with the page, so the
//! prerendered page stays one file for everyone (precompressed, revalidated by its `ETag`), the
//! form without JavaScript carries it like the live form's `fetch`, and only the path the form
//! posts to receives it.
//!
//! Each token is one page view's (a random nonce beside the time) and serves one lead: the store
//! remembers the ones spent (`NewQuote::spending`), so a second lead with the same cookie, from
//! any address and any instance, is held as spam (`Signal::ReusedToken`). The answer to a stored
//! post carries a fresh token, so a person asking for a second quote from the same page can.

use std::time::Duration;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use time::OffsetDateTime;

use super::Signal;
use crate::store::signer::Signer;
use crate::store::{SiteKeys, SpentToken, StoreError};

/// The cookie's name (`routes::form_token_cookie` sets it).
pub const COOKIE: &str = "form_token";
/// The key's name in `site_keys`.
const KEY_NAME: &str = "form_token";
/// How long a served page's token counts: time for a person to fill the form in, interruptions
/// included, and not the days a harvested token would be worth to a script.
pub const MAX_AGE: Duration = Duration::from_secs(6 * 60 * 60);
/// The random bytes that make each page view's token its own (64 bits, hex in the token).
const NONCE_BYTES: usize = 8;
/// What a token's signature is made under (`Signer`).
const DOMAIN: &str = "form-token:";

pub struct FormTokens {
    signer: Signer,
    min_fill: Duration,
}

impl FormTokens {
    /// The shared key (made now if the database holds none yet); a post sooner than `min_fill`
    /// after its page is too quick for a person.
    pub async fn load(
        store: &(impl SiteKeys + ?Sized),
        min_fill: Duration,
    ) -> Result<FormTokens, StoreError> {
        let signer = Signer::load(store, KEY_NAME).await?;
        Ok(FormTokens { signer, min_fill })
    }

    pub fn new(key: Vec<u8>, min_fill: Duration) -> FormTokens {
        FormTokens {
            signer: Signer::new(&key),
            min_fill,
        }
    }

    /// `issued.nonce.signature`: the milliseconds since the Unix epoch, a random nonce, and the
    /// signature of both in hex.
    pub fn issue(&self, now: OffsetDateTime) -> String {
        let mut nonce = [0u8; NONCE_BYTES];
        OsRng.fill_bytes(&mut nonce);
        let signed = format!("{}.{}", millis(now), hex::encode(nonce));
        format!("{signed}.{}", self.signer.sign(DOMAIN, &signed))
    }

    /// A post carrying `token` (and the honeypot's value): a person's, with the token it spends
    /// (`SpentToken`), or why it is a script's. Whether the token was spent before is the store's to
    /// tell, when it keeps the lead.
    pub fn check_post(
        &self,
        honeypot: &str,
        token: Option<&str>,
        now: OffsetDateTime,
    ) -> Result<SpentToken, Signal> {
        if !honeypot.trim().is_empty() {
            return Err(Signal::Honeypot);
        }
        let token = token.ok_or(Signal::NoToken)?;
        let (signed, tag) = token.rsplit_once('.').ok_or(Signal::BadToken)?;
        let (issued_text, _nonce) = signed.split_once('.').ok_or(Signal::BadToken)?;
        let issued: i64 = issued_text.parse().map_err(|_| Signal::BadToken)?;
        // The text is signed as issued, digit for digit, not the number it reads as.
        if !self.signer.verify(DOMAIN, signed, tag) {
            return Err(Signal::BadToken);
        }
        // A token from a moment ahead (another instance's clock) counts as just issued.
        let age = Duration::from_millis(u64::try_from(millis(now) - issued).unwrap_or(0));
        if age < self.min_fill {
            Err(Signal::TooFast)
        } else if age > MAX_AGE {
            Err(Signal::ExpiredToken)
        } else {
            Ok(SpentToken {
                // Lowercase, as issued: the same token always spends the same key.
                key: tag.to_ascii_lowercase(),
                issued: OffsetDateTime::from_unix_timestamp_nanos(i128::from(issued) * 1_000_000)
                    .map_err(|_| Signal::BadToken)?,
            })
        }
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

    fn signal(
        tokens: &FormTokens,
        honeypot: &str,
        token: Option<&str>,
        at: OffsetDateTime,
    ) -> Option<Signal> {
        tokens.check_post(honeypot, token, at).err()
    }

    #[test]
    fn a_token_counts_from_the_fill_time_until_it_expires() {
        let tokens = tokens();
        let served = OffsetDateTime::now_utc();
        let token = tokens.issue(served);
        let second = Duration::from_secs(1);
        for (at, expected) in [
            (served, Some(Signal::TooFast)),
            (served + Duration::from_millis(2_999), Some(Signal::TooFast)),
            (served - second, Some(Signal::TooFast)),
            (served + MIN_FILL, None),
            (served + MAX_AGE, None),
            (served + MAX_AGE + second, Some(Signal::ExpiredToken)),
        ] {
            assert_eq!(signal(&tokens, "", Some(&token), at), expected, "{at}");
        }
    }

    #[test]
    fn each_page_view_spends_a_key_of_its_own() {
        let tokens = tokens();
        let served = OffsetDateTime::now_utc() - Duration::from_secs(10);
        let now = OffsetDateTime::now_utc();
        // Two page views in the same millisecond still differ.
        let (first, second) = (tokens.issue(served), tokens.issue(served));
        assert_ne!(first, second);
        let spent = |token: &str| tokens.check_post("", Some(token), now).unwrap();
        assert_ne!(spent(&first).key, spent(&second).key);
        assert_eq!(spent(&first), spent(&first));
        let millis = spent(&first).issued.unix_timestamp_nanos() / 1_000_000;
        assert_eq!(millis, served.unix_timestamp_nanos() / 1_000_000);
        let (signed, tag) = first.rsplit_once('.').unwrap();
        let shouted = format!("{signed}.{}", tag.to_uppercase());
        assert_eq!(
            spent(&shouted).key,
            spent(&first).key,
            "hex reads either case"
        );
    }

    #[test]
    fn only_the_sites_own_signature_counts() {
        let tokens = tokens();
        let served = OffsetDateTime::now_utc() - Duration::from_secs(10);
        let now = OffsetDateTime::now_utc();
        let token = tokens.issue(served);
        let (signed, tag) = token.rsplit_once('.').unwrap();
        let (issued, nonce) = signed.split_once('.').unwrap();
        let other_key = FormTokens::new(b"other".to_vec(), MIN_FILL).issue(served);
        let earlier = format!("{}.{nonce}.{tag}", issued.parse::<i64>().unwrap() - 60_000);
        let other_nonce = format!("{issued}.{}.{tag}", "0".repeat(nonce.len()));
        // The form before nonces: time and signature only.
        let old_form = format!("{issued}.{tag}");
        for bad in [
            other_key.as_str(),
            earlier.as_str(),
            other_nonce.as_str(),
            old_form.as_str(),
            &token[..token.len() - 2],
            &format!("{signed}.{}", &tag[..2]),
            signed,
            issued,
            &format!("0{token}"),
            "",
            "x.y",
            "x.y.z",
        ] {
            assert_eq!(
                signal(&tokens, "", Some(bad), now),
                Some(Signal::BadToken),
                "{bad:?}"
            );
        }
        assert_eq!(signal(&tokens, "", None, now), Some(Signal::NoToken));
        assert_eq!(signal(&tokens, "", Some(&token), now), None);
        assert_eq!(
            signal(&tokens, " http://spam ", Some(&token), now),
            Some(Signal::Honeypot)
        );
    }
}
