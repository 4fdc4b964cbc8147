//! Every lead keeps what its visitor was shown and agreed to: the notice's exact text (from the
//! page's language), the page, the time, the channel, the address and the browser, and what the
//! inbox acts on (its e-mail, phone and call permission), in an append-only hash chain `backend
//! records verify` checks, naming the first record that does not match, and whose head it
//! prints and checks a head noted before against.

use std::os::unix::fs::PermissionsExt;
use std::process::{Command, Output};

use backend::settings::leads::LeadsConfig;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};

use crate::common::broker::{admin_get, created, deleted, lead, TOKEN};
use crate::common::postgres::on_both_databases;
use crate::common::{TestApp, LEAD_NOTICE, LEAD_NOTICE_ES};

fn verify(database: &DatabaseUrl) -> Output {
    records(database, &["verify"])
}

/// `backend records ARGS` on `database`.
pub(crate) fn records(database: &DatabaseUrl, args: &[&str]) -> Output {
    let url = match database {
        DatabaseUrl::Sqlite(path) => format!("sqlite://{path}"),
        DatabaseUrl::Postgres(url) => url.clone(),
    };
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("records")
        .args(args)
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs")
}

/// The chain's head `backend records verify` prints (it must pass): its number and SHA-256.
pub(crate) fn head(database: &DatabaseUrl) -> (i64, String) {
    let output = verify(database);
    let said = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{said}{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let head = said
        .trim_end()
        .split_once("; head: record ")
        .unwrap_or_else(|| panic!("a head: {said}"))
        .1;
    let (seq, sha256) = head.split_once(", SHA-256 ").unwrap();
    assert_eq!(sha256.len(), 64, "{said}");
    (seq.parse().unwrap(), sha256.to_owned())
}

/// `backend records verify`'s error (it must fail, on one line).
fn refused(database: &DatabaseUrl, args: &[&str]) -> String {
    let output = records(database, args);
    let said = String::from_utf8_lossy(&output.stderr).into_owned();
    assert!(!output.status.success(), "{said}");
    assert_eq!(said.lines().count(), 1, "{said}");
    said
}

fn sha256(bytes: impl AsRef<[u8]>) -> String {
    backend::store::consent::sha256_hex(bytes)
}

#[tokio::test]
async fn each_lead_keeps_the_notice_it_was_shown_in_a_chain_that_names_a_change() {
    let app = TestApp::spawn()
        .leads(LeadsConfig {
            admin_token: Some(TOKEN.into()),
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
    assert_eq!(app.page_form_post(body).await.status(), 303);
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
    let (seq, head_sha256) = head(&app.database);
    assert_eq!(
        String::from_utf8_lossy(&passed.stdout),
        format!(
            "consent records: 2 checked, the chain holds; head: record 2, SHA-256 {head_sha256}\n"
        )
    );
    assert_eq!(seq, 2);

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
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700, "the copy's folder is its owner's only");
    for file in std::fs::read_dir(&dir).unwrap() {
        assert_eq!(mode(&file.unwrap().path()), 0o600, "and so is each file");
    }
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
    deleted(&app, &spanish.id).await;
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

/// The review's steps: a lead's call permission flipped, its phone or e-mail changed in
/// `quote_requests`, and the chain's last record deleted; and a browser sending a long
/// `User-Agent` with a tab.
async fn the_chain_covers_what_the_inbox_acts_on_and_its_head_catches_removed_records(
    database: Option<DatabaseUrl>,
) {
    let app = crate::callable_leads::app_on(database, None).await;
    let unticked = created(
        &app,
        json!({"product": "family", "email": "ana@example.com", "phone": "555.555.0124",
               "zip": "60601"}),
    )
    .await;
    let long_agent = format!("Mozilla/5.0\t(X11) {}", "x".repeat(600));
    let ticked = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("user-agent", &long_agent)
        .json(&json!({"product": "medicare", "email": "bea@example.com",
                      "phone": "(555) 555-0123", "may_call": true, "zip": "60601"}))
        .send()
        .await
        .unwrap();
    assert_eq!(ticked.status(), 201);
    let ticked = ticked.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned();
    assert_eq!(lead(&app, &unticked).await["may_call"], false);
    let (seq, second) = head(&app.database);
    assert_eq!(seq, 2);

    // The consent record keeps the lead's User-Agent as the lead does: one line, 512 characters.
    let shown = lead(&app, &ticked).await;
    let agent = shown["user_agent"].as_str().unwrap();
    assert_eq!(agent.chars().count(), 512);
    assert!(agent.starts_with("Mozilla/5.0 (X11) xxx"), "{agent}");
    let copy = tempfile::tempdir().unwrap();
    let dir = copy.path().join("audit");
    let exported = records(
        &app.database,
        &["export", "--lead", &ticked, dir.to_str().unwrap()],
    );
    assert!(exported.status.success());
    let consent: Value =
        serde_json::from_slice(&std::fs::read(dir.join("consent.json")).unwrap()).unwrap();
    assert_eq!(consent["link"]["user_agent"], agent);
    assert_eq!(consent["link"]["may_call"], "yes");
    assert_eq!(consent["link"]["hash_form"], 2);
    assert!(consent.get("lead").is_none(), "the record only: {consent}");

    // Each change to the lead outside the chain: the inbox keeps acting on the record's values,
    // and verify names the lead.
    for (change, undo, id, named) in [
        (
            "UPDATE quote_requests SET may_call = 'yes' WHERE phone = '+15555550124'",
            "UPDATE quote_requests SET may_call = 'no' WHERE phone = '+15555550124'",
            &unticked,
            "call permission (may_call)",
        ),
        (
            "UPDATE quote_requests SET phone = '+15555550199' WHERE phone = '+15555550123'",
            "UPDATE quote_requests SET phone = '+15555550123' WHERE phone = '+15555550199'",
            &ticked,
            "phone",
        ),
        (
            "UPDATE quote_requests SET email = 'eve@example.com' WHERE email = 'ana@example.com'",
            "UPDATE quote_requests SET email = 'ana@example.com' WHERE email = 'eve@example.com'",
            &unticked,
            "e-mail",
        ),
    ] {
        let before = lead(&app, id).await;
        app.sql(change).await;
        let after = lead(&app, id).await;
        for field in ["email", "phone", "may_call"] {
            assert_eq!(after[field], before[field], "{change}: {field}");
        }
        let said = refused(&app.database, &["verify"]);
        assert!(
            said.contains(&format!("(lead {id}) holds another {named} than its lead")),
            "{said}"
        );
        app.sql(undo).await;
        assert!(verify(&app.database).status.success(), "{undo}");
    }
    // Changed in the record instead: its hash no longer matches.
    app.sql("UPDATE consent_records SET may_call = 'yes' WHERE may_call = 'no'")
        .await;
    assert!(refused(&app.database, &["verify"]).contains("consent record 1 (lead"));
    app.sql("UPDATE consent_records SET may_call = 'no' WHERE seq = 1")
        .await;

    // The head noted before is still held after another lead; once the last record is deleted,
    // the chain left holds, but not the head noted last.
    created(
        &app,
        json!({"product": "family", "email": "cy@example.com", "zip": "60601"}),
    )
    .await;
    let (seq, third) = head(&app.database);
    assert_eq!(seq, 3);
    assert!(records(&app.database, &["verify", "--head", &second])
        .status
        .success());
    assert!(records(&app.database, &["verify", "--head", &third])
        .status
        .success());
    app.sql("DELETE FROM consent_records WHERE seq = 3").await;
    assert!(
        verify(&app.database).status.success(),
        "a shorter chain holds"
    );
    let said = refused(&app.database, &["verify", "--head", &third]);
    assert!(
        said.contains(&format!("the chain holds no record with SHA-256 {third}")),
        "{said}"
    );
    app.stop().await;
}

on_both_databases!(the_chain_covers_what_the_inbox_acts_on_and_its_head_catches_removed_records);

/// One person's records, found by number or by address (in any case), their deleted lead's
/// included: the proof that outlives the lead.
async fn a_persons_records_outlive_their_leads(database: Option<DatabaseUrl>) {
    let app = crate::callable_leads::app_on(database, None).await;
    let first = created(
        &app,
        json!({"product": "family", "email": "Ana@Example.com", "phone": "(555) 555-0123",
               "may_call": true, "zip": "60601"}),
    )
    .await;
    let second = created(
        &app,
        json!({"product": "medicare", "email": "ana@example.com", "zip": "60601"}),
    )
    .await;
    created(
        &app,
        json!({"product": "family", "email": "bea@example.com", "phone": "555 555 0199",
               "zip": "60601"}),
    )
    .await;
    deleted(&app, &first).await;
    let find = |query: &'static str| {
        app.client
            .get(app.url(&format!("/api/admin/consent-records{query}")))
            .bearer_auth(TOKEN)
            .send()
    };
    let by_phone: Value = find("?phone=%2B15555550123")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let records = by_phone["consent_records"].as_array().unwrap();
    assert_eq!(records.len(), 1, "{by_phone}");
    let record = &records[0];
    assert_eq!(record["link"]["lead_id"], first);
    assert_eq!(record["lead_deleted"], true);
    assert_eq!(record["link"]["phone"], "+15555550123");
    assert_eq!(record["link"]["email"], "Ana@Example.com");
    assert_eq!(record["link"]["may_call"], "yes");
    assert_eq!(record["notice_text"], "An agent will contact you.");
    assert_eq!(record["hash"].as_str().unwrap().len(), 64);

    let by_email: Value = find("?email=ANA%40example.com")
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let found: Vec<(&str, bool)> = by_email["consent_records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| {
            (
                r["link"]["lead_id"].as_str().unwrap(),
                r["lead_deleted"].as_bool().unwrap(),
            )
        })
        .collect();
    assert_eq!(found, [(first.as_str(), true), (second.as_str(), false)]);

    let nobody: Value = find("").await.unwrap().json().await.unwrap();
    assert_eq!(
        nobody["consent_records"],
        json!([]),
        "nobody named, nobody found"
    );
    for refused in ["?phone=12", "?phone=(555)%20555-0123", "?email=a%00b"] {
        assert_eq!(find(refused).await.unwrap().status(), 400, "{refused}");
    }
    let anonymous = app
        .client
        .get(app.url("/api/admin/consent-records?email=ana%40example.com"))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);
    app.stop().await;
}

