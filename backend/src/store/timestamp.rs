//! Every timestamp the store keeps or sends, in one text form.

use serde::Serializer;
use time::macros::format_description;
use time::OffsetDateTime;

/// Always three fraction digits: the RFC 3339 formatter drops trailing zeros (`.12Z`), which
/// would sort after `.125Z`.
pub fn format_timestamp(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    at.format(format_description!(
        "[year]-[month]-[day]T[hour]:[minute]:[second].[subsecond digits:3]Z"
    ))
    .unwrap_or_default()
}

/// Timestamps leave the server in the form they are stored in (`format_timestamp`).
pub(super) fn serialize_timestamp<S: Serializer>(
    at: &OffsetDateTime,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    serializer.serialize_str(&format_timestamp(*at))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_have_a_fixed_width_so_text_order_is_time_order() {
        let at = time::macros::datetime!(2026-11-22 15:54:37.120456 UTC);
        assert_eq!(format_timestamp(at), "2026-11-22T15:54:37.120Z");
        let whole = time::macros::datetime!(2026-11-22 15:54:37 UTC);
        assert_eq!(format_timestamp(whole), "2026-11-22T15:54:37.000Z");
    }
}
