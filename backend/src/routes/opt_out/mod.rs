//! `/opt-out` and `/es/opt-out`: a visitor puts their own phone number and e-mail address on the
//! do-not-contact list (`store::do_not_contact`), no JavaScript needed. The page is a plain form;
//! its post (`application/x-www-form-urlencoded`) is refused from another site's page as the
//! quote form's is (`http::same_site`), counted by the quote posts' rate limit (`PostLimits`: a
//! request taken spends a quote's token, a wrong one the looser invalid posts' one), and, when
//! taken, answered `303` to the confirmation page in its language (POST, redirect, GET: a reload
//! does not post again, and nothing typed is in a URL). A wrong post is answered `422` with the
//! form again, what was typed in it. The phone number is read by the quote form's rules (E.164),
//! the address as the quote form reads it and kept in lower case.

mod pages;

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap, HeaderValue, StatusCode};
use warp::reply::Response as Reply;
use warp::Filter;
use wasm_core::{Email, Phone};

pub use pages::OptOutPages;
use pages::{Page, Typed};

use crate::http::body::{self, trimmed};
use crate::http::error::ApiError;
use crate::http::forwarded_proto;
use crate::http::page_reply::{either, html, in_language, see_other};
use crate::http::same_site::from_another_site;
use crate::routes::quotes::limits::{Bucket, PostLimits};
use crate::store::do_not_contact::OptOuts;
use crate::store::Language;

/// Far more than an address and a number.
const MAX_BODY_BYTES: usize = 4 * 1024;

/// The form's page in `language`, which it posts to.
pub fn form_path(language: Language) -> &'static str {
    either(language, "/opt-out", "/es/opt-out")
}

pub fn routes(
    store: Arc<dyn OptOuts>,
    limits: Arc<PostLimits>,
    pages: Arc<OptOutPages>,
) -> BoxedFilter<(Reply,)> {
    let form = in_language(warp::path!("opt-out"), warp::path!("es" / "opt-out"));
    let done = in_language(
        warp::path!("opt-out" / "done"),
        warp::path!("es" / "opt-out" / "done"),
    );
    let show_form = shown(form, Arc::clone(&pages), Page::Form);
    let show_done = shown(done, Arc::clone(&pages), Page::Done);
    let post = form
        .and(warp::post())
        .and(limits.client())
        .and(forwarded_proto::headers_and_https())
        .and(body::limited(MAX_BODY_BYTES))
        .then(move |language, client, headers, https, body: Bytes| {
            let (store, limits, pages) =
                (Arc::clone(&store), Arc::clone(&limits), Arc::clone(&pages));
            async move {
                submit(
                    &*store,
                    &limits,
                    &pages,
                    language,
                    Sent {
                        client,
                        headers,
                        https,
                        body,
                    },
                )
                .await
            }
        });
    show_form.or(show_done).unify().or(post).unify().boxed()
}

/// `GET` of `paths`: `page`, its form empty, in the path's language.
fn shown(
    paths: impl Filter<Extract = (Language,), Error = warp::Rejection> + Clone + Send + Sync + 'static,
    pages: Arc<OptOutPages>,
    shown: Page,
) -> BoxedFilter<(Reply,)> {
    paths
        .and(warp::get())
        .map(move |language| page(&pages, shown, language, &Typed::default(), StatusCode::OK))
        .boxed()
}

/// A post as it came.
struct Sent {
    client: Option<IpAddr>,
    headers: HeaderMap,
    https: bool,
    body: Bytes,
}

