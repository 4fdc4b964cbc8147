//! What the quote routes, the voice events and the export ask of a store: keeping a new quote
//! request, and reading the stored ones back. Each store keeps quotes its own way (group
//! commits: `InsertQuote`); the rest is written once for both databases, over `store::sql`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::lead_queries::list_quotes;
use super::model::{Inserted, ListQuery, NewQuote, StoredQuote};
use super::queries::FORGET_SPENT_FORM_TOKENS;
use super::rows::stored_quote;
use super::sql::{Database, Lane, Value};
use super::StoreError;

pub trait Quotes: Send + Sync {
    /// Resolves only once the quote, queued on each channel that is on, is durably committed.
    /// A voice quote whose call and tool call are already stored is not stored again. A lead
    /// whose form token another lead spent is stored as spam (`REUSED_TOKEN`).
    fn insert(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>>;

    /// Forgets the form tokens leads spent that were issued before `issued_before` (expired:
    /// no post can spend them again); how many.
    fn forget_spent_form_tokens(
        &self,
        issued_before: OffsetDateTime,
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
}

/// What each store does its own way: `Quotes::insert`.
pub(super) trait InsertQuote: Database {
    fn insert_quote(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>>;
}

impl<D: InsertQuote> Quotes for D {
    fn insert(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>> {
        self.insert_quote(quote)
    }

    /// An hourly deletion, on the outbox's lane.
    fn forget_spent_form_tokens(
        &self,
        issued_before: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        let values = vec![issued_before.into()];
        self.execute(Lane::Outbox, FORGET_SPENT_FORM_TOKENS, values)
    }

    fn list(&self, query: ListQuery) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
        let since = Value::from(query.since.map(super::format_timestamp).unwrap_or_default());
        // No limit is the largest: SQLite refuses a NULL limit, PostgreSQL a negative one.
        let limit = Value::from(query.limit.unwrap_or(usize::MAX));
        let values = match &query.after {
            Some(after) => vec![since, after.as_str().into(), limit],
            None => vec![since, limit],
        };
        let sql = list_quotes(query.newest_first, query.after.is_some());
        let rows = self.query(Lane::Person, sql, values);
        async move { rows.await?.iter().map(stored_quote).collect() }.boxed()
    }
}
