//! Written consent to be called that a conversation gave, recorded on the conversation's leads
//! (`written_consent.rs`) whichever comes first:
//! - in a chat, the visitor's click on Yes beside the exact text the page showed (kept in
//!   `chat_call_consents` by the chat's id, as its leads' `call_id` names it), the chat's leads
//!   with a phone number stored before or after the click;
//! - in a call, the caller's agreement to the text the assistant read, once the site has stored
//!   the call's recording (`recordings.rs`): each of the call's leads the assistant passed on
//!   with a phone number and `may_call`, the recording's SHA-256 and the moment of the answer
//!   (the lead's tool call) in the record's evidence. No stored recording, no written consent:
//!   the lead stays oral.
//!
//! `settle` does it for one conversation, in the transaction that made it due (the click, the
//! stored recording) or right after a lead is stored; `settle_conversations` finds any left (a
//! lead stored while its settling failed) at start and hourly (`leads::retention`), so none is
//! lost. A lead already written is left as it is, so settling again changes nothing.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::consent::{ConsentChannel, Evidence};
use super::language::Language;
use super::lead_columns::CALL_ID;
use super::lead_queries::{leads_of_conversation, UNSETTLED};
use super::rows::stored_quote;
use super::sql::{on_every_database, Connection, Lane, NamedRow, Value};
use super::written_consent::{append, NewWrittenConsent, WrittenOutcome};
use super::{format_timestamp, Source, StoreError};

/// A chat visitor's answer to the consent question the page showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChatAnswer {
    /// The chat as its leads name it (`chat:` and the chat's id).
    pub call_id: String,
    pub yes: bool,
    /// The text the page showed: the site's own, in `language`.
    pub disclosure: String,
    pub language: Language,
    /// The page it was shown on (`/`, `/es/`).
    pub page: String,
    pub client: Option<String>,
    pub user_agent: Option<String>,
    pub at: OffsetDateTime,
}

on_every_database! {
    pub trait ConversationConsents: Send + Sync {
        /// Keeps a Yes (a No forgets a Yes kept before, and records nothing) and records it on the
        /// chat's leads already stored; how many it recorded.
        fn record_chat_answer(&self, answer: ChatAnswer) -> BoxFuture<'_, Result<u64, StoreError>> {
            self.run(Lane::Person, true, move |c| {
                async move {
                    if !answer.yes {
                        c.execute(FORGET_CHAT_ANSWER, &[answer.call_id.as_str().into()])
                            .await?;
                        return Ok(0);
                    }
                    let values = [
                        answer.call_id.as_str().into(),
                        answer.disclosure.as_str().into(),
                        answer.language.as_str().into(),
                        answer.page.as_str().into(),
                        answer.client.clone().into(),
                        answer.user_agent.clone().into(),
                        answer.at.into(),
                    ];
                    c.execute(KEEP_CHAT_ANSWER, &values).await?;
                    settle(c, &answer.call_id, answer.at).await
                }
                .boxed()
            })
        }

        /// Records what conversation `call_id` gave on those of its leads that still lack it; how
        /// many.
        fn settle_conversation(&self, call_id: String) -> BoxFuture<'_, Result<u64, StoreError>> {
            self.run(Lane::Person, true, move |c| {
                async move { settle(c, &call_id, OffsetDateTime::now_utc()).await }.boxed()
            })
        }

        /// `settle_conversation` for each conversation with a lead left to settle; how many
        /// recorded.
        fn settle_conversations(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
            async move {
                let rows = self.query(Lane::Outbox, UNSETTLED, Vec::new()).await?;
                let mut recorded = 0;
                for row in rows {
                    recorded += self.settle_conversation(row.required(CALL_ID)?).await?;
                }
                Ok(recorded)
            }
            .boxed()
        }
    }
}

