//! The consent page, `/consent/<token>` (`/es/consent/<token>` in Spanish), which the e-mail
//! "Ask for written consent" links to (`routes/admin/consent_request.rs`). It shows the exact
//! consent text of the page's language (`quote.phoneConsent`, as the form beside the phone field
//! shows it), the number's last four digits, an unticked box and a button, all server-rendered:
//! it works without JavaScript. A form post with the box ticked records written consent on the
//! lead the token names (`WrittenConsents`: its own record in the consent chain, channel
//! `consent_page`, with the client's address, browser and the text shown) and says so; without
//! the box, the form again with the reason and nothing recorded. A link this site did not sign,
//! or for a lead that is gone, is 404; an expired one 410. Posts are held to the quote form's
//! rate limits and refused from another site's page, as the quote form's are.

mod pages;

use std::sync::Arc;

use bytes::Bytes;
use time::OffsetDateTime;
use warp::filters::BoxedFilter;
use warp::http::{header, Method, StatusCode};
use warp::reply::Response;
use warp::Filter;

pub use pages::ConsentPages;
use pages::Page;

use super::link_page::{link_page, LinkRequest};
use super::quotes::limits::{Bucket, PostLimits};
use crate::forward::last_four;
use crate::http::error::ApiError;
use crate::http::page_reply;
use crate::http::route_list::with;
use crate::http::same_site::from_another_site;
use crate::leads::booking_link::BookingLinks;
use crate::leads::consent_link::{ConsentLinks, LinkError};
use crate::leads::notice::LeadNotices;
use crate::store::consent::ConsentChannel;
use crate::store::written_consent::{NewWrittenConsent, WrittenOutcome};
use crate::store::{CallConsent, Language, LeadStatus, QuoteStore};

/// A consent post is one small field.
const MAX_BODY_BYTES: usize = 4 * 1024;

/// What the page and the admin route's link share, made once at start; and the key of the link
/// a booking's confirmation carries (`routes/booking_manage`), signed the same way.
pub struct ConsentParts {
    pub links: Arc<ConsentLinks>,
    pub pages: Arc<ConsentPages>,
    pub booking_links: Arc<BookingLinks>,
}

pub struct ConsentPage {
    pub store: Arc<dyn QuoteStore>,
    pub links: Arc<ConsentLinks>,
    pub notices: Arc<LeadNotices>,
    pub pages: Arc<ConsentPages>,
    pub limits: Arc<PostLimits>,
}

pub fn routes(page: Arc<ConsentPage>) -> BoxedFilter<(Response,)> {
    let english = warp::path!("consent" / String);
    let spanish = warp::path!("es" / "consent" / String);
    link_page(english, spanish, &page.limits, MAX_BODY_BYTES)
        .and(with(Arc::clone(&page)))
        .then(|request, body: Bytes, page: Arc<ConsentPage>| async move {
            page.answer(request, &body, OffsetDateTime::now_utc()).await
        })
        .boxed()
}

impl ConsentPage {
    async fn answer(&self, request: LinkRequest, body: &[u8], now: OffsetDateTime) -> Response {
        let language = request.language;
        let (status, page) = self.outcome(&request, body, now).await;
        match page {
            Shown::Form {
                disclosure,
                last_four,
                unticked,
            } => {
                // The page's own path (the token percent-encoded as it came).
                let action = format!("{}/{}", page_path(language), request.token);
                let form = Page::Form {
                    disclosure: &disclosure,
                    last_four: &last_four,
                    action: &action,
                    unticked,
                };
                html(status, self.pages.render(&form, language))
            }
            Shown::Said(page) => html(status, self.pages.render(&page, language)),
        }
    }

