//! The lead-generation notice each page shows beside the quote form (and the assistant says):
//! the content's `quote.leadNotice` with the broker named, which the front end's build writes
//! into each language's `.site/site.json`. Every lead's consent record keeps the exact text its
//! visitor was shown (`store::consent`). Beside it, the fields the broker added to the form
//! (`quote.fields`), the disclosure asking consent to be called (`quote.phoneConsent`), and the
//! notices before a conversation (the one before a call and the chat's), whose exact text a
//! visitor's acceptance keeps (`store::notice_acceptance`).

use std::io;
use std::net::IpAddr;
use std::path::Path;

use serde::Deserialize;

use crate::settings::site::{read_build_facts, BUILD_FACTS, SPANISH_BUILD_FACTS};
use wasm_core::{ContactRules, FieldRule};

use crate::store::consent::{ConsentChannel, NewConsent, PhoneConsent};
use crate::store::{Language, Source};

/// Each language's page; `None` where the site has no built page (an API-only server, whose
/// form has no added fields).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadNotices {
    english: Option<Page>,
    spanish: Option<Page>,
}

/// What one language's page shows beside the form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Page {
    notice: String,
    rules: ContactRules,
    /// The disclosure beside the phone field, when it is on.
    phone_consent: Option<String>,
    /// The notices before a conversation; `None` in a build from before they were recorded.
    conversation: Option<ConversationNotices>,
}

/// The notice before a call (as the build chose it: recorded or not) and the chat's.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
struct ConversationNotices {
    call: String,
    chat: String,
}

#[derive(Deserialize)]
struct Facts {
    #[serde(rename = "leadNotice")]
    lead_notice: String,
    /// `quote.fields`: absent in a build from before phone and ZIP, whose form has neither.
    #[serde(default)]
    fields: Fields,
    #[serde(rename = "phoneConsent", default)]
    phone_consent: Option<String>,
    #[serde(rename = "conversationNotices", default)]
    conversation_notices: Option<ConversationNotices>,
}

#[derive(Default, Deserialize)]
struct Fields {
    phone: Option<String>,
    zip: Option<String>,
}

impl LeadNotices {
    /// Read from `static_dir`'s build facts, English's and Spanish's (`.site/es/site.json`).
    pub fn load(static_dir: &Path) -> io::Result<LeadNotices> {
        Ok(LeadNotices {
            english: read(&static_dir.join(BUILD_FACTS))?,
            spanish: read(&static_dir.join(SPANISH_BUILD_FACTS))?,
        })
    }

    fn page(&self, language: Language) -> Option<&Page> {
        match language {
            Language::En => self.english.as_ref(),
            Language::Es => self.spanish.as_ref(),
        }
    }

    /// The text a page in `language` shows.
    pub fn text(&self, language: Language) -> Option<&str> {
        self.page(language).map(|page| page.notice.as_str())
    }

    /// The fields the page in `language` adds to the form, and how.
    pub fn rules(&self, language: Language) -> ContactRules {
        self.page(language)
            .map(|page| page.rules)
            .unwrap_or_default()
    }

    /// The consent to be called asked for beside a phone number on the page in `language`, as
    /// the visitor answered it (`given`); `None` where the page asks for no phone number.
    pub fn phone_consent(&self, language: Language, given: bool) -> Option<PhoneConsent> {
        let disclosure = self.page(language)?.phone_consent.clone()?;
        Some(PhoneConsent { disclosure, given })
    }

    /// The notice the page in `language` shows before a conversation of `channel` (a call's or
    /// the chat's); `None` where the build has none, or for another channel.
    pub fn conversation_notice(&self, language: Language, channel: Source) -> Option<&str> {
        let notices = self.page(language)?.conversation.as_ref()?;
        match channel {
            Source::Voice => Some(notices.call.as_str()),
            Source::Chat => Some(notices.chat.as_str()),
            Source::Web => None,
        }
    }

    /// The consent record of a lead sent by `channel` from the page in `language`.
    pub fn consent(
        &self,
        language: Language,
        channel: ConsentChannel,
        client: Option<IpAddr>,
        user_agent: Option<&str>,
    ) -> NewConsent {
        NewConsent {
            notice: self.text(language).map(str::to_owned),
            page: match language {
                Language::En => "/".to_owned(),
                Language::Es => "/es/".to_owned(),
            },
            channel,
            client: client.map(|ip| ip.to_string()),
            user_agent: user_agent.map(str::to_owned),
            phone: None,
        }
    }
}

