//! How the site writes every cookie it sets, on the `cookie` crate's builder: HttpOnly and
//! `SameSite=Strict` always, `Secure` over HTTPS, each on the one path that reads it. The
//! cookies themselves are declared beside the code that reads them, each a `SiteCookie`: the
//! form token (`routes::form_token_cookie`), the quote's outcome (`routes::quote_result`), the inbox's
//! session (`routes::admin::session_cookie`) and the known-browser mark
//! (`routes::admin::known_browser`). Signed values are signed by `store::signer`, not by the
//! crate's signed jar: the same signatures travel outside cookies too (the consent page's
//! link), and a cookie's value stays the token the rest of the site reads.

use std::time::Duration;

use cookie::{Cookie, SameSite};
use warp::http::HeaderValue;

/// One of the site's cookies.
pub struct SiteCookie {
    /// Its name over plain HTTP (a local test).
    pub name: &'static str,
    /// Its name over HTTPS: a `__Host-` or `__Secure-` prefix, so that no plain-HTTP answer can
    /// set or shadow it.
    pub https_name: &'static str,
    /// How long the browser keeps it; `None`, until the browser closes.
    pub max_age: Option<Duration>,
}

impl SiteCookie {
    /// A cookie of the same name over HTTP and HTTPS.
    pub const fn named(name: &'static str, max_age: Option<Duration>) -> SiteCookie {
        SiteCookie {
            name,
            https_name: name,
            max_age,
        }
    }

    pub fn name(&self, https: bool) -> &'static str {
        if https {
            self.https_name
        } else {
            self.name
        }
    }

    /// The `Set-Cookie` that gives the browser `value` for `path`.
    pub fn set(&self, value: &str, path: &'static str, https: bool) -> HeaderValue {
        let mut cookie = self.build(value, path, https);
        if let Some(max_age) = self.max_age {
            cookie = cookie.max_age(cookie_duration(max_age));
        }
        header_value(&cookie.build())
    }

    /// The `Set-Cookie` that makes the browser drop it.
    pub fn clear(&self, path: &'static str, https: bool) -> HeaderValue {
        let cookie = self
            .build("", path, https)
            .max_age(cookie::time::Duration::ZERO);
        header_value(&cookie.build())
    }

    fn build(
        &self,
        value: &str,
        path: &'static str,
        https: bool,
    ) -> cookie::CookieBuilder<'static> {
        Cookie::build((self.name(https), value.to_owned()))
            .path(path)
            .http_only(true)
            .same_site(SameSite::Strict)
            .secure(https)
    }
}

fn cookie_duration(duration: Duration) -> cookie::time::Duration {
    cookie::time::Duration::seconds(i64::try_from(duration.as_secs()).unwrap_or(i64::MAX))
}

/// Every value the site sets is made of token characters (hex, digits, dots, URL-safe base64),
/// which a header always holds.
fn header_value(cookie: &Cookie<'_>) -> HeaderValue {
    HeaderValue::from_str(&cookie.to_string()).expect("a cookie of token characters")
}

#[cfg(test)]
mod tests {
    use super::*;

    const KEPT: SiteCookie = SiteCookie {
        name: "kept",
        https_name: "__Host-kept",
        max_age: Some(Duration::from_secs(60)),
    };

    fn attributes(value: &HeaderValue) -> Vec<String> {
        let mut parts: Vec<String> = value
            .to_str()
            .unwrap()
            .split("; ")
            .map(str::to_owned)
            .collect();
        parts.sort();
        parts
    }

    #[test]
    fn http_only_strict_on_its_path_and_secure_over_https() {
        assert_eq!(
            attributes(&KEPT.set("abc", "/", true)),
            [
                "HttpOnly",
                "Max-Age=60",
                "Path=/",
                "SameSite=Strict",
                "Secure",
                "__Host-kept=abc"
            ]
        );
        assert_eq!(
            attributes(&KEPT.set("abc", "/a", false)),
            [
                "HttpOnly",
                "Max-Age=60",
                "Path=/a",
                "SameSite=Strict",
                "kept=abc"
            ]
        );
        let session = SiteCookie::named("session", None);
        assert_eq!(
            attributes(&session.set("id", "/", false)),
            ["HttpOnly", "Path=/", "SameSite=Strict", "session=id"]
        );
        assert_eq!(
            attributes(&KEPT.clear("/", true)),
            [
                "HttpOnly",
                "Max-Age=0",
                "Path=/",
                "SameSite=Strict",
                "Secure",
                "__Host-kept="
            ]
        );
    }
}
