//! Where the calls' recordings may be copied from (`RECORDING_ORIGINS`) and how much of them the
//! database keeps in all (`RECORDINGS_MAX_MB`).
//!
//! The provider's end-of-call report names the recording's URL, and whoever can post a report
//! chooses it: only the listed origins are fetched, so the copier cannot be pointed at the
//! server's own network (`forward/recording_client.rs` holds the rest of that rule).

use url::{Origin, Url};

use super::env::Env;
use super::error::ConfigError;

const ORIGINS: &str = "RECORDING_ORIGINS";
/// The voice provider's recording storage: the host of the `recordingUrl` in its end-of-call
/// reports (`https://storage.vapi.ai/<call>-mono.wav`, as reports its users published show it;
/// its own docs name no storage host).
pub const DEFAULT_ORIGINS: &str = "https://storage.vapi.ai";
const ORIGINS_FORM: &str =
    "a comma-separated list of origins, scheme://host[:port], such as https://storage.vapi.ai";

const MAX_MB: &str = "RECORDINGS_MAX_MB";
/// 2 GiB: about 18 hours of the provider's default recording (mono 16-bit WAV at 16 kHz,
/// 1.83 MiB a minute), on the smallest server's disk beside the database's backups.
pub const DEFAULT_MAX_MB: u64 = 2048;
/// A mebibyte: the unit of `RECORDINGS_MAX_MB`.
pub const MB: u64 = 1024 * 1024;
/// A tebibyte: a larger total is a typo.
const MAX_MAX_MB: u64 = 1024 * 1024;
const MAX_MB_FORM: &str = "a whole number of MB (MiB) from 1 to 1048576 (default 2048)";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordingSettings {
    /// The origins a recording, and every redirect on the way to it, may come from.
    pub origins: RecordingOrigins,
    /// The most bytes all stored recordings may take together.
    pub max_total_bytes: u64,
}

impl Default for RecordingSettings {
    fn default() -> RecordingSettings {
        RecordingSettings {
            origins: RecordingOrigins::parse(DEFAULT_ORIGINS).expect("the default parses"),
            max_total_bytes: DEFAULT_MAX_MB * MB,
        }
    }
}

impl RecordingSettings {
    pub fn from_env(env: &Env) -> Result<RecordingSettings, ConfigError> {
        let list = env
            .value(ORIGINS)
            .unwrap_or_else(|| DEFAULT_ORIGINS.to_owned());
        let origins = RecordingOrigins::parse(&list)
            .map_err(|problem| ConfigError::new(ORIGINS, list.clone(), problem, ORIGINS_FORM))?;
        let max_mb = env
            .parse_within(MAX_MB, MAX_MB_FORM, "is out of range", |n: &u64| {
                (1..=MAX_MAX_MB).contains(n)
            })?
            .unwrap_or(DEFAULT_MAX_MB);
        Ok(RecordingSettings {
            origins,
            max_total_bytes: max_mb * MB,
        })
    }
}

/// `RECORDING_ORIGINS`, each as the URL standard's origin (scheme, host and port, the scheme's
/// default port filled in), so `https://h` and `https://h:443/x` are the same one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordingOrigins(Vec<Origin>);

impl RecordingOrigins {
    pub fn parse(list: &str) -> Result<RecordingOrigins, String> {
        let origins = list
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty())
            .map(|entry| {
                Url::parse(entry)
                    .ok()
                    .filter(|url| {
                        matches!(url.scheme(), "http" | "https")
                            && url.host_str().is_some_and(|host| !host.is_empty())
                            && url.username().is_empty()
                            && url.password().is_none()
                            && url.path() == "/"
                            && url.query().is_none()
                            && url.fragment().is_none()
                    })
                    .map(|url| url.origin())
                    .ok_or_else(|| format!("names {entry:?}, not an http(s) origin"))
            })
            .collect::<Result<Vec<_>, _>>()?;
        if origins.is_empty() {
            return Err("names no origin".to_owned());
        }
        Ok(RecordingOrigins(origins))
    }

    /// Whether `url`'s origin is listed.
    pub fn allows(&self, url: &Url) -> bool {
        let origin = url.origin();
        self.0.contains(&origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    fn settings(vars: &[(&str, &str)]) -> Result<RecordingSettings, ConfigError> {
        RecordingSettings::from_env(&Env::new(&lookup(vars)))
    }

    fn url(text: &str) -> Url {
        Url::parse(text).unwrap()
    }

    #[test]
    fn the_providers_storage_and_two_gibibytes_unless_set() {
        let default = settings(&[]).unwrap();
        assert_eq!(default, RecordingSettings::default());
        let origins = &default.origins;
        assert!(origins.allows(&url("https://storage.vapi.ai/c-mono.wav")));
        assert!(!origins.allows(&url("http://storage.vapi.ai/c.wav")));
        assert!(!origins.allows(&url("https://storage.vapi.ai.evil.example/c.wav")));
        assert_eq!(default.max_total_bytes, 2048 * 1024 * 1024);
        let set = settings(&[
            (
                ORIGINS,
                " http://127.0.0.1:8081 , https://bucket.example:8443/ ",
            ),
            (MAX_MB, "10"),
        ])
        .unwrap();
        assert!(set.origins.allows(&url("http://127.0.0.1:8081/r/1.wav")));
        assert!(set.origins.allows(&url("https://bucket.example:8443/a")));
        assert!(!set.origins.allows(&url("http://127.0.0.1:8082/r/1.wav")));
        assert!(!set.origins.allows(&url("https://storage.vapi.ai/a")));
        assert_eq!(set.max_total_bytes, 10 * MB);
        let default_port = RecordingOrigins::parse("https://h.example:443").unwrap();
        assert!(default_port.allows(&url("https://h.example/x")));
    }

    #[test]
    fn a_bad_entry_or_total_is_one_line() {
        assert_eq!(
            settings(&[(ORIGINS, "https://storage.vapi.ai,storage.example.com")])
                .unwrap_err()
                .to_string(),
            "RECORDING_ORIGINS=\"https://storage.vapi.ai,storage.example.com\" names \"storage.example.com\", not an http(s) origin; expected a comma-separated list of origins, scheme://host[:port], such as https://storage.vapi.ai"
        );
        for bad in [
            "ftp://h.example",
            "https://h.example/recordings",
            "https://user@h.example",
            "https://h.example/?a=1",
            " , ",
        ] {
            assert!(RecordingOrigins::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            settings(&[(MAX_MB, "0")]).unwrap_err().to_string(),
            "RECORDINGS_MAX_MB=\"0\" is out of range; expected a whole number of MB (MiB) from 1 to 1048576 (default 2048)"
        );
        assert!(settings(&[(MAX_MB, "2 GB")]).is_err());
    }
}
