use crate::common::eventually::eventually;
use crate::common::voice::{
    answer, call_with_one_quote, end_of_call, one_quote, post_voice_event, quote_call, tool_calls,
};
use crate::common::TestApp;
use backend::settings::leads::LeadsConfig;
use serde_json::{json, Value};

const SECRET: &str = "voice-secret-123";

async fn app() -> TestApp {
    app_with_admin_token(None).await
}

/// The app with the voice events on, and the admin API too when `admin_token` is given.
async fn app_with_admin_token(admin_token: Option<&str>) -> TestApp {
    TestApp::spawn()
        .leads(LeadsConfig {
            voice_events_secret: Some(SECRET.into()),
            admin_token: admin_token.map(Into::into),
            ..LeadsConfig::default()
        })
        .start()
        .await
}

#[tokio::test]
async fn the_secret_is_required_and_checked() {
    let app = app().await;
    let body = one_quote("call-a", "family", "ana@example.com");
    for secret in [None, Some("wrong"), Some(""), Some("voice-secret-1234")] {
        let response = post_voice_event(&app, secret, &body).await;
        assert_eq!(response.status(), 401, "secret {secret:?}");
        assert!(
            response.headers().get("www-authenticate").is_none(),
            "the provider sends its secret itself"
        );
        assert_eq!(
            response.json::<Value>().await.unwrap()["code"],
            "unauthorized"
        );
    }
    assert!(app.rows().await.is_empty());
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &body).await.status(),
        200
    );
    assert_eq!(app.rows().await.len(), 1);
    let get = app.get("/api/vapi/webhook").await;
    assert_eq!(get.status(), 405);
    app.stop().await;
}

/// The review's lock-out: wrong secrets from 20 addresses of one /24 (the provider's outgoing
/// addresses may be shared) spend the network's failures; the right secret still passes from
/// every address of it, while a wrong one meets the limit.
#[tokio::test]
async fn the_right_secret_passes_after_wrong_ones_spend_the_network_limit() {
    let app = app().await;
    let from = |client: String, secret: &'static str, body: Value| {
        app.client
            .post(app.url("/api/vapi/webhook"))
            .header("x-forwarded-for", client)
            .header("x-vapi-secret", secret)
            .json(&body)
            .send()
    };
    let body = one_quote("call-a", "family", "ana@example.com");
    for n in 1..=20 {
        let wrong = from(format!("198.51.100.{n}"), "wrong", body.clone())
            .await
            .unwrap();
        assert_eq!(wrong.status(), 401, "guess {n}");
    }
    let wrong = from("198.51.100.99".into(), "wrong", body.clone())
        .await
        .unwrap();
    assert_eq!(wrong.status(), 429, "the /24 has spent its failures");
    for client in ["198.51.100.1", "198.51.100.99", "198.51.100.200"] {
        let right = from(client.into(), SECRET, body.clone()).await.unwrap();
        assert_eq!(right.status(), 200, "the right secret from {client}");
    }
    assert_eq!(app.rows().await.len(), 1, "one lead, however often it came");
    let wrong = from("198.51.100.1".into(), "wrong", body).await.unwrap();
    assert_eq!(
        wrong.status(),
        429,
        "and a right one opened nothing for the wrong"
    );
    app.stop().await;
}

