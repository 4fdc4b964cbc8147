//! The visitor's acceptance of the notice before a conversation (`POST /api/notice-acceptance`),
//! on SQLite and on PostgreSQL: the call's before and after its end-of-call report, the chat's,
//! the site's own text of the page's language kept with its SHA-256 and time whatever the page
//! sends, once however often it is posted; in the admin API's conversations and in the lead's
//! records ZIP (`call-notice.json`); refusals with `{code, message}`; gone with its conversation
//! past `CONVERSATION_RETENTION_DAYS`, kept while it is on legal hold.

use std::io::Read;

use backend::store::DatabaseUrl;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::callable_leads::{
    app_with, CALL_NOTICE, CALL_NOTICE_ES, CHAT_NOTICE, CHAT_NOTICE_ES, SECRET,
};
use crate::common::broker::{admin_get, TOKEN};
use crate::common::eventually::eventually;
use crate::common::postgres::on_both_databases;
use crate::common::voice::{end_of_call, one_quote, post_voice_event};
use crate::common::TestApp;

fn sha256(text: &str) -> String {
    hex::encode(Sha256::digest(text.as_bytes()))
}

/// The page's post, as a browser on the site sends it.
async fn accept(app: &TestApp, body: &Value) -> reqwest::Response {
    app.client
        .post(app.url("/api/notice-acceptance"))
        .header("sec-fetch-site", "same-origin")
        .json(body)
        .send()
        .await
        .unwrap()
}

async fn accepted(app: &TestApp, body: Value) {
    assert_eq!(accept(app, &body).await.status(), 204, "{body}");
}

/// A voice event the provider posts, answered 200.
async fn posted(app: &TestApp, body: &Value) {
    assert_eq!(
        post_voice_event(app, Some(SECRET), body).await.status(),
        200
    );
}

async fn conversation(app: &TestApp, call_id: &str) -> Value {
    let response = admin_get(app, &format!("/api/admin/conversations/{call_id}")).await;
    assert_eq!(response.status(), 200, "{call_id}");
    response.json().await.unwrap()
}

/// What a conversation's `notice_accepted` must be, but its time.
fn expected(text: &str, language: &str) -> Value {
    json!({"text": text, "sha256": sha256(text), "language": language})
}

/// `notice_accepted` without its time, which must be an RFC 3339 instant.
fn without_time(accepted: &Value) -> Value {
    let mut accepted = accepted.clone();
    let at = accepted
        .as_object_mut()
        .and_then(|fields| fields.remove("at"))
        .unwrap_or_default();
    let at = at.as_str().unwrap_or_default();
    assert!(
        time::OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339).is_ok(),
        "{at:?}"
    );
    accepted
}

/// One file of a records ZIP.
fn zipped(bytes: &[u8], name: &str) -> Option<String> {
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut file = zip.by_name(name).ok()?;
    let mut text = String::new();
    file.read_to_string(&mut text).unwrap();
    Some(text)
}

