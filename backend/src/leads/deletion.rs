//! Deleting a lead whole, the one way both the broker's delete and the retention limit use: the
//! store removes the row, its outbox entry and its idempotency key; the conversation it came from
//! (its call's report) and its consent record stay, as records the rules ask a Medicare broker
//! to keep (`CONVERSATION_RETENTION_DAYS` removes the conversation); a log line records the id
//! and why (never the e-mail).

use crate::store::{Inbox, StoreError};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Why {
    /// The broker deleted it (for example on the person's request).
    Asked,
    /// It was older than `LEAD_RETENTION_DAYS`.
    Retention,
}

impl Why {
    fn as_str(self) -> &'static str {
        match self {
            Why::Asked => "asked",
            Why::Retention => "retention",
        }
    }
}

/// Whether the lead existed.
pub async fn delete_lead(
    store: &(impl Inbox + ?Sized),
    id: &str,
    why: Why,
) -> Result<bool, StoreError> {
    let deleted = store.delete_lead(id.to_owned()).await?;
    if deleted {
        tracing::info!(lead_id = id, reason = why.as_str(), "lead deleted");
    }
    Ok(deleted)
}
