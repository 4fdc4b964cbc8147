//! Instances starting together on one PostgreSQL database: one migrates, the other waits for it,
//! and each logs which server and database it opened, with no error or notice.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};

use crate::common::postgres::TestDatabase;
use serde_json::Value;

fn start(url: &str, site: &std::path::Path) -> Child {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .env("DATABASE_URL", url)
        .env("PORT", "0")
        .env("RUST_LOG", "info")
        .env("STATIC_DIR", site)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// Waits for "Listening on", stops the server and returns its log lines.
fn listening_then_log(mut server: Child) -> Vec<Value> {
    let mut first = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    server.kill().unwrap();
    let output = server.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(first.starts_with("Listening on"), "{first}{stderr}");
    assert!(!stderr.contains("already exists"), "{stderr}");
    stderr
        .lines()
        .map(|line| serde_json::from_str(line).expect("JSON log lines"))
        .collect()
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn two_instances_start_together_and_log_the_database_they_opened() {
    let database = TestDatabase::create().await;
    let url: reqwest::Url = database.url.parse().unwrap();
    let site = tempfile::tempdir().unwrap();
    let (a, b) = (
        start(&database.url, site.path()),
        start(&database.url, site.path()),
    );
    for log in [listening_then_log(a), listening_then_log(b)] {
        let opened = log
            .iter()
            .find(|line| line["fields"]["message"] == "PostgreSQL database opened")
            .expect("the database is logged");
        let server = format!("{}:{}", url.host_str().unwrap(), url.port().unwrap());
        assert_eq!(opened["fields"]["servers"], server.as_str());
        assert_eq!(opened["fields"]["database"], &url.path()[1..]);
        assert_eq!(opened["fields"]["sslmode"], "prefer");
        // A NOTICE the server sends is logged by tokio-postgres (through the `log` crate).
        let troubled = log.iter().find(|line| {
            line["level"] == "ERROR"
                || line["fields"]["log.target"]
                    .as_str()
                    .is_some_and(|target| target.starts_with("tokio_postgres"))
        });
        assert_eq!(troubled, None, "{log:?}");
    }
    database.drop().await;
}
