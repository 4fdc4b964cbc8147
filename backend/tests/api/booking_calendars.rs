//! Both calendars of a booked call (docs/product.md §13), over a real SMTP server and read with a
//! real calendar parser (the `icalendar` crate's): the broker's invitation (`METHOD:REQUEST`) and
//! cancellation (`METHOD:CANCEL`, the same `UID`, a higher `SEQUENCE`), the visitor's confirmation
//! in the page's language with the invitation and the link to cancel or move the call (signed,
//! once, refused forged), the move (the old cancelled, the new booked, one transaction), the
//! broker's private feed and its replaced address, and the reminder the day before, sent once by
//! one of two instances.

use std::path::PathBuf;

use backend::store::DatabaseUrl;
use icalendar::{Calendar, Component, EventStatus};
use serde_json::{json, Value};

use crate::booking::{first_booked, form, offered, page, post, site};
use crate::common::broker::{admin, marked, TOKEN};
use crate::common::eventually::eventually;
use crate::common::postgres::on_both_databases;
use crate::common::smtp::{Mail, SmtpServer};
use crate::common::{no_redirects, TestApp};

/// The application booking on `static_dir` and sending e-mail through `smtp`.
async fn app(smtp: &SmtpServer, database: Option<DatabaseUrl>, static_dir: PathBuf) -> TestApp {
    let mut env = smtp.env();
    env.push(("LEAD_EMAIL_MAX_PER_HOUR".into(), "100000".into()));
    env.push(("ADMIN_TOKEN".into(), TOKEN.into()));
    let mut spawn = TestApp::spawn().env_owned(env).static_dir(static_dir);
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    spawn.start().await
}

/// The one calendar attached to `mail`, parsed, with its content type's `method`.
fn calendar(mail: &Mail) -> (String, Calendar) {
    assert_eq!(mail.calendars.len(), 1, "{}", mail.raw);
    let part = &mail.calendars[0];
    let parsed: Calendar = part.content.parse().expect("a calendar a parser reads");
    let method = parsed.property_value("METHOD").unwrap().to_owned();
    assert_eq!(part.method.as_deref(), Some(method.as_str()));
    assert!(part.filename.ends_with(".ics"), "{}", part.filename);
    (method, parsed)
}

/// The first `n` of a booking's e-mails (the leads' own e-mails left out), waited for.
async fn wait(smtp: &SmtpServer, what: &str, n: usize) -> Vec<Mail> {
    let booking_mails = |mails: &[Mail]| -> Vec<Mail> {
        mails
            .iter()
            .filter(|m| !subject(m).starts_with("New quote request"))
            .cloned()
            .collect()
    };
    let mails = smtp
        .wait_for(what, |mails| booking_mails(mails).len() >= n)
        .await;
    booking_mails(&mails)
}

/// How many booking e-mails `app`'s database says were sent, once none is left to send: a row
/// recorded sent is never taken again, so what the mailbox holds then is final.
async fn all_recorded(app: &TestApp) -> i64 {
    eventually("every booking e-mail recorded", || async {
        let left = app
            .count(
                "SELECT count(*) FROM booking_mails WHERE sent_at IS NULL AND gave_up_at IS NULL",
            )
            .await;
        match left {
            0 => Ok(()),
            n => Err(format!("{n} not recorded yet")),
        }
    })
    .await;
    app.count("SELECT count(*) FROM booking_mails WHERE sent_at IS NOT NULL")
        .await
}

/// How many of a booking's e-mails `smtp` took.
fn booking_mail_count(smtp: &SmtpServer) -> usize {
    smtp.messages()
        .iter()
        .filter(|m| !subject(m).starts_with("New quote request"))
        .count()
}

fn subject(mail: &Mail) -> &str {
    mail.one("Subject")
}

fn sent_to(mail: &Mail, address: &str) -> bool {
    mail.rcpt_tos.iter().any(|to| to == address)
}

