//! What the voice events, the follow-up e-mail and retention ask of a store: the end-of-call
//! reports the voice provider sends, one per call. Written once for both databases, over
//! `store::sql`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::conversation_consent::PURGE_OLD_CHAT_ANSWERS;
use super::lead_queries::INSERT_FOLLOW_UP;
use super::model::{CallReport, Source};
use super::notice_acceptance::PURGE_OLD_NOTICE_ACCEPTANCES;
use super::queries::{PURGE_OLD_CONVERSATIONS, RECORD_CALL, RECORD_CHAT_TURN, SELECT_CALL};
use super::recordings::{PURGE_OLD_RECORDINGS, QUEUE_RECORDING};
use super::sql::{on_every_database, Lane, NamedRow, Value};
use super::transcript::capped;
use super::StoreError;

on_every_database! {
    pub trait CallReports: Send + Sync {
        /// Keeps the end-of-call report, its transcript within `MAX_TRANSCRIPT_BYTES`. A call's is
        /// written once: a repeated report adds only what the first lacked. A chat's (one report a
        /// turn) keeps its start and takes the transcript so far. With `email_leads`, the call's
        /// first quote gets a follow-up outbox row (once). The report, its recording's copy and the
        /// follow-up in one transaction; on the person's lane: the provider waits for the answer.
        fn record_call(&self, report: CallReport) -> BoxFuture<'_, Result<(), StoreError>> {
            let follow_up = self.options().email_leads && report.channel == Source::Voice;
            self.run(Lane::Person, true, move |c| {
                async move {
                    let now = Value::from(OffsetDateTime::now_utc());
                    let call_id = Value::from(report.call_id);
                    let (transcript, cut) = match report.transcript.as_deref().map(capped) {
                        Some((kept, cut)) => (Some(kept.to_owned()), cut),
                        None => (None, 0),
                    };
                    let lines_dropped = Value::from(report.transcript_lines_dropped + cut);
                    if report.channel == Source::Chat {
                        let turn = [
                            call_id,
                            transcript.into(),
                            now,
                            report.started_at.into(),
                            lines_dropped,
                        ];
                        return c.execute(RECORD_CHAT_TURN, &turn).await.map(drop);
                    }
                    let call = [
                        call_id.clone(),
                        report.ended_reason.into(),
                        report.summary.into(),
                        transcript.into(),
                        now.clone(),
                        report.recording_url.into(),
                        report.started_at.into(),
                        lines_dropped,
                    ];
                    let kept = c.query(RECORD_CALL, &call).await?;
                    // The copy follows the link kept, never a later report's.
                    let recording_url = kept
                        .first()
                        .map(|row| row.text("recording_url"))
                        .transpose()?
                        .flatten();
                    if let Some(url) = recording_url {
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

        /// The end-of-call report stored for `call_id`, if any.
        fn call(&self, call_id: String) -> BoxFuture<'_, Result<Option<CallReport>, StoreError>> {
            let rows = self.query(Lane::Outbox, SELECT_CALL, vec![call_id.into()]);
            async move { rows.await?.first().map(call_report).transpose() }.boxed()
        }

        /// Deletes the end-of-call reports received before `reported_before`, a lead or none, and
        /// says how many (`leads::retention`: `CONVERSATION_RETENTION_DAYS`).
        fn purge_call_reports(
            &self,
            reported_before: OffsetDateTime,
        ) -> BoxFuture<'_, Result<u64, StoreError>> {
            self.run(Lane::Outbox, true, move |c| {
                async move {
                    let cutoff = [Value::from(reported_before)];
                    c.execute(PURGE_OLD_RECORDINGS, &cutoff).await?;
                    c.execute(PURGE_OLD_CHAT_ANSWERS, &cutoff).await?;
                    c.execute(PURGE_OLD_NOTICE_ACCEPTANCES, &cutoff).await?;
                    c.execute(PURGE_OLD_CONVERSATIONS, &cutoff).await
                }
                .boxed()
            })
        }
    }
}

/// A row of `queries::SELECT_CALL`.
fn call_report(row: &impl NamedRow) -> Result<CallReport, StoreError> {
    Ok(CallReport {
        call_id: row.required("call_id")?,
        ended_reason: row.text("ended_reason")?,
        summary: row.text("summary")?,
        transcript: row.text("transcript")?,
        transcript_lines_dropped: lines_dropped(row)?,
        recording_url: row.text("recording_url")?,
        started_at: row.text("started_at")?,
        channel: conversation_channel(row)?,
    })
}

/// `voice` or `chat`, as the row's `channel` says.
pub(super) fn conversation_channel(row: &impl NamedRow) -> Result<Source, StoreError> {
    let chat = row.text("channel")?.as_deref() == Some("chat");
    Ok(if chat { Source::Chat } else { Source::Voice })
}

/// The row's `transcript_lines_dropped`.
pub(super) fn lines_dropped(row: &impl NamedRow) -> Result<u64, StoreError> {
    Ok(row.number("transcript_lines_dropped")?.max(0) as u64)
}
