//! The calls' recordings, copied from the provider into the database (`call_recordings`), so a
//! recording outlives the provider's copy and every instance on one PostgreSQL serves it. An
//! end-of-call report with a recording URL queues its copy in the report's transaction; the
//! fetcher (`recordings::fetcher`) takes due copies, downloads them and records each attempt.
//! Written once for both databases, over `store::sql`: the fetcher's work goes on the outbox's
//! lane, so on SQLite a recording of megabytes never holds up a lead behind it in the writer's
//! batch, and the claim in `TAKE_DUE_RECORDINGS` hands each copy to one instance of several.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use time::OffsetDateTime;

use super::conversation_consent;
use super::sql::{on_every_database, Lane, NamedRow, Value};
use super::StoreError;

/// A copy to make: the call, where the provider keeps its recording, and how it has gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueRecording {
    pub call_id: String,
    pub url: String,
    pub attempts: u32,
    /// When the end-of-call report queued it: the retry policy's clock.
    pub queued_at: String,
}

/// A stored recording, as the admin API serves it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredRecording {
    pub content_type: String,
    pub sha256: String,
    pub audio: Vec<u8>,
}

/// How one download went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordingOutcome {
    /// Kept unless all stored recordings would then take more than `max_total_bytes`.
    Stored {
        recording: StoredRecording,
        max_total_bytes: u64,
    },
    Retry {
        error: String,
        next_attempt_at: OffsetDateTime,
    },
    GiveUp {
        error: String,
    },
}

/// Where a conversation's recording stands, as the admin API lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RecordingState {
    /// `stored`: in the site's database; `pending`: being copied (retried after a failure);
    /// `failed`: the copy was given up (`error` says why).
    #[schema(schema_with = super::schema::recording_status)]
    pub status: &'static str,
    #[schema(required = true)]
    pub sha256: Option<String>,
    #[schema(required = true)]
    pub bytes: Option<i64>,
    #[schema(required = true)]
    pub error: Option<String>,
}

on_every_database! {
    pub trait Recordings: Send + Sync {
        /// Up to `limit` copies due at `now`, each claimed until `claim_until` so that one instance
        /// of several takes it.
        fn take_due_recordings(
            &self,
            now: OffsetDateTime,
            claim_until: OffsetDateTime,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<DueRecording>, StoreError>> {
            let values = vec![now.into(), claim_until.into(), limit.into()];
            let rows = self.query(Lane::Outbox, TAKE_DUE_RECORDINGS, values);
            async move { rows.await?.iter().map(due_recording).collect() }.boxed()
        }

        /// False when a stored copy was not kept: it would have taken the total past its bound.
        fn record_recording(
            &self,
            call_id: String,
            outcome: RecordingOutcome,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let at = OffsetDateTime::now_utc();
            let now = Value::from(at);
            let stored = matches!(outcome, RecordingOutcome::Stored { .. });
            let (sql, values) = match outcome {
                RecordingOutcome::Stored {
                    recording,
                    max_total_bytes,
                } => {
                    let size = i64::try_from(recording.audio.len()).unwrap_or(i64::MAX);
                    let values = vec![
                        call_id.as_str().into(),
                        now,
                        recording.content_type.into(),
                        recording.sha256.into(),
                        size.into(),
                        recording.audio.into(),
                        i64::try_from(max_total_bytes).unwrap_or(i64::MAX).into(),
                        size.into(),
                    ];
                    (STORE_RECORDING, values)
                }
                RecordingOutcome::Retry {
                    error,
                    next_attempt_at,
                } => {
                    let values = vec![
                        call_id.as_str().into(),
                        error.into(),
                        next_attempt_at.into(),
                    ];
                    (RETRY_RECORDING, values)
                }
                RecordingOutcome::GiveUp { error } => (
                    GIVE_UP_RECORDING,
                    vec![call_id.as_str().into(), error.into(), now],
                ),
            };
            // The total is read and passed in one transaction that copies finishing together on
            // several instances take in turn.
            self.run(Lane::Outbox, true, move |c| {
                async move {
                    if let Some(lock) = c.transaction_lock() {
                        c.execute(lock, &[RECORDINGS_TOTAL_LOCK.into()]).await?;
                    }
                    let kept = c.execute(sql, &values).await? == 1;
                    // The call's agreement to be called stands on the recording just stored.
                    if kept && stored {
                        conversation_consent::settle(c, &call_id, at).await?;
                    }
                    Ok(kept)
                }
                .boxed()
            })
        }

        /// How many bytes the stored recordings take together.
        fn stored_recording_bytes(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
            let rows = self.query(Lane::Outbox, STORED_RECORDING_BYTES, Vec::new());
            async move {
                let total = match rows.await?.first() {
                    Some(row) => row.number("total")?,
                    None => 0,
                };
                Ok(u64::try_from(total).unwrap_or(0))
            }
            .boxed()
        }

        /// Marks the copy's failure as alerted on; false when it already was (by another instance).
        fn mark_recording_alerted(
            &self,
            call_id: String,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let marked = self.execute(
                Lane::Outbox,
                MARK_RECORDING_ALERTED,
                vec![call_id.into(), now.into()],
            );
            async move { Ok(marked.await? == 1) }.boxed()
        }

        /// The stored recording of `call_id`, if it was copied.
        fn recording(
            &self,
            call_id: String,
        ) -> BoxFuture<'_, Result<Option<StoredRecording>, StoreError>> {
            let rows = self.query(Lane::Person, SELECT_RECORDING, vec![call_id.into()]);
            async move {
                let Some(row) = rows.await?.into_iter().next() else {
                    return Ok(None);
                };
                Ok(Some(StoredRecording {
                    content_type: row.required("content_type")?,
                    sha256: row.required("sha256")?,
                    audio: row.bytes("audio")?,
                }))
            }
            .boxed()
        }
    }
}

