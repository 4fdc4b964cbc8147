//! What the assistant reads out after a tool call: one line each, saying what to do next.

use wasm_core::{FieldErrors, Product, QuoteRequest};

use super::{AVAILABLE_TIMES_TOOL, BOOK_CALL_TOOL, REQUEST_QUOTE_TOOL};

/// Longest piece of caller input echoed back, so a reply stays short enough to speak.
const ECHO_CHARS: usize = 80;

pub fn saved(request: &QuoteRequest) -> String {
    let label = request.product().label();
    format!(
        "Saved: {} {label} quote request for {}. A licensed agent will follow up by email.",
        article(label),
        request.email().as_str()
    )
}

/// "an Employer Plan", "an Individual Health", "a Medicare": by the label's first letter, which
/// for every product label is also its first sound.
fn article(label: &str) -> &'static str {
    match label.chars().next().map(|c| c.to_ascii_lowercase()) {
        Some('a' | 'e' | 'i' | 'o' | 'u') => "an",
        _ => "a",
    }
}

pub fn invalid(product: &str, email: &str, errors: &FieldErrors) -> String {
    let mut problems = Vec::new();
    if errors.product.is_some() {
        let products: Vec<_> = Product::ALL.iter().map(|p| p.as_str()).collect();
        problems.push(format!(
            "The product {:?} is not one we quote; ask the caller to choose one of: {}.",
            echo(product),
            products.join(", ")
        ));
    }
    if errors.email.is_some() {
        problems.push(format!(
            "The email address {:?} is not valid; ask the caller to spell it again, letter by letter.",
            echo(email)
        ));
    }
    if errors.phone.is_some() {
        problems.push(
            "The phone number is not a valid US number (ten digits, area code first); ask the caller to say it again, or leave it out if they prefer e-mail.".to_owned(),
        );
    }
    if errors.zip.is_some() {
        problems.push(
            "The ZIP code is not a valid 5-digit US ZIP code; ask the caller to say it again, digit by digit, or leave it out.".to_owned(),
        );
    }
    single_line(&format!("Not saved. {}", problems.join(" ")))
}

/// `booking`: whether the booking tools are offered too.
pub fn unknown_tool(name: &str, booking: bool) -> String {
    if booking {
        format!(
            "Unknown tool {:?}; the tools here are {REQUEST_QUOTE_TOOL}, {AVAILABLE_TIMES_TOOL} and {BOOK_CALL_TOOL}.",
            echo(name)
        )
    } else {
        format!(
            "Unknown tool {:?}; the only tool here is {REQUEST_QUOTE_TOOL}.",
            echo(name)
        )
    }
}

pub fn unreadable_arguments(reason: &str) -> String {
    single_line(&format!(
        "Not saved: {reason}. Call {REQUEST_QUOTE_TOOL} again with product and email."
    ))
}

pub fn earlier_request_stands() -> String {
    format!(
        "Not saved: this tool call was already answered for a different product or email, and that earlier request stands. To change it, call {REQUEST_QUOTE_TOOL} again as a new tool call."
    )
}

pub fn storage_failed() -> String {
    "Not saved: our system could not store the request just now. Please try again in a moment."
        .into()
}

/// The caller's input, trimmed, on one line and cut short, to quote in a reply.
pub fn echo(input: &str) -> String {
    single_line(input.trim()).chars().take(ECHO_CHARS).collect()
}

/// The provider expects a single line: control characters (new lines included) become spaces.
pub fn single_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_single_lines_that_say_what_is_wrong() {
        let errors = QuoteRequest::parse("dental", "ana@\nexample").unwrap_err();
        let reply = invalid("dental", "ana@\nexample", &errors);
        assert!(!reply.contains('\n'));
        assert!(reply.contains("\"dental\""), "{reply}");
        assert!(
            reply.contains("medicare, individual, family, medicaid, employer"),
            "{reply}"
        );
        assert!(
            reply.contains("email address \"ana@ example\" is not valid"),
            "{reply}"
        );
        let only_email = QuoteRequest::parse("family", "nope").unwrap_err();
        assert!(!invalid("family", "nope", &only_email).contains("product"));
        let long = "x".repeat(500);
        assert!(invalid("", &long, &QuoteRequest::parse("", &long).unwrap_err()).len() < 400);
        let saved = |product| saved(&QuoteRequest::parse(product, "ana@example.com").unwrap());
        assert_eq!(saved("family"), "Saved: a Family Health quote request for ana@example.com. A licensed agent will follow up by email.");
        for (product, start) in [
            ("employer", "Saved: an Employer Plan quote"),
            ("individual", "Saved: an Individual Health quote"),
            ("medicare", "Saved: a Medicare quote"),
            ("medicaid", "Saved: a Medicaid quote"),
        ] {
            assert!(saved(product).starts_with(start), "{}", saved(product));
        }
    }
}
