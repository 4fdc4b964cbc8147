//! What `backend import` copies, as both stores' sides read and write it: the tables, their rows
//! as plain values, and the one `INSERT` both databases take.

use crate::store::StoreError;

/// The tables a lead lives in, in the order they are written (the outbox refers to the quote
/// requests). The inbox's sign-in sessions stay behind: people sign in again.
pub const TABLES: [&str; 3] = ["quote_requests", "voice_calls", "lead_outbox"];

/// A stored value: every column is text or an integer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Integer(i64),
    Text(String),
}

/// One table's rows, each with a value for each of `columns`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub name: &'static str,
    pub columns: Vec<String>,
    pub rows: Vec<Vec<Value>>,
}

/// What writing one table did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copied {
    pub table: &'static str,
    pub copied: u64,
    /// Rows whose key (or another unique value) the target already held.
    pub already_there: u64,
}

/// `INSERT INTO table (columns) VALUES ($1, ...) ON CONFLICT DO NOTHING`, which both databases
/// read (SQLite takes `$n` as named parameters, bound in order of appearance here).
pub(in crate::store) fn insert_sql(table: &Table) -> String {
    let columns: Vec<String> = table.columns.iter().map(|c| format!("\"{c}\"")).collect();
    let values: Vec<String> = (1..=columns.len()).map(|n| format!("${n}")).collect();
    format!(
        "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
        table.name,
        columns.join(", "),
        values.join(", ")
    )
}

/// A column type neither store uses: a schema this code does not know.
pub(in crate::store) fn unknown_type(table: &str, column: &str, kind: &str) -> StoreError {
    StoreError::Database(
        format!("{table}.{column} holds a {kind}, neither text nor an integer").into(),
    )
}
