//! Every lead keeps what its visitor was shown and agreed to: the notice's exact text (from the
//! page's language), the page, the time, the channel, the address and the browser, in an
//! append-only hash chain `backend records verify` checks, naming the first record that does
//! not match.

use std::process::{Command, Output};

use backend::settings::leads::LeadsConfig;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};

use crate::common::{TestApp, LEAD_NOTICE, LEAD_NOTICE_ES};

/// As `openssl rand -hex 32` makes one.
const ADMIN_TOKEN: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";

fn verify(database: &DatabaseUrl) -> Output {
    records(database, &["verify"])
}

fn records(database: &DatabaseUrl, args: &[&str]) -> Output {
    let DatabaseUrl::Sqlite(path) = database else {
        unreachable!("the test app runs on SQLite")
    };
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("records")
        .args(args)
        .env("DATABASE_URL", format!("sqlite://{path}"))
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs")
}

async fn lead(app: &TestApp, id: &str) -> Value {
    let response = app
        .client
        .get(app.url(&format!("/api/admin/quote-requests/{id}")))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    response.json().await.unwrap()
}

fn sha256(bytes: impl AsRef<[u8]>) -> String {
    backend::store::consent::sha256_hex(bytes)
}

#[tokio::test]
async fn each_lead_keeps_the_notice_it_was_shown_in_a_chain_that_names_a_change() {
    let app = TestApp::spawn()
        .leads(LeadsConfig {
            admin_token: Some(ADMIN_TOKEN.into()),
            ..LeadsConfig::default()
        })
        .start()
        .await;
    // From `/`, by the live form, through the proxy with the visitor's address.
    let english = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("x-forwarded-for", "203.0.113.7")
        .header("user-agent", "Firefox/140")
        .json(&json!({"product": "medicare", "email": "ana@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(english.status(), 201);
    let english: Value = english.json().await.unwrap();
    // From `/es/`, by the form without JavaScript.
    let body = "product=family&email=luis%40example.com&website=&lang=es";
    assert_eq!(
        app.form_post(&app.form_cookie(), &[], body).await.status(),
        303
    );
    let rows = app.rows().await;
    let spanish = rows.iter().find(|r| r.email == "luis@example.com").unwrap();

    let shown = lead(&app, english["id"].as_str().unwrap()).await["consent"].clone();
    assert_eq!(shown["text"], LEAD_NOTICE);
    assert_eq!(shown["sha256"], sha256(LEAD_NOTICE));
    assert_eq!(shown["page"], "/");
    assert_eq!(shown["language"], "en");
    assert_eq!(shown["channel"], "form");
    assert!(shown["at"].as_str().unwrap().ends_with('Z'), "{shown}");
    let shown = lead(&app, &spanish.id).await["consent"].clone();
    assert_eq!(
        (&shown["text"], &shown["page"], &shown["channel"]),
        (
            &json!(LEAD_NOTICE_ES),
            &json!("/es/"),
            &json!("form_without_script")
        )
    );

    let passed = verify(&app.database);
    assert!(
        passed.status.success(),
        "{}",
        String::from_utf8_lossy(&passed.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&passed.stdout),
        "consent records: 2 checked, the chain holds\n"
    );

    // An auditor's copy of the English lead: every file listed with its SHA-256.
    let english_id = english["id"].as_str().unwrap();
    let copy = tempfile::tempdir().unwrap();
    let dir = copy.path().join("audit");
    let export = |dir: &std::path::Path, lead: &str| {
        records(
            &app.database,
            &["export", "--lead", lead, dir.to_str().unwrap()],
        )
    };
    let exported = export(&dir, english_id);
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    let manifest: Value =
        serde_json::from_slice(&std::fs::read(dir.join("manifest.json")).unwrap()).unwrap();
    assert_eq!(manifest["lead_id"], english_id);
    let listed: Vec<&str> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|file| {
            let name = file["name"].as_str().unwrap();
            let bytes = std::fs::read(dir.join(name)).unwrap();
            assert_eq!(file["sha256"], sha256(&bytes), "{name}");
            name
        })
        .collect();
    assert_eq!(listed, ["lead.json", "consent.json", "notice.txt"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("notice.txt")).unwrap(),
        LEAD_NOTICE
    );
    let consent: Value =
        serde_json::from_slice(&std::fs::read(dir.join("consent.json")).unwrap()).unwrap();
    assert_eq!(consent["link"]["client"], "203.0.113.7");
    let again = export(&dir, english_id);
    assert!(String::from_utf8_lossy(&again.stderr).contains("is not empty"));
    let unknown = export(
        &copy.path().join("other"),
        "0190a0b0-0000-7000-8000-000000000009",
    );
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no lead"));

    // Deleting a lead keeps its record: the chain still holds.
    let deleted = app
        .client
        .delete(app.url(&format!("/api/admin/quote-requests/{}", spanish.id)))
        .bearer_auth(ADMIN_TOKEN)
        .send()
        .await
        .unwrap();
    assert!(deleted.status().is_success(), "{}", deleted.status());
    assert!(verify(&app.database).status.success());

    // One stored byte changed: the record it belongs to is named.
    let DatabaseUrl::Sqlite(path) = &app.database else {
        unreachable!()
    };
    let database = rusqlite::Connection::open(path).unwrap();
    let client: String = database
        .query_row(
            "SELECT client FROM consent_records WHERE seq = 1",
            [],
            |row| row.get(0),
        )
        .unwrap();
    assert_eq!(client, "203.0.113.7", "the visitor's, through the proxy");
    database
        .execute(
            "UPDATE consent_records SET client = '203.0.113.8' WHERE seq = 1",
            [],
        )
        .unwrap();
    let failed = verify(&app.database);
    assert!(!failed.status.success());
    let said = String::from_utf8_lossy(&failed.stderr);
    assert!(
        said.contains(&format!(
            "consent record 1 (lead {english_id}) does not match its hash"
        )),
        "{said}"
    );
    database
        .execute(
            "UPDATE consent_records SET client = '203.0.113.7' WHERE seq = 1",
            [],
        )
        .unwrap();
    assert!(verify(&app.database).status.success(), "changed back");
    database
        .execute(
            "UPDATE notice_texts SET text = replace(text, 'contactará', 'contactara')",
            [],
        )
        .unwrap();
    let said = String::from_utf8_lossy(&verify(&app.database).stderr).into_owned();
    assert!(
        said.contains(&format!("consent record 2 (lead {})", spanish.id))
            && said.contains("whose stored text has changed"),
        "{said}"
    );
    app.stop().await;
}
