//! `/opt-out` and `/es/opt-out`: a visitor puts their own e-mail address and phone number on the
//! do-not-contact list with a plain form post, on SQLite and PostgreSQL: by e-mail, by phone,
//! both, the wrong posts answered in the page's language with what was typed, a post from another
//! site refused, the person's leads before and after read as do not contact, and the broker's
//! next lead e-mail listing each request once.

use serde_json::json;

use crate::callable_leads::app_on;
use crate::common::broker::{created, lead};
use crate::common::postgres::on_both_databases;
use crate::common::smtp::SmtpServer;
use crate::common::{no_redirects, TestApp};
use backend::store::DatabaseUrl;

/// The form posted to `path` with `fields` and extra `headers`, its redirect not followed.
async fn posted(
    app: &TestApp,
    path: &str,
    fields: &[(&str, &str)],
    headers: &[(&str, &str)],
) -> reqwest::Response {
    let mut request = no_redirects()
        .post(app.url(path))
        .header("content-type", "application/x-www-form-urlencoded")
        .body(
            form_urlencoded::Serializer::new(String::new())
                .extend_pairs(fields)
                .finish(),
        );
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    request.send().await.unwrap()
}

/// A post from the page itself, as a browser sends it.
const SAME_ORIGIN: [(&str, &str); 1] = [("sec-fetch-site", "same-origin")];

async fn status_of(app: &TestApp, id: &str) -> String {
    lead(app, id).await["status"].as_str().unwrap().to_owned()
}