on_both_databases!(a_persons_records_outlive_their_leads);

/// The files of a record's ZIP, by name within its folder `consent-record-{seq}/`, checked
/// against its manifest's SHA-256s; and the manifest.
async fn record_zip(app: &TestApp, seq: i64) -> (Vec<(String, Vec<u8>)>, Value) {
    use std::io::Read;
    let response = admin_get(app, &format!("/api/admin/consent-records/{seq}/records")).await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/zip");
    let disposition = format!("attachment; filename=\"consent-record-{seq}-records.zip\"");
    assert_eq!(
        response.headers()["content-disposition"],
        disposition.as_str()
    );
    let bytes = response.bytes().await.unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(bytes.to_vec())).unwrap();
    let mut files = Vec::new();
    for i in 0..zip.len() {
        let mut file = zip.by_index(i).unwrap();
        let name = file.name().to_owned();
        let name = name
            .strip_prefix(&format!("consent-record-{seq}/"))
            .unwrap_or_else(|| panic!("{name} in its folder"))
            .to_owned();
        let mut bytes = Vec::new();
        file.read_to_end(&mut bytes).unwrap();
        files.push((name, bytes));
    }
    let manifest: Value = serde_json::from_slice(&files.last().unwrap().1).unwrap();
    let listed: Vec<(String, String)> = manifest["files"]
        .as_array()
        .unwrap()
        .iter()
        .map(|f| {
            (
                f["name"].as_str().unwrap().to_owned(),
                f["sha256"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    let held: Vec<(String, String)> = files[..files.len() - 1]
        .iter()
        .map(|(name, bytes)| (name.clone(), sha256(bytes)))
        .collect();
    assert_eq!(
        listed, held,
        "the manifest lists every file with its SHA-256"
    );
    (files, manifest)
}

fn names(files: &[(String, Vec<u8>)]) -> Vec<&str> {
    files.iter().map(|(name, _)| name.as_str()).collect()
}

/// A consent record's copy outlives its lead: while the lead is kept, the record with its texts
/// and the lead's own files; once it is deleted, the record, its texts and the conversation,
/// which stays. By the admin API and by `backend records export --consent`, keyed by the
/// record's number. A record as the releases before records kept the contact details made it
/// still verifies, and its copy still comes.
async fn a_records_copy_outlives_its_lead(database: Option<DatabaseUrl>) {
    use crate::callable_leads::SECRET;
    use crate::common::voice::{end_of_call, post_voice_event, tool_calls};
    let app = crate::callable_leads::app_on(database, None).await;
    let call = tool_calls(
        "call-proof",
        json!([{"id": "t1", "name": "request_quote", "parameters": {
            "product": "medicare", "email": "ana@example.com", "phone": "555 555 0123",
            "may_call": true, "zip": "60601"}}]),
    );
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &call).await.status(),
        200
    );
    let report = end_of_call(
        "call-proof",
        "customer-ended-call",
        "Ana asked for a quote.",
    );
    assert_eq!(
        post_voice_event(&app, Some(SECRET), &report).await.status(),
        200
    );
    let spoken = app.rows().await[0].id.clone();
    let form = created(
        &app,
        json!({"product": "family", "email": "bea@example.com", "phone": "(555) 555-0199",
               "may_call": true, "zip": "60601"}),
    )
    .await;
    let listed = admin_get(&app, "/api/admin/consent-records?email=ana%40example.com")
        .await
        .json::<Value>()
        .await
        .unwrap();
    let record = listed["consent_records"][0].clone();
    assert_eq!(record["link"]["lead_id"], spoken.as_str());
    let seq = record["link"]["seq"].as_i64().unwrap();

    // Kept: the lead's files beside the record's.
    let (files, manifest) = record_zip(&app, seq).await;
    assert_eq!(
        names(&files),
        [
            "lead.json",
            "consent.json",
            "notice.txt",
            "phone-disclosure.txt",
            "conversation.json",
            "manifest.json"
        ]
    );
    assert_eq!(manifest["consent_seq"], seq);
    assert_eq!(manifest["lead_deleted"], false);

    // Deleted: the record as stored, its texts, and the conversation that stays.
    deleted(&app, &spoken).await;
    let (files, manifest) = record_zip(&app, seq).await;
    assert_eq!(
        names(&files),
        [
            "consent.json",
            "notice.txt",
            "phone-disclosure.txt",
            "conversation.json",
            "manifest.json"
        ]
    );
    assert_eq!(manifest["lead_id"], spoken.as_str());
    assert_eq!(manifest["lead_deleted"], true);
    let consent: Value = serde_json::from_slice(&files[0].1).unwrap();
    assert_eq!(consent["hash"], record["hash"], "the record as stored");
    assert_eq!(consent["link"], record["link"]);
    assert_eq!(
        sha256(&files[1].1),
        consent["link"]["notice_sha256"].as_str().unwrap()
    );
    assert_eq!(
        sha256(&files[2].1),
        consent["link"]["phone_disclosure_sha256"].as_str().unwrap()
    );
    let conversation: Value = serde_json::from_slice(&files[3].1).unwrap();
    assert_eq!(conversation["call_id"], "call-proof");
    assert_eq!(conversation["summary"], "Ana asked for a quote.");
    assert!(
        verify(&app.database).status.success(),
        "the record verifies"
    );

    // The same files from the command, its owner's only.
    let copy = tempfile::tempdir().unwrap();
    let dir = copy.path().join("proof");
    let exported = records(
        &app.database,
        &[
            "export",
            "--consent",
            &seq.to_string(),
            dir.to_str().unwrap(),
        ],
    );
    let said = String::from_utf8_lossy(&exported.stdout);
    assert!(
        exported.status.success(),
        "{}",
        String::from_utf8_lossy(&exported.stderr)
    );
    assert!(
        said.starts_with(&format!("consent record {seq}: 4 files and manifest.json")),
        "{said}"
    );
    let mode =
        |path: &std::path::Path| std::fs::metadata(path).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&dir), 0o700);
    for (name, bytes) in &files[..files.len() - 1] {
        let path = dir.join(name);
        assert_eq!(mode(&path), 0o600, "{name}");
        assert_eq!(&std::fs::read(&path).unwrap(), bytes, "{name}");
    }
    let unknown = records(
        &app.database,
        &[
            "export",
            "--consent",
            "99",
            copy.path().join("none").to_str().unwrap(),
        ],
    );
    assert!(!unknown.status.success());
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("no consent record 99"));
    let both = records(
        &app.database,
        &[
            "export",
            "--lead",
            &form,
            "--consent",
            "1",
            copy.path().join("two").to_str().unwrap(),
        ],
    );
    assert!(!both.status.success(), "one of the two");

    // Unknown, or no number: 404; without the token: 401.
    for path in ["99", "0", "abc"] {
        let path = format!("/api/admin/consent-records/{path}/records");
        assert_eq!(admin_get(&app, &path).await.status(), 404, "{path}");
    }
    let anonymous = app
        .client
        .get(app.url(&format!("/api/admin/consent-records/{seq}/records")))
        .send()
        .await
        .unwrap();
    assert_eq!(anonymous.status(), 401);

    // The form lead's record made as the releases before `HASH_FORM` made it (the chain's last,
    // so no record follows it): it verifies, and its copy comes, kept and deleted.
    let last = admin_get(&app, "/api/admin/consent-records?email=bea%40example.com")
        .await
        .json::<Value>()
        .await
        .unwrap()["consent_records"][0]["link"]
        .clone();
    let text = |field: &str| last[field].as_str().map(str::to_owned);
    let before = backend::store::consent::Link {
        seq: last["seq"].as_i64().unwrap(),
        lead_id: form.clone(),
        channel: text("channel").unwrap(),
        page: text("page").unwrap(),
        language: text("language").unwrap(),
        at: text("at").unwrap(),
        client: text("client"),
        user_agent: text("user_agent"),
        notice_sha256: text("notice_sha256"),
        prev_hash: text("prev_hash").unwrap(),
        phone_consent: text("phone_consent"),
        phone_disclosure_sha256: text("phone_disclosure_sha256"),
        hash_form: backend::store::consent::FIRST_FORM,
        email: None,
        phone: None,
        may_call: None,
        kind: backend::store::consent::LEAD_KIND.to_owned(),
        evidence: None,
    };
    app.sql(&format!(
        "UPDATE consent_records SET hash_form = 1, email = NULL, phone = NULL, may_call = NULL,
            hash = '{}' WHERE seq = {}",
        before.hash(),
        before.seq
    ))
    .await;
    assert!(
        verify(&app.database).status.success(),
        "a first-form record verifies"
    );
    let (files, _) = record_zip(&app, before.seq).await;
    assert_eq!(names(&files)[..2], ["lead.json", "consent.json"]);
    deleted(&app, &form).await;
    assert!(verify(&app.database).status.success());
    let (files, manifest) = record_zip(&app, before.seq).await;
    assert_eq!(
        names(&files),
        [
            "consent.json",
            "notice.txt",
            "phone-disclosure.txt",
            "manifest.json"
        ]
    );
    assert_eq!(manifest["lead_deleted"], true);
    app.stop().await;
}

on_both_databases!(a_records_copy_outlives_its_lead);
