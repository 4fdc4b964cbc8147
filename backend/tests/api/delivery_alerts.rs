//! Alerts when leads stop reaching the broker: a webhook failing past the alert threshold (made
//! short here) sends one alert e-mail with the webhook's error through a real SMTP server
//! (aiosmtpd), `/healthz` says so and stays 200, and its recovery sends one more, on SQLite and
//! on PostgreSQL with two instances.

use std::time::Duration;

use backend::settings::alerts::AlertSettings;
use backend::settings::leads::RetryPolicy;
use backend::store::DatabaseUrl;
use serde_json::Value;

use crate::common::postgres::TestDatabase;
use crate::common::receiver::Receiver;
use crate::common::smtp::{Mail, SmtpServer};
use crate::common::TestApp;

const ALERT_TO: &str = "ops@example.com";

async fn app_on(smtp: &SmtpServer, webhook: &Receiver, database: Option<DatabaseUrl>) -> TestApp {
    let mut env = smtp.env();
    env.push(("LEAD_WEBHOOK_URL".into(), webhook.url.to_string()));
    env.push(("ALERT_EMAIL_TO".into(), ALERT_TO.into()));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut spawn = TestApp::spawn().env(&env).configure(|config| {
        config.leads.retry = RetryPolicy {
            give_up_after: Duration::from_secs(24 * 60 * 60),
            first: Duration::from_millis(20),
            longest: Duration::from_millis(200),
        };
        config.alerts = AlertSettings {
            after: Duration::from_secs(1),
            check_every: Duration::from_millis(100),
        };
    });
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    spawn.start().await
}

fn subjects_starting(messages: &[Mail], prefix: &str) -> usize {
    messages
        .iter()
        .filter(|m| m.one("Subject").starts_with(prefix))
        .count()
}

async fn deliveries(app: &TestApp) -> Value {
    let response = app.get("/healthz").await;
    assert_eq!(
        response.status(),
        200,
        "failing deliveries never fail the check"
    );
    response.json::<Value>().await.unwrap()["deliveries"].clone()
}

/// Once each instance's alert monitor has checked the deliveries since now.
async fn checked_again(apps: &[TestApp]) {
    for app in apps {
        app.after_a_round("alerts").await;
    }
}

/// The webhook fails for longer than the threshold, then recovers: one alert, one recovery.
async fn alert_and_recover(apps: &[TestApp], smtp: &SmtpServer, webhook: &Receiver) {
    apps[0].post_lead("family", "ana@example.com").await;
    let messages = smtp
        .wait_for("the alert", |m| subjects_starting(m, "Alert:") >= 1)
        .await;
    let alert = messages
        .iter()
        .find(|m| m.one("Subject").starts_with("Alert:"))
        .unwrap();
    assert_eq!(
        alert.one("Subject"),
        "Alert: leads are not reaching you by the webhook (LEAD_WEBHOOK_URL)"
    );
    assert_eq!(alert.rcpt_tos, [ALERT_TO]);
    let text = alert.text();
    assert!(text.contains("1 lead not delivered yet"), "{text}");
    assert!(text.contains("The last error: HTTP 503"), "{text}");
    for app in apps {
        let report = deliveries(app).await;
        assert_eq!(report["status"], "failing", "{report}");
        assert_eq!(report["channels"][0]["channel"], "webhook", "{report}");
    }

    // Every instance checks again: still one alert for the one incident.
    checked_again(apps).await;
    assert_eq!(subjects_starting(&smtp.messages(), "Alert:"), 1);

    webhook.set_up(true);
    let messages = smtp
        .wait_for("the recovery", |m| subjects_starting(m, "Recovered:") >= 1)
        .await;
    let recovered = messages
        .iter()
        .find(|m| m.one("Subject").starts_with("Recovered:"))
        .unwrap();
    assert_eq!(recovered.rcpt_tos, [ALERT_TO]);
    checked_again(apps).await;
    let messages = smtp.messages();
    assert_eq!(subjects_starting(&messages, "Alert:"), 1);
    assert_eq!(subjects_starting(&messages, "Recovered:"), 1);
    for app in apps {
        assert_eq!(deliveries(app).await["status"], "ok");
    }
}

#[tokio::test]
async fn a_failing_webhook_alerts_once_and_its_recovery_once() {
    let smtp = SmtpServer::plain();
    let webhook = Receiver::start(false).await;
    let app = app_on(&smtp, &webhook, None).await;
    assert_eq!(deliveries(&app).await["status"], "ok");
    alert_and_recover(std::slice::from_ref(&app), &smtp, &webhook).await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn on_postgresql_two_instances_alert_once_per_incident() {
    let database = TestDatabase::create().await;
    let smtp = SmtpServer::plain();
    let webhook = Receiver::start(false).await;
    let url = DatabaseUrl::Postgres(database.url.clone());
    let apps = [
        app_on(&smtp, &webhook, Some(url.clone())).await,
        app_on(&smtp, &webhook, Some(url)).await,
    ];
    alert_and_recover(&apps, &smtp, &webhook).await;
    for app in apps {
        app.stop().await;
    }
    database.drop().await;
}
