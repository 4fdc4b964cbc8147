//! The records of conversations as the security review of 0.2.0 tried them, on SQLite and on
//! PostgreSQL: a chat's transcript stays within its bound however many big turns come, and says
//! how many lines it left out; lists and their CSV carry no transcript; a repeated end-of-call
//! report cannot rewrite what the first kept; a chat and a call of the same id are two records;
//! a call id with reserved characters is reachable through the admin API.

use std::io::Read;

use backend::store::{self, DatabaseUrl, RecordingOutcome, StoredRecording};
use serde_json::{json, Value};

use crate::common::broker::{admin_get, TOKEN};
use crate::common::postgres::TestDatabase;
use crate::common::voice::{one_quote, post_voice_event};
use crate::common::TestApp;

const SECRET: &str = "voice-secret-123";
/// `backend::store::transcript::MAX_TRANSCRIPT_BYTES`, as the docs give it.
const MAX_TRANSCRIPT_BYTES: usize = 256 * 1024;

async fn app_on(database: Option<DatabaseUrl>) -> TestApp {
    let mut spawn = TestApp::spawn().configure(|config| {
        config.leads.voice_events_secret = Some(SECRET.into());
        config.leads.admin_token = Some(TOKEN.into());
    });
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    spawn.start().await
}

async fn admin_json(app: &TestApp, path: &str) -> Value {
    let response = admin_get(app, path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

async fn post(app: &TestApp, body: &Value) {
    let response = post_voice_event(app, Some(SECRET), body).await;
    assert_eq!(response.status(), 200, "{body:.200}");
}

fn chat_turn(session: &str, input: &str, output: &str) -> Value {
    json!({"message": {"type": "chat.created", "chat": {
        "id": format!("chat-{input:.8}"), "sessionId": session, "input": input,
        "output": [{"role": "assistant", "content": output}],
    }}})
}

fn report(call_id: &str, transcript: &str, recording_url: &str, summary: Option<&str>) -> Value {
    json!({"message": {"type": "end-of-call-report", "call": {"id": call_id},
        "endedReason": "customer-ended-call", "analysis": {"summary": summary},
        "artifact": {"transcript": transcript, "recordingUrl": recording_url}}})
}

async fn review_steps(app: &TestApp) {
    // Eight turns of 100 KiB each: two fit, the other six (two lines each) are counted.
    let big = |n: usize| format!("{n} {}", "a".repeat(100 * 1024));
    for n in 0..8 {
        post(app, &chat_turn("sess-big", &big(n), &format!("ok {n}"))).await;
    }
    let chat = admin_json(app, "/api/admin/conversations/chat:sess-big").await;
    let transcript = chat["transcript"].as_str().unwrap();
    assert!(transcript.len() <= MAX_TRANSCRIPT_BYTES);
    assert_eq!(
        transcript,
        format!("User: {}\nAI: ok 0\nUser: {}\nAI: ok 1", big(0), big(1))
    );
    assert_eq!(chat["transcript_lines_dropped"], 12);
    assert_eq!(chat["channel"], "chat");

    // An end-of-call report over the bound is cut between lines, and says how many it left out.
    let line = format!("User: {}", "b".repeat(1000));
    let long = vec![line.as_str(); 300].join("\n");
    post(
        app,
        &report("call-long", &long, "http://127.0.0.1:9/l.wav", None),
    )
    .await;
    let call = admin_json(app, "/api/admin/conversations/call-long").await;
    let kept = call["transcript"].as_str().unwrap();
    assert!(kept.len() <= MAX_TRANSCRIPT_BYTES && long.starts_with(kept));
    assert_eq!(
        call["transcript_lines_dropped"],
        300 - kept.lines().count() as u64
    );

    // A repeated report adds the summary the first lacked and keeps the rest as it was.
    post(app, &one_quote("call-held", "medicare", "ana@example.com")).await;
    let first = report(
        "call-held",
        "AI: Which plan?\nUser: Medicare.",
        "http://127.0.0.1:9/first.wav",
        None,
    );
    post(app, &first).await;
    let mut repeated = report(
        "call-held",
        "AI: Something else entirely.",
        "http://127.0.0.1:9/second.wav",
        Some("Wants Medicare"),
    );
    repeated["message"]["endedReason"] = json!("silence-timed-out");
    post(app, &repeated).await;
    let held = admin_json(app, "/api/admin/conversations/call-held").await;
    assert_eq!(held["transcript"], "AI: Which plan?\nUser: Medicare.");
    assert_eq!(held["recording_url"], "http://127.0.0.1:9/first.wav");
    assert_eq!(held["ended_reason"], "customer-ended-call");
    assert_eq!(held["summary"], "Wants Medicare");
    assert_eq!(held["transcript_lines_dropped"], 0);

    // A chat and a call of the same id are two records, each with its own transcript.
    post(app, &chat_turn("same", "Hi", "Hello!")).await;
    post(
        app,
        &report("same", "AI: A call.", "http://127.0.0.1:9/s.wav", None),
    )
    .await;
    let listed = admin_json(app, "/api/admin/conversations").await;
    let listed = listed["conversations"].as_array().unwrap();
    let channel_of = |id: &str| {
        listed
            .iter()
            .find(|c| c["call_id"] == id)
            .map(|c| c["channel"].clone())
    };
    assert_eq!(channel_of("same"), Some(json!("voice")));
    assert_eq!(channel_of("chat:same"), Some(json!("chat")));
    assert!(listed.iter().all(|c| c.get("transcript").is_none()));
    let call = admin_json(app, "/api/admin/conversations/same").await;
    assert_eq!(call["transcript"], "AI: A call.");
    let chat = admin_json(app, "/api/admin/conversations/chat:same").await;
    assert_eq!(chat["transcript"], "User: Hi\nAI: Hello!");
    // A call's id that would read as a chat's is refused, and nothing is stored.
    let posing = report(
        "chat:same",
        "AI: Over it.",
        "http://127.0.0.1:9/p.wav",
        None,
    );
    let refused = post_voice_event(app, Some(SECRET), &posing).await;
    assert_eq!(refused.status(), 400);
    let chat = admin_json(app, "/api/admin/conversations/chat:same").await;
    assert_eq!(chat["transcript"], "User: Hi\nAI: Hello!");

    // A call id with reserved characters is stored and reachable, percent-encoded in the path.
    let reserved = "a/b c%";
    post(app, &one_quote(reserved, "family", "bo@example.com")).await;
    post(
        app,
        &report(reserved, "AI: Reserved.", "http://127.0.0.1:9/r.wav", None),
    )
    .await;
    let kept = admin_json(app, "/api/admin/conversations/a%2Fb%20c%25").await;
    assert_eq!(kept["call_id"], reserved);
    assert_eq!(kept["transcript"], "AI: Reserved.");
    let lead_id = kept["lead_id"].as_str().unwrap().to_owned();
    let lead = admin_json(app, &format!("/api/admin/quote-requests/{lead_id}")).await;
    assert_eq!(lead["call_id"], reserved);
    assert_eq!(lead["call_transcript"], "AI: Reserved.");
    // Its records' conversation.json says whether its transcript is whole.
    let records = admin_get(app, &format!("/api/admin/quote-requests/{lead_id}/records")).await;
    assert_eq!(records.status(), 200);
    let bytes = records.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut conversation = String::new();
    zip.by_name(&format!("lead-{lead_id}/conversation.json"))
        .unwrap()
        .read_to_string(&mut conversation)
        .unwrap();
    let conversation: Value = serde_json::from_str(&conversation).unwrap();
    assert_eq!(conversation["call_id"], reserved);
    assert_eq!(conversation["transcript_lines_dropped"], 0);
    let store = store::open(&app.database).await.unwrap();
    let copy = StoredRecording {
        content_type: "audio/wav".into(),
        sha256: "00".repeat(32),
        audio: b"RIFF".to_vec(),
    };
    store
        .record_recording(
            reserved.into(),
            RecordingOutcome::Stored {
                recording: copy,
                max_total_bytes: u64::MAX,
            },
        )
        .await
        .unwrap();
    store.close().await;
    let recording = admin_get(app, "/api/admin/conversations/a%2Fb%20c%25/recording").await;
    assert_eq!(recording.status(), 200);
    assert_eq!(recording.bytes().await.unwrap().as_ref(), b"RIFF");

    // The leads' list and its CSV carry no transcript; one lead's page does.
    let page = admin_json(app, "/api/admin/quote-requests").await;
    let rows = page["quote_requests"].as_array().unwrap();
    assert_eq!(rows.len(), 2);
    assert!(rows.iter().all(|row| row.get("call_transcript").is_none()));
    let csv = admin_get(app, "/api/admin/quote-requests?format=csv")
        .await
        .text()
        .await
        .unwrap();
    assert!(csv.contains("Wants Medicare"));
    assert!(!csv.contains("transcript") && !csv.contains("AI: Which plan?"));
    let held_lead = rows
        .iter()
        .find(|row| row["call_id"] == "call-held")
        .unwrap();
    let lead = admin_json(
        app,
        &format!(
            "/api/admin/quote-requests/{}",
            held_lead["id"].as_str().unwrap()
        ),
    )
    .await;
    assert_eq!(lead["call_transcript"], "AI: Which plan?\nUser: Medicare.");
}

#[tokio::test]
async fn the_reviews_conversation_steps_hold() {
    let app = app_on(None).await;
    review_steps(&app).await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_the_reviews_conversation_steps_hold() {
    let database = TestDatabase::create().await;
    let app = app_on(Some(DatabaseUrl::Postgres(database.url.clone()))).await;
    review_steps(&app).await;
    app.stop().await;
    database.drop().await;
}

async fn hold(app: &TestApp, call_id: &str, body: &str) -> reqwest::Response {
    app.client
        .patch(app.url(&format!("/api/admin/conversations/{call_id}")))
        .bearer_auth(TOKEN)
        .header("content-type", "application/json")
        .body(body.to_owned())
        .send()
        .await
        .unwrap()
}

/// The broker puts a conversation on legal hold and lets it go; a wrong body or an unknown
/// conversation is told so.
async fn hold_steps(app: &TestApp) {
    post(
        app,
        &report("held-call", "AI: Hi", "https://storage.vapi.ai/r.wav", None),
    )
    .await;
    let held = hold(app, "held-call", r#"{"legal_hold": true}"#).await;
    assert_eq!(held.status(), 200);
    let held: Value = held.json().await.unwrap();
    assert!(held["legal_hold_at"].is_string(), "{held}");
    let listed = admin_json(app, "/api/admin/conversations").await;
    assert_eq!(
        listed["conversations"][0]["legal_hold_at"],
        held["legal_hold_at"]
    );
    let wrong = hold(app, "held-call", r#"{"legal_hold": "yes"}"#).await;
    assert_eq!(wrong.status(), 400);
    let wrong: Value = wrong.json().await.unwrap();
    assert!(wrong["message"].as_str().unwrap().contains("legal_hold"));
    assert_eq!(
        hold(app, "no-such-call", r#"{"legal_hold": true}"#)
            .await
            .status(),
        404
    );
    let let_go: Value = hold(app, "held-call", r#"{"legal_hold": false}"#)
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(let_go["legal_hold_at"], Value::Null);
}

#[tokio::test]
async fn a_conversation_is_put_on_legal_hold_and_let_go() {
    let app = app_on(None).await;
    hold_steps(&app).await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_a_conversation_is_put_on_legal_hold_and_let_go() {
    let database = TestDatabase::create().await;
    let app = app_on(Some(DatabaseUrl::Postgres(database.url.clone()))).await;
    hold_steps(&app).await;
    app.stop().await;
    database.drop().await;
}
