//! `backend send-test-email` against a real SMTP server (aiosmtpd): the relay's answer when it
//! accepts, its refusal, and e-mail not configured.

use std::process::{Command, Output};

use crate::common::smtp::{SmtpServer, TO_ADDRESSES};

fn send_test_email(env: &[(String, String)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("send-test-email")
        .env("RUST_LOG", "error")
        .env_remove("SMTP_URL")
        .envs(env.iter().map(|(k, v)| (k, v)))
        .output()
        .expect("the backend binary runs")
}

#[test]
fn the_relays_answer_is_printed() {
    let smtp = SmtpServer::plain();
    let output = send_test_email(&smtp.env());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert!(
        stdout.starts_with(&format!("The relay smtp://127.0.0.1:{}", smtp.port))
            && stdout.contains(": 250 "),
        "{stdout}"
    );
    let messages = smtp.messages();
    assert_eq!(messages.len(), 1);
    assert_eq!(
        messages[0].one("Subject"),
        "Test message from the quote site"
    );
    let mut recipients = messages[0].rcpt_tos.clone();
    recipients.sort();
    let mut expected = TO_ADDRESSES.to_vec();
    expected.sort();
    assert_eq!(recipients, expected);
}

#[test]
fn a_refusal_is_an_error_with_the_relays_words() {
    let smtp = SmtpServer::plain();
    smtp.reply_with(Some("550 5.7.1 Not accepted here"));
    let output = send_test_email(&smtp.env());
    assert_eq!(output.status.code(), Some(1));
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.starts_with("error: the relay smtp://127.0.0.1:")
            && stderr.contains("550")
            && stderr.contains("Not accepted here"),
        "{stderr}"
    );
    assert!(smtp.messages().is_empty());
}

#[test]
fn without_smtp_settings_it_says_what_to_set() {
    let output = send_test_email(&[]);
    assert_eq!(output.status.code(), Some(1));
    assert_eq!(
        String::from_utf8_lossy(&output.stderr),
        "error: e-mail is not configured: set SMTP_URL, LEAD_EMAIL_TO and LEAD_EMAIL_FROM (README, Configuration)\n"
    );
}
