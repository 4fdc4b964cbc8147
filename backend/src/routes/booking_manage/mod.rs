//! `/book/manage/<token>` (`/es/book/manage/<token>`), the page the link in a booking's
//! confirmation opens (`leads::booking_link`), written by the server and working without
//! JavaScript: `GET` shows the call with a button to cancel it and the open times to move it to;
//! `POST` (`action=cancel`, or `action=move` with `slot`) does it. A post from another site's
//! page is `403` and changes nothing; posts count against the quote posts' rate limit (`429`),
//! as the booking form's do. The link works once: a booking cancelled or moved (or whose time
//! has passed) answers `410`, a token this site did not sign or for no booking `404`, each with
//! a page that says so. A move takes the new time and cancels the old in one transaction
//! (`store::bookings`), which queues the broker's cancellation and the new booking's e-mails; a
//! time taken meanwhile is `409` with the times still open, one not offered `422`.

mod page;

use std::sync::Arc;

use bytes::Bytes;
use jiff::Timestamp;
use time::OffsetDateTime;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderValue, Method, StatusCode};
use warp::reply::Response as Reply;
use warp::Filter;

use super::booking::{moment, BookingSite, OpenNow};
use super::link_page::{link_page, LinkRequest};
use super::quotes::limits::{Bucket, PostLimits};
use crate::http::body;
use crate::http::error::ApiError;
use crate::http::page_reply::html;
use crate::http::route_list::{off, with};
use crate::http::same_site::from_another_site;
use crate::leads::booking_link::{self, BookingLinks};
use crate::leads::booking_words::BookingWords;
use crate::store::bookings::{Booking, Bookings, Cancelled, Moved};
use page::Shown;

/// An action and a time.
const MAX_BODY_BYTES: usize = 1024;

pub struct BookingManage {
    pub store: Arc<dyn Bookings>,
    pub site: BookingSite,
    pub words: Arc<BookingWords>,
    pub links: Arc<BookingLinks>,
    pub limits: Arc<PostLimits>,
}

/// Off (the site's 404, as any unknown path) without booking in the build.
pub fn routes(manage: Option<BookingManage>) -> BoxedFilter<(Reply,)> {
    let Some(manage) = manage else {
        return off();
    };
    let manage = Arc::new(manage);
    let english = warp::path!("book" / "manage" / String);
    let spanish = warp::path!("es" / "book" / "manage" / String);
    link_page(english, spanish, &manage.limits, MAX_BODY_BYTES)
        .and(with(Arc::clone(&manage)))
        .then(
            |request, body: Bytes, manage: Arc<BookingManage>| async move {
                manage.answer(request, &body).await
            },
        )
        .boxed()
}

impl BookingManage {
    async fn answer(&self, request: LinkRequest, body: &[u8]) -> Reply {
        let language = request.language;
        let (status, shown) = self.outcome(&request, body).await;
        let action = booking_link::path(&request.token, language);
        let mut reply = html(status, page::render(self, &shown, &action, language));
        if let Some(retry_after) = shown.retry_after() {
            let value = HeaderValue::from(retry_after);
            reply.headers_mut().insert(header::RETRY_AFTER, value);
        }
        reply
    }

