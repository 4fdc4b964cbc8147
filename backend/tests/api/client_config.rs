use crate::common::TestApp;
use serde_json::json;

#[tokio::test]
async fn without_a_key_the_page_learns_that_voice_is_not_configured() {
    let app = TestApp::spawn().env(&[]).start().await;
    let response = app.get("/api/client-config").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(
        response.json::<serde_json::Value>().await.unwrap(),
        json!({ "voice": null })
    );
    app.stop().await;
}

#[tokio::test]
async fn the_deployment_settings_reach_the_page_at_run_time() {
    let app = TestApp::spawn()
        .env(&[
            ("VAPI_PUBLIC_KEY", "pk-public-1"),
            ("VAPI_ASSISTANT_ID", "asst-42"),
            ("VAPI_API_BASE_URL", "http://127.0.0.1:9/"),
        ])
        .start()
        .await;
    let response = app.get("/api/client-config").await;
    assert_eq!(response.headers()["content-type"], "application/json");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body,
        json!({ "voice": {
            "publicKey": "pk-public-1",
            "assistantId": "asst-42",
            "apiBaseUrl": "http://127.0.0.1:9"
        }})
    );
    app.stop().await;
}

#[tokio::test]
async fn other_methods_get_405_with_allow() {
    let app = TestApp::spawn().env(&[]).start().await;
    let response = app
        .client
        .post(app.url("/api/client-config"))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers()["allow"], "GET, HEAD");
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], "method_not_allowed");
    app.stop().await;
}
