//! The assistant's booking tools, answered only with booking on (docs/product.md §13), by the
//! same rule and into the same records as the booking page (`routes/booking/`):
//! - `available_times`: the next open times (`OPEN_TIMES_SAID` of them, from a date of the
//!   broker's calendar when one is given), on the broker's clock, each with its instant;
//! - `book_call`: one of them, for the caller's full name, e-mail (and phone, where the page asks
//!   for one), with the Scope of Appointment the assistant read them in `language` (the
//!   content's statement, the broker named: the same words the build gave the page and the push
//!   gave the assistant) and the product types they agreed to discuss. It stores a lead of its
//!   own (product `medicare`, from this call or chat), the booking and the Scope of
//!   Appointment's record, channel `voice` (`chat` in a chat), its evidence and `call_id`
//!   naming the conversation whose recording (or transcript) holds the agreement, in one
//!   transaction (`store::bookings`).
//!
//! Wrong arguments are named in the conversation's language, a time taken meanwhile is answered
//! with the times still open: a tool result either way, never an HTTP error.

use jiff::civil::Date;
use jiff::Timestamp;
use serde::Deserialize;
use serde_with::As;
use wasm_core::booking::Slot;
use wasm_core::{
    ContactDetails, ContactInput, ContactRules, Email, FieldRule, Product, QuoteRequest,
};

use super::booking_replies::{self as replies, words};
use super::conversation::{assistant_rules, settle, Conversation};
use super::lenient::Lenient;
use super::messages::ToolCall;
use super::replies::single_line;
use crate::leads::notice::LeadNotices;
use crate::routes::booking::{moment, signature, BookingSite, OpenNow, PRODUCTS};
use crate::store::bookings::{Booked, NewBooking};
use crate::store::consent::{NewConsent, SoaEvidence};
use crate::store::{Contact, Language, NewQuote, QuoteStore, VoiceOrigin};

/// How many of the next open times `available_times` answers: a handful to say aloud.
const OPEN_TIMES_SAID: usize = 6;

/// `available_times`' arguments: `from`, a date (`2026-03-09`) of the broker's calendar.
#[derive(Default, Deserialize)]
struct TimesArguments {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    from: String,
}

/// `book_call`'s arguments; one of another shape reads as empty and is refused as invalid.
#[derive(Default, Deserialize)]
struct BookArguments {
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    slot: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    name: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    email: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    phone: String,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    may_call: bool,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    products: Vec<String>,
    #[serde(default, deserialize_with = "As::<Lenient>::deserialize")]
    language: String,
}

pub async fn available_times(
    store: &dyn QuoteStore,
    site: &BookingSite,
    conversation: &Conversation<'_>,
    call: &ToolCall,
) -> Result<String, String> {
    let language = conversation.language;
    let arguments: TimesArguments = call
        .arguments()
        .map_err(|reason| replies::unreadable(language, &reason))?;
    let from = arguments.from.trim();
    let from = match from {
        "" => None,
        text => Some(
            text.parse::<Date>()
                .map_err(|_| single_line(&replies::field(words(language).from, text)))?,
        ),
    };
    let open = read_open(store, language).await?;
    let hours = &site.hours;
    let times: Vec<Slot> = open
        .times(hours)
        .into_iter()
        .filter(|slot| {
            from.is_none_or(|from| hours.time_zone.to_datetime(slot.start).date() >= from)
        })
        .take(OPEN_TIMES_SAID)
        .collect();
    let from = from.map(|date| date.to_string());
    Ok(replies::open(hours, &times, language, from.as_deref()))
}

/// What `book_call` was given, checked.
struct Valid {
    language: Language,
    start: Timestamp,
    name: String,
    request: QuoteRequest,
    contact: ContactDetails,
    products: Vec<String>,
}

pub async fn book_call(
    store: &dyn QuoteStore,
    notices: &LeadNotices,
    site: &BookingSite,
    conversation: &Conversation<'_>,
    call: &ToolCall,
) -> Result<String, String> {
    let arguments: BookArguments = call
        .arguments()
        .map_err(|reason| replies::unreadable(conversation.language, &reason))?;
    let valid = check(notices, conversation.language, &arguments)?;
    let language = valid.language;
    let hours = &site.hours;
    let (call_id, tool_call_id) = (conversation.call_id.to_owned(), call.id.clone());
    match store.booking_by_tool_call(call_id, tool_call_id).await {
        Ok(Some(earlier)) => {
            let start = earlier.starts_at.parse().unwrap_or(valid.start);
            let email = valid.request.email().as_str();
            return Ok(replies::booked(hours, start, &valid.name, email, language));
        }
        Ok(None) => {}
        Err(error) => {
            tracing::error!(%error, "cannot read the assistant's bookings");
            return Err(words(language).storage_failed.to_owned());
        }
    }
    let open = read_open(store, language).await?;
    let Some(slot) = open.slot(hours, valid.start) else {
        if open.taken_meanwhile(hours, valid.start) {
            return Err(still_open(site, &open, language));
        }
        let problem = words(language).slot_not_offered.to_owned();
        return Err(replies::invalid(language, &[problem]));
    };
    let (name, email, phone) = (
        valid.name.clone(),
        valid.request.email().as_str().to_owned(),
        valid.contact.phone.is_some(),
    );
    let new = booking(notices, site, conversation, call, valid, slot);
    match store.book(new).await {
        Ok(Booked::New { id, lead_id }) => {
            tracing::info!(booking = %id, lead = %lead_id, "the assistant booked a call");
            if phone {
                settle(store, conversation.call_id).await;
            }
            Ok(replies::booked(hours, slot.start, &name, &email, language))
        }
        Ok(Booked::Taken) => {
            let open = read_open(store, language).await?;
            Err(still_open(site, &open, language))
        }
        Err(error) => {
            tracing::error!(%error, "cannot store a booking the assistant took");
            Err(words(language).storage_failed.to_owned())
        }
    }
}

