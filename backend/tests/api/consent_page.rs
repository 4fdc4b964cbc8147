//! "Ask for written consent": the admin route e-mails the visitor (through a real SMTP server,
//! `common/smtp.rs`) the consent page's link in their language; the page shows the exact text
//! and an unticked box, and a post with the box ticked makes the lead's permission written, a
//! record of its own in the consent chain that `records verify` passes. What is refused: the box
//! unticked, a link changed or expired, a post from another site, a lead already written or
//! without a number, e-mail off or failing.

use std::time::Duration;

use backend::leads::consent_link::ConsentLinks;
use backend::store::{self, DatabaseUrl};
use serde_json::{json, Value};

use crate::callable_leads::{app_with, DISCLOSURE, DISCLOSURE_ES};
use crate::common::broker::{admin, created, lead, TOKEN};
use crate::common::postgres::on_both_databases;
use crate::common::smtp::{Mail, SmtpServer};
use crate::common::{no_redirects, TestApp, FORM};
use crate::consent_records::head;

const BROWSER: &str = "Mozilla/5.0 (iPhone) Safari/605.1";

async fn app_on(smtp: &SmtpServer, database: Option<DatabaseUrl>) -> TestApp {
    let env = smtp.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    app_with(database, None, &env).await
}

/// The broker's "Ask for written consent" on lead `id`.
async fn ask(app: &TestApp, id: &str) -> reqwest::Response {
    app.client
        .post(app.url(&format!("/api/admin/quote-requests/{id}/consent-request")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
}

async fn refused(app: &TestApp, id: &str, status: u16, code: &str) {
    let response = ask(app, id).await;
    assert_eq!(response.status(), status, "{id}");
    let body: Value = response.json().await.unwrap();
    assert_eq!(body["code"], code, "{body}");
    assert!(!body["message"].as_str().unwrap().is_empty());
}

/// The e-mail to `to`, waited for.
async fn mail_to(smtp: &SmtpServer, to: &str) -> Mail {
    let mails = smtp
        .wait_for(to, |mails| {
            mails.iter().any(|m| m.rcpt_tos.iter().any(|r| r == to))
        })
        .await;
    mails
        .into_iter()
        .find(|m| m.rcpt_tos.iter().any(|r| r == to))
        .unwrap()
}

/// The consent page's path in `mail`'s text (a line of its own, under `SITE_URL`).
fn link_in(mail: &Mail) -> String {
    let line = mail.line_with("/consent/");
    let url: reqwest::Url = line.trim().parse().unwrap();
    assert!(
        mail.html().contains(&format!("href=\"{url}\"")),
        "{}",
        mail.html()
    );
    url.path().to_owned()
}

async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

/// The browser's form post from the page itself (`Sec-Fetch-Site: same-origin`).
async fn post(app: &TestApp, path: &str, body: &str, fetch_site: &str) -> (u16, String) {
    let response = no_redirects()
        .post(app.url(path))
        .header("content-type", FORM)
        .header("sec-fetch-site", fetch_site)
        .header("user-agent", BROWSER)
        .body(body.to_owned())
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.text().await.unwrap())
}

async fn records_of(app: &TestApp, phone: &str) -> Vec<Value> {
    let path = format!(
        "/api/admin/consent-records?phone={}",
        phone.replace('+', "%2B")
    );
    admin(app, &path).await["consent_records"]
        .as_array()
        .unwrap()
        .clone()
}

async fn written_consent_by_the_page(database: Option<DatabaseUrl>) {
    let smtp = SmtpServer::plain();
    let app = app_on(&smtp, database.clone()).await;
    let ana = created(
        &app,
        json!({"product": "medicare", "email": "ana@example.com", "phone": "(555) 555-0123",
               "may_call": false, "zip": "60601"}),
    )
    .await;
    assert_eq!(lead(&app, &ana).await["call_consent"], Value::Null);

    let response = ask(&app, &ana).await;
    assert_eq!(response.status(), 200);
    let sent: Value = response.json().await.unwrap();
    assert_eq!(sent["sent_to"], "ana@example.com");
    assert_eq!(sent["language"], "en");
    assert!(
        sent["expires_at"].as_str().unwrap().ends_with('Z'),
        "{sent}"
    );
    let mail = mail_to(&smtp, "ana@example.com").await;
    assert_eq!(mail.rcpt_tos, ["ana@example.com"], "to the visitor only");
    assert!(mail.text().contains(DISCLOSURE), "{}", mail.text());
    assert!(mail.text().contains("ending in 0123"));
    assert!(!mail.text().contains("5550123"), "the number is masked");
    let path = link_in(&mail);
    assert!(path.starts_with("/consent/"), "{path}");
    assert!(!path.contains("ana") && !path.contains("5550123"), "{path}");

    // The page: the exact text, the number's last digits, an unticked box.
    let (status, html) = page(&app, &path).await;
    assert_eq!(status, 200, "{html}");
    assert!(
        html.contains(&format!("<span data-consent-text>{DISCLOSURE}</span>")),
        "{html}"
    );
    assert!(html.contains("ending in 0123"));
    assert!(html.contains("type=\"checkbox\" name=\"agree\" value=\"yes\">"));
    assert!(!html.contains("checked"));

    // Refused, and nothing recorded: the box unticked, a post from another site, a changed
    // link, an expired one.
    let (status, html) = post(&app, &path, "", "same-origin").await;
    assert_eq!(status, 422);
    assert!(html.contains("Tick the box to agree"), "{html}");
    let (status, html) = post(&app, &path, "agree=yes", "cross-site").await;
    assert_eq!(status, 403);
    assert!(html.contains("another website"), "{html}");
    let flipped = if path.ends_with('0') { '1' } else { '0' };
    let tampered = format!("{}{flipped}", &path[..path.len() - 1]);
    let (status, html) = post(&app, &tampered, "agree=yes", "same-origin").await;
    assert_eq!(status, 404);
    assert!(html.contains("This link does not work"), "{html}");
    let expired = {
        let store = store::open(&app.database).await.unwrap();
        let links = ConsentLinks::load(store.as_ref()).await.unwrap();
        store.close().await;
        let then = time::OffsetDateTime::now_utc() - Duration::from_secs(31 * 24 * 60 * 60);
        links.issue(&ana, then).0
    };
    let (status, html) = post(
        &app,
        &format!("/consent/{expired}"),
        "agree=yes",
        "same-origin",
    )
    .await;
    assert_eq!(status, 410);
    assert!(html.contains("This link has expired"), "{html}");
    assert_eq!(lead(&app, &ana).await["call_consent"], Value::Null);
    assert_eq!(records_of(&app, "+15555550123").await.len(), 1);

    // The box ticked: written, a record of its own, the chain whole.
    let (status, html) = post(&app, &path, "agree=yes", "same-origin").await;
    assert_eq!(status, 200);
    assert!(html.contains("your permission is recorded"), "{html}");
    let shown = lead(&app, &ana).await;
    assert_eq!(shown["call_consent"], "written");
    assert_eq!(shown["may_call"], true);
    assert_eq!(shown["written_later"]["channel"], "consent_page");
    let records = records_of(&app, "+15555550123").await;
    let given = records
        .iter()
        .find(|r| r["link"]["kind"] == "call_consent")
        .unwrap_or_else(|| panic!("a call_consent record: {records:?}"));
    assert_eq!(given["link"]["channel"], "consent_page");
    assert_eq!(given["link"]["page"], "/consent");
    assert_eq!(given["link"]["user_agent"], BROWSER);
    assert_eq!(given["link"]["client"], "127.0.0.1");
    assert_eq!(given["link"]["language"], "en");
    head(&app.database);

    // Given once: the page and the admin route say so.
    let (status, html) = post(&app, &path, "agree=yes", "same-origin").await;
    assert_eq!(status, 200);
    assert!(html.contains("already given"), "{html}");
    assert!(page(&app, &path).await.1.contains("already given"));
    refused(&app, &ana, 409, "consent_already_written").await;
    assert_eq!(records_of(&app, "+15555550123").await.len(), 2);

    // A Spanish lead is asked in Spanish, on the Spanish page.
    let bea = created(
        &app,
        json!({"product": "family", "email": "bea@example.com", "phone": "555 555 0199",
               "zip": "60601", "lang": "es"}),
    )
    .await;
    assert_eq!(ask(&app, &bea).await.status(), 200);
    let mail = mail_to(&smtp, "bea@example.com").await;
    assert!(
        mail.one("Subject").contains("cotización"),
        "{}",
        mail.one("Subject")
    );
    assert!(mail.text().contains(DISCLOSURE_ES));
    let path = link_in(&mail);
    assert!(path.starts_with("/es/consent/"), "{path}");
    let (status, html) = page(&app, &path).await;
    assert_eq!(status, 200);
    assert!(html.contains("lang=\"es\""));
    assert!(
        html.contains(&format!("<span data-consent-text>{DISCLOSURE_ES}</span>")),
        "{html}"
    );
    let (status, html) = post(&app, &path, "", "same-origin").await;
    assert_eq!(status, 422);
    assert!(html.contains("Marque la casilla para aceptar"), "{html}");
    let (status, _) = post(&app, &path, "agree=yes", "same-origin").await;
    assert_eq!(status, 200);
    assert_eq!(lead(&app, &bea).await["call_consent"], "written");
    head(&app.database);

    // Nothing to ask: no number; no such lead.
    let cy = created(
        &app,
        json!({"product": "family", "email": "cy@example.com", "zip": "60601"}),
    )
    .await;
    refused(&app, &cy, 409, "consent_not_askable").await;
    refused(
        &app,
        "0195f0a4-0000-7000-8000-000000000000",
        404,
        "not_found",
    )
    .await;
    app.stop().await;
}

on_both_databases!(written_consent_by_the_page);

/// Nothing is lost: the broker hears that the e-mail did not go, and why.
#[tokio::test]
async fn an_email_that_cannot_go_is_the_brokers_clear_error() {
    let mut smtp = SmtpServer::plain();
    let app = app_on(&smtp, None).await;
    let ana = created(
        &app,
        json!({"product": "medicare", "email": "ana@example.com", "phone": "(555) 555-0123",
               "zip": "60601"}),
    )
    .await;
    smtp.reply_with(Some("550 5.7.1 Refused by the test"));
    refused(&app, &ana, 502, "email_refused").await;
    smtp.reply_with(None);
    smtp.stop();
    refused(&app, &ana, 503, "email_not_sent").await;
    app.stop().await;
    let off = app_with(None, None, &[]).await;
    let bea = created(
        &off,
        json!({"product": "medicare", "email": "bea@example.com", "phone": "(555) 555-0199",
               "zip": "60601"}),
    )
    .await;
    refused(&off, &bea, 503, "email_not_configured").await;
    off.stop().await;
}
