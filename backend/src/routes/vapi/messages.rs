//! Reading the provider's server messages: only the parts we act on, in both tool-call shapes.

use serde_json::Value;
use validator::{Validate, ValidationError, ValidationErrors, ValidationErrorsKind};

use crate::http::error::ApiError;
use crate::store::CallReport;

/// Longest call or tool-call id kept: the provider's are UUIDs or short ids, so this only stops
/// junk from being stored.
const MAX_ID_CHARS: u64 = 255;
/// Most tool calls answered from one message: the assistant makes one or two at a time.
const MAX_TOOL_CALLS: u64 = 64;
const ID_BOUNDS: &str = "must be 1 to 255 characters without NUL";

#[derive(Debug, PartialEq)]
pub enum ServerMessage {
    ToolCalls {
        call_id: String,
        calls: Vec<ToolCall>,
    },
    EndOfCallReport(CallReport),
    Other(String),
}

#[derive(Debug, PartialEq)]
pub struct ToolCall {
    pub id: String,
    pub name: String,
    /// The arguments object, or why it could not be read.
    pub arguments: Result<serde_json::Map<String, Value>, String>,
}

pub fn parse(bytes: &[u8]) -> Result<ServerMessage, ApiError> {
    let body: Value =
        serde_json::from_slice(bytes).map_err(|e| ApiError::MalformedJson(e.to_string()))?;
    let message = body
        .get("message")
        .filter(|m| m.is_object())
        .ok_or_else(|| {
            ApiError::MalformedJson("expected an object with a \"message\" object".into())
        })?;
    let kind = text(message, "type")
        .ok_or_else(|| ApiError::InvalidParameter("message.type is missing".into()))?;
    let call_id = || {
        message
            .get("call")
            .and_then(|call| text(call, "id"))
            .ok_or_else(|| ApiError::InvalidParameter(format!("{kind} without message.call.id")))
    };
    Ok(match kind.as_str() {
        "tool-calls" => {
            let call_id = call_id()?;
            Bounds::check(message, &call_id)?;
            ServerMessage::ToolCalls {
                call_id,
                calls: tool_calls(message),
            }
        }
        "end-of-call-report" => {
            let call_id = call_id()?;
            Bounds::check(message, &call_id)?;
            ServerMessage::EndOfCallReport(CallReport {
                call_id,
                ended_reason: text(message, "endedReason").map(without_nul),
                summary: at(message, &["analysis", "summary"])
                    .or_else(|| text(message, "summary"))
                    .map(without_nul),
                transcript: at(message, &["artifact", "transcript"])
                    .or_else(|| text(message, "transcript"))
                    .map(without_nul),
                recording_url: at(message, &["artifact", "recordingUrl"])
                    .or_else(|| text(message, "recordingUrl"))
                    .map(without_nul),
            })
        }
        _ => ServerMessage::Other(kind),
    })
}

/// What a message we act on must keep to be stored alike by both stores: ids of a sane length
/// without NUL (PostgreSQL text cannot hold one, so such an id is refused rather than kept by
/// one store and failing in the other; the document's patterns say so), and bounded lists of
/// tool calls. Each list is bounded whether or not it is the one read, and every entry counts,
/// also those skipped for having no id, as the document describes them.
#[derive(Validate)]
struct Bounds<'a> {
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    call_id: &'a str,
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    tool_call_list: Vec<ToolCallBounds<'a>>,
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    tool_calls: Vec<ToolCallBounds<'a>>,
    #[validate(length(max = MAX_TOOL_CALLS), nested)]
    tool_with_tool_call_list: Vec<ToolCallBounds<'a>>,
}

/// `Serialize` because `validator` records a list it finds too long in its error.
#[derive(serde::Serialize, Validate)]
struct ToolCallBounds<'a> {
    /// A call whose id is not a string is skipped, so only string ids are bounded.
    #[validate(length(min = 1, max = MAX_ID_CHARS), custom(function = "without_nul_char"))]
    id: Option<&'a str>,
}

/// Where each bounded field sits in the message, for the error.
const BOUNDED_FIELDS: [(&str, &str); 4] = [
    ("call_id", "call.id"),
    ("tool_call_list", "toolCallList"),
    ("tool_calls", "toolCalls"),
    ("tool_with_tool_call_list", "toolWithToolCallList"),
];

