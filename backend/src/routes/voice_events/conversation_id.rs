//! The id a conversation is kept under. Calls and chats share the kept conversations
//! (`voice_calls`) and the leads' `call_id`, and the provider names each from its own id space,
//! so a chat's id is kept with a prefix that no call's id may start with: a call's report can
//! never land on a chat's record, nor a chat's turn on a call's. Migration 15 gave the chats kept
//! before it the same prefix.

use crate::http::error::ApiError;

/// Before a chat's own id (its session's, else the chat's).
const CHAT_PREFIX: &str = "chat:";

/// A chat's id as it is kept.
pub fn of_chat(id: &str) -> String {
    format!("{CHAT_PREFIX}{id}")
}

/// A call's id as it is kept: as the provider sent it, unless it would read as a chat's.
pub fn of_call(id: String) -> Result<String, ApiError> {
    if id.starts_with(CHAT_PREFIX) {
        return Err(ApiError::InvalidParameter(format!(
            "message.call.id must not start with \"{CHAT_PREFIX}\" (the prefix of the chats' ids)"
        )));
    }
    Ok(id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chat_and_a_call_of_the_same_id_are_kept_apart() {
        assert_eq!(of_chat("abc"), "chat:abc");
        assert_eq!(of_call("abc".into()).unwrap(), "abc");
    }

    #[test]
    fn a_call_id_that_reads_as_a_chat_is_refused() {
        assert!(matches!(
            of_call("chat:abc".into()),
            Err(ApiError::InvalidParameter(m)) if m.contains("message.call.id")
        ));
        assert_eq!(of_call("chatty".into()).unwrap(), "chatty");
    }
}
