//! A new quote's row: the columns it fills, each with its value, in one list that both inserts
//! are written from (SQLite's one quote at a time, PostgreSQL's group commit), so a column is
//! added in one place.

use std::sync::LazyLock;

use super::model::NewQuote;

/// One column of `quote_requests` and where a new quote's value for it comes from. Every one is
/// text (the group commit sends each column as a `text[]`).
type Column = (
    &'static str,
    for<'a> fn(&'a QuoteValues<'a>) -> Option<&'a str>,
);

const COLUMNS: [Column; 16] = [
    ("id", |v| Some(v.id.as_str())),
    ("product", |v| Some(v.quote.request.product().as_str())),
    ("email", |v| Some(v.quote.request.email().as_str())),
    ("source", |v| Some(v.quote.source.as_str())),
    ("user_agent", |v| v.quote.user_agent.as_deref()),
    ("created_at", |v| Some(v.created_at.as_str())),
    ("call_id", |v| {
        v.quote.voice.as_ref().map(|o| o.call_id.as_str())
    }),
    ("tool_call_id", |v| {
        v.quote.voice.as_ref().map(|o| o.tool_call_id.as_str())
    }),
    ("idempotency_key", |v| v.quote.idempotency_key.as_deref()),
    ("queued_channels", |v| v.queued_channels),
    ("spam", |v| v.quote.spam),
    ("language", |v| Some(v.quote.language.as_str())),
    ("phone", |v| v.quote.contact.phone.as_deref()),
    ("may_call", |v| v.quote.contact.may_call_text()),
    ("zip", |v| v.quote.contact.zip.as_deref()),
    ("state", |v| v.quote.contact.state.as_deref()),
];

/// One `$n` per column, its value. Stores nothing when the idempotency key or the voice call
/// and tool call were seen before (both are unique); `EARLIER_QUOTE` then finds that row.
pub static INSERT_QUOTE: LazyLock<String> = LazyLock::new(|| {
    let values = numbered(|n| format!("${n}"));
    format!(
        "INSERT INTO quote_requests ({}) VALUES ({values}) ON CONFLICT DO NOTHING",
        names()
    )
});

/// PostgreSQL's group commit: many quotes stored by one statement (one round trip, one commit).
/// One `$n` per column, an array (`columns`) with one element per quote; what was stored comes
/// back as its ids. A quote seen before is skipped as by `INSERT_QUOTE`.
pub static INSERT_QUOTES: LazyLock<String> = LazyLock::new(|| {
    let arrays = numbered(|n| format!("${n}::text[]"));
    format!(
        "INSERT INTO quote_requests ({})
        SELECT * FROM unnest({arrays})
        ON CONFLICT DO NOTHING
        RETURNING id",
        names()
    )
});

fn names() -> String {
    COLUMNS.map(|(name, _)| name).join(", ")
}

/// Each column's parameter, written by `parameter` from its number.
fn numbered(parameter: impl Fn(usize) -> String) -> String {
    (1..=COLUMNS.len())
        .map(parameter)
        .collect::<Vec<_>>()
        .join(", ")
}

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
            created_at: quote.created_at_text(),
            queued_channels: queued_channels.filter(|_| quote.spam.is_none()),
        }
    }

    pub fn id(&self) -> &str {
        &self.id
    }

    /// `INSERT_QUOTE`'s parameters.
    pub fn values(&self) -> [Option<&str>; COLUMNS.len()] {
        COLUMNS.map(|(_, value)| value(self))
    }
}

/// `INSERT_QUOTES`' arrays: each column's values of every quote in `rows`.
pub fn columns<'a>(rows: &'a [QuoteValues<'a>]) -> [Vec<Option<&'a str>>; COLUMNS.len()] {
    COLUMNS.map(|(_, value)| rows.iter().map(value).collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_column_has_its_parameter() {
        let last = COLUMNS.len();
        assert!(INSERT_QUOTE.starts_with("INSERT INTO quote_requests (id, product, email, "));
        assert!(INSERT_QUOTE.ends_with(&format!(", ${last}) ON CONFLICT DO NOTHING")));
        assert!(INSERT_QUOTES.contains("SELECT * FROM unnest($1::text[], $2::text[], "));
        assert!(INSERT_QUOTES.contains(&format!(", ${last}::text[])")));
    }
}
