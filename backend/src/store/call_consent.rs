//! Which permission to be called a lead carries: `written` (the visitor ticked the box beside
//! the exact disclosure on the quote form, or agreed to it later: a click in the chat, the
//! consent page, or an answer in a call whose recording the site stored, each a record of its
//! own in the chain, `written_consent.rs`), `oral` (a caller or a chat asked to be called and
//! the assistant's model passed that on: the broker may dial by hand, nothing automated), or
//! none. The rules (47 CFR 64.1200(f)(9)) ask a signed agreement for automated calls and texts,
//! which a model's summary of a conversation is not.

use serde::Serialize;
use time::OffsetDateTime;

use super::consent::ConsentChannel;
use super::stored_names::stored_names;
use super::timestamp::serialize_timestamp;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum CallConsent {
    Written,
    Oral,
}

/// A written consent to be called given after the lead was stored: how and when.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct WrittenLater {
    pub channel: ConsentChannel,
    /// RFC 3339, UTC.
    #[serde(serialize_with = "serialize_timestamp")]
    #[schema(value_type = String)]
    pub at: OffsetDateTime,
}

impl CallConsent {
    /// A lead's, from whether it may be called, the channel its consent record was made on, and
    /// whether it gave written consent later.
    pub fn of(
        may_call: bool,
        channel: Option<ConsentChannel>,
        later: Option<WrittenLater>,
    ) -> Option<CallConsent> {
        if later.is_some() {
            return Some(CallConsent::Written);
        }
        match channel? {
            _ if !may_call => None,
            ConsentChannel::Form
            | ConsentChannel::FormWithoutScript
            | ConsentChannel::ConsentPage => Some(CallConsent::Written),
            ConsentChannel::Voice | ConsentChannel::Chat => Some(CallConsent::Oral),
        }
    }
}

stored_names!(CallConsent, [Written => "written", Oral => "oral"]);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_is_written_and_the_assistant_oral() {
        let of = |may_call, channel| CallConsent::of(may_call, channel, None);
        assert_eq!(
            of(true, Some(ConsentChannel::Form)),
            Some(CallConsent::Written)
        );
        assert_eq!(
            of(true, Some(ConsentChannel::FormWithoutScript)),
            Some(CallConsent::Written)
        );
        assert_eq!(
            of(true, Some(ConsentChannel::Voice)),
            Some(CallConsent::Oral)
        );
        assert_eq!(
            of(true, Some(ConsentChannel::Chat)),
            Some(CallConsent::Oral)
        );
        assert_eq!(of(false, Some(ConsentChannel::Form)), None);
        assert_eq!(of(true, None), None, "no record, nothing to stand on");
    }

    #[test]
    fn a_later_written_consent_makes_any_lead_written() {
        let later = Some(WrittenLater {
            channel: ConsentChannel::ConsentPage,
            at: OffsetDateTime::UNIX_EPOCH,
        });
        for channel in [
            Some(ConsentChannel::Voice),
            Some(ConsentChannel::Chat),
            None,
        ] {
            assert_eq!(
                CallConsent::of(false, channel, later),
                Some(CallConsent::Written)
            );
        }
    }
}
