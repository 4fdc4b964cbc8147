//! What the channel workers ask of a store: the deliveries due on their channel, and each
//! attempt's outcome. A new quote is queued on its own row (`queued.rs`); taking the due
//! deliveries first moves queued quotes into `lead_outbox`, a row per channel.

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

use super::email_budget::HOLD;
use super::model::{Channel, DeliveryOutcome, PendingLead};
use super::queries::{MARK_DELIVERED, MARK_GAVE_UP, MARK_RETRY};
use super::sql::Value;
use super::StoreError;

pub trait Outbox: Send + Sync {
    /// Takes up to `limit` newly queued quotes into the outbox (each on every channel it is
    /// queued on, first attempt due at its creation), then answers `channel`'s outbox rows
    /// neither delivered nor given up whose next attempt is due at `now`. A store several
    /// instances share hands each row to one caller (until `LEAD_CLAIM` has passed).
    fn take_due_deliveries(
        &self,
        channel: Channel,
        now: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<PendingLead>, StoreError>>;

    /// Records one delivery attempt of `lead` on its channel; not on a row re-queued for another
    /// event since it was taken (`lead_events`).
    fn record_delivery(
        &self,
        lead: &PendingLead,
        outcome: DeliveryOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
}

/// The statement that records one attempt's `outcome` at `now`, with its values: the rule both
/// stores run, SQLite in its writer's group commits, PostgreSQL on a pooled connection.
pub fn delivery_record(
    lead: &PendingLead,
    outcome: DeliveryOutcome,
    now: OffsetDateTime,
) -> (&'static str, Vec<Value>) {
    let id: Value = lead.quote.id.as_str().into();
    let (channel, now) = (lead.channel.as_str().into(), now.into());
    let event: Value = lead.event.map(|queued| queued.at).into();
    match outcome {
        DeliveryOutcome::Delivered => (MARK_DELIVERED, vec![id, now, channel, event]),
        DeliveryOutcome::Retry {
            error,
            next_attempt_at,
        } => {
            let values = vec![id, error.into(), next_attempt_at.into(), channel, event];
            (MARK_RETRY, values)
        }
        DeliveryOutcome::GiveUp { error } => {
            (MARK_GAVE_UP, vec![id, error.into(), now, channel, event])
        }
        DeliveryOutcome::Held { note } => (HOLD, vec![id, now, note.into()]),
    }
}
