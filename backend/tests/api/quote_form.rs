//! The quote form posted by the browser itself (no JavaScript): `303` to `/quote-result`, the
//! outcome in a cookie the result page reads once, the same rules, limits, honeypot and store as
//! JSON, and no typed value in a URL, a `Location` or a log line.

use crate::common::{cookie_parts, no_redirects, TestApp, FORM};
use backend::settings::rate_limit::RateLimit;
use backend::settings::trusted_proxies::TrustedProxies;

/// Result pages as the front end's build writes them, reduced to their slots: `{{reason}}`, the
/// form with the typed values and each field's message, and the product's success words.
const BUILT_FORM_PAGE: &str = r#"<h1>{{reason}}</h1><select name="product"><option value="">Select Product</option><option value="medicare" class="c">Medicare</option><option value="family" class="c">Family Health</option></select><span>{{product_error}}</span><input value="{{email}}"/><span>{{email_error}}</span>"#;
const BUILT_SUBMITTED_PAGE: &str = "<h1>Quote request submitted!</h1>";

/// The app with `BUILT_*` as its result pages, in `STATIC_DIR/.quote-result/` and, for the
/// Spanish site, in its `es/`.
fn with_built_pages() -> crate::common::Spawn {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("dist");
    for pages in [site.join(".quote-result"), site.join(".quote-result/es")] {
        std::fs::create_dir_all(&pages).unwrap();
        for file in [
            "failed.html",
            "invalid-product.html",
            "invalid-email.html",
            "invalid-both.html",
        ] {
            std::fs::write(pages.join(file), BUILT_FORM_PAGE).unwrap();
        }
        std::fs::write(pages.join("submitted.html"), BUILT_SUBMITTED_PAGE).unwrap();
    }
    std::fs::write(site.join("index.html"), crate::common::INDEX_HTML).unwrap();
    TestApp::spawn().static_dir(site).dir(dir)
}

/// A browser's form post as its first step: the redirect itself, not followed.
async fn post_form(app: &TestApp, body: &str) -> reqwest::Response {
    post_form_with(app, body, &[]).await
}

/// The same with more request headers. It carries the form token the site's page gave, as a
/// person's browser does.
async fn post_form_with(app: &TestApp, body: &str, headers: &[(&str, &str)]) -> reqwest::Response {
    let headers = [&[("user-agent", "form-test")], headers].concat();
    app.form_post(&app.form_cookie(), &headers, body).await
}

/// What the browser does next: the result page, with the cookie the post set.
pub(crate) async fn follow(
    app: &TestApp,
    posted: reqwest::Response,
) -> (reqwest::StatusCode, String, String) {
    follow_to(app, posted, "/quote-result").await
}

/// The same for a post answered with the result page at `result_path`.
async fn follow_to(
    app: &TestApp,
    posted: reqwest::Response,
    result_path: &str,
) -> (reqwest::StatusCode, String, String) {
    assert_eq!(posted.status(), 303);
    assert_eq!(posted.headers()["location"], result_path);
    let set_cookie = posted.headers()["set-cookie"].to_str().unwrap().to_owned();
    for attribute in [
        &format!("Path={result_path}"),
        "HttpOnly",
        "SameSite=Strict",
        "Max-Age=",
    ] {
        assert!(set_cookie.contains(attribute), "{set_cookie}");
    }
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let page = no_redirects()
        .get(app.url(result_path))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    let status = page.status();
    let cleared = page.headers()["set-cookie"].to_str().unwrap().to_owned();
    assert!(
        cleared.starts_with("quote_result=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    assert_eq!(page.headers()["cache-control"], "no-store");
    (status, cleared, page.text().await.unwrap())
}

#[tokio::test]
async fn a_valid_form_post_is_stored_and_the_result_page_says_so() {
    let app = TestApp::start().await;
    let posted = post_form(&app, "product=family&email=+ana%40example.com+&website=").await;
    let (status, _, page) = follow(&app, posted).await;
    assert_eq!(status, 200);
    assert!(page.contains("Quote request submitted!"), "{page}");
    assert!(page.contains("We&#39;ll contact you shortly with more information."));
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].product.as_str(), rows[0].email.as_str()),
        ("family", "ana@example.com")
    );
    assert_eq!(rows[0].user_agent.as_deref(), Some("form-test"));
    app.stop().await;
}

