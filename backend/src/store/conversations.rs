//! The conversations with the assistant the site keeps (`CONVERSATION_RETENTION_DAYS`), with or
//! without a lead, as the admin API lists them: each call's end-of-call report and the first
//! lead it produced, if any. The broker can put one on legal hold (a complaint, an audit): no
//! purge deletes it or its recording until the hold is lifted.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use time::OffsetDateTime;

use super::call_reports::{conversation_channel, lines_dropped};
use super::lead_queries::{CONVERSATION, CONVERSATIONS};
use super::model::Source;
use super::notice_acceptance::{notice_acceptance, NoticeAcceptance};
use super::queries::SET_LEGAL_HOLD;
use super::recordings::{recording_state, RecordingState};
use super::sql::{on_every_database, Lane, NamedRow};
use super::StoreError;

/// One kept conversation.
/// A conversation with the assistant (a call's end-of-call report, or a web chat's turns) and
/// the first lead it produced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Conversation {
    pub call_id: String,
    /// `voice` or `chat`.
    #[schema(schema_with = super::schema::conversation_channel)]
    pub channel: Source,
    /// When it started (RFC 3339, UTC), when the provider said.
    #[schema(required = true)]
    pub started_at: Option<String>,
    /// When its end-of-call report came (RFC 3339, UTC).
    pub reported_at: String,
    #[schema(required = true)]
    pub ended_reason: Option<String>,
    /// The first lead the conversation produced; `None` for one that produced none (or whose
    /// leads were deleted).
    #[schema(required = true)]
    pub lead_id: Option<String>,
    #[schema(required = true)]
    pub summary: Option<String>,
    /// Left out of lists (`Conversations::conversations`), kept for one conversation.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub transcript: Option<String>,
    /// The transcript's lines (each one speaker's turn) left out past `MAX_TRANSCRIPT_BYTES`
    /// (256 KiB): 0 when it is whole.
    pub transcript_lines_dropped: u64,
    /// Where the provider kept the recording.
    #[schema(required = true)]
    pub recording_url: Option<String>,
    /// The site's own copy of the recording (`GET .../recording`), when there is one to make.
    #[schema(required = true)]
    pub recording: Option<RecordingState>,
    /// Since when it is on legal hold (RFC 3339, UTC): kept past `CONVERSATION_RETENTION_DAYS`.
    #[schema(required = true)]
    pub legal_hold_at: Option<String>,
    /// The visitor's acceptance of the notice before it (the call's or the chat's), if the page
    /// posted one.
    #[schema(required = true)]
    pub notice_accepted: Option<NoticeAcceptance>,
}

on_every_database! {
    pub trait Conversations: Send + Sync {
        /// The newest `limit` conversations, newest first, without their transcripts.
        fn conversations(
            &self,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<Conversation>, StoreError>> {
            let rows = self.query(Lane::Person, &*CONVERSATIONS, vec![limit.into()]);
            async move { rows.await?.iter().map(conversation).collect() }.boxed()
        }

        /// One conversation with its transcript, if it is kept.
        fn conversation(
            &self,
            call_id: String,
        ) -> BoxFuture<'_, Result<Option<Conversation>, StoreError>> {
            let rows = self.query(Lane::Person, &*CONVERSATION, vec![call_id.into()]);
            async move { rows.await?.first().map(conversation).transpose() }.boxed()
        }

        /// Puts the conversation on legal hold from `at`, or lifts it with `None`: whether it is
        /// kept.
        fn set_legal_hold(
            &self,
            call_id: String,
            at: Option<OffsetDateTime>,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let changed = self.execute(
                Lane::Person,
                SET_LEGAL_HOLD,
                vec![call_id.into(), at.into()],
            );
            async move { Ok(changed.await? == 1) }.boxed()
        }
    }
}

/// A row of `lead_queries::CONVERSATIONS` or `CONVERSATION`.
fn conversation(row: &impl NamedRow) -> Result<Conversation, StoreError> {
    Ok(Conversation {
        call_id: row.required("call_id")?,
        channel: conversation_channel(row)?,
        started_at: row.text("started_at")?,
        reported_at: row.required("reported_at")?,
        ended_reason: row.text("ended_reason")?,
        lead_id: row.text("lead_id")?,
        summary: row.text("summary")?,
        transcript: row.text("transcript")?,
        transcript_lines_dropped: lines_dropped(row)?,
        recording_url: row.text("recording_url")?,
        recording: recording_state(row)?,
        legal_hold_at: row.text("legal_hold_at")?,
        notice_accepted: notice_acceptance(row)?,
    })
}