/// The path of the link in a confirmation's text.
fn link_path(mail: &Mail) -> String {
    let line = mail.line_with("/book/manage/");
    let at = line.find("/book/manage/").unwrap();
    let start = if line[..at].ends_with("/es") {
        at - 3
    } else {
        at
    };
    line[start..].trim().to_owned()
}

async fn feed_url(app: &TestApp, method: reqwest::Method) -> String {
    let response = app
        .client
        .request(method, app.url("/api/admin/calendar-feed"))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200);
    let body: Value = response.json().await.unwrap();
    let url = body["url"].as_str().unwrap();
    let path = &url[url.find("/calendar/").unwrap()..];
    path.to_owned()
}

async fn the_calendars(database: Option<DatabaseUrl>) {
    let smtp = SmtpServer::plain();
    let dir = tempfile::tempdir().unwrap();
    let app = app(&smtp, database, site(&dir, true)).await;
    let times = offered(&page(&app, "/book").await.1);

    // Booked on the Spanish page: the broker's invitation, the visitor's Spanish confirmation.
    let (status, _, _) = post(&app, "/es/book", &form(&times[2], "ana@example.com")).await;
    assert_eq!(status, 303);
    let listed = admin(&app, "/api/admin/bookings").await;
    let booking = listed["bookings"][0].clone();
    let id = booking["id"].as_str().unwrap().to_owned();
    let mails = wait(&smtp, "invitation and confirmation", 2).await;
    let request = mails
        .iter()
        .find(|m| sent_to(m, "broker@example.com"))
        .unwrap();
    assert!(
        subject(request).starts_with("Booked call: Ana Ruiz"),
        "{}",
        subject(request)
    );
    let (method, invitation) = calendar(request);
    assert_eq!(method, "REQUEST");
    let event = invitation.events().next().unwrap();
    assert_eq!(event.get_uid(), Some(id.as_str()));
    assert_eq!(event.get_sequence(), Some(0));
    let start = times[2].replace(['-', ':'], "");
    assert_eq!(event.property_value("DTSTART"), Some(start.as_str()));
    assert!(event.property_value("DTEND").unwrap().ends_with('Z'));
    let description = event.get_description().unwrap();
    for said in [
        "Name: Ana Ruiz",
        "Phone: +15555550123",
        "Scope of Appointment: Medicare Advantage, Part D",
    ] {
        assert!(description.contains(said), "{said}: {description}");
    }
    let confirmation = mails
        .iter()
        .find(|m| sent_to(m, "ana@example.com"))
        .unwrap();
    assert!(!sent_to(confirmation, "broker@example.com"));
    assert!(
        subject(confirmation).starts_with("Su llamada está reservada: "),
        "{}",
        subject(confirmation)
    );
    assert!(confirmation.text().contains(" de "), "a Spanish date");
    let (method, invited) = calendar(confirmation);
    assert_eq!(method, "REQUEST");
    assert_eq!(
        invited.events().next().unwrap().get_uid(),
        Some(id.as_str())
    );
    let spanish_link = link_path(confirmation);
    assert!(
        spanish_link.starts_with("/es/book/manage/"),
        "{spanish_link}"
    );

    // Booked on the English page: an English confirmation.
    let (status, _, _) = post(&app, "/book", &form(&times[4], "bo@example.com")).await;
    assert_eq!(status, 303);
    let mails = wait(&smtp, "the second booking's", 4).await;
    let english = mails.iter().find(|m| sent_to(m, "bo@example.com")).unwrap();
    assert!(subject(english).starts_with("Your call is booked: "));
    assert!(english.text().contains("Your call is booked for "));
    let english_link = link_path(english);
    assert!(english_link.starts_with("/book/manage/"));

    // The link shows the call; another site's post changes nothing; a forged link opens nothing.
    let (status, shown) = page(&app, &spanish_link).await;
    assert_eq!(status, 200, "{shown}");
    assert!(shown.contains("Cancelar la llamada") && shown.contains("value=\"cancel\""));
    assert!(offered(&shown).contains(&times[5]), "the times to move to");
    let cross = no_redirects()
        .post(app.url(&spanish_link))
        .header("origin", "https://elsewhere.example")
        .form(&[("action", "cancel")])
        .send()
        .await
        .unwrap();
    assert_eq!(cross.status(), 403);
    assert_eq!(
        admin(&app, &format!("/api/admin/bookings/{id}")).await["status"],
        "booked"
    );
    let mut forged = spanish_link.clone();
    let last = forged.pop().unwrap();
    forged.push(if last == '0' { '1' } else { '0' });
    let (status, said) = page(&app, &forged).await;
    assert_eq!(status, 404);
    assert!(said.contains("Este enlace no abre ninguna cita."), "{said}");
    let (status, _, _) = post(&app, &forged, &[("action", "cancel")]).await;
    assert_eq!(status, 404);

    // Cancelled by the link, once: the broker's cancellation names the same event.
    let (status, _, said) = post(&app, &spanish_link, &[("action", "cancel")]).await;
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("Su llamada está cancelada."));
    assert_eq!(
        admin(&app, &format!("/api/admin/bookings/{id}")).await["status"],
        "cancelled"
    );
    let (status, _, said) = post(&app, &spanish_link, &[("action", "cancel")]).await;
    assert_eq!(status, 410);
    assert!(said.contains("Este enlace ya se usó."));
    assert_eq!(page(&app, &spanish_link).await.0, 410);
    let mails = wait(&smtp, "the cancellation", 5).await;
    let cancel = mails
        .iter()
        .find(|m| subject(m).starts_with("Cancelled call"))
        .unwrap();
    assert!(sent_to(cancel, "broker@example.com"));
    let (method, cancelled) = calendar(cancel);
    assert_eq!(method, "CANCEL");
    let event = cancelled.events().next().unwrap();
    assert_eq!(event.get_uid(), Some(id.as_str()));
    assert_eq!(event.get_sequence(), Some(1));
    assert_eq!(event.get_status(), Some(EventStatus::Cancelled));

    // Moved by the link: the new time booked with the same Scope of Appointment, the old
    // cancelled; the broker gets the old one's cancellation and the new one's invitation.
    let old = first_booked(&app).await;
    let old_id = old["id"].as_str().unwrap().to_owned();
    let (status, _, said) = post(
        &app,
        &english_link,
        &[("action", "move"), ("slot", "tomorrow")],
    )
    .await;
    assert_eq!(status, 422, "not a time: {said}");
    let (status, _, said) = post(
        &app,
        &english_link,
        &[("action", "move"), ("slot", &times[4])],
    )
    .await;
    assert_eq!(status, 409, "its own time is taken: {said}");
    let (status, _, said) = post(
        &app,
        &english_link,
        &[("action", "move"), ("slot", &times[6])],
    )
    .await;
    assert_eq!(status, 200, "{said}");
    assert!(said.contains("Your call is moved to "), "{said}");
    let listed = admin(&app, "/api/admin/bookings").await;
    let all = listed["bookings"].as_array().unwrap();
    let new = all.iter().find(|b| b["status"] == "booked").unwrap();
    let new_id = new["id"].as_str().unwrap().to_owned();
    assert_ne!(new_id, old_id);
    assert_eq!(
        new["starts_at"].as_str().unwrap().replace(".000", ""),
        times[6]
    );
    assert_eq!(new["lead_id"], old["lead_id"]);
    assert_eq!(new["soa"], old["soa"], "the same signed record");
    let old_now = all.iter().find(|b| b["id"] == json!(old_id)).unwrap();
    assert_eq!(old_now["status"], "cancelled");
    assert_eq!(page(&app, &english_link).await.0, 410, "used once");
    let mails = wait(&smtp, "the move's three", 8).await;
    let broker: Vec<&Mail> = mails[5..]
        .iter()
        .filter(|m| sent_to(m, "broker@example.com"))
        .collect();
    let uids: Vec<(String, String)> = broker
        .iter()
        .map(|m| {
            let (method, parsed) = calendar(m);
            let uid = parsed
                .events()
                .next()
                .unwrap()
                .get_uid()
                .unwrap()
                .to_owned();
            (method, uid)
        })
        .collect();
    assert!(
        uids.contains(&("CANCEL".into(), old_id.clone())),
        "{uids:?}"
    );
    assert!(
        uids.contains(&("REQUEST".into(), new_id.clone())),
        "{uids:?}"
    );
    let moved = mails[5..]
        .iter()
        .find(|m| sent_to(m, "bo@example.com"))
        .unwrap();
    assert_ne!(link_path(moved), english_link, "a link of its own");

    // The feed: every call to come, read by the parser; a new address retires the old.
    let path = feed_url(&app, reqwest::Method::GET).await;
    assert_eq!(
        feed_url(&app, reqwest::Method::GET).await,
        path,
        "made once"
    );
    let response = app.client.get(app.url(&path)).send().await.unwrap();
    assert_eq!(response.status(), 200);
    assert!(response.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/calendar"));
    let feed: Calendar = response.text().await.unwrap().parse().unwrap();
    let uids: Vec<&str> = feed.events().filter_map(|e| e.get_uid()).collect();
    assert_eq!(uids, [new_id.as_str()], "the cancelled ones are not in it");
    let replaced = feed_url(&app, reqwest::Method::POST).await;
    assert_ne!(replaced, path);
    assert_eq!(
        app.client
            .get(app.url(&path))
            .send()
            .await
            .unwrap()
            .status(),
        404
    );
    assert_eq!(
        app.client
            .get(app.url(&replaced))
            .send()
            .await
            .unwrap()
            .status(),
        200
    );

    // Marking the lead do not contact cancels its call: the broker's calendar hears of it.
    marked(&app, new["lead_id"].as_str().unwrap(), "do_not_contact").await;
    let mails = wait(&smtp, "the do-not-contact cancellation", 9).await;
    let (method, parsed) = calendar(&mails[8]);
    assert_eq!(method, "CANCEL");
    assert_eq!(
        parsed.events().next().unwrap().get_uid(),
        Some(new_id.as_str())
    );
    assert_eq!(all_recorded(&app).await, 9);
    assert_eq!(booking_mail_count(&smtp), 9, "each once");
    app.stop().await;
}

