//! `/book` and `/es/book` (docs/product.md §13): a visitor books one of the broker's open times
//! and signs the Scope of Appointment, no JavaScript needed. Off (the site's 404, as any unknown
//! path) unless the build has `booking`. The post (`application/x-www-form-urlencoded`) is
//! refused from another site's page and counted by the quote posts' rate limit, as the opt-out
//! form's is (`routes/opt_out`); a wrong one is answered `422` with each message under its
//! field in the page's language and what was typed kept; a time booked meanwhile (on any
//! instance) `409` with the times still open; a booking taken `303` to the confirmation page.
//! Opened by a quote's signed reference (`/book?lead=...`, `leads::booking_ref`) the form is
//! pre-filled with that lead's e-mail address, phone number and name (when one was signed
//! before) and carries the reference in a hidden field, and the booking joins that lead; without
//! one, or with one forged, expired or naming a lead gone or held as spam, the form is the plain
//! one and the booking makes a lead of its own (with the lead-generation notice the page shows).
//! Either way the lead, the booking and the Scope of Appointment's consent record are stored in
//! one transaction (`store::bookings`).

mod open_now;
mod page;

use std::net::IpAddr;
use std::sync::Arc;

use bytes::Bytes;
use jiff::Timestamp;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap, HeaderValue, Response, StatusCode};
use warp::reply::Response as Reply;
use warp::{Filter, Reply as _};
use wasm_core::booking::Slot;
use wasm_core::{
    ContactDetails, ContactInput, ContactRules, Email, FieldRule, Phone, Product, QuoteRequest,
};

pub use open_now::{moment, OpenNow};
pub use page::{document, plain, BookingSite, Errors, PRODUCTS};
use page::{Problems, Typed};

use crate::http::body;
use crate::http::error::{store_failed, ApiError};
use crate::http::forwarded_proto;
use crate::http::page_reply::{either, html, in_language, see_other};
use crate::http::route_list::{first_of, off, with};
use crate::http::same_site::from_another_site;
use crate::leads::booking_ref::{self, page as form_path, BookingRefs};
use crate::leads::notice::LeadNotices;
use crate::routes::quotes::limits::{Bucket, PostLimits};
use crate::store::bookings::{Booked, Bookings, NewBooking};
use crate::store::consent::{ConsentChannel, NewConsent, SoaEvidence};
use crate::store::{Contact, Language, NewQuote, Source};

/// A name, an address, a number and four boxes, with room to spare.
const MAX_BODY_BYTES: usize = 8 * 1024;
/// The longest full name taken as a signature.
const MAX_NAME_CHARS: usize = 200;

/// What a request for the page needs.
struct Booking {
    store: Arc<dyn Bookings>,
    site: BookingSite,
    notices: Arc<LeadNotices>,
    limits: Arc<PostLimits>,
    refs: Arc<BookingRefs>,
}

pub fn routes(
    store: Arc<dyn Bookings>,
    site: Option<BookingSite>,
    notices: Arc<LeadNotices>,
    limits: Arc<PostLimits>,
    refs: Option<Arc<BookingRefs>>,
) -> BoxedFilter<(Reply,)> {
    let (Some(site), Some(refs)) = (site, refs) else {
        return off();
    };
    let booking = Arc::new(Booking {
        store,
        site,
        notices,
        limits: Arc::clone(&limits),
        refs,
    });
    let form = in_language(warp::path!("book"), warp::path!("es" / "book"));
    let done = in_language(
        warp::path!("book" / "done"),
        warp::path!("es" / "book" / "done"),
    );
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    let show_form = form
        .and(warp::get())
        .and(query)
        .and(with(Arc::clone(&booking)))
        .then(
            |language, query: String, booking: Arc<Booking>| async move {
                let typed = booking.known(&query).await;
                booking
                    .answer(language, &typed, Problems::default(), StatusCode::OK)
                    .await
            },
        );
    let script = warp::path!("book" / "local-times.js")
        .and(warp::get())
        .map(script_reply);
    let confirmed = Arc::clone(&booking);
    let show_done = done
        .and(warp::get())
        .map(move |language| html(StatusCode::OK, page::done(&confirmed.site, language)));
    let post = form
        .and(warp::post())
        .and(limits.client())
        .and(forwarded_proto::headers_and_https())
        .and(warp::header::optional::<String>("user-agent"))
        .and(body::limited(MAX_BODY_BYTES))
        .and(with(booking))
        .then(
            |language, client, headers, https, user_agent, body, booking: Arc<Booking>| async move {
                let sent = Sent {
                    client,
                    headers,
                    https,
                    user_agent,
                    body,
                };
                booking.submit(language, sent).await
            },
        );
    first_of!(show_form, show_done, script, post)
}

/// A post as it came.
struct Sent {
    client: Option<IpAddr>,
    headers: HeaderMap,
    https: bool,
    user_agent: Option<String>,
    body: Bytes,
}

/// A post that passed the form's rules.
struct Valid {
    start: Timestamp,
    name: String,
    request: QuoteRequest,
    contact: ContactDetails,
    products: Vec<String>,
    /// The lead the quote's reference names, which the booking joins if it may.
    joins: Option<String>,
}

