//! The SQL both stores run, written once with PostgreSQL's `$n` parameters; SQLite reads the
//! same text with `?n` (see `for_sqlite`). Timestamps are fixed-width RFC 3339 text in UTC, so
//! text order is time order in both databases.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use wasm_core::Product;

use super::model::{
    Channel, Deliveries, Delivery, DeliveryStatus, LeadStatus, NewQuote, Source, StoredQuote,
};
use super::{ListQuery, StoreError};

/// Stores nothing when the idempotency key or the voice call and tool call were seen before
/// (both are unique); `EARLIER_QUOTE` then finds that row.
pub const INSERT_QUOTE: &str = "INSERT INTO quote_requests
        (id, product, email, source, user_agent, created_at, call_id, tool_call_id, idempotency_key)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)
    ON CONFLICT DO NOTHING";

/// `INSERT_QUOTE`'s values, for both stores (`insert_quote_values!` lists them in order).
pub struct QuoteValues<'a> {
    pub id: String,
    pub product: &'static str,
    pub email: &'a str,
    pub source: &'static str,
    pub user_agent: Option<&'a str>,
    pub created_at: String,
    pub call_id: Option<&'a str>,
    pub tool_call_id: Option<&'a str>,
    pub idempotency_key: Option<&'a str>,
}

impl QuoteValues<'_> {
    pub fn new(quote: &NewQuote) -> QuoteValues<'_> {
        QuoteValues {
            id: quote.id.to_string(),
            product: quote.request.product().as_str(),
            email: quote.request.email().as_str(),
            source: quote.source.as_str(),
            user_agent: quote.user_agent.as_deref(),
            created_at: quote.created_at_text(),
            call_id: quote.voice.as_ref().map(|v| v.call_id.as_str()),
            tool_call_id: quote.voice.as_ref().map(|v| v.tool_call_id.as_str()),
            idempotency_key: quote.idempotency_key.as_deref(),
        }
    }
}

/// `INSERT_QUOTE`'s parameters in order, as an array of the caller's driver's `ToSql` objects
/// (a macro because the two drivers' traits differ).
macro_rules! insert_quote_values {
    ($values:expr) => {{
        let v = &$values;
        [
            &v.id,
            &v.product,
            &v.email,
            &v.source,
            &v.user_agent,
            &v.created_at,
            &v.call_id,
            &v.tool_call_id,
            &v.idempotency_key,
        ]
    }};
}
pub(super) use insert_quote_values;

/// PostgreSQL's group commit: many quotes stored by one statement (one round trip, one commit).
/// $1 to $9 are arrays of `INSERT_QUOTE`'s values, one element per quote, in its column order;
/// what was stored comes back as its ids. A quote seen before is skipped as by `INSERT_QUOTE`.
/// Each stored quote gets an outbox row on each channel of $10 (`INSERT_OUTBOX`'s, for all of
/// them at once; an empty array writes none) in the same statement.
pub const INSERT_QUOTES: &str = "WITH stored AS (
        INSERT INTO quote_requests
            (id, product, email, source, user_agent, created_at, call_id, tool_call_id,
             idempotency_key)
        SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[],
                             $6::text[], $7::text[], $8::text[], $9::text[])
        ON CONFLICT DO NOTHING
        RETURNING id, created_at),
    outbox AS (
        INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
        SELECT stored.id, channel, stored.created_at
        FROM stored CROSS JOIN unnest($10::text[]) AS channel)
    SELECT id FROM stored";

/// $1 idempotency key, $2 call id, $3 tool call id (NULL ones match nothing).
pub const EARLIER_QUOTE: &str = "SELECT id, product, email FROM quote_requests
    WHERE idempotency_key = $1 OR (call_id = $2 AND tool_call_id = $3)";

/// $1 quote id, $2 first attempt, $3 channel.
pub const INSERT_OUTBOX: &str =
    "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at) VALUES ($1, $3, $2)";

/// The e-mail after a call, threaded under the call's first quote: once per call, and only for
/// a call that produced quotes. $1 call id, $2 first attempt.
pub const INSERT_FOLLOW_UP: &str = "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
    SELECT id, 'follow_up', $2 FROM quote_requests WHERE call_id = $1
    ORDER BY created_at, id LIMIT 1
    ON CONFLICT DO NOTHING";

/// $1 call id, $2 ended reason, $3 summary, $4 transcript, $5 now, $6 recording URL.
pub const UPSERT_CALL: &str = "INSERT INTO voice_calls
        (call_id, ended_reason, summary, transcript, reported_at, recording_url)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (call_id) DO UPDATE SET ended_reason = excluded.ended_reason,
        summary = excluded.summary, transcript = excluded.transcript,
        reported_at = excluded.reported_at, recording_url = excluded.recording_url";

