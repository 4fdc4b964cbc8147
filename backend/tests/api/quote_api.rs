use std::collections::HashSet;

use crate::common::TestApp;
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};

async fn json(response: reqwest::Response) -> Value {
    response.json().await.expect("a JSON body")
}

#[tokio::test]
async fn a_valid_quote_is_stored_and_gets_its_id() {
    let app = TestApp::start().await;
    let response = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("content-type", "application/json; charset=utf-8")
        .header("user-agent", "integration-test")
        .body(r#"{"product":" family ","email":" ana@example.com ","ignored":true}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 201);
    let id = json(response).await["id"].as_str().unwrap().to_owned();
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1);
    let row = &rows[0];
    assert_eq!(row.id, id);
    assert_eq!(
        (row.product.as_str(), row.email.as_str()),
        ("family", "ana@example.com")
    );
    assert_eq!(row.source, backend::store::Source::Web);
    assert_eq!(row.user_agent.as_deref(), Some("integration-test"));
    let age = time::OffsetDateTime::now_utc() - row.created_at;
    assert!(
        row.created_at.offset().is_utc() && age.whole_seconds().abs() < 60,
        "created {}",
        row.created_at
    );
    app.stop().await;
}

#[tokio::test]
async fn invalid_fields_get_422_with_each_message_and_store_nothing() {
    let app = TestApp::start().await;
    let response = app.post_json(r#"{"product":"","email":"nope"}"#).await;
    assert_eq!(response.status(), 422);
    let body = json(response).await;
    assert_eq!(body["code"], "validation_failed");
    assert_eq!(body["fields"]["product"], "Please select a product");
    assert_eq!(
        body["fields"]["email"],
        "Please enter a valid email address"
    );

    let body = json(app.post_json(r#"{"product":"employer"}"#).await).await;
    assert_eq!(
        body["fields"],
        serde_json::json!({"email": "Please enter a valid email address"})
    );
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn malformed_json_is_400() {
    let app = TestApp::start().await;
    for body in [r#"{"product":"family""#, "[]", "", "null"] {
        let response = app.post_json(body).await;
        assert_eq!(response.status(), 400, "body {body:?}");
        let body = json(response).await;
        assert_eq!(body["code"], "malformed_json");
        assert!(body["message"].as_str().unwrap().len() > 10);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_415() {
    let app = TestApp::start().await;
    let response = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("content-type", "text/plain")
        .body("product=family&email=a%40b.co")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), 415);
    assert_eq!(json(response).await["code"], "unsupported_media_type");
    let no_type = app
        .client
        .post(app.url("/api/quote-requests"))
        .body("{}")
        .send()
        .await
        .unwrap();
    assert_eq!(no_type.status(), 415);
    app.stop().await;
}

#[tokio::test]
async fn a_body_over_16_kib_is_413_with_or_without_a_length() {
    let app = TestApp::start().await;
    let padding = "x".repeat(16 * 1024);
    let big = format!(r#"{{"product":"family","email":"a@b.co","pad":"{padding}"}}"#);
    let response = app.post_json(&big).await;
    assert_eq!(response.status(), 413);
    assert_eq!(json(response).await["code"], "payload_too_large");

    // Chunked transfer, no Content-Length: warp's own limit filter would answer 411 here.
    let mut stream = tokio::net::TcpStream::connect(app.addr).await.unwrap();
    let mut request = String::from(
        "POST /api/quote-requests HTTP/1.1\r\nhost: test\r\ncontent-type: application/json\r\n\
         transfer-encoding: chunked\r\nconnection: close\r\n\r\n",
    );
    for chunk in big.as_bytes().chunks(4096) {
        request.push_str(&format!(
            "{:x}\r\n{}\r\n",
            chunk.len(),
            std::str::from_utf8(chunk).unwrap()
        ));
    }
    request.push_str("0\r\n\r\n");
    let _ = stream.write_all(request.as_bytes()).await;
    let mut answer = String::new();
    let _ = stream.read_to_string(&mut answer).await;
    assert!(
        answer.starts_with("HTTP/1.1 413"),
        "got {}",
        answer.lines().next().unwrap_or("")
    );
    assert!(answer.contains("payload_too_large"));

    // Exactly at the limit is fine.
    let filler = "y".repeat(16 * 1024 - r#"{"product":"family","email":"a@b.co","p":""}"#.len());
    let exact = format!(r#"{{"product":"family","email":"a@b.co","p":"{filler}"}}"#);
    assert_eq!(exact.len(), 16 * 1024);
    assert_eq!(app.post_json(&exact).await.status(), 201);
    app.stop().await;
}

#[tokio::test]
async fn wrong_method_is_405_and_unknown_api_path_is_404() {
    let app = TestApp::start().await;
    let response = app.get("/api/quote-requests").await;
    assert_eq!(response.status(), 405);
    assert_eq!(response.headers()["allow"], "POST");
    assert_eq!(json(response).await["code"], "method_not_allowed");

    for path in ["/api/nothing-here", "/api", "/api/quote-requests/extra"] {
        let response = app.get(path).await;
        assert_eq!(response.status(), 404, "{path}");
        assert_eq!(json(response).await["code"], "not_found");
    }
    app.stop().await;
}

#[tokio::test]
async fn a_thousand_concurrent_posts_make_a_thousand_rows_with_distinct_ids() {
    let app = TestApp::start().await;
    let posts = (0..1000).map(|i| {
        let client = app.client.clone();
        let url = app.url("/api/quote-requests");
        tokio::spawn(async move {
            let response = client
                .post(url)
                .header("content-type", "application/json")
                .body(format!(
                    r#"{{"product":"medicare","email":"person{i}@example.com"}}"#
                ))
                .send()
                .await
                .unwrap();
            assert_eq!(response.status(), 201);
            response.json::<Value>().await.unwrap()["id"]
                .as_str()
                .unwrap()
                .to_owned()
        })
    });
    let mut ids = HashSet::new();
    for post in posts.collect::<Vec<_>>() {
        ids.insert(post.await.unwrap());
    }
    assert_eq!(ids.len(), 1000);
    let rows = app.rows().await;
    assert_eq!(rows.len(), 1000);
    assert_eq!(
        rows.iter().map(|r| r.id.clone()).collect::<HashSet<_>>(),
        ids
    );
    app.stop().await;
}

#[tokio::test]
async fn a_row_the_database_refuses_answers_500_with_a_json_body() {
    let app = TestApp::start().await;
    app.refuse_inserts();
    let response = app
        .post_json(r#"{"product":"family","email":"a@b.co"}"#)
        .await;
    assert_eq!(response.status(), 500);
    let body = json(response).await;
    assert_eq!(body["code"], "storage_failed");
    assert_eq!(
        body["message"],
        "We could not save your request. Please try again."
    );
    // From the Spanish page, in Spanish.
    let spanish = r#"{"product":"family","email":"a@b.co","lang":"es"}"#;
    let (status, _, message, _) = refusal(&app, "application/json", spanish, &[]).await;
    assert_eq!(
        (status, message.as_str()),
        (500, "No pudimos guardar su solicitud. Inténtelo de nuevo.")
    );
    app.stop().await;
}

#[tokio::test]
async fn the_lead_records_the_language_of_its_page() {
    let app = TestApp::start().await;
    for (body, email) in [
        (
            r#"{"product":"family","email":"es@example.com","lang":"es"}"#,
            "es@example.com",
        ),
        (
            r#"{"product":"family","email":"en@example.com"}"#,
            "en@example.com",
        ),
        (
            r#"{"product":"family","email":"xx@example.com","lang":"xx"}"#,
            "xx@example.com",
        ),
    ] {
        assert_eq!(app.post_json(body).await.status(), 201, "{email}");
    }
    let mut rows = app.rows().await;
    rows.sort_by(|a, b| a.email.cmp(&b.email));
    let languages: Vec<_> = rows
        .iter()
        .map(|r| (r.email.as_str(), r.language))
        .collect();
    use backend::store::Language::{En, Es};
    assert_eq!(
        languages,
        [
            ("en@example.com", En),
            ("es@example.com", Es),
            ("xx@example.com", En)
        ]
    );
    app.stop().await;
}

/// A JSON post's refusal: status, `code`, `message` and `Retry-After`.
async fn refusal(
    app: &TestApp,
    content_type: &str,
    body: &str,
    headers: &[(&str, &str)],
) -> (u16, String, String, Option<String>) {
    let mut request = app
        .client
        .post(app.url("/api/quote-requests"))
        .header("content-type", content_type);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    let response = request.body(body.to_owned()).send().await.unwrap();
    let status = response.status().as_u16();
    let retry_after = response
        .headers()
        .get("retry-after")
        .map(|v| v.to_str().unwrap().to_owned());
    let body = json(response).await;
    let text = |key: &str| body[key].as_str().unwrap_or_default().to_owned();
    (status, text("code"), text("message"), retry_after)
}

/// The form's failure toast shows `<status>: <message>` (docs/product.md §8): from `/es/` the
/// server writes its message in Spanish, by the post's `lang` or, for a body it could not read,
/// by the page in its `Referer`; from `/` the spec's English stays.
#[tokio::test]
async fn refusals_of_a_post_from_the_spanish_page_are_in_spanish() {
    // Two quotes at once, then one a minute, counted by the connecting address (no proxy).
    let app = TestApp::spawn()
        .env(&[
            ("RATE_LIMIT_PER_MINUTE", "1"),
            ("RATE_LIMIT_BURST", "2"),
            ("TRUSTED_PROXIES", ""),
        ])
        .start()
        .await;
    const JSON: &str = "application/json";
    let spanish_page = format!("http://{}/es/", app.addr);
    let from_spanish_page: &[(&str, &str)] = &[("referer", &spanish_page)];
    let big = format!(r#"{{"lang":"es","pad":"{}"}}"#, "x".repeat(16 * 1024));
    for (content_type, body, headers, status, message) in [
        (
            JSON,
            r#"{"product":"dental","email":"ana@","lang":"es"}"#,
            &[][..],
            422,
            "Algunos campos no son válidos",
        ),
        (
            "text/plain",
            "product=family",
            from_spanish_page,
            415,
            "Envíe el cuerpo de la solicitud como application/json",
        ),
        (
            "text/plain",
            "product=family",
            &[],
            415,
            "Send the request body as application/json",
        ),
        (
            JSON,
            &big,
            from_spanish_page,
            413,
            "El cuerpo de la solicitud supera los 16384 bytes",
        ),
    ] {
        let (got, _, got_message, _) = refusal(&app, content_type, body, headers).await;
        assert_eq!((got, got_message.as_str()), (status, message));
    }
    let (status, code, message, _) = refusal(&app, JSON, "{", from_spanish_page).await;
    assert_eq!((status, code.as_str()), (400, "malformed_json"));
    assert!(
        message.starts_with("El cuerpo de la solicitud no es JSON válido: "),
        "{message}"
    );

    let keyed = [("idempotency-key", "k-1")];
    let first = r#"{"product":"family","email":"ana@example.com","lang":"es"}"#;
    assert_eq!(refusal(&app, JSON, first, &keyed).await.0, 201);
    let other = r#"{"product":"family","email":"bea@example.com","lang":"es"}"#;
    let (status, code, message, _) = refusal(&app, JSON, other, &keyed).await;
    assert_eq!((status, code.as_str()), (409, "idempotency_conflict"));
    assert_eq!(message, "Esta Idempotency-Key ya se usó para otra solicitud; esa solicitud anterior se mantiene. Envíe una clave nueva para una solicitud nueva.");

    let third = r#"{"product":"family","email":"cy@example.com","lang":"es"}"#;
    let (status, _, message, retry_after) = refusal(&app, JSON, third, &[]).await;
    assert_eq!(status, 429);
    assert_eq!(
        message,
        format!(
            "Demasiadas solicitudes de cotización desde su red. Inténtelo de nuevo en {} segundos.",
            retry_after.unwrap()
        )
    );
    let english = r#"{"product":"family","email":"cy@example.com"}"#;
    let (status, _, message, retry_after) = refusal(&app, JSON, english, &[]).await;
    assert_eq!(status, 429);
    assert_eq!(
        message,
        format!(
            "Too many quote requests from your network. Please try again in {} seconds.",
            retry_after.unwrap()
        )
    );
    app.stop().await;
}

#[tokio::test]
async fn a_database_outage_is_answered_in_spanish_from_the_spanish_page() {
    let app = TestApp::start().await;
    let spanish = r#"{"product":"family","email":"ana@example.com","lang":"es"}"#;
    // Another process holds the write lock past the busy timeout: 503.
    let holder = app.hold_write_lock();
    let (status, code, message, _) = refusal(&app, "application/json", spanish, &[]).await;
    assert_eq!((status, code.as_str()), (503, "database_unavailable"));
    assert_eq!(
        message,
        "El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos."
    );
    holder.execute_batch("ROLLBACK").unwrap();
    app.stop().await;
}