async fn the_acceptance_is_kept_with_its_conversation(database: Option<DatabaseUrl>) {
    let mut app = app_with(database, None, &[]).await;

    // A call's, from /es/, before the provider's report: the site's Spanish text, not the page's.
    accepted(
        &app,
        json!({"call_id": "call-1", "lang": "es", "text": "Forged: nothing is recorded."}),
    )
    .await;
    posted(&app, &one_quote("call-1", "medicare", "ana@example.com")).await;
    posted(
        &app,
        &end_of_call("call-1", "customer-ended-call", "A quote"),
    )
    .await;
    let call = conversation(&app, "call-1").await;
    let first = call["notice_accepted"].clone();
    assert_eq!(
        without_time(&first),
        expected(CALL_NOTICE_ES, "es"),
        "{call}"
    );
    // Again, and in another language: the first acceptance stands, time and all.
    accepted(&app, json!({"call_id": "call-1", "lang": "en"})).await;
    accepted(&app, json!({"call_id": "call-1", "lang": "es"})).await;
    assert_eq!(conversation(&app, "call-1").await["notice_accepted"], first);

    // A chat's, after its first turn is kept (English: the default language).
    posted(
        &app,
        &json!({"message": {"type": "chat.created", "chat": {
            "id": "turn-1", "sessionId": "sess-1", "input": "Hi",
            "output": [{"role": "assistant", "content": "Hello"}]}}}),
    )
    .await;
    accepted(&app, json!({"chat_id": "sess-1"})).await;
    let chat = conversation(&app, "chat:sess-1").await;
    assert_eq!(
        without_time(&chat["notice_accepted"]),
        expected(CHAT_NOTICE, "en")
    );
    // Its text is the chat's, never the call's, in each language.
    accepted(&app, json!({"chat_id": "sess-es", "lang": "es"})).await;
    posted(&app, &end_of_call("call-en", "customer-ended-call", "None")).await;
    accepted(&app, json!({"call_id": "call-en", "lang": "en"})).await;
    let listed: Value = admin_get(&app, "/api/admin/conversations")
        .await
        .json()
        .await
        .unwrap();
    let notices: Vec<(String, Value)> = listed["conversations"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| {
            let notice = &c["notice_accepted"];
            let text = if notice.is_null() {
                json!(null)
            } else {
                without_time(notice)
            };
            (c["call_id"].as_str().unwrap().to_owned(), text)
        })
        .collect();
    assert_eq!(
        notices,
        [
            ("call-en".to_owned(), expected(CALL_NOTICE, "en")),
            ("chat:sess-1".to_owned(), expected(CHAT_NOTICE, "en")),
            ("call-1".to_owned(), expected(CALL_NOTICE_ES, "es")),
        ],
        "the chat of /es/ is not kept until its first turn comes"
    );
    posted(
        &app,
        &json!({"message": {"type": "chat.created", "chat": {
            "id": "turn-es", "sessionId": "sess-es", "input": "Hola",
            "output": [{"role": "assistant", "content": "Hola"}]}}}),
    )
    .await;
    assert_eq!(
        without_time(&conversation(&app, "chat:sess-es").await["notice_accepted"]),
        expected(CHAT_NOTICE_ES, "es"),
        "kept before the conversation, shown once it comes"
    );

    // The lead's records ZIP holds it as call-notice.json, named by its conversation.
    let lead_id = call["lead_id"].as_str().unwrap().to_owned();
    let records = admin_get(
        &app,
        &format!("/api/admin/quote-requests/{lead_id}/records"),
    )
    .await;
    assert_eq!(records.status(), 200);
    let bytes = records.bytes().await.unwrap();
    let file = zipped(&bytes, &format!("lead-{lead_id}/call-notice.json")).unwrap();
    let file: Value = serde_json::from_str(&file).unwrap();
    assert_eq!(file["call_id"], "call-1");
    assert_eq!(file["at"], first["at"]);
    assert_eq!(file["text"], CALL_NOTICE_ES);
    assert_eq!(file["sha256"], sha256(CALL_NOTICE_ES));
    assert_eq!(file["language"], "es");
    let manifest = zipped(&bytes, &format!("lead-{lead_id}/manifest.json")).unwrap();
    assert!(manifest.contains("\"call-notice.json\""), "{manifest}");

    // Refused, each with its code and message: no id, both, an empty one, one too long, one
    // with a line break, a call's that reads as a chat's, a body that is not JSON; a post from
    // another site's page.
    for (body, code) in [
        (json!({"lang": "en"}), "invalid_parameter"),
        (json!({"call_id": "c", "chat_id": "s"}), "invalid_parameter"),
        (json!({"call_id": ""}), "invalid_parameter"),
        (json!({"chat_id": "x".repeat(256)}), "invalid_parameter"),
        (json!({"call_id": "a\nb"}), "invalid_parameter"),
        (json!({"call_id": "chat:sess-1"}), "invalid_parameter"),
        (json!({"call_id": 7}), "malformed_json"),
    ] {
        let response = accept(&app, &body).await;
        assert_eq!(response.status(), 400, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["code"], code, "{body}");
        assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    let cross = app
        .client
        .post(app.url("/api/notice-acceptance"))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"call_id": "call-x"}))
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
    let error: Value = cross.json().await.unwrap();
    assert_eq!(error["code"], "cross_site_request");
    assert!(error["message"].is_string());
    assert_eq!(
        app.count("SELECT count(*) FROM notice_acceptances WHERE call_id IN ('call-x', 'c')")
            .await,
        0
    );

    // Past CONVERSATION_RETENTION_DAYS it goes with its conversation, unless the conversation
    // is on legal hold; one whose conversation never came goes once as old.
    posted(
        &app,
        &end_of_call("call-held", "customer-ended-call", "Held"),
    )
    .await;
    accepted(&app, json!({"call_id": "call-held"})).await;
    accepted(&app, json!({"call_id": "call-never-reported"})).await;
    let held = app
        .client
        .patch(app.url("/api/admin/conversations/call-held"))
        .bearer_auth(TOKEN)
        .json(&json!({"legal_hold": true}))
        .send()
        .await
        .unwrap();
    assert_eq!(held.status(), 200);
    app.shutdown().await;
    app.sql(
        "UPDATE voice_calls SET reported_at = '2020-01-01T00:00:00.000Z'
            WHERE call_id IN ('call-1', 'call-held');
         UPDATE notice_acceptances SET accepted_at = '2020-01-01T00:00:00.000Z'
            WHERE call_id IN ('call-1', 'call-held', 'call-never-reported');",
    )
    .await;
    app.restart_with(|config| {
        config.inbox.conversation_retention = std::time::Duration::from_secs(30 * 86_400);
    })
    .await;
    // The first hourly round runs as the server starts.
    eventually("call-1 purged at start", || async {
        match admin_get(&app, "/api/admin/conversations/call-1")
            .await
            .status()
        {
            reqwest::StatusCode::NOT_FOUND => Ok(()),
            status => Err(status),
        }
    })
    .await;
    let kept = "SELECT count(*) FROM notice_acceptances WHERE call_id IN
        ('call-1', 'call-never-reported')";
    assert_eq!(app.count(kept).await, 0);
    assert_eq!(
        without_time(&conversation(&app, "call-held").await["notice_accepted"]),
        expected(CALL_NOTICE, "en")
    );
    assert_eq!(
        app.count("SELECT count(*) FROM notice_acceptances").await,
        4,
        "call-held, call-en and the two chats stay"
    );
    app.stop().await;
}

on_both_databases!(the_acceptance_is_kept_with_its_conversation);
