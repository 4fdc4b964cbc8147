use crate::common::{TestApp, ASSET_JS, INDEX_HTML, NOT_FOUND_HTML};

#[tokio::test]
async fn the_home_page_is_revalidated_and_hashed_assets_are_immutable() {
    let app = TestApp::start().await;
    let home = app.get("/").await;
    assert_eq!(home.status(), 200);
    assert_eq!(home.headers()["cache-control"], "no-cache");
    assert_eq!(home.headers()["content-type"], "text/html; charset=utf-8");
    assert_eq!(home.text().await.unwrap(), INDEX_HTML);

    let asset = app.get("/assets/app-abc123.js").await;
    assert_eq!(
        asset.headers()["cache-control"],
        "public, max-age=31536000, immutable"
    );
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
        let response = app.get(path).await;
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
    let response = app.get("/healthz").await;
    assert_eq!(response.status(), 200);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(
        body,
        serde_json::json!({"status": "ok", "database": "ok",
            "deliveries": {"status": "ok", "channels": []}})
    );
    app.stop().await;
}

#[tokio::test]
async fn dotfiles_are_never_served_except_well_known() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("dist");
    for (path, text) in [
        ("index.html", INDEX_HTML),
        ("404.html", NOT_FOUND_HTML),
        (".env", "SECRET=1"),
        (".git/config", "[core]"),
        ("assets/.hidden.js", "x"),
        ("assets/.cache/a.js", "x"),
        (
            ".well-known/security.txt",
            "Contact: mailto:security@example.com",
        ),
    ] {
        let file = site.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    let database =
        backend::store::DatabaseUrl::Sqlite(dir.path().join("q.db").to_string_lossy().into());
    let app = TestApp::spawn()
        .dir(dir)
        .static_dir(site)
        .database(database)
        .start()
        .await;
    for path in [
        "/.env",
        "/.git/config",
        "/assets/.hidden.js",
        "/assets/.cache/a.js",
        "/.well-known/../.env",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert!(!response.text().await.unwrap().contains("SECRET"), "{path}");
    }
    let security = app.get("/.well-known/security.txt").await;
    assert_eq!(security.status(), 200);
    assert!(security.text().await.unwrap().starts_with("Contact:"));
    app.stop().await;
}

#[tokio::test]
async fn links_out_of_the_site_are_never_served_and_a_link_loop_does_not_stop_start_up() {
    use std::os::unix::fs::symlink;
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("passwd"), "root:x:0:0:SECRET").unwrap();
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("dist");
    std::fs::create_dir_all(site.join("assets")).unwrap();
    std::fs::write(site.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(site.join("404.html"), NOT_FOUND_HTML).unwrap();
    symlink(outside.path().join("passwd"), site.join("passwd")).unwrap();
    symlink(
        outside.path().join("passwd"),
        site.join("assets/app-leak.js"),
    )
    .unwrap();
    symlink(outside.path().join("passwd"), site.join("index.html.gz")).unwrap();
    symlink(outside.path(), site.join("etc")).unwrap();
    symlink(site.join("loop"), site.join("loop")).unwrap();
    symlink(&site, site.join("assets/parent")).unwrap();
    let database =
        backend::store::DatabaseUrl::Sqlite(dir.path().join("q.db").to_string_lossy().into());
    let app = TestApp::spawn()
        .dir(dir)
        .static_dir(site)
        .database(database)
        .start()
        .await;
    for path in [
        "/passwd",
        "/assets/app-leak.js",
        "/etc/passwd",
        "/loop",
        "/assets/parent/index.html",
    ] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(response.text().await.unwrap(), NOT_FOUND_HTML, "{path}");
    }
    let home = app
        .client
        .get(app.url("/"))
        .header("accept-encoding", "gzip")
        .send()
        .await
        .unwrap();
    assert_eq!(home.status(), 200);
    assert!(
        home.headers().get("content-encoding").is_none(),
        "the linked .gz is not used"
    );
    assert_eq!(home.text().await.unwrap(), INDEX_HTML);
    app.stop().await;
}

