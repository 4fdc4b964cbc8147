//! `/api/admin/consent-records?phone=...` (or `?email=...`): one person's consent records, their
//! leads deleted or not, as the proof a broker shows when a call or a text is questioned years
//! after the lead was deleted.

use std::sync::Arc;

use serde::Serialize;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::http::error::{store_failed, ApiError};
use crate::http::error_answers::{AdminErrors, BadRequest};
use crate::store::consent::{ConsentRecords, Person, StoredLink};

/// The records one answer holds: more than any one person leaves.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ConsentRecordList)]
#[serde(deny_unknown_fields)]
struct Listed {
    consent_records: Vec<Record>,
}

/// A consent record as stored, every field its hash covers in link, with the texts its
/// SHA-256s name, and whether its lead is deleted.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = PersonConsentRecord)]
struct Record {
    #[serde(flatten)]
    stored: StoredLink,
    lead_deleted: bool,
}

/// The longest `email` taken, as an address may be.
const MAX_EMAIL: usize = 254;

/// Whose records: `phone` (E.164, `+15555550123`, as the inbox shows and links it) and `email`
/// (an address, matched whole in any case), either or both; a blank `email` is none. The rules
/// are the OpenAPI document's, so every request it allows is answered.
pub fn person(query: &str) -> Result<Person, ApiError> {
    let invalid = |what: &str| ApiError::InvalidParameter(what.to_owned());
    let mut person = Person::default();
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        match key.as_ref() {
            "phone" => {
                let e164 = wasm_core::Phone::parse(&value)
                    .ok()
                    .filter(|phone| phone.as_str() == value);
                let e164 = e164.ok_or_else(|| {
                    invalid("phone must be a US number in E.164 form, such as +15555550123")
                })?;
                person.phone = Some(e164.as_str().to_owned());
            }
            "email" => {
                // PostgreSQL's text cannot hold a NUL: a search with one would be its 500.
                if value.chars().any(char::is_control) {
                    return Err(invalid("email must not contain control characters"));
                }
                if value.chars().count() > MAX_EMAIL {
                    return Err(invalid(&format!(
                        "email must be at most {MAX_EMAIL} characters"
                    )));
                }
                let email = value.trim();
                person.email = (!email.is_empty()).then(|| email.to_owned());
            }
            _ => {}
        }
    }
    Ok(person)
}

/// One person's consent records: those with the phone number or the e-mail address given
/// (either or both; with neither, none), their leads deleted or not, oldest first, at most 500.
/// A record from before records kept the lead's contact details is found by its lead's while
/// the lead is kept. The caller is already checked.
#[utoipa::path(
    get,
    path = "/api/admin/consent-records",
    operation_id = "listConsentRecordsOfPerson",
    params(
        ("phone" = Option<String>, Query, description = "A US number in E.164 form, as the inbox shows and links it.", pattern = r"^\+1[2-9][0-9]{2}[2-9][0-9]{6}$"),
        ("email" = Option<String>, Query, description = "An e-mail address, matched whole in any case; blank is none; a control character is refused (400).", max_length = 254, pattern = r"^[^\u0000-\u001f\u007f-\u009f]*$"),
    ),
    responses((status = 200, description = "The records.", body = Listed), AdminErrors, BadRequest)
)]
pub async fn list(store: Arc<dyn ConsentRecords>, query: String) -> Result<Response, Rejection> {
    let person = person(&query)?;
    let records = store
        .consent_records_of(person, MAX_LISTED)
        .await
        .map_err(store_failed("reading a person's consent records failed"))?;
    let consent_records = records
        .into_iter()
        .map(|stored| Record {
            lead_deleted: stored.lead.is_none(),
            stored,
        })
        .collect();
    Ok(warp::reply::json(&Listed { consent_records }).into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phone_in_e164_and_an_address_in_any_case() {
        let phone = |number: &str| Person {
            phone: Some(number.into()),
            email: None,
        };
        assert_eq!(
            person("phone=%2B15555550123").unwrap(),
            phone("+15555550123")
        );
        assert_eq!(
            person("email=%20Ana%40Example.com&phone=%2B15555550123").unwrap(),
            Person {
                phone: Some("+15555550123".into()),
                email: Some("Ana@Example.com".into()),
            }
        );
        assert_eq!(person("").unwrap(), Person::default(), "nobody named");
        assert_eq!(person("email=%20").unwrap(), Person::default());
        for refused in [
            "phone=",
            "phone=5555550123",
            "phone=(555)%20555-0123",
            "phone=%2B10555550123",
            "email=a%00b",
        ] {
            assert!(
                matches!(person(refused), Err(ApiError::InvalidParameter(_))),
                "{refused}"
            );
        }
        let long = format!("email={}", "a".repeat(MAX_EMAIL + 1));
        assert!(person(&long).is_err());
    }
}
