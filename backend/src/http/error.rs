//! Every error the API answers with, its message in each language of the site, and the one place
//! rejections become JSON bodies.

use std::convert::Infallible;

use serde::Serialize;
use warp::http::{header, HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};
use wasm_core::quote::{EMAIL_MESSAGE, PHONE_MESSAGE, PRODUCT_MESSAGE, ZIP_MESSAGE};
use wasm_core::FieldErrors;

use crate::store::{Language, StoreError};

/// The `Retry-After` of a 503 when the database is unavailable.
const UNAVAILABLE_RETRY_AFTER_SECS: u32 = 5;
/// The `Retry-After` of a 503 when too many password checks are waiting: the line is a second
/// long at most.
const SIGN_IN_BUSY_RETRY_AFTER_SECS: u32 = 1;

/// `Display` is the English message; `message` gives it in the language of the page a request
/// came from.
#[derive(Clone, Debug, thiserror::Error)]
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
    /// Asking a lead for written consent makes no sense for it (why, in words).
    #[error("{0}")]
    ConsentNotAskable(String),
    #[error("This lead already gave written consent to be called; nothing was sent.")]
    ConsentAlreadyWritten,
    #[error(
        "E-mail is off (SMTP_URL is not set), so the visitor cannot be asked; nothing was sent."
    )]
    EmailNotConfigured,
    /// The relay refused the e-mail for good (its words).
    #[error("The mail relay refused the e-mail, so it was not sent: {0}")]
    EmailRefused(String),
    /// The relay could not take the e-mail now (why).
    #[error("The e-mail could not be sent now, so nothing went; try again in a while: {0}")]
    EmailNotSent(String),
}

/// Every error's body.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ErrorBody {
    #[schema(schema_with = error_codes)]
    code: &'static str,
    /// For a person: English, or Spanish for a quote post from the Spanish site (lang es, or a
    /// Referer under /es/ when the body could not be read).
    message: String,
    /// A quote's fields that break its rules, each with its message.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schema(schema_with = field_errors)]
    fields: Option<FieldErrors>,
}

/// `ErrorBody::code`: every error's, and the one of a refusal no route answered.
fn error_codes() -> utoipa::openapi::Object {
    let codes: Vec<&str> = ApiError::every()
        .iter()
        .map(ApiError::code)
        .chain([INTERNAL_ERROR])
        .collect();
    crate::store::schema::words(&codes)
}

/// `ErrorBody::fields`: wasm-core's `FieldErrors`, a message per field that broke its rule.
fn field_errors() -> utoipa::openapi::Object {
    use utoipa::openapi::schema::{AdditionalProperties, ObjectBuilder, Type};
    ["product", "email", "phone", "zip"]
        .into_iter()
        .fold(ObjectBuilder::new(), |object, field| {
            object.property(field, ObjectBuilder::new().schema_type(Type::String))
        })
        .additional_properties(Some(AdditionalProperties::FreeForm(false)))
        .build()
}

/// The code of an error no route answered itself: the server's fault.
const INTERNAL_ERROR: &str = "internal_error";

/// Each field's message in `language`: the rules' own (English), or their Spanish words, the
/// same as the Spanish page's (`content/es/site.yaml`, `quote.errors`).
pub fn fields_in(fields: &FieldErrors, language: Language) -> FieldErrors {
    let spanish = |message: Option<&'static str>| {
        message.map(|message| match message {
            PRODUCT_MESSAGE => "Seleccione un producto",
            EMAIL_MESSAGE => "Escriba un correo electrónico válido",
            PHONE_MESSAGE => "Escriba un número de teléfono de EE. UU. válido",
            ZIP_MESSAGE => "Escriba un código postal (ZIP) válido de 5 dígitos",
            other => other,
        })
    };
    match language {
        Language::En => fields.clone(),
        Language::Es => FieldErrors {
            product: spanish(fields.product),
            email: spanish(fields.email),
            phone: spanish(fields.phone),
            zip: spanish(fields.zip),
        },
    }
}

impl ApiError {
    pub fn status(&self) -> StatusCode {
        self.status_and_code().0
    }

    pub fn code(&self) -> &'static str {
        self.status_and_code().1
    }
}

