//! The broker's side of a test: the admin token, the inbox's API read and changed with it, and a
//! built site whose server facts (`.site/site.json` in each language) a test writes.

use std::path::PathBuf;

use serde_json::{json, Value};
use tempfile::TempDir;

use super::{created_id, TestApp, INDEX_HTML};

/// The admin API's token of the apps these helpers talk to, as `openssl rand -hex 32` makes one.
pub const TOKEN: &str = "0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9";

/// `GET path` on the admin API.
pub async fn admin_get(app: &TestApp, path: &str) -> reqwest::Response {
    app.client
        .get(app.url(path))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
}

/// `GET path` on the admin API, which must answer 200; its JSON.
pub async fn admin(app: &TestApp, path: &str) -> Value {
    let response = admin_get(app, path).await;
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

/// Lead `id` as the admin API shows it.
pub async fn lead(app: &TestApp, id: &str) -> Value {
    admin(app, &format!("/api/admin/quote-requests/{id}")).await
}

/// Deletes lead `id` as the broker does.
pub async fn deleted(app: &TestApp, id: &str) {
    let response = app
        .client
        .delete(app.url(&format!("/api/admin/quote-requests/{id}")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 204);
}

/// Marks lead `id` `status` (`do_not_contact`, ...) as the broker does, which must answer 200.
pub async fn marked(app: &TestApp, id: &str, status: &str) {
    let response = app
        .client
        .patch(app.url(&format!("/api/admin/quote-requests/{id}")))
        .bearer_auth(TOKEN)
        .json(&json!({ "status": status }))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{id} {status}");
}

/// Posts `body` to the quote API, which must answer `201`; the new lead's id.
pub async fn created(app: &TestApp, body: Value) -> String {
    created_id(app.post_json(&body.to_string()).await).await
}

/// A built site in `dir`: the home page and the server facts `english` and `spanish`.
pub fn site_with_facts(dir: &TempDir, english: Value, spanish: Value) -> PathBuf {
    let site = dir.path().join("dist");
    std::fs::create_dir_all(site.join(".site/es")).unwrap();
    std::fs::write(site.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(site.join(".site/site.json"), english.to_string()).unwrap();
    std::fs::write(site.join(".site/es/site.json"), spanish.to_string()).unwrap();
    site
}