/// $1 call id, $2 the provider's URL, $3 now. A repeated report with the same URL changes
/// nothing; a new URL for a copy not yet made starts it again.
pub const QUEUE_RECORDING: &str = "INSERT INTO call_recordings
        (call_id, source_url, queued_at, next_attempt_at)
    VALUES ($1, $2, $3, $3)
    ON CONFLICT (call_id) DO UPDATE SET source_url = excluded.source_url,
        queued_at = excluded.queued_at, next_attempt_at = excluded.next_attempt_at,
        attempts = 0, last_error = NULL, gave_up_at = NULL, alerted_at = NULL
    WHERE call_recordings.stored_at IS NULL
        AND call_recordings.source_url <> excluded.source_url";

/// $1 now, $2 claimed until, $3 limit. The outer condition repeats the claim's: on PostgreSQL a
/// second instance waiting on the row lock re-reads the row and skips one just claimed.
const TAKE_DUE_RECORDINGS: &str = "UPDATE call_recordings SET claimed_until = $2
    WHERE call_id IN (
        SELECT call_id FROM call_recordings
        WHERE stored_at IS NULL AND gave_up_at IS NULL AND next_attempt_at <= $1
            AND (claimed_until IS NULL OR claimed_until <= $1)
        ORDER BY next_attempt_at LIMIT $3)
    AND (claimed_until IS NULL OR claimed_until <= $1)
    RETURNING call_id, source_url, attempts, queued_at";

/// The lock `record_recording` stores a copy under (any number, the same everywhere).
const RECORDINGS_TOTAL_LOCK: i64 = 0x7265_636f_7264;

/// $1 call id, $2 now, $3 content type, $4 SHA-256, $5 size, $6 the audio, $7 the most bytes
/// all stored recordings may take, $8 the size again (a parameter has one type on PostgreSQL).
const STORE_RECORDING: &str = "UPDATE call_recordings SET stored_at = $2,
        content_type = $3, sha256 = $4, size = $5, audio = $6, attempts = attempts + 1,
        last_error = NULL, claimed_until = NULL
    WHERE call_id = $1 AND $8 + (SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT)
        FROM call_recordings WHERE stored_at IS NOT NULL) <= $7";

const STORED_RECORDING_BYTES: &str = "SELECT CAST(COALESCE(SUM(size), 0) AS BIGINT) AS total
    FROM call_recordings WHERE stored_at IS NOT NULL";

/// $1 call id, $2 error, $3 next attempt.
const RETRY_RECORDING: &str = "UPDATE call_recordings SET attempts = attempts + 1,
        last_error = $2, next_attempt_at = $3, claimed_until = NULL
    WHERE call_id = $1";

/// $1 call id, $2 error, $3 now.
const GIVE_UP_RECORDING: &str = "UPDATE call_recordings SET attempts = attempts + 1,
        last_error = $2, gave_up_at = $3, claimed_until = NULL
    WHERE call_id = $1";

/// $1 call id, $2 now.
const MARK_RECORDING_ALERTED: &str =
    "UPDATE call_recordings SET alerted_at = $2 WHERE call_id = $1 AND alerted_at IS NULL";

/// $1 call id.
const SELECT_RECORDING: &str = "SELECT content_type, sha256, audio FROM call_recordings
    WHERE call_id = $1 AND stored_at IS NOT NULL";

/// $1 the cut-off: recordings go with their conversations (`queries::PURGE_OLD_CONVERSATIONS`).
pub const PURGE_OLD_RECORDINGS: &str = "DELETE FROM call_recordings WHERE call_id IN
    (SELECT call_id FROM voice_calls WHERE reported_at < $1 AND legal_hold_at IS NULL)";

/// A row of `TAKE_DUE_RECORDINGS`.
fn due_recording(row: &impl NamedRow) -> Result<DueRecording, StoreError> {
    Ok(DueRecording {
        call_id: row.required("call_id")?,
        url: row.required("source_url")?,
        attempts: row.count("attempts")?.unwrap_or(0),
        queued_at: row.required("queued_at")?,
    })
}

/// The recording columns of `lead_queries::CONVERSATIONS` (`r.*` as `recording_*`); `None` for a
/// call without a recording to copy.
pub fn recording_state(row: &impl NamedRow) -> Result<Option<RecordingState>, StoreError> {
    if row.text("recording_queued_at")?.is_none() {
        return Ok(None);
    }
    let status = if row.text("recording_stored_at")?.is_some() {
        "stored"
    } else if row.text("recording_gave_up_at")?.is_some() {
        "failed"
    } else {
        "pending"
    };
    Ok(Some(RecordingState {
        status,
        sha256: row.text("recording_sha256")?,
        bytes: row.optional_number("recording_size")?,
        error: row.text("recording_error")?,
    }))
}