async fn submit(
    store: &dyn OptOuts,
    limits: &PostLimits,
    pages: &OptOutPages,
    language: Language,
    sent: Sent,
) -> Reply {
    let typed = typed(&sent.body);
    if from_another_site(&sent.headers, sent.https) {
        return page(
            pages,
            Page::AnotherSite,
            language,
            &typed,
            StatusCode::FORBIDDEN,
        );
    }
    let checked = check(&typed);
    if let Err(limited) = limits.check(Bucket::of(checked.is_ok()), sent.client) {
        return failed(pages, language, &typed, &limited);
    }
    let (phone, email) = match checked {
        Ok(valid) => valid,
        Err(wrong) => {
            return page(
                pages,
                wrong,
                language,
                &typed,
                StatusCode::UNPROCESSABLE_ENTITY,
            );
        }
    };
    let now = time::OffsetDateTime::now_utc();
    match store.opt_out(phone, email, now).await {
        Ok(()) => {
            tracing::info!("a visitor put themselves on the do-not-contact list");
            see_other(either(language, "/opt-out/done", "/es/opt-out/done"))
        }
        Err(error) => {
            tracing::error!(%error, "cannot store a visitor's opt-out");
            failed(pages, language, &typed, &ApiError::from(error))
        }
    }
}

/// The form's `email` and `phone`, the first of each, trimmed.
fn typed(body: &[u8]) -> Typed {
    let [email, phone] = body::first_values(body, ["email", "phone"]).map(trimmed);
    Typed { email, phone }
}

/// The phone number in E.164 and the address in lower case, or the page saying what is wrong.
fn check(typed: &Typed) -> Result<(Option<String>, Option<String>), Page> {
    let phone = (!typed.phone.is_empty()).then(|| Phone::parse(&typed.phone));
    let email = (!typed.email.is_empty()).then(|| Email::parse(&typed.email));
    match (phone, email) {
        (None, None) => Err(Page::Missing),
        (Some(Err(_)), Some(None)) => Err(Page::InvalidBoth),
        (Some(Err(_)), _) => Err(Page::InvalidPhone),
        (_, Some(None)) => Err(Page::InvalidEmail),
        (phone, email) => Ok((
            phone.and_then(Result::ok).map(|p| p.as_str().to_owned()),
            email.flatten().map(|e| e.as_str().to_lowercase()),
        )),
    }
}

/// The form again with the failure's status (and its `Retry-After`).
fn failed(pages: &OptOutPages, language: Language, typed: &Typed, error: &ApiError) -> Reply {
    let mut response = page(pages, Page::Failed, language, typed, error.status());
    if let ApiError::RateLimited { retry_after_secs } = *error {
        let value = HeaderValue::from(retry_after_secs);
        response.headers_mut().insert(header::RETRY_AFTER, value);
    }
    response
}

fn page(
    pages: &OptOutPages,
    page: Page,
    language: Language,
    typed: &Typed,
    status: StatusCode,
) -> Reply {
    html(status, pages.render(page, language, typed))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn checked(email: &str, phone: &str) -> Result<(Option<String>, Option<String>), Page> {
        check(&Typed {
            email: email.into(),
            phone: phone.into(),
        })
    }

    #[test]
    fn either_or_both_each_by_the_quote_forms_rules() {
        assert_eq!(checked("", ""), Err(Page::Missing));
        assert_eq!(checked("ana@", ""), Err(Page::InvalidEmail));
        assert_eq!(checked("", "555"), Err(Page::InvalidPhone));
        assert_eq!(checked("ana@", "555"), Err(Page::InvalidBoth));
        assert_eq!(checked("ana@example.com", "555"), Err(Page::InvalidPhone));
        assert_eq!(
            checked("Ana@Example.COM", ""),
            Ok((None, Some("ana@example.com".into())))
        );
        assert_eq!(
            checked("", "(512) 555-0123"),
            Ok((Some("+15125550123".into()), None))
        );
    }

    #[test]
    fn the_first_of_each_field_trimmed() {
        let typed = typed(b"email=+ana%40x.co+&email=b%40x.co&phone=512&lang=es&x=1");
        assert_eq!(
            typed,
            Typed {
                email: "ana@x.co".into(),
                phone: "512".into()
            }
        );
    }
}
