//! The broker's admin API, behind `ADMIN_TOKEN` (a bearer token, for scripts) and
//! `ADMIN_PASSWORD_HASH` (a signed-in session, for the `/admin` inbox page):
//! - `/api/admin/session`: sign in (which also marks the browser as known, `known_browser`), who
//!   is signed in, sign out (with the password only);
//! - `/api/admin/sessions`: sign out everywhere (with the password only);
//! - `/api/admin/quote-requests`: the leads, newest first, filtered, a page at a time, as JSON
//!   or CSV;
//! - `/api/admin/quote-requests/{id}`: one lead; its status; its deletion;
//! - `/api/admin/quote-requests/{id}/records`: its audit copy, a ZIP;
//! - `/api/admin/quote-requests/{id}/consent-request`: e-mail the visitor the consent page's
//!   link, to give written consent to be called;
//! - `/api/admin/consent-records?phone=...` (or `?email=...`): one person's consent records,
//!   their leads deleted or not; `/api/admin/consent-records/{seq}/records`: one record's
//!   audit copy, a ZIP, its lead deleted or not;
//! - `/api/admin/bookings` and `/api/admin/bookings/{id}`: the booked calls with their Scope of
//!   Appointment, and one, cancelled by `PATCH`;
//! - `/api/admin/calendar-feed`: the address of the broker's calendar feed, replaced by `POST`;
//! - `/api/admin/conversations` and `/api/admin/conversations/{call_id}`: the kept
//!   conversations with the assistant, and one with its transcript and its legal hold;
//!   `/api/admin/conversations/{call_id}/recording`: its recording, as the site copied it.
//!
//! Off (404, like any unknown path) unless one of the two is set.

mod bookings;
mod calendar_feed;
mod caller;
mod consent_records;
mod consent_request;
mod conversations;
mod handler;
mod known_browser;
mod lead;
mod params;
pub mod password;
mod records;
mod session;
mod session_cookie;

use std::sync::Arc;

use utoipa::openapi::security::SecurityRequirement;
use utoipa::openapi::OpenApi as Document;
use utoipa::Modify;
use warp::filters::BoxedFilter;
use warp::reply::Response;
use warp::{Filter, Rejection};

use crate::forward::Mailer;
use crate::http::body;
use crate::http::error::recover;
use crate::http::failure_limit::FailureLimit;
use crate::http::methods::methods;
use crate::http::page_reply::no_store;
use crate::http::path_id::PathId;
use crate::http::route_list::{first_of, off, with};
use crate::leads::consent_link::ConsentLinks;
use crate::leads::notice::LeadNotices;
use crate::settings::Config;
use crate::store::bookings::Bookings;
use crate::store::calendar_feed::CalendarFeed;
use crate::store::consent::ConsentRecords;
use crate::store::{Conversations, Inbox, QuoteStore, Recordings, SiteKeys};
use caller::{caller, request_facts, Access};
use consent_request::AskConsent;
use session::SignIn;

/// The admin API's operations, for the OpenAPI document (`routes/openapi`).
#[derive(utoipa::OpenApi)]
#[openapi(
    modifiers(&Credentials),
    paths(
        handler::page, lead::show, lead::change, lead::delete,
        records::download, consent_request::ask, consent_records::list, records::download_record,
        bookings::list, bookings::show, bookings::cancel,
        calendar_feed::show, calendar_feed::replace,
        conversations::list, conversations::show, conversations::hold, conversations::recording,
        session::who, session::start, session::end, session::end_everywhere,
    )
)]
pub struct AdminApi;

/// An operation naming no security of its own takes either credential: the bearer token or the
/// session cookie.
struct Credentials;

impl Modify for Credentials {
    fn modify(&self, document: &mut Document) {
        let either =
            ["adminToken", "adminSession"].map(|name| SecurityRequirement::new(name, [""; 0]));
        for item in document.paths.paths.values_mut() {
            let operations = [
                &mut item.get,
                &mut item.post,
                &mut item.patch,
                &mut item.delete,
            ];
            for operation in operations.into_iter().flatten() {
                operation.security.get_or_insert_with(|| either.to_vec());
            }
        }
    }
}

/// The admin API's JSON bodies (a password, a status, a note of at most 2,000 characters,
/// each up to 6 bytes escaped) are small.
const MAX_ADMIN_BODY_BYTES: usize = 16 * 1024;

/// Whether the admin API is on at all.
pub fn enabled(config: &Config) -> bool {
    config.leads.admin_token.is_some() || config.inbox.password_hash.is_some()
}

