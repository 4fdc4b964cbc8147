//! What the quote routes, the voice events and the export ask of a store: keeping a new quote
//! request, and reading the stored ones back.

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

use super::model::{Inserted, ListQuery, NewQuote, StoredQuote};
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
