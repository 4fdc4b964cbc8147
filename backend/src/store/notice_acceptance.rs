//! A visitor's acceptance of the notice before a conversation (docs/product.md, "The notices
//! before a conversation"): the one shown before a call, or the chat's, kept by the
//! conversation's id (`call_id`, a chat's `chat:` and its session) with the exact text the site
//! showed in the page's language, its SHA-256 and the time. Kept apart from the conversation's
//! own row (`voice_calls`), which the provider's report makes before or after it; the admin API
//! and the audit copy join the two by id. The first acceptance of a conversation stands: the
//! page may post it again (a retry, a reload) and nothing changes.
//!
//! It goes with its conversation: `PURGE_OLD_NOTICE_ACCEPTANCES` runs with the conversations'
//! purge (`call_reports.rs`), and keeps one whose conversation is on legal hold.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use time::OffsetDateTime;

use super::consent::sha256_hex;
use super::language::Language;
use super::model::Source;
use super::queries::ACCEPTANCE_COLUMNS;
use super::sql::{on_every_database, Lane, NamedRow};
use super::StoreError;

/// An acceptance as the admin API and the audit copy show it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct NoticeAcceptance {
    /// When the site recorded it (RFC 3339, UTC).
    pub at: String,
    /// The notice's exact text, the site's own for `language`.
    pub text: String,
    /// `text`'s SHA-256, hex.
    pub sha256: String,
    pub language: Language,
}

/// An acceptance to keep.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewNoticeAcceptance {
    /// The conversation as it is kept (`voice_events::conversation_id`).
    pub call_id: String,
    /// `voice` for the notice before a call, `chat` for the chat's.
    pub channel: Source,
    pub text: String,
    pub language: Language,
    pub at: OffsetDateTime,
}

on_every_database! {
    pub trait NoticeAcceptances: Send + Sync {
        /// Keeps the acceptance unless the conversation has one: whether this one was kept.
        fn accept_notice(
            &self,
            acceptance: NewNoticeAcceptance,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let values = vec![
                acceptance.call_id.into(),
                acceptance.channel.as_str().into(),
                acceptance.language.as_str().into(),
                sha256_hex(&acceptance.text).into(),
                acceptance.text.into(),
                acceptance.at.into(),
            ];
            let kept = self.execute(Lane::Person, KEEP_ACCEPTANCE, values);
            async move { Ok(kept.await? == 1) }.boxed()
        }

        /// Conversation `call_id`'s acceptance, whether or not the conversation itself is kept yet.
        fn notice_acceptance(
            &self,
            call_id: String,
        ) -> BoxFuture<'_, Result<Option<NoticeAcceptance>, StoreError>> {
            let rows = self.query(Lane::Person, &*SELECT_ACCEPTANCE, vec![call_id.into()]);
            async move {
                let rows = rows.await?;
                match rows.first() {
                    Some(row) => notice_acceptance(row),
                    None => Ok(None),
                }
            }
            .boxed()
        }
    }
}

/// The acceptance in a row with `queries::ACCEPTANCE_COLUMNS` (this file's query,
/// `lead_queries::CONVERSATIONS`); `None` when the row has none.
pub(super) fn notice_acceptance(
    row: &impl NamedRow,
) -> Result<Option<NoticeAcceptance>, StoreError> {
    let Some(at) = row.text("notice_accepted_at")? else {
        return Ok(None);
    };
    let language = row.required("notice_language")?;
    Ok(Some(NoticeAcceptance {
        at,
        text: row.required("notice_text")?,
        sha256: row.required("notice_sha256")?,
        language: Language::parse(&language).unwrap_or_default(),
    }))
}

/// $1 call id, $2 channel, $3 language, $4 SHA-256, $5 text, $6 when. The first stands.
const KEEP_ACCEPTANCE: &str = "INSERT INTO notice_acceptances
        (call_id, channel, language, sha256, text, accepted_at)
    VALUES ($1, $2, $3, $4, $5, $6)
    ON CONFLICT (call_id) DO NOTHING";

/// $1 call id.
static SELECT_ACCEPTANCE: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    format!("SELECT {ACCEPTANCE_COLUMNS} FROM notice_acceptances a WHERE a.call_id = $1")
});

/// $1 the cut-off: an acceptance goes with its conversation (`queries::PURGE_OLD_CONVERSATIONS`,
/// run after this), and one whose conversation never came once it is as old.
pub const PURGE_OLD_NOTICE_ACCEPTANCES: &str = "DELETE FROM notice_acceptances WHERE call_id IN
        (SELECT call_id FROM voice_calls WHERE reported_at < $1 AND legal_hold_at IS NULL)
    OR (accepted_at < $1
        AND NOT EXISTS (SELECT 1 FROM voice_calls c WHERE c.call_id = notice_acceptances.call_id))";
