//! `GET /healthz`: the process is alive, whether its database answers, and whether leads reach
//! the broker. Failing deliveries are reported but leave the answer 200: the process serves, and
//! a restart would not help; an outside monitor watches `deliveries.status` (docs/operating.md).

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use time::OffsetDateTime;
use warp::filters::BoxedFilter;
use warp::http::StatusCode;
use warp::reply::Response;
use warp::{Filter, Reply};

use crate::http::page_reply::no_store;
use crate::http::route_list::with;
use crate::store::{format_timestamp, schema, Channel, FailingChannel, QuoteStore};

#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct Health {
    #[schema(schema_with = health_status)]
    status: &'static str,
    #[schema(schema_with = database_status)]
    database: &'static str,
    deliveries: Deliveries,
}

fn health_status() -> utoipa::openapi::Object {
    schema::words(&["ok", "degraded"])
}

fn database_status() -> utoipa::openapi::Object {
    schema::words(&["ok", "unavailable"])
}

/// Leads whose last delivery attempt failed, per channel. Never changes the status code: watch
/// status from outside (docs/operating.md).
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = HealthDeliveries)]
#[serde(deny_unknown_fields)]
struct Deliveries {
    /// failing: a lead has failed for longer than ALERT_AFTER_MINUTES; retrying: for less;
    /// unknown: the database did not answer.
    #[schema(schema_with = deliveries_status)]
    status: &'static str,
    /// Absent when unknown.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    channels: Option<Vec<Failing>>,
}

fn deliveries_status() -> utoipa::openapi::Object {
    schema::words(&["ok", "retrying", "failing", "unknown"])
}

/// A channel with leads whose last attempt failed.
#[derive(Debug, PartialEq, Serialize, utoipa::ToSchema)]
#[schema(as = HealthChannel)]
#[serde(deny_unknown_fields)]
struct Failing {
    channel: Channel,
    #[schema(minimum = 1)]
    leads: u32,
    /// When the oldest failing lead came in (RFC 3339, UTC).
    since: String,
    /// For longer than ALERT_AFTER_MINUTES.
    failing: bool,
}

/// Whether the process is up, its database answers, and leads are delivered.
///
/// `alert_after`: how long a channel fails before it reads as `failing` (`ALERT_AFTER_MINUTES`);
/// until then it is `retrying`.
#[utoipa::path(
    get,
    path = "/healthz",
    operation_id = "health",
    responses(
        (status = 200, description = "Ready.", body = Health),
        (status = 503, description = "The database does not answer.", body = Health),
    )
)]
pub fn routes(store: Arc<dyn QuoteStore>, alert_after: Duration) -> BoxedFilter<(Response,)> {
    warp::path!("healthz")
        .and(warp::get().or(warp::head()).unify())
        .and(with(store))
        .then(move |store: Arc<dyn QuoteStore>| async move {
            let (status, database) = match store.ping().await {
                Ok(()) => (StatusCode::OK, "ok"),
                Err(_) => (StatusCode::SERVICE_UNAVAILABLE, "unavailable"),
            };
            let ready = status == StatusCode::OK;
            // Not asked of a database that did not answer: a second wait would slow the check.
            let failing = match ready {
                true => store.failing_channels().await.ok(),
                false => None,
            };
            let deliveries = match failing {
                Some(failing) => deliveries(&failing, alert_after, OffsetDateTime::now_utc()),
                None => Deliveries {
                    status: "unknown",
                    channels: None,
                },
            };
            let body = Health {
                status: if ready { "ok" } else { "degraded" },
                database,
                deliveries,
            };
            no_store(warp::reply::with_status(warp::reply::json(&body), status).into_response())
        })
        .boxed()
}

/// `ok`, `retrying` (a lead's last attempt failed) or `failing` (one has failed for longer than
/// `alert_after`), and the channels concerned.
fn deliveries(
    failing: &[FailingChannel],
    alert_after: Duration,
    now: OffsetDateTime,
) -> Deliveries {
    let late = |channel: &FailingChannel| now - channel.since >= alert_after;
    let status = if failing.iter().any(late) {
        "failing"
    } else if failing.is_empty() {
        "ok"
    } else {
        "retrying"
    };
    let channels = failing
        .iter()
        .map(|channel| Failing {
            channel: channel.channel,
            leads: channel.leads,
            since: format_timestamp(channel.since),
            failing: late(channel),
        })
        .collect();
    Deliveries {
        status,
        channels: Some(channels),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn retrying_until_the_alert_threshold_then_failing() {
        let now = time::macros::datetime!(2026-11-26 12:00 UTC);
        let hour = Duration::from_secs(3600);
        assert_eq!(deliveries(&[], hour, now).status, "ok");
        let mut webhook = FailingChannel {
            channel: Channel::Webhook,
            leads: 2,
            since: now - time::Duration::minutes(59),
            error: "HTTP 503".into(),
        };
        assert_eq!(deliveries(&[webhook.clone()], hour, now).status, "retrying");
        webhook.since = now - time::Duration::minutes(61);
        let report = deliveries(&[webhook], hour, now);
        assert_eq!(report.status, "failing");
        assert_eq!(
            report.channels.unwrap()[0],
            Failing {
                channel: Channel::Webhook,
                leads: 2,
                since: "2026-11-26T10:59:00.000Z".into(),
                failing: true
            }
        );
    }
}
