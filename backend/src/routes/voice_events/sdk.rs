//! The provider's server messages and our answer to them, typed as its server SDK
//! (`@vapi-ai/server-sdk`) declares them and named as it names them, with only the fields we act
//! on. `tests/api/voice_server_sdk.rs` posts messages checked against the SDK's declarations and
//! requires answers checked against its response type.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use serde_with::As;
use validator::{Validate, ValidationError};

use super::lenient::{Given, Lenient, LenientList, LenientObject, Object};
use crate::store::Language;

/// Longest call or tool-call id kept: the provider's are UUIDs or short ids, so this only stops
/// junk from being stored.
pub const MAX_ID_CHARS: u64 = 255;
/// Most tool calls answered from one message: the assistant makes one or two at a time.
pub const MAX_TOOL_CALLS: u64 = 64;

/// A voice event's body.
#[derive(Deserialize)]
pub struct ServerMessage {
    #[serde(deserialize_with = "As::<Object>::deserialize")]
    pub message: Message,
}

/// `message`, with what we read of the two types we act on, `ServerMessageToolCalls` and
/// `ServerMessageEndOfCallReport`. Both are held to the same bounds (ids of a sane length without
/// NUL, which PostgreSQL text cannot hold, so both stores keep them alike; bounded lists of tool
/// calls, every entry counted, whichever list is read), so one structure reads them.
#[derive(Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct Message {
    #[serde(
        rename = "type",
        default,
        deserialize_with = "As::<Lenient>::deserialize"
    )]
    pub kind: Option<String>,
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    #[validate(nested)]
    pub call: Option<Call>,
    /// `tool-calls` from the web chat name the chat (`Chat`) instead of a call.
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    #[validate(nested)]
    pub chat: Option<Chat>,
    /// `tool-calls`: the calls the model asks for.
    #[serde(default, deserialize_with = "As::<LenientList>::deserialize")]
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    pub tool_call_list: Option<Vec<ToolCall>>,
    /// The same list in older messages.
    #[serde(default, deserialize_with = "As::<LenientList>::deserialize")]
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    pub tool_calls: Option<Vec<ToolCall>>,
    /// The same calls, each with its tool's configuration.
    #[serde(default, deserialize_with = "As::<LenientList>::deserialize")]
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    pub tool_with_tool_call_list: Option<Vec<ToolWithToolCall>>,
    /// `end-of-call-report`: how the call ended.
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub ended_reason: Option<String>,
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub analysis: Option<Analysis>,
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub artifact: Option<Artifact>,
    /// Older reports carry `analysis.summary`, `artifact.transcript` and `artifact.recordingUrl`
    /// at the top.
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub summary: Option<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub transcript: Option<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub recording_url: Option<String>,
    /// `end-of-call-report`: when the call started (ISO 8601).
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub started_at: Option<String>,
}

#[derive(Default, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct Call {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    pub id: Option<String>,
    /// What the web SDK's `start(assistant, overrides)` was given: the page's language
    /// (`frontend/src/features/voice/sdk/page-language.ts`).
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub assistant_overrides: Option<AssistantOverrides>,
}

/// `AssistantOverrides`, with only the page's language, in `variableValues` or `metadata`.
#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct AssistantOverrides {
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub variable_values: Option<PageVariables>,
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub metadata: Option<PageVariables>,
}

#[derive(Default, Deserialize)]
pub struct PageVariables {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub language: Option<String>,
}

impl AssistantOverrides {
    /// The language of the page the call or chat was started from; English when none was passed.
    pub fn page_language(overrides: Option<&AssistantOverrides>) -> Language {
        [
            overrides.and_then(|o| o.variable_values.as_ref()),
            overrides.and_then(|o| o.metadata.as_ref()),
        ]
        .into_iter()
        .flatten()
        .find_map(|variables| Language::parse(variables.language.as_deref()?))
        .unwrap_or_default()
    }
}

/// `Chat`: its id, and the session that groups a conversation's chats when there is one.
#[derive(Default, Deserialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct Chat {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    pub session_id: Option<String>,
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    pub assistant_overrides: Option<AssistantOverrides>,
    /// `chat.created`: what the visitor wrote, as text or as messages.
    #[serde(default)]
    pub input: Option<Value>,
    /// `chat.created`: the conversation before this turn, and the assistant's answer.
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub messages: Option<Vec<Value>>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub output: Option<Vec<Value>>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub created_at: Option<String>,
}

/// `ToolCall`, `{id, type, function: {name, arguments}}` with the arguments as a JSON string, or
/// the older `{id, name, parameters}` (or `arguments`); arguments may be an object in both.
/// `Serialize` because `validator` records a list it finds too long in its error.
#[derive(Default, Deserialize, Serialize, Validate)]
pub struct ToolCall {
    /// A call whose id is not a string is skipped, so only string ids are bounded.
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub name: Option<String>,
    /// Given, even as null, it is the arguments; `arguments` is read only without it.
    #[serde(default, deserialize_with = "As::<Given>::deserialize")]
    pub parameters: Option<Value>,
    pub arguments: Option<Value>,
    /// Given in any shape, the name and arguments are read from it only.
    #[serde(default, deserialize_with = "As::<Given<Object>>::deserialize")]
    pub function: Option<ToolCallFunction>,
}

/// `ToolCallFunction`.
#[derive(Default, Deserialize, Serialize)]
pub struct ToolCallFunction {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub name: Option<String>,
    pub arguments: Option<Value>,
}

/// An entry of `toolWithToolCallList`: every kind of tool the SDK declares wraps its call as
/// `toolCall`.
#[derive(Default, Deserialize, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct ToolWithToolCall {
    #[serde(default, deserialize_with = "As::<LenientObject>::deserialize")]
    #[validate(nested)]
    pub tool_call: Option<ToolCall>,
}

#[derive(Default, Deserialize)]
pub struct Analysis {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub summary: Option<String>,
}

#[derive(Default, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Artifact {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub transcript: Option<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    pub recording_url: Option<String>,
}

fn without_nul_char(id: &str) -> Result<(), ValidationError> {
    if id.contains('\0') {
        Err(ValidationError::new("nul"))
    } else {
        Ok(())
    }
}

/// The answer to `tool-calls` (`{}` to any other message).
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[schema(as = VoiceReply)]
#[serde(deny_unknown_fields)]
pub struct ServerMessageResponseToolCalls {
    /// One per tool call, in order.
    #[schema(required = false)]
    pub results: Vec<ToolCallResult>,
}

/// `ToolCallResult`: `result` when the call did what it asked, else `error`; the assistant reads
/// either out.
#[derive(Debug, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct ToolCallResult {
    pub tool_call_id: String,
    pub name: String,
    /// What to read out when the tool did what it was asked.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub result: Option<String>,
    /// What to read out when it did not, saying what to ask the caller.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(nullable = false)]
    pub error: Option<String>,
}
