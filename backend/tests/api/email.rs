//! An e-mail per lead, and one after each call, through the outbox to a real SMTP server
//! (python3-aiosmtpd, `common/smtp.rs`): what goes over the wire, STARTTLS and AUTH, outages,
//! 451 and 550 replies, restarts, hostile text, bounded connections, and PostgreSQL.

use std::collections::{HashMap, HashSet};
use std::time::Duration;

use backend::settings::email::DEFAULT_MAX_CONNECTIONS as MAX_CONNECTIONS;
use backend::settings::leads::RetryPolicy;
use backend::store::{Channel, DatabaseUrl, Delivery, DeliveryStatus, StoredQuote};
use serde_json::{json, Value};

use crate::common::postgres::TestDatabase;
use crate::common::smtp::{Mail, SmtpOptions, SmtpServer, FROM_DOMAIN, TO_ADDRESSES};
use crate::common::voice::{one_quote, post_voice_event};
use crate::common::TestApp;

const SECRET: &str = "vapi-secret-0123456789abcdef0123456789";
const TOKEN: &str = "admin-token-for-the-email-tests-0123456789";
const BROWSER: &str = "Mozilla/5.0 (X11; Linux x86_64) Chrome/131.0";

fn fast_retry() -> RetryPolicy {
    RetryPolicy {
        give_up_after: Duration::from_secs(24 * 60 * 60),
        first: Duration::from_millis(20),
        longest: Duration::from_millis(200),
    }
}

/// The application sending every lead through `smtp`, with the voice events on; the site's
/// e-mail budget is out of the way but for the tests of it.
async fn app_on(smtp: &SmtpServer, database: Option<DatabaseUrl>) -> TestApp {
    app_with_budget(smtp, database, 100_000).await
}

