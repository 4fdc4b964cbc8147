//! A bad setting stops start-up with one line naming the variable, the problem and the form.

#[test]
fn a_bad_setting_stops_start_up_with_one_line() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
        .env("PORT", "0")
        .env("DATABASE_URL", "sqlite::memory:")
        .env("LEAD_WEBHOOK_URL", "https://crm.example.com/leads")
        .env("LEAD_WEBHOOK_GIVE_UP_DAYS", "0")
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs");
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: LEAD_WEBHOOK_GIVE_UP_DAYS=\"0\" is less than a day; expected a whole number of days, 1 or more\n"
    );
    assert!(output.stdout.is_empty(), "it never listened");
}

#[test]
fn a_short_admin_token_stops_start_up_with_one_line_that_does_not_print_it() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
        .env("PORT", "0")
        .env("DATABASE_URL", "sqlite::memory:")
        .env("ADMIN_TOKEN", "hunter2-hunter2")
        .env("RUST_LOG", "error")
        .output()
        .expect("the backend binary runs");
    assert!(!output.status.success());
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: ADMIN_TOKEN has 15 characters; it needs at least 32. Make one with: openssl rand -hex 32\n"
    );
    assert!(output.stdout.is_empty(), "it never listened");
}
