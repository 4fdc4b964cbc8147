//! The admin list's query parameters and the format the caller wants.

use time::macros::format_description;
use time::{Date, OffsetDateTime};
use uuid::Uuid;
use validator::{Validate, ValidationErrors};
use warp::http::{header, HeaderMap};
use wasm_core::Product;

use crate::http::error::ApiError;
use crate::leads::since::parse_since;
use crate::store::{schema, LeadFilter, LeadStatus, Source};
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn};
use utoipa::openapi::schema::{AnyOfBuilder, KnownFormat, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::{RefOr, Required, Schema};
use utoipa::PartialSchema;

/// Page size when none is asked for, and the largest one allowed.
const ADMIN_PAGE_DEFAULT: usize = 50;
const ADMIN_PAGE_MAX: usize = 1000;
/// The longest e-mail search (an address is at most 254 bytes).
const EMAIL_SEARCH_MAX: usize = 254;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Json,
    Csv,
}

#[derive(Debug, PartialEq, Eq, Validate)]
pub struct Params {
    #[validate(range(min = 1, max = ADMIN_PAGE_MAX))]
    pub limit: usize,
    /// The id of the last row of the previous page.
    pub cursor: Option<String>,
    pub since: Option<OffsetDateTime>,
    pub format: Format,
    /// The rest of the filter (`since` is kept above too, for its own tests).
    pub filter: LeadFilter,
}

/// The parameters `parse` reads, as the OpenAPI document describes them: `parse` refuses any
/// other, and any value outside these (400).
pub struct Described;

impl utoipa::IntoParams for Described {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let text = || ObjectBuilder::new().schema_type(Type::String);
        let date_or_time = || {
            AnyOfBuilder::new()
                .item(text().format(Some(SchemaFormat::KnownFormat(KnownFormat::Date))))
                .item(text().format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime))))
        };
        let products: Vec<&str> = Product::ALL
            .iter()
            .map(|product| product.as_str())
            .collect();
        let query = |name: &str, description: Option<&str>, schema: RefOr<Schema>| {
            ParameterBuilder::new()
                .name(name)
                .parameter_in(ParameterIn::Query)
                .required(Required::False)
                .description(description)
                .schema(Some(schema))
                .build()
        };
        vec![
            query(
                "limit",
                Some("Rows per page."),
                ObjectBuilder::new()
                    .schema_type(Type::Integer)
                    .minimum(Some(1))
                    .maximum(Some(ADMIN_PAGE_MAX as f64))
                    .default(Some(ADMIN_PAGE_DEFAULT.into()))
                    .into(),
            ),
            query(
                "cursor",
                Some("The next_cursor (JSON) or X-Next-Cursor (CSV) of the previous page."),
                text().format(Some(SchemaFormat::KnownFormat(KnownFormat::Uuid))).into(),
            ),
            query(
                "since",
                Some("Only rows created at or after this day (UTC midnight) or time."),
                date_or_time().into(),
            ),
            query(
                "until",
                Some("Only rows created before the end of this day (UTC) or before this time."),
                date_or_time().into(),
            ),
            query("product", None, schema::words(&products).into()),
            query("source", None, Source::schema()),
            query(
                "status",
                Some("Without it, every lead but spam; spam is listed only with status=spam. A lead the visitor asked not to be contacted about has status do_not_contact."),
                LeadStatus::schema(),
            ),
            query(
                "state",
                Some("The leads whose ZIP code is in this state (two letters, any case)."),
                text().pattern(Some("^[A-Za-z]{2}$")).into(),
            ),
            query(
                "email",
                Some("Part of the e-mail address, any case; a control character is refused (400)."),
                email_search().into(),
            ),
            query("format", None, schema::words(&["json", "csv"]).into()),
        ]
    }
}

/// An `email` search as `parse` takes it: at most `EMAIL_SEARCH_MAX` bytes, no control
/// character (`char::is_control`'s: C0, DEL and C1).
pub fn email_search() -> ObjectBuilder {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .max_length(Some(EMAIL_SEARCH_MAX))
        .pattern(Some(r"^[^\u0000-\u001f\u007f-\u009f]*$"))
}

