//! Which permission to be called a lead carries: `written` (the visitor ticked the box beside
//! the exact disclosure, on the quote form), `oral` (a caller or a chat asked to be called and
//! the assistant's model passed that on: the broker may dial by hand, nothing automated), or
//! none. The rules (47 CFR 64.1200(f)(9)) ask a signed agreement for automated calls and texts,
//! which a model's summary of a conversation is not.

use serde::Serialize;

use super::consent::ConsentChannel;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CallConsent {
    Written,
    Oral,
}

impl CallConsent {
    /// A lead's, from whether it may be called and the channel its consent record was made on.
    pub fn of(may_call: bool, channel: Option<ConsentChannel>) -> Option<CallConsent> {
        match channel? {
            _ if !may_call => None,
            ConsentChannel::Form | ConsentChannel::FormWithoutScript => Some(CallConsent::Written),
            ConsentChannel::Voice | ConsentChannel::Chat => Some(CallConsent::Oral),
        }
    }

    pub fn as_str(self) -> &'static str {
        match self {
            CallConsent::Written => "written",
            CallConsent::Oral => "oral",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_box_is_written_and_the_assistant_oral() {
        let of = CallConsent::of;
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
}
