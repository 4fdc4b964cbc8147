//! The privacy notice, `/privacy`. The front end's build renders it from the content
//! (`content/pages/privacy.md`) into `STATIC_DIR/.site/privacy.html` with slots for what only the
//! server knows, and writes the notice's words for each of its settings into `.site/site.json`;
//! the slots are filled here, once at start, from the settings, so the notice states what this
//! server actually does and cannot drift from it:
//!
//! - `{{retention}}`: how long a quote request is kept (`LEAD_RETENTION_DAYS`);
//! - `{{conversationRetention}}`: how long a conversation with the assistant is kept
//!   (`CONVERSATION_RETENTION_DAYS`);
//! - `{{leadWebhook}}`: whether each request is forwarded to the broker's own system
//!   (`LEAD_WEBHOOK_URL`).
//!
//! The Spanish notice, `/es/privacy`, is the same from `.site/es/`. (What the build knows itself,
//! whether calls are recorded and which AI services serve them, it writes in.)

use std::io;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::settings::site::BUILD_FACTS;
use crate::settings::Config;

/// In the hidden folder beside the built pages: the unfilled page is not one to serve.
pub const PAGE: &str = ".site/privacy.html";
/// Each language's notice: its folder under `.site/` (with its `privacy.html` and `site.json`)
/// and the path it is served at.
pub const NOTICES: [(&str, &str); 2] = [("", "/privacy"), ("es/", "/es/privacy")];
const DAY_SECS: u64 = 24 * 60 * 60;

/// What the notice states about this server, each from its setting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PrivacyFacts {
    /// `LEAD_RETENTION_DAYS`; `None` keeps quote requests until deleted.
    pub retention: Option<Duration>,
    /// `CONVERSATION_RETENTION_DAYS`.
    pub conversation_retention: Duration,
    /// Whether `LEAD_WEBHOOK_URL` is set.
    pub lead_webhook: bool,
}

impl PrivacyFacts {
    pub fn of(config: &Config) -> PrivacyFacts {
        PrivacyFacts {
            retention: config.inbox.retention,
            conversation_retention: config.inbox.conversation_retention,
            lead_webhook: config.leads.forwarding.is_some(),
        }
    }
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct Words {
    retention: RetentionWords,
    conversation_retention: DaysWords,
    lead_webhook: SetWords,
}

/// The content's words for how long a quote request is kept.
#[derive(Deserialize)]
struct RetentionWords {
    /// With `{days}` where the number goes.
    days: String,
    /// When `LEAD_RETENTION_DAYS` is unset.
    unset: String,
}

/// The content's words for a number of days, with `{days}` where the number goes.
#[derive(Deserialize)]
struct DaysWords {
    days: String,
}

/// The content's words for a part that is on (`set`) or off (`unset`).
#[derive(Deserialize)]
struct SetWords {
    set: String,
    unset: String,
}

/// The notice with the server's facts written in, or `None` when the front end has none (an
/// API-only server).
pub fn notice(
    static_dir: &Path,
    language_dir: &str,
    facts: &PrivacyFacts,
) -> io::Result<Option<String>> {
    let folder = static_dir.join(".site").join(language_dir);
    let page = match std::fs::read_to_string(folder.join("privacy.html")) {
        Ok(page) => page,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let words_file = if language_dir.is_empty() {
        static_dir.join(BUILD_FACTS)
    } else {
        folder.join("site.json")
    };
    let words: Words = serde_json::from_slice(&std::fs::read(&words_file)?).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {error} (rebuild the front end)", words_file.display()),
        )
    })?;
    Ok(Some(fill(&page, &words, facts)))
}

fn fill(page: &str, words: &Words, facts: &PrivacyFacts) -> String {
    let days = |text: &str, period: Duration| {
        text.replace("{days}", &(period.as_secs() / DAY_SECS).to_string())
    };
    let retention = match facts.retention {
        Some(period) => days(&words.retention.days, period),
        None => words.retention.unset.clone(),
    };
    let conversations = days(
        &words.conversation_retention.days,
        facts.conversation_retention,
    );
    let lead_webhook = if facts.lead_webhook {
        &words.lead_webhook.set
    } else {
        &words.lead_webhook.unset
    };
    [
        ("{{retention}}", retention.as_str()),
        ("{{conversationRetention}}", conversations.as_str()),
        ("{{leadWebhook}}", lead_webhook.as_str()),
    ]
    .into_iter()
    .fold(page.to_owned(), |page, (slot, text)| {
        page.replacen(slot, &escape(text), 1)
    })
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE_HTML: &str = "<p>We keep a quote request {{retention}}, a conversation \
        {{conversationRetention}}.</p><ul><li>{{leadWebhook}}</li></ul>";
    const DAY: Duration = Duration::from_secs(DAY_SECS);

    fn words() -> Words {
        serde_json::from_str(
            r#"{
                "url": "https://www.broker.test/",
                "retention": {"days": "{days} days & no more", "unset": "until you ask us to delete it"},
                "conversationRetention": {"days": "{days} days <by law>"},
                "leadWebhook": {"set": "Our CRM", "unset": "Nobody else"}
            }"#,
        )
        .unwrap()
    }

    #[test]
    fn states_the_configured_days_and_the_forwarding() {
        let facts = PrivacyFacts {
            retention: Some(DAY * 90),
            conversation_retention: DAY * 3653,
            lead_webhook: true,
        };
        assert_eq!(
            fill(PAGE_HTML, &words(), &facts),
            "<p>We keep a quote request 90 days &amp; no more, a conversation \
             3653 days &lt;by law&gt;.</p><ul><li>Our CRM</li></ul>"
        );
    }

    #[test]
    fn states_until_deleted_and_no_forwarding_when_unset() {
        let facts = PrivacyFacts {
            retention: None,
            conversation_retention: DAY * 2,
            lead_webhook: false,
        };
        assert_eq!(
            fill(PAGE_HTML, &words(), &facts),
            "<p>We keep a quote request until you ask us to delete it, a conversation \
             2 days &lt;by law&gt;.</p><ul><li>Nobody else</li></ul>"
        );
    }

    #[test]
    fn no_built_notice_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(notice(dir.path(), "", &PrivacyFacts::default())
            .unwrap()
            .is_none());
    }

    #[test]
    fn words_missing_from_the_build_stop_start_up_naming_the_file() {
        let dir = tempfile::tempdir().unwrap();
        let site = dir.path().join(".site");
        std::fs::create_dir_all(&site).unwrap();
        std::fs::write(site.join("privacy.html"), PAGE_HTML).unwrap();
        std::fs::write(
            site.join("site.json"),
            r#"{"retention": {"days": "{days} days", "unset": "for ever"}}"#,
        )
        .unwrap();
        let error = notice(dir.path(), "", &PrivacyFacts::default()).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidData);
        let message = error.to_string();
        assert!(
            message.contains(".site/site.json") && message.contains("conversationRetention"),
            "{message}"
        );
    }
}
