//! Booked calls (docs/product.md §13): with `booking` in the build, `/book` and `/es/book` list
//! the open times and take a booking without JavaScript, with its lead and its Scope of
//! Appointment's consent record; a wrong post is answered under each field in the page's
//! language, a time taken with the times still open, two visitors racing for one time (on one
//! instance or two over one database) leave one booking; the broker lists and cancels them, and
//! marking the lead do not contact cancels its calls to come. A quote's success (the JSON answer,
//! the result page without JavaScript) links to the page with a signed reference to its lead,
//! which pre-fills the form and makes the booking join that lead; a forged or expired reference
//! is the plain form and a lead of its own. Deleting a lead deletes its bookings. Without
//! `booking`, `/book` is 404.

use std::path::PathBuf;

use backend::leads::booking_ref::{BookingRefs, MAX_AGE};
use backend::store::consent::sha256_hex;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};

use crate::callable_leads::{DISCLOSURE, DISCLOSURE_ES};
use crate::common::broker::{admin, admin_get, deleted, lead, marked, site_with_facts, TOKEN};
use crate::common::postgres::{on_both_databases, on_postgres};
use crate::common::{no_redirects, TestApp};
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
    let facts = |notice: &str, disclosure: &str, english: bool| {
        json!({
            "leadNotice": notice,
            "fields": {"phone": "optional", "zip": "off"},
            "phoneConsent": disclosure,
            "booking": if on { booking(english) } else { Value::Null },
        })
    };
    let site = site_with_facts(
        dir,
        facts("An agent will contact you.", DISCLOSURE, true),
        facts("Un agente le contactará.", DISCLOSURE_ES, false),
    );
    // The result page of a quote sent without JavaScript, its link to the booking page a slot.
    std::fs::create_dir_all(site.join(".quote-result")).unwrap();
    std::fs::write(
        site.join(".quote-result/submitted.html"),
        r#"<p>Sent.</p><a href="{{booking}}">Book a call</a>"#,
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

/// The first booking the broker's list shows booked (the newest).
pub(crate) async fn first_booked(app: &TestApp) -> Value {
    let listed = admin(app, "/api/admin/bookings").await;
    listed["bookings"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["status"] == "booked")
        .unwrap()
        .clone()
}

/// Lead `id`'s copy of its records (the admin API's ZIP).
async fn records_of(app: &TestApp, id: &str) -> zip::ZipArchive<std::io::Cursor<Vec<u8>>> {
    let path = format!("/api/admin/quote-requests/{id}/records");
    let response = admin_get(app, &path).await;
    assert_eq!(response.status(), 200, "{path}");
    let bytes = response.bytes().await.unwrap().to_vec();
    zip::ZipArchive::new(std::io::Cursor::new(bytes)).unwrap()
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
    // Each time keeps its instant for the page's script, served from the site as the
    // Content-Security-Policy allows, which relabels it on the visitor's clock.
    assert!(english.contains(&format!("<span data-at=\"{}\">", times[0])));
    assert!(english.contains("<script src=\"/book/local-times.js\" defer></script>"));
    assert!(english.contains("data-your-zone=\"Times are in your zone ({zone}).\""));
    let csp = app.get("/book").await.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(csp.contains("script-src 'self'"), "{csp}");
    let script = app.get("/book/local-times.js").await;
    assert_eq!(script.status(), 200);
    assert_eq!(
        script.headers()["content-type"],
        "text/javascript; charset=utf-8"
    );
    assert!(script.text().await.unwrap().contains("Intl.DateTimeFormat"));
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
    let mut zip = records_of(&app, &lead_id).await;
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
    let newest = first_booked(&app).await;
    marked(&app, newest["lead_id"].as_str().unwrap(), "do_not_contact").await;
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

on_both_databases!(a_visitor_books_without_javascript_and_the_broker_sees_and_cancels_it);

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
    on_postgres(|url| async move {
        let dir = tempfile::tempdir().unwrap();
        let static_dir = site(&dir, true);
        let first = app(Some(url.clone()), Some(static_dir.clone())).await;
        let second = app(Some(url), Some(static_dir)).await;
        one_wins(&first, &second).await;
        second.stop().await;
        first.stop().await;
    })
    .await;
}

/// The value of the form's field `name` on `html`, if the page has it.
fn field(html: &str, name: &str) -> Option<String> {
    let start = html.find(&format!("name=\"{name}\""))?;
    let tag_start = html[..start].rfind('<')?;
    let tag = &html[tag_start..tag_start + html[tag_start..].find('>')?];
    let value = tag.split("value=\"").nth(1)?;
    Some(value.split('"').next()?.to_owned())
}

async fn bookings_of(app: &TestApp, id: &str) -> Vec<Value> {
    let listed = admin(app, &format!("/api/admin/bookings?lead_id={id}")).await;
    listed["bookings"].as_array().unwrap().clone()
}

/// The booking form for `slot` as a visitor coming from a quote sends it: `typed`'s fields
/// (the reference among them) with a name and a product.
fn joined_form<'a>(slot: &'a str, typed: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut form = vec![("slot", slot), ("name", "Ana Ruiz"), ("soa", "part_d")];
    form.extend_from_slice(typed);
    form
}

