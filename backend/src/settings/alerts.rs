//! When failing deliveries alert the broker: after `ALERT_AFTER_MINUTES` (60) of failing, one
//! e-mail per incident to `ALERT_EMAIL_TO` (`email.rs`), and another once it recovers.

use std::time::Duration;

use super::env::Env;
use super::error::ConfigError;

const AFTER_MINUTES: &str = "ALERT_AFTER_MINUTES";
const AFTER_FORM: &str = "a whole number of minutes from 1 to 10080 (a week)";
pub const DEFAULT_AFTER_MINUTES: u64 = 60;
/// How often each instance looks at the deliveries.
const CHECK_EVERY: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AlertSettings {
    /// How long a lead's deliveries on a channel fail before the broker is alerted.
    pub after: Duration,
    pub check_every: Duration,
}

impl Default for AlertSettings {
    fn default() -> AlertSettings {
        AlertSettings {
            after: Duration::from_secs(DEFAULT_AFTER_MINUTES * 60),
            check_every: CHECK_EVERY,
        }
    }
}

impl AlertSettings {
    pub fn from_env(env: &Env) -> Result<AlertSettings, ConfigError> {
        let minutes = env
            .parse_within(AFTER_MINUTES, AFTER_FORM, "is out of range", |n: &u64| {
                (1..=7 * 24 * 60).contains(n)
            })?
            .unwrap_or(DEFAULT_AFTER_MINUTES);
        Ok(AlertSettings {
            after: Duration::from_secs(minutes * 60),
            ..AlertSettings::default()
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    fn alerts(vars: &[(&str, &str)]) -> Result<AlertSettings, ConfigError> {
        AlertSettings::from_env(&Env::new(&lookup(vars)))
    }

    #[test]
    fn an_hour_unless_set() {
        assert_eq!(alerts(&[]).unwrap().after, Duration::from_secs(3600));
        let quarter = alerts(&[(AFTER_MINUTES, "15")]).unwrap();
        assert_eq!(quarter.after, Duration::from_secs(900));
        assert_eq!(
            alerts(&[(AFTER_MINUTES, "0")]).unwrap_err().to_string(),
            "ALERT_AFTER_MINUTES=\"0\" is out of range; expected a whole number of minutes from 1 to 10080 (a week)"
        );
    }
}
