//! The store's own settings, which both stores and their parts read: how it behaves beyond
//! keeping rows, and how long a request waits for the database.

use std::time::Duration;

use super::model::Channel;
use super::queued;

/// How long a request waits for the database (a pooled PostgreSQL connection, or SQLite's lock
/// held by another process such as a backup) before it is told the database is unavailable.
pub const DATABASE_WAIT: Duration = Duration::from_secs(3);

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
