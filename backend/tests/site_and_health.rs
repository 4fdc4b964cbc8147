mod common;

use common::{TestApp, ASSET_JS, INDEX_HTML, NOT_FOUND_HTML};

#[tokio::test]
async fn the_home_page_is_revalidated_and_hashed_assets_are_immutable() {
    let app = TestApp::start().await;
    let home = app.client.get(app.url("/")).send().await.unwrap();
    assert_eq!(home.status(), 200);
    assert_eq!(home.headers()["cache-control"], "no-cache");
    assert_eq!(home.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(home.text().await.unwrap(), INDEX_HTML);

    let asset = app.client.get(app.url("/assets/app-abc123.js")).send().await.unwrap();
    assert_eq!(asset.headers()["cache-control"], "public, max-age=31536000, immutable");
    assert_eq!(asset.text().await.unwrap(), ASSET_JS);
    app.stop().await;
}

#[tokio::test]
async fn a_precompressed_file_is_sent_when_accepted() {
    let app = TestApp::start().await;
    let response = app
        .client
        .get(app.url("/assets/app-abc123.js"))
        .header("accept-encoding", "gzip, br")
        .send()
        .await
        .unwrap();
    assert_eq!(response.headers()["content-encoding"], "br");
    assert_eq!(response.headers()["vary"], "Accept-Encoding");
    assert_eq!(response.bytes().await.unwrap().as_ref(), b"brotli-bytes");
    app.stop().await;
}

#[tokio::test]
async fn any_other_path_gets_the_not_found_page_with_404() {
    let app = TestApp::start().await;
    for path in ["/pricing", "/assets/missing.js", "/a/b/c?x=1"] {
        let response = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(response.text().await.unwrap(), NOT_FOUND_HTML);
    }
    let post = app.client.post(app.url("/")).send().await.unwrap();
    assert_eq!(post.status(), 405);
    app.stop().await;
}

#[tokio::test]
async fn healthz_reports_the_database() {
    let app = TestApp::start().await;
    let response = app.client.get(app.url("/healthz")).send().await.unwrap();
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body, serde_json::json!({"status": "ok", "database": "ok"}));
    app.stop().await;
}
