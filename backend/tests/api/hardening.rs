//! Abuse defences seen from outside: rate limit, honeypot, security headers, the API document.

use crate::common::TestApp;
use backend::settings::rate_limit::RateLimit;
use backend::settings::trusted_proxies::TrustedProxies;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

const VALID: &str = r#"{"product":"family","email":"ana@example.com"}"#;

async fn post_from(app: &TestApp, forwarded_for: &str) -> reqwest::Response {
    app.client
        .post(app.url("/api/quote-requests"))
        .header("content-type", "application/json")
        .header("x-forwarded-for", forwarded_for)
        .body(VALID)
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_client_past_its_burst_gets_429_with_retry_after_and_the_json_body() {
    let app = TestApp::spawn()
        .configure(|c| {
            c.rate_limit = Some(RateLimit {
                per_minute: 10,
                burst: 5,
            });
            c.trusted_proxies = TrustedProxies::parse("").unwrap();
        })
        .start()
        .await;
    for _ in 0..5 {
        assert_eq!(app.post_json(VALID).await.status(), 201);
    }
    let refused = app.post_json(VALID).await;
    assert_eq!(refused.status(), 429);
    let retry_after: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!(
        (1..=6).contains(&retry_after),
        "10 a minute refills one every 6 s, got {retry_after}"
    );
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["code"], "rate_limited");
    assert!(body["message"].as_str().unwrap().contains("try again"));
    assert_eq!(
        app.rows().await.len(),
        5,
        "the refused request stored nothing"
    );
    // A peer that is not a trusted proxy does not buy a fresh bucket with X-Forwarded-For.
    assert_eq!(post_from(&app, "198.51.100.1").await.status(), 429);
    app.stop().await;
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_bucket() {
    // The default TRUSTED_PROXIES (loopback) covers this test's connections.
    let app = TestApp::spawn()
        .configure(|c| {
            c.rate_limit = Some(RateLimit {
                per_minute: 1,
                burst: 1,
            })
        })
        .start()
        .await;
    assert_eq!(post_from(&app, "203.0.113.1").await.status(), 201);
    assert_eq!(post_from(&app, "203.0.113.1").await.status(), 429);
    // Each client in a /24 of its own, as its /24 has a limit too.
    assert_eq!(post_from(&app, "spoofed, 198.51.100.2").await.status(), 201);
    assert_eq!(
        post_from(&app, "203.0.113.9, 198.51.100.2").await.status(),
        429,
        "the proxy's hop counts"
    );
    assert_eq!(post_from(&app, "192.0.2.3:5678").await.status(), 201);
    assert_eq!(
        post_from(&app, "192.0.2.3").await.status(),
        429,
        "a port does not make another client"
    );
    assert_eq!(post_from(&app, "[2001:db8:1:2::1]:443").await.status(), 201);
    assert_eq!(
        post_from(&app, "2001:db8:1:2::9").await.status(),
        429,
        "one IPv6 /64 is one client"
    );
    assert_eq!(
        post_from(&app, "127.0.0.1, 2001:db8:1:3::1, 127.0.0.1")
            .await
            .status(),
        201,
        "trusted hops skipped"
    );
    app.stop().await;
}

#[tokio::test]
async fn twenty_addresses_of_one_ipv4_24_share_its_limit() {
    // The default limit (10 a minute, burst 5); the test's loopback connections are the trusted
    // proxy, and X-Forwarded-For names the visitors.
    let app = TestApp::spawn()
        .configure(|c| {
            c.rate_limit = Some(RateLimit {
                per_minute: 10,
                burst: 5,
            })
        })
        .start()
        .await;
    let started = std::time::Instant::now();
    let mut accepted = 0;
    for round in 0..5 {
        for n in 1..=20 {
            let status = post_from(&app, &format!("203.0.113.{n}")).await.status();
            assert!(status == 201 || status == 429, "round {round}: {status}");
            accepted += usize::from(status == 201);
        }
    }
    assert!(started.elapsed().as_secs() < 60, "all within a minute");
    assert!(
        accepted <= 40,
        "{accepted} of 100 posts from one /24 accepted"
    );
    assert_eq!(app.rows().await.len(), accepted);
    assert_eq!(
        post_from(&app, "198.51.100.1").await.status(),
        201,
        "another /24 has its own limit"
    );
    app.stop().await;
}

#[tokio::test]
async fn invalid_posts_spend_no_quote_token_and_have_their_own_looser_limit() {
    let app = TestApp::spawn()
        .configure(|c| {
            c.rate_limit = Some(RateLimit {
                per_minute: 1,
                burst: 1,
            })
        })
        .start()
        .await;
    let invalid = r#"{"product":"dental","email":"ana@example.com"}"#;
    let honeypot = r#"{"product":"","email":"bot","website":"x"}"#;
    for body in [invalid, honeypot, invalid, "{", invalid] {
        assert_ne!(app.post_json(body).await.status(), 429, "{body}");
    }
    assert_eq!(
        app.post_json(VALID).await.status(),
        201,
        "the quote token is still there"
    );
    assert_eq!(
        app.post_json(invalid).await.status(),
        422,
        "6 invalid posts fit in the looser burst"
    );
    let flooded = app.post_json(invalid).await;
    assert_eq!(
        flooded.status(),
        429,
        "the 7th invalid post is over the looser limit"
    );
    assert!(flooded.headers().contains_key("retry-after"));
    assert_eq!(app.rows().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_filled_honeypot_is_answered_201_and_held_as_spam() {
    let app = TestApp::start().await;
    let response = app
        .post_json(
            r#"{"product":"family","email":"bot@example.com","website":"http://spam.example"}"#,
        )
        .await;
    assert_eq!(response.status(), 201);
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["id"].as_str().unwrap().len(), 36);
    assert_eq!(
        app.post_json(r#"{"product":"family","email":"ana@example.com","website":""}"#)
            .await
            .status(),
        201
    );
    let rows = app.rows().await;
    let held: Vec<_> = rows
        .iter()
        .map(|r| (r.email.as_str(), r.spam_reason.as_deref()))
        .collect();
    assert_eq!(
        held,
        [
            ("bot@example.com", Some("honeypot")),
            ("ana@example.com", None)
        ]
    );
    assert_eq!(body["id"], rows[0].id, "the answer a person gets");
    app.stop().await;
}

#[tokio::test]
async fn every_response_carries_the_security_headers() {
    let app = TestApp::start().await;
    for (method, path) in [
        ("GET", "/"),
        ("GET", "/assets/app-abc123.js"),
        ("GET", "/no-such-page"),
        ("GET", "/healthz"),
        ("GET", "/api/nothing"),
        ("POST", "/api/quote-requests"),
    ] {
        let response = app
            .client
            .request(method.parse().unwrap(), app.url(path))
            .send()
            .await
            .unwrap();
        let h = response.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        assert!(
            csp.starts_with(
                "default-src 'self'; script-src 'self' 'wasm-unsafe-eval' https://*.daily.co"
            ),
            "{path}: {csp}"
        );
        assert!(
            csp.contains(
                "connect-src 'self' https://api.vapi.ai https://*.daily.co wss://*.daily.co"
            ),
            "{csp}"
        );
        assert!(
            csp.contains("media-src 'self' blob:") && csp.contains("frame-ancestors 'none'"),
            "{csp}"
        );
        assert!(
            csp.contains("worker-src 'self';"),
            "workers from our origin only, never blob: {csp}"
        );
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "strict-origin-when-cross-origin");
        assert!(h["permissions-policy"]
            .to_str()
            .unwrap()
            .starts_with("microphone=(self)"));
        assert!(
            !h.contains_key("strict-transport-security"),
            "HSTS is off unless HSTS=1"
        );
    }
    app.stop().await;

    let app = TestApp::spawn()
        .configure(|c| c.security_headers.hsts = true)
        .start()
        .await;
    let response = app.get("/healthz").await;
    assert!(response.headers()["strict-transport-security"]
        .to_str()
        .unwrap()
        .starts_with("max-age="));
    app.stop().await;
}

#[tokio::test]
async fn the_openapi_document_is_served() {
    let app = TestApp::start().await;
    let response = app.get("/api/openapi.json").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["content-type"], "application/json");
    let doc: Value = response.json().await.unwrap();
    assert!(doc["paths"]["/api/quote-requests"]["post"].is_object());
    let post = app
        .client
        .post(app.url("/api/openapi.json"))
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 405, "like every other API path, not 404");
    assert_eq!(post.headers()["allow"], "GET, HEAD");
    assert_eq!(
        post.json::<Value>().await.unwrap()["code"],
        "method_not_allowed"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_request_head_past_its_limit_is_answered_431_and_one_within_is_served() {
    use backend::http::head_size::MAX_HEAD_BYTES;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    let app = TestApp::spawn().start().await;
    // A head of exactly `size` bytes, sent in one write as a client would; the status line and
    // the error code answered.
    let send = |size: usize| async move {
        let start = "GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Padding: ";
        let end = "\r\n\r\n";
        let head = format!("{start}{}{end}", "a".repeat(size - start.len() - end.len()));
        assert_eq!(head.len(), size);
        let mut socket = TcpStream::connect(app.addr).await.unwrap();
        socket.write_all(head.as_bytes()).await.unwrap();
        let mut answer = Vec::new();
        let _ = socket.read_to_end(&mut answer).await;
        let answer = String::from_utf8_lossy(&answer).into_owned();
        let status = answer.get(9..12).unwrap_or_default().to_owned();
        (status, answer.contains("request_head_too_large"))
    };
    assert_eq!(
        send(MAX_HEAD_BYTES).await,
        ("200".into(), false),
        "at the cap"
    );
    assert_eq!(
        send(MAX_HEAD_BYTES + 1).await,
        ("431".into(), true),
        "one byte past it"
    );
    // Heads of these sizes were served before the cap was counted exactly; past hyper's own
    // read buffer its bare 431 may answer first.
    for size in [40_000, 49_151, 60_000] {
        assert_eq!(send(size).await.0, "431", "{size} bytes");
    }
    app.stop().await;
}

#[tokio::test]
async fn one_address_past_its_share_of_connections_is_closed_at_once_unless_a_trusted_proxy() {
    use backend::http::address_cap::MAX_PER_ADDRESS;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpStream;

    /// Opens `n` connections and sends each a request head; returns how many were answered.
    async fn answered(app: &TestApp, n: usize) -> (usize, Vec<TcpStream>) {
        let mut open = Vec::new();
        let mut answered = 0;
        for _ in 0..n {
            let mut socket = TcpStream::connect(app.addr).await.unwrap();
            let _ = socket
                .write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
                .await;
            let mut first = [0u8; 12];
            if socket.read_exact(&mut first).await.is_ok() && &first == b"HTTP/1.1 200" {
                answered += 1;
            }
            open.push(socket);
        }
        (answered, open)
    }

    let direct = TestApp::spawn()
        .configure(|c| c.trusted_proxies = TrustedProxies::parse("").unwrap())
        .start()
        .await;
    let (served, held) = answered(&direct, MAX_PER_ADDRESS + 5).await;
    assert_eq!(served, MAX_PER_ADDRESS, "the rest are closed unanswered");
    drop(held);
    direct.stop().await;

    // The default TRUSTED_PROXIES (loopback) covers this test's connections.
    let proxied = TestApp::spawn().start().await;
    let (served, _held) = answered(&proxied, MAX_PER_ADDRESS + 5).await;
    assert_eq!(served, MAX_PER_ADDRESS + 5);
    proxied.stop().await;
}

/// What the server answers to `request` written on a raw connection (these targets cannot be
/// sent with an HTTP client).
async fn raw_exchange(app: &TestApp, request: &str) -> String {
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer).await;
    answer
}

#[tokio::test]
async fn connect_and_asterisk_targets_get_400_with_the_json_body() {
    let app = TestApp::start().await;
    for request in [
        "CONNECT 127.0.0.1:22 HTTP/1.1\r\nhost: 127.0.0.1:22\r\nconnection: close\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n",
        "GET * HTTP/1.1\r\nhost: test\r\nconnection: close\r\n\r\n",
    ] {
        let answer = raw_exchange(&app, request).await;
        assert!(
            answer.starts_with("HTTP/1.1 400 "),
            "{request:?} got {answer:?}"
        );
        let body: Value = serde_json::from_str(answer.split("\r\n\r\n").nth(1).unwrap()).unwrap();
        assert_eq!(body["code"], "invalid_request_target", "{request:?}");
        assert!(
            answer.contains("content-security-policy"),
            "the usual headers too"
        );
    }
    assert_eq!(
        app.get("/healthz").await.status(),
        200,
        "the server lives on"
    );
    app.stop().await;
}
