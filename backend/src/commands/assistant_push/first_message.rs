//! The assistant's first message: said by the provider's platform as the call opens, before the
//! model says anything, so what the broker must say at the start is said, not left to the model.
//! In order: the recording notice (when calls are recorded: first, as states that need every
//! party's consent to record ask), the greeting, the Medicare disclaimer (unless its variant is
//! `none`: before anything about plans, as CMS asks on a call), the notice that a licensed agent
//! will make contact, the question. There is one text per language of the site; the provider says the one of the page the
//! call starts from, which the page names in the `{{language}}` variable
//! (`frontend/src/features/voice/sdk/page-language.ts`), through a condition in the Liquid template
//! language the provider renders its texts with.

use std::fmt::Write;

use super::definition::AssistantDefinition;
use super::site_content::SiteContent;
use crate::store::Language;

/// The site's languages; a call that names none (the provider's dashboard) gets the first.
pub const LANGUAGES: [Language; 2] = [Language::En, Language::Es];
/// The variable the page sets to its language.
const LANGUAGE_VARIABLE: &str = "language";

pub struct FirstMessage {
    /// Each language's words, in the order of `LANGUAGES`.
    texts: Vec<(Language, String)>,
}

impl FirstMessage {
    pub fn new(definition: &AssistantDefinition, content: &SiteContent) -> Result<Self, String> {
        let texts = LANGUAGES
            .into_iter()
            .map(|language| {
                let text = words(definition, content, language);
                // The provider would read these as the template's own markup.
                if text.contains("{{") || text.contains("{%") {
                    return Err(format!(
                        "the first message in {} holds `{{{{` or `{{%`, which the provider reads \
                         as a template: take it out of assistant.yaml's texts or site.yaml's \
                         (medicareDisclaimer, quote.leadNotice)",
                        language.label()
                    ));
                }
                Ok((language, text))
            })
            .collect::<Result<_, _>>()?;
        Ok(FirstMessage { texts })
    }

    /// Each language with its words, as a visitor of that language's pages hears them.
    pub fn texts(&self) -> &[(Language, String)] {
        &self.texts
    }

    /// The assistant's `firstMessage`: each language's words behind a condition on the page's
    /// language, the first language's when the call names none.
    pub fn template(&self) -> String {
        let ((_, fallback), others) = self.texts.split_first().expect("two languages");
        let mut template = String::new();
        for (n, (language, text)) in others.iter().enumerate() {
            let tag = if n == 0 { "if" } else { "elsif" };
            let code = language.as_str();
            let _ = write!(
                template,
                "{{% {tag} {LANGUAGE_VARIABLE} == \"{code}\" %}}{text}"
            );
        }
        let _ = write!(template, "{{% else %}}{fallback}{{% endif %}}");
        template
    }
}

/// The first message in one language, its parts joined into sentences read one after another.
fn words(definition: &AssistantDefinition, content: &SiteContent, language: Language) -> String {
    let mut parts = Vec::new();
    if definition.recording {
        parts.push(definition.recording_notice.get(language).to_owned());
    }
    parts.push(definition.greeting.get(language).to_owned());
    parts.extend(content.disclaimer(language));
    parts.push(content.lead_notice(language));
    parts.push(definition.question.get(language).to_owned());
    let parts: Vec<&str> = parts
        .iter()
        .map(|part| part.trim())
        .filter(|part| !part.is_empty())
        .collect();
    parts.join(" ").replace("{broker}", &content.brand.name)
}

#[cfg(test)]
mod tests {
    use super::super::site_content::{example_dir, example_with};
    use super::*;

    fn definition() -> AssistantDefinition {
        AssistantDefinition::load(&example_dir()).unwrap()
    }

    fn first_message(recording: bool, variant: &str) -> FirstMessage {
        let mut definition = definition();
        definition.recording = recording;
        let content =
            example_with(|text| text.replace("  variant: some", &format!("  variant: {variant}")));
        FirstMessage::new(&definition, &content).unwrap()
    }

    fn text(message: &FirstMessage, language: Language) -> &str {
        let (_, text) = message
            .texts()
            .iter()
            .find(|(each, _)| *each == language)
            .unwrap();
        text
    }

