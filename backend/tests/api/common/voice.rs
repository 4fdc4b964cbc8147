//! What the voice provider sends to the voice events' route, for the tests that need spoken quotes.

use serde_json::{json, Value};

use super::TestApp;

pub fn tool_calls(call_id: &str, calls: Value) -> Value {
    json!({"message": {"type": "tool-calls", "call": {"id": call_id}, "toolCallList": calls}})
}

/// A `request_quote` call in the `{id, name, parameters}` shape.
pub fn quote_call(id: &str, product: &str, email: &str) -> Value {
    json!({"id": id, "name": "request_quote", "parameters": {"product": product, "email": email}})
}

/// A `tool-calls` message with one `request_quote` call, `t1`.
pub fn one_quote(call_id: &str, product: &str, email: &str) -> Value {
    tool_calls(call_id, json!([quote_call("t1", product, email)]))
}

/// The transcript every `end_of_call` report carries.
pub const TRANSCRIPT: &str = "AI: Which plan?\nUser: Medicare, please.";

pub fn end_of_call(call_id: &str, ended_reason: &str, summary: &str) -> Value {
    json!({"message": {"type": "end-of-call-report", "call": {"id": call_id},
        "endedReason": ended_reason, "analysis": {"summary": summary},
        "artifact": {"transcript": TRANSCRIPT}}})
}

pub async fn post_voice_event(
    app: &TestApp,
    secret: Option<&str>,
    body: &Value,
) -> reqwest::Response {
    let mut request = app.client.post(app.url("/api/vapi/webhook")).json(body);
    if let Some(secret) = secret {
        request = request.header("x-vapi-secret", secret);
    }
    request.send().await.unwrap()
}

/// The answer to a voice event posted with `secret`.
pub async fn answer(app: &TestApp, secret: &str, body: &Value) -> Value {
    post_voice_event(app, Some(secret), body)
        .await
        .json()
        .await
        .unwrap()
}

/// A call in which one quote is requested, then its end-of-call report.
pub async fn call_with_one_quote(
    app: &TestApp,
    secret: &str,
    call_id: &str,
    product: &str,
    email: &str,
    summary: &str,
) {
    let quote = one_quote(call_id, product, email);
    let report = end_of_call(call_id, "customer-ended-call", summary);
    for body in [quote, report] {
        assert_eq!(
            post_voice_event(app, Some(secret), &body).await.status(),
            200
        );
    }
}
