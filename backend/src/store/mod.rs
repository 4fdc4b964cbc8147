//! Where quote requests are kept. The server sees a store only through its traits, one per
//! concern (`Quotes`, `CallReports`, `Outbox`, `Inbox`, `Sessions`, `SiteKeys`,
//! `DeliveryAlerts`, `EmailBudget`, `Recordings`; `QuoteStore` is all of them), so another database can stand
//! behind them without touching the routes.

pub mod booking_mail_queue;
pub mod booking_mails;
pub mod bookings;
pub mod calendar_feed;
mod call_consent;
mod call_reports;
pub mod clean_text;
mod column;
pub mod consent;
pub mod conversation_consent;
mod conversations;
mod database_url;
mod delivery_alerts;
pub mod do_not_contact;
mod email_budget;
mod error;
pub mod error_chain;
mod inbox;
mod insert_quote;
mod language;
mod lead_columns;
pub mod lead_events;
mod lead_queries;
mod migrations;
mod model;
pub mod notice_acceptance;
mod options;
mod outbox;
pub mod postgres;
mod queries;
mod queued;
mod quotes;
mod recordings;
mod rows;
pub mod schema;
pub mod signer;
pub mod spam_report;
mod sql;
pub mod sqlite;
mod stored_names;
#[cfg(test)]
mod suite;
pub mod table_copy;
mod timestamp;
pub mod transcript;
pub mod written_consent;

use std::sync::Arc;

use futures_util::future::BoxFuture;

pub use call_consent::CallConsent;
pub use call_reports::CallReports;
pub use conversations::{Conversation, Conversations};
pub use delivery_alerts::{DeliveryAlerts, FailingChannel};
pub use email_budget::{hour_of, EmailBudget, HeldLeads};
pub use inbox::{Inbox, LeadDetail, LeadFilter, LeadQuery, SessionCutoffs, Sessions, SiteKeys};
pub use language::Language;
pub use model::{
    CallReport, Channel, Contact, Deliveries, Delivery, DeliveryOutcome, DeliveryStatus, Inserted,
    LeadStatus, ListQuery, NewQuote, PendingLead, Source, SpentToken, StoredQuote, VoiceOrigin,
    REUSED_TOKEN,
};
pub use options::StoreOptions;
pub use outbox::Outbox;
pub use quotes::Quotes;
pub use recordings::{DueRecording, RecordingOutcome, RecordingState, Recordings, StoredRecording};
pub use timestamp::format_timestamp;

pub use database_url::{DatabaseUrl, UnsupportedDatabaseUrl};
pub use error::{Cause, StoreError};

/// Everything a store does, for what puts the parts together (`app.rs`, the commands); each
/// part of the server takes the narrowest of the traits above that it uses.
pub trait QuoteStore:
    Quotes
    + consent::ConsentRecords
    + Conversations
    + CallReports
    + Recordings
    + Outbox
    + Inbox
    + Sessions
    + SiteKeys
    + DeliveryAlerts
    + EmailBudget
    + spam_report::SpamReports
    + written_consent::WrittenConsents
    + conversation_consent::ConversationConsents
    + do_not_contact::OptOuts
    + bookings::Bookings
    + notice_acceptance::NoticeAcceptances
    + booking_mails::BookingMails
    + calendar_feed::CalendarFeed
    + Send
    + Sync
{
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
