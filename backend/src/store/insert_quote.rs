//! A new quote's insert, written from the lead table's columns (`lead_columns.rs`) with its value
//! for each, for both stores: SQLite's one quote at a time and PostgreSQL's group commit.

use std::sync::LazyLock;

use super::lead_columns::{
    CALL_ID, COLUMNS, CREATED_AT, DO_NOT_CONTACT_AT, EMAIL, ID, IDEMPOTENCY_KEY, LANGUAGE,
    MAY_CALL, NOTE, PHONE, PRODUCT, QUEUED_CHANNELS, SOURCE, SPAM, STATE, STATUS,
    STATUS_CHANGED_AT, TABLE, TOOL_CALL_ID, USER_AGENT, ZIP,
};
use super::model::{LeadStatus, NewQuote};
use super::timestamp::format_timestamp;

/// One `$n` per column, its value. Stores nothing when the idempotency key or the voice call
/// and tool call were seen before (both are unique); `EARLIER_QUOTE` then finds that row.
pub static INSERT_QUOTE: LazyLock<String> = LazyLock::new(|| {
    let values = numbered(|n| format!("${n}"));
    format!(
        "INSERT INTO {TABLE} ({}) VALUES ({values}) ON CONFLICT DO NOTHING",
        names()
    )
});

/// PostgreSQL's group commit: many quotes stored by one statement (one round trip, one commit).
/// One `$n` per column, an array (`columns`) with one element per quote; what was stored comes
/// back as its ids. A quote seen before is skipped as by `INSERT_QUOTE`.
pub static INSERT_QUOTES: LazyLock<String> = LazyLock::new(|| {
    let arrays = numbered(|n| format!("${n}::text[]"));
    format!(
        "INSERT INTO {TABLE} ({})
        SELECT * FROM unnest({arrays})
        ON CONFLICT DO NOTHING
        RETURNING {ID}",
        names()
    )
});

fn names() -> String {
    COLUMNS.map(|column| column.name).join(", ")
}

/// Each column's parameter, written by `parameter` from its number.
fn numbered(parameter: impl Fn(usize) -> String) -> String {
    (1..=COLUMNS.len())
        .map(parameter)
        .collect::<Vec<_>>()
        .join(", ")
}

/// A new quote's value for one column. Every one is text (the group commit sends each column as
/// a `text[]`); a column the inbox sets later starts as its migration's default would.
type NewValue = for<'a> fn(&'a QuoteValues<'a>) -> Option<&'a str>;

/// A new quote's value for each of `COLUMNS`, in their order (a test holds the two together).
const NEW_VALUES: [(&str, NewValue); COLUMNS.len()] = [
    (ID, |v| Some(v.id.as_str())),
    (PRODUCT, |v| Some(v.quote.request.product().as_str())),
    (EMAIL, |v| Some(v.quote.request.email().as_str())),
    (SOURCE, |v| Some(v.quote.source.as_str())),
    (USER_AGENT, |v| v.quote.user_agent.as_deref()),
    (CREATED_AT, |v| Some(v.created_at.as_str())),
    (CALL_ID, |v| {
        v.quote.voice.as_ref().map(|o| o.call_id.as_str())
    }),
    (TOOL_CALL_ID, |v| {
        v.quote.voice.as_ref().map(|o| o.tool_call_id.as_str())
    }),
    (IDEMPOTENCY_KEY, |v| v.quote.idempotency_key.as_deref()),
    (STATUS, |_| Some(LeadStatus::New.as_str())),
    (STATUS_CHANGED_AT, |_| None),
    (QUEUED_CHANNELS, |v| v.queued_channels),
    (NOTE, |_| None),
    (SPAM, |v| v.quote.spam),
    (LANGUAGE, |v| Some(v.quote.language.as_str())),
    (PHONE, |v| v.quote.contact.phone.as_deref()),
    (MAY_CALL, |v| v.quote.contact.may_call_text()),
    (ZIP, |v| v.quote.contact.zip.as_deref()),
    (STATE, |v| v.quote.contact.state.as_deref()),
    (DO_NOT_CONTACT_AT, |_| None),
];

/// A new quote with the values it is stored under that are not text in it already.
pub struct QuoteValues<'q> {
    quote: &'q NewQuote,
    id: String,
    created_at: String,
    queued_channels: Option<&'q str>,
}

impl<'q> QuoteValues<'q> {
    /// `queued_channels`: the channels it is queued on (`StoreOptions::queued_channels`); spam
    /// is queued on none.
    pub fn new(quote: &'q NewQuote, queued_channels: Option<&'q str>) -> QuoteValues<'q> {
        QuoteValues {
            quote,
            id: quote.id.to_string(),
            created_at: format_timestamp(quote.created_at),
            queued_channels: queued_channels.filter(|_| quote.spam.is_none()),
        }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// `INSERT_QUOTE`'s parameters.
    pub fn values(&self) -> [Option<&str>; NEW_VALUES.len()] {
        NEW_VALUES.map(|(_, value)| value(self))
    }
}

/// `INSERT_QUOTES`' arrays: each column's values of every quote in `rows`.
pub fn columns<'a>(rows: &'a [QuoteValues<'a>]) -> [Vec<Option<&'a str>>; NEW_VALUES.len()] {
    NEW_VALUES.map(|(_, value)| rows.iter().map(value).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_column_has_its_value() {
        assert_eq!(NEW_VALUES.map(|(name, _)| name), COLUMNS.map(|c| c.name));
    }

    #[test]
    fn each_column_has_its_parameter() {
        let last = COLUMNS.len();
        assert!(
            INSERT_QUOTE.starts_with(&format!("INSERT INTO {TABLE} ({}) VALUES ($1, ", names()))
        );
        assert!(INSERT_QUOTE.ends_with(&format!(", ${last}) ON CONFLICT DO NOTHING")));
        assert!(INSERT_QUOTES.contains("SELECT * FROM unnest($1::text[], $2::text[], "));
        assert!(INSERT_QUOTES.contains(&format!(", ${last}::text[])")));
    }
}
