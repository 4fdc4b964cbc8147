//! `/api/admin/session`: signing in with the password (`POST`), who is signed in (`GET`, which
//! answers `{"via": null}` rather than 401 to someone not signed in: the inbox page asks on every
//! load, and a browser logs each 401 as an error in its console), and signing out (`DELETE`);
//! `/api/admin/sessions`: signing out everywhere (`DELETE`). Neither signing out ends the
//! browser's known-browser mark (`known_browser`), which a good sign-in sets beside the session.

use std::net::{IpAddr, Ipv4Addr};
use std::sync::Arc;
use std::time::Instant;

use bytes::Bytes;
use secrecy::{ExposeSecret, SecretString};
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;
use tokio::sync::{OnceCell, Semaphore, SemaphorePermit};
use warp::http::{header, Method, StatusCode};
use warp::reply::Response;
use warp::{Rejection, Reply};

use super::caller::{Access, Caller, RequestFacts};
use super::known_browser::KnownBrowsers;
use super::session_cookie;
use crate::http::client_ip::rate_key;
use crate::http::error::{retry_after_secs, store_failed, ApiError, ErrorBody};
use crate::http::error_answers::{
    AdminErrors, BodyRefused, CrossSite, ServerErrors, TooManyFailures,
};
use crate::http::failure_limit::MAX_NETWORK_FAILURES;
use crate::http::same_site::from_the_site;
use crate::routes::admin::password;
use crate::store::signer::random_key;
use crate::store::SiteKeys;

/// Argon2 takes 19 MiB and tens of milliseconds per check: this many strangers' checks at once
/// at most, so a flood of sign-ins from many addresses cannot exhaust memory.
const CONCURRENT_CHECKS: usize = 4;
/// Strangers' password checks that may wait for one of those, server-wide: the last in line
/// waits for `QUEUED_CHECKS / CONCURRENT_CHECKS` checks' time (well under a second in a release
/// build), so a sign-in is answered promptly; one more is refused at once (`503 sign_in_busy`),
/// which costs its network a failure. More than one network's failure limit
/// (`MAX_NETWORK_FAILURES`), so a flood from one /48 or /24 cannot fill the line.
const QUEUED_CHECKS: usize = 32;
const _: () = assert!(QUEUED_CHECKS > MAX_NETWORK_FAILURES);
/// The known browsers' own line (`known_browser`), which no flood of strangers can fill: the
/// broker signs in from one browser at a time, and a few may wait (a second click, a second
/// device). Its one check adds 19 MiB to the strangers' at most, and is all a stolen mark can
/// hold.
const KNOWN_CONCURRENT_CHECKS: usize = 1;
const KNOWN_QUEUED_CHECKS: usize = 3;

/// Password checks under way or waiting, in two lines: known browsers' and strangers' (wrong
/// passwords count against `Access::failures` in both, with the token's).
pub struct SignIn {
    strangers: Line,
    known: Line,
    keys: Arc<dyn SiteKeys>,
    /// Read from `keys` at the first sign-in.
    marks: OnceCell<KnownBrowsers>,
}

/// One line of password checks.
struct Line {
    /// A place running or in line, taken without waiting.
    places: Semaphore,
    /// A check running.
    checks: Semaphore,
}

impl Line {
    fn new(concurrent: usize, queued: usize) -> Line {
        Line {
            places: Semaphore::new(concurrent + queued),
            checks: Semaphore::new(concurrent),
        }
    }

    fn enter(&self) -> Option<(&Line, SemaphorePermit<'_>)> {
        self.places.try_acquire().ok().map(|place| (self, place))
    }
}

impl SignIn {
    pub fn new(keys: Arc<dyn SiteKeys>) -> SignIn {
        SignIn {
            strangers: Line::new(CONCURRENT_CHECKS, QUEUED_CHECKS),
            known: Line::new(KNOWN_CONCURRENT_CHECKS, KNOWN_QUEUED_CHECKS),
            keys,
            marks: OnceCell::new(),
        }
    }

    async fn marks(&self) -> Result<&KnownBrowsers, ApiError> {
        self.marks
            .get_or_try_init(|| KnownBrowsers::load(self.keys.as_ref()))
            .await
            .map_err(store_failed("reading the known-browser key failed"))
    }

    /// A place in a known browser's line, or, that one full (a stolen mark's flood), in the
    /// strangers'.
    fn enter(&self, known: bool) -> Option<(&Line, SemaphorePermit<'_>)> {
        known
            .then(|| self.known.enter())
            .flatten()
            .or_else(|| self.strangers.enter())
    }

