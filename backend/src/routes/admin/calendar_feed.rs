//! `/api/admin/calendar-feed`: the address of the broker's private calendar feed
//! (`routes/calendar_feed.rs`), `GET` making it on first asking, `POST` replacing it (the old
//! address then opens nothing). The address holds a secret of 256 random bits; whoever has it
//! reads the calls, so it is shown only here.

use std::sync::Arc;

use argon2::password_hash::rand_core::{OsRng, RngCore};
use serde::Serialize;
use warp::http::Method;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::http::error::ApiError;
use crate::routes::calendar_feed;
use crate::settings::site::SiteSettings;
use crate::store::calendar_feed::CalendarFeed;
use crate::store::StoreError;

#[derive(Serialize)]
struct Feed {
    url: String,
}

fn failed(error: StoreError) -> Rejection {
    tracing::error!(%error, "reading the calendar feed's secret failed");
    warp::reject::custom(ApiError::from(error))
}

fn new_secret() -> String {
    let mut secret = [0u8; 32];
    OsRng.fill_bytes(&mut secret);
    hex::encode(secret)
}

/// The caller is already checked.
pub async fn handle(
    store: Arc<dyn CalendarFeed>,
    site: Arc<SiteSettings>,
    method: Method,
) -> Result<Response, Rejection> {
    let secret = if method == Method::POST {
        let secret = new_secret();
        store
            .replace_feed_secret(secret.clone())
            .await
            .map_err(failed)?;
        tracing::info!("the calendar feed's address was replaced");
        secret
    } else {
        store.feed_secret(new_secret()).await.map_err(failed)?
    };
    let path = calendar_feed::path(&secret);
    let url = site.page(&path).unwrap_or(path);
    Ok(warp::reply::json(&Feed { url }).into_response())
}