    async fn outcome(&self, request: &LinkRequest, body: &[u8]) -> (StatusCode, Shown) {
        let Some(id) = self.links.check(&request.token) else {
            return (StatusCode::NOT_FOUND, Shown::Unknown);
        };
        let booking = match self.store.booking(id.clone()).await {
            Ok(Some(booking)) => booking,
            Ok(None) => return (StatusCode::NOT_FOUND, Shown::Unknown),
            Err(error) => return failed(&ApiError::from(error)),
        };
        let now = OffsetDateTime::now_utc();
        if !still_to_come(&booking, now) {
            return (StatusCode::GONE, Shown::Gone);
        }
        if request.method != Method::POST {
            return self.form(booking, None, StatusCode::OK).await;
        }
        if from_another_site(&request.headers, request.https) {
            let alert = page::plain(request.language).another_site.to_owned();
            return self.form(booking, Some(alert), StatusCode::FORBIDDEN).await;
        }
        // The post's `action` and `slot`.
        let [action, slot] = body::first_values(body, ["action", "slot"]).map(body::trimmed);
        let valid_slot = slot.parse::<Timestamp>().ok();
        let valid = action == "cancel" || (action == "move" && valid_slot.is_some());
        if let Err(limited) = self.limits.check(Bucket::of(valid), request.client) {
            let status = limited.status();
            let (_, mut shown) = self
                .form(
                    booking,
                    Some(page::plain(request.language).failed.to_owned()),
                    status,
                )
                .await;
            if let (ApiError::RateLimited { retry_after_secs }, Shown::Form(form)) =
                (limited, &mut shown)
            {
                form.retry_after = Some(retry_after_secs);
            }
            return (status, shown);
        }
        let errors = &self.site.texts(request.language).errors;
        match (action.as_str(), valid_slot) {
            ("cancel", _) => match self.store.cancel_booking(id, now).await {
                Ok(Cancelled::Now) => {
                    tracing::info!(booking = %booking.id, "a visitor cancelled their call");
                    (StatusCode::OK, Shown::Cancelled)
                }
                Ok(Cancelled::Already) => (StatusCode::GONE, Shown::Gone),
                Ok(Cancelled::Unknown) => (StatusCode::NOT_FOUND, Shown::Unknown),
                Err(error) => failed(&ApiError::from(error)),
            },
            ("move", Some(start)) => self.move_to(booking, start, errors).await,
            _ => {
                let alert = errors.slot.clone();
                self.form(booking, Some(alert), StatusCode::UNPROCESSABLE_ENTITY)
                    .await
            }
        }
    }

    async fn move_to(
        &self,
        booking: Booking,
        start: Timestamp,
        errors: &super::booking::Errors,
    ) -> (StatusCode, Shown) {
        let open = match OpenNow::read(self.store.as_ref()).await {
            Ok(open) => open,
            Err(error) => return failed(&ApiError::from(error)),
        };
        let Some(slot) = open.slot(&self.site.hours, start) else {
            let (alert, status) = match open.taken_meanwhile(&self.site.hours, start) {
                true => (errors.taken.clone(), StatusCode::CONFLICT),
                false => (errors.slot.clone(), StatusCode::UNPROCESSABLE_ENTITY),
            };
            return self.form(booking, Some(alert), status).await;
        };
        let at = OffsetDateTime::now_utc();
        let moved = self
            .store
            .move_booking(booking.id.clone(), moment(slot.start), moment(slot.end), at)
            .await;
        match moved {
            Ok(Moved::New { id }) => {
                tracing::info!(booking = %booking.id, new = %id, "a visitor moved their call");
                (StatusCode::OK, Shown::Moved(slot.start))
            }
            Ok(Moved::Taken) => {
                let alert = errors.taken.clone();
                self.form(booking, Some(alert), StatusCode::CONFLICT).await
            }
            Ok(Moved::NotBooked) => (StatusCode::GONE, Shown::Gone),
            Err(error) => failed(&ApiError::from(error)),
        }
    }

    /// The call with its buttons and the times open now.
    async fn form(
        &self,
        booking: Booking,
        alert: Option<String>,
        status: StatusCode,
    ) -> (StatusCode, Shown) {
        let times = match OpenNow::read(self.store.as_ref()).await {
            Ok(open) => open.times(&self.site.hours),
            Err(error) => return failed(&ApiError::from(error)),
        };
        let start = booking.starts_at.parse().unwrap_or(Timestamp::UNIX_EPOCH);
        let form = page::Form {
            start,
            times,
            alert,
            retry_after: None,
        };
        (status, Shown::Form(Box::new(form)))
    }
}

fn failed(error: &ApiError) -> (StatusCode, Shown) {
    (error.status(), Shown::Failed)
}

/// Booked, and its time not yet come.
fn still_to_come(booking: &Booking, now: OffsetDateTime) -> bool {
    booking.status == "booked"
        && OffsetDateTime::parse(
            &booking.starts_at,
            &time::format_description::well_known::Rfc3339,
        )
        .is_ok_and(|start| start > now)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_action_and_slot() {
        let body = b"action=move&slot=+2026-03-09T15%3A00%3A00Z+&action=cancel&slot=x";
        let [action, slot] = body::first_values(body, ["action", "slot"]).map(body::trimmed);
        assert_eq!(action, "move");
        assert_eq!(slot, "2026-03-09T15:00:00Z");
    }
}
