//! The delivery alerts on SQLite: rare small writes, on the reader's connection like the inbox's.

use futures_util::future::BoxFuture;
use rusqlite::params;
use time::OffsetDateTime;

use super::parameters::{self, execute};
use super::SqliteStore;
use crate::store::delivery_alerts::{self as sql, DeliveryAlerts, FailingChannel};
use crate::store::model::{format_timestamp, Channel};
use crate::store::StoreError;

impl DeliveryAlerts for SqliteStore {
    fn failing_channels(&self) -> BoxFuture<'_, Result<Vec<FailingChannel>, StoreError>> {
        self.read(|conn| {
            parameters::query(conn, sql::FAILING_CHANNELS, params![], |row| {
                sql::failing_channel(row)
            })
        })
    }

    fn open_incident(
        &self,
        channel: Channel,
        since: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read(move |conn| {
            let opened = execute(
                conn,
                sql::OPEN_INCIDENT,
                params![
                    channel.as_str(),
                    format_timestamp(since),
                    format_timestamp(now)
                ],
            )?;
            Ok(opened == 1)
        })
    }

    fn close_incident(&self, channel: Channel) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read(move |conn| {
            Ok(execute(conn, sql::CLOSE_INCIDENT, params![channel.as_str()])? == 1)
        })
    }

    fn open_incidents(&self) -> BoxFuture<'_, Result<Vec<Channel>, StoreError>> {
        self.read(|conn| {
            parameters::query(conn, sql::OPEN_INCIDENTS, params![], |row| {
                sql::channel(row)
            })
        })
    }
}
