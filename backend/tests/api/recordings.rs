//! Every conversation kept as an auditor would ask: a call's recording copied from the provider
//! (a stand-in of its storage) into the site's database through the durable outbox, served byte
//! for byte once the provider's copy is gone, retried across restarts and alerted on once, and
//! copied once by two instances on one PostgreSQL; a web chat's transcript kept turn by turn;
//! a lead's records downloaded as a ZIP with a manifest of SHA-256s.
//!
//! And as the security review found them: a copy is served as an attachment of an audio type
//! (anything else as opaque bytes) in a sandbox; it is fetched only from `RECORDING_ORIGINS`,
//! redirects included, and never from a name that resolves inside; an oversize copy, or one past
//! `RECORDINGS_MAX_MB`, is given up at once and alerted on once; stalled hosts do not hold up a
//! good copy.

use std::io::Read;
use std::time::Duration;

use backend::settings::alerts::AlertSettings;
use backend::settings::leads::RetryPolicy;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::common::broker::{admin_get, TOKEN};
use crate::common::eventually::eventually;
use crate::common::postgres::{on_both_databases, TestDatabase};
use crate::common::recording_host::{wav, RecordingHost, SilentHost, UnreachedHost};
use crate::common::smtp::SmtpServer;
use crate::common::voice::{end_of_call, one_quote, post_voice_event};
use crate::common::TestApp;

const SECRET: &str = "voice-secret-123";
const STARTED: &str = "2026-11-27T10:00:00.000Z";
const ORIGINS: &str = "RECORDING_ORIGINS";
const ALERT_SUBJECT: &str = "Alert: a call recording is not being kept";

async fn app_on(database: Option<DatabaseUrl>, env: &[(&str, &str)]) -> TestApp {
    app_alerting(database, env, Duration::from_secs(1)).await
}

