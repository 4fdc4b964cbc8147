//! What `backend import` copies, as both stores' sides read and write it: the tables and the
//! columns this release knows, their rows as plain values, the checks every value passes, and
//! the one `SELECT` and `INSERT` both databases take.
//!
//! Every identifier in those statements is one of this file's constants: a source database is
//! someone else's file, so nothing it names (a column, a table) is ever written into SQL, and a
//! column it has that this release does not know stops the import, named.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use wasm_core::{Email, Product};

use crate::store::clean_text;
use crate::store::column::{optional, required, Column, Kind};
use crate::store::lead_columns;
use crate::store::queued::SEPARATOR;
use crate::store::{Channel, Language, LeadStatus, Source, StoreError};

/// A table a lead lives in, with the columns this release's migrations give it (a test holds
/// the two together).
#[derive(Debug, PartialEq, Eq)]
pub struct Schema {
    pub name: &'static str,
    pub columns: &'static [Column],
}

/// The tables a lead lives in, in the order they are written (the outbox refers to the quote
/// requests, a consent record to its notice's text). The inbox's sign-in sessions stay behind:
/// people sign in again; the site's keys, the e-mail budget and the spent form tokens are the
/// target site's own. The consent records keep their chain: into an empty target, as they are.
/// A call's recording goes with its call, a chat's kept Yes (`conversation_consent.rs`), the
/// do-not-contact list and the notices' acceptances (`notice_acceptance.rs`) with the leads.
pub const TABLES: [Schema; 12] = [
    Schema {
        name: lead_columns::TABLE,
        columns: &lead_columns::COLUMNS,
    },
    Schema {
        name: "voice_calls",
        columns: &[
            required("call_id", Kind::Key),
            optional("ended_reason", Kind::Line),
            optional("summary", Kind::Text),
            optional("transcript", Kind::Text),
            required("reported_at", Kind::Timestamp),
            optional("recording_url", Kind::Line),
            optional("started_at", Kind::Timestamp),
            required("channel", Kind::Source),
            required("transcript_lines_dropped", Kind::Count),
            optional("legal_hold_at", Kind::Timestamp),
        ],
    },
    Schema {
        name: "call_recordings",
        columns: &[
            required("call_id", Kind::Key),
            required("source_url", Kind::Line),
            required("queued_at", Kind::Timestamp),
            required("attempts", Kind::Count),
            required("next_attempt_at", Kind::Timestamp),
            optional("claimed_until", Kind::Timestamp),
            optional("last_error", Kind::Line),
            optional("alerted_at", Kind::Timestamp),
            optional("gave_up_at", Kind::Timestamp),
            optional("stored_at", Kind::Timestamp),
            optional("content_type", Kind::Line),
            optional("sha256", Kind::Key),
            optional("size", Kind::Count),
            optional("audio", Kind::Bytes),
        ],
    },
    Schema {
        name: "lead_outbox",
        columns: &[
            required("quote_id", Kind::Uuid),
            required("channel", Kind::Channel),
            required("attempts", Kind::Count),
            required("next_attempt_at", Kind::Timestamp),
            optional("last_error", Kind::Line),
            optional("delivered_at", Kind::Timestamp),
            optional("gave_up_at", Kind::Timestamp),
            optional("held_at", Kind::Timestamp),
            optional("event", Kind::Reason),
            optional("event_at", Kind::Timestamp),
        ],
    },
    Schema {
        name: "notice_texts",
        columns: &[
            required("sha256", Kind::Key),
            required("text", Kind::Hashed),
        ],
    },
    Schema {
        name: "consent_records",
        columns: &[
            required("seq", Kind::Count),
            required("lead_id", Kind::Uuid),
            required("channel", Kind::Hashed),
            required("page", Kind::Hashed),
            required("language", Kind::Language),
            required("at", Kind::Timestamp),
            optional("client", Kind::Hashed),
            optional("user_agent", Kind::Hashed),
            optional("notice_sha256", Kind::Key),
            required("prev_hash", Kind::Key),
            required("hash", Kind::Key),
            optional("phone_consent", Kind::Reason),
            optional("phone_disclosure_sha256", Kind::Key),
            required("hash_form", Kind::Count),
            optional("email", Kind::Hashed),
            optional("phone", Kind::Hashed),
            optional("may_call", Kind::Hashed),
            required("kind", Kind::Hashed),
            optional("evidence", Kind::Hashed),
            optional("call_id", Kind::Key),
        ],
    },
    Schema {
        name: "chat_call_consents",
        columns: &[
            required("call_id", Kind::Key),
            required("disclosure", Kind::Hashed),
            required("language", Kind::Language),
            required("page", Kind::Key),
            optional("client", Kind::Key),
            optional("user_agent", Kind::UserAgent),
            required("answered_at", Kind::Timestamp),
        ],
    },
    Schema {
        name: "do_not_contact",
        columns: &[
            required("kind", Kind::Reason),
            required("value", Kind::Line),
            required("added_at", Kind::Timestamp),
            optional("lead_id", Kind::Uuid),
            optional("requested_at", Kind::Timestamp),
            optional("told_at", Kind::Timestamp),
        ],
    },
    Schema {
        name: "bookings",
        columns: &[
            required("id", Kind::Uuid),
            required("lead_id", Kind::Uuid),
            required("starts_at", Kind::Timestamp),
            required("ends_at", Kind::Timestamp),
            required("status", Kind::Reason),
            required("created_at", Kind::Timestamp),
            optional("cancelled_at", Kind::Timestamp),
            optional("soa_seq", Kind::Count),
        ],
    },
    Schema {
        name: "notice_acceptances",
        columns: &[
            required("call_id", Kind::Key),
            required("channel", Kind::Source),
            required("language", Kind::Language),
            required("sha256", Kind::Key),
            required("text", Kind::Hashed),
            required("accepted_at", Kind::Timestamp),
        ],
    },
    // A booking's e-mails still to send (its reminder) and those sent, so none goes twice.
    Schema {
        name: "booking_mails",
        columns: &[
            required("booking_id", Kind::Uuid),
            required("kind", Kind::Reason),
            required("due_at", Kind::Timestamp),
            required("attempts", Kind::Count),
            optional("last_error", Kind::Line),
            optional("claimed_until", Kind::Timestamp),
            optional("sent_at", Kind::Timestamp),
            optional("gave_up_at", Kind::Timestamp),
        ],
    },
    // The calendar feed's address the broker's calendar app already reads.
    Schema {
        name: "calendar_feed",
        columns: &[
            required("one", Kind::Count),
            required("secret", Kind::Key),
            required("created_at", Kind::Timestamp),
        ],
    },
];

