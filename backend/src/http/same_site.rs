//! Whether a request comes from the site's own pages: a browser says where a request comes from
//! in `Origin` and `Sec-Fetch-Site`, which a page on another site cannot change. A request that
//! acts with the browser's cookie is accepted only from the site itself, so no other site can act
//! for a signed-in user (cross-site request forgery).

use warp::http::{header, HeaderMap};

/// `Sec-Fetch-Site: same-origin`, or an `Origin` that is this site (`scheme://host` as the
/// request reached us). A request with neither is refused: every browser that sends the cookie
/// sends one of them on a state-changing request.
pub fn from_the_site(headers: &HeaderMap, https: bool) -> bool {
    let text = |name| headers.get(name).and_then(|v| v.to_str().ok());
    if let Some(site) = text("sec-fetch-site") {
        if site.eq_ignore_ascii_case("same-origin") {
            return true;
        }
    }
    let (Some(origin), Some(host)) = (text(header::ORIGIN.as_str()), text(header::HOST.as_str()))
    else {
        return false;
    };
    let scheme = if https { "https" } else { "http" };
    origin.eq_ignore_ascii_case(&format!("{scheme}://{host}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
        let mut h = HeaderMap::new();
        for (name, value) in pairs {
            h.insert(*name, value.parse().unwrap());
        }
        h
    }

    #[test]
    fn only_the_sites_own_pages() {
        let host = ("host", "broker.example.com");
        assert!(from_the_site(
            &headers(&[host, ("origin", "https://broker.example.com")]),
            true
        ));
        assert!(!from_the_site(
            &headers(&[host, ("origin", "http://broker.example.com")]),
            true
        ));
        assert!(!from_the_site(
            &headers(&[host, ("origin", "https://evil.example")]),
            true
        ));
        assert!(!from_the_site(&headers(&[host, ("origin", "null")]), false));
        assert!(!from_the_site(&headers(&[host]), false), "no evidence");
        assert!(from_the_site(
            &headers(&[("sec-fetch-site", "same-origin")]),
            false
        ));
        assert!(!from_the_site(
            &headers(&[host, ("sec-fetch-site", "cross-site")]),
            false
        ));
        assert!(!from_the_site(
            &headers(&[host, ("sec-fetch-site", "same-site")]),
            false
        ));
    }
}