#[tokio::test]
async fn without_a_configured_secret_the_endpoint_does_not_exist() {
    let app = TestApp::start().await;
    let body = one_quote("call-a", "family", "ana@example.com");
    let response = post_voice_event(&app, Some(SECRET), &body).await;
    assert_eq!(response.status(), 404);
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn both_tool_call_shapes_are_stored_as_voice_quotes_answered_in_order() {
    let app = app().await;
    let body = tool_calls(
        "call-b",
        json!([
            quote_call("t1", "family", " ana@example.com "),
            {"id": "t2", "type": "function", "function": {"name": "request_quote",
                "arguments": "{\"product\":\"medicare\",\"email\":\"bo@example.org\"}"}},
            {"id": "t3", "type": "function", "function": {"name": "request_quote",
                "arguments": {"product": "employer", "email": "cy@example.net"}}},
        ]),
    );
    let response = post_voice_event(&app, Some(SECRET), &body).await;
    assert_eq!(response.status(), 200);
    let answer: Value = response.json().await.unwrap();
    let results = answer["results"].as_array().unwrap();
    let ids: Vec<_> = results
        .iter()
        .map(|r| r["toolCallId"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["t1", "t2", "t3"]);
    for result in results {
        assert_eq!(result["name"], "request_quote");
        let text = result["result"].as_str().expect("a result");
        assert!(text.starts_with("Saved") && !text.contains('\n'), "{text}");
        assert!(result.get("error").is_none());
    }
    let mut rows = app.rows().await;
    rows.sort_by(|a, b| a.email.cmp(&b.email));
    let stored: Vec<_> = rows
        .iter()
        .map(|r| {
            (
                r.product.as_str(),
                r.email.as_str(),
                r.source.as_str(),
                r.call_id.as_deref(),
            )
        })
        .collect();
    assert_eq!(
        stored,
        [
            ("family", "ana@example.com", "voice", Some("call-b")),
            ("medicare", "bo@example.org", "voice", Some("call-b")),
            ("employer", "cy@example.net", "voice", Some("call-b")),
        ]
    );
    app.stop().await;
}

#[tokio::test]
async fn an_invalid_email_by_voice_gets_a_readable_error_and_no_row() {
    let app = app().await;
    let body = tool_calls(
        "call-c",
        json!([
            quote_call("t1", "family", "ana at example dot com"),
            quote_call("t2", "dental", "ana@example.com"),
            {"id": "t3", "name": "book_meeting", "parameters": {}},
            {"id": "t4", "function": {"name": "request_quote", "arguments": "{not json"}},
        ]),
    );
    let answer = answer(&app, SECRET, &body).await;
    let results = answer["results"].as_array().unwrap();
    assert_eq!(results.len(), 4);
    let error = |i: usize| results[i]["error"].as_str().expect("an error").to_owned();
    assert!(results.iter().all(|r| r.get("result").is_none()));
    assert!(
        error(0).contains("email address \"ana at example dot com\" is not valid"),
        "{}",
        error(0)
    );
    assert!(error(0).contains("spell it again"));
    assert!(
        error(1).contains("\"dental\"") && error(1).contains("medicare"),
        "{}",
        error(1)
    );
    assert!(error(2).contains("Unknown tool"), "{}", error(2));
    assert!(error(3).contains("not a JSON object"), "{}", error(3));
    assert!((0..4).all(|i| !error(i).contains('\n')));
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn the_same_tool_call_twice_stores_one_row() {
    let app = app().await;
    let body = one_quote("call-d", "family", "ana@example.com");
    let first = answer(&app, SECRET, &body).await;
    let second = answer(&app, SECRET, &body).await;
    assert_eq!(first, second, "a retried tool call gets the same answer");
    // Both at once, in the same group commit.
    let twice = tool_calls(
        "call-e",
        json!([
            quote_call("t1", "family", "ana@example.com"),
            quote_call("t1", "family", "ana@example.com")
        ]),
    );
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &twice).await.status(),
        200
    );
    let rows = app.rows().await;
    let calls: Vec<_> = rows.iter().map(|r| r.call_id.as_deref().unwrap()).collect();
    assert_eq!(
        calls,
        ["call-d", "call-e"],
        "the same tool call id in another call is another request"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_end_of_call_report_is_linked_to_the_quotes_of_its_call() {
    let app = app().await;
    let quotes = tool_calls(
        "call-f",
        json!([
            quote_call("t1", "family", "ana@example.com"),
            quote_call("t2", "medicare", "bo@example.com")
        ]),
    );
    post_voice_event(&app, Some(SECRET), &quotes).await;
    let other = one_quote("call-g", "employer", "cy@example.com");
    post_voice_event(&app, Some(SECRET), &other).await;
    let report = end_of_call(
        "call-f",
        "customer-ended-call",
        "Ana wants family cover; Bo asks about Medicare.",
    );
    let response = post_voice_event(&app, Some(SECRET), &report).await;
    assert_eq!(response.status(), 200);
    for row in app.rows().await {
        if row.call_id.as_deref() == Some("call-f") {
            assert_eq!(
                row.call_ended_reason.as_deref(),
                Some("customer-ended-call")
            );
            assert_eq!(
                row.call_summary.as_deref(),
                Some("Ana wants family cover; Bo asks about Medicare.")
            );
        } else {
            assert_eq!((row.call_ended_reason, row.call_summary), (None, None));
        }
    }
    let ignored = json!({"message": {"type": "status-update", "status": "in-progress"}});
    let response = post_voice_event(&app, Some(SECRET), &ignored).await;
    assert_eq!(response.status(), 200);
    assert_eq!(app.rows().await.len(), 3);
    let malformed = app
        .client
        .post(app.url("/api/vapi/webhook"))
        .header("x-vapi-secret", SECRET)
        .body("{\"message\":")
        .send()
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
    app.stop().await;
}

#[tokio::test]
async fn a_tool_call_seen_before_with_other_arguments_is_refused_and_the_first_stands() {
    let app = app().await;
    let first = one_quote("call-r", "family", "ana@example.com");
    let saved = answer(&app, SECRET, &first).await;
    assert!(saved["results"][0]["result"]
        .as_str()
        .unwrap()
        .starts_with("Saved"));
    let again = answer(&app, SECRET, &first).await;
    assert_eq!(again, saved, "the same call again is answered the same");

    let changed = one_quote("call-r", "family", "other@example.com");
    let refused = answer(&app, SECRET, &changed).await;
    let result = &refused["results"][0];
    assert_eq!(result["toolCallId"], "t1");
    assert!(result.get("result").is_none(), "never a Saved: {result}");
    let error = result["error"].as_str().unwrap();
    assert!(
        error.starts_with("Not saved") && error.contains("earlier request stands"),
        "{error}"
    );
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].email, "ana@example.com");
    app.stop().await;
}

#[tokio::test]
async fn a_message_beyond_its_bounds_is_refused_whole_and_stores_nothing() {
    let app = app().await;
    let long_id = "c".repeat(256);
    let calls: Vec<Value> = (0..65)
        .map(|n| quote_call(&format!("t{n}"), "family", "ana@example.com"))
        .collect();
    let cases = [
        (
            one_quote(&long_id, "family", "ana@example.com"),
            "message.call.id",
        ),
        (
            tool_calls(
                "call-c",
                json!([quote_call(&long_id, "family", "ana@example.com")]),
            ),
            "tool call id",
        ),
        (
            tool_calls("call-c", Value::Array(calls)),
            "at most 64 tool calls",
        ),
        (
            end_of_call(&long_id, "customer-ended-call", "Wants cover."),
            "message.call.id",
        ),
    ];
    for (body, problem) in cases {
        let response = post_voice_event(&app, Some(SECRET), &body).await;
        assert_eq!(response.status(), 400, "{problem}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["code"], "invalid_parameter");
        assert!(
            error["message"].as_str().unwrap().contains(problem),
            "{error}"
        );
    }
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

/// The stored call ids.
fn stored_calls(app: &TestApp) -> Vec<String> {
    let conn = app.sqlite();
    let mut statement = conn
        .prepare("SELECT call_id FROM voice_calls ORDER BY call_id")
        .unwrap();
    let ids = statement.query_map([], |row| row.get(0)).unwrap();
    ids.collect::<Result<_, _>>().unwrap()
}

/// Waits for the purge that starts with the server to leave just `kept`.
async fn purged_to(app: &TestApp, kept: &[&str]) {
    eventually("the purge at start", || async {
        let stored = stored_calls(app);
        if stored == kept {
            Ok(())
        } else {
            Err(format!("{stored:?}"))
        }
    })
    .await;
}

#[tokio::test]
async fn a_conversation_is_kept_for_its_retention_with_or_without_a_lead() {
    let mut app = app().await;
    call_with_one_quote(
        &app,
        SECRET,
        "with-lead",
        "family",
        "ana@example.com",
        "Wants family cover",
    )
    .await;
    for call_id in ["no-lead-ancient", "no-lead-old", "no-lead-new"] {
        let report = end_of_call(call_id, "customer-ended-call", "Asked about prices");
        assert_eq!(
            post_voice_event(&app, Some(SECRET), &report).await.status(),
            200
        );
    }
    app.shutdown().await;
    app.sqlite()
        .execute(
            "UPDATE voice_calls SET reported_at = '2026-01-01T00:00:00.000Z'
             WHERE call_id IN ('with-lead', 'no-lead-old')",
            [],
        )
        .unwrap();
    app.sqlite()
        .execute(
            "UPDATE voice_calls SET reported_at = '2015-01-01T00:00:00.000Z'
             WHERE call_id = 'no-lead-ancient'",
            [],
        )
        .unwrap();
    // Ten years by default: a call without a lead is no longer gone after a day. The purge's
    // first round deletes the eleven-year-old call in the one statement that would delete the
    // others, so once it is gone the round has run.
    app.restart().await;
    let kept = ["no-lead-new", "no-lead-old", "with-lead"];
    purged_to(&app, &kept).await;
    // CONVERSATION_RETENTION_DAYS alone removes them, a lead or none.
    app.restart_with(|config| {
        config.inbox.conversation_retention = std::time::Duration::from_secs(30 * 86_400);
    })
    .await;
    purged_to(&app, &["no-lead-new"]).await;
    let rows = app.rows().await;
    assert_eq!(rows[0].email, "ana@example.com", "the lead stays");
    assert_eq!(rows[0].call_summary, None, "without its conversation");
    app.stop().await;
}

#[tokio::test]
async fn a_quote_asked_for_in_a_chat_is_stored_once_with_source_chat_and_listed_as_such() {
    let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
    let app = app_with_admin_token(Some(token)).await;
    app.post_lead("family", "web@example.com").await;
    // The web chat names the chat and its session instead of a call; its id is kept apart
    // from the calls' as `chat:<session>`.
    let body = json!({"message": {"type": "tool-calls",
        "chat": {"id": "chat-7", "sessionId": "session-7"},
        "toolCallList": [quote_call("t1", "medicare", "chat@example.com")]}});
    for _ in 0..2 {
        let answer = answer(&app, SECRET, &body).await;
        assert!(
            answer["results"][0]["result"]
                .as_str()
                .unwrap()
                .starts_with("Saved: a Medicare quote request for chat@example.com"),
            "{answer}"
        );
    }
    let list = |query: &'static str| {
        app.client
            .get(app.url(&format!("/api/admin/quote-requests?{query}")))
            .bearer_auth(token)
            .send()
    };
    let listed: Value = list("source=chat").await.unwrap().json().await.unwrap();
    let rows = listed["quote_requests"].as_array().unwrap();
    assert_eq!(
        rows.len(),
        1,
        "a retried tool call is one lead, the web lead apart"
    );
    assert_eq!(
        (&rows[0]["source"], &rows[0]["call_id"], &rows[0]["email"]),
        (
            &json!("chat"),
            &json!("chat:session-7"),
            &json!("chat@example.com")
        )
    );
    let csv = list("source=chat&format=csv")
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .contains(r#","chat","chat:session-7","#),
        "{csv}"
    );
    app.stop().await;
}

#[tokio::test]
async fn wrong_secrets_count_as_failed_sign_ins_with_wrong_admin_tokens() {
    let token = "5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19";
    let app = app_with_admin_token(Some(token)).await;
    let body = one_quote("call-guessed", "family", "ana@example.com");
    // Without the header nothing is guessed, so nothing is counted.
    for _ in 0..10 {
        assert_eq!(post_voice_event(&app, None, &body).await.status(), 401);
    }
    for guess in 0..4 {
        let response = post_voice_event(&app, Some(&format!("guess-{guess}")), &body).await;
        assert_eq!(response.status(), 401, "guess {guess}");
    }
    let wrong_token = app
        .client
        .get(app.url("/api/admin/quote-requests"))
        .bearer_auth("wrong")
        .send()
        .await
        .unwrap();
    assert_eq!(wrong_token.status(), 401, "the fifth failure");
    // Past the limit a wrong secret is refused without being checked further...
    let refused = post_voice_event(&app, Some("guess-5"), &body).await;
    assert_eq!(refused.status(), 429);
    assert!(refused.headers().contains_key("retry-after"));
    assert_eq!(
        refused.json::<Value>().await.unwrap()["code"],
        "too_many_failed_attempts"
    );
    assert!(app.rows().await.is_empty());
    // ...and so is the right admin token, while the right secret still passes.
    let right_token = app
        .client
        .get(app.url("/api/admin/quote-requests"))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    assert_eq!(right_token.status(), 429);
    let right = post_voice_event(&app, Some(SECRET), &body).await;
    assert_eq!(right.status(), 200);
    assert_eq!(app.rows().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_call_from_the_spanish_page_stores_spanish_leads() {
    let app = app().await;
    let mut body = one_quote("call-es", "family", "ana@example.com");
    // As the web SDK's start(assistantId, overrides) from /es/ passes it.
    body["message"]["call"]["assistantOverrides"] =
        json!({"variableValues": {"language": "es"}, "metadata": {"language": "es"}});
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &body).await.status(),
        200
    );
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].language, backend::store::Language::Es);
    app.stop().await;
}

