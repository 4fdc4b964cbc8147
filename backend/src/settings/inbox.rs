//! The broker's inbox: the password that signs in to `/admin` and how long leads are kept.

use std::time::Duration;

use argon2::password_hash::PasswordHash;

use super::invalid::InvalidSetting;
use super::secret::Secret;

const DAY: Duration = Duration::from_secs(24 * 60 * 60);

#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InboxSettings {
    /// `ADMIN_PASSWORD_HASH`: an Argon2id PHC string (`backend hash-password` makes one); the
    /// sign-in and the `/admin` page are off without it.
    pub password_hash: Option<Secret>,
    /// `LEAD_RETENTION_DAYS`: leads older than this are deleted; `None` keeps them forever.
    pub retention: Option<Duration>,
}

impl InboxSettings {
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<InboxSettings, InvalidSetting> {
        let get = |key: &str| get(key).filter(|v| !v.trim().is_empty());
        let password_hash = get("ADMIN_PASSWORD_HASH")
            .map(|raw| {
                let raw = raw.trim().to_owned();
                let argon2id =
                    PasswordHash::new(&raw).is_ok_and(|hash| hash.algorithm.as_str() == "argon2id");
                if argon2id {
                    Ok(Secret::new(raw))
                } else {
                    // The value itself stays out of the message: it may be a password pasted
                    // where its hash belongs.
                    Err(InvalidSetting {
                        variable: "ADMIN_PASSWORD_HASH",
                        value: "(hidden)".into(),
                        problem: "is not an Argon2id PHC string".into(),
                        expected: "the line `backend hash-password` prints ($argon2id$v=19$...)"
                            .into(),
                    })
                }
            })
            .transpose()?;
        let retention = get("LEAD_RETENTION_DAYS")
            .map(|raw| match raw.trim().parse::<u32>() {
                Ok(days) if days >= 1 => Ok(DAY * days),
                _ => Err(InvalidSetting {
                    variable: "LEAD_RETENTION_DAYS",
                    value: raw,
                    problem: "cannot be read".into(),
                    expected: "a whole number of days, 1 or more (unset keeps leads forever)"
                        .into(),
                }),
            })
            .transpose()?;
        Ok(InboxSettings {
            password_hash,
            retention,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const HASH: &str = "$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0$zH9ZbKz0bNm1ZbZnq0tUqg4L0H2xkz7Y3iQ5mUv2s0E";

    fn inbox(vars: &[(&str, &str)]) -> Result<InboxSettings, InvalidSetting> {
        InboxSettings::from_lookup(crate::settings::lookup(vars))
    }

    #[test]
    fn off_by_default() {
        assert_eq!(inbox(&[]).unwrap(), InboxSettings::default());
        assert_eq!(
            inbox(&[("ADMIN_PASSWORD_HASH", " "), ("LEAD_RETENTION_DAYS", "")]).unwrap(),
            InboxSettings::default()
        );
    }

    #[test]
    fn reads_the_hash_and_the_retention() {
        let s = inbox(&[("ADMIN_PASSWORD_HASH", HASH), ("LEAD_RETENTION_DAYS", "30")]).unwrap();
        assert_eq!(s.password_hash.unwrap().expose(), HASH);
        assert_eq!(s.retention, Some(Duration::from_secs(30 * 86_400)));
    }

    #[test]
    fn bad_values_are_one_line_that_never_repeats_a_password() {
        let message = |vars: &[(&str, &str)]| inbox(vars).unwrap_err().to_string();
        let plain = message(&[("ADMIN_PASSWORD_HASH", "correct horse battery")]);
        assert!(!plain.contains("horse"), "{plain}");
        assert!(plain.starts_with("ADMIN_PASSWORD_HASH=\"(hidden)\" is not an Argon2id PHC string"));
        let argon2i = HASH.replace("argon2id", "argon2i");
        assert!(inbox(&[("ADMIN_PASSWORD_HASH", &argon2i)]).is_err());
        assert_eq!(
            message(&[("LEAD_RETENTION_DAYS", "0")]),
            "LEAD_RETENTION_DAYS=\"0\" cannot be read; expected a whole number of days, 1 or more (unset keeps leads forever)"
        );
        assert!(inbox(&[("LEAD_RETENTION_DAYS", "a year")]).is_err());
    }
}