on_both_databases!(the_calendars);

/// The reminder, due a day before the call, goes once though two instances (`first` and another
/// on its database) look for it.
async fn one_reminder(first: &TestApp, smtp: &SmtpServer) {
    let times = offered(&page(first, "/book").await.1);
    let later = times.last().unwrap().clone();
    let (status, _, _) = post(first, "/book", &form(&later, "cy@example.com")).await;
    assert_eq!(status, 303);
    wait(smtp, "invitation and confirmation", 2).await;
    assert_eq!(
        first
            .count("SELECT count(*) FROM booking_mails WHERE kind = 'reminder' AND sent_at IS NULL")
            .await,
        1
    );
    // A day passes: the reminder falls due.
    first
        .sql("UPDATE booking_mails SET due_at = '2000-01-01T00:00:00Z' WHERE kind = 'reminder'")
        .await;
    let mails = wait(smtp, "the reminder", 3).await;
    let reminder = &mails[2];
    assert!(sent_to(reminder, "cy@example.com"));
    assert!(
        subject(reminder).starts_with("Your call is tomorrow: "),
        "{}",
        subject(reminder)
    );
    assert_eq!(all_recorded(first).await, 3);
    assert_eq!(booking_mail_count(smtp), 3, "the reminder once");
}

/// `one_reminder` from two instances on `database`.
async fn the_reminder_goes_once_from_two_instances(database: Option<DatabaseUrl>) {
    let smtp = SmtpServer::plain();
    let dir = tempfile::tempdir().unwrap();
    let static_dir = site(&dir, true);
    let first = app(&smtp, database, static_dir.clone()).await;
    let second = app(&smtp, Some(first.database.clone()), static_dir).await;
    one_reminder(&first, &smtp).await;
    second.stop().await;
    first.stop().await;
}

on_both_databases!(the_reminder_goes_once_from_two_instances);
