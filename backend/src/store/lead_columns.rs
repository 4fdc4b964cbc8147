//! The lead table, `quote_requests`, column by column, declared once: what the table copy checks
//! each value against (`table_copy`, held to the migrations by its test), and where a new quote's
//! value comes from (`insert_quote.rs`). `queries::SELECT_QUOTES` selects every one, `rows.rs`
//! reads them by these names. A column a migration adds is added here, and read in `rows.rs`.

use super::column::{optional, required, Column, Kind};
use super::model::{LeadStatus, NewQuote};

pub const TABLE: &str = "quote_requests";

pub const ID: &str = "id";
pub const PRODUCT: &str = "product";
pub const EMAIL: &str = "email";
pub const SOURCE: &str = "source";
pub const USER_AGENT: &str = "user_agent";
pub const CREATED_AT: &str = "created_at";
pub const CALL_ID: &str = "call_id";
pub const TOOL_CALL_ID: &str = "tool_call_id";
pub const IDEMPOTENCY_KEY: &str = "idempotency_key";
pub const STATUS: &str = "status";
pub const STATUS_CHANGED_AT: &str = "status_changed_at";
pub const QUEUED_CHANNELS: &str = "queued_channels";
pub const NOTE: &str = "note";
pub const SPAM: &str = "spam";
pub const LANGUAGE: &str = "language";
pub const PHONE: &str = "phone";
pub const MAY_CALL: &str = "may_call";
pub const ZIP: &str = "zip";
pub const STATE: &str = "state";
pub const DO_NOT_CONTACT_AT: &str = "do_not_contact_at";

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

/// Every column in the migrations' order, with a new quote's value for it.
pub const COLUMNS: [(Column, NewValue); 20] = [
    (required(ID, Kind::Uuid), |v| Some(v.id.as_str())),
    (required(PRODUCT, Kind::Product), |v| {
        Some(v.quote.request.product().as_str())
    }),
    (required(EMAIL, Kind::Email), |v| {
        Some(v.quote.request.email().as_str())
    }),
    (required(SOURCE, Kind::Source), |v| {
        Some(v.quote.source.as_str())
    }),
    (optional(USER_AGENT, Kind::UserAgent), |v| {
        v.quote.user_agent.as_deref()
    }),
    (required(CREATED_AT, Kind::Timestamp), |v| {
        Some(v.created_at.as_str())
    }),
    (optional(CALL_ID, Kind::Key), |v| {
        v.quote.voice.as_ref().map(|o| o.call_id.as_str())
    }),
    (optional(TOOL_CALL_ID, Kind::Key), |v| {
        v.quote.voice.as_ref().map(|o| o.tool_call_id.as_str())
    }),
    (optional(IDEMPOTENCY_KEY, Kind::Key), |v| {
        v.quote.idempotency_key.as_deref()
    }),
    (required(STATUS, Kind::Status), |_| {
        Some(LeadStatus::New.as_str())
    }),
    (optional(STATUS_CHANGED_AT, Kind::Timestamp), |_| None),
    (optional(QUEUED_CHANNELS, Kind::Channels), |v| {
        v.queued_channels
    }),
    (optional(NOTE, Kind::Text), |_| None),
    (optional(SPAM, Kind::Reason), |v| v.quote.spam),
    (required(LANGUAGE, Kind::Language), |v| {
        Some(v.quote.language.as_str())
    }),
    (optional(PHONE, Kind::Key), |v| {
        v.quote.contact.phone.as_deref()
    }),
    (optional(MAY_CALL, Kind::Reason), |v| {
        v.quote.contact.may_call_text()
    }),
    (optional(ZIP, Kind::Key), |v| v.quote.contact.zip.as_deref()),
    (optional(STATE, Kind::Key), |v| {
        v.quote.contact.state.as_deref()
    }),
    (optional(DO_NOT_CONTACT_AT, Kind::Timestamp), |_| None),
];

/// `COLUMNS` as the table copy takes them.
pub const COPIED: [Column; COLUMNS.len()] = {
    let mut copied = [COLUMNS[0].0; COLUMNS.len()];
    let mut i = 1;
    while i < COLUMNS.len() {
        copied[i] = COLUMNS[i].0;
        i += 1;
    }
    copied
};

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
    pub fn values(&self) -> [Option<&str>; COLUMNS.len()] {
        COLUMNS.map(|(_, value)| value(self))
    }
}
