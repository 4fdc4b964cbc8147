//! Booked calls (docs/product.md §13): with `booking` in the build, `/book` and `/es/book` list
//! the open times and take a booking without JavaScript, with its lead and its Scope of
//! Appointment's consent record; a wrong post is answered under each field in the page's
//! language, a time taken with the times still open, two visitors racing for one time (on one
//! instance or two over one database) leave one booking; the broker lists and cancels them, and
//! marking the lead do not contact cancels its calls to come. Without `booking`, `/book` is 404.

use std::path::PathBuf;

use backend::store::consent::sha256_hex;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};

use crate::callable_leads::{DISCLOSURE, DISCLOSURE_ES, TOKEN};
use crate::common::postgres::TestDatabase;
use crate::common::{no_redirects, TestApp, INDEX_HTML};
use crate::consent_records::head;

pub(crate) const STATEMENT: &str = "The agent of Test Broker may be paid based on your enrollment.";
pub(crate) const STATEMENT_ES: &str =
    "El agente de Test Broker puede recibir un pago según su inscripción.";

/// The build's `booking` in one language: open all day in UTC, no notice, three days.
fn booking(english: bool) -> Value {
    let hours: Value = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
        .into_iter()
        .map(|day| (day.to_owned(), json!(["00:00-23:30"])))
        .collect::<serde_json::Map<_, _>>()
        .into();
    let (title, errors, statement, emails, manage) = if english {
        (
            "Book a call",
            json!({"slot": "Choose a time", "name": "Write your name", "email": "Write an email", "soa": "Choose one", "taken": "That time was just taken."}),
            STATEMENT,
            json!({"summary": "Your call with Test Broker", "subject": "Your call is booked: {when}",
                   "booked": "Your call is booked for {when}.",
                   "manage": "To cancel the call or move it, open this link (it works once):",
                   "reminderSubject": "Your call is tomorrow: {when}",
                   "reminder": "A reminder: your call is booked for {when}."}),
            json!({"title": "Your call", "booked": "Your call is booked for {when}.",
                   "cancel": "Cancel the call", "moveLabel": "Or move it to another time",
                   "move": "Move the call", "cancelled": "Your call is cancelled.",
                   "moved": "Your call is moved to {when}.",
                   "gone": "This link was used already.",
                   "unknown": "This link does not open a booking."}),
        )
    } else {
        (
            "Reserve una llamada",
            json!({"slot": "Elija una hora", "name": "Escriba su nombre", "email": "Escriba un correo", "soa": "Elija uno", "taken": "Esa hora ya está ocupada."}),
            STATEMENT_ES,
            json!({"summary": "Su llamada con Test Broker", "subject": "Su llamada está reservada: {when}",
                   "booked": "Su llamada está reservada para el {when}.",
                   "manage": "Para cancelar la llamada o cambiarla, abra este enlace (funciona una vez):",
                   "reminderSubject": "Su llamada es mañana: {when}",
                   "reminder": "Le recordamos: su llamada está reservada para el {when}."}),
            json!({"title": "Su llamada", "booked": "Su llamada está reservada para el {when}.",
                   "cancel": "Cancelar la llamada", "moveLabel": "O cámbiela a otra hora",
                   "move": "Cambiar la llamada", "cancelled": "Su llamada está cancelada.",
                   "moved": "Su llamada se cambió al {when}.",
                   "gone": "Este enlace ya se usó.",
                   "unknown": "Este enlace no abre ninguna cita."}),
        )
    };
    json!({
        "timeZone": "UTC", "hours": hours, "slotMinutes": 30, "noticeHours": 0, "daysAhead": 3,
        "closed": [], "link": title, "title": title, "intro": "Pick a time.",
        "slotLabel": "Choose a time", "shownInZone": "Times are in {zone}.",
        "shownInYourZone": "Times are in your zone ({zone}).", "noTimes": "No times are open.",
        "nameLabel": "Full name", "emailLabel": "Email", "soaHeading": "What we may talk about",
        "soaProducts": {"medicareAdvantage": "Medicare Advantage", "partD": "Part D",
                        "medicareSupplement": "Medicare Supplement",
                        "dentalVisionHearing": "Dental, vision and hearing"},
        "soaStatement": statement, "submit": "Book",
        "success": {"title": "Booked", "description": "We will call you."},
        "errors": errors, "emails": emails, "manage": manage,
    })
}

