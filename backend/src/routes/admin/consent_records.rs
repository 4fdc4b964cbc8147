//! `/api/admin/consent-records?phone=...` (or `?email=...`): one person's consent records, their
//! leads deleted or not, as the proof a broker shows when a call or a text is questioned years
//! after the lead was deleted.

use std::sync::Arc;

use serde::Serialize;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::http::error::ApiError;
use crate::store::consent::{ConsentRecords, Person, StoredLink};

/// The records one answer holds: more than any one person leaves.
pub const MAX_LISTED: usize = 500;

#[derive(Serialize)]
struct Listed {
    consent_records: Vec<Record>,
}

/// A record as it is stored, and whether its lead is deleted.
#[derive(Serialize)]
struct Record {
    #[serde(flatten)]
    stored: StoredLink,
    lead_deleted: bool,
}

/// Whose records: exactly one of `phone` (any US form, kept as E.164) and `email`.
pub fn person(query: &str) -> Result<Person, ApiError> {
    let invalid = |what: &str| ApiError::InvalidParameter(what.to_owned());
    let mut person = None;
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let found = match key.as_ref() {
            "phone" => wasm_core::Phone::parse(&value)
                .map(|phone| Person::Phone(phone.as_str().to_owned()))
                .map_err(|error| invalid(&format!("phone: {error}")))?,
            "email" => wasm_core::Email::parse(value.trim())
                .map(|email| Person::Email(email.as_str().to_owned()))
                .ok_or_else(|| invalid("email is not an e-mail address"))?,
            _ => continue,
        };
        if person.replace(found).is_some() {
            return Err(invalid("give one phone or one email, not more"));
        }
    }
    person.ok_or_else(|| invalid("give a phone or an email to find a person's records"))
}

/// The caller is already checked.
pub async fn list(store: Arc<dyn ConsentRecords>, query: String) -> Result<Response, Rejection> {
    let person = person(&query).map_err(warp::reject::custom)?;
    let records = store
        .consent_records_of(person, MAX_LISTED)
        .await
        .map_err(|error| {
            tracing::error!(%error, "reading a person's consent records failed");
            warp::reject::custom(ApiError::from(error))
        })?;
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
    fn one_phone_or_one_email() {
        assert_eq!(
            person("phone=(555)%20555-0123").unwrap(),
            Person::Phone("+15555550123".into())
        );
        assert_eq!(
            person("email=%20Ana%40Example.com").unwrap(),
            Person::Email("Ana@Example.com".into())
        );
        for refused in [
            "",
            "state=TX",
            "phone=12",
            "email=nobody",
            "phone=5555550123&email=a%40b.co",
        ] {
            assert!(
                matches!(person(refused), Err(ApiError::InvalidParameter(_))),
                "{refused}"
            );
        }
    }
}
