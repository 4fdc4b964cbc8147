//! Every conversation kept as an auditor would ask: a call's recording copied from the provider
//! (a stand-in of its storage) into the site's database through the durable outbox, served byte
//! for byte once the provider's copy is gone, retried across restarts and alerted on once, and
//! copied once by two instances on one PostgreSQL; a web chat's transcript kept turn by turn;
//! a lead's records downloaded as a ZIP with a manifest of SHA-256s.

use std::io::Read;
use std::time::Duration;

use backend::settings::alerts::AlertSettings;
use backend::settings::leads::RetryPolicy;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::common::postgres::TestDatabase;
use crate::common::recording_host::RecordingHost;
use crate::common::smtp::SmtpServer;
use crate::common::voice::{end_of_call, one_quote, post_voice_event};
use crate::common::TestApp;

const SECRET: &str = "voice-secret-123";
const TOKEN: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";
const STARTED: &str = "2026-11-27T10:00:00.000Z";

async fn app_on(database: Option<DatabaseUrl>, env: &[(&str, &str)]) -> TestApp {
    let mut spawn = TestApp::spawn().env(env).configure(|config| {
        config.leads.voice_events_secret = Some(SECRET.into());
        config.leads.admin_token = Some(TOKEN.into());
        config.leads.retry = RetryPolicy {
            give_up_after: Duration::from_secs(24 * 60 * 60),
            first: Duration::from_millis(50),
            longest: Duration::from_millis(300),
        };
        config.alerts = AlertSettings {
            after: Duration::from_secs(1),
            check_every: Duration::from_millis(100),
        };
    });
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    spawn.start().await
}

/// An end-of-call report whose recording is at `url`.
fn recorded_call(call_id: &str, url: &str) -> Value {
    let mut report = end_of_call(call_id, "customer-ended-call", "Asked about Medicare");
    report["message"]["artifact"]["recordingUrl"] = json!(url);
    report["message"]["startedAt"] = json!(STARTED);
    report
}

async fn admin_get(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
}

async fn conversation(app: &TestApp, call_id: &str) -> Value {
    let path = format!("/api/admin/conversations/{call_id}");
    admin_get(app, &path).await.json().await.unwrap()
}

