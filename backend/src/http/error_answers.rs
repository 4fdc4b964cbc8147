//! The error answers as the OpenAPI document (`routes/openapi`) describes them: under
//! `components/responses` by name, and the groups a path's `responses(...)` lists them by.

use std::collections::BTreeMap;

use utoipa::openapi::header::Header;
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, Ref, RefOr, Response, ResponseBuilder};
use utoipa::IntoResponses;

/// `components/responses`, by name.
pub fn components() -> Vec<(&'static str, Response)> {
    vec![
        (
            ERROR,
            error("An error, with a code and a message for people.").build(),
        ),
        (
            UNAVAILABLE,
            error(
                "The database cannot be reached just now (database_unavailable), or, on sign-in, \
                 too many password checks are waiting server-wide (sign_in_busy, which counts as \
                 a failed sign-in of the caller's network); try again after Retry-After seconds.",
            )
            .header("Retry-After", retry_after())
            .build(),
        ),
        (
            UNAUTHORIZED,
            error(
                "No valid credentials: the bearer token is missing or wrong, or the session \
                 cookie is missing, unknown or expired (unauthorized).",
            )
            .header(
                "WWW-Authenticate",
                Header::builder()
                    .schema(crate::store::schema::words(&["Bearer"]))
                    .description(Some("Sent when ADMIN_TOKEN is set."))
                    .build(),
            )
            .build(),
        ),
        (
            CROSS_SITE,
            error(
                "A request acting with the session cookie did not come from the site's own \
                 pages (cross_site_request); nothing changed.",
            )
            .build(),
        ),
        (
            TOO_MANY_FAILED_ATTEMPTS,
            error(
                "Five failed sign-ins (a wrong admin token, password or voice webhook secret, \
                 counted together) from this client, or twenty from its IPv6 /48 or IPv4 /24, in \
                 15 minutes (too_many_failed_attempts); every attempt is refused until \
                 Retry-After seconds have passed.",
            )
            .header("Retry-After", retry_after())
            .build(),
        ),
    ]
}

const ERROR: &str = "Error";
const UNAVAILABLE: &str = "Unavailable";
const UNAUTHORIZED: &str = "Unauthorized";
const CROSS_SITE: &str = "CrossSite";
const TOO_MANY_FAILED_ATTEMPTS: &str = "TooManyFailedAttempts";

/// A JSON `ErrorBody` answer, described.
pub fn error(description: &str) -> ResponseBuilder {
    ResponseBuilder::new().description(description).content(
        "application/json",
        ContentBuilder::new()
            .schema(Some(Ref::from_schema_name("ErrorBody")))
            .build(),
    )
}

/// `Retry-After`: whole seconds, at least 1 (`http::error::retry_after_secs`).
pub fn retry_after() -> Header {
    Header::new(
        ObjectBuilder::new()
            .schema_type(Type::Integer)
            .minimum(Some(1)),
    )
}

type Answers = BTreeMap<String, RefOr<Response>>;

fn refs(pairs: &[(u16, &str)]) -> Answers {
    pairs
        .iter()
        .map(|(status, name)| {
            (
                status.to_string(),
                RefOr::Ref(Ref::from_response_name(*name)),
            )
        })
        .collect()
}

/// `Error` under each of `statuses`.
pub fn errors(statuses: &[u16]) -> Answers {
    let pairs: Vec<_> = statuses.iter().map(|status| (*status, ERROR)).collect();
    refs(&pairs)
}

/// The groups of answers a path's `responses(...)` names: each status with the component it
/// refers to.
macro_rules! groups {
    ($($(#[$doc:meta])* $name:ident: $($status:literal => $answer:expr),+;)+) => {$(
        $(#[$doc])*
        pub struct $name;

        impl IntoResponses for $name {
            fn responses() -> Answers {
                refs(&[$(($status, $answer)),+])
            }
        }
    )+};
}

groups! {
    /// Every admin operation's: no credentials, too many wrong ones, the server's fault, the
    /// database away.
    AdminErrors: 401 => UNAUTHORIZED, 429 => TOO_MANY_FAILED_ATTEMPTS, 500 => ERROR, 503 => UNAVAILABLE;
    /// A bad parameter or body (400).
    BadRequest: 400 => ERROR;
    /// Nothing by that id (404).
    NotFound: 404 => ERROR;
    /// A change made with the session cookie from another site (403).
    CrossSite: 403 => CROSS_SITE;
    /// A JSON body refused for its size (413) or type (415), or unreadable (400).
    BodyRefused: 400 => ERROR, 413 => ERROR, 415 => ERROR;
    /// Too many failed sign-ins from the client or its network (429).
    TooManyFailures: 429 => TOO_MANY_FAILED_ATTEMPTS;
    /// The server's fault (500) or the database away (503), for operations without credentials.
    ServerErrors: 500 => ERROR, 503 => UNAVAILABLE;
}
