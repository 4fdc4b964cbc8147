//! The voice events against the provider's server SDK: every message in `tests/vapi-server-sdk/`,
//! each type-checked against `@vapi-ai/server-sdk`'s declarations by
//! `tests/contract/vapi-server-messages.test.mjs` (together one for each tool-call list
//! alone, one with both and one with an empty `toolCallList` beside the calls), is posted to the real backend, which must answer exactly the
//! fixture's `answer` (type-checked there against the SDK's response type) and store what the
//! message says: a call's quotes with source `voice`, a web chat's (`message.chat`, no call)
//! with source `chat` under the chat's session, and a chat's turn (`chat.created`) as its
//! conversation's transcript.

use std::path::Path;

use backend::settings::leads::LeadsConfig;
use backend::store::{self, CallReport};
use serde_json::Value;

use crate::common::voice::post_voice_event;
use crate::common::TestApp;

const SECRET: &str = "voice-sdk-secret";

/// Each fixture's file name and content; tool calls first, as a report refers to a call whose
/// quotes were stored before.
fn fixtures() -> Vec<(String, Value)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/vapi-server-sdk");
    let mut fixtures: Vec<(String, Value)> = std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().path())
        .filter(|path| path.extension().is_some_and(|ext| ext == "json"))
        .map(|path| {
            let name = path.file_name().unwrap().to_string_lossy().into_owned();
            let json = std::fs::read_to_string(&path).unwrap();
            (name, serde_json::from_str(&json).unwrap())
        })
        .collect();
    fixtures.sort_by_key(|(name, fixture)| {
        (
            fixture["request"]["message"]["type"] != "tool-calls",
            name.clone(),
        )
    });
    fixtures
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_owned)
}

#[tokio::test]
async fn messages_built_from_the_server_sdk_declarations_are_read_and_answered_in_its_shape() {
    let app = TestApp::spawn()
        .leads(LeadsConfig {
            voice_events_secret: Some(SECRET.into()),
            ..LeadsConfig::default()
        })
        .start()
        .await;
    let fixtures = fixtures();
    assert!(fixtures.len() >= 4, "{fixtures:?}");
    for (name, fixture) in &fixtures {
        let response = post_voice_event(&app, Some(SECRET), &fixture["request"]).await;
        assert_eq!(response.status(), 200, "{name}");
        let answer: Value = response.json().await.unwrap();
        assert_eq!(
            answer, fixture["answer"],
            "{name}: the backend answered {answer}"
        );

        let message = &fixture["request"]["message"];
        // A chat's tool calls name the chat, stored by its session (kept apart from the calls'
        // ids as `chat:<session>`), with source `chat`.
        let (call_id, source) = match message["call"]["id"].as_str() {
            Some(call_id) => (call_id.to_owned(), store::Source::Voice),
            None => (
                format!("chat:{}", message["chat"]["sessionId"].as_str().unwrap()),
                store::Source::Chat,
            ),
        };
        let call_id = call_id.as_str();
        let rows = app.rows().await;
        let quotes: Vec<_> = rows
            .iter()
            .filter(|row| row.call_id.as_deref() == Some(call_id))
            .collect();
        if message["type"] == "tool-calls" {
            let saved = answer["results"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|result| result.get("result").is_some())
                .count();
            assert!(
                saved > 0,
                "{name}: a message that saves nothing proves little"
            );
            assert_eq!(quotes.len(), saved, "{name}: one row per saved call");
            assert!(
                quotes.iter().all(|quote| quote.source == source),
                "{name}: saved as {}",
                source.as_str()
            );
        } else if message["type"] == "chat.created" {
            let store = store::open(&app.database).await.unwrap();
            let stored = store.call(call_id.to_owned()).await.unwrap().unwrap();
            store.close().await;
            assert_eq!(stored.channel, store::Source::Chat, "{name}");
            assert_eq!(
                stored.transcript.as_deref(),
                Some(
                    "User: Hola\nAI: ¡Hola! ¿Qué plan busca?\nUser: Quiero una cotización de Medicare para bea@example.com\nAI: Listo: un agente le escribirá."
                ),
                "{name}: the chat's transcript"
            );
        } else {
            assert!(!quotes.is_empty(), "{name}: a report of a call with quotes");
            let summary = text(&message["analysis"]["summary"]);
            for quote in quotes {
                assert_eq!(quote.call_summary, summary, "{name}");
            }
            let store = store::open(&app.database).await.unwrap();
            let stored = store.call(call_id.to_owned()).await.unwrap();
            store.close().await;
            let expected = CallReport {
                call_id: call_id.to_owned(),
                ended_reason: text(&message["endedReason"]),
                summary,
                transcript: text(&message["artifact"]["transcript"]),
                transcript_lines_dropped: 0,
                recording_url: text(&message["artifact"]["recordingUrl"]),
                started_at: text(&message["startedAt"]),
                channel: store::Source::Voice,
            };
            assert!(expected.recording_url.is_some(), "{name}: with a recording");
            assert_eq!(stored, Some(expected), "{name}");
        }
    }
    app.stop().await;
}
