//! The security headers (`settings::security_headers`) on every response, but for a header its
//! route set itself: a stored recording's `Content-Security-Policy: sandbox` is kept, not
//! replaced by the pages' policy.

use std::sync::Arc;

use warp::http::HeaderMap;
use warp::reply::Response;
use warp::Reply;

/// `reply` with each of `headers` it does not already have.
pub fn unless_set(reply: impl Reply, headers: &Arc<HeaderMap>) -> Response {
    let mut response = reply.into_response();
    for (name, value) in headers.iter() {
        response
            .headers_mut()
            .entry(name)
            .or_insert_with(|| value.clone());
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::HeaderValue;

    #[test]
    fn a_routes_own_header_is_kept_and_the_others_are_added() {
        let mut defaults = HeaderMap::new();
        defaults.insert(
            "content-security-policy",
            HeaderValue::from_static("default-src 'self'"),
        );
        defaults.insert("x-frame-options", HeaderValue::from_static("DENY"));
        let defaults = Arc::new(defaults);
        let own = warp::reply::with_header("ok", "content-security-policy", "sandbox");
        let response = unless_set(own, &defaults);
        assert_eq!(response.headers()["content-security-policy"], "sandbox");
        assert_eq!(response.headers()["x-frame-options"], "DENY");
        let plain = unless_set("ok", &defaults);
        assert_eq!(
            plain.headers()["content-security-policy"],
            "default-src 'self'"
        );
    }
}
