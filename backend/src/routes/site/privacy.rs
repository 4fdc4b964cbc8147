//! The privacy notice, `/privacy`. The front end's build renders it from the content
//! (`content/pages/privacy.md`) into `STATIC_DIR/.site/privacy.html` with a `{{retention}}` slot,
//! and writes the notice's words for either retention setting into `.site/site.json`; the slot is
//! filled here, once at start, from `LEAD_RETENTION_DAYS`, so the notice states what this server
//! actually does and cannot drift from it. The Spanish notice, `/es/privacy`, is the same from
//! `.site/es/`.

use std::io;
use std::path::Path;
use std::time::Duration;

use serde::Deserialize;

use crate::settings::site::BUILD_FACTS;

/// In the hidden folder beside the built pages: the unfilled page is not one to serve.
pub const PAGE: &str = ".site/privacy.html";
/// Each language's notice: its folder under `.site/` (with its `privacy.html` and `site.json`)
/// and the path it is served at.
pub const NOTICES: [(&str, &str); 2] = [("", "/privacy"), ("es/", "/es/privacy")];
const SLOT: &str = "{{retention}}";
const DAY_SECS: u64 = 24 * 60 * 60;

#[derive(Deserialize)]
struct Facts {
    retention: RetentionWords,
}

/// The content's words for how long a quote request is kept.
#[derive(Deserialize)]
struct RetentionWords {
    /// With `{days}` where the number goes.
    days: String,
    /// When `LEAD_RETENTION_DAYS` is unset.
    unset: String,
}

/// The notice with the server's retention written in, or `None` when the front end has none
/// (an API-only server).
pub fn notice(
    static_dir: &Path,
    language_dir: &str,
    retention: Option<Duration>,
) -> io::Result<Option<String>> {
    let folder = static_dir.join(".site").join(language_dir);
    let page = match std::fs::read_to_string(folder.join("privacy.html")) {
        Ok(page) => page,
        Err(error) if error.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    let facts_file = if language_dir.is_empty() {
        static_dir.join(BUILD_FACTS)
    } else {
        folder.join("site.json")
    };
    let facts: Facts = serde_json::from_slice(&std::fs::read(facts_file)?).map_err(|error| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{BUILD_FACTS}: {error}"),
        )
    })?;
    Ok(Some(fill(&page, &facts.retention, retention)))
}

fn fill(page: &str, words: &RetentionWords, retention: Option<Duration>) -> String {
    let kept = match retention {
        Some(retention) => words
            .days
            .replace("{days}", &(retention.as_secs() / DAY_SECS).to_string()),
        None => words.unset.clone(),
    };
    page.replacen(SLOT, &escape(&kept), 1)
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE_HTML: &str = "<p>We keep a quote request {{retention}}.</p>";

    fn words() -> RetentionWords {
        RetentionWords {
            days: "{days} days & no more".into(),
            unset: "until you ask us to delete it".into(),
        }
    }

    #[test]
    fn states_the_configured_days() {
        let page = fill(
            PAGE_HTML,
            &words(),
            Some(Duration::from_secs(90 * DAY_SECS)),
        );
        assert_eq!(
            page,
            "<p>We keep a quote request 90 days &amp; no more.</p>"
        );
    }

    #[test]
    fn states_until_deleted_when_unset() {
        let page = fill(PAGE_HTML, &words(), None);
        assert_eq!(
            page,
            "<p>We keep a quote request until you ask us to delete it.</p>"
        );
    }

    #[test]
    fn no_built_notice_is_none() {
        let dir = tempfile::tempdir().unwrap();
        assert!(notice(dir.path(), "", None).unwrap().is_none());
    }
}
