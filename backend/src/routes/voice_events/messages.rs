//! Reading the provider's server messages (typed in `sdk.rs`) into what they ask of us: the tool
//! calls to answer, in both tool-call shapes, or how a call ended.

use heck::ToLowerCamelCase;
use serde::de::DeserializeOwned;
use serde_json::Value;
use serde_with::DeserializeAs;
use validator::{Validate, ValidationErrors, ValidationErrorsKind};

use super::conversation_id;
use super::lenient::Object;
use super::sdk::{self, MAX_ID_CHARS, MAX_TOOL_CALLS};
use crate::http::error::ApiError;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use crate::store::{clean_text, format_timestamp, CallReport, Language, Source};

const TOOL_CALLS: &str = "tool-calls";
const END_OF_CALL_REPORT: &str = "end-of-call-report";
/// Sent for each turn of the web chat, with the turn's input and answer.
const CHAT_CREATED: &str = "chat.created";

/// What a server message asks of us.
#[derive(Debug, PartialEq)]
pub enum Received {
    ToolCalls {
        /// The call's id, or for a chat its session's (else the chat's own), as kept
        /// (`conversation_id`).
        call_id: String,
        /// `Voice` in a call, `Chat` in the web chat.
        source: Source,
        /// The language of the page the call or chat was started from.
        language: Language,
        calls: Vec<ToolCall>,
    },
    EndOfCallReport(CallReport),
    /// One turn of the web chat: `conversation` is the chat's session (or the chat itself), as
    /// kept (`conversation_id`);
    /// `history` the turns before it as the provider passed them, `turn` this one, as
    /// transcript lines.
    ChatTurn {
        conversation: String,
        started_at: Option<String>,
        history: String,
        turn: String,
    },
    /// A message type we do not act on.
    Other(String),
}

/// One tool call to answer.
#[derive(Debug, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// As sent (null when none): the SDK declares the JSON string of an object; an object is
    /// read too.
    arguments: Value,
}

impl ToolCall {
    /// The arguments read as `T`, or why they could not be; none read as `T::default()`.
    pub fn arguments<T: DeserializeOwned + Default>(&self) -> Result<T, String> {
        let not_an_object = || "the arguments are not a JSON object".to_owned();
        let object = match &self.arguments {
            Value::Null => return Ok(T::default()),
            Value::String(json) => serde_json::from_str(json).map_err(|_| not_an_object())?,
            value => value.clone(),
        };
        Object::deserialize_as(object).map_err(|_| not_an_object())
    }

    /// `{id, type, function: {name, arguments}}` or `{id, name, parameters}`. A call without an
    /// id cannot be answered, so it is skipped.
    fn read(call: sdk::ToolCall) -> Option<ToolCall> {
        let (name, arguments) = match call.function {
            Some(function) => (function.name, function.arguments),
            None => (call.name, call.parameters.or(call.arguments)),
        };
        Some(ToolCall {
            id: call.id?,
            name: name.unwrap_or_default(),
            arguments: arguments.unwrap_or_default(),
        })
    }
}