/// A stored value: every column is text or an integer, but a recording's bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Null,
    Integer(i64),
    Text(String),
    Bytes(Vec<u8>),
}

impl Value {
    /// As an error names it: text quoted and escaped, so it stays on its line.
    fn shown(&self) -> String {
        match self {
            Value::Null => "NULL".into(),
            Value::Integer(n) => n.to_string(),
            Value::Text(text) => format!("{text:?}"),
            Value::Bytes(bytes) => format!("{} bytes", bytes.len()),
        }
    }
}

/// One table's rows, each with a value for each of its schema's columns, in their order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    pub schema: &'static Schema,
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

impl Schema {
    fn names(&self) -> String {
        self.columns
            .iter()
            .map(|c| c.name)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// Refuses a source table whose columns (`found`, as the source names them) are not this
    /// release's: a column it does not know is named, escaped, never read.
    pub(in crate::store) fn holds_only_known(&self, found: &[String]) -> Result<(), StoreError> {
        let unknown: Vec<&String> = found
            .iter()
            .filter(|name| !self.columns.iter().any(|c| c.name == name.as_str()))
            .collect();
        if let Some(name) = unknown.first() {
            return Err(StoreError::Unusable(
                format!(
                    "{}.{name:?} is not a column this release knows (the source's schema has been changed by hand?): nothing was imported",
                    self.name
                )
                .into(),
            ));
        }
        match self
            .columns
            .iter()
            .find(|c| !found.iter().any(|name| name == c.name))
        {
            Some(missing) => Err(StoreError::Unusable(
                format!(
                    "{}.{} is missing from the source: nothing was imported",
                    self.name, missing.name
                )
                .into(),
            )),
            None => Ok(()),
        }
    }

    /// `SELECT` of this release's columns, in their order.
    pub(in crate::store) fn select_sql(&self) -> String {
        format!("SELECT {} FROM {}", self.names(), self.name)
    }

    /// `INSERT INTO table (columns) VALUES ($1, ...) ON CONFLICT DO NOTHING`, which both
    /// databases read (SQLite takes `$n` as named parameters, bound in order of appearance here).
    pub(in crate::store) fn insert_sql(&self) -> String {
        let values: Vec<String> = (1..=self.columns.len()).map(|n| format!("${n}")).collect();
        format!(
            "INSERT INTO {} ({}) VALUES ({}) ON CONFLICT DO NOTHING",
            self.name,
            self.names(),
            values.join(", ")
        )
    }
}

impl Table {
    /// Every value passes its column's check as a new lead's would, free text cleaned as the
    /// server cleans what it stores; else the first that does not, with its row (counted from
    /// 1, in the source's order) and the row's key.
    pub fn admit(&mut self) -> Result<(), StoreError> {
        for (n, row) in self.rows.iter_mut().enumerate() {
            for (column, value) in self.schema.columns.iter().zip(row.iter_mut()) {
                if let Err(problem) = admit(column, value) {
                    return Err(StoreError::Unusable(
                        format!(
                            "{} row {} ({} {}): {} {problem}: nothing was imported",
                            self.schema.name,
                            n + 1,
                            self.schema.columns[0].name,
                            row.first().map_or_else(String::new, Value::shown),
                            column.name,
                        )
                        .into(),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// Checks `value`, cleaning it first when its column holds free text.
fn admit(column: &Column, value: &mut Value) -> Result<(), String> {
    if let Value::Text(text) = value {
        match column.kind {
            Kind::Line => *text = clean_text::line(text),
            Kind::UserAgent => *text = clean_text::user_agent(text),
            Kind::Text => *text = clean_text::text(text),
            _ => {}
        }
    }
    check(column, value)
}

fn check(column: &Column, value: &Value) -> Result<(), String> {
    let text = match (value, column.kind) {
        (Value::Null, _) if column.required => return Err("is empty".into()),
        (Value::Null, _) => return Ok(()),
        (Value::Integer(n), Kind::Count) if *n >= 0 => return Ok(()),
        (Value::Integer(n), _) => return Err(format!("is {n}, not {}", expected(column.kind))),
        (Value::Bytes(_), Kind::Bytes) => return Ok(()),
        (Value::Bytes(bytes), _) => {
            return Err(format!(
                "is {} bytes, not {}",
                bytes.len(),
                expected(column.kind)
            ))
        }
        (Value::Text(text), _) => text,
    };
    let fits = match column.kind {
        Kind::Uuid => uuid::Uuid::try_parse(text).is_ok_and(|id| id.to_string() == *text),
        Kind::Product => Product::parse(text).is_some_and(|p| p.as_str() == text),
        Kind::Email => Email::parse(text).is_some_and(|e| e.as_str() == text),
        Kind::Source => Source::parse(text).is_some(),
        Kind::Status => LeadStatus::parse(text).is_some(),
        Kind::Language => Language::parse(text).is_some(),
        Kind::Channel => Channel::parse(text).is_some(),
        Kind::Channels => text
            .split(SEPARATOR)
            .all(|name| Channel::parse(name).is_some()),
        Kind::Timestamp => OffsetDateTime::parse(text, &Rfc3339).is_ok(),
        Kind::Reason => {
            !text.is_empty() && text.bytes().all(|b| b.is_ascii_lowercase() || b == b'_')
        }
        Kind::Key => !text.chars().any(char::is_control),
        Kind::Line | Kind::UserAgent | Kind::Text | Kind::Hashed => true,
        Kind::Count | Kind::Bytes => false,
    };
    if fits {
        Ok(())
    } else {
        Err(format!("is {text:?}, not {}", expected(column.kind)))
    }
}

fn expected(kind: Kind) -> &'static str {
    match kind {
        Kind::Uuid => "a lowercase hyphenated UUID",
        Kind::Product => "one of the products",
        Kind::Email => "a valid e-mail address",
        Kind::Source => "web, voice or chat",
        Kind::Status => "one of the lead statuses",
        Kind::Language => "en or es",
        Kind::Channel => "webhook, email or follow_up",
        Kind::Channels => "channels separated by commas",
        Kind::Timestamp => "an RFC 3339 timestamp",
        Kind::Reason => "a lowercase name",
        Kind::Key => "text on one line",
        Kind::Line | Kind::UserAgent | Kind::Text | Kind::Hashed => "text",
        Kind::Count => "an integer of zero or more",
        Kind::Bytes => "bytes",
    }
}

/// A column type neither store uses: a schema this code does not know.
pub(in crate::store) fn unknown_type(table: &str, column: &str, kind: &str) -> StoreError {
    StoreError::Database(
        format!("{table}.{column} holds a {kind}, neither text, an integer nor bytes").into(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::migrations::migrate;

    /// The columns the migrations give each table, as SQLite lists them.
    fn migrated_columns(table: &str) -> Vec<(String, bool)> {
        let mut conn = rusqlite::Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        let mut statement = conn
            .prepare("SELECT name, \"notnull\" FROM pragma_table_info(?1) ORDER BY cid")
            .unwrap();
        statement
            .query_map([table], |row| Ok((row.get(0)?, row.get(1)?)))
            .unwrap()
            .collect::<Result<_, _>>()
            .unwrap()
    }

    #[test]
    fn the_known_columns_are_the_migrations_own() {
        for schema in &TABLES {
            let ours: Vec<(String, bool)> = schema
                .columns
                .iter()
                .map(|c| (c.name.to_owned(), c.required))
                .collect();
            let mut migrated = migrated_columns(schema.name);
            // A primary key is never empty, whether or not SQLite says NOT NULL.
            migrated[0].1 = true;
            assert_eq!(ours, migrated, "{}", schema.name);
        }
    }

    #[test]
    fn statements_name_only_the_known_columns() {
        let outbox = &TABLES[3];
        assert_eq!(
            outbox.select_sql(),
            "SELECT quote_id, channel, attempts, next_attempt_at, last_error, delivered_at, gave_up_at, held_at, event, event_at FROM lead_outbox"
        );
        assert!(outbox.insert_sql().ends_with(
            "event_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING"
        ));
    }

    #[test]
    fn a_source_column_this_release_does_not_know_is_named_and_refused() {
        let calls = &TABLES[1];
        let mut found: Vec<String> = calls.columns.iter().map(|c| c.name.to_owned()).collect();
        calls.holds_only_known(&found).unwrap();
        found.push("x\") SELECT value FROM site_keys --".into());
        let refused = calls.holds_only_known(&found).unwrap_err().to_string();
        assert!(
            refused
                .contains(r#"voice_calls."x\") SELECT value FROM site_keys --" is not a column"#),
            "{refused}"
        );
        found.retain(|name| name != "summary" && !name.starts_with('x'));
        let refused = calls.holds_only_known(&found).unwrap_err().to_string();
        assert!(
            refused.contains("voice_calls.summary is missing"),
            "{refused}"
        );
    }

    /// A lead's row changed by `change`, as the import takes it.
    fn lead(change: impl FnOnce(&mut Vec<Value>)) -> Result<Vec<Value>, String> {
        let text = |t: &str| Value::Text(t.into());
        let mut row = vec![
            text("0190a0b0-0000-7000-8000-000000000001"),
            text("family"),
            text("ana@example.com"),
            text("web"),
            Value::Null,
            text("2026-11-27T10:00:00.000Z"),
            Value::Null,
            Value::Null,
            Value::Null,
            text("new"),
            Value::Null,
            text("webhook,email"),
            text("Call after 5.\nAsk for Ana."),
            Value::Null,
            text("es"),
        ];
        change(&mut row);
        let mut table = Table {
            schema: &TABLES[0],
            rows: vec![row],
        };
        table.admit().map_err(|e| e.to_string())?;
        Ok(table.rows.remove(0))
    }

    #[test]
    fn every_value_passes_a_new_leads_checks() {
        lead(|_| {}).unwrap();
        let text = |t: &str| Value::Text(t.into());
        for (column, bad, message) in [
            (
                0,
                text("1\r\nBcc: x"),
                r#"id is "1\r\nBcc: x", not a lowercase hyphenated UUID"#,
            ),
            (
                0,
                text("0190A0B0-0000-7000-8000-000000000001"),
                "not a lowercase",
            ),
            (
                1,
                text("dental"),
                r#"product is "dental", not one of the products"#,
            ),
            (2, text("not an address"), "not a valid e-mail address"),
            (3, text("fax"), "not web, voice or chat"),
            (
                6,
                text("call\t1"),
                r#"call_id is "call\t1", not text on one line"#,
            ),
            (5, text("yesterday"), "not an RFC 3339 timestamp"),
            (5, Value::Null, "created_at is empty"),
            (9, text("won"), "not one of the lead statuses"),
            (11, text("webhook,fax"), "not channels separated by commas"),
            (13, text("x'; DROP"), "not a lowercase name"),
            (14, text("fr"), "not en or es"),
            (
                1,
                Value::Integer(3),
                "product is 3, not one of the products",
            ),
        ] {
            let refused = lead(|row| row[column] = bad).unwrap_err();
            assert!(refused.contains(message), "{refused}");
            assert!(
                refused.starts_with("quote_requests row 1 (id "),
                "the row is named: {refused}"
            );
        }
    }

    #[test]
    fn free_text_is_cleaned_as_the_server_cleans_it() {
        let text = |t: &str| Value::Text(t.into());
        let row = lead(|row| {
            row[4] = text(&format!("Mozilla/5.0\t(X11)\u{85}{}", "x".repeat(600)));
            row[12] = text("Call after 5.\r\nAsk \u{9b}2Jfor Ana.");
        })
        .unwrap();
        let Value::Text(agent) = &row[4] else {
            panic!("{:?}", row[4])
        };
        assert!(agent.starts_with("Mozilla/5.0 (X11) x"), "{agent}");
        assert_eq!(agent.chars().count(), clean_text::MAX_USER_AGENT_CHARS);
        assert_eq!(row[12], text("Call after 5.\nAsk  2Jfor Ana."));
    }
}
