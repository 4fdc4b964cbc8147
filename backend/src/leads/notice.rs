//! The lead-generation notice each page shows beside the quote form (and the assistant says):
//! the content's `quote.leadNotice` with the broker named, which the front end's build writes
//! into each language's `.site/site.json`. Every lead's consent record keeps the exact text its
//! visitor was shown (`store::consent`).

use std::io;
use std::net::IpAddr;
use std::path::Path;

use serde::Deserialize;

use crate::settings::site::BUILD_FACTS;
use crate::store::consent::{ConsentChannel, NewConsent};
use crate::store::Language;

/// Each language's notice; `None` where the site has no built page (an API-only server).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadNotices {
    english: Option<String>,
    spanish: Option<String>,
}

#[derive(Deserialize)]
struct Facts {
    #[serde(rename = "leadNotice")]
    lead_notice: String,
}

impl LeadNotices {
    /// Read from `static_dir`'s build facts, English's and Spanish's (`.site/es/site.json`).
    pub fn load(static_dir: &Path) -> io::Result<LeadNotices> {
        Ok(LeadNotices {
            english: read(&static_dir.join(BUILD_FACTS))?,
            spanish: read(&static_dir.join(".site/es/site.json"))?,
        })
    }

    /// The text a page in `language` shows.
    pub fn text(&self, language: Language) -> Option<&str> {
        match language {
            Language::En => self.english.as_deref(),
            Language::Es => self.spanish.as_deref(),
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
        }
    }
}

/// The notice in a build facts file; `None` when there is no such file (no built front end).
fn read(file: &Path) -> io::Result<Option<String>> {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let facts: Facts = serde_json::from_slice(&bytes).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{}: {error} (rebuild the front end)", file.display()),
        )
    })?;
    Ok(Some(facts.lead_notice))
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
        let facts =
            |text: &str| format!(r#"{{"url": "https://x.example/", "leadNotice": "{text}"}}"#);
        std::fs::write(dir.path().join(BUILD_FACTS), facts("An agent will call.")).unwrap();
        std::fs::write(
            dir.path().join(".site/es/site.json"),
            facts("Un agente llamará."),
        )
        .unwrap();
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
        std::fs::write(dir.path().join(BUILD_FACTS), "{}").unwrap();
        let refused = LeadNotices::load(dir.path()).unwrap_err().to_string();
        assert!(refused.contains("leadNotice"), "{refused}");
    }
}