/// The app, alerting on a copy that still fails `after` it was queued.
async fn app_alerting(
    database: Option<DatabaseUrl>,
    env: &[(&str, &str)],
    after: Duration,
) -> TestApp {
    let mut spawn = TestApp::spawn().env(env).configure(move |config| {
        config.leads.voice_events_secret = Some(SECRET.into());
        config.leads.admin_token = Some(TOKEN.into());
        config.leads.retry = RetryPolicy {
            give_up_after: Duration::from_secs(24 * 60 * 60),
            first: Duration::from_millis(50),
            longest: Duration::from_millis(300),
        };
        config.alerts = AlertSettings {
            after,
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

async fn conversation(app: &TestApp, call_id: &str) -> Value {
    let path = format!("/api/admin/conversations/{call_id}");
    admin_get(app, &path).await.json().await.unwrap()
}

/// The stored recording, once the copy is made.
async fn copied_recording(app: &TestApp, call_id: &str) -> reqwest::Response {
    let path = format!("/api/admin/conversations/{call_id}/recording");
    eventually(&format!("the recording of {call_id}"), || async {
        let response = admin_get(app, &path).await;
        if response.status() == 200 {
            return Ok(response);
        }
        assert_eq!(response.status(), 404, "not copied yet");
        Err(conversation(app, call_id).await)
    })
    .await
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
    let mut app = app_on(None, &[(ORIGINS, &host.origin())]).await;
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
    env.push((ORIGINS.into(), host.origin()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut app = app_on(None, &env).await;
    let report = recorded_call("call-flaky", &host.url);
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &report).await.status(),
        200
    );
    let subject = ALERT_SUBJECT;
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
    let origin = host.origin();
    let origins = [(ORIGINS, origin.as_str())];
    let apps = [
        app_on(Some(url.clone()), &origins).await,
        app_on(Some(url), &origins).await,
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
    let app = app_on(None, &[(ORIGINS, &host.origin())]).await;
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

/// The conversation once its recording's copy is no longer pending.
async fn settled(app: &TestApp, call_id: &str) -> Value {
    eventually(&format!("the recording of {call_id} to settle"), || async {
        let kept = conversation(app, call_id).await;
        if kept["recording"]["status"] != "pending" {
            Ok(kept)
        } else {
            Err(kept)
        }
    })
    .await
}

/// The error of a copy given up on.
async fn given_up(app: &TestApp, call_id: &str) -> String {
    let kept = settled(app, call_id).await;
    assert_eq!(kept["recording"]["status"], "failed", "{kept}");
    kept["recording"]["error"].as_str().unwrap().to_owned()
}

async fn post_recorded_call(app: &TestApp, call_id: &str, url: &str) {
    let report = recorded_call(call_id, url);
    assert_eq!(
        post_voice_event(app, Some(SECRET), &report).await.status(),
        200
    );
}

/// Its headers as the review asked, whatever the copy holds.
fn assert_served_safely(response: &reqwest::Response, content_type: &str) {
    let headers = response.headers();
    assert_eq!(headers["content-type"], content_type);
    assert_eq!(headers["content-disposition"], "attachment");
    assert_eq!(headers["x-content-type-options"], "nosniff");
    assert_eq!(headers["content-security-policy"], "sandbox");
}

#[tokio::test]
async fn a_copy_is_served_as_an_attachment_of_an_audio_type_in_a_sandbox() {
    let page = b"<!doctype html><script>fetch('/api/admin/quote-requests')</script>".to_vec();
    let svg = b"<svg xmlns='http://www.w3.org/2000/svg'><script>alert(1)</script></svg>".to_vec();
    let script = b"fetch('/api/admin/quote-requests')".to_vec();
    let hosts = [
        ("call-wav", RecordingHost::start().await, "audio/wav"),
        (
            "call-mp3",
            RecordingHost::serving("audio/mpeg; charset=binary", wav(1000)).await,
            "audio/mpeg",
        ),
        (
            "call-html",
            RecordingHost::serving("text/html", page).await,
            "application/octet-stream",
        ),
        (
            "call-svg",
            RecordingHost::serving("image/svg+xml", svg).await,
            "application/octet-stream",
        ),
        (
            "call-js",
            RecordingHost::serving("application/javascript", script).await,
            "application/octet-stream",
        ),
    ];
    let origins: Vec<String> = hosts.iter().map(|(_, host, _)| host.origin()).collect();
    let origins = origins.join(",");
    let app = app_on(None, &[(ORIGINS, &origins)]).await;
    for (call_id, host, _) in &hosts {
        post_recorded_call(&app, call_id, &host.url).await;
    }
    for (call_id, host, served_as) in &hosts {
        let response = copied_recording(&app, call_id).await;
        assert_served_safely(&response, served_as);
        assert!(response.bytes().await.unwrap() == host.audio, "{call_id}");
    }
    app.stop().await;
}

#[tokio::test]
async fn an_unlisted_origin_is_refused_without_a_connection() {
    let listed = RecordingHost::start().await;
    let inside = UnreachedHost::start();
    let app = app_on(None, &[(ORIGINS, &listed.origin())]).await;
    post_recorded_call(&app, "call-inside", &inside.url()).await;
    post_recorded_call(
        &app,
        "call-metadata",
        "http://169.254.169.254/latest/meta-data",
    )
    .await;
    post_recorded_call(&app, "call-relative", "/api/admin/quote-requests").await;
    post_recorded_call(&app, "call-script", "javascript:alert(1)").await;
    let origin = format!("http://127.0.0.1:{}", inside.port());
    assert_eq!(
        given_up(&app, "call-inside").await,
        format!("{origin} is not in RECORDING_ORIGINS")
    );
    inside.assert_never_connected();
    assert_eq!(
        given_up(&app, "call-metadata").await,
        "http://169.254.169.254 is not in RECORDING_ORIGINS"
    );
    for call_id in ["call-relative", "call-script"] {
        assert_eq!(given_up(&app, call_id).await, "not an http(s) URL");
    }
    assert_eq!(listed.requests(), 0);
    app.stop().await;
}

#[tokio::test]
async fn a_redirect_is_followed_only_to_a_listed_origin() {
    let (first, second) = (RecordingHost::start().await, RecordingHost::start().await);
    let inside = UnreachedHost::start();
    let origins = format!("{},{}", first.origin(), second.origin());
    let app = app_on(None, &[(ORIGINS, &origins)]).await;
    post_recorded_call(&app, "call-away", &first.redirecting_to(&inside.url())).await;
    let origin = format!("http://127.0.0.1:{}", inside.port());
    assert_eq!(
        given_up(&app, "call-away").await,
        format!("a redirect went to {origin}, which is not in RECORDING_ORIGINS")
    );
    inside.assert_never_connected();
    post_recorded_call(&app, "call-along", &second.redirecting_to(&first.url)).await;
    let response = copied_recording(&app, "call-along").await;
    assert!(response.bytes().await.unwrap() == first.audio);
    app.stop().await;
}

#[tokio::test]
async fn a_listed_name_that_resolves_to_loopback_is_refused() {
    let inside = UnreachedHost::start();
    let origin = format!("http://localhost:{}", inside.port());
    let app = app_on(None, &[(ORIGINS, &origin)]).await;
    let url = format!("{origin}/recordings/inside.wav");
    post_recorded_call(&app, "call-localhost", &url).await;
    let error = given_up(&app, "call-localhost").await;
    assert!(
        error.contains("localhost resolves to no public address"),
        "{error}"
    );
    inside.assert_never_connected();
    app.stop().await;
}

#[tokio::test]
async fn an_oversize_copy_is_given_up_at_once_and_alerted_once_a_refused_one_not_mailed() {
    let huge = SilentHost::start(
        "HTTP/1.1 200 OK\r\ncontent-type: audio/wav\r\ncontent-length: 300000000\r\n\r\n",
    )
    .await;
    let good = RecordingHost::start().await;
    let smtp = SmtpServer::plain();
    let mut env = smtp.env();
    env.push(("ALERT_EMAIL_TO".into(), "ops@example.com".into()));
    env.push((
        ORIGINS.into(),
        format!("{},{}", huge.origin(), good.origin()),
    ));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    // Alerts on failing copies come after an hour: this one is alerted on because it was given up.
    let app = app_alerting(None, &env, Duration::from_secs(3600)).await;
    // A refused copy is given up too, but not mailed about: anyone with a report could.
    post_recorded_call(&app, "call-refused", "http://169.254.169.254/latest").await;
    given_up(&app, "call-refused").await;
    post_recorded_call(&app, "call-huge", &huge.url).await;
    assert_eq!(
        given_up(&app, "call-huge").await,
        "the recording is larger than 268435456 bytes"
    );
    let messages = smtp
        .wait_for("the recording alert", |m| {
            m.iter().any(|m| m.one("Subject") == ALERT_SUBJECT)
        })
        .await;
    let alert = messages
        .iter()
        .find(|m| m.one("Subject") == ALERT_SUBJECT)
        .unwrap();
    assert!(alert.text().contains("call-huge"), "{}", alert.text());
    // Copies go on: once a later one is made, the given-up one was neither tried nor alerted on
    // again.
    post_recorded_call(&app, "call-good", &good.url).await;
    copied_recording(&app, "call-good").await;
    assert_eq!(huge.connections(), 1, "tried once");
    let alerts: Vec<String> = smtp
        .messages()
        .iter()
        .filter(|m| m.one("Subject") == ALERT_SUBJECT)
        .map(|m| m.text().to_owned())
        .collect();
    assert_eq!(alerts.len(), 1, "alerted once: {alerts:?}");
    assert!(!alerts[0].contains("call-refused"));
    app.stop().await;
}

/// Four copies of 300 KB under a total of 1 MB: three are kept, the fourth given up.
async fn past_the_total_a_copy_is_given_up(database: Option<DatabaseUrl>) {
    let host = RecordingHost::start().await;
    let app = app_on(
        database,
        &[(ORIGINS, &host.origin()), ("RECORDINGS_MAX_MB", "1")],
    )
    .await;
    let calls = ["call-1", "call-2", "call-3", "call-4"];
    for call_id in calls {
        post_recorded_call(&app, call_id, &host.url).await;
    }
    let mut stored = 0;
    let mut failed = Vec::new();
    for call_id in calls {
        let kept = settled(&app, call_id).await;
        match kept["recording"]["status"].as_str() {
            Some("stored") => stored += 1,
            _ => failed.push(kept["recording"]["error"].clone()),
        }
    }
    assert_eq!(stored, 3);
    assert_eq!(
        failed,
        [json!(
            "the stored recordings would take more than RECORDINGS_MAX_MB (1 MB)"
        )]
    );
    app.stop().await;
}

on_both_databases!(past_the_total_a_copy_is_given_up);

#[tokio::test]
async fn two_stalled_hosts_do_not_hold_up_a_good_copy() {
    let stalled = [SilentHost::start("").await, SilentHost::start("").await];
    let good = RecordingHost::start().await;
    let origins = format!(
        "{},{},{}",
        stalled[0].origin(),
        stalled[1].origin(),
        good.origin()
    );
    let app = app_on(None, &[(ORIGINS, &origins)]).await;
    post_recorded_call(&app, "call-stalled-1", &stalled[0].url).await;
    post_recorded_call(&app, "call-stalled-2", &stalled[1].url).await;
    eventually("both stalled hosts asked", || async {
        let asked: Vec<_> = stalled.iter().map(|host| host.connections()).collect();
        if asked.contains(&0) {
            Err(format!("connections {asked:?}"))
        } else {
            Ok(())
        }
    })
    .await;
    // Both stalled copies are in flight, waiting for an answer: the good one is copied beside
    // them within a poll or two, not after them.
    let posted = tokio::time::Instant::now();
    post_recorded_call(&app, "call-good", &good.url).await;
    copied_recording(&app, "call-good").await;
    let waited = posted.elapsed();
    assert!(waited < Duration::from_secs(10), "waited {waited:?}");
    for call_id in ["call-stalled-1", "call-stalled-2"] {
        let kept = conversation(&app, call_id).await;
        assert_eq!(kept["recording"]["status"], "pending", "{kept}");
    }
    app.stop().await;
}
