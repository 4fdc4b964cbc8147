//! The fields a broker can add to the quote form (`quote.fields` in the content): a phone
//! number with the visitor's written consent to be called, and a ZIP code with its state. Each
//! is off (not asked; whatever is sent for it is ignored), optional or required.

use super::{FieldErrors, Phone, State, Zip, PHONE_MESSAGE, ZIP_MESSAGE};

/// Whether the form asks for a field, and whether it must be filled.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum FieldRule {
    #[default]
    Off,
    Optional,
    Required,
}

impl FieldRule {
    pub fn parse(text: &str) -> Option<FieldRule> {
        match text {
            "off" => Some(FieldRule::Off),
            "optional" => Some(FieldRule::Optional),
            "required" => Some(FieldRule::Required),
            _ => None,
        }
    }
}

/// The rule of each added field.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContactRules {
    pub phone: FieldRule,
    pub zip: FieldRule,
}

/// The added fields as sent: text as typed, and whether the consent box was ticked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ContactInput<'a> {
    pub phone: &'a str,
    pub zip: &'a str,
    pub may_call: bool,
}

/// The added fields that passed the rules; a field that is off, or optional and left empty,
/// is `None`. `may_call` holds only with a phone number.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ContactDetails {
    pub phone: Option<Phone>,
    pub may_call: bool,
    pub zip: Option<Zip>,
}

impl ContactDetails {
    /// Checks each field by its rule and reports every problem at once.
    pub fn parse(input: ContactInput<'_>, rules: ContactRules) -> Result<Self, FieldErrors> {
        let phone = field(rules.phone, input.phone, Phone::parse);
        let zip = field(rules.zip, input.zip, Zip::parse);
        match (phone, zip) {
            (Ok(phone), Ok(zip)) => Ok(ContactDetails {
                may_call: input.may_call && phone.is_some(),
                phone,
                zip,
            }),
            (phone, zip) => Err(FieldErrors {
                phone: phone.is_err().then_some(PHONE_MESSAGE),
                zip: zip.is_err().then_some(ZIP_MESSAGE),
                ..FieldErrors::default()
            }),
        }
    }

    pub fn state(&self) -> Option<State> {
        self.zip.as_ref().map(Zip::state)
    }
}

/// `Ok(None)` for a field that is off, or optional and empty; `Err(())` for one that breaks
/// its rule.
fn field<T, E>(
    rule: FieldRule,
    raw: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<Option<T>, ()> {
    match rule {
        FieldRule::Off => Ok(None),
        FieldRule::Optional if raw.trim().is_empty() => Ok(None),
        FieldRule::Optional | FieldRule::Required => parse(raw).map(Some).map_err(drop),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const BOTH_OPTIONAL: ContactRules = ContactRules {
        phone: FieldRule::Optional,
        zip: FieldRule::Optional,
    };

    fn input<'a>(phone: &'a str, zip: &'a str, may_call: bool) -> ContactInput<'a> {
        ContactInput {
            phone,
            zip,
            may_call,
        }
    }

    #[test]
    fn a_field_that_is_off_is_ignored_whatever_is_sent() {
        let details =
            ContactDetails::parse(input("nonsense", "x", true), ContactRules::default()).unwrap();
        assert_eq!(details, ContactDetails::default());
    }

    #[test]
    fn optional_fields_may_be_empty_but_not_wrong() {
        let empty = ContactDetails::parse(input(" ", "", true), BOTH_OPTIONAL).unwrap();
        assert_eq!(empty, ContactDetails::default(), "no number, no consent");
        let errors =
            ContactDetails::parse(input("555-155-0123", "1234", false), BOTH_OPTIONAL).unwrap_err();
        assert_eq!(errors.phone, Some(PHONE_MESSAGE));
        assert_eq!(errors.zip, Some(ZIP_MESSAGE));
        assert_eq!((errors.product, errors.email), (None, None));
    }

    #[test]
    fn required_fields_must_be_filled() {
        let rules = ContactRules {
            phone: FieldRule::Required,
            zip: FieldRule::Required,
        };
        let errors = ContactDetails::parse(input("", "", false), rules).unwrap_err();
        assert_eq!(
            (errors.phone, errors.zip),
            (Some(PHONE_MESSAGE), Some(ZIP_MESSAGE))
        );
    }

    #[test]
    fn a_valid_number_keeps_the_box_as_ticked_and_the_zip_names_its_state() {
        let details =
            ContactDetails::parse(input("(555) 555-0123", "78701", true), BOTH_OPTIONAL).unwrap();
        assert_eq!(
            details.phone.as_ref().map(Phone::as_str),
            Some("+15555550123")
        );
        assert!(details.may_call);
        assert_eq!(details.state(), Some(State::TX));
        let unticked =
            ContactDetails::parse(input("555 555 0123", "", false), BOTH_OPTIONAL).unwrap();
        assert!(!unticked.may_call, "e-mail only");
    }

    #[test]
    fn rules_read_from_their_names() {
        assert_eq!(FieldRule::parse("optional"), Some(FieldRule::Optional));
        assert_eq!(FieldRule::parse("required"), Some(FieldRule::Required));
        assert_eq!(FieldRule::parse("off"), Some(FieldRule::Off));
        assert_eq!(FieldRule::parse("maybe"), None);
    }
}
