//! Settings read from the environment once, with the defaults the README documents (its Configuration table).

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;

use crate::store::{DatabaseUrl, UnsupportedDatabaseUrl};
use alerts::AlertSettings;
use email::EmailSettings;
use env::Env;
pub use error::ConfigError;
use inbox::InboxSettings;
use leads::LeadsConfig;
use rate_limit::RateLimit;
use recordings::RecordingSettings;
use security_headers::SecurityHeaders;
use site::SiteSettings;
use spam::SpamSettings;
use trusted_proxies::{TrustedProxies, DEFAULT_TRUSTED_PROXIES};
use voice::VoiceSettings;

pub mod alerts;
pub mod assistant_push;
pub mod email;
pub mod env;
pub mod error;
pub mod inbox;
pub mod leads;
pub mod rate_limit;
pub mod recordings;
pub mod security_headers;
pub mod site;
pub mod spam;
pub mod trusted_proxies;
pub mod voice;

pub const DEFAULT_BIND: &str = "127.0.0.1";
pub const DEFAULT_PORT: u16 = 8080;
pub const DEFAULT_DATABASE_URL: &str = "sqlite://./data/quotes.db";
pub const DEFAULT_STATIC_DIR: &str = "frontend/dist";
/// The notice before a call comes from the content now, in each language, and says whether the
/// call is recorded as `content/assistant.yaml` has it.
const VOICE_CONSENT_TEXT_REPLACEMENT: &str = "voiceControls.consentText (and consentTextRecorded, for recorded calls) in content/site.yaml and content/es/site.yaml, then rebuild the front end";

/// Every secret in it is a `SecretString`, so its `Debug` output may go to a log.
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
    /// `FORM_MIN_FILL_SECONDS`.
    pub spam: SpamSettings,
    /// The site's public address and the time zone messages give times in.
    pub site: SiteSettings,
    /// When failing deliveries alert the broker.
    pub alerts: AlertSettings,
    /// Where the calls' recordings are copied from, and how much of them is kept.
    pub recordings: RecordingSettings,
}

