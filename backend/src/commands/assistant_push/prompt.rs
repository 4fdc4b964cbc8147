//! The assistant's system prompt, written from the site's content so that it never disagrees with
//! the page: the broker, the plan kinds, the quote's products, hours, phone, and what the first
//! message has already said (the Medicare disclaimer, the agent notice, the recording notice): the
//! model is told it was said, not asked to say it (`first_message.rs` says it).

use std::fmt::Write;

use crate::routes::voice_events::{AVAILABLE_TIMES_TOOL, BOOK_CALL_TOOL, REQUEST_QUOTE_TOOL};
use crate::store::Language;

use super::site_content::SiteContent;

/// `recording`: whether calls are recorded, as the first message says.
pub fn system_prompt(content: &SiteContent, recording: bool) -> String {
    let broker = &content.brand.name;
    let mut prompt = format!(
        "You are the voice assistant of {broker}, a health insurance broker. The visitor's \
         page is in {{{{language}}}} (es: Spanish, en: English): speak that language, and switch \
         only when the caller speaks the other. Use short spoken sentences, warm and plain.\n\n"
    );
    prompt.push_str("## The plan kinds the broker offers\n");
    for plan in &content.plans.items {
        let _ = writeln!(prompt, "- {}: {}", plan.title, plan.description);
    }
    prompt.push_str("\n## Contact\n");
    let _ = match &content.broker.phone {
        Some(phone) => writeln!(prompt, "- Phone: {phone}"),
        None => writeln!(
            prompt,
            "- The broker has no published phone number: do not give one."
        ),
    };
    let _ = match &content.broker.hours {
        Some(hours) => writeln!(prompt, "- Opening hours: {hours}"),
        None => writeln!(
            prompt,
            "- The broker has no published opening hours: do not give any."
        ),
    };
    let _ = write!(
        prompt,
        "\n## What you do\n\
         - Explain the plan kinds above, in general terms.\n\
         - Take a request for a free quote. It needs two things: the product and the caller's \
         e-mail address, where a licensed adviser will write. The product is one of these \
         (say the name, send the value):\n"
    );
    for (value, label) in content.products() {
        let _ = writeln!(prompt, "  - {label}: {value}");
    }
    let _ = write!(
        prompt,
        "- Before you call `{REQUEST_QUOTE_TOOL}`, read the e-mail address back to the caller \
         letter by letter and wait for them to confirm it.\n\
         - Then call `{REQUEST_QUOTE_TOOL}` once with the product value and the e-mail address. \
         When it answers with an error, tell the caller what the error says and ask again for what \
         it names. When it succeeds, tell the caller an adviser will write to them.\n"
    );
    let mut kept = vec!["the e-mail address"];
    if let Some(english) = content.phone_consent(Language::En) {
        kept.push("the phone number");
        // The site's own words, in the page's language (the record keeps the same text): a
        // model's translation or summary of them is not what the visitor was asked.
        let spanish = content
            .phone_consent(Language::Es)
            .unwrap_or_else(|| english.clone());
        let _ = writeln!(
            prompt,
            "- Ask whether they would like a call too. If so, take their US phone number and read \
             the digits back. Before you take it, read them the consent below for the page's \
             language ({{{{language}}}}), word for word, exactly as written: never translate, \
             shorten or paraphrase it, and read that one even when the caller speaks the other \
             language. Then wait for a clear yes or no.\n\
             \x20 - en: \"{english}\"\n\
             \x20 - es: \"{spanish}\"\n\
             Send the number as `phone`, and `may_call` true only on a yes to that text (on a \
             no, the adviser will write instead)."
        );
    }
    if content.asks_zip() {
        kept.push("the ZIP code");
        prompt.push_str(
            "- Ask for their 5-digit ZIP code (the plans depend on where they live) and send it as \
             `zip`.\n",
        );
    }
    if content.booking_on() {
        kept.push("the full name");
        booking_section(&mut prompt, content, recording);
    }
    let _ = write!(
        prompt,
        "\n## What you never do\n\
         - Never quote prices, premiums or costs: the adviser sends the quote.\n\
         - Never recommend a named plan or insurer.\n\
         - Never enroll anyone in a plan or say that they are enrolled.\n\
         - Never give medical or legal advice.\n\
         - Never ask for or note health details (conditions, medicines, doctors), nor any \
         personal detail besides {}. If the caller offers them, say you do not \
         need them.\n",
        kept.join(", ")
    );
    let _ = write!(
        prompt,
        "\n## What the first message already said\n\
         The conversation opened with a first message in the page's language, given before you \
         spoke. It told the caller:\n\
         - that a licensed insurance agent of {broker} will contact them about their quote: \
         \"{}\"\n",
        content.lead_notice(Language::En)
    );
    let disclaimer = content.disclaimer(Language::En);
    if let Some(disclaimer) = &disclaimer {
        let _ = writeln!(prompt, "- the Medicare disclaimer: \"{disclaimer}\"");
    }
    if recording {
        prompt.push_str("- that the call is being recorded.\n");
    }
    prompt.push_str("Do not repeat these unless the caller asks.");
    if disclaimer.is_some() {
        prompt.push_str(
            " When they ask whether the broker offers every plan, or which plans or insurers it \
             represents, say the disclaimer again, in the caller's language.",
        );
    }
    if !recording {
        prompt.push_str(" Calls are not recorded: say so if asked.");
    }
    prompt.push('\n');
    prompt
}