/// Each error's HTTP status and body `code`, and one of it for `every`, a row each. Their match
/// has no wildcard arm, so a new variant does not compile until it has its row, and then the
/// OpenAPI document's codes (`ErrorBody`) and the tests over the messages cover it.
macro_rules! statuses_and_codes {
    ($($pattern:pat => $status:ident, $code:literal, $sample:expr;)*) => {
        impl ApiError {
            /// The HTTP status and the body's `code`, side by side.
            fn status_and_code(&self) -> (StatusCode, &'static str) {
                use ApiError::*;
                match self {
                    $($pattern => (StatusCode::$status, $code),)*
                }
            }

            /// One of each error, in the rows' order.
            pub fn every() -> Vec<ApiError> {
                use ApiError::*;
                vec![$($sample),*]
            }
        }
    };
}

statuses_and_codes! {
    MalformedJson(_) => BAD_REQUEST, "malformed_json",
        MalformedJson("expected value at line 1 column 1".into());
    UnsupportedMediaType => UNSUPPORTED_MEDIA_TYPE, "unsupported_media_type", UnsupportedMediaType;
    PayloadTooLarge { .. } => PAYLOAD_TOO_LARGE, "payload_too_large", PayloadTooLarge { limit: 1 };
    Validation(_) => UNPROCESSABLE_ENTITY, "validation_failed", Validation(FieldErrors::default());
    MethodNotAllowed { .. } => METHOD_NOT_ALLOWED, "method_not_allowed",
        MethodNotAllowed { allow: "GET" };
    NotFound => NOT_FOUND, "not_found", NotFound;
    RateLimited { .. } => TOO_MANY_REQUESTS, "rate_limited", RateLimited { retry_after_secs: 1 };
    Storage => INTERNAL_SERVER_ERROR, "storage_failed", Storage;
    Unavailable => SERVICE_UNAVAILABLE, "database_unavailable", Unavailable;
    Unauthorized { .. } => UNAUTHORIZED, "unauthorized", Unauthorized { challenge: None };
    InvalidParameter(_) => BAD_REQUEST, "invalid_parameter",
        InvalidParameter("Idempotency-Key".into());
    IdempotencyConflict => CONFLICT, "idempotency_conflict", IdempotencyConflict;
    RequestTimeout => REQUEST_TIMEOUT, "request_timeout", RequestTimeout;
    InvalidRequestTarget => BAD_REQUEST, "invalid_request_target", InvalidRequestTarget;
    HeadTooLarge { .. } => REQUEST_HEADER_FIELDS_TOO_LARGE, "request_head_too_large",
        HeadTooLarge { limit: 1 };
    TooManyFailedAttempts { .. } => TOO_MANY_REQUESTS, "too_many_failed_attempts",
        TooManyFailedAttempts { retry_after_secs: 1 };
    WrongPassword => UNAUTHORIZED, "wrong_password", WrongPassword;
    SignInBusy => SERVICE_UNAVAILABLE, "sign_in_busy", SignInBusy;
    CrossSite => FORBIDDEN, "cross_site_request", CrossSite;
    ConsentNotAskable(_) => CONFLICT, "consent_not_askable", ConsentNotAskable("no phone".into());
    ConsentAlreadyWritten => CONFLICT, "consent_already_written", ConsentAlreadyWritten;
    EmailNotConfigured => SERVICE_UNAVAILABLE, "email_not_configured", EmailNotConfigured;
    EmailRefused(_) => BAD_GATEWAY, "email_refused", EmailRefused("550 no".into());
    EmailNotSent(_) => SERVICE_UNAVAILABLE, "email_not_sent", EmailNotSent("refused".into());
}

impl ApiError {
    /// The message in `language`: English as `Display` writes it, or Spanish for a request from
    /// the Spanish site (`/es/`), whose visitors see it in the form's failure toast and on the
    /// result page (docs/product.md §8). The `fields` of a 422 keep the quote rules' own words:
    /// the form shows the content's message for each field they name.
    pub fn message(&self, language: Language) -> String {
        match language {
            Language::En => self.to_string(),
            Language::Es => self.spanish(),
        }
    }

