//! What the channel workers ask of a store: the deliveries due on their channel, and each
//! attempt's outcome. A new quote is queued on its own row (`queued.rs`); taking the due
//! deliveries first moves queued quotes into `lead_outbox`, a row per channel.

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

use super::model::{Channel, DeliveryOutcome, PendingLead};
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

    /// Records one delivery attempt of the quote `quote_id` on `channel`.
    fn record_delivery(
        &self,
        quote_id: String,
        channel: Channel,
        outcome: DeliveryOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>>;
}
