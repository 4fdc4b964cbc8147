//! Where quote requests are kept. The server only sees the `QuoteStore` trait, so another
//! database can stand behind it without touching the routes.

mod migrations;
mod model;
pub mod sqlite;

use std::sync::Arc;

use futures_util::future::BoxFuture;

pub use model::{NewQuote, Source, StoredQuote};

use crate::config::DatabaseUrl;

#[derive(Clone, Debug, thiserror::Error)]
pub enum StoreError {
    #[error("database unavailable: {0}")]
    Unavailable(String),
    #[error("database error: {0}")]
    Database(String),
}

pub trait QuoteStore: Send + Sync {
    /// Resolves only once the quote is durably committed.
    fn insert(&self, quote: NewQuote) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Every stored quote created at or after `since` (all when `None`), oldest first.
    fn list_since(
        &self,
        since: Option<time::OffsetDateTime>,
    ) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>>;

    /// Whether the database answers a trivial query.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Commits what is queued and stops accepting writes; called once on shutdown.
    fn close(&self) -> BoxFuture<'_, ()>;
}

pub async fn open(url: &DatabaseUrl) -> Result<Arc<dyn QuoteStore>, StoreError> {
    match url {
        DatabaseUrl::Sqlite(target) => Ok(Arc::new(sqlite::SqliteStore::open(target).await?)),
    }
}
