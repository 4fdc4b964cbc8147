//! Reading one request header as a filter, without copying the whole header map.

use std::convert::Infallible;

use warp::http::HeaderValue;
use warp::Filter;

/// The value of header `name`, if the request has one.
pub fn optional_header(
    name: &'static str,
) -> impl Filter<Extract = (Option<HeaderValue>,), Error = Infallible> + Clone {
    warp::header::value(name)
        .map(Some)
        .or(warp::any().map(|| None))
        .unify()
}
