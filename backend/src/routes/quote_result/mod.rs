//! `GET /quote-result`: the page a quote form post without JavaScript is sent to (POST, then
//! `303`, then this GET), telling the outcome in the product's words. The outcome comes in a
//! short-lived HttpOnly cookie the post set, and the page clears it as it reads it; the URL, the
//! `Location` and so the logs never hold what was typed.

mod outcome;
mod pages;

use warp::filters::BoxedFilter;
use warp::http::{header, HeaderValue, StatusCode};
use warp::reply::Response as Reply;
use warp::Filter;

pub use outcome::{Failure, Outcome, Typed};
pub use pages::{escaped, fill_slots, ResultPages};

use std::time::Duration;

use crate::http::cookies::SiteCookie;
use crate::http::page_reply::{either, html, in_language, see_other};
use crate::store::Language;

pub const RESULT_PATH: &str = "/quote-result";
/// The Spanish site's result page (a post from `/es/`).
pub const SPANISH_RESULT_PATH: &str = "/es/quote-result";
/// Kept long enough for the browser to follow the redirect on a slow connection, short enough
/// that a shared computer does not keep what was typed.
const OUTCOME_COOKIE: SiteCookie =
    SiteCookie::named("quote_result", Some(Duration::from_secs(300)));
/// Where a visit without an outcome (a reload, a bookmark) goes: the form itself.
const FORM_PATH: &str = "/#quote";
const SPANISH_FORM_PATH: &str = "/es/#quote";

/// The result page and the form of the page's language.
fn paths(language: Language) -> (&'static str, &'static str) {
    either(
        language,
        (RESULT_PATH, FORM_PATH),
        (SPANISH_RESULT_PATH, SPANISH_FORM_PATH),
    )
}

/// The quote form on the page in `language`.
pub fn form_path(language: Language) -> &'static str {
    paths(language).1
}

/// The post's answer: `303` to the result page in the form's `language`, the outcome in the
/// cookie (`Secure` over HTTPS, so what was typed never goes back over plain HTTP).
pub fn redirect(outcome: &Outcome, language: Language, https: bool) -> Reply {
    let (result_path, _) = paths(language);
    let cookie = OUTCOME_COOKIE.set(&outcome.encode(), result_path, https);
    with_cookie(see_other(result_path), cookie)
}

fn with_cookie(mut response: Reply, cookie: HeaderValue) -> Reply {
    response.headers_mut().insert(header::SET_COOKIE, cookie);
    response
}

pub fn routes(pages: std::sync::Arc<ResultPages>) -> BoxedFilter<(Reply,)> {
    in_language(
        warp::path!("quote-result"),
        warp::path!("es" / "quote-result"),
    )
    .and(warp::get())
    .and(warp::cookie::optional::<String>(OUTCOME_COOKIE.name))
    .map(move |language: Language, cookie: Option<String>| {
        let (result_path, form_path) = paths(language);
        let page = cookie
            .as_deref()
            .and_then(Outcome::decode)
            .and_then(|outcome| pages.render(&outcome, language));
        let Some(page) = page else {
            return see_other(form_path);
        };
        // Cleared as the page reads it; `Secure` is not needed to drop a cookie.
        let clear = OUTCOME_COOKIE.clear(result_path, false);
        with_cookie(html(StatusCode::OK, page), clear)
    })
    .boxed()
}
