//! A point in time given by a person: a day (UTC midnight) or an RFC 3339 time, for `backend
//! export --since` and the admin API's `since` and `until`.

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

/// Answered in UTC: the store compares UTC text, and a time whose UTC day falls outside the years
/// `time` can hold (`9999-12-31T23:59:59-23:59`) is refused here rather than panicking there.
pub fn parse_since(text: &str) -> Result<OffsetDateTime, String> {
    if let Ok(at) = OffsetDateTime::parse(text, &Rfc3339) {
        return at
            .checked_to_offset(UtcOffset::UTC)
            .ok_or_else(|| format!("since {text:?} is out of range"));
    }
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map(|date| date.midnight().assume_utc())
        .map_err(|_| format!("since {text:?} is neither YYYY-MM-DD nor an RFC 3339 time"))
}
