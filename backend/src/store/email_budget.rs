//! The site-wide budget of lead e-mails (`LEAD_EMAIL_MAX_PER_HOUR`), counted per clock hour in
//! the database so every instance spends the one budget, and the leads held beyond it for the
//! hourly digest. A lead's e-mail takes one from its hour's count when it is first sent; over
//! the count its outbox row is held (`held_at`), no longer due on its own. Once an hour the one
//! instance that takes the hour's digest sends every lead held before the hour began in one
//! e-mail, and marks them delivered.
//!
//! Written once for both databases, over `store::sql`. Its statements are few (one per lead
//! e-mail, one digest an hour) and each is its own transaction, an atomic upsert, so instances
//! sharing a database spend one budget and only one of them sends an hour's digest. They run on
//! the outbox's lane: on SQLite they wait for no group commit of the request path.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::lead_queries::{count_held, held_leads};
use super::model::StoredQuote;
use super::rows::stored_quote;
use super::sql::{on_every_database, Lane, NamedRow, Value};
use super::timestamp::format_timestamp;
use super::StoreError;

/// The leads held for a digest, as much of them as one lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeldLeads {
    /// The oldest, at most as many as asked for.
    pub listed: Vec<StoredQuote>,
    /// How many are held in all.
    pub total: u64,
}

on_every_database! {
    pub trait EmailBudget: Send + Sync {
        /// Takes one lead e-mail from the clock hour starting at `hour`, unless `max` are taken
        /// already: whether it was taken.
        fn take_lead_email(
            &self,
            hour: OffsetDateTime,
            max: u32,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let values = vec![hour_key(hour).into(), max.into()];
            let taken = self.execute(Lane::Outbox, TAKE_LEAD_EMAIL, values);
            async move { Ok(taken.await? == 1) }.boxed()
        }

        /// The lead e-mails held before `before`, oldest first, up to `limit` of them listed.
        fn held_leads(
            &self,
            before: OffsetDateTime,
            limit: usize,
        ) -> BoxFuture<'_, Result<HeldLeads, StoreError>> {
            self.run(Lane::Outbox, false, move |c| {
                async move {
                    let before = Value::from(before);
                    let rows = c
                        .query(&held_leads(), &[before.clone(), limit.into()])
                        .await?;
                    let listed = rows.iter().map(stored_quote).collect::<Result<_, _>>()?;
                    let counted = c.query(&count_held(), &[before]).await?;
                    let total = match counted.first() {
                        Some(row) => row.count("held")?.map_or(0, u64::from),
                        None => 0,
                    };
                    Ok(HeldLeads { listed, total })
                }
                .boxed()
            })
        }

        /// Takes the digest of the clock hour starting at `hour` (and forgets the counts of hours
        /// long past): true for the one caller that may send it.
        fn take_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<bool, StoreError>> {
            self.run(Lane::Outbox, false, move |c| {
                async move {
                    let oldest = hour_key(hour - HOURS_KEPT).into();
                    c.execute(FORGET_HOURS, &[oldest]).await?;
                    let now = OffsetDateTime::now_utc().into();
                    let taken = c
                        .execute(TAKE_DIGEST, &[hour_key(hour).into(), now])
                        .await?;
                    Ok(taken == 1)
                }
                .boxed()
            })
        }

        /// Gives the hour's digest back after its e-mail failed, to be tried again.
        fn release_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<(), StoreError>> {
            let released = self.execute(Lane::Outbox, RELEASE_DIGEST, vec![hour_key(hour).into()]);
            released.map(|done| done.map(drop)).boxed()
        }

        /// Marks the lead e-mails held before `before` delivered at `now` (by the digest); how
        /// many.
        fn mark_digested(
            &self,
            before: OffsetDateTime,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<u64, StoreError>> {
            self.execute(Lane::Outbox, MARK_DIGESTED, vec![before.into(), now.into()])
        }
    }
}

/// The start of the clock hour (UTC) `at` falls in.
pub fn hour_of(at: OffsetDateTime) -> OffsetDateTime {
    at.replace_minute(0)
        .and_then(|at| at.replace_second(0))
        .and_then(|at| at.replace_nanosecond(0))
        .unwrap_or(at)
}

/// The hours whose counts are kept: a day's, far more than a digest looks back.
const HOURS_KEPT: time::Duration = time::Duration::DAY;

/// `hour_of` as stored.
fn hour_key(hour: OffsetDateTime) -> String {
    format_timestamp(hour_of(hour))
}

/// $1 hour, $2 max. Changes one row when the e-mail is taken, none when the hour is spent.
const TAKE_LEAD_EMAIL: &str = "INSERT INTO lead_email_hours (hour, emails) VALUES ($1, 1)
    ON CONFLICT (hour) DO UPDATE SET emails = lead_email_hours.emails + 1
    WHERE lead_email_hours.emails < $2";

/// What holds a lead's e-mail row for the digest. $1 quote id, $2 now, $3 note.
pub const HOLD: &str = "UPDATE lead_outbox SET held_at = $2, last_error = $3
    WHERE quote_id = $1 AND channel = 'email'";

/// $1 hour, $2 now. Changes one row for the caller that takes the digest.
const TAKE_DIGEST: &str = "INSERT INTO lead_email_hours (hour, emails, digest_taken_at)
    VALUES ($1, 0, $2)
    ON CONFLICT (hour) DO UPDATE SET digest_taken_at = $2
    WHERE lead_email_hours.digest_taken_at IS NULL";
/// $1 the oldest hour kept.
const FORGET_HOURS: &str = "DELETE FROM lead_email_hours WHERE hour < $1";
/// $1 hour.
const RELEASE_DIGEST: &str = "UPDATE lead_email_hours SET digest_taken_at = NULL WHERE hour = $1";
/// $1 before, $2 now.
const MARK_DIGESTED: &str = "UPDATE lead_outbox
    SET attempts = attempts + 1, delivered_at = $2, last_error = NULL
    WHERE channel = 'email' AND held_at IS NOT NULL AND held_at < $1
      AND delivered_at IS NULL AND gave_up_at IS NULL";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_hour_is_its_clock_hour_in_utc() {
        let at = time::macros::datetime!(2026-11-26 15:42:17.5 UTC);
        assert_eq!(hour_key(at), "2026-11-26T15:00:00.000Z");
        assert_eq!(hour_of(hour_of(at)), hour_of(at));
    }
}
