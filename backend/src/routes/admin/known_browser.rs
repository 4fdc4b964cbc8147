//! The known-browser mark: a cookie every good sign-in sets, holding the moment it was set,
//! signed with a key every instance shares (made once and kept in the database, `SiteKeys`) and
//! bound to `ADMIN_PASSWORD_HASH`. It opens nothing: it only lets that browser's later sign-ins
//! wait in a line of password checks of their own, which strangers flooding the sign-in cannot
//! fill (`session::SignIn`). So it marks the browser, not a session: signing out, here or
//! everywhere, leaves it (a sign-in still needs the password), and a new password hash unmarks
//! every browser at once. Only the sign-in's path receives it; over HTTPS it is `Secure` with the
//! `__Secure-` prefix, so that no plain-HTTP response can shadow it with one that fails and put
//! the broker back in the strangers' line.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use time::OffsetDateTime;
use warp::http::{HeaderMap, HeaderValue};

use crate::http::cookies::SiteCookie;
use crate::http::headers::cookie_values;
use crate::store::signer::Signer;
use crate::store::{SiteKeys, StoreError};

const MARK: SiteCookie = SiteCookie {
    name: "inbox_known",
    https_name: "__Secure-inbox_known",
    max_age: Some(MAX_AGE),
};
/// The only path the mark is sent to.
const PATH: &str = "/api/admin/session";
/// The key's name in `site_keys`.
const KEY_NAME: &str = "inbox_known";
/// The longest a browser keeps a cookie (RFC 6265bis caps `Max-Age` there); each good sign-in
/// sets a new mark, so a broker who signs in at least that often stays known.
const MAX_AGE: Duration = Duration::from_secs(400 * 24 * 60 * 60);
/// What a mark's signature is made under (`Signer`).
const DOMAIN: &str = "inbox-known:";

pub struct KnownBrowsers {
    signer: Signer,
}

impl KnownBrowsers {
    /// The shared key, made now (256 random bits) if the database holds none yet.
    pub async fn load(store: &(impl SiteKeys + ?Sized)) -> Result<KnownBrowsers, StoreError> {
        let signer = Signer::load(store, KEY_NAME).await?;
        Ok(KnownBrowsers { signer })
    }

    #[cfg(test)]
    pub fn new(key: &[u8]) -> KnownBrowsers {
        KnownBrowsers {
            signer: Signer::new(key),
        }
    }

    /// The `Set-Cookie` that marks the browser signing in at `now`: `set.signature`, the seconds
    /// since the Unix epoch and their signature in hex.
    pub fn mark(
        &self,
        password_hash: &SecretString,
        now: OffsetDateTime,
        https: bool,
    ) -> HeaderValue {
        let set = now.unix_timestamp().to_string();
        let tag = self.signer.sign(DOMAIN, &signed(&set, password_hash));
        MARK.set(&format!("{set}.{tag}"), PATH, https)
    }

    /// Whether the request carries a mark this site set under `password_hash` within `MAX_AGE`
    /// (any of them, should the browser send the name twice).
    pub fn knows(
        &self,
        headers: &HeaderMap,
        https: bool,
        password_hash: &SecretString,
        now: OffsetDateTime,
    ) -> bool {
        cookie_values(headers, MARK.name(https))
            .any(|mark| self.check(mark, password_hash, now).is_some())
    }

    fn check(&self, mark: &str, password_hash: &SecretString, now: OffsetDateTime) -> Option<()> {
        let (set_text, tag) = mark.split_once('.')?;
        let set: i64 = set_text.parse().ok()?;
        // The text is signed as set, digit for digit, not the number it reads as.
        if !self
            .signer
            .verify(DOMAIN, &signed(set_text, password_hash), tag)
        {
            return None;
        }
        // A mark from a moment ahead (another instance's clock) counts as just set.
        let age = u64::try_from(now.unix_timestamp().saturating_sub(set)).unwrap_or(0);
        (age <= MAX_AGE.as_secs()).then_some(())
    }
}