impl Booking {
    /// The form pre-filled for the lead the query's reference names, when it is one this site
    /// signed, not expired, and its lead may be joined; otherwise the plain form.
    async fn known(&self, query: &str) -> Typed {
        let token = form_urlencoded::parse(query.as_bytes())
            .find(|(key, _)| key == booking_ref::FIELD)
            .map(|(_, value)| value.into_owned());
        let Some(token) = token else {
            return Typed::default();
        };
        let Ok(lead_id) = self.refs.check(&token, time::OffsetDateTime::now_utc()) else {
            return Typed::default();
        };
        match self.store.known_lead(lead_id).await {
            Ok(Some(known)) => Typed {
                name: known.name.unwrap_or_default(),
                email: known.email,
                phone: known
                    .phone
                    .and_then(|phone| Phone::parse(&phone).ok())
                    .map(|phone| phone.national())
                    .unwrap_or_default(),
                lead: token,
                ..Typed::default()
            },
            Ok(None) => Typed::default(),
            Err(error) => {
                tracing::error!(%error, "cannot read the lead a booking reference names");
                Typed::default()
            }
        }
    }

    /// The times open now.
    async fn open(&self) -> Result<OpenNow, ApiError> {
        OpenNow::read(self.store.as_ref())
            .await
            .map_err(store_failed("cannot read the booked times"))
    }

    /// The form with the times open now.
    async fn answer(
        &self,
        language: Language,
        typed: &Typed,
        mut problems: Problems,
        status: StatusCode,
    ) -> Reply {
        let (times, status) = match self.open().await {
            Ok(open) => (open.times(&self.site.hours), status),
            Err(error) => {
                problems.alert = Some(page::plain(language).failed.to_owned());
                (Vec::new(), error.status())
            }
        };
        let body = page::form(
            &self.site,
            &self.notices,
            language,
            &times,
            typed,
            &problems,
        );
        html(status, body)
    }

    async fn submit(&self, language: Language, sent: Sent) -> Reply {
        let mut typed = typed(&sent.body);
        // A reference this site did not sign, or past its time, is not sent back: the page is
        // the plain form it would have been opened as.
        if self
            .refs
            .check(&typed.lead, time::OffsetDateTime::now_utc())
            .is_err()
        {
            typed.lead.clear();
        }
        let plain = page::plain(language);
        if from_another_site(&sent.headers, sent.https) {
            let problems = Problems::alert(plain.another_site);
            return self
                .answer(language, &typed, problems, StatusCode::FORBIDDEN)
                .await;
        }
        let checked = self.check(language, &typed);
        if let Err(limited) = self.limits.check(Bucket::of(checked.is_ok()), sent.client) {
            let problems = Problems::alert(plain.failed);
            let mut response = self
                .answer(language, &typed, problems, limited.status())
                .await;
            if let ApiError::RateLimited { retry_after_secs } = limited {
                let value = HeaderValue::from(retry_after_secs);
                response.headers_mut().insert(header::RETRY_AFTER, value);
            }
            return response;
        }
        let valid = match checked {
            Ok(valid) => valid,
            Err(problems) => {
                return self
                    .answer(
                        language,
                        &typed,
                        *problems,
                        StatusCode::UNPROCESSABLE_ENTITY,
                    )
                    .await;
            }
        };
        let texts = self.site.texts(language);
        let open = match self.open().await {
            Ok(open) => open,
            Err(error) => return self.failed(language, &typed, &error).await,
        };
        let Some(slot) = open.slot(&self.site.hours, valid.start) else {
            let (problems, status) = if open.taken_meanwhile(&self.site.hours, valid.start) {
                (Problems::alert(&texts.errors.taken), StatusCode::CONFLICT)
            } else {
                let slot = Some(texts.errors.slot.clone());
                let problems = Problems {
                    slot,
                    ..Problems::default()
                };
                (problems, StatusCode::UNPROCESSABLE_ENTITY)
            };
            return self.answer(language, &typed, problems, status).await;
        };
        let new = self.booking(language, &sent, valid, slot);
        match self.store.book(new).await {
            Ok(Booked::New { id, lead_id }) => {
                tracing::info!(booking = %id, lead = %lead_id, "a visitor booked a call");
                see_other(either(language, "/book/done", "/es/book/done"))
            }
            Ok(Booked::Taken) => {
                let problems = Problems::alert(&texts.errors.taken);
                self.answer(language, &typed, problems, StatusCode::CONFLICT)
                    .await
            }
            Err(error) => {
                tracing::error!(%error, "cannot store a booking");
                self.failed(language, &typed, &ApiError::from(error)).await
            }
        }
    }

    async fn failed(&self, language: Language, typed: &Typed, error: &ApiError) -> Reply {
        let problems = Problems::alert(page::plain(language).failed);
        self.answer(language, typed, problems, error.status()).await
    }