/// Its errors are answered here, so that they too carry `Cache-Control: no-store`. Wrong tokens
/// and wrong passwords count against `failures`, per client. `links` and `notices` make the
/// consent page's link and the text it shows, for "Ask for written consent".
pub fn routes(
    store: Arc<dyn QuoteStore>,
    config: &Config,
    failures: Arc<FailureLimit>,
    links: Arc<ConsentLinks>,
    notices: Arc<LeadNotices>,
) -> BoxedFilter<(Response,)> {
    let access = Arc::new(Access {
        token: config.leads.admin_token.clone(),
        password_hash: config.inbox.password_hash.clone(),
        session_lifetime: config.inbox.session_lifetime,
        sessions: Arc::clone(&store) as _,
        proxies: config.trusted_proxies.clone(),
        failures,
    });
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    // A path's methods, then its caller checked; then what a request that changes something sent.
    let admitted = |allow: &'static str| {
        methods(allow)
            .and(caller(Arc::clone(&access)))
            .map(|_caller| ())
            .untuple_one()
    };
    let sent = || request_facts().and(body::limited(MAX_ADMIN_BODY_BYTES));
    let talks = warp::path!("api" / "admin" / "conversations")
        .and(admitted("GET, HEAD"))
        .and(with::<dyn Conversations>(store.clone()))
        .and_then(conversations::list);
    let talk = warp::path!("api" / "admin" / "conversations" / PathId)
        .and(admitted("GET, HEAD, PATCH"))
        .and(sent())
        .and(with::<dyn Conversations>(store.clone()))
        .and_then(|PathId(call_id), facts, body, kept| {
            conversations::one(kept, call_id, facts, body)
        });
    let talk_recording = warp::path!("api" / "admin" / "conversations" / PathId / "recording")
        .and(admitted("GET, HEAD"))
        .and(with::<dyn Recordings>(store.clone()))
        .and_then(|PathId(call_id), kept| conversations::recording(kept, call_id));
    let calls = warp::path!("api" / "admin" / "bookings")
        .and(admitted("GET, HEAD"))
        .and(with::<dyn Bookings>(store.clone()))
        .and(query)
        .and_then(bookings::list);
    let call = warp::path!("api" / "admin" / "bookings" / PathId)
        .and(admitted("GET, HEAD, PATCH"))
        .and(sent())
        .and(with::<dyn Bookings>(store.clone()))
        .and_then(|PathId(id), facts, body, booked| bookings::one(booked, id, facts, body));
    let site = Arc::new(config.site.clone());
    let feed = warp::path!("api" / "admin" / "calendar-feed")
        .and(admitted("GET, HEAD, POST"))
        .and(with::<dyn CalendarFeed>(store.clone()))
        .and(with(Arc::clone(&site)))
        .and(warp::method())
        .and_then(calendar_feed::handle);
    let person_records = warp::path!("api" / "admin" / "consent-records")
        .and(admitted("GET, HEAD"))
        .and(with::<dyn ConsentRecords>(store.clone()))
        .and(query)
        .and_then(consent_records::list);
    let record_copy = warp::path!("api" / "admin" / "consent-records" / PathId / "records")
        .and(admitted("GET, HEAD"))
        .and(with(Arc::clone(&store)))
        .and_then(|PathId(seq), store| records::download_record(store, seq));
    let records = warp::path!("api" / "admin" / "quote-requests" / PathId / "records")
        .and(admitted("GET, HEAD"))
        .and(with(Arc::clone(&store)))
        .and_then(|PathId(id), store| records::download(store, id));
    let keys: Arc<dyn SiteKeys> = Arc::clone(&store) as _;
    let inbox: Arc<dyn Inbox> = store;
    let mailer = config.email.clone().and_then(|email| {
        Mailer::new(email, config.site.clone())
            .map_err(|error| tracing::error!(%error, "cannot use the relay to ask for consent"))
            .ok()
            .map(Arc::new)
    });
    let asking = Arc::new(AskConsent {
        store: Arc::clone(&inbox),
        links,
        notices,
        mailer,
        site: Arc::clone(&site),
    });
    let ask_consent = warp::path!("api" / "admin" / "quote-requests" / PathId / "consent-request")
        .and(admitted("POST"))
        .and(with(asking))
        .and_then(|PathId(id), asking| consent_request::ask(asking, id));
    let list = admitted("GET, HEAD")
        .and(with(Arc::clone(&inbox)))
        .and(with(Arc::clone(&site)))
        .and(warp::header::headers_cloned())
        .and(query)
        .and_then(handler::page);
    let list = warp::path!("api" / "admin" / "quote-requests").and(answered_here(list));
    let one = warp::path!("api" / "admin" / "quote-requests" / PathId)
        .and(admitted("GET, HEAD, PATCH, DELETE"))
        .and(sent())
        .and(with(inbox))
        .and(with(site))
        .and_then(|PathId(id), facts, body, inbox, site| {
            lead::handle(inbox, site, id, facts, body)
        });
    let sign_in = match config.inbox.password_hash {
        Some(_) => {
            let session = warp::path!("api" / "admin" / "session")
                .and(methods("GET, HEAD, POST, DELETE"))
                .and(with(Arc::clone(&access)))
                .and(with(Arc::new(SignIn::new(keys))))
                .and(sent())
                .and_then(session::handle);
            let everywhere = warp::path!("api" / "admin" / "sessions")
                .and(methods("DELETE"))
                .and(with(access))
                .and(request_facts())
                .and_then(session::end_everywhere);
            first_of!(answered_here(session), answered_here(everywhere))
        }
        None => off(),
    };
    first_of!(
        list,
        answered_here(one),
        answered_here(talks),
        answered_here(talk),
        answered_here(talk_recording),
        answered_here(records),
        answered_here(ask_consent),
        answered_here(person_records),
        answered_here(record_copy),
        answered_here(calls),
        answered_here(call),
        answered_here(feed),
        sign_in,
    )
    .map(no_store)
    .boxed()
}

/// Answers `filter`'s refusals with their error body, except a path it does not match, which
/// is left to the other routes.
fn answered_here(
    filter: impl Filter<Extract = (Response,), Error = Rejection> + Clone + Send + Sync + 'static,
) -> BoxedFilter<(Response,)> {
    filter
        .or_else(|rejection: Rejection| async move {
            if rejection.is_not_found() {
                return Err(rejection);
            }
            match recover(rejection).await {
                Ok(response) => Ok((response,)),
                Err(never) => match never {},
            }
        })
        .boxed()
}
