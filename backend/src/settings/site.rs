//! How the broker's messages point back at the site: its public address (`SITE_URL`, for the
//! links the server writes: the inbox links in e-mails, the voice assistant's webhook) and the
//! time zone lead times are shown in (`LEAD_TIME_ZONE`), and the states the broker is licensed in. Unset, `SITE_URL` is the content's
//! canonical URL (`brand.url` in `content/site.yaml`), which the front end's build writes into
//! `STATIC_DIR/.site/site.json`, so the site's address has one source; without a built front
//! end, the server's own address.

use std::net::SocketAddr;
use std::path::Path;

use jiff::tz::TimeZone;
use percent_encoding::{utf8_percent_encode, AsciiSet, NON_ALPHANUMERIC};
use serde::Deserialize;
use url::Url;
use wasm_core::State;

use super::env::Env;
use super::error::ConfigError;

const SITE_URL: &str = "SITE_URL";
const TIME_ZONE: &str = "LEAD_TIME_ZONE";
const TIME_ZONE_FORM: &str = "an IANA time zone name such as America/New_York or UTC";

#[derive(Clone, Debug)]
pub struct SiteSettings {
    /// `SITE_URL`, or its default (`from_env` always sets it; a test's `default()` has none, and
    /// its e-mails no inbox link).
    pub url: Option<Url>,
    /// `LEAD_TIME_ZONE`: the zone the e-mails give times in (UTC unless set).
    pub time_zone: TimeZone,
    /// The states the broker is licensed in (`broker.licences` in the content, from the build);
    /// empty when none are listed, and then no lead is checked.
    pub licences: Vec<State>,
}

impl Default for SiteSettings {
    fn default() -> SiteSettings {
        SiteSettings {
            url: None,
            time_zone: TimeZone::UTC,
            licences: Vec::new(),
        }
    }
}

/// A lead id's bytes written as they are in the inbox's `#lead/<id>`: a UUID's letters, digits
/// and hyphens; anything else percent-encoded.
const ID_IN_FRAGMENT: &AsciiSet = &NON_ALPHANUMERIC.remove(b'-');

impl SiteSettings {
    pub fn from_env(
        env: &Env,
        static_dir: &Path,
        addr: SocketAddr,
    ) -> Result<SiteSettings, ConfigError> {
        let url = Some(site_url(env, static_dir, addr)?);
        let time_zone = match env.value(TIME_ZONE) {
            None => TimeZone::UTC,
            Some(name) => TimeZone::get(&name).map_err(|_| {
                ConfigError::new(TIME_ZONE, name, "is not a known time zone", TIME_ZONE_FORM)
            })?,
        };
        Ok(SiteSettings {
            url,
            time_zone,
            licences: licences(static_dir),
        })
    }

    /// Whether the broker is licensed in `state` (a lead's ZIP code's): `None` without a state,
    /// or with no licences listed.
    pub fn licensed_in(&self, state: Option<&str>) -> Option<bool> {
        if self.licences.is_empty() {
            return None;
        }
        let state = State::parse(state?)?;
        Some(self.licences.contains(&state))
    }

    /// The inbox (`/admin` under the site's address, which may have a path of its own).
    pub fn inbox(&self) -> Option<Url> {
        let mut inbox = self.url.clone()?;
        inbox.path_segments_mut().ok()?.pop_if_empty().push("admin");
        Some(inbox)
    }

    /// The lead's page in the inbox (`/admin#lead/<id>`, as the inbox routes it), the id
    /// percent-encoded: whatever a stored id holds stays inside the link.
    pub fn lead_page(&self, lead_id: &str) -> Option<String> {
        let mut page = self.inbox()?;
        let id = utf8_percent_encode(lead_id, ID_IN_FRAGMENT);
        page.set_fragment(Some(&format!("lead/{id}")));
        Some(page.into())
    }

    /// The site's page at `path` (`/consent/...`), under the site's address, which may have a
    /// path of its own.
    pub fn page(&self, path: &str) -> Option<String> {
        let mut page = self.url.clone()?;
        let under = page.path().trim_end_matches('/').to_owned();
        page.set_path(&format!("{under}{path}"));
        Some(page.into())
    }

    /// `2026-11-22 10:40:00 EST`: the moment in `LEAD_TIME_ZONE`, with the zone's abbreviation.
    pub fn local_time(&self, at: time::OffsetDateTime) -> String {
        jiff::Timestamp::from_nanosecond(at.unix_timestamp_nanos())
            .map(|moment| {
                moment
                    .to_zoned_datetime(self.time_zone.clone())
                    .strftime("%Y-%m-%d %H:%M:%S %Z")
                    .to_string()
            })
            .unwrap_or_default()
    }
}

/// What the front end's build hands the server from the content (`frontend/scripts/prerender.mjs`).
pub const BUILD_FACTS: &str = ".site/site.json";
/// The same from the Spanish site's content.
pub const SPANISH_BUILD_FACTS: &str = ".site/es/site.json";

