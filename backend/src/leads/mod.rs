//! A lead's life after it is stored: how the broker reads it (the CSV document, a call's ended
//! reason in words, the day or time a listing starts at, the type its call's recording is served
//! as), and how it ends (deleted whole, on the
//! broker's request or past the retention limit, on one timer).

pub mod audit_copy;
pub mod booking_link;
pub mod booking_ref;
pub mod booking_words;
pub mod calendar;
pub mod consent_link;
pub mod csv;
pub mod deletion;
pub mod ended_reason;
pub mod licence;
pub mod notice;
pub mod recording_type;
pub mod retention;
pub mod signed_lead;
pub mod since;

/// A web lead in English of 2026-11-22 09:30 UTC with nothing but its id and address, for a
/// test to change what it looks at.
#[cfg(test)]
pub(crate) fn example_lead(id: &str, email: &str) -> crate::store::StoredQuote {
    crate::store::StoredQuote {
        id: id.into(),
        created_at: time::macros::datetime!(2026-11-22 09:30 UTC),
        product: wasm_core::Product::Family,
        email: email.into(),
        source: crate::store::Source::Web,
        user_agent: None,
        call_id: None,
        call_ended_reason: None,
        call_summary: None,
        delivery: None,
        status: Default::default(),
        status_changed_at: None,
        spam_reason: None,
        note: None,
        language: crate::store::Language::En,
        consent: None,
        contact: Default::default(),
        call_consent: None,
        written_later: None,
        licensed: None,
    }
}