#[tokio::test]
async fn wrong_fields_get_their_messages_with_what_was_typed() {
    let app = with_built_pages().start().await;
    let posted = post_form(&app, "product=&email=%3Cana%3E%40example").await;
    let (status, _, page) = follow(&app, posted).await;
    assert_eq!(status, 200);
    assert!(page.contains("Please select a product"), "{page}");
    assert!(page.contains("Please enter a valid email address"));
    assert!(
        page.contains("&lt;ana&gt;@example"),
        "typed value kept, escaped"
    );
    let posted = post_form(&app, "product=medicare&email=nope").await;
    let (_, _, page) = follow(&app, posted).await;
    assert!(!page.contains("Please select a product"));
    assert!(page.contains(r#"<option value="medicare" selected="""#));
    assert!(page.contains("Please enter a valid email address"));
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn a_double_submit_is_one_lead_and_a_filled_honeypot_spam() {
    let app = TestApp::start().await;
    let body = "product=employer&email=twice%40example.com&website=";
    let (first, second) = tokio::join!(post_form(&app, body), post_form(&app, body));
    for posted in [first, second] {
        let (_, _, page) = follow(&app, posted).await;
        assert!(page.contains("Quote request submitted!"));
    }
    let (_, _, page) = follow(&app, post_form(&app, body).await).await;
    assert!(
        page.contains("Quote request submitted!"),
        "a third time too"
    );
    assert_eq!(app.rows().await.len(), 1);

    let bot = post_form(
        &app,
        "product=family&email=bot%40example.com&website=http%3A%2F%2Fspam",
    )
    .await;
    let (_, _, page) = follow(&app, bot).await;
    assert!(page.contains("Quote request submitted!"));
    let rows = app.rows().await;
    assert_eq!(rows.len(), 2);
    let bot = rows.iter().find(|r| r.email == "bot@example.com").unwrap();
    assert_eq!(bot.spam_reason.as_deref(), Some("honeypot"));
    let bot = post_form(&app, "product=&email=bot&website=http%3A%2F%2Fspam").await;
    let (_, _, page) = follow(&app, bot).await;
    assert!(page.contains("Quote request submitted!"));
    assert_eq!(
        app.rows().await.len(),
        2,
        "the honeypot with fields that cannot be stored stored nothing"
    );
    app.stop().await;
}

#[tokio::test]
async fn over_the_rate_limit_the_page_says_429_and_why() {
    let app = with_built_pages()
        .configure(|c| {
            c.rate_limit = Some(RateLimit {
                per_minute: 1,
                burst: 1,
            });
            c.trusted_proxies = TrustedProxies::parse("").unwrap();
        })
        .start()
        .await;
    let (_, _, page) = follow(
        &app,
        post_form(&app, "product=family&email=a%40example.com").await,
    )
    .await;
    assert!(page.contains("Quote request submitted!"));
    let limited = post_form(&app, "product=family&email=b%40example.com").await;
    let (_, _, page) = follow(&app, limited).await;
    assert!(
        page.contains("<h1>429: Too many quote requests from your network."),
        "{page}"
    );
    assert!(
        page.contains("b@example.com"),
        "typed value kept for a retry"
    );
    // The JSON API shares the client's bucket.
    let json = app
        .post_json(r#"{"product":"family","email":"c@example.com"}"#)
        .await;
    assert_eq!(json.status(), 429);
    assert_eq!(app.rows().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn a_database_outage_is_a_503_page_and_nothing_is_lost_once_back() {
    let app = TestApp::start().await;
    let holder = app.hold_write_lock();
    let body = "product=medicaid&email=retry%40example.com";
    let (_, _, page) = follow(&app, post_form(&app, body).await).await;
    assert!(page.contains("Submission failed"), "{page}");
    assert!(page.contains("503: The service is briefly unavailable."));
    drop(holder);
    let (_, _, page) = follow(&app, post_form(&app, body).await).await;
    assert!(page.contains("Quote request submitted!"));
    assert_eq!(app.rows().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn the_result_page_without_its_cookie_leads_back_to_the_form() {
    let app = TestApp::start().await;
    let client = no_redirects();
    for cookie in [None, Some("quote_result=o=made-up"), Some("quote_result=")] {
        let mut request = client.get(app.url("/quote-result"));
        if let Some(cookie) = cookie {
            request = request.header("cookie", cookie);
        }
        let response = request.send().await.unwrap();
        assert_eq!(response.status(), 303, "{cookie:?}");
        assert_eq!(response.headers()["location"], "/#quote");
    }
    app.stop().await;
}

#[tokio::test]
async fn json_posts_are_unchanged_and_other_bodies_still_415() {
    let app = TestApp::start().await;
    let json = app
        .post_json(r#"{"product":"family","email":"json@example.com"}"#)
        .await;
    assert_eq!(json.status(), 201);
    let text = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("content-type", "text/plain")
        .body("product=family")
        .send()
        .await
        .unwrap();
    assert_eq!(text.status(), 415);
    app.stop().await;
}

#[tokio::test]
async fn built_result_pages_get_their_slots_filled() {
    let app = with_built_pages().start().await;
    let (_, _, page) = follow(&app, post_form(&app, "product=family&email=ana%40").await).await;
    assert_eq!(
        page,
        r#"<h1></h1><select name="product"><option value="">Select Product</option><option value="medicare" class="c">Medicare</option><option value="family" selected="" class="c">Family Health</option></select><span></span><input value="ana@"/><span>Please enter a valid email address</span>"#
    );
    // The hidden folder is not served as it is.
    assert_eq!(app.get("/.quote-result/failed.html").await.status(), 404);
    app.stop().await;
}

#[tokio::test]
async fn without_a_built_front_end_plain_pages_say_it() {
    let app = TestApp::start().await;
    let (status, _, page) = follow(&app, post_form(&app, "product=&email=x").await).await;
    assert_eq!(status, 200);
    assert!(page.contains("Please select a product"), "{page}");
    assert!(page.contains(r##"<a href="/#quote">"##));
    app.stop().await;
}

#[tokio::test]
async fn an_oversized_form_body_is_a_413_failure_page() {
    let app = TestApp::start().await;
    let body = "x".repeat(17 * 1024);
    let (_, _, page) = follow(&app, post_form(&app, &body).await).await;
    assert!(
        page.contains("413: The request body is larger than 16384 bytes"),
        "{page}"
    );
    app.stop().await;
}

#[tokio::test]
async fn a_client_may_name_its_form_post_and_a_malformed_key_is_400() {
    let app = with_built_pages().start().await;
    let client = no_redirects();
    let post = |key: &'static str, body: &'static str| {
        client
            .post(app.url("/api/quote-requests"))
            .header("content-type", FORM)
            .header("cookie", &app.form_cookie())
            .header("idempotency-key", key)
            .body(body)
            .send()
    };
    let malformed = post("two words", "product=family&email=a%40example.com")
        .await
        .unwrap();
    assert_eq!(malformed.status(), 400);
    let body: serde_json::Value = malformed.json().await.unwrap();
    assert_eq!(body["code"], "invalid_parameter");

    let first = post("k-1", "product=family&email=a%40example.com")
        .await
        .unwrap();
    assert!(follow(&app, first)
        .await
        .2
        .contains("Quote request submitted!"));
    let other = post("k-1", "product=family&email=b%40example.com")
        .await
        .unwrap();
    let (_, _, page) = follow(&app, other).await;
    assert!(
        page.contains("<h1>409: This Idempotency-Key was already used"),
        "{page}"
    );
    assert_eq!(app.rows().await.len(), 1);
    app.stop().await;
}

#[tokio::test]
async fn over_https_the_result_cookie_is_secure() {
    let app = TestApp::start().await;
    let cookie = |proto: &'static str| {
        let app = &app;
        async move {
            let body = "product=family&email=ana%40example.com&website=";
            let posted = post_form_with(app, body, &[("x-forwarded-proto", proto)]).await;
            posted.headers()["set-cookie"].to_str().unwrap().to_owned()
        }
    };
    // The test's own address is a trusted proxy (the default, loopback), so its word counts.
    let over_https = cookie("https").await;
    assert!(
        cookie_parts(&over_https).1.contains(&"Secure"),
        "{over_https}"
    );
    let over_http = cookie("http").await;
    assert!(!over_http.contains("Secure"), "{over_http}");
    app.stop().await;
}

#[tokio::test]
async fn a_post_from_the_spanish_page_ends_on_the_spanish_result_page() {
    let app = with_built_pages().start().await;
    let posted = post_form(&app, "product=family&email=ana%40example.com&lang=es").await;
    assert_eq!(posted.status(), 303);
    assert_eq!(posted.headers()["location"], "/es/quote-result");
    let set_cookie = posted.headers()["set-cookie"].to_str().unwrap();
    assert!(set_cookie.contains("Path=/es/quote-result"), "{set_cookie}");
    let cookie = set_cookie.split(';').next().unwrap().to_owned();
    let page = app
        .client
        .get(app.url("/es/quote-result"))
        .header("cookie", cookie)
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    assert_eq!(rows[0].language, backend::store::Language::Es);
    app.stop().await;
}

/// The result page's reason (`{{reason}}`) for a post from `/es/` is the server's message in
/// Spanish, for every failure a form post meets: the post's `lang` says the page, and a body the
/// server could not read has the page in its `Referer`. Held as spam (the honeypot) is answered
/// as a success, in Spanish as well.
#[tokio::test]
async fn a_post_from_the_spanish_page_fails_in_spanish() {
    // Three quotes at once, then one a minute, counted by the connecting address (no proxy).
    let app = with_built_pages()
        .env(&[
            ("RATE_LIMIT_PER_MINUTE", "1"),
            ("RATE_LIMIT_BURST", "3"),
            ("TRUSTED_PROXIES", ""),
        ])
        .start()
        .await;
    const SPANISH: &str = "/es/quote-result";
    let reason = |page: &str| {
        let start = page.find("<h1>").unwrap() + 4;
        page[start..page.find("</h1>").unwrap()].to_owned()
    };
    let spanish_page = format!("http://{}/es/", app.addr);
    let too_large = "x".repeat(17 * 1024);
    let posted = post_form_with(&app, &too_large, &[("referer", &spanish_page)]).await;
    let (_, _, page) = follow_to(&app, posted, SPANISH).await;
    assert_eq!(
        reason(&page),
        "413: El cuerpo de la solicitud supera los 16384 bytes"
    );

    // Valid fields with the honeypot: stored as spam, so it spends a quote token.
    let bot = "product=family&email=bot%40example.com&website=x&lang=es";
    let (_, _, page) = follow_to(&app, post_form(&app, bot).await, SPANISH).await;
    assert_eq!(
        page, BUILT_SUBMITTED_PAGE,
        "the Spanish pages' success page"
    );

    let keyed = |email: &str| format!("product=family&email={email}%40example.com&lang=es");
    let other = post_form_with(&app, &keyed("ana"), &[("idempotency-key", "k-1")]).await;
    follow_to(&app, other, SPANISH).await;
    let other = post_form_with(&app, &keyed("bea"), &[("idempotency-key", "k-1")]).await;
    let (_, _, page) = follow_to(&app, other, SPANISH).await;
    assert_eq!(
        reason(&page),
        "409: Esta Idempotency-Key ya se usó para otra solicitud; esa solicitud anterior se mantiene. Envíe una clave nueva para una solicitud nueva."
    );

    let limited = post_form(&app, &keyed("cy")).await;
    let (_, _, page) = follow_to(&app, limited, SPANISH).await;
    assert!(
        reason(&page).starts_with(
            "429: Demasiadas solicitudes de cotización desde su red. Inténtelo de nuevo en "
        ),
        "{page}"
    );
    assert!(page.contains("cy@example.com"), "typed value kept");

    // From another site's copy of the Spanish form: the refusal page is Spanish too.
    let refused = post_form_with(&app, &keyed("dia"), &[("sec-fetch-site", "cross-site")]).await;
    assert_eq!(refused.status(), 403);
    let page = refused.text().await.unwrap();
    assert!(page.contains(r#"<html lang="es">"#), "{page}");
    assert!(page.contains("<h1>Use nuestro formulario de cotización</h1>"));
    assert!(page.contains(r##"<a href="/es/#quote">Ir al formulario de cotización</a>"##));
    app.stop().await;
}

#[tokio::test]
async fn a_database_failure_or_outage_on_the_spanish_page_says_why_in_spanish() {
    let app = with_built_pages().start().await;
    let body = "product=medicaid&email=retry%40example.com&lang=es";
    let holder = app.hold_write_lock();
    let (_, _, page) = follow_to(&app, post_form(&app, body).await, "/es/quote-result").await;
    assert!(
        page.contains("<h1>503: El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos.</h1>"),
        "{page}"
    );
    drop(holder);
    app.refuse_inserts();
    let (_, _, page) = follow_to(&app, post_form(&app, body).await, "/es/quote-result").await;
    assert!(
        page.contains("<h1>500: No pudimos guardar su solicitud. Inténtelo de nuevo.</h1>"),
        "{page}"
    );
    app.stop().await;
}
