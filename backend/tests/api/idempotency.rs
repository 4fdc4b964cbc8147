//! `Idempotency-Key` on quote posts: a retry is answered with the first quote, never a second
//! row; the same key for another request is refused with 409.

use crate::common::{created_id, TestApp};
use serde_json::Value;

const ANA: &str = r#"{"product":"family","email":"ana@example.com"}"#;
const BEA: &str = r#"{"product":"family","email":"bea@example.com"}"#;

async fn post(app: &TestApp, key: &str, body: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/quote-requests"))
        .header("content-type", "application/json")
        .header("idempotency-key", key)
        .body(body.to_owned())
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_retried_post_is_one_lead_and_another_body_under_the_key_is_409() {
    let app = TestApp::start().await;
    let first = created_id(post(&app, "retry-1", ANA).await).await;
    let replays = futures_util::future::join_all((0..5).map(|_| post(&app, "retry-1", ANA))).await;
    for replay in replays {
        assert_eq!(created_id(replay).await, first, "the first answer again");
    }
    let conflict = post(&app, "retry-1", BEA).await;
    assert_eq!(conflict.status(), 409);
    let body: Value = conflict.json().await.unwrap();
    assert_eq!(body["code"], "idempotency_conflict");
    assert!(body["message"]
        .as_str()
        .unwrap()
        .contains("earlier request stands"));
    let other = created_id(post(&app, "retry-2", BEA).await).await;
    assert_ne!(other, first);
    let rows = app.rows().await;
    assert_eq!(rows.len(), 2);
    assert_eq!(
        rows.iter().find(|r| r.id == first).unwrap().email,
        "ana@example.com"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_key_survives_a_restart_and_a_bad_key_is_refused() {
    let mut app = TestApp::start().await;
    let first = created_id(post(&app, "k", ANA).await).await;
    app.restart().await;
    assert_eq!(created_id(post(&app, "k", ANA).await).await, first);
    for bad in ["", "has space", &"x".repeat(256)] {
        let response = post(&app, bad, ANA).await;
        assert_eq!(response.status(), 400, "{bad:?}");
        assert_eq!(
            response.json::<Value>().await.unwrap()["code"],
            "invalid_parameter"
        );
    }
    assert_eq!(
        created_id(post(&app, &"~".repeat(255), ANA).await)
            .await
            .len(),
        36
    );
    assert_eq!(app.rows().await.len(), 2);
    app.stop().await;
}
