//! Whether a request comes from the site's own pages: a browser says where a request comes from
//! in `Origin` and `Sec-Fetch-Site`, which a page on another site cannot change. A request that
//! acts with the browser's cookie is accepted only from the site itself, so no other site can act
//! for a signed-in user (cross-site request forgery).

use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap, HeaderValue};
use warp::Filter;

use super::error::ApiError;
use super::forwarded_proto;
use super::headers::optional_header;

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
    text(header::ORIGIN.as_str())
        .is_some_and(|origin| is_this_site(headers.get(header::HOST), origin, https))
}

/// Whether a request that needs no cookie (a quote post) may have come from a page on another
/// site: refused only on the browser's word (`another_site`).
pub fn from_another_site(headers: &HeaderMap, https: bool) -> bool {
    another_site(
        headers.get("sec-fetch-site"),
        headers.get(header::ORIGIN),
        headers.get(header::HOST),
        https,
    )
}

/// Passes a post that needs no cookie (a quote, a chat's consent click) unless the browser says
/// it came from another site's page (`another_site`), refused as `ApiError::CrossSite`.
pub fn from_this_site() -> BoxedFilter<()> {
    optional_header("sec-fetch-site")
        .and(optional_header("origin"))
        .and(optional_header("host"))
        .and(forwarded_proto::https())
        .and_then(
            |fetch_site: Option<HeaderValue>,
             origin: Option<HeaderValue>,
             host: Option<HeaderValue>,
             https| async move {
                if another_site(fetch_site.as_ref(), origin.as_ref(), host.as_ref(), https) {
                    Err(warp::reject::custom(ApiError::CrossSite))
                } else {
                    Ok(())
                }
            },
        )
        .untuple_one()
        .boxed()
}

/// `from_another_site` from the three headers it reads. `Sec-Fetch-Site` decides when present
/// (a browser sets it and no page can: `same-origin`, or `none` for what the user typed or
/// bookmarked); otherwise an `Origin` that is not this site's. A client that sends neither (a
/// script, an older browser) is not a page on another site and passes.
pub fn another_site(
    fetch_site: Option<&HeaderValue>,
    origin: Option<&HeaderValue>,
    host: Option<&HeaderValue>,
    https: bool,
) -> bool {
    if let Some(site) = fetch_site {
        let site = site.to_str().unwrap_or_default();
        return !(site.eq_ignore_ascii_case("same-origin") || site.eq_ignore_ascii_case("none"));
    }
    origin
        .and_then(|v| v.to_str().ok())
        .is_some_and(|origin| !is_this_site(host, origin, https))
}

/// `origin` is this site: `scheme://host` as the request reached us (the `Host` a proxy passes
/// on, the scheme it says in `X-Forwarded-Proto`).
fn is_this_site(host: Option<&HeaderValue>, origin: &str, https: bool) -> bool {
    let Some(host) = host.and_then(|v| v.to_str().ok()) else {
        return false;
    };
    let scheme = if https { "https" } else { "http" };
    origin
        .split_once("://")
        .is_some_and(|(origin_scheme, origin_host)| {
            origin_scheme.eq_ignore_ascii_case(scheme) && origin_host.eq_ignore_ascii_case(host)
        })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::trusted_proxies::headers;

    #[test]
    fn only_the_sites_own_pages() {
        let host = ("host", "broker.example.com");
        let from = |pairs: &[(&'static str, &str)], https| from_the_site(&headers(pairs), https);
        assert!(from(
            &[host, ("origin", "https://broker.example.com")],
            true
        ));
        assert!(!from(
            &[host, ("origin", "http://broker.example.com")],
            true
        ));
        assert!(!from(&[host, ("origin", "https://evil.example")], true));
        assert!(!from(&[host, ("origin", "null")], false));
        assert!(!from(&[host], false), "no evidence");
        assert!(from(&[("sec-fetch-site", "same-origin")], false));
        assert!(!from(&[host, ("sec-fetch-site", "cross-site")], false));
        assert!(!from(&[host, ("sec-fetch-site", "same-site")], false));
    }

    #[test]
    fn a_post_from_another_site_is_told_by_the_browser() {
        let host = ("host", "broker.example.com");
        let cross = |pairs: &[(&'static str, &str)]| from_another_site(&headers(pairs), true);
        assert!(!cross(&[host]), "a script or an old browser says nothing");
        assert!(!cross(&[host, ("sec-fetch-site", "same-origin")]));
        assert!(!cross(&[host, ("sec-fetch-site", "none")]));
        assert!(!cross(&[
            host,
            ("sec-fetch-site", "same-origin"),
            ("origin", "null")
        ]));
        assert!(cross(&[host, ("sec-fetch-site", "cross-site")]));
        assert!(cross(&[host, ("sec-fetch-site", "same-site")]));
        assert!(!cross(&[host, ("origin", "https://broker.example.com")]));
        assert!(cross(&[host, ("origin", "http://broker.example.com")]));
        assert!(cross(&[host, ("origin", "https://evil.example")]));
        assert!(cross(&[host, ("origin", "null")]));
        assert!(
            cross(&[("origin", "https://broker.example.com")]),
            "no Host"
        );
    }
}