async fn a_quote_followed_by_a_booking_joins_its_lead(database: Option<DatabaseUrl>) {
    let app = app(database, None).await;
    let times = offered(&page(&app, "/book").await.1);

    // The live form's quote, with the phone's box ticked: its answer links to the Spanish page.
    let quoted = app
        .client
        .post(app.url("/api/quote-requests"))
        .json(&json!({"product": "medicare", "email": "Ana@Example.com",
                      "phone": "(555) 555-0123", "may_call": true, "lang": "es"}))
        .send()
        .await
        .unwrap();
    assert_eq!(quoted.status(), 201);
    let quoted: Value = quoted.json().await.unwrap();
    let id = quoted["id"].as_str().unwrap().to_owned();
    let path = quoted["booking_path"].as_str().unwrap().to_owned();
    let token = path.strip_prefix("/es/book?lead=").unwrap().to_owned();
    assert!(token.starts_with(&format!("{id}.")), "{path}");

    // Pre-filled, the reference in a hidden field; sent with the box left unticked.
    let (status, filled) = page(&app, &path).await;
    assert_eq!(status, 200);
    assert_eq!(field(&filled, "email").as_deref(), Some("Ana@Example.com"));
    assert_eq!(field(&filled, "phone").as_deref(), Some("(555) 555-0123"));
    assert_eq!(field(&filled, "name").as_deref(), Some(""));
    assert_eq!(field(&filled, "lead").as_deref(), Some(token.as_str()));
    let typed = [
        ("email", "ana@example.com"),
        ("phone", "555.555.0123"),
        ("lead", token.as_str()),
    ];
    let (status, location, _) = post(&app, "/es/book", &joined_form(&times[0], &typed)).await;
    assert_eq!((status, location.as_str()), (303, "/es/book/done"));
    assert_eq!(app.count("SELECT COUNT(*) FROM quote_requests").await, 1);
    let joined = bookings_of(&app, &id).await;
    assert_eq!(joined.len(), 1);
    assert_eq!(joined[0]["soa"]["signature"], "Ana Ruiz");
    assert_eq!(joined[0]["soa"]["sha256"], sha256_hex(STATEMENT_ES));
    let soa_on_lead =
        format!("SELECT COUNT(*) FROM consent_records WHERE kind = 'soa' AND lead_id = '{id}'");
    assert_eq!(app.count(&soa_on_lead).await, 1);
    // Its permission to be called is as the quote gave it.
    let after = lead(&app, &id).await;
    assert_eq!(after["may_call"], true);
    assert_eq!(after["call_consent"], "written");
    assert_eq!(after["email"], "Ana@Example.com");
    // Opened again, the name it signed with is known too.
    let (_, again) = page(&app, &path).await;
    assert_eq!(field(&again, "name").as_deref(), Some("Ana Ruiz"));

    // Forged (another lead, a changed signature) or expired: the plain form, a lead of its own.
    let store = backend::store::open(&app.database).await.unwrap();
    let refs = BookingRefs::load(store.as_ref()).await.unwrap();
    store.close().await;
    let (expired, _) = refs.issue(&id, time::OffsetDateTime::now_utc() - 2 * MAX_AGE);
    let (signed, tag) = token.rsplit_once('.').unwrap();
    let flipped = if tag.starts_with('0') { "1" } else { "0" };
    let forged = format!("{signed}.{flipped}{}", &tag[1..]);
    for (n, bad) in [forged, expired].iter().enumerate() {
        let (status, plain) = page(&app, &format!("/book?lead={bad}")).await;
        assert_eq!(status, 200);
        assert_eq!(field(&plain, "email").as_deref(), Some(""), "{plain}");
        assert_eq!(field(&plain, "lead"), None);
        let typed = [
            ("email", "ana@example.com"),
            ("phone", "(555) 555-0123"),
            ("lead", bad.as_str()),
        ];
        let (status, _, _) = post(&app, "/book", &joined_form(&times[1 + n], &typed)).await;
        assert_eq!(status, 303);
        assert_eq!(bookings_of(&app, &id).await.len(), 1);
    }
    // So does a valid one sent with other contact details than the lead's.
    let typed = [
        ("email", "bo@example.com"),
        ("phone", "(555) 555-0123"),
        ("lead", token.as_str()),
    ];
    let (status, _, _) = post(&app, "/book", &joined_form(&times[3], &typed)).await;
    assert_eq!(status, 303);
    assert_eq!(bookings_of(&app, &id).await.len(), 1);
    assert_eq!(app.count("SELECT COUNT(*) FROM quote_requests").await, 4);

    // Without JavaScript: the result page links with the reference; a ticked box there adds
    // the written consent the quote did not give.
    let response = app
        .page_form_post("product=medicare&email=cy%40example.com&phone=%28555%29+555-0188&lang=en")
        .await;
    assert_eq!(response.status(), 303);
    let outcome = response
        .headers()
        .get_all("set-cookie")
        .iter()
        .map(|c| c.to_str().unwrap().split(';').next().unwrap().to_owned())
        .find(|c| c.starts_with("quote_result="))
        .unwrap();
    let result = no_redirects()
        .get(app.url("/quote-result"))
        .header("cookie", outcome)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    let link = result
        .split("href=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .to_owned();
    assert!(link.starts_with("/book?lead="), "{result}");
    let cy_token = link.strip_prefix("/book?lead=").unwrap();
    let cy = cy_token.split('.').next().unwrap().to_owned();
    assert_eq!(lead(&app, &cy).await["call_consent"], Value::Null);
    let (_, filled) = page(&app, &link).await;
    assert_eq!(field(&filled, "email").as_deref(), Some("cy@example.com"));
    let typed = [
        ("email", "cy@example.com"),
        ("phone", "(555) 555-0188"),
        ("may_call", "yes"),
        ("lead", cy_token),
    ];
    let (status, _, _) = post(&app, "/book", &joined_form(&times[4], &typed)).await;
    assert_eq!(status, 303);
    assert_eq!(bookings_of(&app, &cy).await.len(), 1);
    assert_eq!(lead(&app, &cy).await["call_consent"], "written");
    // A second call on the same lead: its records hold each Scope of Appointment by its number.
    let (status, _, _) = post(&app, "/book", &joined_form(&times[5], &typed)).await;
    assert_eq!(status, 303);
    assert_eq!(bookings_of(&app, &cy).await.len(), 2);
    let zip = records_of(&app, &cy).await;
    let names: Vec<&str> = zip.file_names().collect();
    let soa_files = names
        .iter()
        .filter(|n| n.contains("/soa-") && n.ends_with(".json"))
        .count();
    assert_eq!(soa_files, 2, "{names:?}");
    assert!(!names.iter().any(|n| n.ends_with("/soa.json")), "{names:?}");
    head(&app.database);

    // Deleting the lead deletes its booking: its time is open again.
    assert!(!offered(&page(&app, "/book").await.1).contains(&times[0]));
    deleted(&app, &id).await;
    assert_eq!(bookings_of(&app, &id).await, Vec::<Value>::new());
    let dangling = "SELECT COUNT(*) FROM bookings b
        WHERE NOT EXISTS (SELECT 1 FROM quote_requests q WHERE q.id = b.lead_id)";
    assert_eq!(app.count(dangling).await, 0);
    assert!(offered(&page(&app, "/book").await.1).contains(&times[0]));
    // And its reference no longer opens anything.
    let (_, gone) = page(&app, &path).await;
    assert_eq!(field(&gone, "lead"), None);
    app.stop().await;
}

on_both_databases!(a_quote_followed_by_a_booking_joins_its_lead);

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
