//! The assistant books too (docs/product.md §13): through the voice events' route, with its
//! secret, `available_times` answers the times the booking page offers, on the broker's clock,
//! and `book_call` books one with the same records as the page (the lead, the booking and the
//! Scope of Appointment's record in the chain, here of channel `voice` and linked to the call),
//! which `backend records verify` passes. The provider sending the call again books nothing more;
//! a time taken meanwhile, or a wrong argument, is a tool result the assistant can say, in the
//! conversation's language. With booking off the tools are refused.

use backend::store::consent::sha256_hex;
use backend::store::DatabaseUrl;
use serde_json::{json, Value};

use crate::booking::{offered, page, site, STATEMENT, STATEMENT_ES};
use crate::common::broker::{admin, TOKEN};
use crate::common::postgres::on_both_databases;
use crate::common::voice::{answer, post_voice_event};
use crate::common::{first_value, TestApp};
use crate::consent_records::head;

const SECRET: &str = "voice-secret-booking";

async fn app(database: Option<DatabaseUrl>, booking: bool) -> TestApp {
    let dir = tempfile::tempdir().unwrap();
    let static_dir = site(&dir, booking);
    let spawn = TestApp::spawn()
        .static_dir(static_dir)
        .dir(dir)
        .configure(|config| {
            config.leads.admin_token = Some(TOKEN.into());
            config.leads.voice_events_secret = Some(SECRET.into());
        });
    match database {
        Some(database) => spawn.database(database),
        None => spawn,
    }
    .start()
    .await
}

/// A `tool-calls` message of call `call_id` from the page in `language`, with one call.
fn tool_call(call_id: &str, language: &str, id: &str, name: &str, arguments: Value) -> Value {
    json!({"message": {
        "type": "tool-calls",
        "call": {"id": call_id, "assistantOverrides": {"variableValues": {"language": language}}},
        "toolCallList": [{"id": id, "type": "function",
            "function": {"name": name, "arguments": arguments.to_string()}}],
    }})
}

/// The one result of a tool call: `Ok(result)` or `Err(error)`.
async fn run(app: &TestApp, message: &Value) -> Result<String, String> {
    let answered = answer(app, SECRET, message).await;
    let result = &answered["results"][0];
    match (result["result"].as_str(), result["error"].as_str()) {
        (Some(result), None) => Ok(result.to_owned()),
        (None, Some(error)) => Err(error.to_owned()),
        _ => panic!("{answered}"),
    }
}

fn book(slot: &str, email: &str, language: &str) -> Value {
    json!({"slot": slot, "name": "Ana Ruiz", "email": email, "phone": "(555) 555-0123",
           "may_call": true, "products": ["part_d", "medicare_advantage"],
           "language": language})
}

