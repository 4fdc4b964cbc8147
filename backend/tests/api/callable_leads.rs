//! A lead the broker can call: with `quote.fields` on in the build, a phone number (kept as
//! E.164, with whether the consent box was ticked and the disclosure in the consent record) and a
//! ZIP code with its state and the licence check, from the live form, the form without
//! JavaScript and the assistant; refusals under their field in the page's language; a lead the
//! visitor asked not to be contacted about, and the list by state.

use serde_json::{json, Value};

use crate::common::broker::{
    admin, admin_get, created, deleted, lead, marked, site_with_facts, TOKEN,
};
use crate::common::postgres::on_both_databases;
use crate::common::receiver::Receiver;
use crate::common::voice::{post_voice_event, tool_calls};
use crate::common::TestApp;
use backend::settings::leads::ForwardingConfig;
use backend::store::DatabaseUrl;

pub(crate) const SECRET: &str = "voice-secret-123";
pub(crate) const DISCLOSURE: &str = "I agree that Test Broker may call or text me at this number about my quote, possibly using automated technology. Consent is not a condition of purchase.";
pub(crate) const DISCLOSURE_ES: &str = "Acepto que Test Broker me llame o me envíe mensajes a este número sobre mi cotización, posiblemente con tecnología automatizada. El consentimiento no es una condición de compra.";
/// The notices before a call and the chat's, each language's, as the build writes them.
pub(crate) const CALL_NOTICE: &str = "An AI answers. The call is recorded and kept.";
pub(crate) const CALL_NOTICE_ES: &str = "Responde una IA. La llamada se graba y se guarda.";
pub(crate) const CHAT_NOTICE: &str = "An AI writes back. The chat is kept.";
pub(crate) const CHAT_NOTICE_ES: &str = "Responde una IA por escrito. El chat se guarda.";

/// The app with a build whose form asks for an optional phone number and a required ZIP code,
/// from a broker licensed in Illinois.
async fn app() -> TestApp {
    app_on(None, None).await
}

/// `app` on `database` (a fresh SQLite file when `None`), forwarding its leads as `forwarding`
/// says.
pub(crate) async fn app_on(
    database: Option<DatabaseUrl>,
    forwarding: Option<ForwardingConfig>,
) -> TestApp {
    app_with(database, forwarding, &[]).await
}

/// `app_on` with the environment `env` besides.
pub(crate) async fn app_with(
    database: Option<DatabaseUrl>,
    forwarding: Option<ForwardingConfig>,
    env: &[(&str, &str)],
) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let facts = |notice: &str, disclosure: &str, [call, chat]: [&str; 2]| {
        json!({
            "leadNotice": notice,
            "fields": {"phone": "optional", "zip": "required"},
            "phoneConsent": disclosure,
            "licences": ["Illinois"],
            "conversationNotices": {"call": call, "chat": chat},
        })
    };
    let site = site_with_facts(
        &dir,
        facts(
            "An agent will contact you.",
            DISCLOSURE,
            [CALL_NOTICE, CHAT_NOTICE],
        ),
        facts(
            "Un agente le contactará.",
            DISCLOSURE_ES,
            [CALL_NOTICE_ES, CHAT_NOTICE_ES],
        ),
    );
    let spawn = TestApp::spawn()
        .env(env)
        .static_dir(site)
        .dir(dir)
        .configure(|config| {
            config.leads.admin_token = Some(TOKEN.into());
            config.leads.voice_events_secret = Some(SECRET.into());
            config.leads.forwarding = forwarding;
        });
    match database {
        Some(database) => spawn.database(database),
        None => spawn,
    }
    .start()
    .await
}