#[tokio::test]
async fn every_kept_conversation_is_listed_newest_first_and_read_with_its_transcript() {
    let token = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
    let app = app_with_admin_token(Some(token)).await;
    call_with_one_quote(
        &app,
        SECRET,
        "with-lead",
        "family",
        "ana@example.com",
        "Wants family cover",
    )
    .await;
    // Reports are timed to the millisecond: the second comes after.
    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    let report = end_of_call("no-lead", "customer-ended-call", "Asked about prices");
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &report).await.status(),
        200
    );
    let get = |path: String| app.client.get(app.url(&path)).bearer_auth(token).send();
    let listed: Value = get("/api/admin/conversations".into())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let listed = listed["conversations"].as_array().unwrap().clone();
    let calls: Vec<&str> = listed
        .iter()
        .map(|c| c["call_id"].as_str().unwrap())
        .collect();
    assert_eq!(calls, ["no-lead", "with-lead"], "newest first");
    assert_eq!(listed[0]["lead_id"], Value::Null);
    assert_eq!(listed[0]["channel"], "voice");
    assert_eq!(listed[1]["summary"], "Wants family cover");
    assert!(listed[1]["lead_id"].is_string());
    assert!(listed[1].get("transcript").is_none(), "not in a list");
    let one = get("/api/admin/conversations/no-lead".into())
        .await
        .unwrap();
    assert_eq!(one.status(), 200);
    let one: Value = one.json().await.unwrap();
    assert!(
        one["transcript"].as_str().unwrap().starts_with("AI:"),
        "{one}"
    );
    assert_eq!(
        get("/api/admin/conversations/never".into())
            .await
            .unwrap()
            .status(),
        404
    );
    // Neither is public.
    let anonymous = app
        .client
        .get(app.url("/api/admin/conversations"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    app.stop().await;
}