async fn the_assistant_offers_the_pages_times_and_books_one(database: Option<DatabaseUrl>) {
    let app = app(database, true).await;
    let times = offered(&page(&app, "/book").await.1);
    assert!(times.len() > 10, "{times:?}");

    // The next times, on the broker's clock, each with the value the page posts.
    let open = run(
        &app,
        &tool_call("call-b1", "en", "t1", "available_times", json!({})),
    )
    .await
    .unwrap();
    assert!(
        open.starts_with("Open times, on the broker's clock (UTC): "),
        "{open}"
    );
    for time in &times[..6] {
        assert!(open.contains(&format!("(value {time})")), "{time}: {open}");
    }
    assert!(!open.contains(&times[6]), "a handful: {open}");
    // From a later date of the broker's calendar: none before it.
    let later = &times.last().unwrap()[..10];
    let from = run(
        &app,
        &tool_call(
            "call-b1",
            "es",
            "t2",
            "available_times",
            json!({"from": later}),
        ),
    )
    .await
    .unwrap();
    assert!(from.starts_with("Horas libres, en la hora del corredor (UTC): "));
    let listed: Vec<&str> = from.split("(valor ").skip(1).collect();
    assert!(!listed.is_empty(), "{from}");
    assert!(listed.iter().all(|value| &value[..10] >= later), "{from}");

    // Booked with the Scope of Appointment read in English.
    let slot = &times[2];
    let booking = tool_call(
        "call-b1",
        "en",
        "t3",
        "book_call",
        book(slot, "ana@example.com", "en"),
    );
    let booked = run(&app, &booking).await.unwrap();
    assert!(booked.starts_with("Booked: a call on "), "{booked}");
    assert!(
        booked.contains("for Ana Ruiz (ana@example.com)"),
        "{booked}"
    );
    assert!(!offered(&page(&app, "/book").await.1).contains(slot));
    // Sent again by the provider: the same answer, one booking.
    let again = run(&app, &booking).await;
    assert_eq!(again, Ok(booked));

    let listed = admin(&app, "/api/admin/bookings").await;
    let bookings = listed["bookings"].as_array().unwrap();
    assert_eq!(bookings.len(), 1, "{listed}");
    let soa = &bookings[0]["soa"];
    assert_eq!(soa["products"], json!(["medicare_advantage", "part_d"]));
    assert_eq!(soa["signature"], "Ana Ruiz");
    assert_eq!(soa["sha256"], sha256_hex(STATEMENT));
    assert_eq!(soa["channel"], "voice");
    assert_eq!(
        bookings[0]["starts_at"]
            .as_str()
            .unwrap()
            .replace(".000", ""),
        *slot
    );
    let lead_id = bookings[0]["lead_id"].as_str().unwrap();
    let lead = admin(&app, &format!("/api/admin/quote-requests/{lead_id}")).await;
    assert_eq!(lead["email"], "ana@example.com");
    assert_eq!(lead["phone"], "+15555550123");
    assert_eq!(lead["source"], "voice");
    // The record links the call, in its evidence (under its hash) and in `call_id`.
    let linked: String = first_value(
        &app.database,
        "SELECT call_id || ' ' || evidence FROM consent_records WHERE kind = 'soa'",
    )
    .await;
    assert_eq!(
        linked,
        "call-b1 {\"call_id\":\"call-b1\",\"products\":[\"medicare_advantage\",\"part_d\"],\"signature\":\"Ana Ruiz\"}"
    );
    let (records, _) = head(&app.database);
    assert_eq!(records, 2, "the lead's record and its Scope of Appointment");

    // Another caller, the same time: taken, with the times still open.
    let taken = run(
        &app,
        &tool_call(
            "call-b2",
            "es",
            "t1",
            "book_call",
            book(slot, "bo@example.com", "es"),
        ),
    )
    .await
    .unwrap_err();
    assert!(
        taken.starts_with(
            "No se reservó: otra persona acaba de reservar esa hora. Horas aún libres: "
        ),
        "{taken}"
    );
    assert!(
        !taken.contains(slot.as_str()) && taken.contains(times[3].as_str()),
        "{taken}"
    );
    // The Spanish statement, read in a call from the Spanish page.
    let spanish = run(
        &app,
        &tool_call(
            "call-b2",
            "es",
            "t2",
            "book_call",
            book(&times[4], "bo@example.com", "es"),
        ),
    )
    .await
    .unwrap();
    assert!(
        spanish.starts_with("Reservada: una llamada el "),
        "{spanish}"
    );
    let listed = admin(&app, "/api/admin/bookings").await;
    let statements: Vec<&Value> = listed["bookings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|booking| &booking["soa"]["sha256"])
        .collect();
    assert!(
        statements.contains(&&json!(sha256_hex(STATEMENT_ES))),
        "{listed}"
    );
    let (records, _) = head(&app.database);
    assert_eq!(records, 4);
    app.stop().await;
}

on_both_databases!(the_assistant_offers_the_pages_times_and_books_one);

#[tokio::test]
async fn a_booking_in_the_chat_is_agreed_in_writing_there() {
    let app = app(None, true).await;
    let times = offered(&page(&app, "/es/book").await.1);
    let message = json!({"message": {
        "type": "tool-calls",
        "chat": {"id": "chat-1", "sessionId": "sess-1",
                 "assistantOverrides": {"variableValues": {"language": "es"}}},
        "toolCallList": [{"id": "t1", "name": "book_call",
            "parameters": book(&times[0], "ana@example.com", "es")}],
    }});
    let said = run(&app, &message).await.unwrap();
    assert!(said.starts_with("Reservada: "), "{said}");
    let listed = admin(&app, "/api/admin/bookings").await;
    let soa = &listed["bookings"][0]["soa"];
    assert_eq!(soa["channel"], "chat");
    assert_eq!(soa["sha256"], sha256_hex(STATEMENT_ES));
    let linked: String = first_value(
        &app.database,
        "SELECT call_id FROM consent_records WHERE kind = 'soa'",
    )
    .await;
    assert_eq!(linked, "chat:sess-1");
    head(&app.database);
    app.stop().await;
}

#[tokio::test]
async fn wrong_arguments_are_named_in_the_conversations_language_and_book_nothing() {
    let app = app(None, true).await;
    let wrong = json!({"slot": "mañana", "name": " ", "email": "ana@", "phone": "555",
                       "products": ["dental"], "language": "fr"});
    let said = run(&app, &tool_call("call-w", "es", "t1", "book_call", wrong))
        .await
        .unwrap_err();
    assert!(
        said.starts_with("No se reservó. slot: \"mañana\""),
        "{said}"
    );
    for named in [
        "name:",
        "email: \"ana@\"",
        "phone:",
        "products:",
        "language: \"fr\"",
    ] {
        assert!(said.contains(named), "{named}: {said}");
    }
    // In English from the English page; a time the hours never offer is the slot's error.
    let never = book("2020-01-01T00:00:00Z", "ana@example.com", "en");
    let said = run(&app, &tool_call("call-w", "en", "t2", "book_call", never))
        .await
        .unwrap_err();
    assert!(
        said.starts_with("Not booked. slot: that time is not open to book"),
        "{said}"
    );
    let said = run(
        &app,
        &tool_call(
            "call-w",
            "en",
            "t3",
            "available_times",
            json!({"from": "next week"}),
        ),
    )
    .await
    .unwrap_err();
    assert_eq!(
        said,
        "from: \"next week\" is not a date such as 2026-03-09."
    );
    let unreadable = json!({"message": {"type": "tool-calls", "call": {"id": "call-w"},
        "toolCallList": [{"id": "t4", "name": "book_call", "parameters": "not json"}]}});
    assert!(run(&app, &unreadable)
        .await
        .unwrap_err()
        .starts_with("Not done: the arguments are not a JSON object."));
    assert_eq!(
        admin(&app, "/api/admin/bookings").await["bookings"],
        json!([])
    );
    assert!(app.rows().await.is_empty());
    app.stop().await;
}

#[tokio::test]
async fn with_booking_off_the_tools_are_refused_and_the_secret_still_guards_them() {
    let app = app(None, false).await;
    let ask = tool_call("call-off", "en", "t1", "available_times", json!({}));
    assert_eq!(post_voice_event(&app, None, &ask).await.status(), 401);
    assert_eq!(
        run(&app, &ask).await,
        Err("Booking calls is not offered here; offer to take a quote request instead.".into())
    );
    let slot = "2030-01-01T10:00:00Z";
    let said = run(
        &app,
        &tool_call(
            "call-off",
            "es",
            "t2",
            "book_call",
            book(slot, "ana@example.com", "es"),
        ),
    )
    .await;
    assert_eq!(
        said,
        Err(
            "Aquí no se ofrece reservar llamadas; ofrezca tomar una solicitud de cotización."
                .into()
        )
    );
    let unknown = run(
        &app,
        &tool_call("call-off", "en", "t3", "cancel_call", json!({})),
    )
    .await;
    assert_eq!(
        unknown,
        Err("Unknown tool \"cancel_call\"; the only tool here is request_quote.".into())
    );
    assert_eq!(
        admin(&app, "/api/admin/bookings").await["bookings"],
        json!([])
    );
    assert!(app.rows().await.is_empty());
    app.stop().await;
}
