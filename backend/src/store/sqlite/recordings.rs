//! The recordings' copies on SQLite: the fetcher's writes go on the outbox's reader connection,
//! off the writer thread that commits quotes, so a recording of megabytes never holds up a lead
//! behind it in a batch (`busy_timeout` waits out the writer's short transactions).

use futures_util::future::BoxFuture;
use rusqlite::params;
use time::OffsetDateTime;

use super::parameters::{self, execute};
use super::SqliteStore;
use crate::store::model::format_timestamp;
use crate::store::recordings::{
    self as sql, DueRecording, RecordingOutcome, Recordings, StoredRecording,
};
use crate::store::StoreError;

impl Recordings for SqliteStore {
    fn take_due_recordings(
        &self,
        now: OffsetDateTime,
        claim_until: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<DueRecording>, StoreError>> {
        self.read_for_outbox(move |conn| {
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            parameters::query(
                conn,
                sql::TAKE_DUE_RECORDINGS,
                params![format_timestamp(now), format_timestamp(claim_until), limit],
                |row| sql::due_recording(row),
            )
        })
    }

    fn record_recording(
        &self,
        call_id: String,
        outcome: RecordingOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.read_for_outbox(move |conn| {
            let now = format_timestamp(OffsetDateTime::now_utc());
            match outcome {
                RecordingOutcome::Stored(recording) => {
                    let size = i64::try_from(recording.audio.len()).unwrap_or(i64::MAX);
                    execute(
                        conn,
                        sql::STORE_RECORDING,
                        params![
                            call_id,
                            now,
                            recording.content_type,
                            recording.sha256,
                            size,
                            recording.audio
                        ],
                    )?
                }
                RecordingOutcome::Retry {
                    error,
                    next_attempt_at,
                } => execute(
                    conn,
                    sql::RETRY_RECORDING,
                    params![call_id, error, format_timestamp(next_attempt_at)],
                )?,
                RecordingOutcome::GiveUp { error } => {
                    execute(conn, sql::GIVE_UP_RECORDING, params![call_id, error, now])?
                }
            };
            Ok(())
        })
    }

    fn mark_recording_alerted(
        &self,
        call_id: String,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read_for_outbox(move |conn| {
            let marked = execute(
                conn,
                sql::MARK_RECORDING_ALERTED,
                params![call_id, format_timestamp(now)],
            )?;
            Ok(marked == 1)
        })
    }

    fn recording(
        &self,
        call_id: String,
    ) -> BoxFuture<'_, Result<Option<StoredRecording>, StoreError>> {
        self.read(move |conn| {
            let found = parameters::query(conn, sql::SELECT_RECORDING, params![call_id], |row| {
                Ok(StoredRecording {
                    content_type: row.get("content_type")?,
                    sha256: row.get("sha256")?,
                    audio: row.get("audio")?,
                })
            })?;
            Ok(found.into_iter().next())
        })
    }
}
