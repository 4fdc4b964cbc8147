//! The session cookie: a random id (256 bits from the OS), of which the database keeps only an
//! HMAC-SHA256 keyed with `ADMIN_PASSWORD_HASH`. So a new password hash ends every session: an
//! old cookie's id no longer leads to its row, on every instance at once. Over HTTPS it is `Secure` with the `__Host-` prefix (the browser then refuses it
//! from plain HTTP, from a subdomain or for another path); over plain HTTP (a local test) it has
//! a name without the prefix, which an HTTPS request never reads.

use hmac::{Hmac, Mac};
use secrecy::{ExposeSecret, SecretString};
use sha2::Sha256;
use warp::http::{HeaderMap, HeaderValue};

use crate::http::cookies::SiteCookie;
use crate::http::headers::cookie_values;

/// No `Max-Age`: the server ends a session after the idle limit.
const SESSION: SiteCookie = SiteCookie {
    name: "inbox_session",
    https_name: "__Host-inbox_session",
    max_age: None,
};
/// A session id's bytes (`random_key`'s).
const ID_BYTES: usize = 32;

/// What the database keeps in place of the id, under the password hash `password_hash`.
pub fn id_hash(id: &str, password_hash: &SecretString) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(password_hash.expose_secret().as_bytes())
        .expect("HMAC takes a key of any length");
    mac.update(id.as_bytes());
    hex::encode(mac.finalize().into_bytes())
}

/// The session id the request carries under the name for its scheme.
pub fn read(headers: &HeaderMap, https: bool) -> Option<String> {
    cookie_values(headers, SESSION.name(https))
        .next()
        .filter(|id| id.len() == ID_BYTES * 2 && id.bytes().all(|b| b.is_ascii_hexdigit()))
        .map(str::to_owned)
}

/// A session cookie.
pub fn set(id: &str, https: bool) -> HeaderValue {
    SESSION.set(id, "/", https)
}

/// Tells the browser to drop the cookie.
pub fn clear(https: bool) -> HeaderValue {
    SESSION.clear("/", https)
}

#[cfg(test)]
mod tests {
    use warp::http::header;

    use super::*;
    use crate::store::signer::random_key;

    #[test]
    fn attributes_and_reading_back() {
        let id = random_key();
        assert_eq!(id.len(), 2 * ID_BYTES);
        assert_ne!(id, random_key());
        let https = set(&id, true);
        let https = https.to_str().unwrap();
        assert!(
            https.starts_with(&format!("__Host-inbox_session={id};")),
            "{https}"
        );
        assert!(
            https.contains("; Path=/") && https.contains("; Secure"),
            "{https}"
        );
        let http = set(&id, false);
        let http = http.to_str().unwrap();
        assert!(http.starts_with(&format!("inbox_session={id};")), "{http}");
        assert!(
            !http.contains("Max-Age") && !http.contains("Secure"),
            "{http}"
        );
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_str(&format!("a=b; inbox_session={id}")).unwrap(),
        );
        assert_eq!(read(&headers, false), Some(id.clone()));
        assert_eq!(
            read(&headers, true),
            None,
            "https reads only the prefixed name"
        );
        headers.insert(header::COOKIE, HeaderValue::from_static("inbox_session=zz"));
        assert_eq!(read(&headers, false), None);
        let password_hash = SecretString::from("$argon2id$v=19$first");
        assert_ne!(id_hash(&id, &password_hash), id);
        assert_eq!(id_hash(&id, &password_hash), id_hash(&id, &password_hash));
        assert_ne!(
            id_hash(&id, &password_hash),
            id_hash(&id, &SecretString::from("$argon2id$v=19$second")),
            "another password hash, another row"
        );
    }
}
