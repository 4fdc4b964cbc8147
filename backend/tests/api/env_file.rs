//! The environment file documented for a server (`deploy/quotes.env.example`): it names every
//! setting the docs' tables list, and its quoted values read the same when a shell sources it
//! (systemd's `EnvironmentFile=` strips the same single quotes).

use std::collections::BTreeSet;
use std::process::Command;

const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/..");

fn read(path: &str) -> String {
    std::fs::read_to_string(format!("{ROOT}/{path}")).unwrap()
}

/// The variables named at the start of a table row: `| `NAME` | ...`.
fn documented() -> BTreeSet<String> {
    ["README.md", "docs/operating.md"]
        .iter()
        .flat_map(|path| {
            read(path)
                .lines()
                .filter_map(|line| line.strip_prefix("| `"))
                .filter_map(|rest| rest.split_once('`'))
                .map(|(name, _)| name.to_owned())
                .filter(|name| name.chars().all(|c| c.is_ascii_uppercase() || c == '_'))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Each `VAR=value` line, commented out or not.
fn settings_lines(file: &str) -> Vec<String> {
    file.lines()
        .map(|line| line.trim_start_matches('#'))
        .filter(|line| {
            line.split_once('=').is_some_and(|(name, _)| {
                !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
            })
        })
        .map(str::to_owned)
        .collect()
}

#[test]
fn every_documented_setting_is_in_the_environment_file_with_a_comment() {
    let file = read("deploy/quotes.env.example");
    let lines: Vec<&str> = file.lines().collect();
    let documented = documented();
    assert!(documented.len() >= 25, "{documented:?}");
    for name in &documented {
        let at = lines
            .iter()
            .position(|line| {
                line.trim_start_matches('#')
                    .starts_with(&format!("{name}="))
            })
            .unwrap_or_else(|| panic!("{name} is not in deploy/quotes.env.example"));
        // A comment says what the line (or the group of lines it heads) is.
        let above = lines[..at]
            .iter()
            .rev()
            .find(|line| settings_lines(line).is_empty());
        assert!(
            above.is_some_and(|line| line.starts_with("# ")),
            "{name} has no comment above it"
        );
    }
}

#[test]
fn no_setting_the_server_refuses_as_retired_is_in_it() {
    let lines = settings_lines(&read("deploy/quotes.env.example"));
    for retired in [
        "TRUST_PROXY",
        "LEAD_WEBHOOK_GIVE_UP_DAYS",
        "VOICE_CONSENT_TEXT",
    ] {
        assert!(
            !lines
                .iter()
                .any(|line| line.starts_with(&format!("{retired}="))),
            "{retired} stops start-up, yet deploy/quotes.env.example offers it"
        );
    }
}

#[test]
fn a_shell_sourcing_it_reads_the_values_with_spaces_and_dollars_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let uncommented = dir.path().join("env");
    std::fs::write(
        &uncommented,
        settings_lines(&read("deploy/quotes.env.example")).join("\n"),
    )
    .unwrap();
    let output = Command::new("sh")
        .arg("-c")
        .arg(r#"set -a; . "$1"; set +a; printf '%s\n' "$LEAD_EMAIL_TO" "$ADMIN_PASSWORD_HASH" "$ALERT_EMAIL_TO" "$SMTP_URL""#)
        .arg("sh")
        .arg(&uncommented)
        .output()
        .unwrap();
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    assert_eq!(
        String::from_utf8(output.stdout).unwrap(),
        "broker@example.com, Ana Agent <ana@example.com>\n\
         $argon2id$v=19$m=19456,t=2,p=1$...\n\
         On call <ops@example.com>\n\
         smtp://user:password@smtp.example.com:587?tls=required\n"
    );
}
