//! How much of a conversation's transcript is kept. A provider may report turns without end (a
//! chat's each turn, an end-of-call report's transcript up to the body's limit), and the whole
//! transcript is read and rewritten on each chat turn, so what is kept is bounded; the lines past
//! the bound are counted, so the record says what it is missing.

/// Most of a transcript kept, in bytes of UTF-8: hours of conversation.
pub const MAX_TRANSCRIPT_BYTES: usize = 256 * 1024;

/// `text` within `MAX_TRANSCRIPT_BYTES`: the whole lines that fit (a first line longer than the
/// bound is cut at a character boundary), and how many lines (each one speaker's turn) were left
/// out, whole or in part.
pub fn capped(text: &str) -> (&str, u64) {
    capped_at(text, MAX_TRANSCRIPT_BYTES)
}

fn capped_at(text: &str, max: usize) -> (&str, u64) {
    if text.len() <= max {
        return (text, 0);
    }
    // A line break at `max` itself ends the last line that fits.
    let (kept, rest) = match text.as_bytes()[..=max].iter().rposition(|&b| b == b'\n') {
        Some(end) => (&text[..end], &text[end + 1..]),
        None => {
            let end = (0..=max)
                .rev()
                .find(|&at| text.is_char_boundary(at))
                .unwrap_or(0);
            text.split_at(end)
        }
    };
    (kept, rest.lines().count() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_within_the_bound_is_kept_whole() {
        assert_eq!(
            capped_at("User: hi\nAI: hello", 18),
            ("User: hi\nAI: hello", 0)
        );
        assert_eq!(capped(""), ("", 0));
    }

    #[test]
    fn whole_lines_are_kept_and_the_rest_counted() {
        let text = "User: hi\nAI: hello\nUser: plans?\nAI: five";
        assert_eq!(capped_at(text, 20), ("User: hi\nAI: hello", 2));
        // The break right at the bound: the line before it fits.
        assert_eq!(capped_at(text, 18), ("User: hi\nAI: hello", 2));
        assert_eq!(capped_at(text, 17), ("User: hi", 3));
    }

    #[test]
    fn a_first_line_over_the_bound_is_cut_between_characters() {
        // "é" is two bytes: the cut falls before it rather than inside it.
        assert_eq!(capped_at("User: éé\nAI: hi", 7), ("User: ", 2));
        assert_eq!(capped_at("User: éé\nAI: hi", 8), ("User: é", 2));
    }

    #[test]
    fn the_bound_is_256_kib() {
        let line = format!("User: {}", "a".repeat(1000));
        let text = vec![line.as_str(); 300].join("\n");
        let (kept, dropped) = capped(&text);
        assert!(kept.len() <= MAX_TRANSCRIPT_BYTES);
        assert_eq!(kept.lines().count() as u64 + dropped, 300);
        assert_eq!(
            kept.lines().count(),
            MAX_TRANSCRIPT_BYTES / (line.len() + 1)
        );
    }
}
