//! The form token's cookie (`spam::form_token`): a fresh token with every page served and with
//! each stored lead's answer (for the page's next lead), sent back only to the form's post.

use time::OffsetDateTime;
use warp::http::{header, HeaderValue};
use warp::reply::Response;

use crate::http::cookies::SiteCookie;
use crate::spam::{FormTokens, COOKIE, FORM_TOKEN_MAX_AGE};

const TOKEN_COOKIE: SiteCookie = SiteCookie::named(COOKIE, Some(FORM_TOKEN_MAX_AGE));
/// The only path the cookie is sent to.
const PATH: &str = "/api/quote-requests";

/// Gives `response` a fresh token.
pub fn give(tokens: &FormTokens, response: &mut Response, https: bool) {
    let cookie = set_cookie(tokens, OffsetDateTime::now_utc(), https);
    response.headers_mut().append(header::SET_COOKIE, cookie);
}

fn set_cookie(tokens: &FormTokens, now: OffsetDateTime, https: bool) -> HeaderValue {
    TOKEN_COOKIE.set(&tokens.issue(now), PATH, https)
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn the_cookie_goes_only_to_the_form_post() {
        let tokens = FormTokens::new(b"key".to_vec(), Duration::from_secs(2));
        let now = OffsetDateTime::now_utc();
        let cookie = set_cookie(&tokens, now, true);
        let cookie = cookie.to_str().unwrap();
        assert!(cookie.starts_with("form_token="), "{cookie}");
        for attribute in ["Path=/api/quote-requests", "Max-Age=21600", "Secure"] {
            assert!(cookie.split("; ").any(|a| a == attribute), "{cookie}");
        }
        let plain = set_cookie(&tokens, now, false);
        assert!(!plain.to_str().unwrap().contains("Secure"));
    }
}