/// The page in a build facts file; `None` when there is no such file (no built front end).
fn read(file: &Path) -> io::Result<Option<Page>> {
    let Some(facts) = read_build_facts::<Facts>(file)? else {
        return Ok(None);
    };
    let invalid = |problem: String| {
        let message = format!("{}: {problem} (rebuild the front end)", file.display());
        io::Error::new(io::ErrorKind::InvalidData, message)
    };
    let rule = |name: Option<&str>, key: &str| match name {
        None => Ok(FieldRule::Off),
        Some(name) => FieldRule::parse(name).ok_or_else(|| {
            invalid(format!(
                "fields.{key} is {name:?}, not off, optional or required"
            ))
        }),
    };
    let rules = ContactRules {
        phone: rule(facts.fields.phone.as_deref(), "phone")?,
        zip: rule(facts.fields.zip.as_deref(), "zip")?,
    };
    if rules.phone != FieldRule::Off && facts.phone_consent.is_none() {
        return Err(invalid(
            "the phone field is on without phoneConsent".to_owned(),
        ));
    }
    Ok(Some(Page {
        notice: facts.lead_notice,
        rules,
        phone_consent: facts
            .phone_consent
            .filter(|_| rules.phone != FieldRule::Off),
        conversation: facts.conversation_notices,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_page_keeps_its_own_notice() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            LeadNotices::load(dir.path()).unwrap(),
            LeadNotices::default()
        );
        std::fs::create_dir_all(dir.path().join(".site/es")).unwrap();
        let write = |file: &str, facts: &str| std::fs::write(dir.path().join(file), facts).unwrap();
        let facts =
            |text: &str| format!(r#"{{"url": "https://x.example/", "leadNotice": "{text}"}}"#);
        write(BUILD_FACTS, &facts("An agent will call."));
        write(SPANISH_BUILD_FACTS, &facts("Un agente llamará."));
        let notices = LeadNotices::load(dir.path()).unwrap();
        let consent = notices.consent(
            Language::Es,
            ConsentChannel::FormWithoutScript,
            Some("203.0.113.9".parse().unwrap()),
            Some("Firefox"),
        );
        assert_eq!(consent.notice.as_deref(), Some("Un agente llamará."));
        assert_eq!(consent.page, "/es/");
        assert_eq!(consent.client.as_deref(), Some("203.0.113.9"));
        assert_eq!(notices.text(Language::En), Some("An agent will call."));
        assert_eq!(notices.rules(Language::En), ContactRules::default());
        assert_eq!(notices.phone_consent(Language::En, true), None);
        write(
            BUILD_FACTS,
            r#"{"leadNotice": "An agent will call.", "fields": {"phone": "optional", "zip": "required"}, "phoneConsent": "Clearharbor may call me."}"#,
        );
        let notices = LeadNotices::load(dir.path()).unwrap();
        assert_eq!(
            notices.rules(Language::En),
            ContactRules {
                phone: FieldRule::Optional,
                zip: FieldRule::Required
            }
        );
        assert_eq!(
            notices.phone_consent(Language::En, false),
            Some(PhoneConsent {
                disclosure: "Clearharbor may call me.".into(),
                given: false
            })
        );
        for (facts, named) in [
            (
                r#"{"leadNotice": "x", "fields": {"phone": "maybe"}, "phoneConsent": "y"}"#,
                "fields.phone",
            ),
            (
                r#"{"leadNotice": "x", "fields": {"phone": "optional"}}"#,
                "phoneConsent",
            ),
        ] {
            write(BUILD_FACTS, facts);
            let refused = LeadNotices::load(dir.path()).unwrap_err().to_string();
            assert!(refused.contains(named), "{refused}");
        }
        write(BUILD_FACTS, "{}");
        let refused = LeadNotices::load(dir.path()).unwrap_err().to_string();
        assert!(refused.contains("leadNotice"), "{refused}");
    }

    #[test]
    fn each_page_keeps_its_notices_before_a_conversation() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join(".site/es")).unwrap();
        std::fs::write(
            dir.path().join(BUILD_FACTS),
            r#"{"leadNotice": "x", "conversationNotices": {"call": "An AI answers; recorded.", "chat": "An AI writes."}}"#,
        )
        .unwrap();
        // A Spanish build from before the notices were recorded.
        std::fs::write(
            dir.path().join(SPANISH_BUILD_FACTS),
            r#"{"leadNotice": "x"}"#,
        )
        .unwrap();
        let notices = LeadNotices::load(dir.path()).unwrap();
        let notice = |language, channel| notices.conversation_notice(language, channel);
        assert_eq!(
            notice(Language::En, Source::Voice),
            Some("An AI answers; recorded.")
        );
        assert_eq!(notice(Language::En, Source::Chat), Some("An AI writes."));
        assert_eq!(notice(Language::En, Source::Web), None);
        assert_eq!(notice(Language::Es, Source::Voice), None);
    }
}