    #[test]
    fn in_english_the_recording_greeting_disclaimer_agent_notice_and_question_in_order() {
        let message = first_message(true, "some");
        assert_eq!(
            text(&message, Language::En),
            "This call is being recorded. Hello, I am the virtual assistant of Clearharbor Health. We do not offer every plan \
             available in your area. Currently we represent 8 organizations which offer 24 \
             products in your area. Please contact Medicare.gov or 1-800-MEDICARE to get \
             information on all of your options. A licensed insurance agent of Clearharbor Health will contact you about your quote. \
             How can I help you today?"
        );
    }

    #[test]
    fn in_spanish_the_same_parts_in_the_same_order_from_the_spanish_site() {
        let message = first_message(true, "some");
        let spanish = text(&message, Language::Es);
        assert!(
            spanish.starts_with("Esta llamada se está grabando. Hola"),
            "{spanish}"
        );
        let order = [
            "Esta llamada se está grabando.",
            "Hola, soy el asistente virtual de Clearharbor Health.",
            "No ofrecemos todos los planes disponibles en su área. Actualmente representamos a 8 \
             organizaciones que ofrecen 24 productos",
            "Un agente de seguros con licencia de Clearharbor Health se pondrá en contacto con \
             usted sobre su cotización.",
            "¿En qué le puedo ayudar hoy?",
        ]
        .map(|part| {
            spanish
                .find(part)
                .unwrap_or_else(|| panic!("{part:?} in {spanish}"))
        });
        assert!(order.is_sorted(), "{spanish}");
        assert!(
            !spanish.contains("{broker}") && !spanish.contains("We "),
            "{spanish}"
        );
    }

    #[test]
    fn the_disclaimer_follows_its_variant_in_each_language() {
        let every = first_message(true, "every");
        assert!(text(&every, Language::En).contains(
            "of Clearharbor Health. Currently we represent 8 organizations which offer 24 \
             products in your area. You can always contact Medicare.gov or 1-800-MEDICARE for \
             help with plan choices."
        ));
        assert!(text(&every, Language::Es)
            .contains("de Clearharbor Health. Actualmente representamos a 8 organizaciones"));
        let none = first_message(true, "none");
        for (language, text) in none.texts() {
            assert!(
                !text.contains("Medicare") && !text.contains("planes"),
                "{language:?}: {text}"
            );
            assert!(text.contains("Clearharbor Health"), "{text}");
        }
        assert_eq!(
            text(&none, Language::En),
            "This call is being recorded. Hello, I am the virtual assistant of Clearharbor \
             Health. A licensed insurance agent of Clearharbor Health will contact you about \
             your quote. How can I help you today?"
        );
    }

    #[test]
    fn the_recording_notice_only_when_calls_are_recorded() {
        let quiet = first_message(false, "some");
        let recorded = first_message(true, "some");
        for language in LANGUAGES {
            let notice = definition().recording_notice.get(language).to_owned();
            assert!(!text(&quiet, language).contains(&notice));
            assert!(text(&recorded, language).contains(&notice));
        }
        assert!(text(&quiet, Language::En)
            .ends_with("will contact you about your quote. How can I help you today?"));
        assert!(text(&quiet, Language::En).starts_with("Hello, I am"));
        assert!(text(&quiet, Language::Es).starts_with("Hola, soy"));
    }

    #[test]
    fn the_template_says_the_pages_language_and_english_when_none_is_named() {
        for message in [first_message(true, "some"), first_message(false, "none")] {
            let (english, spanish) = (text(&message, Language::En), text(&message, Language::Es));
            assert_eq!(
                message.template(),
                format!("{{% if language == \"es\" %}}{spanish}{{% else %}}{english}{{% endif %}}")
            );
        }
    }

    #[test]
    fn template_markup_in_a_text_is_refused() {
        let mut definition = definition();
        let content = example_with(|text| text);
        definition.question = serde_norway::from_str("{ en: 'Hi {{name}}?', es: '¿Sí?' }").unwrap();
        let error = FirstMessage::new(&definition, &content)
            .err()
            .expect("refused");
        assert!(
            error.starts_with("the first message in English holds `{{` or `{%`"),
            "{error}"
        );
    }
}
