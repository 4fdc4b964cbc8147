//! A table's column as the store declares it: its name (a constant, never a source database's:
//! `table_copy`), what its every value must be, and whether it may be empty.

/// What a column's every value must be, as a new lead's would.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// A lead's id: a UUID, hyphenated and lowercase, as the server writes it.
    Uuid,
    Product,
    Email,
    Source,
    Status,
    Language,
    Channel,
    /// The channels a lead is still queued on (`queued::QueuedChannels`).
    Channels,
    /// A timestamp as the store writes it (RFC 3339).
    Timestamp,
    /// Why a lead is held as spam: a lowercase name (`too_fast`, `marked`).
    Reason,
    /// Text on one line that names something (an id, a key, a hash): refused with a control
    /// character, which cleaning would turn into another name.
    Key,
    /// Free text on one line (a reason, an error, a link), cleaned as the server cleans it
    /// (`clean_text::line`).
    Line,
    /// A browser's `User-Agent`, cleaned and cut as the server does (`clean_text::user_agent`).
    UserAgent,
    /// Text that may run over lines (a transcript, a note), cleaned as the server cleans it
    /// (`clean_text::text`).
    Text,
    /// Text a hash covers (a consent record's field, a notice's text): taken as it is, since
    /// changing a byte would break the hash; it is only ever a parameter of a statement.
    Hashed,
    /// An integer of zero or more.
    Count,
    /// Bytes as they were stored (a call's recording).
    Bytes,
}

/// One column: its name, its kind, and whether it may be empty.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    pub name: &'static str,
    pub kind: Kind,
    pub required: bool,
}

pub const fn required(name: &'static str, kind: Kind) -> Column {
    Column {
        name,
        kind,
        required: true,
    }
}

pub const fn optional(name: &'static str, kind: Kind) -> Column {
    Column {
        name,
        kind,
        required: false,
    }
}
