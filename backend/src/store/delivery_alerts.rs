//! What the delivery alerts ask of a store: which channels have leads still retried after a
//! failed attempt, and the open incidents, one row per channel (`delivery_incidents`), so that
//! instances sharing a database send one alert per incident (the incident's primary key makes
//! one instance of several open it). Written once for both databases, over `store::sql`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::lead_columns::CREATED_AT;
use super::lead_queries::FAILING_CHANNELS;
use super::model::Channel;
use super::sql::{on_every_database, Lane, NamedRow};
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

on_every_database! {
    pub trait DeliveryAlerts: Send + Sync {
        fn failing_channels(&self) -> BoxFuture<'_, Result<Vec<FailingChannel>, StoreError>> {
            async move {
                let rows = self.query(Lane::Person, FAILING_CHANNELS, vec![]).await?;
                rows.iter().map(failing_channel).collect()
            }
            .boxed()
        }

        /// Opens `channel`'s incident; false when one is already open (another instance alerted).
        fn open_incident(
            &self,
            channel: Channel,
            since: OffsetDateTime,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let values = vec![channel.as_str().into(), since.into(), now.into()];
            let opened = self.execute(Lane::Person, OPEN_INCIDENT, values);
            async move { Ok(opened.await? == 1) }.boxed()
        }

        /// Closes `channel`'s incident; false when none was open (another instance closed it).
        fn close_incident(&self, channel: Channel) -> BoxFuture<'_, Result<bool, StoreError>> {
            let closed = self.execute(Lane::Person, CLOSE_INCIDENT, vec![channel.as_str().into()]);
            async move { Ok(closed.await? == 1) }.boxed()
        }

        fn open_incidents(&self) -> BoxFuture<'_, Result<Vec<Channel>, StoreError>> {
            async move {
                let rows = self.query(Lane::Person, OPEN_INCIDENTS, vec![]).await?;
                rows.iter().map(channel).collect()
            }
            .boxed()
        }
    }
}

/// $1 channel, $2 failing since, $3 now.
const OPEN_INCIDENT: &str = "INSERT INTO delivery_incidents (channel, failing_since, alerted_at)
    VALUES ($1, $2, $3) ON CONFLICT (channel) DO NOTHING";

const CLOSE_INCIDENT: &str = "DELETE FROM delivery_incidents WHERE channel = $1";

const OPEN_INCIDENTS: &str = "SELECT channel FROM delivery_incidents ORDER BY channel";

/// A row of `FAILING_CHANNELS`.
fn failing_channel(row: &impl NamedRow) -> Result<FailingChannel, StoreError> {
    let since = row.required("since")?;
    let since = OffsetDateTime::parse(&since, &Rfc3339).map_err(|e| {
        StoreError::Database(Cause::new(
            format!("the stored {CREATED_AT} {since:?} cannot be read"),
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
fn channel(row: &impl NamedRow) -> Result<Channel, StoreError> {
    let name = row.required("channel")?;
    Channel::parse(&name)
        .ok_or_else(|| StoreError::Database(format!("unknown delivery channel {name:?}").into()))
}