/// `format=json|csv` wins; otherwise an `Accept` naming `text/csv` gets CSV.
pub fn parse(query: &str, headers: &HeaderMap) -> Result<Params, ApiError> {
    let wants_csv = headers
        .get(header::ACCEPT)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|accept| accept.to_ascii_lowercase().contains("text/csv"));
    let mut params = Params {
        limit: ADMIN_PAGE_DEFAULT,
        cursor: None,
        since: None,
        format: if wants_csv { Format::Csv } else { Format::Json },
        filter: LeadFilter::default(),
    };
    for (key, value) in form_urlencoded::parse(query.as_bytes()) {
        let invalid = |what: String| ApiError::InvalidParameter(what);
        match key.as_ref() {
            // Not a number is out of range too: one message for both.
            "limit" => params.limit = value.parse().unwrap_or(0),
            "cursor" => {
                let id = Uuid::parse_str(&value).map_err(|_| {
                    invalid(format!("cursor {value:?} is not one this API gave out"))
                })?;
                params.cursor = Some(id.to_string());
            }
            "since" => params.since = Some(parse_since(&value).map_err(invalid)?),
            "until" => params.filter.until = Some(parse_until(&value).map_err(invalid)?),
            "product" => {
                let product = Product::ALL.into_iter().find(|p| p.as_str() == value);
                params.filter.product = Some(product.ok_or_else(|| {
                    invalid(format!(
                        "product must be one of medicare, individual, family, medicaid, employer, got {value:?}"
                    ))
                })?);
            }
            "source" => {
                params.filter.source = Some(Source::parse(&value).ok_or_else(|| {
                    invalid(format!("source must be web or voice, got {value:?}"))
                })?);
            }
            "status" => params.filter.status = Some(status(&value)?),
            "email" => {
                let text = value.trim();
                if text.len() > EMAIL_SEARCH_MAX {
                    return Err(invalid(format!(
                        "email must be at most {EMAIL_SEARCH_MAX} bytes"
                    )));
                }
                // No stored address holds one, and PostgreSQL's text cannot hold a NUL: a search
                // with one would be its error, a 500, not the visitor's.
                if value.chars().any(char::is_control) {
                    return Err(invalid(
                        "email must not contain control characters".to_owned(),
                    ));
                }
                params.filter.email = (!text.is_empty()).then(|| text.to_owned());
            }
            "state" => {
                let code = value.trim().to_ascii_uppercase();
                if code.len() != 2 || !code.bytes().all(|b| b.is_ascii_uppercase()) {
                    return Err(invalid(format!(
                        "state must be a state's two letters (TX), got {value:?}"
                    )));
                }
                params.filter.state = Some(code);
            }
            "format" => {
                params.format = match value.as_ref() {
                    "json" => Format::Json,
                    "csv" => Format::Csv,
                    other => {
                        return Err(invalid(format!(
                            "format must be json or csv, got {other:?}"
                        )))
                    }
                }
            }
            other => return Err(invalid(format!("unknown parameter {other:?}"))),
        }
    }
    params
        .validate()
        .map_err(|errors| ApiError::InvalidParameter(first_problem(&errors)))?;
    params.filter.since = params.since;
    Ok(params)
}

/// A lead's status by its name, as the list's filter and a lead's change take it.
pub fn status(name: &str) -> Result<LeadStatus, ApiError> {
    LeadStatus::parse(name).ok_or_else(|| {
        ApiError::InvalidParameter(format!(
            "status must be new, contacted, spam or do_not_contact, got {name:?}"
        ))
    })
}

/// A day (`YYYY-MM-DD`) includes all of it; an RFC 3339 time is the first moment left out.
fn parse_until(text: &str) -> Result<OffsetDateTime, String> {
    let end_of = |date: Date| {
        date.next_day()
            .map(|next| next.midnight().assume_utc())
            .ok_or_else(|| format!("until {text:?} is out of range"))
    };
    match Date::parse(text, format_description!("[year]-[month]-[day]")) {
        Ok(date) => end_of(date),
        Err(_) => parse_since(text).map_err(|e| e.replacen("since", "until", 1)),
    }
}

/// `limit must be from 1 to 1000`: the field and the bounds `validator` reports.
fn first_problem(errors: &ValidationErrors) -> String {
    let field_errors = errors.field_errors();
    let described = field_errors
        .iter()
        .flat_map(|(field, list)| list.iter().map(move |e| (field, e)));
    described
        .map(
            |(field, error)| match (error.params.get("min"), error.params.get("max")) {
                (Some(min), Some(max)) => format!("{field} must be from {min} to {max}"),
                _ => format!("{field} is not valid ({})", error.code),
            },
        )
        .next()
        .unwrap_or_else(|| errors.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use warp::http::HeaderValue;

    #[test]
    fn defaults_overrides_and_errors() {
        let none = HeaderMap::new();
        let p = parse("", &none).unwrap();
        assert_eq!(
            (p.limit, p.format, p.cursor, p.since),
            (ADMIN_PAGE_DEFAULT, Format::Json, None, None)
        );
        let mut csv = HeaderMap::new();
        csv.insert(header::ACCEPT, HeaderValue::from_static("text/csv"));
        assert_eq!(parse("", &csv).unwrap().format, Format::Csv);
        assert_eq!(parse("format=json", &csv).unwrap().format, Format::Json);
        let id = "0195a3b0-0000-7000-8000-000000000000";
        let p = parse(
            &format!("limit=2&cursor={id}&since=2026-01-01&format=csv"),
            &none,
        )
        .unwrap();
        assert_eq!(
            (p.limit, p.cursor.as_deref(), p.format),
            (2, Some(id), Format::Csv)
        );
        assert_eq!(p.since.unwrap().unix_timestamp(), 1_767_225_600);
        let f = parse(
            "product=medicare&source=voice&status=contacted&until=2026-01-01&email=%20Ana%20",
            &none,
        )
        .unwrap()
        .filter;
        assert_eq!(
            (f.product, f.source, f.status, f.email.as_deref()),
            (
                Some(Product::Medicare),
                Some(Source::Voice),
                Some(LeadStatus::Contacted),
                Some("Ana")
            )
        );
        assert_eq!(
            f.until.unwrap().unix_timestamp(),
            1_767_225_600 + 86_400,
            "the whole day"
        );
        for bad in ["limit=0", "limit=x", "limit=100000"] {
            let message = parse(bad, &none).unwrap_err().to_string();
            assert_eq!(
                message,
                format!("limit must be from 1 to {ADMIN_PAGE_MAX}"),
                "{bad}"
            );
        }
        for bad in [
            "limit=0",
            "limit=x",
            "limit=100000",
            "cursor=abc",
            "since=soon",
            "format=xml",
            "page=2",
            "product=dental",
            "source=phone",
            "status=done",
            "until=tomorrow",
            "email=ana%00@example.com",
            "email=ana%0A",
        ] {
            assert!(
                matches!(parse(bad, &none), Err(ApiError::InvalidParameter(_))),
                "{bad}"
            );
        }
    }
}
