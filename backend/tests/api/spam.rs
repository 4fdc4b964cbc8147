//! Posts a person does not make: from another site's page (refused, nothing stored), or without
//! the signed form token a page of the site gives, sooner after it than a person types, or with
//! the honeypot (answered exactly as a person is, held as spam, never delivered until the
//! broker says it is not spam).

use std::time::Duration;

use crate::common::receiver::Receiver;
use crate::common::{cookie_parts, form_cookie, TestApp};
use backend::settings::leads::{ForwardingConfig, LeadsConfig};
use serde_json::{json, Value};

/// As `openssl rand -hex 32` makes one.
const ADMIN_TOKEN: &str = "5f0c2a9d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a3f2e1d0c9b8a7f6e5d4c3b2a19";

/// A JSON post with `cookie` (none when empty).
async fn json_post(app: &TestApp, cookie: &str, email: &str) -> reqwest::Response {
    reqwest::Client::new()
        .post(app.url("/api/quote-requests"))
        .header("cookie", cookie)
        .json(&json!({"product": "family", "email": email}))
        .send()
        .await
        .unwrap()
}

#[tokio::test]
async fn a_post_from_another_sites_page_is_refused_and_nothing_stored() {
    let app = TestApp::start().await;
    let own = format!("http://{}", app.addr);
    let cross_site: [&[(&str, &str)]; 5] = [
        &[("sec-fetch-site", "cross-site")],
        &[("sec-fetch-site", "same-site")],
        &[("origin", "http://127.0.0.2:9999")],
        &[("origin", "null")],
        &[("sec-fetch-site", "cross-site"), ("origin", &own)],
    ];
    for headers in cross_site {
        let body = "product=family&email=visitor%40example.com&website=";
        let refused = app.form_post(&app.form_cookie(), headers, body).await;
        assert_eq!(refused.status(), 403, "{headers:?}");
        assert!(refused.headers().get("set-cookie").is_none());
        assert_eq!(refused.headers()["cache-control"], "no-store");
        let page = refused.text().await.unwrap();
        assert!(page.contains(r##"<a href="/#quote">"##), "{page}");
    }
    let json = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("sec-fetch-site", "cross-site")
        .json(&json!({"product": "family", "email": "visitor@example.com"}))
        .send()
        .await
        .unwrap();
    assert_eq!(json.status(), 403);
    assert_eq!(
        json.json::<Value>().await.unwrap()["code"],
        "cross_site_request"
    );
    assert!(app.rows().await.is_empty(), "nothing stored");

    // The site's own page, an address typed or bookmarked, and a client that says nothing.
    let own_site: [&[(&str, &str)]; 4] = [
        &[("sec-fetch-site", "same-origin"), ("origin", &own)],
        &[("sec-fetch-site", "none")],
        &[("origin", &own)],
        &[],
    ];
    for (i, headers) in own_site.into_iter().enumerate() {
        let body = format!("product=family&email=person{i}%40example.com&website=");
        let posted = app.form_post(&app.form_cookie(), headers, &body).await;
        assert_eq!(posted.status(), 303, "{headers:?}");
    }
    let rows = app.rows().await;
    assert_eq!(rows.len(), 4);
    assert!(rows.iter().all(|r| r.spam_reason.is_none()), "{rows:?}");
    app.stop().await;
}

#[tokio::test]
async fn every_page_gives_a_signed_token_for_the_form_post_alone() {
    let mut app = TestApp::start().await;
    let home = app.get("/").await;
    let cookie = home.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(cookie.starts_with("form_token="), "{cookie}");
    assert_eq!(
        cookie_parts(&cookie).1,
        [
            "HttpOnly",
            "Max-Age=21600",
            "Path=/api/quote-requests",
            "SameSite=Strict"
        ]
    );
    let etag = home.headers()["etag"].to_str().unwrap().to_owned();
    let revisit = app
        .client
        .get(app.url("/"))
        .header("if-none-match", etag)
        .send()
        .await
        .unwrap();
    assert_eq!(revisit.status(), 304);
    assert!(
        revisit.headers().contains_key("set-cookie"),
        "a revisit too"
    );
    assert!(app
        .get("/missing")
        .await
        .headers()
        .contains_key("set-cookie"));
    let asset = app.get("/assets/app-abc123.js").await;
    assert!(!asset.headers().contains_key("set-cookie"));
    let over_https = app
        .client
        .get(app.url("/"))
        .header("x-forwarded-proto", "https")
        .send()
        .await
        .unwrap();
    let set_cookie = over_https.headers()["set-cookie"].to_str().unwrap();
    assert!(
        cookie_parts(set_cookie).1.contains(&"Secure"),
        "{set_cookie}"
    );

    // The key is the database's: a restarted (or another) instance takes the same tokens.
    app.restart().await;
    assert_eq!(
        json_post(&app, &app.form_cookie(), "after@example.com")
            .await
            .status(),
        201
    );
    let rows = app.rows().await;
    assert_eq!(rows[0].spam_reason, None, "{rows:?}");
    app.stop().await;
}

/// Each stored quote's e-mail and why it is held as spam (`None`: a lead), oldest first.
async fn emails_and_reasons(app: &TestApp) -> Vec<(String, Option<String>)> {
    app.rows()
        .await
        .into_iter()
        .map(|r| (r.email, r.spam_reason))
        .collect()
}

#[tokio::test]
async fn a_post_sooner_after_its_page_than_a_person_types_is_spam() {
    let app = TestApp::spawn()
        .env(&[("FORM_MIN_FILL_SECONDS", "2")])
        .start()
        .await;
    let cookie = form_cookie(app.addr).await;
    assert_eq!(
        json_post(&app, &cookie, "quick@example.com").await.status(),
        201
    );
    tokio::time::sleep(Duration::from_millis(2_100)).await;
    assert_eq!(
        json_post(&app, &cookie, "person@example.com")
            .await
            .status(),
        201
    );
    let held = emails_and_reasons(&app).await;
    assert_eq!(
        held,
        [
            ("quick@example.com".to_owned(), Some("too_fast".to_owned())),
            ("person@example.com".to_owned(), None)
        ]
    );
    app.stop().await;
}

/// The form token cookie a response sets (`form_token=...`).
fn token_set_by(response: &reqwest::Response) -> String {
    let cookie = response.headers()["set-cookie"].to_str().unwrap();
    assert!(cookie.starts_with("form_token="), "{cookie}");
    cookie.split(';').next().unwrap().to_owned()
}

#[tokio::test]
async fn a_pages_token_serves_one_lead_from_any_address_and_any_instance() {
    let mut app = TestApp::spawn()
        .env(&[("FORM_MIN_FILL_SECONDS", "1")])
        .start()
        .await;
    let cookie = form_cookie(app.addr).await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    // The review's replay: one page view, then posts with its cookie from six addresses.
    let mut next_token = String::new();
    for n in 1..=6 {
        let response = reqwest::Client::new()
            .post(app.url("/api/quote-requests"))
            .header("cookie", &cookie)
            .header("x-forwarded-for", format!("203.0.113.{n}"))
            .json(&json!({"product": "family", "email": format!("p{n}@example.com")}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), 201, "answered as a person is");
        if n == 1 {
            next_token = token_set_by(&response);
        }
    }
    let body = "product=medicare&email=form%40example.com&website=";
    assert_eq!(app.form_post(&cookie, &[], body).await.status(), 303);
    // What the store remembers, a restarted (or another) instance knows.
    app.restart().await;
    assert_eq!(
        json_post(&app, &cookie, "after@example.com").await.status(),
        201
    );
    // The first lead's answer gave its page a token for the next quote, which a person can send.
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    assert_eq!(
        json_post(&app, &next_token, "second@example.com")
            .await
            .status(),
        201
    );
    let held = emails_and_reasons(&app).await;
    let reused = || Some("reused_token".to_owned());
    let mut expected = vec![("p1@example.com".to_owned(), None)];
    expected.extend((2..=6).map(|n| (format!("p{n}@example.com"), reused())));
    expected.extend([
        ("form@example.com".to_owned(), reused()),
        ("after@example.com".to_owned(), reused()),
        ("second@example.com".to_owned(), None),
    ]);
    assert_eq!(held, expected);
    app.stop().await;
}

async fn admin(app: &TestApp, method: reqwest::Method, path: &str, body: Option<Value>) -> Value {
    let mut request = app
        .client
        .request(method, app.url(path))
        .bearer_auth(ADMIN_TOKEN);
    if let Some(body) = body {
        request = request.json(&body);
    }
    let response = request.send().await.unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

/// `(email, status, spam_reason)` of each lead a page of the admin list holds.
fn listed(page: &Value) -> Vec<(String, String, Value)> {
    let mut leads: Vec<_> = page["quote_requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|lead| {
            (
                lead["email"].as_str().unwrap().to_owned(),
                lead["status"].as_str().unwrap().to_owned(),
                lead["spam_reason"].clone(),
            )
        })
        .collect();
    leads.sort_by(|a, b| a.0.cmp(&b.0));
    leads
}

#[tokio::test]
async fn spam_is_answered_alike_never_delivered_and_listed_apart_until_the_broker_says() {
    let receiver = Receiver::start(true).await;
    let app = TestApp::spawn()
        .leads(LeadsConfig {
            forwarding: Some(ForwardingConfig::new(receiver.url.clone(), None)),
            admin_token: Some(ADMIN_TOKEN.into()),
            ..LeadsConfig::default()
        })
        .start()
        .await;
    let person = json_post(&app, &app.form_cookie(), "person@example.com").await;
    let script = json_post(&app, "", "script@example.com").await;
    let forged = json_post(&app, "form_token=1700000000000.00ff", "forged@example.com").await;
    for response in [person, script, forged] {
        assert_eq!(response.status(), 201);
        let body: Value = response.json().await.unwrap();
        assert_eq!(body.as_object().unwrap().len(), 1, "{body}");
        assert_eq!(body["id"].as_str().unwrap().len(), 36);
    }
    let body = |email: &str| format!("product=medicare&email={email}%40example.com&website=");
    let by_form = app.form_post(&app.form_cookie(), &[], &body("form")).await;
    let by_script = app.form_post("", &[], &body("form-script")).await;
    assert_eq!(by_form.status(), 303);
    assert_eq!(by_script.status(), 303);
    for name in ["location", "set-cookie", "cache-control"] {
        assert_eq!(by_form.headers()[name], by_script.headers()[name], "{name}");
    }

    receiver.wait_for("both leads", |d| d.len() >= 2).await;
    // No other lead is on its way: nothing else was ever queued for delivery.
    let queued = "SELECT COUNT(*) FROM quote_requests WHERE queued_channels IS NOT NULL";
    assert_eq!(app.count(queued).await, 0, "every queued lead taken");
    assert_eq!(app.count("SELECT COUNT(*) FROM lead_outbox").await, 2);
    let mut delivered: Vec<String> = receiver
        .accepted()
        .iter()
        .map(|d| d.json()["email"].as_str().unwrap().to_owned())
        .collect();
    delivered.sort();
    assert_eq!(delivered, ["form@example.com", "person@example.com"]);

    let null = Value::Null;
    let spam = |reason: &str| Value::from(reason);
    let leads = admin(
        &app,
        reqwest::Method::GET,
        "/api/admin/quote-requests",
        None,
    )
    .await;
    assert_eq!(
        listed(&leads),
        [
            ("form@example.com".into(), "new".into(), null.clone()),
            ("person@example.com".into(), "new".into(), null.clone()),
        ],
        "no spam among the leads"
    );
    let path = "/api/admin/quote-requests?status=spam";
    let held = admin(&app, reqwest::Method::GET, path, None).await;
    assert_eq!(
        listed(&held),
        [
            (
                "forged@example.com".into(),
                "spam".into(),
                spam("bad_token")
            ),
            (
                "form-script@example.com".into(),
                "spam".into(),
                spam("no_token")
            ),
            ("script@example.com".into(), "spam".into(), spam("no_token")),
        ]
    );
    let id_of = |page: &Value, email: &str| {
        page["quote_requests"]
            .as_array()
            .unwrap()
            .iter()
            .find(|lead| lead["email"] == email)
            .unwrap()["id"]
            .as_str()
            .unwrap()
            .to_owned()
    };

    // "Not spam": delivered like any lead.
    let script_id = id_of(&held, "script@example.com");
    let lead_path = format!("/api/admin/quote-requests/{script_id}");
    let changed = admin(
        &app,
        reqwest::Method::PATCH,
        &lead_path,
        Some(json!({"status": "new"})),
    )
    .await;
    assert_eq!(
        (&changed["status"], &changed["spam_reason"]),
        (&json!("new"), &null)
    );
    receiver
        .wait_for("the lead that was not spam", |d| {
            d.iter().any(|d| d.json()["email"] == "script@example.com")
        })
        .await;

    // A lead the broker marks spam is listed there.
    let person_id = id_of(&leads, "person@example.com");
    let lead_path = format!("/api/admin/quote-requests/{person_id}");
    let marked = admin(
        &app,
        reqwest::Method::PATCH,
        &lead_path,
        Some(json!({"status": "spam"})),
    )
    .await;
    assert_eq!(
        (&marked["status"], &marked["spam_reason"]),
        (&json!("spam"), &spam("marked"))
    );
    let held = admin(&app, reqwest::Method::GET, path, None).await;
    assert!(listed(&held)
        .iter()
        .any(|(email, _, _)| email == "person@example.com"));
    assert_eq!(receiver.accepted().len(), 3, "nothing more went out");
    app.stop().await;
}
