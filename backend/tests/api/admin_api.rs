use std::collections::HashSet;

use crate::common::voice::{call_with_one_quote, TRANSCRIPT};
use crate::common::TestApp;
use backend::settings::leads::LeadsConfig;
use serde_json::{json, Value};

/// As `openssl rand -hex 32` makes one (ADMIN_TOKEN needs at least 32 characters).
const TOKEN: &str = "5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19";
const SECRET: &str = "voice-secret";

async fn app() -> TestApp {
    TestApp::spawn()
        .leads(LeadsConfig {
            admin_token: Some(TOKEN.into()),
            voice_events_secret: Some(SECRET.into()),
            ..LeadsConfig::default()
        })
        .start()
        .await
}

async fn admin(app: &TestApp, query: &str) -> reqwest::Response {
    app.client
        .get(app.url(&format!("/api/admin/quote-requests{query}")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
}

async fn post_quote(app: &TestApp, email: &str, user_agent: &str) {
    let response = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("user-agent", user_agent)
        .json(&json!({"product": "family", "email": email}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
}

#[tokio::test]
async fn the_token_is_required_and_checked() {
    let app = app().await;
    let url = app.url("/api/admin/quote-requests");
    let anonymous = app.client.get(&url).send().await.unwrap();
    assert_eq!(anonymous.status(), 401);
    assert_eq!(anonymous.headers()["www-authenticate"], "Bearer");
    assert_eq!(anonymous.headers()["cache-control"], "no-store");
    assert_eq!(
        anonymous.json::<Value>().await.unwrap()["code"],
        "unauthorized"
    );
    for header in [
        "Bearer wrong".to_owned(),
        format!("Bearer {}", &TOKEN[1..]),
        format!("Basic {TOKEN}"),
        TOKEN.to_owned(),
    ] {
        let response = app
            .client
            .get(&url)
            .header("authorization", &header)
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 401, "{header}");
    }
    let response = admin(&app, "").await;
    assert_eq!(response.status(), 200);
    assert_eq!(response.headers()["cache-control"], "no-store");
    assert_eq!(
        response.json::<Value>().await.unwrap(),
        json!({"quote_requests": [], "next_cursor": null})
    );
    let post = app
        .client
        .post(&url)
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(post.status(), 405);
    assert_eq!(post.headers()["allow"], "GET, HEAD");
    assert_eq!(post.headers()["cache-control"], "no-store");
    app.stop().await;
}

/// A request to the admin list from `client` (behind the trusted loopback proxy) with
/// `authorization`, if any.
async fn admin_from(app: &TestApp, client: &str, authorization: Option<&str>) -> reqwest::Response {
    let mut request = app
        .client
        .get(app.url("/api/admin/quote-requests"))
        .header("x-forwarded-for", client);
    if let Some(authorization) = authorization {
        request = request.header("authorization", authorization);
    }
    request.send().await.unwrap()
}

#[tokio::test]
async fn five_wrong_tokens_in_15_minutes_then_429_whatever_the_client_sends() {
    let app = app().await;
    let right = format!("Bearer {TOKEN}");
    let guesser = "203.0.113.9";
    for guess in 0..5 {
        let wrong = format!("Bearer guess-{guess}");
        let response = admin_from(&app, guesser, Some(&wrong)).await;
        assert_eq!(response.status(), 401, "guess {guess}");
    }
    for authorization in ["Bearer guess-5", right.as_str()] {
        let refused = admin_from(&app, guesser, Some(authorization)).await;
        assert_eq!(refused.status(), 429, "{authorization}");
        let retry_after: u64 = refused.headers()["retry-after"]
            .to_str()
            .unwrap()
            .parse()
            .unwrap();
        assert!(
            (890..=900).contains(&retry_after),
            "until the first failure is 15 minutes old, got {retry_after}"
        );
        assert_eq!(refused.headers()["cache-control"], "no-store");
        let body: Value = refused.json().await.unwrap();
        assert_eq!(body["code"], "too_many_failed_attempts");
        assert!(
            body["message"]
                .as_str()
                .unwrap()
                .starts_with("Too many failed sign-in attempts"),
            "{body}"
        );
    }
    // Another client is not affected, and sending no credentials guesses nothing.
    let neighbour = "203.0.113.10";
    for _ in 0..10 {
        assert_eq!(admin_from(&app, neighbour, None).await.status(), 401);
    }
    assert_eq!(
        admin_from(&app, neighbour, Some(&right)).await.status(),
        200
    );
    app.stop().await;
}

#[tokio::test]
async fn without_a_token_the_endpoint_does_not_exist() {
    let app = TestApp::start().await;
    let response = admin(&app, "").await;
    assert_eq!(response.status(), 404);
    app.stop().await;
}

#[tokio::test]
async fn pages_cover_every_row_newest_first_without_duplicates_or_gaps() {
    let app = app().await;
    // Concurrent posts land in shared group commits, often with the same millisecond.
    let emails: Vec<_> = (0..37).map(|i| format!("p{i}@example.com")).collect();
    futures_util::future::join_all(emails.iter().map(|email| post_quote(&app, email, "t"))).await;
    let mut seen = Vec::new();
    let mut cursor: Option<String> = None;
    let mut pages = 0;
    loop {
        let query = match &cursor {
            Some(c) => format!("?limit=5&cursor={c}"),
            None => "?limit=5".to_owned(),
        };
        let page: Value = admin(&app, &query).await.json().await.unwrap();
        pages += 1;
        let rows = page["quote_requests"].as_array().unwrap();
        assert!(rows.len() <= 5);
        seen.extend(rows.iter().map(|r| r["id"].as_str().unwrap().to_owned()));
        match page["next_cursor"].as_str() {
            Some(next) => cursor = Some(next.to_owned()),
            None => break,
        }
    }
    assert_eq!(pages, 8);
    let mut expected: Vec<_> = app.rows().await.into_iter().map(|r| r.id).collect();
    expected.reverse();
    assert_eq!(seen, expected, "newest first, each row exactly once");
    assert_eq!(seen.iter().collect::<HashSet<_>>().len(), 37);
    app.stop().await;
}

#[tokio::test]
async fn since_filters_and_bad_parameters_are_400() {
    let app = app().await;
    post_quote(&app, "ana@example.com", "t").await;
    let all: Value = admin(&app, "?since=2000-01-01").await.json().await.unwrap();
    assert_eq!(all["quote_requests"].as_array().unwrap().len(), 1);
    let none: Value = admin(&app, "?since=2999-01-01T00:00:00Z")
        .await
        .json()
        .await
        .unwrap();
    assert_eq!(none["quote_requests"].as_array().unwrap().len(), 0);
    // The last one is a valid RFC 3339 time whose UTC day is past year 9999: it used to be a 500.
    for bad in [
        "?since=yesterday",
        "?limit=0",
        "?cursor=nope",
        "?format=xml",
        "?page=2",
        "?since=9999-12-31T23:59:59-23:59",
    ] {
        let response = admin(&app, bad).await;
        assert_eq!(response.status(), 400, "{bad}");
        assert_eq!(
            response.json::<Value>().await.unwrap()["code"],
            "invalid_parameter"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn json_rows_carry_source_and_the_linked_call_summary() {
    let app = app().await;
    post_quote(&app, "web@example.com", "t").await;
    call_with_one_quote(
        &app,
        SECRET,
        "call-9",
        "medicare",
        "voice@example.com",
        "Medicare quote for a retiree.",
    )
    .await;
    let page: Value = admin(&app, "").await.json().await.unwrap();
    let rows = page["quote_requests"].as_array().unwrap();
    assert_eq!(rows[0]["source"], "voice");
    assert_eq!(rows[0]["call_id"], "call-9");
    assert_eq!(rows[0]["call_summary"], "Medicare quote for a retiree.");
    // A list and its CSV carry no transcript: only one lead's page does.
    assert!(rows.iter().all(|row| row.get("call_transcript").is_none()));
    assert!(!page.to_string().contains(TRANSCRIPT));
    let csv = admin(&app, "?format=csv").await.text().await.unwrap();
    assert!(csv.contains("Medicare quote for a retiree.") && !csv.contains(TRANSCRIPT));
    assert_eq!(rows[0]["call_ended_reason"], "customer-ended-call");
    assert_eq!(rows[1]["source"], "web");
    assert_eq!(rows[1]["call_summary"], Value::Null);
    assert_eq!(rows[1]["delivery"], Value::Null, "forwarding is off");
    app.stop().await;
}

#[tokio::test]
async fn csv_by_accept_or_format_is_escaped_against_formulas() {
    let app = app().await;
    post_quote(
        &app,
        "=1+1@example.com",
        "=HYPERLINK(\"http://evil\",\"x\")",
    )
    .await;
    post_quote(&app, "-2@example.com", "@SUM(A1:A9)").await;
    post_quote(&app, "+3@example.com", "plain, with comma").await;
    let by_accept = app
        .client
        .get(app.url("/api/admin/quote-requests?limit=2"))
        .bearer_auth(TOKEN)
        .header("accept", "text/csv")
        .send()
        .await
        .unwrap();
    assert_eq!(by_accept.status(), 200);
    assert_eq!(
        by_accept.headers()["content-type"],
        "text/csv; charset=utf-8"
    );
    let cursor = by_accept.headers()["x-next-cursor"]
        .to_str()
        .unwrap()
        .to_owned();
    let first = by_accept.text().await.unwrap();
    let second = admin(&app, &format!("?format=csv&limit=2&cursor={cursor}"))
        .await
        .text()
        .await
        .unwrap();
    let lines: Vec<&str> = first.lines().chain(second.lines().skip(1)).collect();
    assert!(lines[0].starts_with(r#""id","created_at","product","email","source","call_id","call_ended_reason","call_summary","delivery""#));
    assert_eq!(lines.len(), 4);
    assert!(
        lines[1].contains(r#","'+3@example.com","#)
            && lines[1].contains(r#","plain, with comma","#),
        "{}",
        lines[1]
    );
    assert!(
        lines[2].contains(r#","'-2@example.com","#) && lines[2].contains(r#","'@SUM(A1:A9)","#),
        "{}",
        lines[2]
    );
    assert!(
        lines[3].contains(r#","'=1+1@example.com","#),
        "{}",
        lines[3]
    );
    assert!(
        lines[3].contains(r#","'=HYPERLINK(""http://evil"",""x"")","#),
        "{}",
        lines[3]
    );
    app.stop().await;
}
