//! A web chat's transcript, kept like a call's: the provider reports each turn on its own
//! (`chat.created`), with the turns before it when the chat carried them, so each report either
//! renews the whole transcript or adds its turn to the one kept.

/// The transcript after one turn: `kept` so far, the `history` the turn's report carried and
/// the `turn` itself. A repeated report changes nothing.
pub fn after_turn(kept: Option<&str>, history: &str, turn: &str) -> String {
    let whole = join(history, turn);
    let Some(kept) = kept.filter(|kept| !kept.is_empty()) else {
        return whole;
    };
    if whole.starts_with(kept) {
        whole
    } else if turn.is_empty() || kept.ends_with(turn) {
        kept.to_owned()
    } else {
        join(kept, turn)
    }
}

fn join(before: &str, after: &str) -> String {
    match (before.is_empty(), after.is_empty()) {
        (true, _) => after.to_owned(),
        (_, true) => before.to_owned(),
        _ => format!("{before}\n{after}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_turn_starts_it() {
        assert_eq!(
            after_turn(None, "", "User: hi\nAI: hello"),
            "User: hi\nAI: hello"
        );
    }

    #[test]
    fn a_turn_carrying_the_history_renews_it() {
        let kept = "User: hi\nAI: hello";
        let next = after_turn(Some(kept), kept, "User: plans?\nAI: five");
        assert_eq!(next, "User: hi\nAI: hello\nUser: plans?\nAI: five");
    }

    #[test]
    fn a_turn_without_history_is_added() {
        let next = after_turn(Some("User: hi\nAI: hello"), "", "User: plans?\nAI: five");
        assert_eq!(next, "User: hi\nAI: hello\nUser: plans?\nAI: five");
    }

    #[test]
    fn a_repeated_report_changes_nothing() {
        let kept = "User: hi\nAI: hello\nUser: plans?\nAI: five";
        assert_eq!(after_turn(Some(kept), "", "User: plans?\nAI: five"), kept);
        assert_eq!(
            after_turn(Some(kept), "User: hi\nAI: hello", "User: plans?\nAI: five"),
            kept
        );
    }
}