async fn read_open(store: &dyn QuoteStore, language: Language) -> Result<OpenNow, String> {
    OpenNow::read(store).await.map_err(|error| {
        tracing::error!(%error, "cannot read the booked times");
        words(language).storage_failed.to_owned()
    })
}

/// The answer to a time taken meanwhile: the next times still open.
fn still_open(site: &BookingSite, open: &OpenNow, language: Language) -> String {
    let times: Vec<Slot> = open
        .times(&site.hours)
        .into_iter()
        .take(OPEN_TIMES_SAID)
        .collect();
    replies::taken(&site.hours, &times, language)
}

/// Each argument by the booking page's rules (the phone by the quote form's, optional as the
/// assistant takes it); every wrong one named, in the language the statement was read in (the
/// conversation's when that is what is wrong).
fn check(
    notices: &LeadNotices,
    conversation: Language,
    arguments: &BookArguments,
) -> Result<Valid, String> {
    let given = arguments.language.trim();
    let language = match given {
        "" => Some(conversation),
        code => Language::parse(code),
    };
    // The replies are in the language the statement was read in, else the conversation's.
    let speak = language.unwrap_or(conversation);
    let words = words(speak);
    let mut problems = Vec::new();
    let start = arguments.slot.trim().parse::<Timestamp>().ok();
    if start.is_none() {
        problems.push(replies::field(words.slot, &arguments.slot));
    }
    let name = signature(&arguments.name);
    if name.is_none() {
        problems.push(words.name.to_owned());
    }
    let email = Email::parse(&arguments.email);
    if email.is_none() {
        problems.push(replies::field(words.email, &arguments.email));
    }
    let page = notices.rules(speak);
    let rules = ContactRules {
        zip: FieldRule::Off,
        ..assistant_rules(page)
    };
    let input = ContactInput {
        phone: &arguments.phone,
        zip: "",
        may_call: arguments.may_call,
    };
    let contact = ContactDetails::parse(input, rules).ok();
    if contact.is_none() {
        problems.push(words.phone.to_owned());
    }
    let known = |product: &String| PRODUCTS.iter().any(|(value, _)| value == product);
    let products: Vec<String> = PRODUCTS
        .iter()
        .map(|(value, _)| (*value).to_owned())
        .filter(|value| arguments.products.contains(value))
        .collect();
    if products.is_empty() || !arguments.products.iter().all(known) {
        problems.push(replies::products(speak));
    }
    if language.is_none() {
        problems.push(replies::field(words.language, given));
    }
    let reply = |problems: &[String]| replies::invalid(speak, problems);
    match (language, start, name, email, contact) {
        (Some(language), Some(start), Some(name), Some(email), Some(contact))
            if problems.is_empty() =>
        {
            let request = QuoteRequest::parse(Product::Medicare.as_str(), email.as_str())
                .map_err(|_| reply(&[replies::field(words.email, email.as_str())]))?;
            Ok(Valid {
                language,
                start,
                name: name.to_owned(),
                request,
                contact,
                products,
            })
        }
        _ => Err(reply(&problems)),
    }
}

/// The lead, the booking and its Scope of Appointment as they are to be stored.
fn booking(
    notices: &LeadNotices,
    site: &BookingSite,
    conversation: &Conversation<'_>,
    call: &ToolCall,
    valid: Valid,
    slot: Slot,
) -> NewBooking {
    let language = valid.language;
    let channel = conversation.channel();
    let mut lead_consent = notices.consent(language, channel, None, None);
    if valid.contact.phone.is_some() {
        lead_consent.phone = notices.phone_consent(language, valid.contact.may_call);
    }
    let soa = NewConsent {
        notice: Some(site.texts(language).soa_statement.clone()),
        page: lead_consent.page.clone(),
        channel,
        client: None,
        user_agent: None,
        phone: None,
    };
    let origin = VoiceOrigin {
        call_id: conversation.call_id.to_owned(),
        tool_call_id: call.id.clone(),
    };
    let lead = NewQuote::from_assistant(valid.request, conversation.source, origin)
        .in_language(language)
        .with_consent(lead_consent)
        .with_contact(Contact::from(&valid.contact));
    NewBooking {
        lead,
        // A call books for a lead of its own: it carries no quote's reference.
        joins: None,
        starts_at: moment(slot.start),
        ends_at: moment(slot.end),
        soa,
        soa_evidence: SoaEvidence {
            products: valid.products,
            signature: valid.name,
            call_id: Some(conversation.call_id.to_owned()),
        },
    }
}
