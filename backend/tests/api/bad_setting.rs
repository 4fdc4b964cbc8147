//! A bad setting stops start-up with one line naming the variable, the problem and the form.

use std::process::{Command, Output};

fn serve(env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .env("PORT", "0")
        .env("RUST_LOG", "error")
        .envs(env.iter().copied())
        .output()
        .expect("the backend binary runs")
}

#[test]
fn a_bad_setting_stops_start_up_with_one_line() {
    let output = serve(&[
        ("DATABASE_URL", "sqlite::memory:"),
        ("LEAD_WEBHOOK_URL", "https://crm.example.com/leads"),
        ("LEAD_WEBHOOK_GIVE_UP_DAYS", "0"),
    ]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: LEAD_WEBHOOK_GIVE_UP_DAYS=\"0\" is less than a day; expected a whole number of days, 1 or more\n"
    );
    assert!(output.stdout.is_empty(), "it never listened");
}

#[tokio::test]
async fn a_read_only_database_stops_start_up_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("quotes.db");
    let writable = backend::store::DatabaseUrl::Sqlite(path.to_string_lossy().into());
    backend::store::open(&writable).await.unwrap().close().await;
    let output = serve(&[("DATABASE_URL", &format!("file:{}?mode=ro", path.display()))]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        format!("error: cannot open the database: the database {} is read-only (a mode=ro URI, or a file the server may not write), and the server stores every quote in it: give it a writable one (`backend export` reads a read-only one)\n", path.display())
    );
    assert!(output.stdout.is_empty(), "it never listened");
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
    let output = serve(&[("DATABASE_URL", &url)]);
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
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
    let output = serve(&[
        ("DATABASE_URL", "sqlite::memory:"),
        ("ADMIN_TOKEN", "hunter2-hunter2"),
    ]);
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: ADMIN_TOKEN has 15 characters; it needs at least 32. Make one with: openssl rand -hex 32\n"
    );
    assert!(output.stdout.is_empty(), "it never listened");
}
