//! What follows a lead to the broker's systems after its first post: marking a person do not
//! contact, or unmarking them, posts each of their leads whose state it changed again
//! (`forward::lead_post`). The change re-queues the lead's `webhook` row in the outbox in the
//! transaction that makes it, due at once with its attempts reset and the event named on it, so
//! no change is lost and a post still pending is overtaken: the row posts the lead as it is when
//! sent, with the latest event, and an attempt taken before the change is no longer recorded on
//! it (`queries::MARK_DELIVERED` and the others match the event they posted).

use serde::Serialize;
use time::OffsetDateTime;

use super::lead_columns::ID;
use super::lead_queries::{PERSONS_LEADS, REQUEUE_WEBHOOK};
use super::sql::{Connection, NamedRow, Value};
use super::stored_names::stored_names;
use super::StoreError;

/// Why a lead is posted: it came, or its person's do-not-contact state changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum LeadEvent {
    Created,
    DoNotContactMarked,
    DoNotContactUnmarked,
}

stored_names!(
    LeadEvent,
    parse,
    [
        Created => "created",
        DoNotContactMarked => "do_not_contact_marked",
        DoNotContactUnmarked => "do_not_contact_unmarked",
    ]
);

/// A change queued on a webhook row: what happened and when (the stored `event_at`, which the
/// attempt's outcome is recorded against).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct QueuedEvent {
    pub event: LeadEvent,
    pub at: OffsetDateTime,
}

/// Whether each of lead `id`'s person's leads is do not contact now, to compare after a change.
pub(super) async fn do_not_contact_states(
    c: &mut dyn Connection,
    id: &str,
) -> Result<Vec<(String, bool)>, StoreError> {
    let rows = c.query(PERSONS_LEADS, &[id.into()]).await?;
    rows.iter()
        .map(|row| Ok((row.required(ID)?, row.text("marked_since")?.is_some())))
        .collect()
}

/// Re-queues the webhook post of each of lead `id`'s person's leads whose state differs from
/// `before` (`do_not_contact_states` before the change), the event at `at`.
pub(super) async fn repost_changed(
    c: &mut dyn Connection,
    id: &str,
    before: &[(String, bool)],
    at: OffsetDateTime,
) -> Result<(), StoreError> {
    for (lead, now) in do_not_contact_states(c, id).await? {
        let was = before
            .iter()
            .find_map(|(other, was)| (*other == lead).then_some(*was));
        if was.is_some_and(|was| was != now) {
            let event = if now {
                LeadEvent::DoNotContactMarked
            } else {
                LeadEvent::DoNotContactUnmarked
            };
            let values: [Value; 3] = [lead.into(), event.as_str().into(), at.into()];
            c.execute(REQUEUE_WEBHOOK, &values).await?;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_event_reads_back_by_its_name() {
        for event in [
            LeadEvent::Created,
            LeadEvent::DoNotContactMarked,
            LeadEvent::DoNotContactUnmarked,
        ] {
            assert_eq!(LeadEvent::parse(event.as_str()), Some(event));
            assert_eq!(
                serde_json::to_value(event).unwrap(),
                serde_json::json!(event.as_str())
            );
        }
        assert_eq!(LeadEvent::parse("deleted"), None);
    }
}