#[tokio::test]
async fn a_number_with_the_box_ticked_may_be_called_and_one_without_is_email_only() {
    let app = app().await;
    let ticked = created(
        &app,
        json!({"product": "medicare", "email": "ana@example.com", "phone": "(555) 555-0123",
               "may_call": true, "zip": "78701"}),
    )
    .await;
    let lead_ticked = lead(&app, &ticked).await;
    assert_eq!(lead_ticked["phone"], "+15555550123");
    assert_eq!(lead_ticked["may_call"], true);
    assert_eq!(lead_ticked["zip"], "78701");
    assert_eq!(lead_ticked["state"], "TX");
    assert_eq!(lead_ticked["licensed"], false, "not licensed in Texas");
    assert_eq!(
        lead_ticked["consent"]["phone"],
        json!({"text": DISCLOSURE, "given": true})
    );

    let unticked = created(
        &app,
        json!({"product": "family", "email": "bea@example.com", "phone": "555.555.0124",
               "zip": "60601", "lang": "es"}),
    )
    .await;
    let lead_unticked = lead(&app, &unticked).await;
    assert_eq!(lead_unticked["phone"], "+15555550124");
    assert_eq!(lead_unticked["may_call"], false, "e-mail only");
    assert_eq!(lead_unticked["state"], "IL");
    assert_eq!(lead_unticked["licensed"], true);
    assert_eq!(
        lead_unticked["consent"]["phone"],
        json!({"text": DISCLOSURE_ES, "given": false})
    );

    let without_phone = created(
        &app,
        json!({"product": "family", "email": "cy@example.com", "zip": "20500"}),
    )
    .await;
    let lead_without = lead(&app, &without_phone).await;
    assert_eq!(lead_without["phone"], Value::Null);
    assert_eq!(lead_without["consent"]["phone"], Value::Null);

    // The list by state, and the CSV's columns.
    let texas = admin(&app, "/api/admin/quote-requests?state=tx").await;
    let ids: Vec<&str> = texas["quote_requests"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, [ticked.as_str()]);
    let csv = admin_get(&app, "/api/admin/quote-requests?format=csv&state=TX")
        .await
        .text()
        .await
        .unwrap();
    assert!(
        csv.lines()
            .nth(1)
            .unwrap()
            .ends_with(r#""'+15555550123","yes","written","78701","TX","no","","""#),
        "{csv}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_bad_number_or_zip_is_refused_under_its_field_in_the_pages_language_and_nothing_kept() {
    let app = app().await;
    for (body, field, message) in [
        (
            json!({"product": "family", "email": "ana@example.com", "phone": "055-555-0123", "zip": "78701"}),
            "phone",
            "Please enter a valid US phone number",
        ),
        (
            json!({"product": "family", "email": "ana@example.com", "phone": "555-155-0123", "zip": "78701", "lang": "es"}),
            "phone",
            "Escriba un número de teléfono de EE. UU. válido",
        ),
        (
            json!({"product": "family", "email": "ana@example.com"}),
            "zip",
            "Please enter a valid 5-digit ZIP code",
        ),
        (
            json!({"product": "family", "email": "ana@example.com", "zip": "00001", "lang": "es"}),
            "zip",
            "Escriba un código postal (ZIP) válido de 5 dígitos",
        ),
    ] {
        let response = app.post_json(&body.to_string()).await;
        assert_eq!(response.status(), 422, "{body}");
        let error: Value = response.json().await.unwrap();
        assert_eq!(error["code"], "validation_failed");
        assert_eq!(error["fields"], json!({ field: message }), "{body}");
    }
    assert!(app.rows().await.is_empty(), "nothing stored");
    app.stop().await;
}

#[tokio::test]
async fn the_form_without_javascript_takes_the_number_and_the_box() {
    let app = app().await;
    let response = app
        .page_form_post("product=medicare&email=ana%40example.com&phone=%2B1+555+555+0123&may_call=on&zip=78701-1234")
        .await;
    assert_eq!(response.status(), 303);
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    let stored = &rows[0].contact;
    assert_eq!(stored.phone.as_deref(), Some("+15555550123"));
    assert!(stored.may_call);
    assert_eq!(
        (stored.zip.as_deref(), stored.state.as_deref()),
        (Some("78701"), Some("TX"))
    );
    // A wrong number is answered on the result page, under its field, with what was typed.
    let refused = app
        .page_form_post("product=medicare&email=bea%40example.com&phone=555-155-0123&zip=78701")
        .await;
    let (_, _, page) = crate::quote_form::follow(&app, refused).await;
    assert!(
        page.contains("Please enter a valid US phone number"),
        "{page}"
    );
    assert_eq!(app.rows().await.len(), 1, "nothing more kept");
    app.stop().await;
}

#[tokio::test]
async fn the_assistant_takes_a_number_with_the_callers_answer() {
    let app = app().await;
    let call = tool_calls(
        "call-1",
        json!([{"id": "t1", "name": "request_quote", "parameters": {
            "product": "medicare", "email": "ana@example.com", "phone": "555 555 0123",
            "may_call": true, "zip": "60601"}}]),
    );
    let answer: Value = post_voice_event(&app, Some(SECRET), &call)
        .await
        .json()
        .await
        .unwrap();
    assert!(answer["results"][0]["result"].is_string(), "{answer}");
    let id = app.rows().await[0].id.clone();
    let stored = lead(&app, &id).await;
    assert_eq!(stored["phone"], "+15555550123");
    assert_eq!(stored["may_call"], true);
    assert_eq!(stored["state"], "IL");
    assert_eq!(stored["consent"]["channel"], "voice");
    assert_eq!(stored["consent"]["phone"]["given"], true);
    let bad = tool_calls(
        "call-2",
        json!([{"id": "t1", "name": "request_quote", "parameters": {
            "product": "medicare", "email": "bea@example.com", "phone": "12345"}}]),
    );
    let answer: Value = post_voice_event(&app, Some(SECRET), &bad)
        .await
        .json()
        .await
        .unwrap();
    let error = answer["results"][0]["error"].as_str().unwrap();
    assert!(
        error.contains("phone number is not a valid US number"),
        "{error}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_lead_the_visitor_asked_not_to_be_contacted_about_is_listed_so_and_can_be_undone() {
    let app = app().await;
    let id = created(
        &app,
        json!({"product": "family", "email": "ana@example.com", "phone": "5555550123",
               "may_call": true, "zip": "78701"}),
    )
    .await;
    marked(&app, &id, "do_not_contact").await;
    assert_eq!(lead(&app, &id).await["status"], "do_not_contact");
    let listed = |status: &'static str| {
        let app = &app;
        async move {
            admin(app, &format!("/api/admin/quote-requests?status={status}")).await
                ["quote_requests"]
                .as_array()
                .unwrap()
                .len()
        }
    };
    assert_eq!(listed("do_not_contact").await, 1);
    assert_eq!(listed("new").await, 0);
    assert_eq!(
        admin(&app, "/api/admin/quote-requests").await["quote_requests"][0]["status"],
        "do_not_contact"
    );
    marked(&app, &id, "new").await;
    assert_eq!(lead(&app, &id).await["status"], "new");
    app.stop().await;
}

/// The do-not-contact list on `database` (PostgreSQL when given): marking a lead puts its
/// person's number and address on it, and the list outlives the lead. The person's next lead,
/// by either, arrives do not contact, with the webhook told so; only their new written consent
/// (the form's box ticked) takes them off.
async fn the_do_not_contact_list_is_per_person_and_outlives_the_lead(
    database: Option<DatabaseUrl>,
) {
    let receiver = Receiver::start(true).await;
    let forwarding = ForwardingConfig::new(receiver.url.clone(), None);
    let app = app_on(database, Some(forwarding)).await;
    let lead_of = |email: &'static str, phone: &'static str, may_call: bool| {
        json!({"product": "family", "email": email, "phone": phone, "may_call": may_call,
               "zip": "60601"})
    };
    let first = created(&app, lead_of("Ana@Example.com", "5555550123", true)).await;
    marked(&app, &first, "do_not_contact").await;
    deleted(&app, &first).await;

    // By the address alone (another case, no number), and by the number alone.
    let by_email = created(&app, lead_of("ana@example.COM", "5555550999", false)).await;
    let by_phone = created(&app, lead_of("other@example.com", "5555550123", false)).await;
    let stranger = created(&app, lead_of("bea@example.com", "5555550456", true)).await;
    for id in [&by_email, &by_phone] {
        let stored = lead(&app, id).await;
        assert_eq!(stored["status"], "do_not_contact", "{stored}");
    }
    assert_eq!(lead(&app, &stranger).await["status"], "new");
    // The marked lead is posted again too (as marked), so the three are waited for by id.
    let posted = receiver
        .wait_for("the three leads posted", |posted| {
            [&by_email, &by_phone, &stranger]
                .iter()
                .all(|id| posted.iter().any(|d| d.json()["id"] == id.as_str()))
        })
        .await;
    let told = |id: &str| {
        posted
            .iter()
            .map(|delivery| delivery.json())
            .find(|body| body["id"] == id)
            .unwrap_or_else(|| panic!("{id} was posted"))["do_not_contact"]
            .clone()
    };
    assert_eq!(told(&by_email), true);
    assert_eq!(told(&by_phone), true);
    assert_eq!(told(&stranger), false);
    let body = posted[0].json();
    for field in ["phone", "zip", "state", "language"] {
        assert!(body.get(field).is_some(), "{field} in {body}");
    }

    // Unticked, a new lead does not take the person off; ticked, it does, for both.
    let unticked = created(&app, lead_of("ana@example.com", "5555550123", false)).await;
    assert_eq!(lead(&app, &unticked).await["status"], "do_not_contact");
    let written = created(&app, lead_of("ana@example.com", "5555550123", true)).await;
    for id in [&written, &by_email, &by_phone, &unticked] {
        assert_eq!(lead(&app, id).await["status"], "new", "{id}");
    }
    app.stop().await;
}

on_both_databases!(the_do_not_contact_list_is_per_person_and_outlives_the_lead);
