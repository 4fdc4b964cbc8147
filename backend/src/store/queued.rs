//! A new quote's outbox entries, written on the quote's own row: its `queued_channels` column
//! names the channels it is queued on, comma-separated. That is what the request's transaction
//! writes, so a lead is durably queued at no more cost than a column and an index entry;
//! a separate outbox row cost the request path more than the rest of the quote's insert did.
//! The channel workers later take queued quotes into `lead_outbox` (one row per channel, first
//! attempt due at the quote's creation) and clear the column, in one transaction; from there on
//! the row holds the delivery's state.

use super::model::Channel;
use super::options::StoreOptions;

pub(super) const SEPARATOR: char = ',';

/// The `queued_channels` text of a set of channels.
pub struct QueuedChannels;

impl QueuedChannels {
    /// `None` when there are none: a quote queued on no channel has a NULL column.
    pub fn of(channels: impl Iterator<Item = Channel>) -> Option<String> {
        let names: Vec<&str> = channels.map(Channel::as_str).collect();
        (!names.is_empty()).then(|| names.join(&SEPARATOR.to_string()))
    }

    /// The channels a stored `queued_channels` text names; a name this release does not know is
    /// skipped (a later release's channel).
    pub fn parse(text: &str) -> impl Iterator<Item = Channel> + '_ {
        text.split(SEPARATOR).filter_map(Channel::parse)
    }

    /// Whether `text` names `channel`.
    pub fn holds(text: &str, channel: Channel) -> bool {
        QueuedChannels::parse(text).any(|c| c == channel)
    }
}

/// A quote still queued on its own row, as a worker takes it into the outbox.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueuedLead {
    pub id: String,
    /// Its creation time as stored: its outbox rows' first attempt.
    pub created_at: String,
    pub channels: Vec<Channel>,
}

impl StoreOptions {
    /// What a new quote's `queued_channels` column holds: the channels the options queue every
    /// new quote on, in its own transaction.
    pub fn queued_channels(self) -> Option<String> {
        let on = [
            (self.forward_leads, Channel::Webhook),
            (self.email_leads, Channel::Email),
        ];
        QueuedChannels::of(
            on.into_iter()
                .filter_map(|(on, channel)| on.then_some(channel)),
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_text_names_each_channel_once_and_reads_back() {
        let both = QueuedChannels::of([Channel::Webhook, Channel::Email].into_iter()).unwrap();
        assert_eq!(both, "webhook,email");
        assert_eq!(
            QueuedChannels::parse(&both).collect::<Vec<_>>(),
            [Channel::Webhook, Channel::Email]
        );
        assert!(QueuedChannels::holds(&both, Channel::Email));
        assert!(!QueuedChannels::holds("webhook", Channel::Email));
        assert_eq!(QueuedChannels::of(std::iter::empty()), None);
        assert_eq!(
            QueuedChannels::parse("fax,email").collect::<Vec<_>>(),
            [Channel::Email]
        );
    }
}
