//! With PostgreSQL behind the server: while the database refuses connections, requests get 503
//! with Retry-After and `/healthz` is not ready; service resumes by itself when it is back.

use crate::common::eventually::eventually;
use crate::common::postgres::TestDatabase;
use crate::common::TestApp;
use backend::store::DatabaseUrl;
use serde_json::Value;

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn a_database_outage_is_503_then_heals_by_itself() {
    let database = TestDatabase::create().await;
    let app = TestApp::spawn()
        .database(DatabaseUrl::Postgres(database.url.clone()))
        .start()
        .await;
    let before = app
        .post_json(r#"{"product":"family","email":"before@example.com"}"#)
        .await;
    assert_eq!(before.status(), 201);
    let before: Value = before.json().await.unwrap();
    assert_eq!(app.get("/healthz").await.status(), 200);

    database.go_down().await;
    let during = app
        .post_json(r#"{"product":"family","email":"during@example.com"}"#)
        .await;
    assert_eq!(during.status(), 503);
    assert_eq!(during.headers()["retry-after"], "5");
    let body: Value = during.json().await.unwrap();
    assert_eq!(body["code"], "database_unavailable");
    assert!(body["message"].as_str().unwrap().contains("try again"));
    let health = app.get("/healthz").await;
    assert_eq!(health.status(), 503);
    assert_eq!(
        health.json::<Value>().await.unwrap()["database"],
        "unavailable"
    );

    database.come_back().await;
    let after = eventually("the server to recover", || async {
        let response = app
            .post_json(r#"{"product":"family","email":"after@example.com"}"#)
            .await;
        if response.status() == 201 {
            return Ok(response.json::<Value>().await.unwrap());
        }
        assert_eq!(response.status(), 503);
        Err("503")
    })
    .await;
    assert_eq!(app.get("/healthz").await.status(), 200);
    let emails: Vec<_> = app
        .rows()
        .await
        .into_iter()
        .map(|r| (r.id, r.email))
        .collect();
    assert_eq!(
        emails,
        [
            (
                before["id"].as_str().unwrap().to_owned(),
                "before@example.com".to_owned()
            ),
            (
                after["id"].as_str().unwrap().to_owned(),
                "after@example.com".to_owned()
            ),
        ]
    );
    app.stop().await;
    database.drop().await;
}
