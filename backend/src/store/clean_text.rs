//! The rules every free text the server stores goes by, and that `backend import` applies to a
//! source's rows: what the server keeps, the import takes, because both clean a value the same
//! way. A control character (C0, DEL and C1, a tab included) could hide text from the broker or
//! break a line where a reader expects none; NUL is dropped (PostgreSQL cannot hold it), every
//! other one becomes a space, and in text that may run over lines a CR LF or a lone CR becomes
//! one LF.

/// User agents beyond this are cut before they are stored (a lead's and its consent record's).
pub const MAX_USER_AGENT_CHARS: usize = 512;

/// `text` on one line: control characters replaced, and the spaces at either end trimmed.
pub fn line(text: &str) -> String {
    replaced(text, false).trim().to_owned()
}

/// `text` that may run over lines (a transcript, a summary, a note): line breaks kept as LF,
/// other control characters replaced.
pub fn text(text: &str) -> String {
    replaced(&text.replace("\r\n", "\n"), true)
}

/// A browser's `User-Agent` as it is stored: one line of at most `MAX_USER_AGENT_CHARS`.
pub fn user_agent(agent: &str) -> String {
    line(agent).chars().take(MAX_USER_AGENT_CHARS).collect()
}

fn replaced(text: &str, keep_breaks: bool) -> String {
    text.chars()
        .filter(|&c| c != '\0')
        .map(|c| match c {
            '\n' | '\r' if keep_breaks => '\n',
            c if c.is_control() => ' ',
            c => c,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_loses_its_tabs_breaks_and_c1_controls() {
        assert_eq!(
            line("Mozilla/5.0\t(X11)\r\nBcc: x"),
            "Mozilla/5.0 (X11)  Bcc: x"
        );
        assert_eq!(line("a\u{85}b\u{9b}2Jc\u{7f}"), "a b 2Jc");
        assert_eq!(line(" \0Firefox\t"), "Firefox");
    }

    #[test]
    fn text_keeps_its_lines_as_lf() {
        assert_eq!(
            text("User: hi\r\nAI: \u{1b}[2Jhello\rUser:\tbye\u{0}"),
            "User: hi\nAI:  [2Jhello\nUser: bye"
        );
        assert_eq!(text("Wants\u{0} cover."), "Wants cover.");
    }

    #[test]
    fn a_user_agent_is_one_line_of_at_most_512_characters() {
        let long = format!("Mozilla\t{}", "é".repeat(600));
        let kept = user_agent(&long);
        assert_eq!(kept.chars().count(), MAX_USER_AGENT_CHARS);
        assert!(kept.starts_with("Mozilla é"));
    }
}