/// $1 call id.
pub const SELECT_CALL: &str = "SELECT call_id, ended_reason, summary, transcript, recording_url
    FROM voice_calls WHERE call_id = $1";

/// $1 the cut-off. Every spoken quote has a tool call id, so the `NOT EXISTS` is answered by
/// the unique index on (call_id, tool_call_id), whose condition it repeats.
pub const PURGE_UNREFERENCED_CALLS: &str = "DELETE FROM voice_calls
    WHERE reported_at < $1 AND NOT EXISTS (
        SELECT 1 FROM quote_requests q
        WHERE q.call_id = voice_calls.call_id AND q.tool_call_id IS NOT NULL)";

/// $1 quote id, $2 now, $3 channel.
pub const MARK_DELIVERED: &str = "UPDATE lead_outbox SET attempts = attempts + 1, delivered_at = $2
    WHERE quote_id = $1 AND channel = $3";
/// $1 quote id, $2 error, $3 next attempt, $4 channel.
pub const MARK_RETRY: &str = "UPDATE lead_outbox
    SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3
    WHERE quote_id = $1 AND channel = $4";
/// $1 quote id, $2 error, $3 now, $4 channel.
pub const MARK_GAVE_UP: &str = "UPDATE lead_outbox
    SET attempts = attempts + 1, last_error = $2, gave_up_at = $3
    WHERE quote_id = $1 AND channel = $4";

/// The columns `stored_quote` reads, with the call report and each channel's outbox row (in
/// `Channel::ALL`'s order, `OUTBOX_COLUMNS` each) joined in.
pub(super) const SELECT_QUOTES: &str =
    "SELECT q.id, q.product, q.email, q.source, q.user_agent, q.created_at,
        q.call_id, c.ended_reason, c.summary,
        w.quote_id IS NOT NULL, w.attempts, w.last_error, w.delivered_at, w.gave_up_at,
        e.quote_id IS NOT NULL, e.attempts, e.last_error, e.delivered_at, e.gave_up_at,
        f.quote_id IS NOT NULL, f.attempts, f.last_error, f.delivered_at, f.gave_up_at,
        c.transcript, q.status, q.status_changed_at
    FROM quote_requests q
    LEFT JOIN voice_calls c ON c.call_id = q.call_id
    LEFT JOIN lead_outbox w ON w.quote_id = q.id AND w.channel = 'webhook'
    LEFT JOIN lead_outbox e ON e.quote_id = q.id AND e.channel = 'email'
    LEFT JOIN lead_outbox f ON f.quote_id = q.id AND f.channel = 'follow_up'";
/// Where the first channel's outbox columns start, and how many each channel has.
const FIRST_OUTBOX_COLUMN: usize = 9;
const OUTBOX_COLUMNS: usize = 5;
/// The call's transcript, after every channel's outbox columns.
const TRANSCRIPT_COLUMN: usize = FIRST_OUTBOX_COLUMN + 3 * OUTBOX_COLUMNS;
/// The lead's status, then when it last changed.
const STATUS_COLUMN: usize = TRANSCRIPT_COLUMN + 1;

/// $1 now, $2 limit, $3 channel.
pub fn due_leads() -> String {
    format!(
        "{SELECT_QUOTES}
         JOIN lead_outbox d ON d.quote_id = q.id AND d.channel = $3
         WHERE d.delivered_at IS NULL AND d.gave_up_at IS NULL AND d.next_attempt_at <= $1
         ORDER BY d.next_attempt_at LIMIT $2"
    )
}

/// PostgreSQL, where several instances share the outbox: claims the due rows it returns by
/// pushing their next attempt to $3, so each goes to one worker; a worker that dies holding
/// some leaves them due again at $3. $1 now, $2 limit, $4 channel.
pub fn claim_due_leads() -> String {
    format!(
        "WITH claimed AS (
            UPDATE lead_outbox SET next_attempt_at = $3
            WHERE channel = $4 AND quote_id IN (
                SELECT quote_id FROM lead_outbox
                WHERE channel = $4 AND delivered_at IS NULL AND gave_up_at IS NULL
                  AND next_attempt_at <= $1
                ORDER BY next_attempt_at LIMIT $2
                FOR UPDATE SKIP LOCKED)
            RETURNING quote_id)
        {SELECT_QUOTES} WHERE q.id IN (SELECT quote_id FROM claimed)"
    )
}

