//! The lead table, `quote_requests`, column by column, declared once: what the table copy checks
//! each value against (`table_copy`, held to the migrations by its test), and where a new quote's
//! value comes from (`insert_quote.rs`). `queries::SELECT_QUOTES` selects every one, `rows.rs`
//! reads them by these names. A column a migration adds is added here, and read in `rows.rs`.

use super::column::{optional, required, Column, Kind};
use super::model::{LeadStatus, NewQuote};

pub const TABLE: &str = "quote_requests";

/// Declares each column's name as a constant and `COLUMNS`, one line a column: the constant, the
/// name, whether it may be empty, its kind (`column::Kind`) and a new quote's value.
macro_rules! columns {
    ($($constant:ident $name:literal $presence:ident $kind:ident $new:expr;)*) => {
        $(pub const $constant: &str = $name;)*

        /// Every column, in the migrations' order.
        pub const COLUMNS: [Column; [$($name),*].len()] = [$($presence($constant, Kind::$kind)),*];
        /// A new quote's value for each of `COLUMNS`, in their order.
        pub const NEW_VALUES: [NewValue; COLUMNS.len()] = [$($new),*];
    };
}

columns! {
    ID "id" required Uuid |v| Some(v.id.as_str());
    PRODUCT "product" required Product |v| Some(v.quote.request.product().as_str());
    EMAIL "email" required Email |v| Some(v.quote.request.email().as_str());
    SOURCE "source" required Source |v| Some(v.quote.source.as_str());
    USER_AGENT "user_agent" optional UserAgent |v| v.quote.user_agent.as_deref();
    CREATED_AT "created_at" required Timestamp |v| Some(v.created_at.as_str());
    CALL_ID "call_id" optional Key |v| v.quote.voice.as_ref().map(|o| o.call_id.as_str());
    TOOL_CALL_ID "tool_call_id" optional Key
        |v| v.quote.voice.as_ref().map(|o| o.tool_call_id.as_str());
    IDEMPOTENCY_KEY "idempotency_key" optional Key |v| v.quote.idempotency_key.as_deref();
    STATUS "status" required Status |_| Some(LeadStatus::New.as_str());
    STATUS_CHANGED_AT "status_changed_at" optional Timestamp |_| None;
    QUEUED_CHANNELS "queued_channels" optional Channels |v| v.queued_channels;
    NOTE "note" optional Text |_| None;
    SPAM "spam" optional Reason |v| v.quote.spam;
    LANGUAGE "language" required Language |v| Some(v.quote.language.as_str());
    PHONE "phone" optional Key |v| v.quote.contact.phone.as_deref();
    MAY_CALL "may_call" optional Reason |v| v.quote.contact.may_call_text();
    ZIP "zip" optional Key |v| v.quote.contact.zip.as_deref();
    STATE "state" optional Key |v| v.quote.contact.state.as_deref();
    DO_NOT_CONTACT_AT "do_not_contact_at" optional Timestamp |_| None;
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

/// A new quote's value for one column. Every one is text (the group commit sends each column as
/// a `text[]`); a column the inbox sets later starts as its migration's default would.
type NewValue = for<'a> fn(&'a QuoteValues<'a>) -> Option<&'a str>;

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

    /// `insert_quote::INSERT_QUOTE`'s parameters.
    pub fn values(&self) -> [Option<&str>; NEW_VALUES.len()] {
        NEW_VALUES.map(|value| value(self))
    }
}
