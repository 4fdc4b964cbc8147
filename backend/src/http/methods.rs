//! Which methods a route answers: any other is refused with 405 and its `Allow` header.

use warp::http::Method;
use warp::{Filter, Rejection};

use crate::http::error::ApiError;

/// `allow` lists the methods as the `Allow` header does, for example `"GET, HEAD"`.
pub fn methods(allow: &'static str) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::method()
        .and_then(move |method: Method| async move {
            if allow.split(", ").any(|allowed| allowed == method.as_str()) {
                Ok(())
            } else {
                Err(warp::reject::custom(ApiError::MethodNotAllowed { allow }))
            }
        })
        .untuple_one()
}