/// A built site with the quote form's phone field and, when `on`, booking.
pub(crate) fn site(dir: &tempfile::TempDir, on: bool) -> PathBuf {
    let site = dir.path().join("dist");
    std::fs::create_dir_all(site.join(".site/es")).unwrap();
    std::fs::write(site.join("index.html"), INDEX_HTML).unwrap();
    let facts = |notice: &str, disclosure: &str, english: bool| {
        json!({
            "leadNotice": notice,
            "fields": {"phone": "optional", "zip": "off"},
            "phoneConsent": disclosure,
            "booking": if on { booking(english) } else { Value::Null },
        })
        .to_string()
    };
    std::fs::write(
        site.join(".site/site.json"),
        facts("An agent will contact you.", DISCLOSURE, true),
    )
    .unwrap();
    std::fs::write(
        site.join(".site/es/site.json"),
        facts("Un agente le contactará.", DISCLOSURE_ES, false),
    )
    .unwrap();
    site
}

pub async fn app(database: Option<DatabaseUrl>, static_dir: Option<PathBuf>) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let static_dir = static_dir.unwrap_or_else(|| site(&dir, true));
    let spawn = TestApp::spawn()
        .static_dir(static_dir)
        .dir(dir)
        .configure(|config| config.leads.admin_token = Some(TOKEN.into()));
    match database {
        Some(database) => spawn.database(database),
        None => spawn,
    }
    .start()
    .await
}

/// The `slot` values the page offers, in order.
pub(crate) fn offered(html: &str) -> Vec<String> {
    html.split("name=\"slot\" value=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().to_owned())
        .collect()
}

pub(crate) async fn page(app: &TestApp, path: &str) -> (u16, String) {
    let response = app.client.get(app.url(path)).send().await.unwrap();
    (response.status().as_u16(), response.text().await.unwrap())
}

/// Posts the form as a browser does; the status, `Location` and the page.
pub async fn post(app: &TestApp, path: &str, form: &[(&str, &str)]) -> (u16, String, String) {
    let response = no_redirects()
        .post(app.url(path))
        .form(form)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    let location = response
        .headers()
        .get("location")
        .map(|l| l.to_str().unwrap().to_owned())
        .unwrap_or_default();
    (status, location, response.text().await.unwrap())
}

pub(crate) async fn admin(app: &TestApp, path: &str) -> Value {
    let response = app
        .client
        .get(app.url(path))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 200, "{path}");
    response.json().await.unwrap()
}

pub fn form<'a>(slot: &'a str, email: &'a str) -> Vec<(&'a str, &'a str)> {
    vec![
        ("slot", slot),
        ("name", "Ana Ruiz"),
        ("email", email),
        ("phone", "(555) 555-0123"),
        ("may_call", "yes"),
        ("soa", "medicare_advantage"),
        ("soa", "part_d"),
    ]
}

