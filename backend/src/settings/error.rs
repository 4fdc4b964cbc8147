//! Why a setting cannot be used: one start-up line naming the variable, what is wrong with its
//! value and the form expected. Every setting fails this one way, whether its value does not
//! parse or parses out of bounds (`check`, over a typed setting's `validator` rules, for the
//! settings that have them; the others build their `ConfigError` themselves).

use std::fmt;

use validator::Validate;

/// Shown in place of a value that must never reach a log line (a secret, or a URL that may
/// hold a password).
const HIDDEN: &str = "…";

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub struct ConfigError {
    pub variable: &'static str,
    /// `None` for a value that is never shown.
    pub value: Option<String>,
    pub problem: String,
    pub expected: String,
}

impl ConfigError {
    pub fn new(
        variable: &'static str,
        value: impl Into<String>,
        problem: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            variable,
            value: Some(value.into()),
            problem: problem.into(),
            expected: expected.into(),
        }
    }

    /// For a value that may be a secret: the message names the variable, never the value.
    pub fn hidden(
        variable: &'static str,
        problem: impl Into<String>,
        expected: impl Into<String>,
    ) -> ConfigError {
        ConfigError {
            value: None,
            ..ConfigError::new(variable, "", problem, expected)
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let value = self.value.as_deref().unwrap_or(HIDDEN);
        write!(
            f,
            "{}={value:?} {}; expected {}",
            self.variable, self.problem, self.expected
        )
    }
}

/// Validates `settings`; `variables` names the environment variable behind each field, whose
/// raw value `get` gives back for the message. Each rule's `message` is the expected form, and a
/// custom rule's code says what is wrong.
pub fn check(
    settings: &impl Validate,
    variables: &[(&str, &'static str)],
    get: impl Fn(&str) -> Option<String>,
) -> Result<(), ConfigError> {
    let Err(errors) = settings.validate() else {
        return Ok(());
    };
    let field_errors = errors.field_errors();
    let (field, error) = field_errors
        .iter()
        .find_map(|(field, list)| list.first().map(|error| (field.as_ref(), error)))
        .expect("validate() failed, so some field has an error");
    let variable = variables
        .iter()
        .find(|(name, _)| *name == field)
        .map(|(_, variable)| *variable)
        .expect("every validated setting names its variable");
    let problem = match error.code.as_ref() {
        "range" => "is out of range".to_owned(),
        other => other.to_owned(),
    };
    Err(ConfigError::new(
        variable,
        get(variable).unwrap_or_default(),
        problem,
        error.message.as_deref().unwrap_or("a valid value"),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_line_with_the_value_or_without_it() {
        assert_eq!(
            ConfigError::new("PORT", "http", "cannot be read", "a number").to_string(),
            "PORT=\"http\" cannot be read; expected a number"
        );
        assert_eq!(
            ConfigError::hidden("ADMIN_TOKEN", "is short", "more").to_string(),
            "ADMIN_TOKEN=\"…\" is short; expected more"
        );
    }
}