impl Config {
    pub fn from_env() -> Result<Config, ConfigError> {
        Config::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(get: impl Fn(&str) -> Option<String>) -> Result<Config, ConfigError> {
        let env = Env::new(&get);
        let ip: IpAddr = env
            .parse("BIND", "an IP address such as 127.0.0.1 or ::")?
            .unwrap_or_else(|| DEFAULT_BIND.parse().expect("the default is an address"));
        let port = env
            .parse("PORT", "a number from 0 to 65535")?
            .unwrap_or(DEFAULT_PORT);
        let database = DatabaseUrl::parse(
            &env.value("DATABASE_URL")
                .unwrap_or_else(|| DEFAULT_DATABASE_URL.into()),
        )
        .map_err(|UnsupportedDatabaseUrl(url)| {
            ConfigError::new(
                "DATABASE_URL",
                url,
                "is not supported",
                "sqlite://PATH, file:PATH or postgres://...",
            )
        })?;
        let static_dir: PathBuf = env
            .value("STATIC_DIR")
            .unwrap_or_else(|| DEFAULT_STATIC_DIR.into())
            .into();
        let addr = SocketAddr::new(ip, port);
        let rate_limit = RateLimit::from_env(&env)?;
        env.retired(
            "TRUST_PROXY",
            format!("TRUSTED_PROXIES: the proxies' addresses and CIDR ranges (default {DEFAULT_TRUSTED_PROXIES})"),
        )?;
        env.retired("VOICE_CONSENT_TEXT", VOICE_CONSENT_TEXT_REPLACEMENT)?;
        let trusted_proxies = TrustedProxies::from_env(&env)?;
        let voice = VoiceSettings::from_env(&env)?;
        let security_headers = SecurityHeaders::from_env(&env, voice.as_ref())?;
        let leads = LeadsConfig::from_env(&env)?;
        let email = EmailSettings::from_env(&env)?;
        let inbox = InboxSettings::from_env(&env)?;
        let spam = SpamSettings::from_env(&env)?;
        let site = SiteSettings::from_env(&env, &static_dir, addr)?;
        let alerts = AlertSettings::from_env(&env)?;
        let recordings = RecordingSettings::from_env(&env)?;
        Ok(Config {
            addr,
            database,
            static_dir,
            rate_limit,
            trusted_proxies,
            security_headers,
            voice,
            leads,
            email,
            inbox,
            spam,
            site,
            alerts,
            recordings,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::env::lookup;
    use super::*;

    fn config(vars: &[(&str, &str)]) -> Result<Config, ConfigError> {
        Config::from_lookup(lookup(vars))
    }

    fn refused(vars: &[(&str, &str)]) -> String {
        config(vars).unwrap_err().to_string()
    }

    #[test]
    fn defaults_and_blank_is_the_default() {
        let blank = [
            ("BIND", " "),
            ("PORT", ""),
            ("DATABASE_URL", ""),
            ("STATIC_DIR", " "),
            ("TRUST_PROXY", ""),
            ("VOICE_CONSENT_TEXT", " "),
        ];
        for vars in [&[][..], &blank] {
            let c = config(vars).unwrap();
            assert_eq!(c.addr, "127.0.0.1:8080".parse().unwrap());
            assert_eq!(c.database, DatabaseUrl::Sqlite("./data/quotes.db".into()));
            assert_eq!(c.static_dir, PathBuf::from("frontend/dist"));
            assert_eq!(c.voice, None);
        }
    }

    #[test]
    fn overrides_and_errors() {
        let c = config(&[
            ("BIND", "0.0.0.0"),
            ("PORT", " 0 "),
            ("DATABASE_URL", "sqlite:/tmp/q.db"),
        ])
        .unwrap();
        assert_eq!(c.addr, "0.0.0.0:0".parse().unwrap());
        assert_eq!(c.database, DatabaseUrl::Sqlite("/tmp/q.db".into()));
        for (vars, message) in [
            (
                &[("PORT", "http")][..],
                "PORT=\"http\" cannot be read; expected a number from 0 to 65535",
            ),
            (
                &[("BIND", "localhost:1")],
                "BIND=\"localhost:1\" cannot be read; expected an IP address such as 127.0.0.1 or ::",
            ),
            (
                &[("DATABASE_URL", "mysql://x")],
                "DATABASE_URL=\"mysql://x\" is not supported; expected sqlite://PATH, file:PATH or postgres://...",
            ),
            (
                &[("TRUSTED_PROXIES", "10.0.0.0/8,lb")],
                "TRUSTED_PROXIES=\"10.0.0.0/8,lb\" names \"lb\", neither an IP address nor a CIDR range; expected a comma-separated list of addresses and CIDR ranges such as 127.0.0.0/8,::1,10.0.0.0/8",
            ),
            (
                &[("TRUST_PROXY", "1")],
                "TRUST_PROXY=\"1\" is no longer read; expected TRUSTED_PROXIES: the proxies' addresses and CIDR ranges (default 127.0.0.0/8,::1)",
            ),
            (
                &[("VOICE_CONSENT_TEXT", "Te atiende una IA.")],
                "VOICE_CONSENT_TEXT=\"Te atiende una IA.\" is no longer read; expected voiceControls.consentText (and consentTextRecorded, for recorded calls) in content/site.yaml and content/es/site.yaml, then rebuild the front end",
            ),
        ] {
            assert_eq!(refused(vars), message);
        }
        assert!(refused(&[("VAPI_PUBLIC_KEY", "pk")]).starts_with("VAPI_ASSISTANT_ID=\"\""));
        assert_eq!(
            DatabaseUrl::parse("postgres://u@h:5432/db").unwrap(),
            DatabaseUrl::Postgres("postgres://u@h:5432/db".into())
        );
        assert_eq!(
            DatabaseUrl::parse("file:q.db?mode=ro").unwrap(),
            DatabaseUrl::Sqlite("file:q.db?mode=ro".into())
        );
    }

    #[test]
    fn debug_output_holds_no_secret() {
        let hash = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$zH9ZbKz0bNm1ZbZnq0tUqg4L0H2xkz7Y3iQ5mUv2s0E";
        let secrets = [
            ("ADMIN_TOKEN", "admin-token-0123456789abcdef0123456789"),
            (
                "VAPI_WEBHOOK_SECRET",
                "vapi-webhook-secret-0123456789abcdef",
            ),
            ("LEAD_WEBHOOK_SECRET", "lead-webhook-secret-42"),
            ("ADMIN_PASSWORD_HASH", hash),
        ];
        let mut vars = secrets.to_vec();
        vars.extend([
            ("LEAD_WEBHOOK_URL", "https://crm.example.com/leads"),
            (
                "SMTP_URL",
                "smtp://mailer:smtp-password-42@relay.example.com:587?tls=required",
            ),
            ("LEAD_EMAIL_TO", "broker@example.com"),
            ("LEAD_EMAIL_FROM", "quotes@example.com"),
            (
                "DATABASE_URL",
                "postgres://quotes:database-password-42@db.internal/quotes",
            ),
        ]);
        let shown = format!("{:?}", config(&vars).unwrap());
        for secret in secrets.iter().map(|(_, value)| *value).chain([
            "smtp-password-42",
            "zH9ZbKz0",
            "database-password-42",
        ]) {
            assert!(!shown.contains(secret), "{secret} in {shown}");
        }
        assert!(shown.contains("relay.example.com"), "{shown}");
    }
}