async fn app_with_budget(
    smtp: &SmtpServer,
    database: Option<DatabaseUrl>,
    max_per_hour: u32,
) -> TestApp {
    let mut env = smtp.env();
    env.push(("LEAD_EMAIL_MAX_PER_HOUR".into(), max_per_hour.to_string()));
    env.push(("VAPI_WEBHOOK_SECRET".into(), SECRET.into()));
    env.push(("ADMIN_TOKEN".into(), TOKEN.into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut spawn = TestApp::spawn()
        .env(&env)
        .configure(|config| config.leads.retry = fast_retry());
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    spawn.start().await
}

async fn app(smtp: &SmtpServer) -> TestApp {
    app_on(smtp, None).await
}

/// Posts a quote from the form; its id.
async fn post(app: &TestApp, product: &str, email: &str) -> String {
    let response = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("user-agent", BROWSER)
        .json(&json!({"product": product, "email": email}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    response.json::<Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

fn message_id(lead_id: &str) -> String {
    format!("<{lead_id}@{FROM_DOMAIN}>")
}

fn email_delivery(row: &StoredQuote) -> Option<&Delivery> {
    row.delivery_on(Channel::Email)
}

fn by_message_id(messages: &[Mail]) -> HashMap<String, Mail> {
    messages
        .iter()
        .map(|m| (m.one("Message-ID").to_owned(), m.clone()))
        .collect()
}

/// A voice call in which one quote is asked for, then its end-of-call report.
async fn voice_call(app: &TestApp, call_id: &str, email: &str, report: Value) {
    let quote = one_quote(call_id, "medicare", email);
    let response = post_voice_event(app, Some(SECRET), &quote).await;
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    assert!(body["results"][0]["result"].is_string(), "{body}");
    let mut report = report;
    report["message"]["type"] = json!("end-of-call-report");
    report["message"]["call"] = json!({"id": call_id});
    assert_eq!(
        post_voice_event(app, Some(SECRET), &report).await.status(),
        200
    );
}

/// Every recipient once, the sender's address as the envelope's.
fn assert_envelope(mail: &Mail) {
    let mut recipients = mail.rcpt_tos.clone();
    recipients.sort();
    let mut expected = TO_ADDRESSES.map(str::to_owned).to_vec();
    expected.sort();
    assert_eq!(recipients, expected, "{}", mail.raw);
    assert_eq!(mail.mail_from, "quotes@broker.example");
}

#[tokio::test]
async fn a_web_and_a_voice_lead_each_reach_both_recipients_and_the_call_follows_up() {
    let smtp = SmtpServer::plain();
    let app = app(&smtp).await;
    let web_id = post(&app, "family", "ana@example.com").await;
    voice_call(
        &app,
        "call-7",
        "bo@example.com",
        json!({"message": {
            "endedReason": "customer-ended-call",
            "analysis": {"summary": "Wants Medicare for a parent."},
            "artifact": {"transcript": "AI: Hello.\nUser: Medicare, please.",
                         "recordingUrl": "https://storage.example.com/call-7.wav"}
        }}),
    )
    .await;
    let messages = smtp.wait_for("three messages", |m| m.len() >= 3).await;
    let rows = app.rows().await;
    let voice_id = rows
        .iter()
        .find(|r| r.call_id.is_some())
        .unwrap()
        .id
        .clone();
    let by_id = by_message_id(&messages);
    assert_eq!(by_id.len(), 3, "three distinct messages");

    let web = &by_id[&message_id(&web_id)];
    assert_envelope(web);
    assert_eq!(web.one("Subject"), "New quote request: Family Health (web)");
    assert_eq!(web.one("Reply-To"), "ana@example.com");
    assert_eq!(web.one("From"), "Quotes <quotes@broker.example>");
    assert_eq!(
        web.one("To"),
        "broker@example.com, Ana Agent <agent@example.com>"
    );
    assert!(web.one("Date").ends_with("+0000"), "{}", web.one("Date"));
    for part in [web.text(), web.html()] {
        for expected in [
            "Family Health",
            "ana@example.com",
            "web",
            " UTC",
            web_id.as_str(),
            BROWSER,
        ] {
            assert!(part.contains(expected), "{expected} in {part}");
        }
    }

    let voice = &by_id[&message_id(&voice_id)];
    assert_envelope(voice);
    assert_eq!(voice.one("Subject"), "New quote request: Medicare (voice)");
    assert_eq!(voice.one("Reply-To"), "bo@example.com");
    assert!(voice.text().contains("Call id: call-7"), "{}", voice.text());
    assert!(voice.html().contains("call-7"));

    let follow_up = &by_id[&format!("<{voice_id}.call@{FROM_DOMAIN}>")];
    assert_envelope(follow_up);
    assert_eq!(
        follow_up.one("Subject"),
        "Re: New quote request: Medicare (voice)"
    );
    assert_eq!(follow_up.one("In-Reply-To"), message_id(&voice_id));
    assert_eq!(follow_up.one("References"), message_id(&voice_id));
    assert_eq!(follow_up.one("Reply-To"), "bo@example.com");
    let text = follow_up.text().replace("\r\n", "\n");
    for expected in [
        "Ended: The caller hung up",
        "Wants Medicare for a parent.",
        "AI: Hello.\nUser: Medicare, please.",
        "Recording: https://storage.example.com/call-7.wav",
    ] {
        assert!(text.contains(expected), "{expected} in {text}");
    }
    assert!(follow_up
        .html()
        .contains("<a href=\"https://storage.example.com/call-7.wav\">"));

    let rows = app
        .wait_for_rows("every e-mail recorded as delivered", |rows| {
            rows.iter()
                .all(|r| email_delivery(r).is_some_and(|d| d.status == DeliveryStatus::Delivered))
        })
        .await;
    let voice_row = rows.iter().find(|r| r.id == voice_id).unwrap();
    app.wait_for_rows("the follow-up recorded", |rows| {
        rows.iter().any(|r| {
            r.delivery_on(Channel::FollowUp)
                .is_some_and(|d| d.status == DeliveryStatus::Delivered && d.attempts == 1)
        })
    })
    .await;
    assert_eq!(
        voice_row.delivery_on(Channel::Webhook),
        None,
        "no webhook set"
    );
    assert_eq!(smtp.messages().len(), 3, "each once");
    app.stop().await;
}

#[tokio::test]
async fn the_lead_links_to_its_inbox_page_in_the_brokers_time_zone_with_the_ids_last() {
    let smtp = SmtpServer::plain();
    let mut env = smtp.env();
    env.push(("SITE_URL".into(), "https://quotes.example.com".into()));
    env.push(("LEAD_TIME_ZONE".into(), "America/New_York".into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn().env(&env).start().await;
    let id = post(&app, "family", "ana@example.com").await;
    let messages = smtp.wait_for("the lead's e-mail", |m| !m.is_empty()).await;
    let created_at = app.rows().await[0].created_at;
    let received = format!(
        "Received: {}",
        jiff::Timestamp::from_second(created_at.unix_timestamp())
            .unwrap()
            .in_tz("America/New_York")
            .unwrap()
            .strftime("%Y-%m-%d %H:%M:%S %Z")
    );
    assert!(
        received.ends_with("ST") || received.ends_with("DT"),
        "{received}"
    );
    let link = format!("https://quotes.example.com/admin#lead/{id}");
    let text = messages[0].text().replace("\r\n", "\n");
    assert!(text.contains(&received), "{received} in {text}");
    let at = |needle: &str| {
        text.find(needle)
            .unwrap_or_else(|| panic!("{needle} in {text}"))
    };
    assert!(at(&link) < at(BROWSER), "the link before the noise: {text}");
    assert!(at("Reply to this message") < at(BROWSER), "{text}");
    assert!(
        text.trim_end().ends_with(&format!("Lead id: {id}")),
        "{text}"
    );
    assert!(
        messages[0].html().contains(&format!("<a href=\"{link}\">")),
        "{}",
        messages[0].html()
    );
    app.stop().await;
}

#[tokio::test]
async fn starttls_and_tls_with_a_trusted_self_signed_certificate_and_auth() {
    for implicit_tls in [false, true] {
        let smtp = SmtpServer::start(SmtpOptions {
            tls: true,
            implicit_tls,
            auth: Some(("quotes".into(), "s3cret-pass".into())),
        });
        let app = app(&smtp).await;
        let id = post(&app, "employer", "team@example.com").await;
        let over = if implicit_tls {
            "TLS (smtps)"
        } else {
            "STARTTLS"
        };
        let messages = smtp
            .wait_for(&format!("the message over {over}"), |m| !m.is_empty())
            .await;
        assert_eq!(messages[0].one("Message-ID"), message_id(&id));
        assert_envelope(&messages[0]);
        app.stop().await;
    }
}

#[tokio::test]
async fn a_wrong_password_is_undelivered_and_the_password_is_never_shown() {
    let smtp = SmtpServer::start(SmtpOptions {
        tls: true,
        auth: Some(("quotes".into(), "right".into())),
        ..SmtpOptions::default()
    });
    let mut env = smtp.env();
    env[0].1 = env[0].1.replace(":right@", ":wrong-hunter2@");
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn()
        .env(&env)
        .configure(|config| config.leads.retry = fast_retry())
        .start()
        .await;
    post(&app, "family", "ana@example.com").await;
    let rows = app
        .wait_for_rows("the refusal", |rows| {
            email_delivery(&rows[0]).is_some_and(|d| d.status == DeliveryStatus::Undelivered)
        })
        .await;
    let error = email_delivery(&rows[0])
        .unwrap()
        .last_error
        .clone()
        .unwrap();
    assert!(error.contains("535"), "{error}");
    assert!(!error.contains("hunter2"), "{error}");
    assert!(smtp.messages().is_empty());
    app.stop().await;
}

#[tokio::test]
async fn every_lead_posted_while_the_server_is_down_arrives_once_it_is_back() {
    let mut smtp = SmtpServer::plain();
    smtp.stop();
    let app = app(&smtp).await;
    let mut ids = HashSet::new();
    for i in 0..20 {
        ids.insert(post(&app, "individual", &format!("down{i}@example.com")).await);
    }
    let rows = app
        .wait_for_rows("failed attempts", |rows| {
            rows.iter()
                .all(|r| email_delivery(r).is_some_and(|d| d.attempts >= 2))
        })
        .await;
    let delivery = email_delivery(&rows[0]).unwrap();
    assert_eq!(delivery.status, DeliveryStatus::Pending);
    assert!(
        delivery
            .last_error
            .as_deref()
            .is_some_and(|e| e.to_lowercase().contains("refused")),
        "{delivery:?}"
    );
    smtp.resume();
    let messages = smtp
        .wait_for("all 20 after the outage", |m| m.len() >= 20)
        .await;
    let got: HashSet<String> = messages
        .iter()
        .map(|m| m.one("Message-ID").to_owned())
        .collect();
    assert_eq!(got, ids.iter().map(|id| message_id(id)).collect());
    app.wait_for_rows("all delivered", |rows| {
        rows.iter()
            .all(|r| email_delivery(r).is_some_and(|d| d.status == DeliveryStatus::Delivered))
    })
    .await;
    assert_eq!(smtp.messages().len(), 20, "none twice");
    app.stop().await;
}

#[tokio::test]
async fn a_451_reply_is_retried_until_accepted() {
    let smtp = SmtpServer::plain();
    smtp.reply_with(Some("451 4.3.0 Mailbox busy, try later"));
    let app = app(&smtp).await;
    let id = post(&app, "medicaid", "cy@example.com").await;
    let rows = app
        .wait_for_rows("retries", |rows| {
            email_delivery(&rows[0]).is_some_and(|d| d.attempts >= 3)
        })
        .await;
    let delivery = email_delivery(&rows[0]).unwrap();
    assert_eq!(delivery.status, DeliveryStatus::Pending);
    let error = delivery.last_error.as_deref().unwrap();
    assert!(
        error.contains("451") && error.contains("Mailbox busy, try later"),
        "{error}"
    );
    smtp.reply_with(None);
    let messages = smtp.wait_for("the message", |m| !m.is_empty()).await;
    assert_eq!(messages[0].one("Message-ID"), message_id(&id));
    app.wait_for_rows("delivered", |rows| {
        email_delivery(&rows[0]).is_some_and(|d| d.status == DeliveryStatus::Delivered)
    })
    .await;
    app.stop().await;
}

#[tokio::test]
async fn a_550_reply_is_undelivered_with_the_servers_text_and_never_retried() {
    let smtp = SmtpServer::plain();
    smtp.reply_with(Some("550 5.7.1 Not accepted here"));
    let app = app(&smtp).await;
    let refused = post(&app, "family", "dee@example.com").await;
    let rows = app
        .wait_for_rows("the refusal", |rows| {
            email_delivery(&rows[0]).is_some_and(|d| d.status == DeliveryStatus::Undelivered)
        })
        .await;
    let delivery = email_delivery(&rows[0]).unwrap();
    assert_eq!(delivery.attempts, 1, "not retried");
    let error = delivery.last_error.as_deref().unwrap();
    assert!(
        error.contains("550") && error.contains("Not accepted here"),
        "{error}"
    );
    // A lead after the refusal goes out; by then a retry of the first would have too.
    smtp.reply_with(None);
    let later = post(&app, "family", "eve@example.com").await;
    let messages = smtp.wait_for("the later lead", |m| !m.is_empty()).await;
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].one("Message-ID"), message_id(&later));
    let rows = app.rows().await;
    let first = rows.iter().find(|r| r.id == refused).unwrap();
    assert_eq!(email_delivery(first).unwrap().attempts, 1);

    // Each channel's state in the admin API, JSON and CSV.
    let admin = |query: &'static str| {
        app.client
            .get(app.url(&format!("/api/admin/quote-requests{query}")))
            .bearer_auth(TOKEN)
            .send()
    };
    let page: Value = admin("").await.unwrap().json().await.unwrap();
    let row = page["quote_requests"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == refused.as_str())
        .unwrap();
    assert_eq!(row["delivery"]["email"]["status"], "undelivered");
    assert_eq!(row["delivery"]["email"]["attempts"], 1);
    assert!(row["delivery"]["email"]["last_error"]
        .as_str()
        .unwrap()
        .contains("Not accepted here"));
    assert_eq!(row["delivery"]["webhook"], Value::Null);
    assert_eq!(row["delivery"]["follow_up"], Value::Null);
    let csv = admin("?format=csv").await.unwrap().text().await.unwrap();
    let header = csv.lines().next().unwrap();
    assert!(
        header.ends_with(r#""email_delivery","email_delivery_attempts","email_delivery_last_error","email_delivery_delivered_at","follow_up_delivery","follow_up_delivery_attempts","follow_up_delivery_last_error","follow_up_delivery_delivered_at","spam_reason","note","language","consent_channel","consent_notice_sha256","consent_notice","phone","may_call","call_consent","zip","state","licensed","written_later_channel","written_later_at""#),
        "{header}"
    );
    let line = csv.lines().find(|l| l.contains(&refused)).unwrap();
    assert!(
        line.contains(r#","undelivered","1","permanent error (550)"#),
        "{line}"
    );
    app.stop().await;
}

#[tokio::test]
async fn an_email_failing_past_the_give_up_time_is_undelivered_and_left_alone() {
    let mut smtp = SmtpServer::plain();
    smtp.stop();
    let app = app(&smtp).await;
    post(&app, "family", "late@example.com").await;
    app.wait_for_rows("a retry", |rows| {
        email_delivery(&rows[0]).is_some_and(|d| d.attempts >= 2)
    })
    .await;
    // Its give-up time (a day from coming in) is past once it came in two days ago: the next
    // attempt gives up, however long the first ones took on a busy machine.
    let two_days_ago =
        backend::store::format_timestamp(time::OffsetDateTime::now_utc() - time::Duration::days(2));
    app.sql(&format!(
        "UPDATE quote_requests SET created_at = '{two_days_ago}'"
    ))
    .await;
    let rows = app
        .wait_for_rows("giving up", |rows| {
            email_delivery(&rows[0]).is_some_and(|d| d.status == DeliveryStatus::Undelivered)
        })
        .await;
    let delivery = email_delivery(&rows[0]).unwrap();
    assert!(delivery.attempts >= 2, "retried first: {delivery:?}");
    assert!(
        delivery
            .last_error
            .as_deref()
            .is_some_and(|e| e.to_lowercase().contains("refused")),
        "{delivery:?}"
    );
    // A lead after the server is back goes out; by then the given-up one would have too.
    let attempts = delivery.attempts;
    smtp.resume();
    let next = post(&app, "family", "next@example.com").await;
    let messages = smtp.wait_for("the next lead", |m| !m.is_empty()).await;
    assert_eq!(messages.len(), 1);
    assert_eq!(messages[0].one("Message-ID"), message_id(&next));
    let rows = app.rows().await;
    let given_up = rows.iter().find(|r| r.id != next).unwrap();
    assert_eq!(email_delivery(given_up).unwrap().attempts, attempts);
    app.stop().await;
}

#[tokio::test]
async fn pending_emails_go_out_after_a_restart() {
    let mut smtp = SmtpServer::plain();
    smtp.stop();
    let mut app = app(&smtp).await;
    let mut ids = HashSet::new();
    for i in 0..3 {
        ids.insert(post(&app, "family", &format!("r{i}@example.com")).await);
    }
    app.wait_for_rows("retries under way", |rows| {
        rows.iter()
            .all(|r| email_delivery(r).is_some_and(|d| d.attempts >= 1))
    })
    .await;
    app.restart().await;
    smtp.resume();
    let messages = smtp.wait_for("all three", |m| m.len() >= 3).await;
    let got: HashSet<String> = messages
        .iter()
        .map(|m| m.one("Message-ID").to_owned())
        .collect();
    assert_eq!(got, ids.iter().map(|id| message_id(id)).collect());
    app.stop().await;
}

#[tokio::test]
async fn visitor_and_provider_text_cannot_add_or_change_a_header() {
    let smtp = SmtpServer::plain();
    let app = app(&smtp).await;
    let punctuation = "o'brien+x{1}!#$%&*/=?^_`|~-@example.com";
    let response = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("user-agent", "Bot Bcc: evil@example.com Subject: hacked")
        .json(&json!({"product": "family", "email": punctuation}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let injected = "\r\nBcc: evil@example.com\r\nSubject: hacked\r\n\r\n.\r\nX-Injected: 1";
    voice_call(
        &app,
        "call\r\nBcc: evil@example.com",
        "o'brien+x{1}@example.com",
        json!({"message": {
            "endedReason": format!("hangup{injected}"),
            "analysis": {"summary": format!("Summary{injected}")},
            "artifact": {"transcript": format!("AI: Hi{injected}"),
                         "recordingUrl": format!("https://r.example.com/x{injected}")}
        }}),
    )
    .await;
    let messages = smtp.wait_for("three messages", |m| m.len() >= 3).await;
    for mail in &messages {
        assert_envelope(mail);
        let names: HashSet<String> = mail
            .headers
            .iter()
            .map(|(n, _)| n.to_ascii_lowercase())
            .collect();
        assert!(
            !names.contains("bcc") && !names.contains("x-injected"),
            "{}",
            mail.raw
        );
        assert!(
            mail.one("Subject").starts_with("New quote request: ")
                || mail.one("Subject").starts_with("Re: New quote request: ")
        );
        assert!(!mail.one("Subject").contains("hacked"));
        assert_eq!(mail.header("Reply-To").len(), 1);
    }
    let replies: HashSet<&str> = messages.iter().map(|m| m.one("Reply-To")).collect();
    assert_eq!(
        replies,
        HashSet::from([punctuation, "o'brien+x{1}@example.com"])
    );
    let follow_up = messages
        .iter()
        .find(|m| !m.header("In-Reply-To").is_empty())
        .unwrap();
    let text = follow_up.text().replace("\r\n", "\n");
    assert!(
        text.contains("Summary\nBcc: evil@example.com\nSubject: hacked"),
        "{text}"
    );
    assert!(follow_up.html().contains("Bcc: evil@example.com"));
    app.stop().await;
}

#[tokio::test]
async fn nothing_is_sent_for_spam_a_refused_post_or_a_replay() {
    let smtp = SmtpServer::plain();
    let app = app(&smtp).await;
    let honeypot = app
        .post_json(r#"{"product":"family","email":"bot@example.com","website":"http://spam"}"#)
        .await;
    assert_eq!(honeypot.status(), 201);
    let refused = app
        .post_json(r#"{"product":"dental","email":"x@example.com"}"#)
        .await;
    assert_eq!(refused.status(), 422);
    let keyed = || {
        app.client
            .post(app.url("/api/quote-requests"))
            .header("idempotency-key", "k-1")
            .json(&json!({"product": "family", "email": "keyed@example.com"}))
            .send()
    };
    let first = keyed().await.unwrap();
    assert_eq!(first.status(), 201);
    let replay = keyed().await.unwrap();
    assert_eq!(replay.status(), 201);
    let last = post(&app, "medicare", "last@example.com").await;
    // Only the keyed post and the last one stored a lead, so only they have an e-mail to send;
    // the honeypot's is kept as spam, with none.
    let rows = app.rows().await;
    assert_eq!(rows.len(), 3, "{rows:?}");
    let (spam, rows): (Vec<_>, Vec<_>) = rows.into_iter().partition(|r| r.spam_reason.is_some());
    assert_eq!(spam[0].email, "bot@example.com");
    assert!(email_delivery(&spam[0]).is_none());
    assert!(rows.iter().all(|r| email_delivery(r).is_some()));
    let keyed_id = rows.iter().find(|r| r.id != last).unwrap().id.clone();
    let messages = smtp
        .wait_for("both messages", |m| {
            let ids: HashSet<&str> = m.iter().map(|m| m.one("Message-ID")).collect();
            ids.contains(message_id(&last).as_str()) && ids.contains(message_id(&keyed_id).as_str())
        })
        .await;
    app.wait_for_rows("both recorded", |rows| {
        rows.iter()
            .filter(|r| r.spam_reason.is_none())
            .all(|r| email_delivery(r).is_some_and(|d| d.status == DeliveryStatus::Delivered))
    })
    .await;
    let mut to: Vec<&str> = messages.iter().map(|m| m.one("Reply-To")).collect();
    to.sort();
    assert_eq!(to, ["keyed@example.com", "last@example.com"]);
    assert_eq!(smtp.messages().len(), 2);
    app.stop().await;
}

#[tokio::test]
async fn a_burst_of_leads_goes_out_over_a_bounded_number_of_connections() {
    let smtp = SmtpServer::plain();
    let app = app(&smtp).await;
    let before = smtp.stats();
    let emails: Vec<_> = (0..200).map(|i| format!("burst{i}@example.com")).collect();
    let ids: HashSet<String> =
        futures_util::future::join_all(emails.iter().map(|e| post(&app, "family", e)))
            .await
            .into_iter()
            .collect();
    let messages = smtp.wait_for("all 200", |m| m.len() >= 200).await;
    let got: HashSet<String> = messages
        .iter()
        .map(|m| m.one("Message-ID").to_owned())
        .collect();
    assert_eq!(got, ids.iter().map(|id| message_id(id)).collect());
    // At most MAX_CONNECTIONS sends at once; lettre hands a finished connection back to its pool
    // in a task of its own, so for a moment one more may be opening while another is returning.
    let stats = smtp.stats();
    assert!(
        stats.most_open <= 2 * MAX_CONNECTIONS,
        "bounded at once: {stats:?}"
    );
    assert!(
        stats.connections - before.connections <= 4 * MAX_CONNECTIONS,
        "connections are reused, not one per lead: {stats:?}"
    );
    app.stop().await;
}

/// On PostgreSQL: a web and a voice lead with its follow-up, an outage, and a restart.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_every_lead_and_follow_up_arrives_through_an_outage_and_a_restart() {
    let database = TestDatabase::create().await;
    let mut smtp = SmtpServer::plain();
    let mut app = app_on(&smtp, Some(DatabaseUrl::Postgres(database.url.clone()))).await;
    let web = post(&app, "family", "ana@example.com").await;
    voice_call(
        &app,
        "pg-call",
        "bo@example.com",
        json!({"message": {"endedReason": "customer-ended-call",
            "analysis": {"summary": "Medicare."}, "artifact": {"recordingUrl": "https://r.example.com/1"}}}),
    )
    .await;
    let messages = smtp.wait_for("three messages", |m| m.len() >= 3).await;
    let follow_up = messages
        .iter()
        .find(|m| !m.header("In-Reply-To").is_empty())
        .unwrap();
    assert!(follow_up
        .text()
        .contains("Recording: https://r.example.com/1"));
    assert!(messages
        .iter()
        .any(|m| m.one("Message-ID") == message_id(&web)));

    smtp.stop();
    let mut ids = HashSet::new();
    for i in 0..10 {
        ids.insert(post(&app, "individual", &format!("pg{i}@example.com")).await);
    }
    app.wait_for_rows("failed attempts", |rows| {
        rows.iter()
            .filter(|r| ids.contains(&r.id))
            .all(|r| email_delivery(r).is_some_and(|d| d.attempts >= 1))
    })
    .await;
    app.restart().await;
    smtp.resume();
    // The server's files outlive its process, so the count goes on from three.
    let messages = smtp
        .wait_for("the ten after the outage", |m| m.len() >= 13)
        .await;
    let got: HashSet<String> = messages
        .iter()
        .map(|m| m.one("Message-ID").to_owned())
        .collect();
    assert!(ids.iter().all(|id| got.contains(&message_id(id))));
    app.stop().await;
    database.drop().await;
}

/// On PostgreSQL, two instances sharing one database: each lead's e-mail goes out once.
#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_two_instances_send_each_lead_once() {
    let database = TestDatabase::create().await;
    let smtp = SmtpServer::plain();
    let url = DatabaseUrl::Postgres(database.url.clone());
    let a = app_on(&smtp, Some(url.clone())).await;
    let b = app_on(&smtp, Some(url)).await;
    let posts = (0..60).map(|i| {
        let app = if i % 2 == 0 { &a } else { &b };
        async move { post(app, "family", &format!("two{i}@example.com")).await }
    });
    let ids: HashSet<String> = futures_util::future::join_all(posts)
        .await
        .into_iter()
        .collect();
    let messages = smtp.wait_for("all 60", |m| m.len() >= 60).await;
    a.wait_for_rows("all delivered", |rows| {
        rows.iter()
            .all(|r| email_delivery(r).is_some_and(|d| d.status == DeliveryStatus::Delivered))
    })
    .await;
    let messages_now = smtp.messages();
    assert_eq!(messages_now.len(), 60, "none twice");
    let got: HashSet<String> = messages
        .iter()
        .map(|m| m.one("Message-ID").to_owned())
        .collect();
    assert_eq!(got, ids.iter().map(|id| message_id(id)).collect());
    a.stop().await;
    b.stop().await;
    database.drop().await;
}

/// The site's lead e-mail budget on `database` (SQLite when `None`), spent by `instances`
/// servers sharing it: `LEAD_EMAIL_MAX_PER_HOUR` e-mails an hour, every lead stored and listed,
/// the rest held and sent as one digest an hour (by one instance) saying the budget was reached.
async fn the_email_budget(database: Option<DatabaseUrl>, instances: usize) {
    const BUDGET: u32 = 3;
    let smtp = SmtpServer::plain();
    let mut apps = Vec::new();
    for _ in 0..instances {
        apps.push(app_with_budget(&smtp, database.clone(), BUDGET).await);
    }
    let mut ids = Vec::new();
    for i in 0..7 {
        ids.push(
            post(
                &apps[i % instances],
                "family",
                &format!("lead{i}@example.com"),
            )
            .await,
        );
    }
    let app = &apps[0];
    // Every lead's e-mail is either sent or held: 3 sent, 4 held.
    let settled = |rows: &[StoredQuote]| {
        rows.iter().all(|row| {
            email_delivery(row)
                .is_some_and(|d| d.status == DeliveryStatus::Delivered || d.last_error.is_some())
        })
    };
    let rows = app
        .wait_for_rows("every lead e-mail sent or held", settled)
        .await;
    assert_eq!(rows.len(), 7, "every lead is stored");
    let held: Vec<_> = rows
        .iter()
        .filter(|row| email_delivery(row).unwrap().status != DeliveryStatus::Delivered)
        .collect();
    assert_eq!(held.len(), 4);
    for row in &held {
        let delivery = email_delivery(row).unwrap();
        assert_eq!(delivery.status, DeliveryStatus::Pending);
        assert!(
            delivery
                .last_error
                .as_deref()
                .unwrap()
                .contains("held for the hourly digest"),
            "{delivery:?}"
        );
    }
    // Each instance's e-mail worker looks at the held leads again, and sends none.
    for app in &apps {
        app.after_a_round("email").await;
    }
    assert_eq!(
        smtp.messages().len(),
        BUDGET as usize,
        "no more e-mails this hour"
    );
    let listed = app
        .client
        .get(app.url("/api/admin/quote-requests"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(
        listed["quote_requests"].as_array().unwrap().len(),
        7,
        "listed"
    );

    // An hour later: held before the hour began, they go out in one digest.
    let hour_ago = backend::store::format_timestamp(
        time::OffsetDateTime::now_utc() - time::Duration::hours(1),
    );
    let move_back =
        format!("UPDATE lead_outbox SET held_at = '{hour_ago}' WHERE held_at IS NOT NULL");
    app.sql(&move_back).await;
    let messages = smtp
        .wait_for("the digest", |m| m.len() > BUDGET as usize)
        .await;
    let digest = messages
        .iter()
        .find(|m| m.one("Subject").starts_with("E-mail budget reached"))
        .expect("a digest");
    assert_envelope(digest);
    assert_eq!(
        digest.one("Subject"),
        "E-mail budget reached: 4 more leads in the inbox"
    );
    assert!(
        digest.text().contains("its 3 lead e-mails of the hour"),
        "{}",
        digest.text()
    );
    for row in &held {
        assert!(digest.text().contains(&row.email), "{}", digest.text());
    }
    let rows = app
        .wait_for_rows("the held leads marked delivered", |rows| {
            rows.iter().all(|row| {
                email_delivery(row).is_some_and(|d| d.status == DeliveryStatus::Delivered)
            })
        })
        .await;
    assert_eq!(rows.len(), 7);

    // One digest an hour: a lead held since is not sent before the next hour's.
    post(&apps[instances - 1], "family", "late@example.com").await;
    app.wait_for_rows("the late lead held", |rows| {
        rows.iter()
            .filter(|row| email_delivery(row).is_some_and(|d| d.last_error.is_some()))
            .count()
            == 1
    })
    .await;
    app.sql(&move_back).await;
    for app in &apps {
        app.after_a_round("digest").await;
    }
    let digests = smtp
        .messages()
        .iter()
        .filter(|m| m.one("Subject").starts_with("E-mail budget reached"))
        .count();
    assert_eq!(digests, 1, "one digest this hour, however many instances");
    assert_eq!(smtp.messages().len(), BUDGET as usize + 1);
    for app in apps {
        app.stop().await;
    }
}

#[tokio::test]
async fn past_the_hourly_email_budget_leads_are_stored_and_go_out_in_one_digest() {
    the_email_budget(None, 1).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_two_instances_spend_one_email_budget_and_send_one_digest() {
    let database = TestDatabase::create().await;
    the_email_budget(Some(DatabaseUrl::Postgres(database.url.clone())), 2).await;
    database.drop().await;
}

#[tokio::test]
async fn once_a_day_a_lead_email_says_how_many_posts_were_held_as_spam_and_the_consent_head() {
    let smtp = SmtpServer::plain();
    let mut env = smtp.env();
    env.push(("SITE_URL".into(), "https://quotes.example.com".into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let app = TestApp::spawn().env(&env).start().await;
    // A browser that blocks the form's cookie: its posts are held as spam, answered 201 all the
    // same.
    for email in ["no-cookie@example.com", "again@example.com"] {
        let blocked = reqwest::Client::new()
            .post(app.url("/api/quote-requests"))
            .json(&json!({"product": "family", "email": email}))
            .send()
            .await
            .unwrap();
        assert_eq!(blocked.status(), 201);
    }
    post(&app, "family", "ana@example.com").await;
    let first = smtp
        .wait_for("the first lead's e-mail", |m| m.len() == 1)
        .await;
    let text = first[0].text().replace("\r\n", "\n");
    assert!(text.contains("2 posts were held as spam"), "{text}");
    assert!(
        text.contains("See them: https://quotes.example.com/admin#spam"),
        "{text}"
    );
    assert!(
        !text.contains("no-cookie@example.com"),
        "only a count: {text}"
    );
    // With the consent chain's head, which outlives the database: verify takes it back.
    let (seq, sha256) = crate::consent_records::head(&app.database);
    assert!(
        text.contains(&format!(
            "Consent records: the chain's head is record {seq}, SHA-256 {sha256}."
        )),
        "{text}"
    );
    let checked = crate::consent_records::records(&app.database, &["verify", "--head", &sha256]);
    assert!(checked.status.success());
    post(&app, "medicare", "bea@example.com").await;
    let both = smtp
        .wait_for("the second lead's e-mail", |m| m.len() == 2)
        .await;
    let later = both
        .iter()
        .map(|m| m.text().replace("\r\n", "\n"))
        .find(|text| text.contains("bea@example.com"))
        .unwrap();
    assert!(
        !later.contains("held as spam") && !later.contains("Consent records"),
        "once a day: {later}"
    );
    app.stop().await;
}
