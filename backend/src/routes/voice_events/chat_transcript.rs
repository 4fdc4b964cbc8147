//! A web chat's transcript, kept like a call's: the provider reports each turn on its own
//! (`chat.created`), with the turns before it when the chat carried them, so each report either
//! renews the whole transcript or adds its turn to the one kept. What is kept stays within
//! `MAX_TRANSCRIPT_BYTES`; the lines past it are counted.

use crate::store::transcript::capped;

/// A chat's transcript as kept, and how many of its lines were left out past the bound.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Transcript {
    pub text: String,
    pub lines_dropped: u64,
}

/// The transcript after one turn: `kept` so far, the `history` the turn's report carried and
/// the `turn` itself. A repeated report changes nothing.
pub fn after_turn(kept: Transcript, history: &str, turn: &str) -> Transcript {
    let whole = join(history, turn);
    if kept.text.is_empty() || whole.starts_with(&kept.text) {
        // The report carries every turn so far: it counts what the bound leaves out anew.
        return within_bound(&whole, 0);
    }
    if turn.is_empty() || kept.text.ends_with(turn) {
        return kept;
    }
    within_bound(&join(&kept.text, turn), kept.lines_dropped)
}

fn within_bound(text: &str, dropped_before: u64) -> Transcript {
    let (text, dropped) = capped(text);
    Transcript {
        text: text.to_owned(),
        lines_dropped: dropped_before + dropped,
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
    use crate::store::transcript::MAX_TRANSCRIPT_BYTES;

    fn kept(text: &str) -> Transcript {
        Transcript {
            text: text.into(),
            lines_dropped: 0,
        }
    }

    #[test]
    fn each_turn_is_kept_once_whether_it_carries_the_history_or_not() {
        let (hi, plans) = ("User: hi\nAI: hello", "User: plans?\nAI: five");
        let both = format!("{hi}\n{plans}");
        for (before, history, turn, after) in [
            // The first turn starts it.
            ("", "", hi, hi),
            // A turn carrying the history renews it; one without is added.
            (hi, hi, plans, &both),
            (hi, "", plans, &both),
            // A repeated report changes nothing.
            (&both, "", plans, &both),
            (&both, hi, plans, &both),
        ] {
            assert_eq!(
                after_turn(kept(before), history, turn),
                kept(after),
                "{before:?} {turn:?}"
            );
        }
    }

    #[test]
    fn turns_past_the_bound_are_counted_not_kept() {
        let big = |n: usize| format!("User: {}\nAI: ok {n}", "a".repeat(100 * 1024));
        let mut transcript = Transcript::default();
        for n in 0..8 {
            transcript = after_turn(transcript, "", &big(n));
            assert!(transcript.text.len() <= MAX_TRANSCRIPT_BYTES);
        }
        // Two turns of two lines fit; the other six turns' lines are counted.
        assert_eq!(transcript.text, format!("{}\n{}", big(0), big(1)));
        assert_eq!(transcript.lines_dropped, 12);
        // A report carrying every turn so far counts them anew rather than again.
        let history: Vec<String> = (0..8).map(big).collect();
        let renewed = after_turn(transcript, &history.join("\n"), &big(8));
        assert_eq!(renewed.text, format!("{}\n{}", big(0), big(1)));
        assert_eq!(renewed.lines_dropped, 14);
    }
}
