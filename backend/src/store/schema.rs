//! The OpenAPI schemas (`routes/openapi`) of values the store keeps and answers as text, where
//! the text is one of a few words: the column is a string, the document names the words.

use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::Object;

/// Bytes kept as they came (a recording, a ZIP of records): a binary body.
pub struct Binary;

impl utoipa::PartialSchema for Binary {
    fn schema() -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(utoipa::openapi::SchemaFormat::KnownFormat(
                utoipa::openapi::KnownFormat::Binary,
            )))
            .into()
    }
}

impl utoipa::ToSchema for Binary {}

/// A body the code reads by hand: a reference to the schema `routes/openapi` writes for it.
pub fn written(name: &str) -> utoipa::openapi::RefOr<utoipa::openapi::Schema> {
    utoipa::openapi::RefOr::Ref(utoipa::openapi::Ref::from_schema_name(name))
}

/// A string that is one of `words`.
pub fn words(words: &[&str]) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(words.iter().copied()))
        .build()
}

/// A string that is one of `words`, or null.
pub fn words_or_null(words: &[&str]) -> Object {
    ObjectBuilder::new()
        .schema_type(utoipa::openapi::schema::SchemaType::from_iter([
            Type::String,
            Type::Null,
        ]))
        .enum_values(Some(
            words
                .iter()
                .map(|word| serde_json::Value::from(*word))
                .chain([serde_json::Value::Null]),
        ))
        .build()
}

/// `StoredQuote::spam_reason`: a post's signal (`spam::Signal`) or `marked` by the broker.
pub fn spam_reason() -> Object {
    words_or_null(&[
        "honeypot",
        "no_token",
        "bad_token",
        "expired_token",
        "too_fast",
        "reused_token",
        "marked",
    ])
}

/// `consent::Consent::page`: the page the notice was on.
pub fn consent_page() -> Object {
    words(&["/", "/es/"])
}

/// `consent::Link::may_call`: with a phone number, whether the visitor may be called.
pub fn may_call() -> Object {
    words_or_null(&["yes", "no"])
}

/// `Conversation::channel`: a `Source`, never `web`.
pub fn conversation_channel() -> Object {
    words(&["voice", "chat"])
}

/// `RecordingState::status`.
pub fn recording_status() -> Object {
    words(&["stored", "pending", "failed"])
}

/// `bookings::Booking::status`.
pub fn booking_status() -> Object {
    words(&["booked", "cancelled"])
}

/// `bookings::SoaShown::products`: the product types a Scope of Appointment lists.
pub fn soa_products() -> utoipa::openapi::schema::Array {
    utoipa::openapi::schema::Array::new(words(&[
        "medicare_advantage",
        "part_d",
        "medicare_supplement",
        "dental_vision_hearing",
    ]))
}
