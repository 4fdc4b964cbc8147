//! Settings for getting leads to the broker: the voice events' secret, the admin API, forwarding
//! (the lead post), and how every delivery channel retries. Each part is off until its variable is set.

use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use url::Url;
use validator::{Validate, ValidationError};

use super::env::Env;
use super::error::{check, ConfigError};
use super::inbox::DAY;

pub const DEFAULT_GIVE_UP_DAYS: u32 = 3;
/// The shortest `ADMIN_TOKEN` or `VAPI_WEBHOOK_SECRET` accepted: 32 characters
/// (`openssl rand -hex 32` makes 64) are beyond guessing, even at the sign-in failure limit's
/// pace.
pub const MIN_SECRET_CHARS: usize = 32;
/// The first retry waits about this long, each later one twice as long, up to the longest.
const RETRY_FIRST: Duration = Duration::from_secs(2);
const RETRY_LONGEST: Duration = Duration::from_secs(30 * 60);

#[derive(Clone, Debug, Default)]
pub struct LeadsConfig {
    /// `VAPI_WEBHOOK_SECRET`: the `X-Vapi-Secret` the voice provider sends.
    pub voice_events_secret: Option<SecretString>,
    /// `ADMIN_TOKEN`: the bearer token of `GET /api/admin/quote-requests`.
    pub admin_token: Option<SecretString>,
    /// `LEAD_WEBHOOK_URL` and `LEAD_WEBHOOK_SECRET`.
    pub forwarding: Option<ForwardingConfig>,
    /// How every delivery channel (lead post, e-mail) retries and when it gives up.
    pub retry: RetryPolicy,
}

#[derive(Clone, Debug)]
pub struct ForwardingConfig {
    pub url: Url,
    /// `LEAD_WEBHOOK_SECRET`: the HMAC-SHA256 key of the signature header.
    pub secret: Option<SecretString>,
}

impl ForwardingConfig {
    pub fn new(url: Url, secret: Option<SecretString>) -> ForwardingConfig {
        ForwardingConfig { url, secret }
    }
}

/// Retries with backoff, shared by every delivery channel.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Validate)]
pub struct RetryPolicy {
    /// `LEAD_GIVE_UP_DAYS`: how long after its creation a lead is retried.
    #[validate(custom(
        function = "at_least_a_day",
        message = "a whole number of days, 1 or more"
    ))]
    pub give_up_after: Duration,
    /// The first retry waits about this long; each later one twice as long, up to `longest`.
    pub first: Duration,
    pub longest: Duration,
}

impl Default for RetryPolicy {
    fn default() -> RetryPolicy {
        RetryPolicy {
            give_up_after: DAY * DEFAULT_GIVE_UP_DAYS,
            first: RETRY_FIRST,
            longest: RETRY_LONGEST,
        }
    }
}

/// The setting now covers e-mail as well as the lead post, hence its new name.
const GIVE_UP_DAYS: &str = "LEAD_GIVE_UP_DAYS";
const RENAMED_GIVE_UP_DAYS: &str = "LEAD_WEBHOOK_GIVE_UP_DAYS";

/// Which field holds which variable, for `ConfigError`.
const VARIABLES: &[(&str, &str)] = &[("give_up_after", GIVE_UP_DAYS)];

fn at_least_a_day(period: &Duration) -> Result<(), ValidationError> {
    (*period >= DAY)
        .then_some(())
        .ok_or_else(|| ValidationError::new("is less than a day"))
}

impl RetryPolicy {
    fn from_env(env: &Env) -> Result<RetryPolicy, ConfigError> {
        env.retired(
            RENAMED_GIVE_UP_DAYS,
            format!("{GIVE_UP_DAYS} (the same number of days, now for webhook and e-mail alike)"),
        )?;
        let mut retry = RetryPolicy::default();
        if let Some(n) = env.parse::<u32>(GIVE_UP_DAYS, "a whole number of days")? {
            retry.give_up_after = DAY * n;
        }
        check(&retry, VARIABLES, |variable| env.value(variable))?;
        Ok(retry)
    }
}

/// The secret in `variable`, refused when shorter than `MIN_SECRET_CHARS`.
fn long_secret(env: &Env, variable: &'static str) -> Result<Option<SecretString>, ConfigError> {
    let secret = env.secret(variable);
    if let Some(length) = secret
        .as_ref()
        .map(|secret| secret.expose_secret().chars().count())
        .filter(|length| *length < MIN_SECRET_CHARS)
    {
        // The secret itself is never printed: it would land in the journal.
        return Err(ConfigError::hidden(
            variable,
            format!("has {length} characters"),
            format!("at least {MIN_SECRET_CHARS} characters (make one with: openssl rand -hex 32)"),
        ));
    }
    Ok(secret)
}

