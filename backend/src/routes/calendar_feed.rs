//! The broker's private calendar feed, `/calendar/<secret>.ics` (docs/product.md §13): every
//! call booked and not yet over, as iCalendar (`leads::calendar`), for a calendar app to
//! subscribe to. The secret is the one `/api/admin/calendar-feed` shows (`store::calendar_feed`);
//! any other, or one replaced, is 404 like any unknown path.

use std::sync::Arc;

use subtle::ConstantTimeEq;
use time::OffsetDateTime;
use warp::filters::BoxedFilter;
use warp::http::{header, Response, StatusCode};
use warp::reply::Response as Reply;
use warp::{Filter, Reply as _};

use crate::http::error::store_failed;
use crate::http::methods::methods;
use crate::leads::calendar::{self, Call};
use crate::store::bookings::{Bookings, Upcoming};
use crate::store::calendar_feed::CalendarFeed;

const FEED_NAME: &str = "Booked calls";
const SUFFIX: &str = ".ics";

/// The feed's path for `secret`.
pub fn path(secret: &str) -> String {
    format!("/calendar/{secret}{SUFFIX}")
}

pub fn routes(feeds: Arc<dyn CalendarFeed>, bookings: Arc<dyn Bookings>) -> BoxedFilter<(Reply,)> {
    warp::path!("calendar" / String)
        .and(methods("GET, HEAD"))
        .and_then(move |file: String| {
            let (feeds, bookings) = (Arc::clone(&feeds), Arc::clone(&bookings));
            async move { answer(feeds.as_ref(), bookings.as_ref(), &file).await }
        })
        .boxed()
}

async fn answer(
    feeds: &dyn CalendarFeed,
    bookings: &dyn Bookings,
    file: &str,
) -> Result<Reply, warp::Rejection> {
    let given = file
        .strip_suffix(SUFFIX)
        .ok_or_else(warp::reject::not_found)?;
    let secret = feeds
        .current_feed_secret()
        .await
        .map_err(store_failed("cannot read the calendar feed's secret"))?;
    let opens = secret.is_some_and(|secret| bool::from(secret.as_bytes().ct_eq(given.as_bytes())));
    if !opens {
        return Err(warp::reject::not_found());
    }
    let now = OffsetDateTime::now_utc();
    let upcoming = bookings
        .upcoming_bookings(now)
        .await
        .map_err(store_failed("cannot read the calls to come"))?;
    let names: Vec<&str> = upcoming
        .iter()
        .map(|Upcoming { booking, .. }| {
            booking
                .soa
                .as_ref()
                .map_or("", |soa| soa.signature.as_str())
        })
        .collect();
    let summaries: Vec<String> = names
        .iter()
        .map(|name| format!("Call with {name}"))
        .collect();
    let calls: Vec<Call> = upcoming
        .iter()
        .zip(names.into_iter().zip(&summaries))
        .map(|(Upcoming { booking, phone }, (name, summary))| Call {
            booking,
            name,
            phone: phone.as_deref(),
            email: None,
            summary,
            organizer: None,
            attendee: None,
        })
        .collect();
    let body = calendar::feed(FEED_NAME, &calls, now);
    Ok(Response::builder()
        .status(StatusCode::OK)
        .header(header::CONTENT_TYPE, "text/calendar; charset=utf-8")
        .header(header::CACHE_CONTROL, "no-store")
        .body(body.into())
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response()))
}