async fn a_visitor_opts_out_by_email_phone_or_both(database: Option<DatabaseUrl>) {
    let app = app_on(database, None).await;
    let lead_of = |email: &str, phone: &str| {
        json!({"product": "family", "email": email, "phone": phone, "may_call": true,
               "zip": "60601"})
    };
    let ana = created(&app, lead_of("ana@example.com", "5555550123")).await;
    let bea = created(&app, lead_of("bea@example.com", "5555550124")).await;
    let cy = created(&app, lead_of("cy@example.com", "5555550125")).await;
    let stranger = created(&app, lead_of("dee@example.com", "5555550126")).await;

    // The page itself, in each language.
    for (path, words) in [
        ("/opt-out", "Do not contact me"),
        ("/es/opt-out", "No me contacten"),
    ] {
        let page = app.client.get(app.url(path)).send().await.unwrap();
        assert_eq!(page.status(), 200, "{path}");
        let html = page.text().await.unwrap();
        assert!(
            html.contains(words) && html.contains(&format!(r#"action="{path}""#)),
            "{html}"
        );
        assert!(!html.contains("{{"), "slots filled: {html}");
    }

    // By e-mail (any case), from the English page: 303 to the confirmation, nothing typed in it.
    let by_email = posted(
        &app,
        "/opt-out",
        &[("email", " ANA@Example.com ")],
        &SAME_ORIGIN,
    )
    .await;
    assert_eq!(by_email.status(), 303);
    assert_eq!(by_email.headers()["location"], "/opt-out/done");
    assert_eq!(status_of(&app, &ana).await, "do_not_contact");
    let done = app
        .client
        .get(app.url("/opt-out/done"))
        .send()
        .await
        .unwrap();
    assert_eq!(done.status(), 200);
    assert!(done
        .text()
        .await
        .unwrap()
        .contains("You are on our do-not-contact list"));

    // By phone, as the quote form reads it, from the Spanish page; again is fine.
    for _ in 0..2 {
        let by_phone = posted(
            &app,
            "/es/opt-out",
            &[("phone", "(555) 555-0124")],
            &SAME_ORIGIN,
        )
        .await;
        assert_eq!(by_phone.status(), 303);
        assert_eq!(by_phone.headers()["location"], "/es/opt-out/done");
    }
    assert_eq!(status_of(&app, &bea).await, "do_not_contact");

    // Both; no Sec-Fetch-Site, an Origin that is the site's.
    let origin = app.url("");
    let both = posted(
        &app,
        "/opt-out",
        &[("email", "cy@example.com"), ("phone", "+1 555 555 0125")],
        &[("origin", origin.as_str())],
    )
    .await;
    assert_eq!(both.status(), 303);
    assert_eq!(status_of(&app, &cy).await, "do_not_contact");
    assert_eq!(status_of(&app, &stranger).await, "new");

    // Later leads of those people arrive do not contact (with no Call link), unless they tick
    // the box again: only a new written consent takes them off.
    let unticked = json!({"product": "family", "email": "other@example.com",
                          "phone": "5555550124", "may_call": false, "zip": "60601"});
    let later = created(&app, unticked).await;
    let stored = lead(&app, &later).await;
    assert_eq!(stored["status"], "do_not_contact", "{stored}");

    // Wrong posts: 422, in the page's language, with what was typed; nothing stored.
    for (path, fields, words) in [
        (
            "/opt-out",
            vec![],
            "Please enter your e-mail address or your phone number.",
        ),
        (
            "/es/opt-out",
            vec![("email", "dee@")],
            "Escriba un correo electrónico válido.",
        ),
        (
            "/opt-out",
            vec![("phone", "555-155-0126")],
            "Please enter a valid US phone number.",
        ),
        (
            "/es/opt-out",
            vec![("email", "dee@"), ("phone", "12")],
            "Escriba un correo electrónico y un número de teléfono de EE. UU. válidos.",
        ),
    ] {
        let refused = posted(&app, path, &fields, &SAME_ORIGIN).await;
        assert_eq!(refused.status(), 422, "{fields:?}");
        let html = refused.text().await.unwrap();
        assert!(html.contains(words), "{html}");
        for (_, value) in &fields {
            assert!(
                html.contains(&format!(r#"value="{value}""#)),
                "{value} kept: {html}"
            );
        }
    }
    assert_eq!(status_of(&app, &stranger).await, "new");

    // A post from another site's page is refused and changes nothing.
    for headers in [
        [("sec-fetch-site", "cross-site")],
        [("origin", "https://evil.example")],
    ] {
        let cross = posted(&app, "/opt-out", &[("email", "dee@example.com")], &headers).await;
        assert_eq!(cross.status(), 403);
        let html = cross.text().await.unwrap();
        assert!(
            html.contains("another website") && html.contains(r#"value="dee@example.com""#),
            "{html}"
        );
    }
    assert_eq!(status_of(&app, &stranger).await, "new");
    app.stop().await;
}

on_both_databases!(a_visitor_opts_out_by_email_phone_or_both);

/// The broker's next lead e-mail lists each opt-out once, with the time it was asked.
async fn the_next_lead_email_lists_each_opt_out_once(database: Option<DatabaseUrl>) {
    let smtp = SmtpServer::plain();
    let env = smtp.env();
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let mut spawn = TestApp::spawn().env(&env);
    if let Some(database) = database {
        spawn = spawn.database(database);
    }
    let app = spawn.start().await;
    let opted = posted(
        &app,
        "/opt-out",
        &[("email", "Ana@Example.com"), ("phone", "555-555-0123")],
        &SAME_ORIGIN,
    )
    .await;
    assert_eq!(opted.status(), 303);
    app.post_lead("family", "bea@example.com").await;
    let first = smtp
        .wait_for("the first lead's e-mail", |m| m.len() == 1)
        .await;
    let text = first[0].text().replace("\r\n", "\n");
    assert!(text.contains("Asked not to be contacted"), "{text}");
    assert!(text.contains("E-mail ana@example.com, asked "), "{text}");
    assert!(text.contains("Phone +15555550123, asked "), "{text}");
    assert!(first[0]
        .html()
        .contains("<li>E-mail ana@example.com, asked "));
    app.post_lead("medicare", "cy@example.com").await;
    let both = smtp
        .wait_for("the second lead's e-mail", |m| m.len() == 2)
        .await;
    let listing = both
        .iter()
        .filter(|m| m.text().contains("Asked not to be contacted"))
        .count();
    assert_eq!(listing, 1, "told once");
    app.stop().await;
}

on_both_databases!(the_next_lead_email_lists_each_opt_out_once);
