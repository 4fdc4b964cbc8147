//! The lead table, `quote_requests`, column by column, declared once: each column's name, and
//! what the table copy checks its values against (`table_copy`, held to the migrations by its
//! test). A new quote's insert is written from it (`insert_quote.rs`, a value for each),
//! `lead_queries::SELECT_QUOTES` selects every one and `rows.rs` reads them by these names.
//! Besides this file only `migrations.rs` and `lead_queries.rs` name a column (the test below).

use super::column::{optional, required, Column, Kind};

pub const TABLE: &str = "quote_requests";

/// Declares each column's name as a constant and `COLUMNS`, one line a column: the constant, the
/// name, whether it may be empty and its kind (`column::Kind`).
macro_rules! columns {
    ($($constant:ident $name:literal $presence:ident $kind:ident;)*) => {
        $(pub const $constant: &str = $name;)*

        /// Every column, in the migrations' order.
        pub const COLUMNS: [Column; [$($name),*].len()] = [$($presence($constant, Kind::$kind)),*];
    };
}

columns! {
    ID "id" required Uuid;
    PRODUCT "product" required Product;
    EMAIL "email" required Email;
    SOURCE "source" required Source;
    USER_AGENT "user_agent" optional UserAgent;
    CREATED_AT "created_at" required Timestamp;
    CALL_ID "call_id" optional Key;
    TOOL_CALL_ID "tool_call_id" optional Key;
    IDEMPOTENCY_KEY "idempotency_key" optional Key;
    STATUS "status" required Status;
    STATUS_CHANGED_AT "status_changed_at" optional Timestamp;
    QUEUED_CHANNELS "queued_channels" optional Channels;
    NOTE "note" optional Text;
    SPAM "spam" optional Reason;
    LANGUAGE "language" required Language;
    PHONE "phone" optional Key;
    MAY_CALL "may_call" optional Reason;
    ZIP "zip" optional Key;
    STATE "state" optional Key;
    DO_NOT_CONTACT_AT "do_not_contact_at" optional Timestamp;
}

#[cfg(test)]
mod tests {
    use std::fs;
    use std::path::{Path, PathBuf};

    /// Columns no other table has: a string naming one is about the lead.
    const LEAD_ONLY: &str = "tool_call_id idempotency_key status_changed_at queued_channels note
        zip state do_not_contact_at";
    /// The declaration, the schema's history, the statements and the suite.
    const NAMING: &str = "lead_columns.rs migrations.rs lead_queries.rs suite.rs";

    /// A column's change is found in three files: no other file of the store names a column in a
    /// string, its tests aside.
    #[test]
    fn only_the_declaration_the_migrations_and_the_lead_queries_name_a_column() {
        let mut files = Vec::new();
        let store = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/store");
        rust_files(&store, &mut files);
        files.retain(|file| !NAMING.split_whitespace().any(|name| file.ends_with(name)));
        let named: Vec<String> = files.iter().flat_map(|f| lead_only_in_strings(f)).collect();
        assert!(named.is_empty(), "named outside lead_queries.rs: {named:?}");
    }

    /// The `LEAD_ONLY` words in `file`'s string literals, its tests and comment lines left out.
    fn lead_only_in_strings(file: &Path) -> Vec<String> {
        let source = fs::read_to_string(file).unwrap();
        let code = source.split("#[cfg(test)]\nmod tests").next().unwrap();
        let lines = code.lines().filter(|l| !l.trim_start().starts_with("//"));
        let code = lines.collect::<Vec<_>>().join("\n").replace("'\"'", "");
        let code = code.replace("\\\\", "").replace("\\\"", "");
        let strings = code.split('"').skip(1).step_by(2);
        let words = strings.flat_map(|s| s.split(|c: char| !c.is_alphanumeric() && c != '_'));
        let lead_only = words.filter(|word| LEAD_ONLY.split_whitespace().any(|c| c == *word));
        lead_only.map(|c| format!("{file:?}: {c}")).collect()
    }

    fn rust_files(dir: &Path, files: &mut Vec<PathBuf>) {
        for path in fs::read_dir(dir).unwrap().map(|e| e.unwrap().path()) {
            match path.is_dir() {
                true => rust_files(&path, files),
                false => files.extend(path.extension().is_some_and(|e| e == "rs").then_some(path)),
            }
        }
    }
}
