//! Requests whose target is not a path: `CONNECT host:port` (authority-form) and `OPTIONS *`
//! (asterisk-form). This server is no proxy and answers for no "whole server", so both are
//! refused with `400 invalid_request_target` before any route reads the path (warp's
//! `path::full()` panics on a target without one).
//!
//! Only the accept loop sees the raw request, so it marks such a request (`mark`) and the
//! `paths_only` filter refuses it, through the one `recover` and the request log like any error.

use warp::{Filter, Rejection};

use crate::http::error::ApiError;

/// Put in a request's extensions when its target has no path.
#[derive(Clone, Copy, Debug)]
struct NotAPath;

/// Marks `request` when its target is not origin-form or absolute-form (both always have a
/// path starting with `/`; `http` gives an authority-form target the path `""` and an
/// asterisk-form one `"*"`).
pub fn mark<B>(request: &mut warp::http::Request<B>) {
    if !request.uri().path().starts_with('/') {
        request.extensions_mut().insert(NotAPath);
    }
}

/// Refuses a request `mark` marked.
pub fn paths_only() -> impl Filter<Extract = (), Error = Rejection> + Clone {
    unmarked::<NotAPath>(ApiError::InvalidRequestTarget)
}

/// Refuses, as `error`, a request the accept loop marked with an `M` (here, and in `head_size`).
pub fn unmarked<M: Clone + Send + Sync + 'static>(
    error: ApiError,
) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::ext::optional::<M>()
        .and_then(move |marked: Option<M>| {
            let refused = marked.map(|_| warp::reject::custom(error.clone()));
            async move { refused.map_or(Ok(()), Err) }
        })
        .untuple_one()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn marked(target: &str, method: &str) -> bool {
        let mut request = warp::http::Request::builder()
            .method(method)
            .uri(target)
            .body(())
            .unwrap();
        mark(&mut request);
        request.extensions().get::<NotAPath>().is_some()
    }

    #[test]
    fn only_targets_without_a_path_are_marked() {
        assert!(marked("127.0.0.1:22", "CONNECT"));
        assert!(marked("example.com:443", "CONNECT"));
        assert!(marked("*", "OPTIONS"));
        assert!(!marked("/", "GET"));
        assert!(!marked("/api/quote-requests?x=1", "POST"));
        assert!(
            !marked("http://example.com", "GET"),
            "absolute-form has the path /"
        );
        assert!(!marked("http://example.com/a", "GET"));
    }
}
