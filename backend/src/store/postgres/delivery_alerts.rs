//! The delivery alerts on PostgreSQL: the same statements as SQLite; the incident's primary key
//! makes one instance of several open it.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::PostgresStore;
use crate::store::delivery_alerts::{self as sql, DeliveryAlerts, FailingChannel};
use crate::store::model::{format_timestamp, Channel};
use crate::store::StoreError;

impl DeliveryAlerts for PostgresStore {
    fn failing_channels(&self) -> BoxFuture<'_, Result<Vec<FailingChannel>, StoreError>> {
        async move {
            let rows = self.query(sql::FAILING_CHANNELS, &[]).await?;
            rows.iter().map(sql::failing_channel).collect()
        }
        .boxed()
    }

    fn open_incident(
        &self,
        channel: Channel,
        since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let (since, now) = (format_timestamp(since), format_timestamp(now));
            let opened = self
                .execute(sql::OPEN_INCIDENT, &[&channel.as_str(), &since, &now])
                .await?;
            Ok(opened == 1)
        }
        .boxed()
    }

    fn close_incident(&self, channel: Channel) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            Ok(self
                .execute(sql::CLOSE_INCIDENT, &[&channel.as_str()])
                .await?
                == 1)
        }
        .boxed()
    }

    fn open_incidents(&self) -> BoxFuture<'_, Result<Vec<Channel>, StoreError>> {
        async move {
            let rows = self.query(sql::OPEN_INCIDENTS, &[]).await?;
            rows.iter().map(sql::channel).collect()
        }
        .boxed()
    }
}