/// A build facts file read as `T`; `None` when there is no such file (no built front end), and
/// an error naming the file when it does not read as `T`.
pub fn read_build_facts<T: serde::de::DeserializeOwned>(file: &Path) -> std::io::Result<Option<T>> {
    let bytes = match std::fs::read(file) {
        Ok(bytes) => bytes,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(error) => return Err(error),
    };
    serde_json::from_slice(&bytes).map(Some).map_err(|error| {
        std::io::Error::new(
            std::io::ErrorKind::InvalidData,
            format!("{}: {error} (rebuild the front end)", file.display()),
        )
    })
}
const SITE_URL_FORM: &str = "the site's public address such as https://quotes.example.com";

#[derive(Deserialize)]
struct Canonical {
    url: String,
}

#[derive(Deserialize)]
struct Licensed {
    /// Each licence's state as the content names it (`Illinois`, `TX`).
    #[serde(default)]
    licences: Vec<String>,
}

/// The build's licensed states; a name no state has is left out (the build refuses it first).
pub fn licences(static_dir: &Path) -> Vec<State> {
    std::fs::read(static_dir.join(BUILD_FACTS))
        .ok()
        .and_then(|json| serde_json::from_slice::<Licensed>(&json).ok())
        .map(|licensed| {
            licensed
                .licences
                .iter()
                .filter_map(|name| {
                    State::parse(name).filter(|state| state.is_state_dc_or_territory())
                })
                .collect()
        })
        .unwrap_or_default()
}

fn site_url(env: &Env, static_dir: &Path, addr: SocketAddr) -> Result<Url, ConfigError> {
    if let Some(url) = env.http_url(SITE_URL, SITE_URL_FORM)? {
        return Ok(url);
    }
    let canonical = std::fs::read(static_dir.join(BUILD_FACTS))
        .ok()
        .and_then(|json| serde_json::from_slice::<Canonical>(&json).ok())
        .and_then(|canonical| Url::parse(&canonical.url).ok());
    Ok(canonical.unwrap_or_else(|| {
        Url::parse(&format!("http://{addr}/")).expect("a socket address makes a URL")
    }))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    const ADDR: &str = "127.0.0.1:8080";

    fn site(vars: &[(&str, &str)]) -> Result<SiteSettings, ConfigError> {
        let dir = tempfile::tempdir().unwrap();
        SiteSettings::from_env(&Env::new(&lookup(vars)), dir.path(), ADDR.parse().unwrap())
    }

    fn url(vars: &[(&str, &str)], dir: &Path) -> String {
        let get = lookup(vars);
        site_url(&Env::new(&get), dir, ADDR.parse().unwrap())
            .unwrap()
            .into()
    }

    #[test]
    fn times_are_shown_in_the_zone_and_utc_by_default() {
        let at = time::macros::datetime!(2026-11-22 15:40 UTC);
        assert_eq!(site(&[]).unwrap().local_time(at), "2026-11-22 15:40:00 UTC");
        let new_york = site(&[(TIME_ZONE, " America/New_York ")]).unwrap();
        assert_eq!(new_york.local_time(at), "2026-11-22 10:40:00 EST");
        let summer = time::macros::datetime!(2026-07-01 12:00 UTC);
        assert_eq!(new_york.local_time(summer), "2026-07-01 08:00:00 EDT");
    }

    #[test]
    fn a_bad_zone_or_url_is_one_line() {
        assert_eq!(
            site(&[(TIME_ZONE, "Mars/Olympus")]).unwrap_err().to_string(),
            "LEAD_TIME_ZONE=\"Mars/Olympus\" is not a known time zone; expected an IANA time zone name such as America/New_York or UTC"
        );
        assert!(site(&[(SITE_URL, "quotes.example.com")])
            .unwrap_err()
            .to_string()
            .starts_with("SITE_URL=\"quotes.example.com\" has no http(s) host"));
    }

    #[test]
    fn the_lead_page_is_under_admin_with_or_without_a_slash() {
        assert_eq!(SiteSettings::default().lead_page("abc"), None);
        for url in ["https://quotes.example.com", "https://quotes.example.com/"] {
            let page = site(&[(SITE_URL, url)]).unwrap().lead_page("abc");
            assert_eq!(
                page.as_deref(),
                Some("https://quotes.example.com/admin#lead/abc")
            );
        }
        for url in ["https://example.com/broker", "https://example.com/broker/"] {
            let inbox = site(&[(SITE_URL, url)]).unwrap().inbox().unwrap();
            assert_eq!(inbox.as_str(), "https://example.com/broker/admin");
        }
    }

    #[test]
    fn whatever_an_id_holds_stays_inside_the_link() {
        let site = site(&[(SITE_URL, "https://quotes.example.com")]).unwrap();
        assert_eq!(
            site.lead_page("0195-a\r\nBcc: x <b>#1").as_deref(),
            Some("https://quotes.example.com/admin#lead/0195-a%0D%0ABcc%3A%20x%20%3Cb%3E%231")
        );
    }

    #[test]
    fn defaults_to_the_contents_canonical_url_then_the_servers_address() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(url(&[], dir.path()), "http://127.0.0.1:8080/");
        std::fs::create_dir(dir.path().join(".site")).unwrap();
        std::fs::write(
            dir.path().join(BUILD_FACTS),
            r#"{"url": "https://www.broker.test/", "retention": {}}"#,
        )
        .unwrap();
        assert_eq!(url(&[], dir.path()), "https://www.broker.test/");
        let set = url(&[("SITE_URL", "https://quotes.broker.test/")], dir.path());
        assert_eq!(set, "https://quotes.broker.test/");
    }
}