/// Records, in the transaction `c` is in, the written consent conversation `call_id` gave on
/// each of its leads with a phone number that lacks one (`now`: the record's time); how many.
pub(super) async fn settle(
    c: &mut dyn Connection,
    call_id: &str,
    now: OffsetDateTime,
) -> Result<u64, StoreError> {
    let key = [Value::from(call_id)];
    let leads = c.query(&leads_of_conversation(), &key).await?;
    if leads.is_empty() {
        return Ok(0);
    }
    let click = c.query(SELECT_CHAT_ANSWER, &key).await?;
    let click = click
        .first()
        .map(|row| clicked(row, call_id, now))
        .transpose()?;
    let recording = c.query(STORED_RECORDING_SHA256, &key).await?;
    let recording = recording
        .first()
        .map(|row| row.required("sha256"))
        .transpose()?;
    let mut recorded = 0;
    for lead in leads.iter().map(stored_quote) {
        let lead = lead?;
        let new = match (lead.source, &click, &recording) {
            (Source::Chat, Some(click), _) => NewWrittenConsent {
                lead_id: lead.id.clone(),
                ..click.clone()
            },
            (Source::Voice, _, Some(sha256)) if lead.contact.may_call => {
                // The text the assistant was given to read in the lead's language, as the lead's
                // own record keeps it.
                let Some(consent) = &lead.consent else {
                    continue;
                };
                let Some(disclosure) = consent.phone.as_ref().and_then(|p| p.text.clone()) else {
                    continue;
                };
                NewWrittenConsent {
                    lead_id: lead.id.clone(),
                    disclosure,
                    channel: ConsentChannel::Voice,
                    page: consent.page.clone(),
                    language: lead.language,
                    client: None,
                    user_agent: None,
                    evidence: Some(Evidence {
                        call_id: Some(call_id.to_owned()),
                        recording_sha256: Some(sha256.clone()),
                        answered_at: Some(format_timestamp(lead.created_at)),
                    }),
                    at: now,
                }
            }
            _ => continue,
        };
        if let WrittenOutcome::Recorded { .. } = append(c, new).await? {
            recorded += 1;
        }
    }
    Ok(recorded)
}

/// The written consent chat `call_id`'s kept Yes gives at `now`, for a lead it names.
fn clicked(
    row: &impl NamedRow,
    call_id: &str,
    now: OffsetDateTime,
) -> Result<NewWrittenConsent, StoreError> {
    let language = row.required("language")?;
    Ok(NewWrittenConsent {
        lead_id: String::new(),
        disclosure: row.required("disclosure")?,
        channel: ConsentChannel::Chat,
        page: row.required("page")?,
        language: Language::parse(&language).unwrap_or(Language::En),
        client: row.text("client")?,
        user_agent: row.text("user_agent")?,
        evidence: Some(Evidence {
            call_id: Some(call_id.to_owned()),
            recording_sha256: None,
            answered_at: Some(row.required("answered_at")?),
        }),
        at: now,
    })
}

/// $1 the chat, $2 the text, $3 language, $4 page, $5 client, $6 browser, $7 when. The latest
/// answer stands.
const KEEP_CHAT_ANSWER: &str = "INSERT INTO chat_call_consents
        (call_id, disclosure, language, page, client, user_agent, answered_at)
    VALUES ($1, $2, $3, $4, $5, $6, $7)
    ON CONFLICT (call_id) DO UPDATE SET disclosure = excluded.disclosure,
        language = excluded.language, page = excluded.page, client = excluded.client,
        user_agent = excluded.user_agent, answered_at = excluded.answered_at";

/// $1 the chat.
const FORGET_CHAT_ANSWER: &str = "DELETE FROM chat_call_consents WHERE call_id = $1";

/// $1 the chat.
const SELECT_CHAT_ANSWER: &str = "SELECT disclosure, language, page, client, user_agent,
        answered_at FROM chat_call_consents WHERE call_id = $1";

/// $1 the call.
const STORED_RECORDING_SHA256: &str =
    "SELECT sha256 FROM call_recordings WHERE call_id = $1 AND stored_at IS NOT NULL";

/// $1 the cut-off: a kept answer goes with the conversations past `CONVERSATION_RETENTION_DAYS`.
pub const PURGE_OLD_CHAT_ANSWERS: &str = "DELETE FROM chat_call_consents WHERE answered_at < $1";
