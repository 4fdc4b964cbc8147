//! With PostgreSQL behind the server: while the database refuses connections, requests get 503
//! with Retry-After and `/healthz` is not ready; service resumes by itself when it is back.
mod common;

use std::time::Duration;

use backend::config::DatabaseUrl;
use backend::leads_config::LeadsConfig;
use common::TestApp;
use serde_json::Value;

/// A database of its own on the `TEST_DATABASE_URL` cluster, so the test can lock it out.
struct TestDatabase {
    admin: tokio_postgres::Client,
    name: String,
    url: String,
}

impl TestDatabase {
    async fn create() -> Option<TestDatabase> {
        let Ok(base) = std::env::var("TEST_DATABASE_URL") else {
            eprintln!("skipped: TEST_DATABASE_URL is not set, so the PostgreSQL outage test does not run");
            return None;
        };
        let (admin, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls).await.unwrap();
        tokio::spawn(connection);
        let name = format!("outage_{}", uuid::Uuid::now_v7().simple());
        admin.batch_execute(&format!("CREATE DATABASE {name}")).await.unwrap();
        let mut url: reqwest::Url = base.parse().unwrap();
        url.set_path(&format!("/{name}"));
        Some(TestDatabase { admin, name, url: url.to_string() })
    }

    /// Refuses new connections and drops the server's open ones, as if the database went away.
    async fn go_down(&self) {
        let name = &self.name;
        self.admin
            .batch_execute(&format!(
                "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false;
                 SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}';"
            ))
            .await
            .unwrap();
    }

    async fn come_back(&self) {
        let sql = format!("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true", self.name);
        self.admin.batch_execute(&sql).await.unwrap();
    }

    async fn drop(self) {
        let sql = format!("DROP DATABASE {} WITH (FORCE)", self.name);
        self.admin.batch_execute(&sql).await.unwrap();
    }
}

#[tokio::test]
async fn a_database_outage_is_503_then_heals_by_itself() {
    let Some(database) = TestDatabase::create().await else { return };
    let dir = tempfile::tempdir().unwrap();
    let app = TestApp::start_on(dir, DatabaseUrl::Postgres(database.url.clone()), LeadsConfig::default()).await;
    let before = app.post_json(r#"{"product":"family","email":"before@example.com"}"#).await;
    assert_eq!(before.status(), 201);
    let before: Value = before.json().await.unwrap();
    assert_eq!(app.client.get(app.url("/healthz")).send().await.unwrap().status(), 200);

    database.go_down().await;
    let during = app.post_json(r#"{"product":"family","email":"during@example.com"}"#).await;
    assert_eq!(during.status(), 503);
    assert_eq!(during.headers()["retry-after"], "5");
    let body: Value = during.json().await.unwrap();
    assert_eq!(body["code"], "database_unavailable");
    assert!(body["message"].as_str().unwrap().contains("try again"));
    let health = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(health.status(), 503);
    assert_eq!(health.json::<Value>().await.unwrap()["database"], "unavailable");

    database.come_back().await;
    let deadline = tokio::time::Instant::now() + Duration::from_secs(30);
    let after = loop {
        let response = app.post_json(r#"{"product":"family","email":"after@example.com"}"#).await;
        if response.status() == 201 {
            break response.json::<Value>().await.unwrap();
        }
        assert_eq!(response.status(), 503);
        assert!(tokio::time::Instant::now() < deadline, "the server did not recover");
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(app.client.get(app.url("/healthz")).send().await.unwrap().status(), 200);
    let emails: Vec<_> = app.rows().await.into_iter().map(|r| (r.id, r.email)).collect();
    assert_eq!(
        emails,
        [
            (before["id"].as_str().unwrap().to_owned(), "before@example.com".to_owned()),
            (after["id"].as_str().unwrap().to_owned(), "after@example.com".to_owned()),
        ]
    );
    app.stop().await;
    database.drop().await;
}
