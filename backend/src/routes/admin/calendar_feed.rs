//! `/api/admin/calendar-feed`: the address of the broker's private calendar feed
//! (`routes/calendar_feed.rs`), `GET` making it on first asking, `POST` replacing it (the old
//! address then opens nothing). The address holds a secret of 256 random bits; whoever has it
//! reads the calls, so it is shown only here.

use std::sync::Arc;

use serde::Serialize;
use warp::http::Method;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::http::error::ApiError;
use crate::http::error_answers::{AdminErrors, CrossSite};
use crate::routes::calendar_feed;
use crate::settings::site::SiteSettings;
use crate::store::calendar_feed::CalendarFeed;
use crate::store::signer::random_key;
use crate::store::StoreError;

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = CalendarFeed)]
#[serde(deny_unknown_fields)]
pub struct Feed {
    /// The feed's address: SITE_URL and /calendar/<secret>.ics.
    url: String,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the calendar feed's secret failed");
    warp::reject::custom(ApiError::from(error))
}

/// The caller is already checked.
pub async fn handle(
    store: Arc<dyn CalendarFeed>,
    site: Arc<SiteSettings>,
    method: Method,
) -> Result<Response, Rejection> {
    let secret = if method == Method::POST {
        replace(store.as_ref()).await?
    } else {
        show(store.as_ref()).await?
    };
    let path = calendar_feed::path(&secret);
    let url = site.page(&path).unwrap_or(path);
    Ok(warp::reply::json(&Feed { url }).into_response())
}

/// The address of the broker's private calendar feed (/calendar/<secret>.ics: every call booked
/// and not yet over, as text/calendar, for a calendar app to subscribe to), made on first asking
/// and the same until replaced. Whoever has the address reads the calls: keep it as a password.
#[utoipa::path(
    get,
    path = "/api/admin/calendar-feed",
    operation_id = "getCalendarFeed",
    responses((status = 200, description = "The feed's address.", body = Feed), AdminErrors)
)]
async fn show(store: &dyn CalendarFeed) -> Result<String, Rejection> {
    store.feed_secret(random_key()).await.map_err(failed)
}

/// Replaces the calendar feed's address with a new secret one: the old address answers 404 from
/// now on. No body.
#[utoipa::path(
    post,
    path = "/api/admin/calendar-feed",
    operation_id = "replaceCalendarFeed",
    responses((status = 200, description = "The feed's new address.", body = Feed), AdminErrors, CrossSite)
)]
async fn replace(store: &dyn CalendarFeed) -> Result<String, Rejection> {
    let secret = random_key();
    store
        .replace_feed_secret(secret.clone())
        .await
        .map_err(failed)?;
    tracing::info!("the calendar feed's address was replaced");
    Ok(secret)
}
