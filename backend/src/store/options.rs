//! The store's own settings, which both stores and their parts read: how it behaves beyond
//! keeping rows, and how long a request waits for the database.

use std::time::Duration;

/// How long a request waits for the database (a pooled PostgreSQL connection, or SQLite's lock
/// held by another process such as a backup) before it is told the database is unavailable.
pub const DATABASE_WAIT: Duration = Duration::from_secs(3);

/// How the store behaves beyond keeping rows (what a new quote is queued on: `queued.rs`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StoreOptions {
    /// Queue every new quote for the forwarder, in its own transaction.
    pub forward_leads: bool,
    /// Queue every new quote for an e-mail, and the call a voice quote came from for a
    /// follow-up once its end-of-call report arrives, each in its own transaction.
    pub email_leads: bool,
}