/// What a mark signs: the moment it was set, bound to the password's hash.
fn signed(set: &str, password_hash: &SecretString) -> String {
    format!("{set}:{}", password_hash.expose_secret())
}

#[cfg(test)]
mod tests {
    use warp::http::header;

    use super::*;

    fn hash() -> SecretString {
        SecretString::from("$argon2id$v=19$first")
    }

    /// A request whose `Cookie` line is `line`.
    fn carrying(line: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(line).unwrap());
        headers
    }

    /// The `name=value` a browser sends back for `set_cookie`.
    fn pair(set_cookie: &HeaderValue) -> &str {
        set_cookie.to_str().unwrap().split(';').next().unwrap()
    }

    fn value_of(set_cookie: &HeaderValue) -> String {
        pair(set_cookie).split_once('=').unwrap().1.to_owned()
    }

    #[test]
    fn the_cookie_goes_only_to_the_sign_in_for_400_days() {
        let marks = KnownBrowsers::new(b"key");
        let now = OffsetDateTime::now_utc();
        let https = marks.mark(&hash(), now, true);
        let https = https.to_str().unwrap();
        assert!(https.starts_with("__Secure-inbox_known="), "{https}");
        for attribute in ["Path=/api/admin/session", "Max-Age=34560000", "Secure"] {
            assert!(https.split("; ").any(|a| a == attribute), "{https}");
        }
        let http = marks.mark(&hash(), now, false);
        let http = http.to_str().unwrap();
        assert!(http.starts_with("inbox_known="), "{http}");
        assert!(!http.contains("Secure"), "{http}");
    }

    #[test]
    fn a_mark_is_known_until_it_is_400_days_old() {
        let marks = KnownBrowsers::new(b"key");
        let set = OffsetDateTime::now_utc();
        let request = carrying(pair(&marks.mark(&hash(), set, false)));
        let knows = |at| marks.knows(&request, false, &hash(), at);
        assert!(knows(set));
        assert!(
            knows(set - Duration::from_secs(60)),
            "another instance's clock"
        );
        assert!(knows(set + MAX_AGE));
        assert!(!knows(set + MAX_AGE + Duration::from_secs(1)));
        assert!(
            !marks.knows(&request, true, &hash(), set),
            "https reads only the prefixed name"
        );
        let secure = carrying(pair(&marks.mark(&hash(), set, true)));
        assert!(marks.knows(&secure, true, &hash(), set));
        assert!(!marks.knows(&HeaderMap::new(), false, &hash(), set));
    }

    #[test]
    fn only_this_sites_mark_under_this_password_counts() {
        let marks = KnownBrowsers::new(b"key");
        let now = OffsetDateTime::now_utc();
        let mark = value_of(&marks.mark(&hash(), now, false));
        let (set, tag) = mark.split_once('.').unwrap();
        let other_key = value_of(&KnownBrowsers::new(b"other").mark(&hash(), now, false));
        let other_password =
            value_of(&marks.mark(&SecretString::from("$argon2id$v=19$second"), now, false));
        let later = format!("{}.{tag}", set.parse::<i64>().unwrap() + 60);
        let forged = format!("{set}.{}", "0".repeat(32));
        for bad in [
            other_key.as_str(),
            other_password.as_str(),
            later.as_str(),
            forged.as_str(),
            &mark[..mark.len() - 2],
            &format!("{set}.{}", &tag[..2]),
            &format!("0{mark}"),
            set,
            "",
            "x.y",
        ] {
            let request = carrying(&format!("inbox_known={bad}"));
            assert!(!marks.knows(&request, false, &hash(), now), "{bad:?}");
        }
        // A failing mark beside a good one (another path's cookie of the same name) is no harm.
        let both = carrying(&format!("inbox_known={forged}; inbox_known={mark}"));
        assert!(marks.knows(&both, false, &hash(), now));
    }
}
