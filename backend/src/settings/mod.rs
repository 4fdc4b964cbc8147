//! Settings read from the environment once, with the defaults the README documents (its Configuration table).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use thiserror::Error;

use crate::store::{DatabaseUrl, UnsupportedDatabaseUrl};
use email::EmailSettings;
use inbox::InboxSettings;
use invalid::InvalidSetting;
use leads::{LeadsConfig, LeadsError};
use rate_limit::{RateLimit, RateLimitError};
use security_headers::SecurityHeaders;
use trusted_proxies::{TrustedProxies, DEFAULT_TRUSTED_PROXIES};
use voice::{VoiceConfigError, VoiceSettings};

pub mod email;
pub mod inbox;
pub mod invalid;
pub mod leads;
pub mod rate_limit;
pub mod secret;
pub mod security_headers;
pub mod trusted_proxies;
pub mod voice;

pub const DEFAULT_BIND: &str = "127.0.0.1";
pub const DEFAULT_PORT: u16 = 8080;
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/quotes.db";
pub const DEFAULT_STATIC_DIR: &str = "frontend/dist";

#[derive(Clone, Debug)]
pub struct Config {
    pub addr: SocketAddr,
    pub database: DatabaseUrl,
    pub static_dir: PathBuf,
    /// `None` when `RATE_LIMIT_PER_MINUTE=0`.
    pub rate_limit: Option<RateLimit>,
    /// Peers whose `X-Forwarded-For`/`Forwarded` entries are believed (`TRUSTED_PROXIES`).
    pub trusted_proxies: TrustedProxies,
    pub security_headers: SecurityHeaders,
    /// The voice assistant's settings; `None` when `VAPI_PUBLIC_KEY` is not set.
    pub voice: Option<VoiceSettings>,
    pub leads: LeadsConfig,
    /// An e-mail per lead; `None` when `SMTP_URL` is not set.
    pub email: Option<EmailSettings>,
    /// The `/admin` inbox: its password and the lead retention.
    pub inbox: InboxSettings,
}

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("BIND must be an IP address, got {0:?}")]
    Bind(String),
    #[error("PORT must be a number from 0 to 65535, got {0:?}")]
    Port(String),
    #[error(transparent)]
    Database(#[from] UnsupportedDatabaseUrl),
    #[error("TRUSTED_PROXIES: {0}; expected a comma-separated list of addresses and CIDR ranges such as 127.0.0.0/8,::1,10.0.0.0/8")]
    TrustedProxies(String),
    #[error("TRUST_PROXY is no longer read: list the proxies in TRUSTED_PROXIES (addresses and CIDR ranges, default {DEFAULT_TRUSTED_PROXIES})")]
    TrustProxyReplaced,
    #[error(transparent)]
    RateLimit(#[from] RateLimitError),
    #[error(transparent)]
    Voice(#[from] VoiceConfigError),
    #[error(transparent)]
    Invalid(#[from] InvalidSetting),
    #[error(transparent)]
    Leads(#[from] LeadsError),
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let bind = get("BIND").unwrap_or_else(|| DEFAULT_BIND.into());
        let ip: IpAddr = bind.parse().map_err(|_| ConfigError::Bind(bind.clone()))?;
        let port = match get("PORT") {
            Some(p) => p.parse().map_err(|_| ConfigError::Port(p))?,
            None => DEFAULT_PORT,
        };
        let database = DatabaseUrl::parse(
            &get("DATABASE_URL").unwrap_or_else(|| DEFAULT_DATABASE_URL.into()),
        )?;
        let static_dir = get("STATIC_DIR")
            .unwrap_or_else(|| DEFAULT_STATIC_DIR.into())
            .into();
        let rate_limit = RateLimit::from_lookup(&get)?;
        if get("TRUST_PROXY").is_some() {
            return Err(ConfigError::TrustProxyReplaced);
        }
        let trusted_proxies = TrustedProxies::parse(
            &get("TRUSTED_PROXIES").unwrap_or_else(|| DEFAULT_TRUSTED_PROXIES.into()),
        )
        .map_err(ConfigError::TrustedProxies)?;
        let voice = VoiceSettings::from_lookup(&get)?;
        let security_headers = SecurityHeaders::from_lookup(&get, voice.as_ref())?;
        let leads = LeadsConfig::from_lookup(&get)?;
        let email = EmailSettings::from_lookup(&get)?;
        let inbox = InboxSettings::from_lookup(&get)?;
        Ok(Config {
            addr: SocketAddr::new(ip, port),
            database,
            static_dir,
            rate_limit,
            trusted_proxies,
            security_headers,
            voice,
            leads,
            email,
            inbox,
        })
    }
}

/// The environment a test describes, as the lookup `from_lookup` reads.
#[cfg(test)]
pub(crate) fn lookup<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
    move |k| {
        vars.iter()
            .find(|(key, _)| *key == k)
            .map(|(_, v)| v.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::from_lookup(lookup(vars))
    }

    #[test]
    fn defaults() {
        let c = config(&[]).unwrap();
        assert_eq!(c.addr, "127.0.0.1:8080".parse().unwrap());
        assert_eq!(c.database, DatabaseUrl::Sqlite("./data/quotes.db".into()));
        assert_eq!(c.static_dir, PathBuf::from("frontend/dist"));
        assert_eq!(c.voice, None);
    }

    #[test]
    fn overrides_and_errors() {
        let c = config(&[
            ("BIND", "0.0.0.0"),
            ("PORT", "0"),
            ("DATABASE_URL", "sqlite:/tmp/q.db"),
        ])
        .unwrap();
        assert_eq!(c.addr, "0.0.0.0:0".parse().unwrap());
        assert_eq!(c.database, DatabaseUrl::Sqlite("/tmp/q.db".into()));
        assert!(matches!(
            config(&[("PORT", "http")]),
            Err(ConfigError::Port(_))
        ));
        assert!(matches!(
            config(&[("BIND", "localhost:1")]),
            Err(ConfigError::Bind(_))
        ));
        assert!(matches!(
            config(&[("DATABASE_URL", "mysql://x")]),
            Err(ConfigError::Database(_))
        ));
        assert!(matches!(
            config(&[("VAPI_PUBLIC_KEY", "pk")]),
            Err(ConfigError::Voice(_))
        ));
        let proxies = config(&[("TRUSTED_PROXIES", "10.0.0.0/8,lb")])
            .unwrap_err()
            .to_string();
        assert!(
            proxies.starts_with("TRUSTED_PROXIES: \"lb\" is neither")
                && proxies.contains("expected"),
            "{proxies}"
        );
        assert!(config(&[("TRUST_PROXY", "1")])
            .unwrap_err()
            .to_string()
            .contains("TRUSTED_PROXIES"));
        assert_eq!(
            DatabaseUrl::parse("postgres://u@h:5432/db").unwrap(),
            DatabaseUrl::Postgres("postgres://u@h:5432/db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("file:q.db?mode=ro").unwrap(),
            DatabaseUrl::Sqlite("file:q.db?mode=ro".into())
        );
    }
}
