use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use uuid::Uuid;
use wasm_core::QuoteRequest;

use crate::limits::MAX_USER_AGENT_CHARS;

/// Where a quote request came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Web,
}

impl Source {
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Web => "web",
        }
    }
}

/// A valid quote request about to be stored, with the identity it will keep.
#[derive(Clone, Debug)]
pub struct NewQuote {
    pub id: Uuid,
    pub request: QuoteRequest,
    pub source: Source,
    pub user_agent: Option<String>,
    pub created_at: OffsetDateTime,
}

impl NewQuote {
    pub fn new(request: QuoteRequest, source: Source, user_agent: Option<&str>) -> NewQuote {
        NewQuote {
            id: Uuid::now_v7(),
            request,
            source,
            user_agent: user_agent.map(|ua| ua.chars().take(MAX_USER_AGENT_CHARS).collect()),
            created_at: OffsetDateTime::now_utc(),
        }
    }

    /// RFC 3339 in UTC with fixed millisecond precision, so text order is time order.
    pub fn created_at_text(&self) -> String {
        format_timestamp(self.created_at)
    }
}

pub fn format_timestamp(at: OffsetDateTime) -> String {
    let at = at.to_offset(time::UtcOffset::UTC);
    let at = at.replace_nanosecond(at.millisecond() as u32 * 1_000_000).unwrap_or(at);
    at.format(&Rfc3339).unwrap_or_default()
}

/// A quote request as read back from the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct StoredQuote {
    pub id: String,
    pub product: String,
    pub email: String,
    pub source: String,
    pub user_agent: Option<String>,
    pub created_at: String,
}
