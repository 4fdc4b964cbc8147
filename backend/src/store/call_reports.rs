//! What the voice events, the follow-up e-mail and retention ask of a store: the end-of-call
//! reports the voice provider sends, one per call. Written once for both databases, over
//! `store::sql`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::model::{CallReport, Source};
use super::queries::{INSERT_FOLLOW_UP, PURGE_OLD_CONVERSATIONS, SELECT_CALL, UPSERT_CALL};
use super::recordings::{PURGE_OLD_RECORDINGS, QUEUE_RECORDING};
use super::sql::{Database, Lane, NamedRow, Value};
use super::StoreError;

pub trait CallReports: Send + Sync {
    /// Keeps the end-of-call report (a repeated report replaces the earlier one). With
    /// `email_leads`, the call's first quote gets a follow-up outbox row (once).
    fn record_call(&self, report: CallReport) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The end-of-call report stored for `call_id`, if any.
    fn call(&self, call_id: String) -> BoxFuture<'_, Result<Option<CallReport>, StoreError>>;

    /// Deletes the end-of-call reports received before `reported_before`, a lead or none, and
    /// says how many (`leads::retention`: `CONVERSATION_RETENTION_DAYS`).
    fn purge_call_reports(
        &self,
        reported_before: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;
}

impl<D: Database> CallReports for D {
    /// The report, its recording's copy and the follow-up in one transaction. On the person's
    /// lane: the provider waits for the answer.
    fn record_call(&self, report: CallReport) -> BoxFuture<'_, Result<(), StoreError>> {
        let follow_up = self.options().email_leads && report.channel == Source::Voice;
        self.run(Lane::Person, true, move |c| {
            async move {
                let now = Value::from(OffsetDateTime::now_utc());
                let call_id = Value::from(report.call_id);
                let call = [
                    call_id.clone(),
                    report.ended_reason.into(),
                    report.summary.into(),
                    report.transcript.into(),
                    now.clone(),
                    report.recording_url.clone().into(),
                    report.started_at.into(),
                    report.channel.as_str().into(),
                ];
                c.execute(UPSERT_CALL, &call).await?;
                if let Some(url) = report.recording_url {
                    let copy = [call_id.clone(), url.into(), now.clone()];
                    c.execute(QUEUE_RECORDING, &copy).await?;
                }
                if follow_up {
                    c.execute(INSERT_FOLLOW_UP, &[call_id, now]).await?;
                }
                Ok(())
            }
            .boxed()
        })
    }

    fn call(&self, call_id: String) -> BoxFuture<'_, Result<Option<CallReport>, StoreError>> {
        let rows = self.query(Lane::Outbox, SELECT_CALL, vec![call_id.into()]);
        async move { rows.await?.first().map(call_report).transpose() }.boxed()
    }

    fn purge_call_reports(
        &self,
        reported_before: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.run(Lane::Outbox, true, move |c| {
            async move {
                let cutoff = [Value::from(reported_before)];
                c.execute(PURGE_OLD_RECORDINGS, &cutoff).await?;
                c.execute(PURGE_OLD_CONVERSATIONS, &cutoff).await
            }
            .boxed()
        })
    }
}

/// A row of `queries::SELECT_CALL`.
fn call_report(row: &impl NamedRow) -> Result<CallReport, StoreError> {
    Ok(CallReport {
        call_id: row.required("call_id")?,
        ended_reason: row.text("ended_reason")?,
        summary: row.text("summary")?,
        transcript: row.text("transcript")?,
        recording_url: row.text("recording_url")?,
        started_at: row.text("started_at")?,
        channel: conversation_channel(row, None)?,
    })
}

/// `voice` or `chat`: the row's `channel`, or for a conversation kept before conversations named
/// their channel (all `voice` then), its first lead's source (`also`).
pub(super) fn conversation_channel(
    row: &impl NamedRow,
    also: Option<&str>,
) -> Result<Source, StoreError> {
    let chat = row.text("channel")?.as_deref() == Some("chat") || also == Some("chat");
    Ok(if chat { Source::Chat } else { Source::Voice })
}