#[tokio::test]
async fn html_has_an_etag_and_a_revisit_is_304() {
    let app = TestApp::start().await;
    let first = app.get("/").await;
    let etag = first.headers()["etag"].to_str().unwrap().to_owned();
    assert!(etag.starts_with("W/\""), "{etag}");
    let again = app
        .client
        .get(app.url("/"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(again.status(), 304);
    assert_eq!(again.headers()["etag"], etag.as_str());
    assert_eq!(again.headers()["cache-control"], "no-cache");
    assert!(again.text().await.unwrap().is_empty());
    let other = app
        .client
        .get(app.url("/"))
        .header("if-none-match", "\"other\"")
        .send()
        .await
        .unwrap();
    assert_eq!(other.status(), 200);
    let brotli = app
        .client
        .get(app.url("/"))
        .header("if-none-match", etag.trim_start_matches("W/"))
        .header("accept-encoding", "br")
        .send()
        .await
        .unwrap();
    assert_eq!(brotli.status(), 304, "a weak comparison");
    let missing = app
        .client
        .get(app.url("/nope"))
        .header("if-none-match", &etag)
        .send()
        .await
        .unwrap();
    assert_eq!(missing.status(), 404, "the 404 page is not a match");
    app.stop().await;
}

/// A built site with the privacy notice and the licences page, as the front end's build writes them.
fn site_with_notice(dir: &std::path::Path) -> std::path::PathBuf {
    let site = dir.join("dist");
    for (path, text) in [
        ("index.html", INDEX_HTML),
        ("404.html", NOT_FOUND_HTML),
        ("licences.html", "<h1>Licenses</h1>"),
        (
            ".site/privacy.html",
            "<p>We keep a quote request {{retention}}, a conversation {{conversationRetention}}.</p><p>Our CRM: {{leadWebhook}}</p>",
        ),
        (
            ".site/site.json",
            r#"{"url": "https://www.broker.test/", "leadNotice": "An agent will call.",
                "retention": {"days": "{days} days after we receive it", "unset": "until you ask us to delete it"},
                "conversationRetention": {"days": "{days} days after it"},
                "leadWebhook": {"set": "each request goes there.", "unset": "none."}}"#,
        ),
    ] {
        let file = site.join(path);
        std::fs::create_dir_all(file.parent().unwrap()).unwrap();
        std::fs::write(file, text).unwrap();
    }
    site
}

#[tokio::test]
async fn the_privacy_notice_states_the_configured_retention_and_forwarding() {
    for (env, stated) in [
        (
            vec![
                ("LEAD_RETENTION_DAYS", "30"),
                ("CONVERSATION_RETENTION_DAYS", "365"),
                ("LEAD_WEBHOOK_URL", "https://crm.example.com/leads"),
            ],
            "30 days after we receive it, a conversation 365 days after it.</p><p>Our CRM: each request goes there.",
        ),
        (
            vec![],
            "until you ask us to delete it, a conversation 3653 days after it.</p><p>Our CRM: none.",
        ),
    ] {
        let dir = tempfile::tempdir().unwrap();
        let site = site_with_notice(dir.path());
        let app = TestApp::spawn()
            .env(&env)
            .dir(dir)
            .static_dir(site)
            .start()
            .await;
        let notice = app.get("/privacy").await;
        assert_eq!(notice.status(), 200);
        assert_eq!(notice.headers()["content-type"], "text/html; charset=utf-8");
        assert_eq!(
            notice.text().await.unwrap(),
            format!("<p>We keep a quote request {stated}</p>")
        );
        // The template with its empty slot is never served.
        assert_eq!(app.get("/.site/privacy.html").await.status(), 404);
        app.stop().await;
    }
}

#[tokio::test]
async fn a_prerendered_page_is_served_at_its_path_without_html() {
    let dir = tempfile::tempdir().unwrap();
    let site = site_with_notice(dir.path());
    let app = TestApp::spawn().dir(dir).static_dir(site).start().await;
    let licences = app.get("/licences").await;
    assert_eq!(licences.status(), 200);
    assert_eq!(licences.text().await.unwrap(), "<h1>Licenses</h1>");
    assert_eq!(app.get("/404").await.status(), 404);
    assert_eq!(app.get("/index").await.status(), 404);
    app.stop().await;
}
