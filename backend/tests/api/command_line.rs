//! The binary's command line: help and version, and clap's forms of the export options.

use std::process::{Command, Output};

use crate::common::TestApp;
use backend::store::DatabaseUrl;

fn backend(args: &[&str], env: &[(&str, &str)]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .args(args)
        .env("RUST_LOG", "error")
        .envs(env.iter().copied())
        .output()
        .expect("the backend binary runs")
}

#[test]
fn help_and_version_print_and_exit_0() {
    for flag in ["--help", "-h"] {
        let output = backend(&[flag], &[]);
        assert!(output.status.success(), "{flag}");
        let help = String::from_utf8(output.stdout).unwrap();
        assert!(help.contains("Usage: backend [COMMAND]"), "{help}");
        for command in ["serve", "export", "hash-password", "backup", "import"] {
            assert!(help.contains(command), "{help}");
        }
    }
    // The release, then the commit and the tree's state as git tells them now (the test is
    // built with the binary).
    let git = |args: &[&str]| {
        let output = Command::new("git").args(args).output().ok()?;
        output
            .status
            .success()
            .then(|| String::from_utf8_lossy(&output.stdout).trim().to_owned())
    };
    let build = match git(&["rev-parse", "--short=12", "HEAD"]) {
        Some(commit) => format!("commit {commit}, "),
        None => "commit unknown".to_owned(),
    };
    for flag in ["--version", "-V"] {
        let output = backend(&[flag], &[]);
        assert!(output.status.success(), "{flag}");
        let version = String::from_utf8(output.stdout).unwrap();
        let expected = format!("backend {} ({build}", env!("CARGO_PKG_VERSION"));
        assert!(version.starts_with(&expected), "{version}");
        assert!(
            version.ends_with(" clean tree)\n")
                || version.ends_with(" modified tree)\n")
                || version.ends_with("unknown)\n"),
            "{version}"
        );
    }
    let export_help = backend(&["export", "--help"], &[]);
    assert!(String::from_utf8(export_help.stdout)
        .unwrap()
        .contains("--since <WHEN>"));
}

#[test]
fn a_bad_command_or_option_exits_2_saying_which() {
    let unknown = backend(&["bogus"], &[]);
    assert_eq!(unknown.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&unknown.stderr).contains("unrecognized subcommand 'bogus'"));
    let format = backend(&["export", "--format=xml"], &[]);
    assert_eq!(format.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&format.stderr)
        .contains("invalid value 'xml' for '--format <FORMAT>'"));
}

#[tokio::test]
async fn export_takes_its_options_with_an_equals_sign() {
    let mut app = TestApp::start().await;
    let posted = app
        .post_json(r#"{"product":"family","email":"ana@example.com"}"#)
        .await;
    assert_eq!(posted.status(), 201);
    app.shutdown().await;
    let DatabaseUrl::Sqlite(path) = &app.database else {
        unreachable!("the test app runs on SQLite")
    };
    let url = format!("sqlite://{path}");
    let output = backend(
        &["export", "--format=jsonl", "--since=2026-01-01"],
        &[("DATABASE_URL", &url)],
    );
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let rows = String::from_utf8(output.stdout).unwrap();
    assert_eq!(rows.lines().count(), 1);
    assert!(rows.contains(r#""email":"ana@example.com""#), "{rows}");
    let csv = backend(&["export", "--format=csv"], &[("DATABASE_URL", &url)]);
    assert!(csv.status.success());
    assert!(String::from_utf8(csv.stdout)
        .unwrap()
        .starts_with(r#""id","created_at""#));
}
