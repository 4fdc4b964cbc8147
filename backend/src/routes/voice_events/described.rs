//! The voice webhook's body as the OpenAPI document (`routes/openapi`) describes it. `sdk.rs`
//! reads the provider's messages leniently (a field of another shape reads as absent), so a
//! schema derived from its types would claim shapes it does not hold the sender to; the schema
//! is written here instead, with `sdk.rs`'s bounds, and only what is read is described.

use serde_json::{json, Value};
use utoipa::openapi::{RefOr, Schema};
use utoipa::{PartialSchema, ToSchema};

use std::collections::BTreeMap;

use utoipa::openapi::Response;
use utoipa::IntoResponses;

use super::sdk::{MAX_ID_CHARS, MAX_TOOL_CALLS};
use crate::http::error_answers::{errors, ServerErrors, TooManyFailures};
use crate::store::schema::written;

/// The webhook's refusals: a body it cannot read or a bound broken (400), a wrong secret (401),
/// a body too slow (408) or too large (413), too many wrong secrets (429), the server's fault.
pub struct Refusals;

impl IntoResponses for Refusals {
    fn responses() -> BTreeMap<String, RefOr<Response>> {
        let mut answers = errors(&[400, 401, 408, 413]);
        answers.extend(TooManyFailures::responses());
        answers.extend(ServerErrors::responses());
        answers
    }
}

/// A server message: `tool-calls`, `end-of-call-report`, or any other type, ignored.
pub struct VoiceServerMessage;

impl PartialSchema for VoiceServerMessage {
    fn schema() -> RefOr<Schema> {
        written("VoiceServerMessage")
    }
}

impl ToSchema for VoiceServerMessage {}

/// `VoiceServerMessage`'s schema.
pub fn server_message() -> Value {
    let kinds = ["tool-calls", "end-of-call-report"];
    let id = |description: &str| {
        json!({
            "type": "string",
            "minLength": 1,
            "maxLength": MAX_ID_CHARS,
            "pattern": "^[^\\u0000]*$",
            "description": description,
        })
    };
    let tool_call_id = {
        let mut id = id("A string id: 1 to 255 characters without NUL (400 invalid_parameter). A call whose id is not a string is skipped.");
        id.as_object_mut().expect("an object").remove("type");
        id
    };
    let tool_calls = |description: &str| {
        json!({
            "maxItems": MAX_TOOL_CALLS,
            "description": description,
            "items": { "properties": { "id": tool_call_id } },
        })
    };
    let call_message = json!({
        "type": "object",
        "required": ["type", "call"],
        "properties": {
            "type": { "type": "string", "enum": kinds },
            "call": {
                "type": "object",
                "required": ["id"],
                "properties": { "id": id("1 to 255 characters without NUL, which PostgreSQL text cannot hold (400 invalid_parameter).") }
            },
            "toolCallList": tool_calls("tool-calls: [{id, name, parameters}] or [{id, type, function: {name, arguments}}], arguments an object or a JSON string of one. toolCalls (older) and toolWithToolCallList ([{toolCall}]) are read too, and each of the three lists is bounded (at most 64 entries, those skipped included: 400 invalid_parameter). A call without a string id is skipped; anything else unreadable is answered in its result."),
            "toolCalls": tool_calls("The same list in older messages."),
            "toolWithToolCallList": {
                "maxItems": MAX_TOOL_CALLS,
                "items": { "properties": { "toolCall": { "properties": { "id": tool_call_id } } } }
            },
            "endedReason": { "description": "end-of-call-report: a string." },
            "analysis": { "description": "end-of-call-report: {summary: string} (older messages: message.summary)." },
            "artifact": { "description": "end-of-call-report: {transcript: string, recordingUrl: string} (older messages: message.transcript, message.recordingUrl)." }
        }
    });
    let other_message = json!({
        "type": "object",
        "required": ["type"],
        "description": "Any other message type, such as status-update: acknowledged and ignored.",
        "properties": { "type": { "type": "string", "not": { "enum": kinds } } }
    });
    json!({
        "type": "object",
        "required": ["message"],
        "properties": {
            "message": {
                "description": "Only the parts read are described; anything else is ignored.",
                "oneOf": [call_message, other_message]
            }
        },
        "examples": [
            { "message": {
                "type": "tool-calls",
                "call": { "id": "call-example" },
                "toolCallList": [
                    { "id": "tool-call-1", "name": "request_quote", "parameters": { "product": "family", "email": "ana@example.com" } },
                    { "id": "tool-call-2", "type": "function", "function": { "name": "request_quote", "arguments": "{\"product\":\"dental\",\"email\":\"ana@\"}" } }
                ]
            } },
            { "message": {
                "type": "end-of-call-report",
                "call": { "id": "call-example" },
                "endedReason": "customer-ended-call",
                "analysis": { "summary": "Wants a family plan quote." },
                "artifact": { "transcript": "AI: Hello. User: I need family cover." }
            } },
            { "message": { "type": "status-update" } }
        ]
    })
}