async fn a_visitor_books_without_javascript_and_the_broker_sees_and_cancels_it(
    database: Option<DatabaseUrl>,
) {
    let app = app(database, None).await;
    let (status, english) = page(&app, "/book").await;
    assert_eq!(status, 200, "{english}");
    assert!(english.contains("Times are in UTC."), "{english}");
    assert!(english.contains(STATEMENT) && english.contains(DISCLOSURE));
    assert!(english.contains("name=\"soa\" value=\"part_d\""));
    let times = offered(&english);
    assert!(times.len() > 40, "{times:?}");
    let (status, spanish) = page(&app, "/es/book").await;
    assert_eq!(status, 200);
    assert!(spanish.contains("<html lang=\"es\">") && spanish.contains(STATEMENT_ES));
    assert!(spanish.contains(" de "), "a Spanish date: {spanish}");

    // Wrong: each field's message under it, in the page's language, what was typed kept.
    let (status, _, wrong) = post(
        &app,
        "/es/book",
        &[
            ("slot", "tomorrow"),
            ("name", " "),
            ("email", "ana@"),
            ("phone", "555"),
        ],
    )
    .await;
    assert_eq!(status, 422);
    for message in [
        "Elija una hora",
        "Escriba su nombre",
        "Escriba un correo",
        "Elija uno",
        "Escriba un número de teléfono válido de EE. UU.",
    ] {
        assert!(wrong.contains(message), "{message}: {wrong}");
    }
    assert!(wrong.contains("value=\"ana@\""));

    let (status, location, _) = post(&app, "/book", &form(&times[1], "ana@example.com")).await;
    assert_eq!((status, location.as_str()), (303, "/book/done"));
    let (status, done) = page(&app, "/book/done").await;
    assert_eq!(status, 200);
    assert!(done.contains("We will call you."));

    // The same time again: taken, and the page offers the others.
    let (status, _, taken) = post(&app, "/es/book", &form(&times[1], "bo@example.com")).await;
    assert_eq!(status, 409, "{taken}");
    assert!(taken.contains("Esa hora ya está ocupada."));
    assert!(!offered(&taken).contains(&times[1]) && offered(&taken).contains(&times[2]));
    assert!(!offered(&page(&app, "/book").await.1).contains(&times[1]));

    let listed = admin(&app, "/api/admin/bookings").await;
    let bookings = listed["bookings"].as_array().unwrap();
    assert_eq!(bookings.len(), 1, "{listed}");
    let booked = &bookings[0];
    assert_eq!(booked["status"], "booked");
    assert_eq!(
        booked["starts_at"].as_str().unwrap().replace(".000", ""),
        times[1]
    );
    assert_eq!(
        booked["soa"]["products"],
        json!(["medicare_advantage", "part_d"])
    );
    assert_eq!(booked["soa"]["signature"], "Ana Ruiz");
    assert_eq!(booked["soa"]["sha256"], sha256_hex(STATEMENT));
    assert_eq!(booked["soa"]["channel"], "form_without_script");
    let lead_id = booked["lead_id"].as_str().unwrap().to_owned();
    let lead = admin(&app, &format!("/api/admin/quote-requests/{lead_id}")).await;
    assert_eq!(lead["email"], "ana@example.com");
    assert_eq!(lead["phone"], "+15555550123");
    assert_eq!(lead["product"], "medicare");

    // The chain holds with the Scope of Appointment in it, and the lead's copy has it.
    let (records, _) = head(&app.database);
    assert_eq!(records, 2, "the lead's record and its SOA");
    let zip = app
        .client
        .get(app.url(&format!("/api/admin/quote-requests/{lead_id}/records")))
        .bearer_auth(TOKEN)
        .send()
        .await
        .unwrap()
        .bytes()
        .await
        .unwrap();
    let mut zip = zip::ZipArchive::new(std::io::Cursor::new(zip.to_vec())).unwrap();
    let names: Vec<String> = zip.file_names().map(str::to_owned).collect();
    assert!(
        names.contains(&format!("lead-{lead_id}/soa.json")),
        "{names:?}"
    );
    let mut statement = String::new();
    std::io::Read::read_to_string(
        &mut zip
            .by_name(&format!("lead-{lead_id}/soa-statement.txt"))
            .unwrap(),
        &mut statement,
    )
    .unwrap();
    assert_eq!(statement, STATEMENT);

    // The broker cancels it: the time is open again.
    let id = booked["id"].as_str().unwrap();
    let cancelled = app
        .client
        .patch(app.url(&format!("/api/admin/bookings/{id}")))
        .bearer_auth(TOKEN)
        .json(&json!({"status": "cancelled"}))
        .send()
        .await
        .unwrap();
    assert_eq!(cancelled.status(), 200);
    assert_eq!(
        cancelled.json::<Value>().await.unwrap()["status"],
        "cancelled"
    );
    assert!(offered(&page(&app, "/book").await.1).contains(&times[1]));
    let wrong = app
        .client
        .patch(app.url(&format!("/api/admin/bookings/{id}")))
        .bearer_auth(TOKEN)
        .json(&json!({"status": "booked"}))
        .send()
        .await
        .unwrap();
    assert_eq!(wrong.status(), 400);

    // Marking a lead do not contact cancels its calls to come.
    let (status, _, _) = post(&app, "/book", &form(&times[3], "cy@example.com")).await;
    assert_eq!(status, 303);
    let listed = admin(&app, "/api/admin/bookings").await;
    let newest = listed["bookings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["status"] == "booked")
        .unwrap()
        .clone();
    let marked = app
        .client
        .patch(app.url(&format!(
            "/api/admin/quote-requests/{}",
            newest["lead_id"].as_str().unwrap()
        )))
        .bearer_auth(TOKEN)
        .json(&json!({"status": "do_not_contact"}))
        .send()
        .await
        .unwrap();
    assert_eq!(marked.status(), 200);
    let after = admin(
        &app,
        &format!("/api/admin/bookings/{}", newest["id"].as_str().unwrap()),
    )
    .await;
    assert_eq!(after["status"], "cancelled");
    let (records, _) = head(&app.database);
    assert_eq!(records, 4);
    app.stop().await;
}

#[tokio::test]
async fn booking_on_sqlite() {
    a_visitor_books_without_javascript_and_the_broker_sees_and_cancels_it(None).await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn booking_on_postgres() {
    let database = TestDatabase::create().await;
    a_visitor_books_without_javascript_and_the_broker_sees_and_cancels_it(Some(
        DatabaseUrl::Postgres(database.url.clone()),
    ))
    .await;
    database.drop().await;
}

/// Visitors racing for one time, through `first` and `second` (one instance or two on one
/// database): one booking, the others told it is taken.
async fn one_wins(first: &TestApp, second: &TestApp) {
    let times = offered(&page(first, "/book").await.1);
    let slot = times[5].clone();
    let racers = (0..6).map(|n| {
        let app = if n % 2 == 0 { first } else { second };
        let slot = slot.clone();
        async move {
            let email = format!("racer{n}@example.com");
            post(app, "/book", &form(&slot, &email)).await.0
        }
    });
    let mut statuses = futures_util::future::join_all(racers).await;
    statuses.sort_unstable();
    assert_eq!(statuses, [303, 409, 409, 409, 409, 409]);
    let listed = admin(first, "/api/admin/bookings").await;
    assert_eq!(listed["bookings"].as_array().unwrap().len(), 1);
    head(&first.database);
}

#[tokio::test]
async fn racing_for_one_time_on_sqlite() {
    let app = app(None, None).await;
    one_wins(&app, &app).await;
    app.stop().await;
}

#[tokio::test]
#[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
async fn racing_for_one_time_on_two_instances_over_postgres() {
    let database = TestDatabase::create().await;
    let url = DatabaseUrl::Postgres(database.url.clone());
    let dir = tempfile::tempdir().unwrap();
    let static_dir = site(&dir, true);
    let first = app(Some(url.clone()), Some(static_dir.clone())).await;
    let second = app(Some(url), Some(static_dir)).await;
    one_wins(&first, &second).await;
    second.stop().await;
    first.stop().await;
    database.drop().await;
    drop(dir);
}

#[tokio::test]
async fn without_booking_the_page_is_not_found() {
    let dir = tempfile::tempdir().unwrap();
    let static_dir = site(&dir, false);
    let app = app(None, Some(static_dir)).await;
    for path in ["/book", "/es/book", "/book/done"] {
        assert_eq!(page(&app, path).await.0, 404, "{path}");
    }
    // A post is refused as on any page of the site that takes none, and nothing is stored.
    let (status, _, _) = post(&app, "/book", &form("2030-01-01T00:00:00Z", "a@b.co")).await;
    assert_eq!(status, 405);
    let listed = admin(&app, "/api/admin/bookings").await;
    assert_eq!(listed["bookings"], json!([]));
    app.stop().await;
    drop(dir);
}
