//! What every tool call answered in one conversation (a call or a chat) shares: where it comes
//! from, how the assistant takes the page's added fields, and the written consent its leads with
//! a phone number are settled with.

use wasm_core::{ContactRules, FieldRule};

use crate::store::consent::ConsentChannel;
use crate::store::conversation_consent::ConversationConsents;
use crate::store::{Language, Source};

/// The call or chat a tool call comes from.
#[derive(Clone, Copy)]
pub struct Conversation<'a> {
    /// As kept (`conversation_id`).
    pub call_id: &'a str,
    pub source: Source,
    /// The language of the page it was started from.
    pub language: Language,
}

impl Conversation<'_> {
    /// How what is agreed in it was given: spoken in a call, typed in a chat.
    pub fn channel(&self) -> ConsentChannel {
        match self.source {
            Source::Chat => ConsentChannel::Chat,
            _ => ConsentChannel::Voice,
        }
    }
}

/// The page's added fields as the assistant takes them: each one the page has, optional (the
/// assistant asks for it, and a caller may decline).
pub fn assistant_rules(page: ContactRules) -> ContactRules {
    let optional = |rule| match rule {
        FieldRule::Off => FieldRule::Off,
        FieldRule::Optional | FieldRule::Required => FieldRule::Optional,
    };
    ContactRules {
        phone: optional(page.phone),
        zip: optional(page.zip),
    }
}

/// Records on a lead just stored with a phone number the written consent its conversation gave
/// before it (a chat's click, a call's stored recording). A failure leaves it to the hourly
/// round (`leads::retention`): the lead is stored, and its answer stands.
pub async fn settle(store: &(impl ConversationConsents + ?Sized), call_id: &str) {
    if let Err(error) = store.settle_conversation(call_id.to_owned()).await {
        tracing::warn!(%error, call_id, "recording a conversation's written consent failed; retried hourly");
    }
}