/// $1 since; then $2 the cursor id when there is one; the limit last.
pub fn list(query: &ListQuery) -> String {
    let (direction, beyond) = if query.newest_first {
        ("DESC", "<")
    } else {
        ("ASC", ">")
    };
    let (after, limit) = match query.after {
        Some(_) => (
            format!("AND (q.created_at, q.id) {beyond} (SELECT created_at, id FROM quote_requests WHERE id = $2)"),
            "$3",
        ),
        None => (String::new(), "$2"),
    };
    format!(
        "{SELECT_QUOTES} WHERE q.created_at >= $1 {after}
         ORDER BY q.created_at {direction}, q.id {direction} LIMIT {limit}"
    )
}

/// SQLite takes the same numbered parameters written `?n`.
pub fn for_sqlite(sql: &str) -> String {
    sql.replace('$', "?")
}

/// One row of `SELECT_QUOTES` as a driver reads its columns (by position).
pub trait QuoteRow {
    fn text(&self, column: usize) -> Result<Option<String>, StoreError>;
    fn flag(&self, column: usize) -> Result<bool, StoreError>;
    fn count(&self, column: usize) -> Result<Option<u32>, StoreError>;
}

/// The one mapping from a `SELECT_QUOTES` row to a typed `StoredQuote`, for both stores.
pub fn stored_quote(row: &impl QuoteRow) -> Result<StoredQuote, StoreError> {
    let id = row.text(0)?.unwrap_or_default();
    let unreadable = |column: &str, value: &str| {
        StoreError::Database(format!(
            "quote request {id}: the stored {column} {value:?} cannot be read"
        ))
    };
    let required = |column: usize| row.text(column).map(Option::unwrap_or_default);
    let product = required(1)?;
    let product = Product::ALL
        .into_iter()
        .find(|p| p.as_str() == product)
        .ok_or_else(|| unreadable("product", &product))?;
    let source = required(3)?;
    let source = Source::parse(&source).ok_or_else(|| unreadable("source", &source))?;
    let created_at = required(5)?;
    let created_at = OffsetDateTime::parse(&created_at, &Rfc3339)
        .map_err(|_| unreadable("created_at", &created_at))?;
    let mut deliveries = Deliveries::default();
    let mut any = false;
    for (i, channel) in Channel::ALL.into_iter().enumerate() {
        let first = FIRST_OUTBOX_COLUMN + i * OUTBOX_COLUMNS;
        let delivery = OutboxColumns {
            present: row.flag(first)?,
            attempts: row.count(first + 1)?,
            last_error: row.text(first + 2)?,
            delivered_at: row.text(first + 3)?,
            gave_up_at: row.text(first + 4)?,
        }
        .delivery();
        any |= delivery.is_some();
        deliveries.set(channel, delivery);
    }
    let status = required(STATUS_COLUMN)?;
    let status = LeadStatus::parse(&status).ok_or_else(|| unreadable("status", &status))?;
    Ok(StoredQuote {
        product,
        email: required(2)?,
        source,
        user_agent: row.text(4)?,
        created_at,
        call_id: row.text(6)?,
        call_ended_reason: row.text(7)?,
        call_summary: row.text(8)?,
        call_transcript: row.text(TRANSCRIPT_COLUMN)?,
        delivery: any.then_some(deliveries),
        status,
        status_changed_at: row.text(STATUS_COLUMN + 1)?,
        id,
    })
}

/// One channel's joined outbox columns of one row.
struct OutboxColumns {
    present: bool,
    attempts: Option<u32>,
    last_error: Option<String>,
    delivered_at: Option<String>,
    gave_up_at: Option<String>,
}

impl OutboxColumns {
    fn delivery(self) -> Option<Delivery> {
        if !self.present {
            return None;
        }
        let status = match (&self.delivered_at, &self.gave_up_at) {
            (Some(_), _) => DeliveryStatus::Delivered,
            (None, Some(_)) => DeliveryStatus::Undelivered,
            (None, None) => DeliveryStatus::Pending,
        };
        Some(Delivery {
            status,
            attempts: self.attempts.unwrap_or(0),
            last_error: self.last_error,
            delivered_at: self.delivered_at,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parameters_are_numbered_for_each_dialect() {
        let page = list(&ListQuery {
            after: Some("x".into()),
            newest_first: true,
            ..ListQuery::default()
        });
        assert!(page.contains("< (SELECT") && page.ends_with("LIMIT $3") && page.contains("DESC"));
        let all = list(&ListQuery::default());
        assert!(!all.contains("$3") && all.ends_with("LIMIT $2") && all.contains("ASC"));
        assert_eq!(
            for_sqlite(MARK_DELIVERED),
            MARK_DELIVERED
                .replace("$1", "?1")
                .replace("$2", "?2")
                .replace("$3", "?3")
        );
    }
}
