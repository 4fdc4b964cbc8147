//! The e-mail budget on SQLite (`store::email_budget`). Its statements are few (one per lead
//! e-mail, one digest an hour), so they run on the outbox's own reader connection, each in its
//! own implicit transaction, rather than queue behind the request path's group commits.

use futures_util::future::BoxFuture;
use rusqlite::params;
use time::OffsetDateTime;

use super::parameters::{self, execute};
use super::SqliteStore;
use crate::store::email_budget::{self as sql, hour_key, EmailBudget, HeldLeads, HOURS_KEPT};
use crate::store::model::format_timestamp;
use crate::store::rows::{stored_quote, NamedRow};
use crate::store::spam_report::{self as spam, SpamReport, SpamReports};
use crate::store::StoreError;

impl EmailBudget for SqliteStore {
    fn take_lead_email(
        &self,
        hour: OffsetDateTime,
        max: u32,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read_for_outbox(move |conn| {
            let taken = execute(conn, sql::TAKE_LEAD_EMAIL, params![hour_key(hour), max])?;
            Ok(taken == 1)
        })
    }

    fn held_leads(
        &self,
        before: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<HeldLeads, StoreError>> {
        self.read_for_outbox(move |conn| {
            let before = format_timestamp(before);
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let listed =
                parameters::query(conn, &sql::held_leads(), params![before, limit], |row| {
                    stored_quote(row)
                })?;
            let total = parameters::query(conn, &sql::count_held(), params![before], |row| {
                row.count("held")
            })?;
            Ok(HeldLeads {
                listed,
                total: total.into_iter().flatten().next().map_or(0, u64::from),
            })
        })
    }

    fn take_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read_for_outbox(move |conn| {
            let now = format_timestamp(OffsetDateTime::now_utc());
            execute(
                conn,
                sql::FORGET_HOURS,
                params![hour_key(hour - HOURS_KEPT)],
            )?;
            let taken = execute(conn, sql::TAKE_DIGEST, params![hour_key(hour), now])?;
            Ok(taken == 1)
        })
    }

    fn release_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<(), StoreError>> {
        self.read_for_outbox(move |conn| {
            execute(conn, sql::RELEASE_DIGEST, params![hour_key(hour)]).map(drop)
        })
    }

    fn mark_digested(
        &self,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.read_for_outbox(move |conn| {
            let marked = execute(
                conn,
                sql::MARK_DIGESTED,
                params![format_timestamp(before), format_timestamp(now)],
            )?;
            Ok(marked as u64)
        })
    }
}

impl SpamReports for SqliteStore {
    fn take_spam_report(
        &self,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<Option<SpamReport>, StoreError>> {
        self.read_for_outbox(move |conn| {
            let last = parameters::query(conn, spam::LAST_REPORT, params![spam::KEY], |row| {
                row.required("value")
            })?;
            let claimed = parameters::query(
                conn,
                spam::CLAIM,
                params![
                    spam::KEY,
                    format_timestamp(now),
                    format_timestamp(spam::day_before(now))
                ],
                |row| row.required("value"),
            )?;
            if claimed.is_empty() {
                return Ok(None);
            }
            let since = spam::since(last.first().map(String::as_str), now);
            let held = parameters::query(
                conn,
                spam::HELD_SINCE,
                params![format_timestamp(since)],
                |row| row.count("held"),
            )?;
            Ok(Some(SpamReport {
                held: held.into_iter().flatten().next().unwrap_or(0).into(),
                since,
            }))
        })
    }
}
