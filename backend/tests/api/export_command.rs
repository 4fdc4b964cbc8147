//! `backend export` prints the same data as the admin API, with the server stopped.

use crate::common::voice::call_with_one_quote;
use crate::common::TestApp;
use backend::settings::leads::{ForwardingConfig, LeadsConfig};
use backend::store::DatabaseUrl;
use serde_json::Value;

const SECRET: &str = "voice-secret";

fn export(database: &DatabaseUrl, args: &[&str]) -> String {
    let url = match database {
        DatabaseUrl::Sqlite(path) => format!("sqlite://{path}"),
        DatabaseUrl::Postgres(url) => url.clone(),
    };
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("export")
        .args(args)
        .env("DATABASE_URL", url)
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs");
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
            vapi_webhook_secret: Some(SECRET.into()),
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
    assert_eq!(row["delivery"]["webhook"]["status"], "pending");
    assert_eq!(row["delivery"]["email"], Value::Null, "e-mail is off");

    let csv = export(database, &["--format", "csv", "--since", "2026-01-01"]);
    let lines: Vec<&str> = csv.lines().collect();
    assert_eq!(
        lines[0],
        r#""id","created_at","product","email","source","call_id","call_ended_reason","call_summary","delivery","delivery_attempts","delivery_last_error","user_agent","email_delivery","email_delivery_attempts","email_delivery_last_error","follow_up_delivery","follow_up_delivery_attempts","follow_up_delivery_last_error""#
    );
    assert!(
        lines[1].contains(r#","individual","ana@example.com","voice","call-1","customer-ended-call","'=Wants a quote, by e-mail","pending","#),
        "{}",
        lines[1]
    );
    assert_eq!(
        export(database, &["--since", "2999-01-01"]).lines().count(),
        1,
        "the header only"
    );
}
