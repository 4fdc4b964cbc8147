//! The site-wide budget of lead e-mails (`LEAD_EMAIL_MAX_PER_HOUR`), counted per clock hour in
//! the database so every instance spends the one budget, and the leads held beyond it for the
//! hourly digest. A lead's e-mail takes one from its hour's count when it is first sent; over
//! the count its outbox row is held (`held_at`), no longer due on its own. Once an hour the one
//! instance that takes the hour's digest sends every lead held before the hour began in one
//! e-mail, and marks them delivered.

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

use super::model::{format_timestamp, StoredQuote};
use super::queries::SELECT_QUOTES;
use super::StoreError;

/// The leads held for a digest, as much of them as one lists.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HeldLeads {
    /// The oldest, at most as many as asked for.
    pub listed: Vec<StoredQuote>,
    /// How many are held in all.
    pub total: u64,
}

pub trait EmailBudget: Send + Sync {
    /// Takes one lead e-mail from the clock hour starting at `hour`, unless `max` are taken
    /// already: whether it was taken.
    fn take_lead_email(
        &self,
        hour: OffsetDateTime,
        max: u32,
    ) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// The lead e-mails held before `before`, oldest first, up to `limit` of them listed.
    fn held_leads(
        &self,
        before: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<HeldLeads, StoreError>>;

    /// Takes the digest of the clock hour starting at `hour` (and forgets the counts of hours
    /// long past): true for the one caller that may send it.
    fn take_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Gives the hour's digest back after its e-mail failed, to be tried again.
    fn release_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Marks the lead e-mails held before `before` delivered at `now` (by the digest); how many.
    fn mark_digested(
        &self,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;
}

/// The start of the clock hour (UTC) `at` falls in.
pub fn hour_of(at: OffsetDateTime) -> OffsetDateTime {
    at.replace_minute(0)
        .and_then(|at| at.replace_second(0))
        .and_then(|at| at.replace_nanosecond(0))
        .unwrap_or(at)
}

/// The hours whose counts are kept: a day's, far more than a digest looks back.
pub const HOURS_KEPT: time::Duration = time::Duration::DAY;

/// `hour_of` as stored.
pub fn hour_key(hour: OffsetDateTime) -> String {
    format_timestamp(hour_of(hour))
}

/// $1 hour, $2 max. Changes one row when the e-mail is taken, none when the hour is spent.
pub const TAKE_LEAD_EMAIL: &str = "INSERT INTO lead_email_hours (hour, emails) VALUES ($1, 1)
    ON CONFLICT (hour) DO UPDATE SET emails = lead_email_hours.emails + 1
    WHERE lead_email_hours.emails < $2";

/// What holds a lead's e-mail row for the digest. $1 quote id, $2 now, $3 note.
pub const HOLD: &str = "UPDATE lead_outbox SET held_at = $2, last_error = $3
    WHERE quote_id = $1 AND channel = 'email'";

const HELD: &str = "d.channel = 'email' AND d.held_at IS NOT NULL AND d.held_at < $1
    AND d.delivered_at IS NULL AND d.gave_up_at IS NULL";

/// $1 before, $2 limit.
pub fn held_leads() -> String {
    format!(
        "{SELECT_QUOTES} JOIN lead_outbox d ON d.quote_id = q.id
         WHERE {HELD} ORDER BY q.created_at, q.id LIMIT $2"
    )
}

/// $1 before.
pub fn count_held() -> String {
    format!("SELECT CAST(count(*) AS INTEGER) AS held FROM lead_outbox d WHERE {HELD}")
}

/// $1 hour, $2 now. Changes one row for the caller that takes the digest.
pub const TAKE_DIGEST: &str = "INSERT INTO lead_email_hours (hour, emails, digest_taken_at)
    VALUES ($1, 0, $2)
    ON CONFLICT (hour) DO UPDATE SET digest_taken_at = $2
    WHERE lead_email_hours.digest_taken_at IS NULL";
/// $1 the oldest hour kept.
pub const FORGET_HOURS: &str = "DELETE FROM lead_email_hours WHERE hour < $1";
/// $1 hour.
pub const RELEASE_DIGEST: &str =
    "UPDATE lead_email_hours SET digest_taken_at = NULL WHERE hour = $1";
/// $1 before, $2 now.
pub const MARK_DIGESTED: &str = "UPDATE lead_outbox
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