impl<'a> Bounds<'a> {
    fn check(message: &'a Value, call_id: &'a str) -> Result<(), ApiError> {
        let list = |key: &str, call: fn(&'a Value) -> &'a Value| {
            let entries = message
                .get(key)
                .and_then(Value::as_array)
                .map_or(&[][..], Vec::as_slice);
            entries
                .iter()
                .map(|entry| ToolCallBounds {
                    id: call(entry).get("id").and_then(Value::as_str),
                })
                .collect()
        };
        let bounds = Bounds {
            call_id,
            tool_call_list: list("toolCallList", |call| call),
            tool_calls: list("toolCalls", |call| call),
            tool_with_tool_call_list: list("toolWithToolCallList", |wrapper| &wrapper["toolCall"]),
        };
        bounds
            .validate()
            .map_err(|errors| ApiError::InvalidParameter(first_problem(&errors)))
    }
}

fn without_nul_char(id: &str) -> Result<(), ValidationError> {
    if id.contains('\0') {
        Err(ValidationError::new("nul"))
    } else {
        Ok(())
    }
}

/// The first bound broken, named by where it sits in the message.
fn first_problem(errors: &ValidationErrors) -> String {
    let broken = errors.errors();
    let Some((field, json)) = BOUNDED_FIELDS
        .into_iter()
        .find(|(field, _)| broken.contains_key(*field))
    else {
        return errors.to_string();
    };
    match broken.get(field) {
        Some(ValidationErrorsKind::Field(_)) if field == "call_id" => {
            format!("message.{json} {ID_BOUNDS}")
        }
        Some(ValidationErrorsKind::Field(_)) => {
            format!("message.{json} holds at most {MAX_TOOL_CALLS} tool calls")
        }
        _ => format!("every tool call id in message.{json} {ID_BOUNDS}"),
    }
}

/// A NUL in the provider's free text means nothing and PostgreSQL text cannot hold it, so it is
/// dropped and the rest of the report kept.
fn without_nul(text: String) -> String {
    if text.contains('\0') {
        text.replace('\0', "")
    } else {
        text
    }
}

fn text(value: &Value, key: &str) -> Option<String> {
    value.get(key).and_then(Value::as_str).map(str::to_owned)
}

fn at(value: &Value, path: &[&str]) -> Option<String> {
    let (last, parents) = path.split_last()?;
    let parent = parents.iter().try_fold(value, |v, key| v.get(key))?;
    text(parent, last)
}

/// `toolCallList` is the documented list; older messages carry `toolCalls`, and
/// `toolWithToolCallList` wraps each call as `toolCall`.
fn tool_calls(message: &Value) -> Vec<ToolCall> {
    let list = |key: &str| message.get(key).and_then(Value::as_array);
    let calls: Vec<&Value> = if let Some(calls) = list("toolCallList").or_else(|| list("toolCalls"))
    {
        calls.iter().collect()
    } else if let Some(wrapped) = list("toolWithToolCallList") {
        wrapped.iter().filter_map(|w| w.get("toolCall")).collect()
    } else {
        Vec::new()
    };
    calls.into_iter().filter_map(tool_call).collect()
}

/// `{id, name, parameters}` or `{id, type, function: {name, arguments}}`, where `arguments` may
/// be an object or a JSON string of one. A call without an id cannot be answered, so it is skipped.
fn tool_call(call: &Value) -> Option<ToolCall> {
    let id = text(call, "id")?;
    let (name, arguments) = match call.get("function") {
        Some(function) => (text(function, "name"), function.get("arguments")),
        None => (
            text(call, "name"),
            call.get("parameters").or_else(|| call.get("arguments")),
        ),
    };
    let arguments = match arguments {
        None | Some(Value::Null) => Ok(serde_json::Map::new()),
        Some(Value::Object(map)) => Ok(map.clone()),
        Some(Value::String(json)) => match serde_json::from_str(json) {
            Ok(Value::Object(map)) => Ok(map),
            _ => Err("the arguments are not a JSON object".to_owned()),
        },
        Some(_) => Err("the arguments are not a JSON object".to_owned()),
    };
    Some(ToolCall {
        id,
        name: name.unwrap_or_default(),
        arguments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn parse_value(value: Value) -> Result<ServerMessage, ApiError> {
        parse(value.to_string().as_bytes())
    }

    #[test]
    fn both_tool_call_shapes_and_string_arguments() {
        let message = parse_value(json!({"message": {
            "type": "tool-calls",
            "call": {"id": "call-1"},
            "toolCallList": [
                {"id": "a", "name": "request_quote", "parameters": {"product": "family"}},
                {"id": "b", "type": "function", "function": {"name": "request_quote", "arguments": "{\"email\":\"x@y.co\"}"}},
                {"id": "c", "type": "function", "function": {"name": "request_quote", "arguments": {"product": "medicare"}}},
                {"id": "d", "function": {"name": "request_quote", "arguments": "not json"}},
                {"name": "no id"}
            ]
        }}))
        .unwrap();
        let ServerMessage::ToolCalls { call_id, calls } = message else {
            panic!("tool calls")
        };
        assert_eq!(call_id, "call-1");
        let ids: Vec<_> = calls.iter().map(|c| c.id.as_str()).collect();
        assert_eq!(ids, ["a", "b", "c", "d"]);
        assert_eq!(calls[0].arguments.as_ref().unwrap()["product"], "family");
        assert_eq!(calls[1].arguments.as_ref().unwrap()["email"], "x@y.co");
        assert_eq!(calls[2].arguments.as_ref().unwrap()["product"], "medicare");
        assert!(calls[3].arguments.is_err());
        assert!(calls.iter().all(|c| c.name == "request_quote"));
    }

    #[test]
    fn wrapped_tool_calls() {
        let message = parse_value(json!({"message": {
            "type": "tool-calls", "call": {"id": "k"},
            "toolWithToolCallList": [{"type": "function", "toolCall": {"id": "t", "function": {"name": "request_quote", "arguments": {}}}}]
        }}))
        .unwrap();
        let ServerMessage::ToolCalls { calls, .. } = message else {
            panic!("tool calls")
        };
        assert_eq!(calls[0].id, "t");
    }

    #[test]
    fn end_of_call_report_in_current_and_older_layouts() {
        let current = parse_value(json!({"message": {
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "customer-ended-call",
            "analysis": {"summary": "Wants family cover."},
            "artifact": {"transcript": "AI: Hi", "recordingUrl": "https://storage.vapi.ai/k.wav"}
        }}))
        .unwrap();
        let older = parse_value(json!({"message": {
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "customer-ended-call",
            "summary": "Wants family cover.", "transcript": "AI: Hi",
            "recordingUrl": "https://storage.vapi.ai/k.wav"
        }}))
        .unwrap();
        let expected = ServerMessage::EndOfCallReport(CallReport {
            call_id: "k".into(),
            ended_reason: Some("customer-ended-call".into()),
            summary: Some("Wants family cover.".into()),
            transcript: Some("AI: Hi".into()),
            recording_url: Some("https://storage.vapi.ai/k.wav".into()),
        });
        assert_eq!(current, expected);
        assert_eq!(older, expected);
    }

    #[test]
    fn other_types_and_bad_bodies() {
        assert_eq!(
            parse_value(json!({"message": {"type": "status-update"}})).unwrap(),
            ServerMessage::Other("status-update".into())
        );
        assert!(matches!(parse(b"{"), Err(ApiError::MalformedJson(_))));
        assert!(matches!(
            parse_value(json!({"type": "x"})),
            Err(ApiError::MalformedJson(_))
        ));
        assert!(matches!(
            parse_value(json!({"message": {}})),
            Err(ApiError::InvalidParameter(_))
        ));
        let no_call = json!({"message": {"type": "end-of-call-report"}});
        assert!(matches!(
            parse_value(no_call),
            Err(ApiError::InvalidParameter(_))
        ));
    }

    #[test]
    fn a_nul_is_refused_in_the_call_id_and_dropped_from_the_report_text() {
        let refused = parse_value(
            json!({"message": {"type": "end-of-call-report", "call": {"id": "k\u{0}"}}}),
        );
        assert!(
            matches!(refused, Err(ApiError::InvalidParameter(m)) if m.contains("message.call.id") && m.contains("NUL"))
        );
        let report = parse_value(json!({"message": {
            "type": "end-of-call-report", "call": {"id": "k"}, "endedReason": "\u{0}ended",
            "analysis": {"summary": "Wants\u{0} cover."}, "artifact": {"transcript": "AI:\u{0} Hi"}
        }}))
        .unwrap();
        let ServerMessage::EndOfCallReport(report) = report else {
            panic!("a report")
        };
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
            parse_value(
                json!({"message": {"type": "tool-calls", "call": {"id": "k"}, "toolCallList": list}}),
            )
        };
        assert!(calls(MAX_TOOL_CALLS as usize, "t").is_ok());
        let too_many = calls(MAX_TOOL_CALLS as usize + 1, "t");
        assert!(
            matches!(too_many, Err(ApiError::InvalidParameter(m)) if m == "message.toolCallList holds at most 64 tool calls")
        );
        let longest = "t".repeat(MAX_ID_CHARS as usize);
        assert!(calls(1, &longest).is_ok());
        for bad in ["", "t\u{0}", &format!("{longest}t")] {
            assert!(
                matches!(calls(1, bad), Err(ApiError::InvalidParameter(m)) if m.contains("tool call id in message.toolCallList")),
                "{bad:?}"
            );
        }
        // Every list is bounded, entries without an id included, whichever one is read.
        let entries: Vec<Value> = (0..=MAX_TOOL_CALLS).map(|_| json!(1)).collect();
        let both = json!({"message": {"type": "tool-calls", "call": {"id": "k"}, "toolCallList": [], "toolCalls": entries}});
        assert!(
            matches!(parse_value(both), Err(ApiError::InvalidParameter(m)) if m.contains("message.toolCalls"))
        );
        let wrapped = json!({"message": {"type": "tool-calls", "call": {"id": "k"}, "toolWithToolCallList": [{"toolCall": {"id": ""}}]}});
        assert!(
            matches!(parse_value(wrapped), Err(ApiError::InvalidParameter(m)) if m.contains("message.toolWithToolCallList"))
        );
        for bad in ["", &format!("{longest}k")] {
            let report = parse_value(
                json!({"message": {"type": "end-of-call-report", "call": {"id": bad}}}),
            );
            assert!(
                matches!(report, Err(ApiError::InvalidParameter(m)) if m.contains("message.call.id")),
                "{bad:?}"
            );
        }
    }
}
