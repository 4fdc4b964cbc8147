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
