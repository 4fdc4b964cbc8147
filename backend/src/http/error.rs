//! Every error the API answers with, and the one place rejections become JSON bodies.

use std::convert::Infallible;

use serde::Serialize;
use warp::http::{header, HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};
use wasm_core::FieldErrors;

use crate::store::StoreError;

/// The `Retry-After` of a 503 when the database is unavailable.
const UNAVAILABLE_RETRY_AFTER_SECS: u32 = 5;
/// The `Retry-After` of a 503 when too many password checks are waiting: the line is a second
/// long at most.
const SIGN_IN_BUSY_RETRY_AFTER_SECS: u32 = 1;

#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    #[error("The request body is not valid JSON: {0}")]
    MalformedJson(String),
    #[error("Send the request body as application/json")]
    UnsupportedMediaType,
    #[error("The request body is larger than {limit} bytes")]
    PayloadTooLarge { limit: usize },
    #[error("Some fields are not valid")]
    Validation(FieldErrors),
    #[error("This path does not accept that method")]
    MethodNotAllowed { allow: &'static str },
    #[error("There is nothing at this path")]
    NotFound,
    #[error("Too many quote requests from your network. Please try again in {retry_after_secs} seconds.")]
    RateLimited { retry_after_secs: u64 },
    #[error("We could not save your request. Please try again.")]
    Storage,
    #[error("The service is briefly unavailable. Please try again in a few seconds.")]
    Unavailable,
    /// `challenge` is the `WWW-Authenticate` scheme, for credentials a client sends itself.
    #[error("Missing or wrong credentials")]
    Unauthorized { challenge: Option<&'static str> },
    #[error("{0}")]
    InvalidParameter(String),
    #[error("This Idempotency-Key was already used for a different request; that earlier request stands. Send a new key for a new request.")]
    IdempotencyConflict,
    #[error("The request body did not arrive in time")]
    RequestTimeout,
    #[error("The request target must be a path such as /; this server is not a proxy")]
    InvalidRequestTarget,
    #[error("The request line and headers are larger than {limit} bytes")]
    HeadTooLarge { limit: usize },
    #[error("Too many failed sign-in attempts from your network. Please try again in {retry_after_secs} seconds.")]
    TooManyFailedAttempts { retry_after_secs: u64 },
    #[error("The password is wrong.")]
    WrongPassword,
    #[error("Too many sign-ins are being checked right now. Please try again in a few seconds.")]
    SignInBusy,
    #[error("This request did not come from this site's own pages, so it was refused.")]
    CrossSite,
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    code: &'static str,
    message: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    fields: Option<&'a FieldErrors>,
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::MalformedJson(_) => StatusCode::BAD_REQUEST,
            ApiError::UnsupportedMediaType => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::PayloadTooLarge { .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Validation(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::MethodNotAllowed { .. } => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::NotFound => StatusCode::NOT_FOUND,
            ApiError::RateLimited { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Storage => StatusCode::INTERNAL_SERVER_ERROR,
            ApiError::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Unauthorized { .. } => StatusCode::UNAUTHORIZED,
            ApiError::InvalidParameter(_) => StatusCode::BAD_REQUEST,
            ApiError::IdempotencyConflict => StatusCode::CONFLICT,
            ApiError::RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            ApiError::InvalidRequestTarget => StatusCode::BAD_REQUEST,
            ApiError::HeadTooLarge { .. } => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            ApiError::TooManyFailedAttempts { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::WrongPassword => StatusCode::UNAUTHORIZED,
            ApiError::SignInBusy => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::CrossSite => StatusCode::FORBIDDEN,
        }
    }

    pub fn code(&self) -> &'static str {
        match self {
            ApiError::MalformedJson(_) => "malformed_json",
            ApiError::UnsupportedMediaType => "unsupported_media_type",
            ApiError::PayloadTooLarge { .. } => "payload_too_large",
            ApiError::Validation(_) => "validation_failed",
            ApiError::MethodNotAllowed { .. } => "method_not_allowed",
            ApiError::NotFound => "not_found",
            ApiError::RateLimited { .. } => "rate_limited",
            ApiError::Storage => "storage_failed",
            ApiError::Unavailable => "database_unavailable",
            ApiError::Unauthorized { .. } => "unauthorized",
            ApiError::InvalidParameter(_) => "invalid_parameter",
            ApiError::IdempotencyConflict => "idempotency_conflict",
            ApiError::RequestTimeout => "request_timeout",
            ApiError::InvalidRequestTarget => "invalid_request_target",
            ApiError::HeadTooLarge { .. } => "request_head_too_large",
            ApiError::TooManyFailedAttempts { .. } => "too_many_failed_attempts",
            ApiError::WrongPassword => "wrong_password",
            ApiError::SignInBusy => "sign_in_busy",
            ApiError::CrossSite => "cross_site_request",
        }
    }
}

impl ApiError {
    /// The JSON `{code, message, fields?}` body with the headers that go with this error.
    fn response(&self) -> Response {
        let fields = match self {
            ApiError::Validation(fields) => Some(fields),
            _ => None,
        };
        let body = ErrorBody {
            code: self.code(),
            message: self.to_string(),
            fields,
        };
        let mut response =
            warp::reply::with_status(warp::reply::json(&body), self.status()).into_response();
        let headers = response.headers_mut();
        match *self {
            ApiError::MethodNotAllowed { allow } => {
                headers.insert(header::ALLOW, HeaderValue::from_static(allow));
            }
            ApiError::RateLimited { retry_after_secs }
            | ApiError::TooManyFailedAttempts { retry_after_secs } => {
                headers.insert(header::RETRY_AFTER, HeaderValue::from(retry_after_secs));
            }
            ApiError::Unavailable => {
                headers.insert(
                    header::RETRY_AFTER,
                    HeaderValue::from(UNAVAILABLE_RETRY_AFTER_SECS),
                );
            }
            ApiError::SignInBusy => {
                headers.insert(
                    header::RETRY_AFTER,
                    HeaderValue::from(SIGN_IN_BUSY_RETRY_AFTER_SECS),
                );
            }
            ApiError::Unauthorized {
                challenge: Some(scheme),
            } => {
                headers.insert(header::WWW_AUTHENTICATE, HeaderValue::from_static(scheme));
            }
            ApiError::RequestTimeout => {
                // The rest of the body may never come: do not wait for it to reuse the connection.
                headers.insert(header::CONNECTION, HeaderValue::from_static("close"));
            }
            _ => {}
        }
        response
    }
}

impl Reply for ApiError {
    fn into_response(self) -> Response {
        self.response()
    }
}

/// A filter refuses a request with an `ApiError`; `recover` writes its body.
impl warp::reject::Reject for ApiError {}

/// A database that cannot be reached is temporary (503, retry); any other failure is ours (500).
impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Unavailable(_) => ApiError::Unavailable,
            StoreError::Database(_) | StoreError::Unusable(_) => ApiError::Storage,
        }
    }
}

/// A `Retry-After` in whole seconds, at least 1, for a wait a limit reports.
pub fn retry_after_secs(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// Every rejection becomes its JSON error body: ours (`ApiError`), and those warp itself produces.
pub async fn recover(rejection: Rejection) -> Result<Response, Infallible> {
    if let Some(error) = rejection.find::<ApiError>() {
        return Ok(error.response());
    }
    let error = if rejection.is_not_found() {
        ApiError::NotFound
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        ApiError::MethodNotAllowed { allow: "GET, HEAD" }
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        return Ok(warp::reply::with_status(
            warp::reply::json(&ErrorBody {
                code: "internal_error",
                message: "Something went wrong on our side.".into(),
                fields: None,
            }),
            StatusCode::INTERNAL_SERVER_ERROR,
        )
        .into_response());
    };
    Ok(error.into_response())
}