pub fn parse(bytes: &[u8]) -> Result<Received, ApiError> {
    // The whole body is read as JSON first, so a syntax error anywhere is refused before a field
    // of another shape is read as absent, and a repeated key keeps its last value.
    let body: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let sdk::ServerMessage { message } = Object::deserialize_as(body).map_err(|_| {
        ApiError::MalformedJson("expected an object with a \"message\" object".into())
    })?;
    let kind = message
        .kind
        .clone()
        .ok_or_else(|| ApiError::InvalidParameter("message.type is missing".into()))?;
    if kind != TOOL_CALLS && kind != END_OF_CALL_REPORT && kind != CHAT_CREATED {
        return Ok(Received::Other(kind));
    }
    message
        .validate()
        .map_err(|errors| ApiError::InvalidParameter(first_problem(&errors)))?;
    let call_id = message
        .call
        .as_ref()
        .and_then(|call| call.id.clone())
        .map(conversation_id::of_call)
        .transpose()?;
    let overrides = match (&message.call, &message.chat) {
        (Some(call), _) => call.assistant_overrides.as_ref(),
        (None, Some(chat)) => chat.assistant_overrides.as_ref(),
        (None, None) => None,
    };
    let language = sdk::AssistantOverrides::page_language(overrides);
    if kind == END_OF_CALL_REPORT {
        let call_id = call_id
            .ok_or_else(|| ApiError::InvalidParameter(format!("{kind} without message.call.id")))?;
        return Ok(Received::EndOfCallReport(report(call_id, message)));
    }
    // A chat's tool calls name the chat instead of a call; its session spans the conversation.
    let chat_id = message
        .chat
        .as_ref()
        .and_then(|chat| chat.session_id.as_deref().or(chat.id.as_deref()))
        .map(conversation_id::of_chat);
    if kind == CHAT_CREATED {
        let (Some(conversation), Some(chat)) = (chat_id, message.chat) else {
            return Err(ApiError::InvalidParameter(format!(
                "{kind} without message.chat.id"
            )));
        };
        return Ok(chat_turn(conversation, chat));
    }
    let (call_id, source) = match (call_id, chat_id) {
        (Some(call_id), _) => (call_id, Source::Voice),
        (None, Some(chat_id)) => (chat_id, Source::Chat),
        (None, None) => {
            return Err(ApiError::InvalidParameter(format!(
                "{kind} without message.call.id or message.chat.id"
            )))
        }
    };
    Ok(Received::ToolCalls {
        call_id,
        source,
        language,
        calls: tool_calls(message),
    })
}

/// `toolCallList` is the SDK's list; older messages carry `toolCalls`, and
/// `toolWithToolCallList` wraps each call as `toolCall`. The SDK declares them all, and a message
/// may carry an empty list beside the one that holds the calls, so the first that holds any is
/// read.
fn tool_calls(message: sdk::Message) -> Vec<ToolCall> {
    let wrapped = message
        .tool_with_tool_call_list
        .map(|wrapped| wrapped.into_iter().filter_map(|w| w.tool_call).collect());
    [message.tool_call_list, message.tool_calls, wrapped]
        .into_iter()
        .flatten()
        .find(|calls| !calls.is_empty())
        .unwrap_or_default()
        .into_iter()
        .filter_map(ToolCall::read)
        .collect()
}

fn report(call_id: String, message: sdk::Message) -> CallReport {
    let (analysis, artifact) = (
        message.analysis.unwrap_or_default(),
        message.artifact.unwrap_or_default(),
    );
    CallReport {
        call_id,
        ended_reason: message.ended_reason.as_deref().map(clean_text::line),
        summary: analysis
            .summary
            .or(message.summary)
            .as_deref()
            .map(clean_text::text),
        transcript: artifact
            .transcript
            .or(message.transcript)
            .as_deref()
            .map(clean_text::text),
        transcript_lines_dropped: 0,
        recording_url: artifact
            .recording_url
            .or(message.recording_url)
            .as_deref()
            .map(clean_text::line),
        started_at: message.started_at.as_deref().and_then(instant),
        channel: Source::Voice,
    }
}

fn chat_turn(conversation: String, chat: sdk::Chat) -> Received {
    let input = match chat.input {
        Some(Value::String(text)) => vec![serde_json::json!({"role": "user", "content": text})],
        Some(Value::Array(items)) => items,
        _ => Vec::new(),
    };
    let turn: Vec<Value> = input
        .into_iter()
        .chain(chat.output.unwrap_or_default())
        .collect();
    Received::ChatTurn {
        conversation,
        started_at: chat.created_at.as_deref().and_then(instant),
        history: transcript_lines(&chat.messages.unwrap_or_default()),
        turn: transcript_lines(&turn),
    }
}

/// Chat messages as a call's transcript writes them (`User: ...`, `AI: ...`); the system
/// prompt, tool calls and their results are left out. The SDK names the text `message`; the
/// chat's own answers carry it as `content`.
fn transcript_lines(messages: &[Value]) -> String {
    let mut lines = Vec::new();
    for message in messages {
        let speaker = match message.get("role").and_then(Value::as_str) {
            Some("user") => "User",
            Some("assistant" | "bot") => "AI",
            _ => continue,
        };
        let text = ["content", "message"]
            .iter()
            .find_map(|key| message.get(*key).and_then(Value::as_str))
            .map(|text| clean_text::text(text.trim()));
        if let Some(text) = text.filter(|text| !text.is_empty()) {
            lines.push(format!("{speaker}: {text}"));
        }
    }
    lines.join("\n")
}

