//! A setting that parses but is out of bounds, as `validator` finds it on the typed settings:
//! one start-up line naming the variable, what is wrong with its value and the form expected.

use validator::{Validate, ValidationErrors};

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
#[error("{variable}={value:?} {problem}; expected {expected}")]
pub struct InvalidSetting {
    pub variable: &'static str,
    pub value: String,
    pub problem: String,
    pub expected: String,
}

/// Validates `settings`; `variables` names the environment variable behind each field, whose
/// raw value `get` gives back for the message. Each rule's `message` is the expected form, and a
/// custom rule's code says what is wrong.
pub fn check(
    settings: &impl Validate,
    variables: &[(&str, &'static str)],
    get: &impl Fn(&str) -> Option<String>,
) -> Result<(), InvalidSetting> {
    settings
        .validate()
        .map_err(|errors| first(&errors, variables, get))
}

fn first(
    errors: &ValidationErrors,
    variables: &[(&str, &'static str)],
    get: &impl Fn(&str) -> Option<String>,
) -> InvalidSetting {
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
    InvalidSetting {
        variable,
        value: get(variable).unwrap_or_default(),
        problem,
        expected: error
            .message
            .as_deref()
            .unwrap_or("a valid value")
            .to_owned(),
    }
}