    /// Every error's Spanish message; no wildcard arm, so a new error does not compile without
    /// one. A detail the error carries (a parser's, a parameter's) stays as it was written.
    fn spanish(&self) -> String {
        use ApiError::*;
        match self {
            MalformedJson(detail) => {
                format!("El cuerpo de la solicitud no es JSON válido: {detail}")
            }
            UnsupportedMediaType => {
                "Envíe el cuerpo de la solicitud como application/json".into()
            }
            PayloadTooLarge { limit } => {
                format!("El cuerpo de la solicitud supera los {limit} bytes")
            }
            Validation(_) => "Algunos campos no son válidos".into(),
            MethodNotAllowed { .. } => "Esta ruta no acepta ese método".into(),
            NotFound => "No hay nada en esta ruta".into(),
            RateLimited { retry_after_secs } => format!(
                "Demasiadas solicitudes de cotización desde su red. Inténtelo de nuevo en {retry_after_secs} segundos."
            ),
            Storage => "No pudimos guardar su solicitud. Inténtelo de nuevo.".into(),
            Unavailable => {
                "El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos."
                    .into()
            }
            Unauthorized { .. } => "Faltan las credenciales o no son correctas".into(),
            InvalidParameter(detail) => format!("Parámetro no válido: {detail}"),
            IdempotencyConflict => "Esta Idempotency-Key ya se usó para otra solicitud; esa solicitud anterior se mantiene. Envíe una clave nueva para una solicitud nueva.".into(),
            RequestTimeout => "El cuerpo de la solicitud no llegó a tiempo".into(),
            InvalidRequestTarget => {
                "El destino de la solicitud debe ser una ruta como /; este servidor no es un proxy"
                    .into()
            }
            HeadTooLarge { limit } => {
                format!("La línea de la solicitud y sus encabezados superan los {limit} bytes")
            }
            TooManyFailedAttempts { retry_after_secs } => format!(
                "Demasiados intentos fallidos de iniciar sesión desde su red. Inténtelo de nuevo en {retry_after_secs} segundos."
            ),
            WrongPassword => "La contraseña no es correcta.".into(),
            SignInBusy => "Se están comprobando demasiados inicios de sesión ahora mismo. Inténtelo de nuevo en unos segundos.".into(),
            CrossSite => {
                "Esta solicitud no vino de las páginas de este sitio, así que se rechazó.".into()
            }
            ConsentNotAskable(detail) => {
                format!("No se puede pedir el consentimiento por escrito: {detail}")
            }
            ConsentAlreadyWritten => {
                "Este cliente ya dio su consentimiento por escrito; no se envió nada.".into()
            }
            EmailNotConfigured => "El correo está desactivado (SMTP_URL no está definido); no se envió nada.".into(),
            EmailRefused(detail) => {
                format!("El servidor de correo rechazó el mensaje, así que no se envió: {detail}")
            }
            EmailNotSent(detail) => format!(
                "No se pudo enviar el correo ahora, así que no se envió nada; inténtelo más tarde: {detail}"
            ),
        }
    }

    /// This error as a rejection that `recover` answers in `language`.
    pub fn in_language(self, language: Language) -> Rejection {
        warp::reject::custom(InLanguage {
            error: self,
            language,
        })
    }

    /// The JSON `{code, message, fields?}` body, the message in `language`, with the headers that
    /// go with this error.
    pub fn response_in(&self, language: Language) -> Response {
        let fields = match self {
            ApiError::Validation(fields) => Some(fields_in(fields, language)),
            _ => None,
        };
        let body = ErrorBody {
            code: self.code(),
            message: self.message(language),
            fields,
        };
        let mut response =
            warp::reply::with_status(warp::reply::json(&body), self.status()).into_response();
        let retry = header::RETRY_AFTER;
        let (name, value) = match *self {
            ApiError::MethodNotAllowed { allow } => {
                (header::ALLOW, HeaderValue::from_static(allow))
            }
            ApiError::RateLimited { retry_after_secs }
            | ApiError::TooManyFailedAttempts { retry_after_secs } => {
                (retry, HeaderValue::from(retry_after_secs))
            }
            ApiError::Unavailable => (retry, HeaderValue::from(UNAVAILABLE_RETRY_AFTER_SECS)),
            ApiError::SignInBusy => (retry, HeaderValue::from(SIGN_IN_BUSY_RETRY_AFTER_SECS)),
            ApiError::Unauthorized {
                challenge: Some(scheme),
            } => (header::WWW_AUTHENTICATE, HeaderValue::from_static(scheme)),
            // The rest of the body may never come: do not wait for it to reuse the connection.
            ApiError::RequestTimeout => (header::CONNECTION, HeaderValue::from_static("close")),
            _ => return response,
        };
        response.headers_mut().insert(name, value);
        response
    }
}

impl Reply for ApiError {
    fn into_response(self) -> Response {
        self.response_in(Language::En)
    }
}

/// A filter refuses a request with an `ApiError`; `recover` writes its body, in English.
impl warp::reject::Reject for ApiError {}

/// An error for a request whose page's language is known (a quote post's).
#[derive(Debug)]
struct InLanguage {
    error: ApiError,
    language: Language,
}

impl warp::reject::Reject for InLanguage {}

