//! The lead table, `quote_requests`, column by column, declared once: each column's name, and
//! what the table copy checks its values against (`table_copy`, held to the migrations by its
//! test). A new quote's insert is written from it (`insert_quote.rs`, a value for each),
//! `queries::SELECT_QUOTES` selects every one and `rows.rs` reads them by these names.

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

/// What the store reads as `DO_NOT_CONTACT_AT` of the lead `q`: when it was marked do not
/// contact, or its person's phone number or e-mail address put on the do-not-contact list
/// (`do_not_contact.rs`); NULL when neither. A literal, so that statements take it in with
/// `concat!`.
macro_rules! do_not_contact_now {
    () => {
        "COALESCE(q.do_not_contact_at,
            (SELECT d.added_at FROM do_not_contact d
             WHERE d.kind = 'email' AND d.value = LOWER(q.email)),
            (SELECT d.added_at FROM do_not_contact d
             WHERE d.kind = 'phone' AND d.value = q.phone))"
    };
}
pub(super) use do_not_contact_now;
