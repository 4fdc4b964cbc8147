//! Written consent a conversation gave: a chat visitor's click on Yes beside the site's own text
//! (`POST /api/chat-consent`), before or after the chat's lead is stored; a call's agreement
//! once the site has stored the call's recording (a stand-in of the provider's storage), with
//! the recording's SHA-256 and the moment of the answer. A No, an unrecorded call and a refused
//! recording stay oral; a text the page sends is never the one recorded.

use backend::store::DatabaseUrl;
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::callable_leads::{app_with, DISCLOSURE, DISCLOSURE_ES, SECRET};
use crate::common::broker::{admin, lead, TOKEN};
use crate::common::eventually::eventually;
use crate::common::postgres::on_both_databases;
use crate::common::recording_host::RecordingHost;
use crate::common::voice::{end_of_call, post_voice_event};
use crate::common::TestApp;
use crate::consent_records::head;

fn sha256(bytes: impl AsRef<[u8]>) -> String {
    hex::encode(Sha256::digest(bytes.as_ref()))
}

/// A `request_quote` with a phone number and `may_call` from a chat's session, in `language`.
fn chat_quote(session: &str, email: &str, may_call: bool, language: &str) -> Value {
    json!({"message": {"type": "tool-calls",
        "chat": {"id": format!("{session}-turn"), "sessionId": session,
                 "assistantOverrides": {"variableValues": {"language": language}}},
        "toolCallList": [{"id": "t1", "name": "request_quote", "parameters": {
            "product": "medicare", "email": email, "phone": "555 555 0123",
            "zip": "60601", "may_call": may_call}}]}})
}

/// The same from a call.
fn call_quote(call_id: &str, email: &str, language: &str) -> Value {
    json!({"message": {"type": "tool-calls",
        "call": {"id": call_id,
                 "assistantOverrides": {"variableValues": {"language": language}}},
        "toolCallList": [{"id": "t1", "name": "request_quote", "parameters": {
            "product": "medicare", "email": email, "phone": "555 555 0123",
            "zip": "60601", "may_call": true}}]}})
}

/// Posts a voice event that must be answered 200.
async fn posted(app: &TestApp, body: &Value) {
    assert_eq!(
        post_voice_event(app, Some(SECRET), body).await.status(),
        200
    );
}

/// The one lead of conversation `call_id`, as the admin API shows it.
async fn lead_of(app: &TestApp, call_id: &str) -> Value {
    let listed = admin(app, "/api/admin/quote-requests").await;
    let rows = listed["quote_requests"].as_array().unwrap();
    let found: Vec<&Value> = rows.iter().filter(|r| r["call_id"] == call_id).collect();
    assert_eq!(found.len(), 1, "{listed}");
    lead(app, found[0]["id"].as_str().unwrap()).await
}

/// The page's click, as a browser on the site posts it.
async fn click(app: &TestApp, body: Value) -> reqwest::Response {
    app.client
        .post(app.url("/api/chat-consent"))
        .header("sec-fetch-site", "same-origin")
        .header("user-agent", "Firefox/140")
        .json(&body)
        .send()
        .await
        .unwrap()
}

/// The written-consent records of phone `+15555550123`.
async fn written_records(app: &TestApp) -> Vec<Value> {
    let found = admin(app, "/api/admin/consent-records?phone=%2B15555550123").await;
    found["consent_records"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["link"]["kind"] == "call_consent")
        .cloned()
        .collect()
}

async fn a_chat_click_is_written_consent(database: Option<DatabaseUrl>) {
    let app = app_with(database, None, &[]).await;

    // Yes before the lead: kept, then recorded when the lead arrives. The page's text is not
    // the one recorded.
    let yes = json!({"chat_id": "s-before", "answer": "yes", "lang": "es",
                     "disclosure": "Forged: anyone may call me at any hour."});
    assert_eq!(click(&app, yes).await.status(), 204);
    posted(
        &app,
        &chat_quote("s-before", "ana@example.com", false, "es"),
    )
    .await;
    let before = lead_of(&app, "chat:s-before").await;
    assert_eq!(before["call_consent"], "written", "{before}");
    assert_eq!(before["written_later"]["channel"], "chat");
    let records = written_records(&app).await;
    assert_eq!(records.len(), 1, "{records:?}");
    let link = &records[0]["link"];
    assert_eq!(link["lead_id"], before["id"]);
    assert_eq!(link["channel"], "chat");
    assert_eq!(link["page"], "/es/");
    assert_eq!(link["language"], "es");
    assert_eq!(link["client"], "127.0.0.1");
    assert_eq!(link["user_agent"], "Firefox/140");
    assert_eq!(link["phone_disclosure_sha256"], sha256(DISCLOSURE_ES));
    let evidence: Value = serde_json::from_str(link["evidence"].as_str().unwrap()).unwrap();
    assert_eq!(evidence["call_id"], "chat:s-before");
    assert!(evidence["answered_at"].is_string(), "{evidence}");

    // Yes after the lead: recorded at once, once however often it is clicked.
    posted(&app, &chat_quote("s-after", "bea@example.com", true, "en")).await;
    assert_eq!(lead_of(&app, "chat:s-after").await["call_consent"], "oral");
    for _ in 0..2 {
        let yes = json!({"chat_id": "s-after", "answer": "yes"});
        assert_eq!(click(&app, yes).await.status(), 204);
    }
    let after = lead_of(&app, "chat:s-after").await;
    assert_eq!(after["call_consent"], "written");
    let records = written_records(&app).await;
    assert_eq!(records.len(), 2, "{records:?}");
    assert_eq!(records[1]["link"]["lead_id"], after["id"]);
    assert_eq!(records[1]["link"]["page"], "/");
    assert_eq!(
        records[1]["link"]["phone_disclosure_sha256"],
        sha256(DISCLOSURE)
    );

    // No: nothing written, the lead as the model passed it on; a Yes before it is forgotten.
    let answer = |answer: &str| json!({"chat_id": "s-no", "answer": answer});
    assert_eq!(click(&app, answer("yes")).await.status(), 204);
    assert_eq!(click(&app, answer("no")).await.status(), 204);
    posted(&app, &chat_quote("s-no", "cid@example.com", true, "en")).await;
    assert_eq!(lead_of(&app, "chat:s-no").await["call_consent"], "oral");
    assert_eq!(written_records(&app).await.len(), 2);

    // Refused: another site's page, a body without an id or answer, an id too long.
    let cross = app
        .client
        .post(app.url("/api/chat-consent"))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"chat_id": "s-x", "answer": "yes"}))
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
    for body in [
        json!({"answer": "yes"}),
        json!({"chat_id": "s-x", "answer": "maybe"}),
        json!({"chat_id": "", "answer": "yes"}),
        json!({"chat_id": "x".repeat(256), "answer": "yes"}),
    ] {
        assert_eq!(click(&app, body.clone()).await.status(), 400, "{body}");
    }
    head(&app.database);
    app.stop().await;
}

