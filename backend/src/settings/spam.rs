//! `FORM_MIN_FILL_SECONDS`: how soon after its page was served a quote post is too quick for a
//! person (choosing a product, typing an address and pressing the button), and is held as spam.

use std::time::Duration;

use super::env::Env;
use super::error::ConfigError;

/// A person with the browser's autofill still takes a few seconds; a script posts at once.
pub const DEFAULT_MIN_FILL_SECONDS: u64 = 3;
/// Longer than a person ever needs would hold people's leads as spam.
const MAX_MIN_FILL_SECONDS: u64 = 60;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SpamSettings {
    pub min_fill: Duration,
}

impl Default for SpamSettings {
    fn default() -> SpamSettings {
        SpamSettings {
            min_fill: Duration::from_secs(DEFAULT_MIN_FILL_SECONDS),
        }
    }
}

impl SpamSettings {
    pub fn from_env(env: &Env) -> Result<SpamSettings, ConfigError> {
        const VARIABLE: &str = "FORM_MIN_FILL_SECONDS";
        let expected = format!("a whole number of seconds from 0 to {MAX_MIN_FILL_SECONDS}");
        let seconds = env
            .parse_within(
                VARIABLE,
                &expected,
                "is longer than a person needs",
                |n: &u64| *n <= MAX_MIN_FILL_SECONDS,
            )?
            .unwrap_or(DEFAULT_MIN_FILL_SECONDS);
        Ok(SpamSettings {
            min_fill: Duration::from_secs(seconds),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    fn read(vars: &[(&str, &str)]) -> Result<SpamSettings, ConfigError> {
        SpamSettings::from_env(&Env::new(&lookup(vars)))
    }

    #[test]
    fn the_fill_time_is_a_few_seconds_by_default() {
        assert_eq!(read(&[]).unwrap(), SpamSettings::default());
        let none = read(&[("FORM_MIN_FILL_SECONDS", "0")]).unwrap();
        assert_eq!(none.min_fill, Duration::ZERO);
        for bad in ["61", "-1", "3s"] {
            let error = read(&[("FORM_MIN_FILL_SECONDS", bad)]).unwrap_err();
            assert!(
                error.to_string().contains("FORM_MIN_FILL_SECONDS"),
                "{error}"
            );
        }
    }
}
