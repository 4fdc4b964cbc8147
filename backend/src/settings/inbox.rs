//! The broker's inbox: the password that signs in to `/admin`, how long leads are kept, and how
//! long a signed-in session lasts (unused, and at most after sign-in).

use std::time::Duration;

use argon2::password_hash::PasswordHash;
use secrecy::{ExposeSecret, SecretString};
use time::OffsetDateTime;

use super::env::Env;
use super::error::ConfigError;
use crate::store::SessionCutoffs;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);
/// A session ends after this long without a request.
pub const SESSION_IDLE: Duration = Duration::from_secs(12 * 60 * 60);

/// When a session has ended at `now`: after `SESSION_IDLE` unused, or `lifetime` after sign-in.
pub fn session_cutoffs(now: OffsetDateTime, lifetime: Duration) -> SessionCutoffs {
    SessionCutoffs {
        idle_since: now - SESSION_IDLE,
        signed_in_since: now - lifetime,
    }
}

/// A session ends this long after sign-in, however much it is used.
pub const DEFAULT_SESSION_DAYS: u32 = 7;

#[derive(Clone, Debug)]
pub struct InboxSettings {
    /// `ADMIN_PASSWORD_HASH`: an Argon2id PHC string (`backend hash-password` makes one); the
    /// sign-in and the `/admin` page are off without it.
    pub password_hash: Option<SecretString>,
    /// `ADMIN_SESSION_DAYS`: how long after sign-in a session ends, however much it is used.
    pub session_lifetime: Duration,
    /// `LEAD_RETENTION_DAYS`: leads older than this are deleted; `None` keeps them forever.
    pub retention: Option<Duration>,
}

impl Default for InboxSettings {
    fn default() -> InboxSettings {
        InboxSettings {
            password_hash: None,
            session_lifetime: DAY * DEFAULT_SESSION_DAYS,
            retention: None,
        }
    }
}

/// A whole number of days, 1 or more, from `variable`.
fn days(
    env: &Env,
    variable: &'static str,
    expected: &str,
) -> Result<Option<Duration>, ConfigError> {
    env.parse::<u32>(variable, expected)?
        .map(|days| {
            (days >= 1).then(|| DAY * days).ok_or_else(|| {
                ConfigError::new(variable, days.to_string(), "cannot be read", expected)
            })
        })
        .transpose()
}

impl InboxSettings {
    pub fn from_env(env: &Env) -> Result<InboxSettings, ConfigError> {
        let password_hash = env
            .secret("ADMIN_PASSWORD_HASH")
            .map(|hash| {
                let argon2id = PasswordHash::new(hash.expose_secret())
                    .is_ok_and(|hash| hash.algorithm.as_str() == "argon2id");
                // The value itself stays out of the message: it may be a password pasted where
                // its hash belongs.
                argon2id.then_some(hash).ok_or_else(|| {
                    ConfigError::hidden(
                        "ADMIN_PASSWORD_HASH",
                        "is not an Argon2id PHC string",
                        "the line `backend hash-password` prints ($argon2id$v=19$...)",
                    )
                })
            })
            .transpose()?;
        let retention = days(
            env,
            "LEAD_RETENTION_DAYS",
            "a whole number of days, 1 or more (unset keeps leads forever)",
        )?;
        let session_lifetime = days(
            env,
            "ADMIN_SESSION_DAYS",
            "a whole number of days, 1 or more",
        )?
        .unwrap_or(DAY * DEFAULT_SESSION_DAYS);
        Ok(InboxSettings {
            password_hash,
            session_lifetime,
            retention,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$zH9ZbKz0bNm1ZbZnq0tUqg4L0H2xkz7Y3iQ5mUv2s0E";

    fn inbox(vars: &[(&str, &str)]) -> Result<InboxSettings, ConfigError> {
        InboxSettings::from_env(&Env::new(&crate::settings::env::lookup(vars)))
    }

    #[test]
    fn off_by_default() {
        for vars in [
            &[][..],
            &[("ADMIN_PASSWORD_HASH", " "), ("LEAD_RETENTION_DAYS", "")],
        ] {
            let settings = inbox(vars).unwrap();
            assert!(settings.password_hash.is_none() && settings.retention.is_none());
            assert_eq!(settings.session_lifetime, Duration::from_secs(7 * 86_400));
        }
    }

    #[test]
    fn reads_the_hash_and_the_retention() {
        let s = inbox(&[("ADMIN_PASSWORD_HASH", HASH), ("LEAD_RETENTION_DAYS", "30")]).unwrap();
        assert_eq!(s.password_hash.unwrap().expose_secret(), HASH);
        assert_eq!(s.retention, Some(Duration::from_secs(30 * 86_400)));
        let s = inbox(&[("ADMIN_SESSION_DAYS", "1")]).unwrap();
        assert_eq!(s.session_lifetime, Duration::from_secs(86_400));
    }

    #[test]
    fn bad_values_are_one_line_that_never_repeats_a_password() {
        let message = |vars: &[(&str, &str)]| inbox(vars).unwrap_err().to_string();
        let plain = message(&[("ADMIN_PASSWORD_HASH", "correct horse battery")]);
        assert!(!plain.contains("horse"), "{plain}");
        assert!(plain.starts_with("ADMIN_PASSWORD_HASH=\"…\" is not an Argon2id PHC string"));
        let argon2i = HASH.replace("argon2id", "argon2i");
        assert!(inbox(&[("ADMIN_PASSWORD_HASH", &argon2i)]).is_err());
        assert_eq!(
            message(&[("LEAD_RETENTION_DAYS", "0")]),
            "LEAD_RETENTION_DAYS=\"0\" cannot be read; expected a whole number of days, 1 or more (unset keeps leads forever)"
        );
        assert!(inbox(&[("LEAD_RETENTION_DAYS", "a year")]).is_err());
        assert_eq!(
            message(&[("ADMIN_SESSION_DAYS", "0")]),
            "ADMIN_SESSION_DAYS=\"0\" cannot be read; expected a whole number of days, 1 or more"
        );
    }
}
