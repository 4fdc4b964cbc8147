//! What the delivery alerts ask of a store: which channels have leads still retried after a
//! failed attempt, and the open incidents, one row per channel (`delivery_incidents`), so that
//! instances sharing a database send one alert per incident. The SQL is written once for both.

use futures_util::future::BoxFuture;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::model::Channel;
use super::rows::NamedRow;
use super::{Cause, StoreError};

/// A channel with leads whose last attempt failed and that are still retried.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FailingChannel {
    pub channel: Channel,
    pub leads: u32,
    /// When the oldest of them was created (its first attempt).
    pub since: OffsetDateTime,
    /// One of their errors, as the channel reported it.
    pub error: String,
}

pub trait DeliveryAlerts: Send + Sync {
    fn failing_channels(&self) -> BoxFuture<'_, Result<Vec<FailingChannel>, StoreError>>;

    /// Opens `channel`'s incident; false when one is already open (another instance alerted).
    fn open_incident(
        &self,
        channel: Channel,
        since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Closes `channel`'s incident; false when none was open (another instance closed it).
    fn close_incident(&self, channel: Channel) -> BoxFuture<'_, Result<bool, StoreError>>;

    fn open_incidents(&self) -> BoxFuture<'_, Result<Vec<Channel>, StoreError>>;
}

pub const FAILING_CHANNELS: &str = "SELECT o.channel AS channel,
        CAST(COUNT(*) AS INTEGER) AS leads,
        MIN(q.created_at) AS since,
        MAX(o.last_error) AS error
    FROM lead_outbox o JOIN quote_requests q ON q.id = o.quote_id
    WHERE o.delivered_at IS NULL AND o.gave_up_at IS NULL AND o.last_error IS NOT NULL
    GROUP BY o.channel";

/// $1 channel, $2 failing since, $3 now.
pub const OPEN_INCIDENT: &str =
    "INSERT INTO delivery_incidents (channel, failing_since, alerted_at)
    VALUES ($1, $2, $3) ON CONFLICT (channel) DO NOTHING";

pub const CLOSE_INCIDENT: &str = "DELETE FROM delivery_incidents WHERE channel = $1";

pub const OPEN_INCIDENTS: &str = "SELECT channel FROM delivery_incidents ORDER BY channel";

/// A row of `FAILING_CHANNELS`.
pub fn failing_channel(row: &impl NamedRow) -> Result<FailingChannel, StoreError> {
    let since = row.required("since")?;
    let since = OffsetDateTime::parse(&since, &Rfc3339).map_err(|e| {
        StoreError::Database(Cause::new(
            format!("the stored created_at {since:?} cannot be read"),
            e,
        ))
    })?;
    Ok(FailingChannel {
        channel: channel(row)?,
        leads: row.count("leads")?.unwrap_or(0),
        since,
        error: row.required("error")?,
    })
}

/// The `channel` column of a row.
pub fn channel(row: &impl NamedRow) -> Result<Channel, StoreError> {
    let name = row.required("channel")?;
    Channel::parse(&name)
        .ok_or_else(|| StoreError::Database(format!("unknown delivery channel {name:?}").into()))
}