    /// Whether `password` is the one `phc` was made from, checked when a place is free; `None`
    /// when every place is taken (the server refuses at once rather than queue without end).
    async fn check(
        &self,
        known: bool,
        phc: SecretString,
        password: String,
    ) -> Result<Option<bool>, ApiError> {
        let Some((line, _place)) = self.enter(known) else {
            return Ok(None);
        };
        let _check = line
            .checks
            .acquire()
            .await
            .map_err(|_| ApiError::Unavailable)?;
        tokio::task::spawn_blocking(move || password::verify(phc.expose_secret(), &password))
            .await
            .map(Some)
            .map_err(|_| ApiError::Storage)
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[schema(as = Password)]
struct Credentials {
    password: String,
}

#[derive(Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct SignedIn {
    /// `session` (the cookie) or `token` (a script's bearer token); `None`: not signed in.
    #[schema(required = true, schema_with = signed_in_via)]
    via: Option<&'static str>,
}

fn signed_in_via() -> utoipa::openapi::Object {
    crate::store::schema::words_or_null(&["session", "token"])
}

pub async fn handle(
    access: Arc<Access>,
    sign_in: Arc<SignIn>,
    facts: RequestFacts,
    body: Bytes,
) -> Result<Response, Rejection> {
    Ok(match facts.method {
        Method::POST => start(&access, &sign_in, &facts, &body).await?,
        Method::DELETE => end(&access, &facts).await?,
        _ => who(&access, &facts).await?,
    })
}

/// Who is signed in: the session cookie, the bearer token, or nobody (via null, still 200, so
/// the inbox page's check logs no error). Only with ADMIN_PASSWORD_HASH set.
#[utoipa::path(
    get,
    path = "/api/admin/session",
    operation_id = "getAdminSession",
    security(("adminToken" = []), ("adminSession" = []), ()),
    responses(
        (status = 200, description = "Signed in, or not (via null).", body = SignedIn),
        TooManyFailures,
        ServerErrors
    )
)]
async fn who(access: &Access, facts: &RequestFacts) -> Result<Response, ApiError> {
    let via = match access.identify(facts).await {
        Ok(caller) => Some(caller.via()),
        Err(ApiError::Unauthorized { .. }) => None,
        Err(other) => return Err(other),
    };
    Ok(warp::reply::json(&SignedIn { via }).into_response())
}

/// Signs in with the admin password and sets the session cookie (HttpOnly, SameSite=Strict,
/// Path=/; Secure and __Host- over HTTPS). Ends after 12 hours without use, ADMIN_SESSION_DAYS
/// (7 by default) after sign-in however used, when ADMIN_PASSWORD_HASH changes, or when signed
/// out everywhere.
///
/// Must come from the site itself (Origin or Sec-Fetch-Site: same-origin). At most five wrong
/// passwords per client, and twenty failed sign-ins per IPv6 /48 or IPv4 /24, in 15 minutes. At
/// most four password checks run at once and 32 wait server-wide; beyond that 503 sign_in_busy
/// at once, which counts as one of the network's twenty (not the client's five). A good sign-in
/// also sets the known-browser mark (inbox_known, __Secure-inbox_known over HTTPS: HttpOnly,
/// SameSite=Strict, Path=/api/admin/session, Max-Age 400 days, signed by the server, renewed on
/// every good sign-in, kept on signing out, void when ADMIN_PASSWORD_HASH changes); a sign-in
/// carrying a valid one is checked in a line of its own (one check at a time, three waiting)
/// that other callers cannot fill, with the same limits on wrong passwords.
#[utoipa::path(
    post,
    path = "/api/admin/session",
    operation_id = "signIn",
    security(),
    request_body = Credentials,
    responses(
        AdminErrors, BodyRefused, CrossSite,
        (status = 200,
         description = "Signed in; the session cookie and the known-browser mark are in Set-Cookie.",
         body = SignedIn,
         headers(("Set-Cookie" = String))),
        (status = 401, description = "The password is wrong (wrong_password).", body = ErrorBody),
    )
)]
async fn start(
    access: &Access,
    sign_in: &SignIn,
    facts: &RequestFacts,
    body: &[u8],
) -> Result<Response, ApiError> {
    let https = facts.https(&access.proxies);
    if !from_the_site(&facts.headers, https) {
        return Err(ApiError::CrossSite);
    }
    let ip = facts
        .client(&access.proxies)
        .unwrap_or(IpAddr::V4(Ipv4Addr::UNSPECIFIED));
    let client = rate_key(ip);
    // Counted as a failure from here until the password is found right.
    let attempt = access.failures.begin(ip, Instant::now()).map_err(|wait| {
        ApiError::TooManyFailedAttempts {
            retry_after_secs: retry_after_secs(wait),
        }
    })?;
    let credentials: Credentials = facts.json(body, r#"expected {"password": "..."}"#)?;
    let Some(phc) = access.password_hash.clone() else {
        return Err(ApiError::NotFound);
    };
    let marks = sign_in.marks().await?;
    let known = marks.knows(&facts.headers, https, &phc, OffsetDateTime::now_utc());
    match sign_in
        .check(known, phc.clone(), credentials.password)
        .await?
    {
        Some(true) => access.failures.succeeded(attempt),
        Some(false) => {
            tracing::warn!(%client, known, "admin sign-in with a wrong password");
            return Err(ApiError::WrongPassword);
        }
        None => {
            access.failures.turned_away(attempt);
            tracing::warn!(
                %client,
                known,
                "admin sign-in refused: too many password checks waiting"
            );
            return Err(ApiError::SignInBusy);
        }
    }
    let now = OffsetDateTime::now_utc();
    let id = random_key();
    let id_hash = session_cookie::id_hash(&id, &phc);
    access
        .sessions
        .create_session(id_hash, now)
        .await
        .map_err(store_failed("storing the session failed"))?;
    tracing::info!(%client, known, "admin signed in");
    let mut response = warp::reply::json(&SignedIn {
        via: Some("session"),
    })
    .into_response();
    let headers = response.headers_mut();
    headers.insert(header::SET_COOKIE, session_cookie::set(&id, https));
    headers.append(header::SET_COOKIE, marks.mark(&phc, now, https));
    Ok(response)
}

/// Signs out: the session is deleted and the cookie cleared.
#[utoipa::path(
    delete,
    path = "/api/admin/session",
    operation_id = "signOut",
    responses(
        (status = 204, description = "Signed out.", headers(("Set-Cookie" = String))),
        AdminErrors, CrossSite
    )
)]
async fn end(access: &Access, facts: &RequestFacts) -> Result<Response, ApiError> {
    let caller = access.identify(facts).await?;
    if let Caller::Session { id_hash } = caller {
        access
            .sessions
            .delete_session(id_hash)
            .await
            .map_err(ApiError::from)?;
        tracing::info!("admin signed out");
    }
    Ok(signed_out(access, facts))
}

