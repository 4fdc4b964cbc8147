//! `X-Request-Id`: every response carries one, and every log line written while its request is
//! handled (the request log's among them) carries it as `request_id` in its `span`, so one
//! request's lines can be found together and matched with what a proxy logged about it.
//!
//! The accept loop (`connections`) asks for an id per request (`RequestId::for_request`). A
//! trusted proxy's (`TRUSTED_PROXIES`) id is kept, so the proxy's log and ours share it; anyone
//! else's is replaced by a fresh one, since a client could otherwise write what it likes into
//! our logs or make two requests look like one.
//!
//! The id is a field of the tracing span named `request` that the request's future runs in
//! (`connections`), so tracing-subscriber's JSON formatter writes it on every line.

use uuid::Uuid;
use warp::http::{HeaderMap, HeaderName, HeaderValue};

pub const HEADER: HeaderName = HeaderName::from_static("x-request-id");
/// The longest id kept: proxies send a UUID (Caddy), 32 hex digits (nginx) or up to 200
/// characters (Heroku's router).
const MAX_LEN: usize = 200;

/// One request's id, as the response header carries it.
#[derive(Clone, Debug)]
pub struct RequestId(HeaderValue);

impl RequestId {
    /// The id a trusted proxy (`proxied`) sent, when it sent exactly one and `valid` says so;
    /// otherwise a new UUIDv7.
    pub fn for_request(headers: &HeaderMap, proxied: bool) -> RequestId {
        let mut sent = headers.get_all(&HEADER).iter();
        match (sent.next(), sent.next()) {
            (Some(id), None) if proxied && valid(id.as_bytes()) => RequestId(id.clone()),
            _ => RequestId::generate(),
        }
    }

    fn generate() -> RequestId {
        let mut text = [0; uuid::fmt::Hyphenated::LENGTH];
        let text = Uuid::now_v7().hyphenated().encode_lower(&mut text);
        RequestId(HeaderValue::from_str(text).expect("a UUID is a valid header value"))
    }

    /// The id as text: only `valid` characters or a UUID's, so always ASCII.
    pub fn as_str(&self) -> &str {
        self.0.to_str().unwrap_or_default()
    }

    pub fn header(&self) -> HeaderValue {
        self.0.clone()
    }
}

/// The header as the OpenAPI document (`routes/openapi`) describes it: what `valid` keeps.
pub fn header_schema() -> utoipa::openapi::header::Header {
    use utoipa::openapi::schema::{ObjectBuilder, Type};
    utoipa::openapi::header::Header::builder()
        .schema(
            ObjectBuilder::new()
                .schema_type(Type::String)
                .min_length(Some(1))
                .max_length(Some(MAX_LEN))
                .pattern(Some("^[A-Za-z0-9_.:+/=~@-]+$")),
        )
        .description(Some(
            "The request's id, also on every log line of the request (span.request_id). A valid \
             one sent by a trusted proxy (TRUSTED_PROXIES) is kept: 1 to 200 letters, digits and \
             -_.:+/=~@. Otherwise, or from anyone else, a new UUIDv7.",
        ))
        .build()
}

/// 1 to `MAX_LEN` characters from letters, digits and `-_.:+/=~@`: what proxies send, and
/// nothing that needs quoting in a log line or shell.
fn valid(id: &[u8]) -> bool {
    (1..=MAX_LEN).contains(&id.len())
        && id
            .iter()
            .all(|b| b.is_ascii_alphanumeric() || b"-_.:+/=~@".contains(b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(ids: &[&'static str]) -> HeaderMap {
        let mut headers = HeaderMap::new();
        for id in ids {
            headers.append(HEADER, HeaderValue::from_static(id));
        }
        headers
    }

    fn is_uuid_v7(id: &RequestId) -> bool {
        Uuid::parse_str(id.0.to_str().unwrap()).is_ok_and(|uuid| uuid.get_version_num() == 7)
    }

    #[test]
    fn a_trusted_proxys_valid_id_is_kept() {
        for sent in [
            "0b6f5a52-4c1c-4f43-9a4e-2a9a8d3c6e11",
            "9f86d081884c7d659a2feaa0c55ad015",
            "abc+/=-_.:~@XYZ",
        ] {
            let id = RequestId::for_request(&headers(&[sent]), true);
            assert_eq!(id.header(), sent);
        }
    }

    #[test]
    fn anyone_elses_or_an_invalid_one_is_replaced_by_a_fresh_uuid() {
        let long: &'static str = "a".repeat(MAX_LEN + 1).leak();
        for (sent, proxied) in [
            (&["from-the-client"][..], false),
            (&[][..], true),
            (&[""][..], true),
            (&[long][..], true),
            (&["two words"][..], true),
            (&["quote\"d"][..], true),
            (&["one", "two"][..], true),
        ] {
            let id = RequestId::for_request(&headers(sent), proxied);
            assert!(is_uuid_v7(&id), "{sent:?} {proxied}: {id:?}");
        }
        assert!(valid("a".repeat(MAX_LEN).as_bytes()));
        let a = RequestId::for_request(&HeaderMap::new(), false);
        let b = RequestId::for_request(&HeaderMap::new(), false);
        assert_ne!(a.header(), b.header());
    }
}