    /// Each field by its rule: the phone field by the quote form's (`wasm_core`), as this
    /// language's page asks for it.
    fn check(&self, language: Language, typed: &Typed) -> Result<Valid, Box<Problems>> {
        let errors = &self.site.texts(language).errors;
        let mut problems = Problems::default();
        let start = typed.slot.parse::<Timestamp>().ok();
        if start.is_none() {
            problems.slot = Some(errors.slot.clone());
        }
        let name = signature(&typed.name);
        if name.is_none() {
            problems.name = Some(errors.name.clone());
        }
        let email = Email::parse(&typed.email);
        if email.is_none() {
            problems.email = Some(errors.email.clone());
        }
        let rules = ContactRules {
            phone: self.notices.rules(language).phone,
            zip: FieldRule::Off,
        };
        let input = ContactInput {
            phone: &typed.phone,
            zip: "",
            may_call: typed.may_call,
        };
        let contact = ContactDetails::parse(input, rules).ok();
        if contact.is_none() {
            problems.phone = Some(page::plain(language).phone_error.to_owned());
        }
        let products: Vec<String> = PRODUCTS
            .iter()
            .filter(|(value, _)| typed.soa.iter().any(|p| p == value))
            .map(|(value, _)| (*value).to_owned())
            .collect();
        if products.is_empty() {
            problems.soa = Some(errors.soa.clone());
        }
        match (start, name, email, contact) {
            (Some(start), Some(name), Some(email), Some(contact)) if !problems.any() => {
                let request = QuoteRequest::parse(Product::Medicare.as_str(), email.as_str())
                    .map_err(|_| Box::new(problems.clone()))?;
                Ok(Valid {
                    start,
                    name: name.to_owned(),
                    request,
                    contact,
                    products,
                    joins: self
                        .refs
                        .check(&typed.lead, time::OffsetDateTime::now_utc())
                        .ok(),
                })
            }
            _ => Err(Box::new(problems)),
        }
    }

    /// The lead, the booking and its Scope of Appointment as they are to be stored.
    fn booking(&self, language: Language, sent: &Sent, valid: Valid, slot: Slot) -> NewBooking {
        let client = sent.client.map(|ip| ip.to_string());
        let page = form_path(language).to_owned();
        let mut lead_consent = self.notices.consent(
            language,
            ConsentChannel::FormWithoutScript,
            sent.client,
            sent.user_agent.as_deref(),
        );
        lead_consent.page = page.clone();
        if valid.contact.phone.is_some() {
            lead_consent.phone = self.notices.phone_consent(language, valid.contact.may_call);
        }
        let lead = NewQuote::new(valid.request, Source::Web, sent.user_agent.as_deref())
            .in_language(language)
            .with_consent(lead_consent)
            .with_contact(Contact::from(&valid.contact));
        let soa = NewConsent {
            notice: Some(self.site.texts(language).soa_statement.clone()),
            page,
            channel: ConsentChannel::FormWithoutScript,
            client,
            user_agent: sent.user_agent.clone(),
            phone: None,
        };
        NewBooking {
            lead,
            joins: valid.joins,
            starts_at: moment(slot.start),
            ends_at: moment(slot.end),
            soa,
            soa_evidence: SoaEvidence {
                products: valid.products,
                signature: valid.name,
                call_id: None,
            },
        }
    }
}

/// A full name as a Scope of Appointment's signature, trimmed: on one line and not too long.
pub fn signature(name: &str) -> Option<&str> {
    let name = name.trim();
    let fits = !name.is_empty()
        && name.chars().count() <= MAX_NAME_CHARS
        && !name.chars().any(char::is_control);
    fits.then_some(name)
}

/// The form's fields, the first of each (every `soa`), trimmed.
fn typed(body: &[u8]) -> Typed {
    let [slot, name, email, phone, lead] =
        body::first_values(body, ["slot", "name", "email", "phone", booking_ref::FIELD])
            .map(body::trimmed);
    let fields = || form_urlencoded::parse(body);
    Typed {
        slot,
        name,
        email,
        phone,
        may_call: fields().any(|(key, _)| key == "may_call"),
        soa: fields()
            .filter(|(key, _)| key == "soa")
            .map(|(_, value)| value.trim().to_owned())
            .take(PRODUCTS.len())
            .collect(),
        lead,
    }
}

/// The form page's script (`page::LOCAL_TIMES_JS`), cached for a while: it changes only with a
/// release.
fn script_reply() -> Reply {
    Response::builder()
        .header(header::CONTENT_TYPE, "text/javascript; charset=utf-8")
        .header(header::CACHE_CONTROL, "public, max-age=3600")
        .body(page::LOCAL_TIMES_JS.into())
        .unwrap_or_else(|_| StatusCode::INTERNAL_SERVER_ERROR.into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_first_each_and_every_product() {
        let typed = typed(
            b"slot=2026-03-09T15%3A00%3A00Z&name=+Ana+Ruiz+&name=x&email=a%40b.co&may_call=yes&soa=part_d&soa=medicare_advantage",
        );
        assert_eq!(typed.slot, "2026-03-09T15:00:00Z");
        assert_eq!(typed.name, "Ana Ruiz");
        assert!(typed.may_call);
        assert_eq!(typed.soa, ["part_d", "medicare_advantage"]);
    }
}