/// An ISO 8601 time as the store keeps times; one that cannot be read is left out.
fn instant(text: &str) -> Option<String> {
    OffsetDateTime::parse(text, &Rfc3339)
        .ok()
        .map(format_timestamp)
}

/// The first bound broken (in the order of the fields' names, so a message always gets the same
/// answer), named by where it sits in the message, as serde's `camelCase` names it.
fn first_problem(errors: &ValidationErrors) -> String {
    let Some((field, kind)) = errors.errors().iter().min_by_key(|(field, _)| *field) else {
        return errors.to_string();
    };
    let at = format!("message.{}", field.to_lower_camel_case());
    let id_bounds = format!("must be 1 to {MAX_ID_CHARS} characters without NUL");
    match kind {
        // The call's one bound is its id.
        ValidationErrorsKind::Struct(_) => format!("{at}.id {id_bounds}"),
        ValidationErrorsKind::Field(_) => format!("{at} holds at most {MAX_TOOL_CALLS} tool calls"),
        ValidationErrorsKind::List(_) => format!("every tool call id in {at} {id_bounds}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Map};

    fn arguments(call: &ToolCall) -> Result<Map<String, Value>, String> {
        call.arguments()
    }

    fn parse_value(value: Value) -> Result<Received, ApiError> {
        parse(value.to_string().as_bytes())
    }

    /// What `message` asks for, which must be tool calls.
    fn tool_calls(message: Value) -> (String, Source, Language, Vec<ToolCall>) {
        match parse_value(json!({ "message": message })).unwrap() {
            Received::ToolCalls {
                call_id,
                source,
                language,
                calls,
            } => (call_id, source, language, calls),
            other => panic!("tool calls, not {other:?}"),
        }
    }

    /// The end-of-call report `message` is.
    fn report(message: Value) -> CallReport {
        match parse_value(json!({ "message": message })).unwrap() {
            Received::EndOfCallReport(report) => report,
            other => panic!("a report, not {other:?}"),
        }
    }

    /// Why `message` is refused as an invalid parameter.
    fn refused(message: Value) -> String {
        match parse_value(json!({ "message": message })) {
            Err(ApiError::InvalidParameter(why)) => why,
            other => panic!("an invalid parameter, not {other:?}"),
        }
    }

    #[test]
    fn both_tool_call_shapes_and_string_arguments() {
        let (call_id, source, language, calls) = tool_calls(json!({
            "type": "tool-calls",
            "call": {"id": "call-1"},
            "toolCallList": [
                {"id": "a", "name": "request_quote", "parameters": {"product": "family"}},
                {"id": "b", "type": "function", "function": {"name": "request_quote", "arguments": "{\"email\":\"x@y.co\"}"}},
                {"id": "c", "type": "function", "function": {"name": "request_quote", "arguments": {"product": "medicare"}}},
                {"id": "d", "function": {"name": "request_quote", "arguments": "not json"}},
                {"name": "no id"}
            ]
        }));
        assert_eq!((call_id.as_str(), source), ("call-1", Source::Voice));
        assert_eq!(language, Language::En, "no language passed: English");
        let ids: Vec<_> = calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c", "d"]);
        assert_eq!(arguments(&calls[0]).unwrap()["product"], "family");
        assert_eq!(arguments(&calls[1]).unwrap()["email"], "x@y.co");
        assert_eq!(arguments(&calls[2]).unwrap()["product"], "medicare");
        assert!(arguments(&calls[3]).is_err());
        assert!(calls.iter().all(|c| c.name == "request_quote"));
    }

    #[test]
    fn the_page_language_comes_from_the_call_overrides() {
        for (overrides, expected) in [
            (json!({"variableValues": {"language": "es"}}), Language::Es),
            (json!({"metadata": {"language": "es"}}), Language::Es),
            (json!({"variableValues": {"language": "fr"}}), Language::En),
            (json!({"variableValues": "es"}), Language::En),
            (json!(null), Language::En),
        ] {
            let (_, _, language, _) = tool_calls(json!({
                "type": "tool-calls",
                "call": {"id": "c", "assistantOverrides": overrides},
                "toolCallList": [{"id": "a", "name": "request_quote"}]
            }));
            assert_eq!(language, expected, "{overrides}");
        }
    }

    #[test]
    fn a_chat_from_the_spanish_page_is_spanish() {
        let (_, source, language, _) = tool_calls(json!({
            "type": "tool-calls",
            "chat": {"id": "chat-1", "assistantOverrides": {"variableValues": {"language": "es"}}},
            "toolCallList": [],
        }));
        assert_eq!((source, language), (Source::Chat, Language::Es));
    }

    #[test]
    fn a_chat_names_its_session_or_else_itself() {
        for (chat, expected) in [
            (
                json!({"id": "chat-1", "sessionId": "sess-1"}),
                "chat:sess-1",
            ),
            (json!({"id": "chat-1"}), "chat:chat-1"),
        ] {
            let (call_id, source, ..) =
                tool_calls(json!({"type": "tool-calls", "chat": chat, "toolCallList": []}));
            assert_eq!((call_id.as_str(), source), (expected, Source::Chat));
        }
        let neither = json!({"message": {"type": "tool-calls", "toolCallList": []}});
        assert!(parse_value(neither).is_err());
    }

    #[test]
    fn a_chat_turn_and_a_report_are_cleaned_as_stored_text_is() {
        let turn = parse_value(json!({"message": {
            "type": "chat.created", "chat": {"id": "chat-1",
                "input": "hi\u{85}there\tyou",
                "output": [{"role": "assistant", "content": "Hello\u{9b}2J!"}]}
        }}))
        .unwrap();
        let Received::ChatTurn { turn, .. } = turn else {
            panic!("a chat turn")
        };
        assert_eq!(turn, "User: hi there you\nAI: Hello 2J!");
        let report = report(json!({
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "hung\tup\n",
            "analysis": {"summary": "Two\r\nlines\u{85}"}
        }));
        assert_eq!(report.ended_reason.as_deref(), Some("hung up"));
        assert_eq!(report.summary.as_deref(), Some("Two\nlines "));
    }

    #[test]
    fn wrapped_tool_calls() {
        let (.., calls) = tool_calls(json!({
            "type": "tool-calls", "call": {"id": "k"},
            "toolWithToolCallList": [{"type": "function", "toolCall": {"id": "t", "function": {"name": "request_quote", "arguments": {}}}}]
        }));
        assert_eq!(calls[0].id, "t");
    }

    #[test]
    fn an_empty_list_beside_the_one_that_holds_the_calls_is_passed_over() {
        let wrapped = json!([{"toolCall": {"id": "w", "function": {"name": "request_quote"}}}]);
        let older = json!([{"id": "o", "name": "request_quote"}]);
        for (lists, expected) in [
            (
                json!({"toolCallList": [], "toolWithToolCallList": wrapped}),
                "w",
            ),
            (json!({"toolCallList": [], "toolCalls": older}), "o"),
            (
                json!({"toolCallList": [], "toolCalls": [], "toolWithToolCallList": wrapped}),
                "w",
            ),
        ] {
            let mut message = json!({"type": "tool-calls", "call": {"id": "k"}});
            message
                .as_object_mut()
                .unwrap()
                .extend(lists.as_object().unwrap().clone());
            let (.., calls) = tool_calls(message);
            let ids: Vec<_> = calls.iter().map(|c| c.id.as_str()).collect();
            assert_eq!(ids, [expected], "{lists}");
        }
    }

    #[test]
    fn end_of_call_report_in_current_and_older_layouts() {
        let current = report(json!({
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "customer-ended-call",
            "analysis": {"summary": "Wants family cover."},
            "artifact": {"transcript": "AI: Hi", "recordingUrl": "https://storage.vapi.ai/k.wav"}
        }));
        let older = report(json!({
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "customer-ended-call",
            "summary": "Wants family cover.", "transcript": "AI: Hi",
            "recordingUrl": "https://storage.vapi.ai/k.wav"
        }));
        let expected = CallReport {
            call_id: "k".into(),
            ended_reason: Some("customer-ended-call".into()),
            summary: Some("Wants family cover.".into()),
            transcript: Some("AI: Hi".into()),
            transcript_lines_dropped: 0,
            recording_url: Some("https://storage.vapi.ai/k.wav".into()),
            started_at: None,
            channel: Source::Voice,
        };
        assert_eq!(current, expected);
        assert_eq!(older, expected);
    }

    #[test]
    fn other_types_and_bad_bodies() {
        assert_eq!(
            parse_value(json!({"message": {"type": "status-update"}})).unwrap(),
            Received::Other("status-update".into())
        );
        assert!(matches!(parse(b"{"), Err(ApiError::MalformedJson(_))));
        refused(json!({}));
        refused(json!({"type": "end-of-call-report"}));
        // Structures are read from objects only, never from an array by position.
        for body in [
            json!({"type": "x"}),
            json!([{"message": {"type": "x"}}]),
            json!({"message": ["x"]}),
        ] {
            assert!(
                matches!(parse_value(body.clone()), Err(ApiError::MalformedJson(_))),
                "{body}"
            );
        }
        assert_eq!(
            refused(json!({"type": "tool-calls", "call": ["k"]})),
            "tool-calls without message.call.id or message.chat.id"
        );
    }

    #[test]
    fn arguments_are_an_object_or_the_json_string_of_one() {
        let call = |arguments: Value| ToolCall {
            id: "t".into(),
            name: "request_quote".into(),
            arguments,
        };
        for not_an_object in [
            json!("[\"family\"]"),
            json!(["family"]),
            json!(1),
            json!("null"),
        ] {
            assert!(
                arguments(&call(not_an_object.clone())).is_err(),
                "{not_an_object}"
            );
        }
        let repeated = call(json!("{\"product\":\"dental\",\"product\":\"family\"}"));
        assert_eq!(arguments(&repeated).unwrap()["product"], "family");
        assert_eq!(arguments(&call(Value::Null)), Ok(Map::new()));
    }

    #[test]
    fn a_nul_is_refused_in_the_call_id_and_dropped_from_the_report_text() {
        let refused = refused(json!({"type": "end-of-call-report", "call": {"id": "k\u{0}"}}));
        assert!(refused.contains("message.call.id") && refused.contains("NUL"));
        let report = report(json!({
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "\u{0}ended",
            "analysis": {"summary": "Wants\u{0} cover."}, "artifact": {"transcript": "AI:\u{0} Hi"}
        }));
        assert_eq!(report.ended_reason.as_deref(), Some("ended"));
        assert_eq!(report.summary.as_deref(), Some("Wants cover."));
        assert_eq!(report.transcript.as_deref(), Some("AI: Hi"));
    }

    #[test]
    fn ids_and_the_tool_call_list_keep_their_bounds() {
        let calls = |count: usize, id: &str| {
            let list: Vec<Value> = (0..count)
                .map(|_| json!({"id": id, "name": "request_quote"}))
                .collect();
            json!({"type": "tool-calls", "call": {"id": "k"}, "toolCallList": list})
        };
        tool_calls(calls(MAX_TOOL_CALLS as usize, "t"));
        assert_eq!(
            refused(calls(MAX_TOOL_CALLS as usize + 1, "t")),
            "message.toolCallList holds at most 64 tool calls"
        );
        let longest = "t".repeat(MAX_ID_CHARS as usize);
        tool_calls(calls(1, &longest));
        for bad in ["", "t\u{0}", &format!("{longest}t")] {
            let why = refused(calls(1, bad));
            assert!(
                why.contains("tool call id in message.toolCallList"),
                "{bad:?}"
            );
        }
        // Every list is bounded, entries without an id included, whichever one is read.
        let entries: Vec<Value> = (0..=MAX_TOOL_CALLS).map(|_| json!(1)).collect();
        let both = json!({"type": "tool-calls", "call": {"id": "k"}, "toolCallList": [], "toolCalls": entries});
        assert!(refused(both).contains("message.toolCalls"));
        let wrapped = json!({"type": "tool-calls", "call": {"id": "k"}, "toolWithToolCallList": [{"toolCall": {"id": ""}}]});
        assert!(refused(wrapped).contains("message.toolWithToolCallList"));
        for bad in ["", &format!("{longest}k")] {
            let why = refused(json!({"type": "end-of-call-report", "call": {"id": bad}}));
            assert!(why.contains("message.call.id"), "{bad:?}");
        }
    }
}
