//! The id a conversation is kept under. Calls and chats share the kept conversations
//! (`voice_calls`) and the leads' `call_id`, and the provider names each from its own id space,
//! so a chat's id is kept with a prefix that no call's id may start with: a call's report can
//! never land on a chat's record, nor a chat's turn on a call's. Migration 15 gave the chats kept
//! before it the same prefix.

use super::sdk::MAX_ID_CHARS;
use crate::http::error::ApiError;

/// Before a chat's own id (its session's, else the chat's).
const CHAT_PREFIX: &str = "chat:";

/// A chat's id as it is kept.
pub fn of_chat(id: &str) -> String {
    format!("{CHAT_PREFIX}{id}")
}

/// An id the page posts (`field`: its name in the body), refused unless it is 1 to
/// `MAX_ID_CHARS` characters without control characters: bounds both stores hold alike.
pub fn posted<'a>(id: &'a str, field: &str) -> Result<&'a str, ApiError> {
    let chars = u64::try_from(id.chars().count()).unwrap_or(u64::MAX);
    if id.is_empty() || chars > MAX_ID_CHARS || id.chars().any(char::is_control) {
        return Err(ApiError::InvalidParameter(format!(
            "{field} must be 1 to {MAX_ID_CHARS} characters without control characters"
        )));
    }
    Ok(id)
}

/// A call's id as it is kept: as the provider sent it, unless it would read as a chat's.
pub fn of_call(id: String) -> Result<String, ApiError> {
    call_named(id, "message.call.id")
}

/// A call's id the page posts as `call_id` (`posted`), as it is kept.
pub fn of_posted_call(id: &str) -> Result<String, ApiError> {
    call_named(posted(id, "call_id")?.to_owned(), "call_id")
}

/// `field`: where the id came from, which a refusal names.
fn call_named(id: String, field: &str) -> Result<String, ApiError> {
    if id.starts_with(CHAT_PREFIX) {
        return Err(ApiError::InvalidParameter(format!(
            "{field} must not start with \"{CHAT_PREFIX}\" (the prefix of the chats' ids)"
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
    fn a_posted_id_is_bounded_and_on_one_line() {
        assert_eq!(posted("sess-1", "chat_id").unwrap(), "sess-1");
        assert!(posted(&"x".repeat(255), "chat_id").is_ok());
        for bad in ["", "a\nb", "a\u{0}b", &"x".repeat(256)] {
            assert!(matches!(
                posted(bad, "call_id"),
                Err(ApiError::InvalidParameter(m)) if m.starts_with("call_id must be 1 to 255")
            ));
        }
    }

    #[test]
    fn a_call_id_that_reads_as_a_chat_is_refused() {
        assert!(matches!(
            of_call("chat:abc".into()),
            Err(ApiError::InvalidParameter(m)) if m.contains("message.call.id")
        ));
        assert_eq!(of_call("chatty".into()).unwrap(), "chatty");
        assert!(matches!(
            of_posted_call("chat:abc"),
            Err(ApiError::InvalidParameter(m)) if m.starts_with("call_id must not")
        ));
        assert_eq!(of_posted_call("call-1").unwrap(), "call-1");
    }
}
