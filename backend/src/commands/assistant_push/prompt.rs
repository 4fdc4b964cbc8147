//! The assistant's system prompt, written from the site's content so that it never disagrees with
//! the page: the broker, the plan kinds, the quote's products, hours, phone and the Medicare
//! disclaimer.

use std::fmt::Write;

use crate::routes::voice_events::REQUEST_QUOTE_TOOL;

use super::site_content::SiteContent;

pub fn system_prompt(content: &SiteContent) -> String {
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
    match &content.broker.phone {
        Some(phone) => {
            let _ = writeln!(prompt, "- Phone: {phone}");
        }
        None => prompt.push_str("- The broker has no published phone number: do not give one.\n"),
    }
    match &content.broker.hours {
        Some(hours) => {
            let _ = writeln!(prompt, "- Opening hours: {hours}");
        }
        None => prompt.push_str("- The broker has no published opening hours: do not give any.\n"),
    }
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
         it names. When it succeeds, tell the caller an adviser will write to them.\n\
         \n## What you never do\n\
         - Never quote prices, premiums or costs: the adviser sends the quote.\n\
         - Never recommend a named plan or insurer.\n\
         - Never enroll anyone in a plan or say that they are enrolled.\n\
         - Never give medical or legal advice.\n\
         - Never ask for or note health details (conditions, medicines, doctors), nor any \
         personal detail besides the e-mail address. If the caller offers them, say you do not \
         need them.\n"
    );
    if let Some(disclaimer) = content.medicare_disclaimer.text() {
        let _ = write!(
            prompt,
            "\n## Medicare\n\
             Within the first minute of any conversation about Medicare, say this disclaimer, in \
             the caller's language: \"{disclaimer}\"\n"
        );
    }
    prompt
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn content_with(edit: impl FnOnce(String) -> String) -> SiteContent {
        let example = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../content/site.yaml");
        let text = edit(std::fs::read_to_string(&example).unwrap());
        super::super::yaml_file::parse(&example, &text).unwrap()
    }

    #[test]
    fn the_example_prompt_has_the_broker_plans_products_and_rules() {
        let prompt = system_prompt(&content_with(|text| text));
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
            "Within the first minute of any conversation about Medicare",
            "Currently we represent 8 organizations which offer 24 products in your area.",
        ] {
            assert!(prompt.contains(expected), "{expected:?} not in:\n{prompt}");
        }
        // The page's language is the provider's variable to fill; nothing else is left open.
        assert!(prompt.contains("page is in {{language}}"), "{prompt}");
        assert!(
            !prompt.replace("{{language}}", "").contains('{'),
            "{prompt}"
        );
    }

    #[test]
    fn hours_and_phone_when_set_and_no_disclaimer_when_off() {
        let prompt = system_prompt(&content_with(|text| {
            text.replace(
                "  # phone: \"(555) 010-0199\"",
                "  phone: \"(555) 010-0199\"",
            )
            .replace(
                "  # hours: Monday to Friday, 9 am to 6 pm",
                "  hours: Monday to Friday, 9 am to 6 pm",
            )
            .replace("  variant: some", "  variant: none")
        }));
        assert!(prompt.contains("- Phone: (555) 010-0199\n"), "{prompt}");
        assert!(prompt.contains("- Opening hours: Monday to Friday, 9 am to 6 pm\n"));
        assert!(!prompt.contains("Medicare.gov"), "{prompt}");
        assert!(!prompt.contains("first minute"));
    }
}
