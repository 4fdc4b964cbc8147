//! `X-Request-Id`: on every response, kept from a trusted proxy only, and on every log line of
//! its request (read from the real binary's log).

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use crate::common::TestApp;

fn request_id(response: &reqwest::Response) -> String {
    let ids: Vec<_> = response.headers().get_all("x-request-id").iter().collect();
    assert_eq!(ids.len(), 1, "{:?}", response.headers());
    ids[0].to_str().unwrap().to_owned()
}

fn is_uuid_v7(id: &str) -> bool {
    id.len() == 36
        && id.as_bytes()[14] == b'7'
        && id.bytes().all(|b| b == b'-' || b.is_ascii_hexdigit())
}

async fn get_with_id(app: &TestApp, path: &str, id: &str) -> String {
    let response = app
        .client
        .get(app.url(path))
        .header("x-request-id", id)
        .send()
        .await
        .unwrap();
    request_id(&response)
}

#[tokio::test]
async fn every_response_carries_a_fresh_request_id() {
    let app = TestApp::start().await;
    let mut ids = Vec::new();
    for response in [
        app.get("/healthz").await,
        app.get("/").await,
        app.get("/assets/app-abc123.js").await,
        app.get("/no-such-page").await,
        app.get("/api/no-such-endpoint").await,
        app.post_json("{not json").await,
        app.post_json(r#"{"product":"family","email":"ana@example.com"}"#)
            .await,
    ] {
        let id = request_id(&response);
        assert!(is_uuid_v7(&id), "{} {id}", response.url());
        ids.push(id);
    }
    ids.sort();
    ids.dedup();
    assert_eq!(ids.len(), 7, "each request its own id");
    app.stop().await;
}

#[tokio::test]
async fn a_trusted_proxys_id_is_kept_and_any_other_replaced() {
    // The test client connects from loopback, which TRUSTED_PROXIES trusts by default: it plays
    // the proxy.
    let app = TestApp::start().await;
    let from_caddy = "0b6f5a52-4c1c-4f43-9a4e-2a9a8d3c6e11";
    assert_eq!(get_with_id(&app, "/healthz", from_caddy).await, from_caddy);
    assert_eq!(
        get_with_id(&app, "/nowhere", "nginx-9f86d081").await,
        "nginx-9f86d081"
    );
    for invalid in ["two words", "{\"a\":1}", &"x".repeat(201)] {
        let id = get_with_id(&app, "/healthz", invalid).await;
        assert!(is_uuid_v7(&id), "{invalid} became {id}");
    }
    app.stop().await;

    let direct = TestApp::spawn()
        .env(&[("TRUSTED_PROXIES", "")])
        .start()
        .await;
    let id = get_with_id(&direct, "/healthz", from_caddy).await;
    assert!(is_uuid_v7(&id) && id != from_caddy, "{id}");
    direct.stop().await;
}

#[tokio::test]
async fn every_log_line_of_a_request_carries_its_id() {
    let dir = tempfile::tempdir().unwrap();
    let database = format!("sqlite://{}", dir.path().join("quotes.db").display());
    let mut server = Command::new(env!("CARGO_BIN_EXE_backend"))
        .env_clear()
        .envs([
            ("PORT", "0"),
            ("DATABASE_URL", database.as_str()),
            ("STATIC_DIR", dir.path().to_str().unwrap()),
            ("RUST_LOG", "info"),
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the backend binary runs");
    let mut listening = String::new();
    BufReader::new(server.stdout.take().unwrap())
        .read_line(&mut listening)
        .unwrap();
    let base = listening
        .trim()
        .strip_prefix("Listening on ")
        .unwrap_or_else(|| panic!("{listening:?}"))
        .to_owned();
    let client = reqwest::Client::new();
    // A filled honeypot: the handler logs a line of its own before the request log's.
    let honeypot = client
        .post(format!("{base}/api/quote-requests"))
        .header("x-request-id", "proxy-id-1")
        .json(&serde_json::json!({"product": "family", "email": "a@b.co", "website": "spam"}))
        .send()
        .await
        .unwrap();
    assert_eq!(honeypot.status(), 201);
    assert_eq!(request_id(&honeypot), "proxy-id-1");
    let health = client.get(format!("{base}/healthz")).send().await.unwrap();
    let generated = request_id(&health);
    server.kill().unwrap();
    let output = server.wait_with_output().unwrap();
    let log: Vec<serde_json::Value> = String::from_utf8(output.stderr)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap_or_else(|_| panic!("{line}")))
        .collect();
    let lines_of = |id: &str| -> Vec<&serde_json::Value> {
        log.iter()
            .filter(|line| line["span"]["request_id"] == id)
            .collect()
    };
    let honeypot_lines = lines_of("proxy-id-1");
    let messages: Vec<_> = honeypot_lines
        .iter()
        .map(|line| {
            (
                line["target"].as_str().unwrap(),
                line["fields"]["message"].as_str(),
            )
        })
        .collect();
    assert_eq!(
        messages,
        [
            (
                "backend::routes::quotes::handlers",
                Some("quote post held as spam")
            ),
            ("request", None)
        ],
        "{log:#?}"
    );
    assert_eq!(honeypot_lines[1]["fields"]["status"], 201);
    let health_lines = lines_of(&generated);
    assert_eq!(health_lines.len(), 1, "{log:#?}");
    assert_eq!(health_lines[0]["fields"]["path"], "/healthz");
    let requests = log.iter().filter(|line| line["target"] == "request");
    assert!(
        requests.clone().count() == 2
            && requests
                .clone()
                .all(|line| line["span"]["request_id"].is_string()),
        "no request line without its id: {log:#?}"
    );
}