/// How to book a call (`available_times`, `book_call`): the Scope of Appointment in the site's
/// own words in each language, read word for word, as the record keeps that text.
fn booking_section(prompt: &mut String, content: &SiteContent, recording: bool) {
    let zone = content.booking_zone().unwrap_or("the broker's time zone");
    let _ = write!(
        prompt,
        "\n## Booking a call with a licensed agent\n\
         The caller can book a phone call with a licensed agent of {broker} at one of the \
         broker's open times, on the broker's clock ({zone}).\n\
         - Call `{AVAILABLE_TIMES_TOOL}` for the next open times; give `from` (a date such as \
         2026-03-09) when the caller wants a later day. Say a few of them as its result words \
         them, and never offer a time it did not give.\n\
         - When they choose one, take their full name, as their signature, and their e-mail \
         address; read the address back letter by letter and wait for them to confirm it.\n\
         - Ask which of these they would like to discuss at the appointment, one or more (say the \
         name, send the value):\n",
        broker = content.brand.name
    );
    for (value, label) in content.soa_products(Language::En) {
        let _ = writeln!(prompt, "  - {label}: {value}");
    }
    if content.asks_phone() {
        prompt.push_str(
            "- Ask for the number the agent should call, taken as for a quote above (the consent \
             read first), and send it as `phone` with `may_call`.\n",
        );
    }
    let english = content.soa_statement(Language::En).unwrap_or_default();
    let spanish = content
        .soa_statement(Language::Es)
        .unwrap_or_else(|| english.clone());
    let kept = if recording {
        " (the call's recording keeps it)"
    } else {
        ""
    };
    let _ = write!(
        prompt,
        "- Then read them the Scope of Appointment below for the page's language \
         ({{{{language}}}}), word for word, exactly as written, with the product types they chose: \
         never translate, shorten or paraphrase it. Ask whether they agree, and wait for a clear \
         yes{kept}.\n\
         \x20 - en: \"{english}\"\n\
         \x20 - es: \"{spanish}\"\n\
         - Only after that yes, call `{BOOK_CALL_TOOL}` once with `slot` (the chosen time's \
         value from `{AVAILABLE_TIMES_TOOL}`), `name`, `email`, `products` (the values they \
         chose) and `language` (en or es: the statement you read).\n\
         - When it answers with an error, tell the caller what it says and ask again for what it \
         names; when the time was just taken, offer the times it gives. When it succeeds, tell \
         the caller the time and that a licensed agent will call them then. On a no, book \
         nothing.\n"
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    use super::super::site_content::{
        example_with as content_with, example_with_booking, example_with_fields,
    };

    #[test]
    fn the_example_prompt_has_the_broker_plans_products_and_rules() {
        let prompt = system_prompt(&content_with(|text| text), true);
        for expected in [
            "voice assistant of Clearharbor Health",
            "- Medicare: Compare Medicare Advantage, supplement and drug plans",
            "- Family & Individual: Coverage for you and the people you love",
            "- Medicaid: Find out whether you qualify",
            "- Employer: Group health benefits",
            "  - Medicare: medicare\n  - Individual Health: individual\n  - Family Health: family\n  - Medicaid: medicaid\n  - Employer Plan: employer\n",
            "letter by letter",
            "call `request_quote`",
            "tell the caller what the error says",
            "Never quote prices",
            "Never recommend a named plan",
            "Never enroll",
            "Never give medical or legal advice",
            "Never ask for or note health details",
            "no published phone number",
            "no published opening hours",
            "## What the first message already said\n",
            "- that a licensed insurance agent of Clearharbor Health will contact them about their quote: \"A licensed insurance agent of Clearharbor Health will contact you about your quote.\"\n",
            "- the Medicare disclaimer: \"We do not offer every plan",
            "Currently we represent 8 organizations which offer 24 products in your area.",
            "- that the call is being recorded.\n",
            "Do not repeat these unless the caller asks. When they ask whether the broker offers every plan",
        ] {
            assert!(prompt.contains(expected), "{expected:?} not in:\n{prompt}");
        }
        // The page's language is the provider's variable to fill; nothing else is left open.
        assert!(prompt.contains("page is in {{language}}"), "{prompt}");
        assert!(
            !prompt.replace("{{language}}", "").contains('{'),
            "{prompt}"
        );
        // Saying the disclaimer is not left to the model.
        for left_to_the_model in ["first minute", "say this disclaimer"] {
            assert!(!prompt.contains(left_to_the_model), "{prompt}");
        }
    }

    #[test]
    fn hours_and_phone_when_set_and_no_disclaimer_when_off() {
        let prompt = system_prompt(
            &content_with(|text| {
                text.replace(
                    "  # phone: \"(555) 010-0199\"",
                    "  phone: \"(555) 010-0199\"",
                )
                .replace(
                    "  # hours: Monday to Friday, 9 am to 6 pm",
                    "  hours: Monday to Friday, 9 am to 6 pm",
                )
                .replace("  variant: some", "  variant: none")
            }),
            false,
        );
        assert!(prompt.contains("- Phone: (555) 010-0199\n"), "{prompt}");
        assert!(prompt.contains("- Opening hours: Monday to Friday, 9 am to 6 pm\n"));
        assert!(!prompt.contains("Medicare.gov"), "{prompt}");
        assert!(!prompt.contains("Medicare disclaimer"), "{prompt}");
        assert!(!prompt.contains("say the disclaimer again"), "{prompt}");
        assert!(prompt.ends_with(
            "Do not repeat these unless the caller asks. Calls are not recorded: say so if asked.\n"
        ));
        assert!(!prompt.contains("being recorded"));
    }

    #[test]
    fn with_booking_on_the_prompt_books_with_the_scope_of_appointment_read_word_for_word() {
        let off = system_prompt(&content_with(|text| text), true);
        assert!(
            !off.contains("available_times") && !off.contains("book_call"),
            "{off}"
        );
        let on = system_prompt(&example_with_booking(), true);
        for expected in [
            "## Booking a call with a licensed agent\n",
            "on the broker's clock (America/Chicago)",
            "Call `available_times` for the next open times",
            "  - Medicare Advantage (Part C): medicare_advantage\n",
            "  - Dental, vision and hearing: dental_vision_hearing\n",
            "word for word, exactly as written",
            "  - en: \"The agent of Clearharbor Health may be paid based on your enrollment.\"\n",
            "  - es: \"El agente de Clearharbor Health puede recibir un pago según su inscripción.\"\n",
            "call `book_call` once with `slot`",
            "besides the e-mail address, the full name.",
        ] {
            assert!(on.contains(expected), "{expected:?} in {on}");
        }
        assert!(!on.replace("{{language}}", "").contains('{'), "{on}");
    }

    #[test]
    fn with_the_phone_field_on_the_prompt_asks_consent_before_taking_a_number() {
        let off = system_prompt(&content_with(|text| text), true);
        assert!(!off.contains("may_call") && !off.contains("ZIP"), "{off}");
        let on = system_prompt(&example_with_fields("optional", "optional"), true);
        for expected in [
            "read them the consent below for the page's language ({{language}}), word for word, \
             exactly as written: never translate, shorten or paraphrase it",
            "  - en: \"I agree that Clearharbor Health may call or text me at this number about my \
             quote, possibly using automated technology or an artificial or AI-generated voice. \
             Consent is not a condition of purchase.\"\n",
            "  - es: \"Acepto que Clearharbor Health me llame o me envíe mensajes de texto a este \
             número sobre mi cotización, posiblemente mediante tecnología automatizada o una voz \
             artificial o generada por IA. El consentimiento no es una condición de compra.\"\n",
            "`may_call` true only on a yes to that text",
            "send it as `zip`",
            "besides the e-mail address, the phone number, the ZIP code.",
        ] {
            assert!(on.contains(expected), "{expected:?} in {on}");
        }
    }
}