on_both_databases!(a_chat_click_is_written_consent);

/// The lead of `call_id` once `check` holds for it.
async fn lead_once(app: &TestApp, call_id: &str, check: impl Fn(&Value) -> bool) -> Value {
    eventually(&format!("the lead of {call_id}"), || async {
        let lead = lead_of(app, call_id).await;
        if check(&lead) {
            Ok(lead)
        } else {
            Err(lead)
        }
    })
    .await
}

/// The state of the call's recording copy, once it is no longer pending.
async fn recording_settled(app: &TestApp, call_id: &str) -> Value {
    eventually(&format!("the recording of {call_id} to settle"), || async {
        let conversation: Value = app
            .client
            .get(app.url(&format!("/api/admin/conversations/{call_id}")))
            .bearer_auth(TOKEN)
            .send()
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let recording = conversation["recording"].clone();
        if recording["status"] != "pending" {
            Ok(recording)
        } else {
            Err(conversation)
        }
    })
    .await
}

fn recorded(call_id: &str, url: &str) -> Value {
    let mut report = end_of_call(call_id, "customer-ended-call", "Asked to be called");
    report["message"]["artifact"]["recordingUrl"] = json!(url);
    report
}

async fn a_recorded_call_is_written_consent(database: Option<DatabaseUrl>) {
    let host = RecordingHost::start().await;
    // The refused call's recording is on an origin the site does not fetch from.
    let origins = host.origin();
    let app = app_with(database, None, &[("RECORDING_ORIGINS", &origins)]).await;

    // The lead, then the report: written once the recording is stored.
    posted(&app, &call_quote("call-a", "ana@example.com", "es")).await;
    let oral = lead_of(&app, "call-a").await;
    assert_eq!(oral["call_consent"], "oral");
    posted(&app, &recorded("call-a", &host.url)).await;
    let written = lead_once(&app, "call-a", |l| l["call_consent"] == "written").await;
    assert_eq!(written["written_later"]["channel"], "voice");
    // The report before the lead (a tool call's answer delivered late): written as it arrives.
    posted(&app, &recorded("call-b", &host.url)).await;
    assert_eq!(recording_settled(&app, "call-b").await["status"], "stored");
    posted(&app, &call_quote("call-b", "bea@example.com", "en")).await;
    assert_eq!(lead_of(&app, "call-b").await["call_consent"], "written");

    let records = written_records(&app).await;
    assert_eq!(records.len(), 2, "{records:?}");
    for (record, lead, disclosure) in [
        (&records[0], &written, DISCLOSURE_ES),
        (&records[1], &lead_of(&app, "call-b").await, DISCLOSURE),
    ] {
        let link = &record["link"];
        assert_eq!(link["lead_id"], lead["id"]);
        assert_eq!(link["channel"], "voice");
        assert_eq!(link["phone_disclosure_sha256"], sha256(disclosure));
        let evidence: Value = serde_json::from_str(link["evidence"].as_str().unwrap()).unwrap();
        assert_eq!(evidence["call_id"], lead["call_id"]);
        assert_eq!(evidence["recording_sha256"], sha256(&host.audio));
        assert_eq!(
            evidence["answered_at"], lead["created_at"],
            "the tool call's time"
        );
    }

    // No recording, or one the site refused to fetch: oral.
    posted(
        &app,
        &call_quote("call-unrecorded", "cid@example.com", "en"),
    )
    .await;
    posted(
        &app,
        &end_of_call("call-unrecorded", "customer-ended-call", "No recording"),
    )
    .await;
    posted(&app, &call_quote("call-refused", "dee@example.com", "en")).await;
    posted(
        &app,
        &recorded("call-refused", "https://recordings.elsewhere.example/r.wav"),
    )
    .await;
    assert_eq!(
        recording_settled(&app, "call-refused").await["status"],
        "failed"
    );
    for call in ["call-unrecorded", "call-refused"] {
        assert_eq!(lead_of(&app, call).await["call_consent"], "oral", "{call}");
    }
    assert_eq!(written_records(&app).await.len(), 2);
    head(&app.database);
    app.stop().await;
}

on_both_databases!(a_recorded_call_is_written_consent);
