//! A new quote's insert, written from the lead table's columns (`lead_columns.rs`) for both
//! stores: SQLite's one quote at a time and PostgreSQL's group commit.

use std::sync::LazyLock;

use super::lead_columns::{QuoteValues, COLUMNS, NEW_VALUES, TABLE};

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
        RETURNING id",
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

/// `INSERT_QUOTES`' arrays: each column's values of every quote in `rows`.
pub fn columns<'a>(rows: &'a [QuoteValues<'a>]) -> [Vec<Option<&'a str>>; NEW_VALUES.len()] {
    NEW_VALUES.map(|value| rows.iter().map(value).collect())
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
