//! A bad setting stops start-up with one line naming the variable, the problem and the form.

/// Runs the server binary with `vars`; it must refuse to start. Its standard error.
fn refused(vars: &[(&str, &str)]) -> String {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
        .env("PORT", "0")
        .env("DATABASE_URL", "sqlite::memory:")
        .env("RUST_LOG", "error")
        .envs(vars.iter().copied())
        .output()
        .expect("the backend binary runs");
    assert!(!output.status.success());
    assert!(output.stdout.is_empty(), "it never listened");
    String::from_utf8_lossy(&output.stderr).into_owned()
}

#[test]
fn a_bad_setting_stops_start_up_with_one_line() {
    assert_eq!(
        refused(&[
            ("LEAD_WEBHOOK_URL", "https://crm.example.com/leads"),
            ("LEAD_GIVE_UP_DAYS", "0")
        ]),
        "error: LEAD_GIVE_UP_DAYS=\"0\" is less than a day; expected a whole number of days, 1 or more\n"
    );
}

#[test]
fn an_unknown_time_zone_stops_start_up_with_one_line() {
    assert_eq!(
        refused(&[("LEAD_TIME_ZONE", "Europe/Atlantis")]),
        "error: LEAD_TIME_ZONE=\"Europe/Atlantis\" is not a known time zone; expected an IANA time zone name such as America/New_York or UTC\n"
    );
}

#[test]
fn the_renamed_give_up_setting_names_its_new_name() {
    assert_eq!(
        refused(&[("LEAD_WEBHOOK_GIVE_UP_DAYS", "7")]),
        "error: LEAD_WEBHOOK_GIVE_UP_DAYS=\"7\" is no longer read; expected LEAD_GIVE_UP_DAYS (the same number of days, now for webhook and e-mail alike)\n"
    );
}

#[test]
fn the_voice_consent_text_names_the_content_that_replaced_it() {
    assert_eq!(
        refused(&[
            ("VAPI_PUBLIC_KEY", "pk"),
            ("VAPI_ASSISTANT_ID", "asst"),
            ("VOICE_CONSENT_TEXT", "This call is recorded."),
        ]),
        "error: VOICE_CONSENT_TEXT=\"This call is recorded.\" is no longer read; expected voiceControls.consentText (and consentTextRecorded, for recorded calls) in content/site.yaml and content/es/site.yaml, then rebuild the front end\n"
    );
}

#[test]
fn conversation_retention_out_of_bounds_stops_start_up_with_one_line() {
    assert_eq!(
        refused(&[("CONVERSATION_RETENTION_DAYS", "0")]),
        "error: CONVERSATION_RETENTION_DAYS=\"0\" is out of range; expected a whole number of days from 1 to 36525 (default 3653, ten years)\n"
    );
}

#[test]
fn a_bad_smtp_url_is_refused_without_showing_its_password() {
    let stderr = refused(&[
        (
            "SMTP_URL",
            "smtp://user:hunter2@relay.example.com:587?tls=always",
        ),
        ("LEAD_EMAIL_TO", "broker@example.com"),
        ("LEAD_EMAIL_FROM", "quotes@example.com"),
    ]);
    assert!(!stderr.contains("hunter2"), "{stderr}");
    assert!(
        stderr.starts_with("error: SMTP_URL=\"…\" has tls=\"always\", not required or opportunistic; expected smtp://")
            && stderr.lines().count() == 1,
        "{stderr}"
    );
    let stderr = refused(&[
        ("SMTP_URL", "smtp://127.0.0.1:25"),
        ("LEAD_EMAIL_TO", "broker@example.com"),
    ]);
    assert!(
        stderr.starts_with("error: LEAD_EMAIL_FROM=\"\" is required with SMTP_URL"),
        "{stderr}"
    );
}

#[tokio::test]
async fn a_read_only_database_stops_start_up_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.db");
    let writable = backend::store::DatabaseUrl::Sqlite(path.to_string_lossy().into());
    backend::store::open(&writable).await.unwrap().close().await;
    assert_eq!(
        refused(&[("DATABASE_URL", &format!("file:{}?mode=ro", path.display()))]),
        format!("error: cannot open the database: the database {} is read-only (a mode=ro URI, or a file the server may not write), and the server stores every quote in it: give it a writable one (`backend export` reads a read-only one)\n", path.display())
    );
}

#[test]
fn an_unreachable_postgresql_is_named_with_its_cause() {
    // Bind and release a port, so nothing listens there.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("postgres://quotes:pw-s3cret@127.0.0.1:{port}/quotes");
    let stderr = refused(&[("DATABASE_URL", &url)]);
    assert!(
        stderr.contains(&format!(
            "cannot reach PostgreSQL at 127.0.0.1:{port}: error connecting to server: Connection refused"
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("s3cret"), "{stderr}");
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
}

#[test]
fn a_short_admin_token_stops_start_up_with_one_line_that_does_not_print_it() {
    assert_eq!(
        refused(&[("ADMIN_TOKEN", "hunter2-hunter2")]),
        "error: ADMIN_TOKEN=\"…\" has 15 characters; expected at least 32 characters (make one with: openssl rand -hex 32)\n"
    );
}