impl LeadsConfig {
    pub fn from_env(env: &Env) -> Result<LeadsConfig, ConfigError> {
        let forwarding = env
            .http_url(
                "LEAD_WEBHOOK_URL",
                "an http(s) URL such as https://crm.example.com/leads",
            )?
            .map(|url| ForwardingConfig::new(url, env.secret("LEAD_WEBHOOK_SECRET")));
        let admin_token = long_secret(env, "ADMIN_TOKEN")?;
        let voice_events_secret = long_secret(env, "VAPI_WEBHOOK_SECRET")?;
        Ok(LeadsConfig {
            voice_events_secret,
            admin_token,
            forwarding,
            retry: RetryPolicy::from_env(env)?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn leads(vars: &[(&str, &str)]) -> Result<LeadsConfig, ConfigError> {
        LeadsConfig::from_env(&Env::new(&crate::settings::env::lookup(vars)))
    }

    fn off(leads: LeadsConfig) -> bool {
        leads.voice_events_secret.is_none()
            && leads.admin_token.is_none()
            && leads.forwarding.is_none()
            && leads.retry == RetryPolicy::default()
    }

    #[test]
    fn everything_is_off_by_default_and_empty_means_off() {
        assert!(off(leads(&[]).unwrap()));
        assert!(off(leads(&[
            ("ADMIN_TOKEN", ""),
            ("LEAD_WEBHOOK_URL", " "),
            ("VAPI_WEBHOOK_SECRET", "  ")
        ])
        .unwrap()));
    }

    #[test]
    fn the_admin_token_and_webhook_secret_have_at_least_32_characters_and_are_never_printed() {
        let long = "0123456789abcdef0123456789abcdef";
        let admin_token = leads(&[("ADMIN_TOKEN", &format!(" {long}\n"))]).unwrap();
        assert_eq!(admin_token.admin_token.unwrap().expose_secret(), long);
        let config = leads(&[("VAPI_WEBHOOK_SECRET", long)]).unwrap();
        assert_eq!(config.voice_events_secret.unwrap().expose_secret(), long);
        for (variable, short) in [
            ("ADMIN_TOKEN", &long[1..]),
            ("VAPI_WEBHOOK_SECRET", "abc"),
            ("VAPI_WEBHOOK_SECRET", &long[1..]),
        ] {
            let error = leads(&[(variable, short)]).unwrap_err().to_string();
            assert_eq!(
                error,
                format!(
                    "{variable}=\"…\" has {} characters; expected at least 32 characters (make one with: openssl rand -hex 32)",
                    short.len()
                )
            );
            assert!(!error.contains(short));
        }
    }

    #[test]
    fn forwarding_settings() {
        let c = leads(&[
            ("LEAD_WEBHOOK_URL", "https://crm.example.com/leads"),
            ("LEAD_WEBHOOK_SECRET", "k"),
            ("LEAD_GIVE_UP_DAYS", "7"),
        ])
        .unwrap();
        assert_eq!(c.retry.give_up_after, Duration::from_secs(7 * 86_400));
        let f = c.forwarding.unwrap();
        assert_eq!(f.url.as_str(), "https://crm.example.com/leads");
        assert_eq!(f.secret.unwrap().expose_secret(), "k");
        let message = |vars: &[(&str, &str)]| leads(vars).unwrap_err().to_string();
        assert_eq!(
            message(&[("LEAD_WEBHOOK_URL", "ftp://x")]),
            "LEAD_WEBHOOK_URL=\"ftp://x\" has no http(s) host; expected an http(s) URL such as https://crm.example.com/leads"
        );
        assert!(message(&[("LEAD_WEBHOOK_URL", "not a url")])
            .starts_with("LEAD_WEBHOOK_URL=\"not a url\" has no http(s) host"));
        assert_eq!(
            message(&[("LEAD_GIVE_UP_DAYS", "0")]),
            "LEAD_GIVE_UP_DAYS=\"0\" is less than a day; expected a whole number of days, 1 or more"
        );
        assert_eq!(
            message(&[("LEAD_GIVE_UP_DAYS", "soon")]),
            "LEAD_GIVE_UP_DAYS=\"soon\" cannot be read; expected a whole number of days"
        );
        assert_eq!(
            message(&[("LEAD_WEBHOOK_GIVE_UP_DAYS", "7")]),
            "LEAD_WEBHOOK_GIVE_UP_DAYS=\"7\" is no longer read; expected LEAD_GIVE_UP_DAYS (the same number of days, now for webhook and e-mail alike)"
        );
    }
}
