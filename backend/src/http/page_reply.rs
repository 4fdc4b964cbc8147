//! The answers the site's own form pages share (booking, opt-out, consent, the quote's result):
//! a page that is one visitor's, so never cached, and the `303` after a form's post; and their
//! paths in each language.

use warp::http::header::{CACHE_CONTROL, LOCATION};
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use crate::store::Language;

/// `english` or its Spanish twin `spanish` (a path, a page, its words), as `language` asks.
pub fn either<T>(language: Language, english: T, spanish: T) -> T {
    match language {
        Language::En => english,
        Language::Es => spanish,
    }
}

/// A page's English path or its Spanish twin, as the language it was asked in.
pub fn in_language(
    english: impl Filter<Extract = (), Error = Rejection> + Copy + Send + Sync + 'static,
    spanish: impl Filter<Extract = (), Error = Rejection> + Copy + Send + Sync + 'static,
) -> impl Filter<Extract = (Language,), Error = Rejection> + Copy + Send + Sync + 'static {
    english
        .map(|| Language::En)
        .or(spanish.map(|| Language::Es))
        .unify()
}

/// `body` as `text/html`, with `Cache-Control: no-store`.
pub fn html(status: StatusCode, body: String) -> Response {
    no_store(warp::reply::with_status(warp::reply::html(body), status).into_response())
}

/// `303 See Other` to `location`, with `Cache-Control: no-store`.
pub fn see_other(location: &'static str) -> Response {
    let mut response = no_store(StatusCode::SEE_OTHER.into_response());
    response
        .headers_mut()
        .insert(LOCATION, HeaderValue::from_static(location));
    response
}

/// `response` with `Cache-Control: no-store`.
pub fn no_store(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