/// `rejection` answered in `language`: an `ApiError` it carries is written in it; any other
/// rejection is left as it is.
pub fn rejection_in(rejection: Rejection, language: Language) -> Rejection {
    match rejection.find::<ApiError>() {
        Some(error) => error.clone().in_language(language),
        None => rejection,
    }
}

/// A database that cannot be reached is temporary (503, retry); any other failure is ours (500).
impl From<StoreError> for ApiError {
    fn from(error: StoreError) -> ApiError {
        match error {
            StoreError::Unavailable(_) => ApiError::Unavailable,
            StoreError::Database(_) | StoreError::Unusable(_) => ApiError::Storage,
        }
    }
}

/// A store operation's failure as its answer (503 or 500, as `From` says), logged as `what`.
pub fn store_failed(what: &'static str) -> impl FnOnce(StoreError) -> ApiError {
    move |error| {
        tracing::error!(%error, "{what}");
        ApiError::from(error)
    }
}

/// A `Retry-After` in whole seconds, at least 1, for a wait a limit reports.
pub fn retry_after_secs(wait: std::time::Duration) -> u64 {
    wait.as_secs_f64().ceil().max(1.0) as u64
}

/// Every rejection becomes its JSON error body: ours (`ApiError`), and those warp itself produces.
pub async fn recover(rejection: Rejection) -> Result<Response, Infallible> {
    if let Some(InLanguage { error, language }) = rejection.find() {
        return Ok(error.response_in(*language));
    }
    if let Some(error) = rejection.find::<ApiError>() {
        return Ok(error.response_in(Language::En));
    }
    let error = if rejection.is_not_found() {
        ApiError::NotFound
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        ApiError::MethodNotAllowed { allow: "GET, HEAD" }
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        return Ok(warp::reply::with_status(
            warp::reply::json(&ErrorBody {
                code: INTERNAL_ERROR,
                message: "Something went wrong on our side.".into(),
                fields: None,
            }),
            StatusCode::INTERNAL_SERVER_ERROR,
        )
        .into_response());
    };
    Ok(error.into_response())
}

#[cfg(test)]
mod tests {
    use warp::Filter;

    use super::*;

    #[test]
    fn every_message_has_its_own_spanish_words() {
        for error in ApiError::every() {
            let (english, spanish) = (error.message(Language::En), error.message(Language::Es));
            assert_eq!(english, error.to_string());
            assert!(!spanish.is_empty() && spanish != english, "{english}");
            // What the error carries (a limit, a wait, a detail) is in both.
            for word in english
                .split(' ')
                .filter(|w| w.bytes().any(|b| b.is_ascii_digit()))
            {
                assert!(
                    spanish.contains(word.trim_end_matches('.')),
                    "{spanish} has {word}"
                );
            }
        }
    }

    /// What `recover` answers for `rejection`: status, code and message.
    async fn answer(rejection: fn() -> Rejection) -> (StatusCode, String, String) {
        let refuse = warp::any()
            .and_then(move || async move { Err::<String, _>(rejection()) })
            .recover(recover);
        let response = warp::test::request().reply(&refuse).await;
        let body: serde_json::Value = serde_json::from_slice(response.body()).unwrap();
        let text = |key: &str| body[key].as_str().unwrap_or_default().to_owned();
        (response.status(), text("code"), text("message"))
    }

    #[tokio::test]
    async fn a_rejection_in_a_language_is_answered_in_it() {
        assert_eq!(
            answer(|| rejection_in(warp::reject::custom(ApiError::Unavailable), Language::Es)).await,
            (
                StatusCode::SERVICE_UNAVAILABLE,
                "database_unavailable".into(),
                "El servicio no está disponible por un momento. Inténtelo de nuevo en unos segundos."
                    .into()
            )
        );
        fn limited() -> ApiError {
            ApiError::RateLimited {
                retry_after_secs: 7,
            }
        }
        assert_eq!(
            answer(|| warp::reject::custom(limited())).await.2,
            "Too many quote requests from your network. Please try again in 7 seconds."
        );
        assert_eq!(
            answer(|| limited().in_language(Language::Es)).await.2,
            "Demasiadas solicitudes de cotización desde su red. Inténtelo de nuevo en 7 segundos."
        );
        // Not ours: left as it is.
        let (status, code, _) =
            answer(|| rejection_in(warp::reject::not_found(), Language::Es)).await;
        assert_eq!(
            (status, code.as_str()),
            (StatusCode::NOT_FOUND, "not_found")
        );
    }
}
