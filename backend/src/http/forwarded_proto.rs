//! Whether a request came over HTTPS. The server itself speaks plain HTTP, so HTTPS means a
//! trusted proxy (`TRUSTED_PROXIES`) terminated TLS and said so in `X-Forwarded-Proto` (or
//! `Forwarded: proto=`); the same header from anyone else is ignored.

use std::convert::Infallible;
use std::net::IpAddr;

use warp::http::HeaderMap;
use warp::Filter;

use crate::settings::trusted_proxies::TrustedProxies;

/// Whether a request came over HTTPS, put in its extensions by the accept loop (`connections`),
/// which works it out once per request with `is_https`.
#[derive(Clone, Copy, Debug)]
pub struct Https(pub bool);

/// Whether each request came over HTTPS (`false` outside a real connection, as in `warp::test`).
pub fn https() -> impl Filter<Extract = (bool,), Error = Infallible> + Copy {
    warp::ext::optional::<Https>().map(|https: Option<Https>| https.is_some_and(|Https(on)| on))
}

/// Each request's headers, and whether it came over HTTPS.
pub fn headers_and_https() -> impl Filter<Extract = (HeaderMap, bool), Error = Infallible> + Copy {
    warp::header::headers_cloned().and(https())
}

pub fn is_https(proxies: &TrustedProxies, peer: Option<IpAddr>, headers: &HeaderMap) -> bool {
    if !peer.is_some_and(|peer| proxies.trusts(peer)) {
        return false;
    }
    // The proxy next to us appends last: its word is the rightmost element over all the lines.
    let last = |name| {
        headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|line| line.rsplit(',').next())
            .last()
    };
    if let Some(proto) = last("x-forwarded-proto").filter(|v| !v.trim().is_empty()) {
        return proto.trim().eq_ignore_ascii_case("https");
    }
    last("forwarded")
        .and_then(|element| {
            element
                .split(';')
                .filter_map(|pair| pair.split_once('='))
                .find(|(name, _)| name.trim().eq_ignore_ascii_case("proto"))
                .map(|(_, value)| value.trim().trim_matches('"').eq_ignore_ascii_case("https"))
        })
        .unwrap_or(false)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::trusted_proxies::{headers, DEFAULT_TRUSTED_PROXIES};

    #[test]
    fn only_a_trusted_proxy_can_say_https() {
        let proxies = TrustedProxies::parse(DEFAULT_TRUSTED_PROXIES).unwrap();
        let local = Some("127.0.0.1".parse().unwrap());
        let remote = Some("203.0.113.9".parse().unwrap());
        let https = headers(&[("x-forwarded-proto", "https")]);
        assert!(is_https(&proxies, local, &https));
        assert!(!is_https(&proxies, remote, &https));
        assert!(!is_https(&proxies, None, &https));
        assert!(!is_https(&proxies, local, &headers(&[])));
        assert!(!is_https(
            &proxies,
            local,
            &headers(&[("x-forwarded-proto", "https, http")])
        ));
        assert!(is_https(
            &proxies,
            local,
            &headers(&[("forwarded", "for=1.2.3.4;proto=https")])
        ));
    }
}
