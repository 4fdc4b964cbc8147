//! The broker's inbox: the password that signs in to `/admin`, how long leads and conversations
//! are kept, and how long a signed-in session lasts (unused, and at most after sign-in).

use std::time::Duration;

use argon2::password_hash::PasswordHash;
use secrecy::{ExposeSecret, SecretString};
use time::OffsetDateTime;
use validator::Validate;

use super::env::Env;
use super::error::{check, ConfigError};
use crate::store::SessionCutoffs;

pub(super) const DAY: Duration = Duration::from_secs(24 * 60 * 60);
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

const CONVERSATION_DAYS: &str = "CONVERSATION_RETENTION_DAYS";
/// Ten years with their leap days: Medicare's marketing rules have a broker keep the record of a
/// sales conversation that long.
pub const DEFAULT_CONVERSATION_DAYS: u32 = 3653;
/// Six years with their leap days: shorter, and a recorded marketing or sales call is gone
/// before the records a Medicare broker keeps of it may be asked for.
const SHORTEST_RULED_CONVERSATION_DAYS: u32 = 2192;
/// A hundred years: a longer period is a typo.
const MAX_CONVERSATION_DAYS: u32 = 36_525;
/// The form `CONVERSATION_RETENTION_DAYS` takes, for its start-up error (the same words as the
/// range rule's message below).
const CONVERSATION_DAYS_FORM: &str =
    "a whole number of days from 1 to 36525 (default 3653, ten years)";

/// `CONVERSATION_RETENTION_DAYS`, checked against its bounds.
#[derive(Validate)]
struct ConversationDays {
    #[validate(range(
        min = 1,
        max = MAX_CONVERSATION_DAYS,
        message = "a whole number of days from 1 to 36525 (default 3653, ten years)"
    ))]
    days: u32,
}

impl ConversationDays {
    fn from_env(env: &Env) -> Result<Duration, ConfigError> {
        let days = env
            .parse(CONVERSATION_DAYS, CONVERSATION_DAYS_FORM)?
            .unwrap_or(DEFAULT_CONVERSATION_DAYS);
        check(
            &ConversationDays { days },
            &[("days", CONVERSATION_DAYS)],
            |variable| env.value(variable),
        )?;
        Ok(DAY * days)
    }
}

#[derive(Clone, Debug)]
pub struct InboxSettings {
    /// `ADMIN_PASSWORD_HASH`: an Argon2id PHC string (`backend hash-password` makes one); the
    /// sign-in and the `/admin` page are off without it.
    pub password_hash: Option<SecretString>,
    /// `ADMIN_SESSION_DAYS`: how long after sign-in a session ends, however much it is used.
    pub session_lifetime: Duration,
    /// `LEAD_RETENTION_DAYS`: leads older than this are deleted; `None` keeps them forever.
    pub retention: Option<Duration>,
    /// `CONVERSATION_RETENTION_DAYS`: how long the record of a conversation with the assistant
    /// (a call or a chat) is kept, even after its lead is deleted; ten years by default.
    pub conversation_retention: Duration,
}

impl InboxSettings {
    /// The warning to log at start when conversations are kept for less than six years; `None`
    /// when they are kept at least that long.
    pub fn short_conversation_retention(&self) -> Option<String> {
        let days = self.conversation_retention.as_secs() / DAY.as_secs();
        (days < u64::from(SHORTEST_RULED_CONVERSATION_DAYS)).then(|| {
            format!(
                "{CONVERSATION_DAYS}={days} deletes conversations and their recordings before \
                 six years ({SHORTEST_RULED_CONVERSATION_DAYS} days): CMS asks a broker to record \
                 Medicare marketing, sales and enrollment calls and keep them with its records \
                 (42 CFR 422.2274(g)(2)(ii), 423.2274(g)(2)(ii)); put a conversation on legal \
                 hold in the inbox to keep it, or raise {CONVERSATION_DAYS} (default \
                 {DEFAULT_CONVERSATION_DAYS})"
            )
        })
    }
}

impl Default for InboxSettings {
    fn default() -> InboxSettings {
        InboxSettings {
            password_hash: None,
            session_lifetime: DAY * DEFAULT_SESSION_DAYS,
            retention: None,
            conversation_retention: DAY * DEFAULT_CONVERSATION_DAYS,
        }
    }
}

/// A whole number of days, 1 or more, from `variable`.
fn days(
    env: &Env,
    variable: &'static str,
    expected: &str,
) -> Result<Option<Duration>, ConfigError> {
    let days = env.parse_within(variable, expected, "cannot be read", |days: &u32| {
        *days >= 1
    })?;
    Ok(days.map(|days| DAY * days))
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
            conversation_retention: ConversationDays::from_env(env)?,
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

    fn conversation_days(days: &str) -> Result<InboxSettings, ConfigError> {
        inbox(&[("CONVERSATION_RETENTION_DAYS", days)])
    }

    #[test]
    fn off_by_default() {
        let blank = [
            ("ADMIN_PASSWORD_HASH", " "),
            ("LEAD_RETENTION_DAYS", ""),
            ("CONVERSATION_RETENTION_DAYS", " "),
        ];
        for vars in [&[][..], &blank] {
            let settings = inbox(vars).unwrap();
            assert!(settings.password_hash.is_none() && settings.retention.is_none());
            assert_eq!(settings.session_lifetime, Duration::from_secs(7 * 86_400));
            let kept = settings.conversation_retention;
            assert_eq!(kept, Duration::from_secs(3653 * 86_400));
            assert_eq!(kept, InboxSettings::default().conversation_retention);
        }
    }

    #[test]
    fn under_six_years_of_conversations_is_warned_of_naming_the_rule() {
        let warning = |days| {
            conversation_days(days)
                .unwrap()
                .short_conversation_retention()
        };
        let short = warning("2191").expect("a day short of six years");
        assert!(
            short.starts_with("CONVERSATION_RETENTION_DAYS=2191 "),
            "{short}"
        );
        assert!(short.contains("422.2274(g)(2)(ii)"), "{short}");
        assert_eq!(warning("2192"), None);
        assert_eq!(
            InboxSettings::default().short_conversation_retention(),
            None
        );
    }

    #[test]
    fn conversations_are_kept_the_days_set_within_bounds() {
        for (days, kept) in [("1", 1), (" 365 ", 365), ("36525", 36_525)] {
            let kept_for = conversation_days(days).unwrap().conversation_retention;
            assert_eq!(kept_for, Duration::from_secs(kept * 86_400), "{days}");
        }
        let form = "expected a whole number of days from 1 to 36525 (default 3653, ten years)";
        for (days, problem) in [
            ("0", "is out of range"),
            ("36526", "is out of range"),
            ("-1", "cannot be read"),
            ("ten years", "cannot be read"),
        ] {
            assert_eq!(
                conversation_days(days).unwrap_err().to_string(),
                format!("CONVERSATION_RETENTION_DAYS={days:?} {problem}; {form}")
            );
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