    async fn outcome(
        &self,
        request: &LinkRequest,
        body: &[u8],
        now: OffsetDateTime,
    ) -> (StatusCode, Shown) {
        let language = request.language;
        let posted = request.method == Method::POST;
        if posted && from_another_site(&request.headers, request.https) {
            return (StatusCode::FORBIDDEN, Shown::Said(Page::CrossSite));
        }
        let agreed = posted && agrees(body);
        if posted {
            if let Err(limited) = self.limits.check(Bucket::of(agreed), request.client) {
                return failed(&limited, language);
            }
        }
        let lead_id = match self.links.check(&request.token, now) {
            Ok(lead_id) => lead_id,
            Err(LinkError::Invalid) => return (StatusCode::NOT_FOUND, Shown::Said(Page::Invalid)),
            Err(LinkError::Expired) => return (StatusCode::GONE, Shown::Said(Page::Expired)),
        };
        let lead = match self.store.lead(lead_id.clone()).await {
            Ok(Some(lead)) => lead.quote,
            Ok(None) => return (StatusCode::NOT_FOUND, Shown::Said(Page::Invalid)),
            Err(error) => {
                tracing::error!(%error, "reading the consent page's lead failed");
                return failed(&ApiError::from(error), language);
            }
        };
        let (Some(phone), Some(consent)) = (
            lead.contact.phone.as_deref(),
            self.notices.phone_consent(language, true),
        ) else {
            return (StatusCode::NOT_FOUND, Shown::Said(Page::Invalid));
        };
        if lead.status == LeadStatus::Spam {
            return (StatusCode::NOT_FOUND, Shown::Said(Page::Invalid));
        }
        if lead.call_consent == Some(CallConsent::Written) {
            return (StatusCode::OK, Shown::Said(Page::Already));
        }
        let form = |status, unticked| {
            (
                status,
                Shown::Form {
                    disclosure: consent.disclosure.clone(),
                    last_four: last_four(phone),
                    unticked,
                },
            )
        };
        if !posted {
            return form(StatusCode::OK, false);
        }
        if !agreed {
            return form(StatusCode::UNPROCESSABLE_ENTITY, true);
        }
        let user_agent = request
            .headers
            .get(header::USER_AGENT)
            .and_then(|agent| agent.to_str().ok())
            .map(str::to_owned);
        let given = NewWrittenConsent {
            lead_id,
            disclosure: consent.disclosure.clone(),
            channel: ConsentChannel::ConsentPage,
            page: page_path(language).to_owned(),
            language,
            client: request.client.map(|ip| ip.to_string()),
            user_agent,
            evidence: None,
            at: now,
        };
        match self.store.record_written_consent(given).await {
            Ok(WrittenOutcome::Recorded { seq }) => {
                tracing::info!(id = %lead.id, seq, "written consent given on the consent page");
                (StatusCode::OK, Shown::Said(Page::Given))
            }
            Ok(WrittenOutcome::AlreadyWritten) => (StatusCode::OK, Shown::Said(Page::Already)),
            Ok(WrittenOutcome::NotCallable) => (StatusCode::NOT_FOUND, Shown::Said(Page::Invalid)),
            Err(error) => {
                tracing::error!(%error, "recording written consent failed");
                failed(&ApiError::from(error), language)
            }
        }
    }
}

/// What the page shows, before it is written.
enum Shown {
    Form {
        disclosure: String,
        last_four: String,
        unticked: bool,
    },
    Said(Page<'static>),
}

fn failed(error: &ApiError, language: Language) -> (StatusCode, Shown) {
    (
        error.status(),
        Shown::Said(Page::Failed(error.message(language))),
    )
}

/// Whether the form was posted with the box ticked (`agree=yes`; the first value counts).
fn agrees(body: &[u8]) -> bool {
    form_urlencoded::parse(body)
        .find(|(name, _)| name == "agree")
        .is_some_and(|(_, value)| value == "yes")
}

/// The page, as the consent record keeps it: its path without the token.
fn page_path(language: Language) -> &'static str {
    page_reply::either(language, "/consent", "/es/consent")
}

fn html(status: StatusCode, page: String) -> Response {
    let mut response = page_reply::html(status, page);
    // The token is a key to the page: no link on it tells another site where it came from.
    response.headers_mut().insert(
        header::REFERRER_POLICY,
        warp::http::HeaderValue::from_static("no-referrer"),
    );
    response
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_ticked_box_agrees() {
        assert!(agrees(b"agree=yes"));
        assert!(agrees(b"x=1&agree=yes&agree=no"));
        assert!(!agrees(b""));
        assert!(!agrees(b"agree=no&agree=yes"));
        assert!(!agrees(b"agree="));
    }
}
