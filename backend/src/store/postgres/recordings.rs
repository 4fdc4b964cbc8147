//! The recordings' copies on PostgreSQL: the same statements as SQLite; the claim in
//! `TAKE_DUE_RECORDINGS` hands each copy to one instance of several.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;
use tokio_postgres::types::ToSql;

use super::{column_error, PostgresStore};
use crate::store::model::format_timestamp;
use crate::store::recordings::{
    self as sql, DueRecording, RecordingOutcome, Recordings, StoredRecording,
};
use crate::store::StoreError;

impl Recordings for PostgresStore {
    fn take_due_recordings(
        &self,
        now: OffsetDateTime,
        claim_until: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<DueRecording>, StoreError>> {
        async move {
            let (now, until) = (format_timestamp(now), format_timestamp(claim_until));
            let limit = i64::try_from(limit).unwrap_or(i64::MAX);
            let rows = self
                .query(sql::TAKE_DUE_RECORDINGS, &[&now, &until, &limit])
                .await?;
            rows.iter().map(sql::due_recording).collect()
        }
        .boxed()
    }

    fn record_recording(
        &self,
        call_id: String,
        outcome: RecordingOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        async move {
            let now = format_timestamp(OffsetDateTime::now_utc());
            match outcome {
                RecordingOutcome::Stored(recording) => {
                    let size = i64::try_from(recording.audio.len()).unwrap_or(i64::MAX);
                    let params: [&(dyn ToSql + Sync); 6] = [
                        &call_id,
                        &now,
                        &recording.content_type,
                        &recording.sha256,
                        &size,
                        &recording.audio,
                    ];
                    self.execute(sql::STORE_RECORDING, &params).await?
                }
                RecordingOutcome::Retry {
                    error,
                    next_attempt_at,
                } => {
                    let next = format_timestamp(next_attempt_at);
                    self.execute(sql::RETRY_RECORDING, &[&call_id, &error, &next])
                        .await?
                }
                RecordingOutcome::GiveUp { error } => {
                    self.execute(sql::GIVE_UP_RECORDING, &[&call_id, &error, &now])
                        .await?
                }
            };
            Ok(())
        }
        .boxed()
    }

    fn mark_recording_alerted(
        &self,
        call_id: String,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let now = format_timestamp(now);
            let marked = self
                .execute(sql::MARK_RECORDING_ALERTED, &[&call_id, &now])
                .await?;
            Ok(marked == 1)
        }
        .boxed()
    }

    fn recording(
        &self,
        call_id: String,
    ) -> BoxFuture<'_, Result<Option<StoredRecording>, StoreError>> {
        async move {
            let rows = self.query(sql::SELECT_RECORDING, &[&call_id]).await?;
            let Some(row) = rows.first() else {
                return Ok(None);
            };
            Ok(Some(StoredRecording {
                content_type: row.try_get("content_type").map_err(column_error)?,
                sha256: row.try_get("sha256").map_err(column_error)?,
                audio: row.try_get("audio").map_err(column_error)?,
            }))
        }
        .boxed()
    }
}
