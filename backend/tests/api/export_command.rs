//! `backend export` prints the same data as the admin API, with the server stopped.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Output, Stdio};

use crate::common::postgres::TestDatabase;
use crate::common::voice::{call_with_one_quote, TRANSCRIPT};
use crate::common::TestApp;
use backend::settings::leads::{ForwardingConfig, LeadsConfig};
use backend::store::DatabaseUrl;
use serde_json::Value;

const SECRET: &str = "voice-secret";

fn url_of(database: &DatabaseUrl) -> String {
    match database {
        DatabaseUrl::Sqlite(path) => format!("sqlite://{path}"),
        DatabaseUrl::Postgres(url) => url.clone(),
    }
}

/// `backend export ARGS` with `env` (DATABASE_URL unset unless given), in `dir`.
fn run_export(dir: &Path, env: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("export")
        .args(args)
        .current_dir(dir)
        .env_remove("DATABASE_URL")
        .envs(env.iter().copied())
        .output()
        .expect("the backend binary runs")
}

fn export(database: &DatabaseUrl, args: &[&str]) -> String {
    let url = url_of(database);
    let output = run_export(
        &std::env::temp_dir(),
        &[("DATABASE_URL", &url), ("RUST_LOG", "error")],
        args,
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[tokio::test]
async fn the_export_has_source_call_summary_and_delivery_state() {
    // Forward to a port nothing listens on, so the lead stays pending with its error.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let mut app = TestApp::spawn()
        .leads(LeadsConfig {
            voice_events_secret: Some(SECRET.into()),
            forwarding: Some(ForwardingConfig::new(
                format!("http://127.0.0.1:{port}/").parse().unwrap(),
                None,
            )),
            ..LeadsConfig::default()
        })
        .start()
        .await;
    call_with_one_quote(
        &app,
        SECRET,
        "call-1",
        "individual",
        "ana@example.com",
        "=Wants a quote, by e-mail",
    )
    .await;
    app.shutdown().await;
    let database = &app.database;

    let lines: Vec<Value> = export(database, &["--format", "jsonl"])
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 1);
    let row = &lines[0];
    assert_eq!(
        (row["source"].as_str(), row["call_id"].as_str()),
        (Some("voice"), Some("call-1"))
    );
    assert_eq!(row["call_summary"], "=Wants a quote, by e-mail");
    assert!(
        row.get("call_transcript").is_none(),
        "leads carry no transcript"
    );
    assert_eq!(row["delivery"]["webhook"]["status"], "pending");
    assert_eq!(row["delivery"]["email"], Value::Null, "e-mail is off");

    let csv = export(database, &["--format", "csv", "--since", "2026-01-01"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        r#""id","created_at","product","email","source","call_id","call_ended_reason","call_summary","delivery","delivery_attempts","delivery_last_error","delivery_delivered_at","user_agent","status","status_changed_at","email_delivery","email_delivery_attempts","email_delivery_last_error","email_delivery_delivered_at","follow_up_delivery","follow_up_delivery_attempts","follow_up_delivery_last_error","follow_up_delivery_delivered_at","spam_reason","note","language","consent_channel","consent_notice_sha256","consent_notice","phone","may_call","call_consent","zip","state","licensed","written_later_channel","written_later_at""#
    );
    let mut reader = csv::Reader::from_reader(csv.as_bytes());
    let header = reader.headers().unwrap().clone();
    let record = reader.records().next().unwrap().unwrap();
    let cell = |name: &str| &record[header.iter().position(|h| h == name).unwrap()];
    assert_eq!(
        [2, 3, 4, 5, 6, 7].map(|i| &record[i]),
        [
            "individual",
            "ana@example.com",
            "voice",
            "call-1",
            "customer-ended-call",
            "'=Wants a quote, by e-mail"
        ]
    );
    assert!(!csv.contains(TRANSCRIPT));
    assert_eq!(
        (cell("delivery"), cell("delivery_delivered_at")),
        ("pending", "")
    );
    assert_eq!(
        export(database, &["--since", "2999-01-01"]).lines().count(),
        1,
        "the header only"
    );
}

#[test]
fn the_export_never_creates_a_database() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("var/quotes.db");
    // With DATABASE_URL, and without it (the default ./data/quotes.db, in the working directory).
    for (env, named) in [
        (
            vec![("DATABASE_URL", format!("sqlite://{}", missing.display()))],
            missing.clone(),
        ),
        (vec![], dir.path().join("data/quotes.db")),
    ] {
        let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let output = run_export(dir.path(), &env, &["--format", "csv"]);
        assert!(!output.status.success());
        assert!(
            output.stdout.is_empty(),
            "no CSV header for a missing database"
        );
        assert_eq!(
            String::from_utf8_lossy(&output.stderr),
            format!("error: no database at {}\n", named.display())
        );
    }
    assert_eq!(
        std::fs::read_dir(dir.path()).unwrap().count(),
        0,
        "no file or directory was made"
    );
}

#[tokio::test]
async fn the_export_reads_a_read_only_database_and_migrates_none() {
    let mut app = TestApp::start().await;
    assert_eq!(
        app.post_json(r#"{"product":"family","email":"ana@example.com"}"#)
            .await
            .status(),
        201
    );
    app.shutdown().await;
    let DatabaseUrl::Sqlite(path) = app.database.clone() else {
        unreachable!("the test app runs on SQLite")
    };
    let dir = Path::new(&path).parent().unwrap();
    let read_only = DatabaseUrl::Sqlite(format!("file:{path}?mode=ro"));
    assert_eq!(
        export(&read_only, &["--format", "jsonl"]).lines().count(),
        1
    );

    // A database of an older release is not migrated behind the server's back.
    rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_update(None, "user_version", 2)
        .unwrap();
    let output = run_export(dir, &[("DATABASE_URL", &format!("sqlite://{path}"))], &[]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with(&format!(
            "error: {path} has schema version 2 and this release reads"
        )),
        "{stderr}"
    );
    let version: u32 = rusqlite::Connection::open(&path)
        .unwrap()
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .unwrap();
    assert_eq!(version, 2);
}

#[test]
fn the_server_logs_the_absolute_path_of_its_database() {
    let dir = tempfile::tempdir().unwrap();
    let mut server = Command::new(env!("CARGO_BIN_EXE_backend"))
        .current_dir(dir.path())
        .env_remove("DATABASE_URL")
        .env("PORT", "0")
        .env("RUST_LOG", "info")
        .env("STATIC_DIR", dir.path().join("no-site"))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // It prints where it listens once it is up (or exits, closing its output).
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    server.kill().unwrap();
    let output = server.wait_with_output().unwrap();
    assert!(first.starts_with("Listening on"), "{first}");
    let opened = String::from_utf8_lossy(&output.stderr)
        .lines()
        .filter_map(|line| serde_json::from_str::<Value>(line).ok())
        .find(|line| line["fields"]["message"] == "SQLite database opened")
        .expect("the database is logged");
    let expected = dir.path().canonicalize().unwrap().join("data/quotes.db");
    assert_eq!(opened["fields"]["path"], expected.to_str().unwrap());
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_the_export_migrates_nothing_and_prints_no_notice() {
    let database = TestDatabase::create().await;
    let url = DatabaseUrl::Postgres(database.url.clone());
    let dir = tempfile::tempdir().unwrap();
    let empty = run_export(dir.path(), &[("DATABASE_URL", &database.url)], &[]);
    assert!(!empty.status.success());
    let stderr = String::from_utf8_lossy(&empty.stderr);
    assert!(
        stderr.contains("holds no quote requests (it has no schema)"),
        "{stderr}"
    );
    assert!(
        !stderr.contains(&database.url),
        "no credentials in the message"
    );
    let (client, connection) = tokio_postgres::connect(&database.url, tokio_postgres::NoTls)
        .await
        .unwrap();
    tokio::spawn(connection);
    let created: Option<String> = client
        .query_one("SELECT to_regclass('schema_version')::text", &[])
        .await
        .unwrap()
        .get(0);
    assert_eq!(created, None, "the export created a table");
    drop(client);

    let app = TestApp::spawn().database(url.clone()).start().await;
    assert_eq!(
        app.post_json(r#"{"product":"family","email":"ana@example.com"}"#)
            .await
            .status(),
        201
    );
    app.stop().await;
    // At the default log level: nothing but the rows, no NOTICE from a migration.
    let output = run_export(
        dir.path(),
        &[("DATABASE_URL", &database.url)],
        &["--format", "jsonl"],
    );
    assert!(output.status.success());
    assert_eq!(String::from_utf8_lossy(&output.stderr), "");
    assert_eq!(String::from_utf8(output.stdout).unwrap().lines().count(), 1);
    database.drop().await;
}
