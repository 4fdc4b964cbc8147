//! Where quote requests are kept. The server only sees the `QuoteStore` trait, so another
//! database can stand behind it without touching the routes.

mod database_url;
mod delivery_alerts;
mod email_budget;
mod error;
pub mod error_chain;
mod inbox;
mod inbox_queries;
mod insert_quote;
mod migrations;
mod model;
pub mod postgres;
mod queries;
mod queued;
mod rows;
pub mod sqlite;
#[cfg(test)]
mod suite;
pub mod table_copy;

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

pub use delivery_alerts::{DeliveryAlerts, FailingChannel};
pub use email_budget::{hour_of, EmailBudget, HeldLeads};
pub use inbox::{Inbox, LeadDetail, LeadFilter, LeadQuery, SessionCutoffs, Sessions, SiteKeys};
pub use model::{
    format_timestamp, CallReport, Channel, Deliveries, Delivery, DeliveryOutcome, DeliveryStatus,
    Inserted, Language, LeadStatus, ListQuery, NewQuote, PendingLead, Source, StoredQuote,
    VoiceOrigin,
};

pub use database_url::{DatabaseUrl, UnsupportedDatabaseUrl};
pub use error::{Cause, StoreError};

/// How long a request waits for the database (a pooled PostgreSQL connection, or SQLite's lock
/// held by another process such as a backup) before it is told the database is unavailable.
const DATABASE_WAIT: Duration = Duration::from_secs(3);

/// How the store behaves beyond keeping rows.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreOptions {
    /// Queue every new quote for the forwarder, in its own transaction.
    pub forward_leads: bool,
    /// Queue every new quote for an e-mail, and the call a voice quote came from for a
    /// follow-up once its end-of-call report arrives, each in its own transaction.
    pub email_leads: bool,
}

impl StoreOptions {
    /// The outbox channels every new quote is queued on, in its own transaction.
    pub fn lead_channels(self) -> impl Iterator<Item = Channel> {
        [
            (self.forward_leads, Channel::Webhook),
            (self.email_leads, Channel::Email),
        ]
        .into_iter()
        .filter_map(|(on, channel)| on.then_some(channel))
    }

    /// What a new quote's `queued_channels` column holds (`queued::QueuedChannels`).
    pub fn queued_channels(self) -> Option<String> {
        queued::QueuedChannels::of(self.lead_channels())
    }
}

pub trait QuoteStore:
    Inbox + Sessions + SiteKeys + DeliveryAlerts + EmailBudget + Send + Sync
{
    /// Resolves only once the quote, queued on each channel that is on, is durably committed.
    /// A voice quote whose call and tool call are already stored is not stored again.
    fn insert(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>>;

    /// Keeps the end-of-call report (a repeated report replaces the earlier one). With
    /// `email_leads`, the call's first quote gets a follow-up outbox row (once).
    fn record_call(&self, report: CallReport) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The end-of-call report stored for `call_id`, if any.
    fn call(&self, call_id: String) -> BoxFuture<'_, Result<Option<CallReport>, StoreError>>;

    /// Deletes the end-of-call reports received before `reported_before` that no quote request
    /// refers to, and says how many (`retention`).
    fn purge_call_reports(
        &self,
        reported_before: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;

    /// Stored quotes with their call and delivery state, in the order and page `query` asks.
    fn list(&self, query: ListQuery) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>>;

    /// Every stored quote created at or after `since` (all when `None`), oldest first.
    fn list_since(
        &self,
        since: Option<OffsetDateTime>,
    ) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
        self.list(ListQuery {
            since,
            ..ListQuery::default()
        })
    }

    /// `channel`'s outbox rows neither delivered nor given up whose next attempt is due at
    /// `now`, after taking up to `limit` newly queued quotes into the outbox (each on every
    /// channel it is queued on, first attempt due at its creation). A store several instances
    /// share hands each row to one caller (until `LEAD_CLAIM` has passed).
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

    /// Whether the database answers a trivial query.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Commits what is queued and stops accepting writes; called once on shutdown.
    fn close(&self) -> BoxFuture<'_, ()>;
}

pub async fn open(url: &DatabaseUrl) -> Result<Arc<dyn QuoteStore>, StoreError> {
    open_with(url, StoreOptions::default()).await
}

/// For reading what is stored (`backend export`): never creates a file, a table or a
/// migration, and takes no writes. A missing SQLite file, or a database whose schema is not
/// this release's, is `Unusable`.
pub async fn open_read_only(url: &DatabaseUrl) -> Result<Arc<dyn QuoteStore>, StoreError> {
    match url {
        DatabaseUrl::Sqlite(target) => {
            Ok(Arc::new(sqlite::SqliteStore::open_read_only(target).await?))
        }
        DatabaseUrl::Postgres(url) => Ok(Arc::new(
            postgres::PostgresStore::open_read_only(url).await?,
        )),
    }
}

pub async fn open_with(
    url: &DatabaseUrl,
    options: StoreOptions,
) -> Result<Arc<dyn QuoteStore>, StoreError> {
    match url {
        DatabaseUrl::Sqlite(target) => {
            Ok(Arc::new(sqlite::SqliteStore::open(target, options).await?))
        }
        DatabaseUrl::Postgres(url) => {
            Ok(Arc::new(postgres::PostgresStore::open(url, options).await?))
        }
    }
}
