//! Another process holding the SQLite file (a backup, `sqlite3` open by hand): posts get 503
//! with Retry-After and `/healthz` says degraded while it lasts; nothing acknowledged is lost.

use std::time::{Duration, Instant};

use crate::common::TestApp;
use serde_json::Value;

#[tokio::test]
async fn a_held_lock_is_503_and_degraded_then_service_resumes() {
    let app = TestApp::start().await;
    let before = app
        .post_json(r#"{"product":"family","email":"before@example.com"}"#)
        .await;
    assert_eq!(before.status(), 201);

    let holder = app.hold_write_lock();
    let started = Instant::now();
    let during = app
        .post_json(r#"{"product":"family","email":"during@example.com"}"#)
        .await;
    assert_eq!(during.status(), 503);
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "bounded wait: {:?}",
        started.elapsed()
    );
    assert_eq!(during.headers()["retry-after"], "5");
    assert_eq!(
        during.json::<Value>().await.unwrap()["code"],
        "database_unavailable"
    );
    let health = app.get("/healthz").await;
    assert_eq!(health.status(), 503);
    assert_eq!(health.json::<Value>().await.unwrap()["status"], "degraded");

    holder.execute_batch("ROLLBACK").unwrap();
    drop(holder);
    assert_eq!(app.get("/healthz").await.status(), 200);
    let after = app
        .post_json(r#"{"product":"family","email":"after@example.com"}"#)
        .await;
    assert_eq!(after.status(), 201);
    let emails: Vec<String> = app.rows().await.into_iter().map(|r| r.email).collect();
    assert_eq!(emails, ["before@example.com", "after@example.com"]);
    app.stop().await;
}