/// `204` with the session cookie cleared.
fn signed_out(access: &Access, facts: &RequestFacts) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    response.headers_mut().insert(
        header::SET_COOKIE,
        session_cookie::clear(facts.https(&access.proxies)),
    );
    response
}

/// Signs out everywhere: every session (this one included) is deleted and this cookie cleared.
/// Only with ADMIN_PASSWORD_HASH set.
///
/// For a lost phone, a shared computer: the caller signs in again, as everyone else must.
#[utoipa::path(
    delete,
    path = "/api/admin/sessions",
    operation_id = "signOutEverywhere",
    responses(
        (status = 204, description = "Every session ended.", headers(("Set-Cookie" = String))),
        (status = 405, description = "Another method than DELETE (method_not_allowed).", body = ErrorBody),
        AdminErrors, CrossSite
    )
)]
pub async fn end_everywhere(
    access: Arc<Access>,
    facts: RequestFacts,
) -> Result<Response, Rejection> {
    access.identify(&facts).await?;
    let ended = access
        .sessions
        .delete_all_sessions()
        .await
        .map_err(store_failed("deleting the sessions failed"))?;
    tracing::info!(ended, "admin signed out everywhere");
    Ok(signed_out(&access, &facts))
}

#[cfg(test)]
mod tests {
    use futures_util::future::BoxFuture;

    use super::*;
    use crate::store::StoreError;

    struct NoStore;

    impl SiteKeys for NoStore {
        fn site_key(
            &self,
            _name: &'static str,
            candidate: String,
        ) -> BoxFuture<'_, Result<String, StoreError>> {
            Box::pin(async { Ok(candidate) })
        }
    }

    #[test]
    fn strangers_never_take_a_known_browsers_place() {
        let sign_in = SignIn::new(Arc::new(NoStore));
        let strangers: Vec<_> = std::iter::from_fn(|| sign_in.enter(false)).collect();
        assert_eq!(strangers.len(), CONCURRENT_CHECKS + QUEUED_CHECKS);
        let known: Vec<_> = std::iter::from_fn(|| sign_in.enter(true)).collect();
        assert_eq!(
            known.len(),
            KNOWN_CONCURRENT_CHECKS + KNOWN_QUEUED_CHECKS,
            "the strangers' line is full, the known browsers' is not"
        );
        assert!(known
            .iter()
            .all(|(line, _)| std::ptr::eq(*line, &sign_in.known)));
        drop(strangers);
        let (line, _place) = sign_in.enter(true).expect("a place among strangers");
        assert!(
            std::ptr::eq(line, &sign_in.strangers),
            "its own line full, a known browser waits among strangers"
        );
    }
}
