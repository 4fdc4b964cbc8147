//! Why a call ended, in words: the voice provider reports it as an `endedReason` code such as
//! `customer-ended-call`; the e-mail, the inbox and the CSV show the broker a sentence.

/// The provider's documented reasons a broker meets; any other reads as its own words.
const KNOWN: &[(&str, &str)] = &[
    ("customer-ended-call", "The caller hung up"),
    ("assistant-ended-call", "The assistant ended the call"),
    (
        "assistant-said-end-call-phrase",
        "The assistant ended the call",
    ),
    (
        "assistant-ended-call-after-message-spoken",
        "The assistant ended the call",
    ),
    (
        "assistant-ended-call-with-hangup-task",
        "The assistant ended the call",
    ),
    ("assistant-forwarded-call", "Forwarded to a person"),
    ("silence-timed-out", "Ended after a long silence"),
    ("exceeded-max-duration", "Reached the longest call allowed"),
    ("max-duration-exceeded", "Reached the longest call allowed"),
    (
        "customer-did-not-give-microphone-permission",
        "The caller's browser did not allow the microphone",
    ),
    ("customer-did-not-answer", "The caller did not answer"),
    ("customer-busy", "The line was busy"),
    ("voicemail", "Reached voicemail"),
    ("manually-canceled", "Cancelled"),
    (
        "assistant-join-timed-out",
        "The assistant did not join in time",
    ),
    (
        "phone-call-provider-closed-websocket",
        "The connection to the caller was lost",
    ),
];

pub fn describe(code: &str) -> String {
    let code = code.trim();
    if let Some((_, words)) = KNOWN.iter().find(|(known, _)| *known == code) {
        return (*words).to_owned();
    }
    if code.contains("error") || code.contains("failed") {
        return format!("Ended by a fault at the voice provider ({code})");
    }
    // An unknown code still reads as words: `some-new-reason` is "Some new reason".
    let words = code.replace(['-', '_', '.'], " ");
    let mut chars = words.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => "Unknown".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::describe;

    #[test]
    fn known_codes_read_as_sentences_and_others_as_words() {
        assert_eq!(describe("customer-ended-call"), "The caller hung up");
        assert_eq!(describe("silence-timed-out"), "Ended after a long silence");
        assert_eq!(
            describe("pipeline-error-openai-llm-failed"),
            "Ended by a fault at the voice provider (pipeline-error-openai-llm-failed)"
        );
        assert_eq!(describe("call-moved-elsewhere"), "Call moved elsewhere");
        assert_eq!(describe(" "), "Unknown");
    }
}
