//! What the voice events, the follow-up e-mail and retention ask of a store: the end-of-call
//! reports the voice provider sends, one per call.

use futures_util::future::BoxFuture;
use time::OffsetDateTime;

use super::model::CallReport;
use super::StoreError;

pub trait CallReports: Send + Sync {
    /// Keeps the end-of-call report (a repeated report replaces the earlier one). With
    /// `email_leads`, the call's first quote gets a follow-up outbox row (once).
    fn record_call(&self, report: CallReport) -> BoxFuture<'_, Result<(), StoreError>>;

    /// The end-of-call report stored for `call_id`, if any.
    fn call(&self, call_id: String) -> BoxFuture<'_, Result<Option<CallReport>, StoreError>>;

    /// Deletes the end-of-call reports received before `reported_before`, a lead or none, and
    /// says how many (`leads::retention`: `CONVERSATION_RETENTION_DAYS`).
    fn purge_call_reports(
        &self,
        reported_before: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;
}
