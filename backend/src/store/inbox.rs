//! What the broker's inbox asks of a store beyond keeping leads: finding them by filter, marking
//! them, deleting them whole (for a person who asks, and for retention), and the admin sessions.

use futures_util::future::BoxFuture;
use serde::Serialize;
use time::OffsetDateTime;
use wasm_core::Product;

use super::model::{LeadStatus, Source, StoredQuote};
use super::StoreError;

/// Which leads the inbox lists; every part narrows the list, `None` leaves it open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadFilter {
    pub product: Option<Product>,
    pub source: Option<Source>,
    pub status: Option<LeadStatus>,
    /// Created at or after.
    pub since: Option<OffsetDateTime>,
    /// Created before.
    pub until: Option<OffsetDateTime>,
    /// Part of the e-mail address, any case.
    pub email: Option<String>,
    /// The ZIP code's state, two letters.
    pub state: Option<String>,
}

/// One page of the filtered list, newest first; `after` is the last id of the previous page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadQuery {
    pub filter: LeadFilter,
    pub after: Option<String>,
    pub limit: usize,
}

/// A lead with everything the inbox shows on its page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LeadDetail {
    #[serde(flatten)]
    pub quote: StoredQuote,
    /// The voice call's recording, when its end-of-call report had one.
    pub call_recording_url: Option<String>,
}

pub trait Inbox: Send + Sync {
    fn find_leads(&self, query: LeadQuery) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>>;

    fn lead(&self, id: String) -> BoxFuture<'_, Result<Option<LeadDetail>, StoreError>>;

    /// Whether the lead exists (and now has `status`, changed at `at`). Marking a lead spam
    /// drops what was still to go out for it; marking spam `new` or `contacted` queues it for
    /// delivery like a new lead.
    fn set_status(
        &self,
        id: String,
        status: LeadStatus,
        at: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Whether the lead exists (and now has `note`; `None` removes it).
    fn set_note(&self, id: String, note: Option<String>)
        -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Deletes the lead, its outbox row (and with it its idempotency key, a column of the lead)
    /// and its call's report once no other lead refers to the call, in one transaction.
    /// Whether the lead existed.
    fn delete_lead(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>>;

    /// Ids of up to `limit` leads created before `cutoff`, oldest first.
    fn leads_created_before(
        &self,
        cutoff: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>>;
}

/// Secrets every instance sharing the database signs with (`spam::FormTokens`' key).
pub trait SiteKeys: Send + Sync {
    /// The key named `name`: `candidate`, stored, unless one was stored before (by this or
    /// another instance), which is then the answer.
    fn site_key(
        &self,
        name: &'static str,
        candidate: String,
    ) -> BoxFuture<'_, Result<String, StoreError>>;
}

/// When a session counts as ended: unused since `idle_since`, or signed in at or before
/// `signed_in_since` (its whole lifetime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionCutoffs {
    pub idle_since: OffsetDateTime,
    pub signed_in_since: OffsetDateTime,
}

/// Signed-in sessions, by a keyed hash of their id (the id itself is never stored).
pub trait Sessions: Send + Sync {
    fn create_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Whether the session exists and has not ended by `cutoffs`; if so it counts as used now.
    fn touch_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<bool, StoreError>>;

    fn delete_session(&self, id_hash: String) -> BoxFuture<'_, Result<(), StoreError>>;

    /// Deletes every session (signing out everywhere); how many there were.
    fn delete_all_sessions(&self) -> BoxFuture<'_, Result<u64, StoreError>>;

    /// Deletes the sessions that have ended by `cutoffs`; how many.
    fn delete_ended_sessions(
        &self,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<u64, StoreError>>;
}