/// The stored recording, once the copy is made (bounded wait).
async fn copied_recording(app: &TestApp, call_id: &str) -> reqwest::Response {
    let path = format!("/api/admin/conversations/{call_id}/recording");
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    loop {
        let response = admin_get(app, &path).await;
        if response.status() == 200 {
            return response;
        }
        assert_eq!(response.status(), 404, "not copied yet");
        assert!(
            tokio::time::Instant::now() < deadline,
            "the recording of {call_id} was not copied: {}",
            conversation(app, call_id).await
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

fn sha256(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

async fn assert_served_as_copied(app: &TestApp, call_id: &str, host: &RecordingHost) {
    let response = copied_recording(app, call_id).await;
    assert_eq!(response.headers()["content-type"], "audio/wav");
    let etag = format!("\"{}\"", sha256(&host.audio));
    assert_eq!(response.headers()["etag"], etag.as_str());
    let body = response.bytes().await.unwrap();
    assert!(body == host.audio, "byte for byte");
}

#[tokio::test]
async fn a_recording_is_served_byte_for_byte_after_the_provider_loses_it() {
    let host = RecordingHost::start().await;
    let mut app = app_on(None, &[]).await;
    let report = recorded_call("call-rec", &host.url);
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &report).await.status(),
        200
    );
    copied_recording(&app, "call-rec").await;
    host.answer(404);
    assert_served_as_copied(&app, "call-rec", &host).await;
    let kept = conversation(&app, "call-rec").await;
    assert_eq!(kept["started_at"], STARTED);
    assert_eq!(kept["recording"]["status"], "stored");
    assert_eq!(kept["recording"]["sha256"], sha256(&host.audio));
    assert_eq!(kept["recording"]["bytes"], host.audio.len());
    // Kept in the database: a restart serves it the same.
    app.restart().await;
    assert_served_as_copied(&app, "call-rec", &host).await;
    assert_eq!(host.requests(), 1, "copied once");
    let anonymous = app
        .client
        .get(app.url("/api/admin/conversations/call-rec/recording"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401, "never public");
    assert_eq!(
        admin_get(&app, "/api/admin/conversations/never/recording")
            .await
            .status(),
        404
    );
    app.stop().await;
}

#[tokio::test]
async fn a_copy_that_keeps_failing_is_alerted_once_and_made_after_a_restart() {
    let host = RecordingHost::start().await;
    host.answer(503);
    let smtp = SmtpServer::plain();
    let mut env = smtp.env();
    env.push(("ALERT_EMAIL_TO".into(), "ops@example.com".into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut app = app_on(None, &env).await;
    let report = recorded_call("call-flaky", &host.url);
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &report).await.status(),
        200
    );
    let subject = "Alert: a call recording is not being kept";
    let messages = smtp
        .wait_for("the recording alert", |m| {
            m.iter().any(|m| m.one("Subject") == subject)
        })
        .await;
    let alert = messages
        .iter()
        .find(|m| m.one("Subject") == subject)
        .unwrap();
    assert!(alert.text().contains("call-flaky"), "{}", alert.text());
    assert!(alert.text().contains("HTTP 503"), "{}", alert.text());
    let pending = conversation(&app, "call-flaky").await;
    assert_eq!(pending["recording"]["status"], "pending", "{pending}");
    assert_eq!(
        pending["recording"]["error"],
        "the provider answered HTTP 503"
    );
    app.shutdown().await;
    host.answer(200);
    app.restart().await;
    assert_served_as_copied(&app, "call-flaky", &host).await;
    let alerts = smtp
        .messages()
        .iter()
        .filter(|m| m.one("Subject") == subject)
        .count();
    assert_eq!(alerts, 1, "alerted once");
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_two_instances_copy_a_recording_once_and_both_serve_it() {
    let database = TestDatabase::create().await;
    let host = RecordingHost::start().await;
    let url = DatabaseUrl::Postgres(database.url.clone());
    let apps = [
        app_on(Some(url.clone()), &[]).await,
        app_on(Some(url), &[]).await,
    ];
    let report = recorded_call("call-pg", &host.url);
    assert_eq!(
        post_voice_event(&apps[0], Some(SECRET), &report)
            .await
            .status(),
        200
    );
    for app in &apps {
        assert_served_as_copied(app, "call-pg", &host).await;
    }
    assert_eq!(host.requests(), 1, "one instance copied it");
    for app in apps {
        app.stop().await;
    }
    database.drop().await;
}

fn chat_turn(created_at: &str, history: Value, input: &str, output: &str) -> Value {
    json!({"message": {"type": "chat.created", "chat": {
        "id": format!("chat-{created_at}"), "orgId": "org", "sessionId": "sess-1",
        "createdAt": created_at, "updatedAt": created_at,
        "messages": history, "input": input,
        "output": [{"role": "assistant", "content": output}],
    }}})
}

#[tokio::test]
async fn a_chat_without_a_lead_is_kept_turn_by_turn() {
    let app = app_on(None, &[]).await;
    let first = chat_turn(
        "2026-11-27T09:00:00.000Z",
        json!([{"role": "system", "content": "You are..."}]),
        "Hi",
        "Hello! How can I help?",
    );
    let second = chat_turn(
        "2026-11-27T09:01:00.000Z",
        json!([{"role": "user", "content": "Hi"},
               {"role": "assistant", "content": "Hello! How can I help?"}]),
        "Which plans?",
        "Medicare, Medicaid...",
    );
    for turn in [&first, &second, &second] {
        assert_eq!(
            post_voice_event(&app, Some(SECRET), turn).await.status(),
            200
        );
    }
    let kept = conversation(&app, "chat:sess-1").await;
    assert_eq!(kept["channel"], "chat");
    assert_eq!(kept["started_at"], "2026-11-27T09:00:00.000Z");
    assert_eq!(
        kept["transcript"],
        "User: Hi\nAI: Hello! How can I help?\nUser: Which plans?\nAI: Medicare, Medicaid..."
    );
    assert_eq!(kept["lead_id"], Value::Null);
    assert_eq!(kept["recording"], Value::Null);
    app.stop().await;
}

#[tokio::test]
async fn a_leads_records_download_holds_its_files_and_their_sha256s() {
    let host = RecordingHost::start().await;
    let app = app_on(None, &[]).await;
    let quote = one_quote("call-zip", "medicare", "ana@example.com");
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &quote).await.status(),
        200
    );
    let report = recorded_call("call-zip", &host.url);
    post_voice_event(&app, Some(SECRET), &report).await;
    copied_recording(&app, "call-zip").await;
    let id = app.rows().await[0].id.clone();
    let response = admin_get(&app, &format!("/api/admin/quote-requests/{id}/records")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let disposition = format!("attachment; filename=\"lead-{id}-records.zip\"");
    assert_eq!(
        response.headers()["content-disposition"],
        disposition.as_str()
    );
    let bytes = response.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut file = |name: &str| {
        let mut bytes = Vec::new();
        zip.by_name(&format!("lead-{id}/{name}"))
            .unwrap_or_else(|e| panic!("{name}: {e}"))
            .read_to_end(&mut bytes)
            .unwrap();
        bytes
    };
    let manifest: Value = serde_json::from_slice(&file("manifest.json")).unwrap();
    let names: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| f["name"].as_str().unwrap())
        .collect();
    assert_eq!(
        names,
        [
            "lead.json",
            "consent.json",
            "notice.txt",
            "conversation.json",
            "recording.wav"
        ]
    );
    for entry in manifest["files"].as_array().unwrap() {
        let bytes = file(entry["name"].as_str().unwrap());
        assert_eq!(entry["sha256"], sha256(&bytes), "{entry}");
    }
    assert!(file("recording.wav") == host.audio);
    assert_eq!(
        admin_get(&app, "/api/admin/quote-requests/nope/records")
            .await
            .status(),
        404
    );
    app.stop().await;
}
