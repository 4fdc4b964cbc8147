//! `backend hash-password`: reads the admin password from standard input (without echo on a
//! terminal, asked twice there) and prints the `ADMIN_PASSWORD_HASH=...` line for the
//! environment file.

use std::io::{BufRead, IsTerminal, Write};

use crate::routes::admin::password;

pub fn run() -> Result<(), String> {
    let password = if std::io::stdin().is_terminal() {
        let first = ask("Admin password: ")?;
        if ask("Again: ")? != first {
            return Err("the two passwords differ; nothing was printed".into());
        }
        first
    } else {
        let mut line = String::new();
        std::io::stdin()
            .lock()
            .read_line(&mut line)
            .map_err(|e| format!("cannot read standard input: {e}"))?;
        line.trim_end_matches(['\r', '\n']).to_owned()
    };
    let hash = password::hash(&password).map_err(|e| e.to_string())?;
    // Single quotes keep the `$`s literal for a shell and for systemd's EnvironmentFile alike.
    println!("{}", env_line(&hash));
    Ok(())
}

fn ask(prompt: &str) -> Result<String, String> {
    eprint!("{prompt}");
    let _ = std::io::stderr().flush();
    rpassword::read_password().map_err(|e| format!("cannot read the password: {e}"))
}

fn env_line(hash: &str) -> String {
    format!("ADMIN_PASSWORD_HASH='{hash}'")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_line_quotes_the_hash() {
        assert_eq!(env_line("$argon2id$x"), "ADMIN_PASSWORD_HASH='$argon2id$x'");
    }
}
