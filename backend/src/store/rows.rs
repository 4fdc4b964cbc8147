//! Rows read back by column name, for both stores: each driver's row answers `NamedRow`, and
//! each typed value has one mapping from it. A column a query adds or moves is read by the name
//! the query gives it, wherever it stands.

use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use wasm_core::Product;

use super::call_consent::{CallConsent, WrittenLater};
use super::consent::{Consent, ConsentChannel, PhoneConsentShown};
use super::language::Language;
use super::lead_columns::{
    CALL_ID, CREATED_AT, DO_NOT_CONTACT_AT, EMAIL, ID, LANGUAGE, MAY_CALL, NOTE, PHONE, PRODUCT,
    QUEUED_CHANNELS, SOURCE, SPAM, STATE, STATUS, STATUS_CHANGED_AT, USER_AGENT, ZIP,
};
use super::lead_events::{LeadEvent, QueuedEvent};
use super::model::{
    Channel, Contact, Deliveries, Delivery, DeliveryStatus, Inserted, LeadStatus, NewQuote,
    PendingLead, Source, StoredQuote,
};
use super::queued::{QueuedChannels, QueuedLead};
use super::sql::NamedRow;
use super::{Cause, StoreError};

/// A row of `lead_queries::due_deliveries` or `claim_due_deliveries`: the quote due on `channel`,
/// with the event its webhook row was re-queued for.
pub fn pending_lead(row: &impl NamedRow, channel: Channel) -> Result<PendingLead, StoreError> {
    let quote = stored_quote(row)?;
    let event = match (channel, row.text("webhook_event")?) {
        (Channel::Webhook, Some(event)) => {
            let unreadable = |what: &str| {
                let id = &quote.id;
                StoreError::Database(
                    format!("quote request {id}: its webhook {what} cannot be read").into(),
                )
            };
            let event = LeadEvent::parse(&event).ok_or_else(|| unreadable("event"))?;
            let at = row.required("webhook_event_at")?;
            let at =
                OffsetDateTime::parse(&at, &Rfc3339).map_err(|_| unreadable("event's time"))?;
            Some(QueuedEvent { event, at })
        }
        _ => None,
    };
    Ok(PendingLead::new(quote, channel, event))
}

/// A row of `lead_queries::SELECT_QUOTES`.
pub fn stored_quote(row: &impl NamedRow) -> Result<StoredQuote, StoreError> {
    let id = row.required(ID)?;
    let message = |column: &str, value: &str| {
        format!("quote request {id}: the stored {column} {value:?} cannot be read")
    };
    let unreadable = |column, value| StoreError::Database(message(column, value).into());
    let product = row.required(PRODUCT)?;
    let product = Product::ALL
        .into_iter()
        .find(|p| p.as_str() == product)
        .ok_or_else(|| unreadable(PRODUCT, &product))?;
    let source = row.required(SOURCE)?;
    let source = Source::parse(&source).ok_or_else(|| unreadable(SOURCE, &source))?;
    let created_at = row.required(CREATED_AT)?;
    let created_at = OffsetDateTime::parse(&created_at, &Rfc3339)
        .map_err(|e| StoreError::Database(Cause::new(message(CREATED_AT, &created_at), e)))?;
    let status = row.required(STATUS)?;
    let status = LeadStatus::parse(&status).ok_or_else(|| unreadable(STATUS, &status))?;
    let spam_reason = row.text(SPAM)?;
    let language = row.required(LANGUAGE)?;
    let language = Language::parse(&language).ok_or_else(|| unreadable(LANGUAGE, &language))?;
    let status = if spam_reason.is_some() {
        LeadStatus::Spam
    } else if row.text(DO_NOT_CONTACT_AT)?.is_some() {
        LeadStatus::DoNotContact
    } else {
        status
    };
    let consent = consent(row, &id)?;
    let written_later = written_later(row, &id)?;
    let may_call = row.text(MAY_CALL)?.as_deref() == Some("yes");
    let queued = row.text(QUEUED_CHANNELS)?;
    let mut deliveries = Deliveries::default();
    let mut any = false;
    for channel in Channel::ALL {
        let delivery = match delivery_on(row, channel)? {
            None if queued
                .as_deref()
                .is_some_and(|q| QueuedChannels::holds(q, channel)) =>
            {
                Some(Delivery::queued())
            }
            delivery => delivery,
        };
        any |= delivery.is_some();
        deliveries.set(channel, delivery);
    }
    Ok(StoredQuote {
        product,
        email: row.required(EMAIL)?,
        source,
        user_agent: row.text(USER_AGENT)?,
        created_at,
        call_id: row.text(CALL_ID)?,
        call_ended_reason: row.text("ended_reason")?,
        call_summary: row.text("summary")?,
        delivery: any.then_some(deliveries),
        status,
        status_changed_at: row.text(STATUS_CHANGED_AT)?,
        spam_reason,
        note: row.text(NOTE)?,
        language,
        call_consent: CallConsent::of(may_call, consent.as_ref().map(|c| c.channel), written_later),
        written_later,
        consent,
        contact: Contact {
            phone: row.text(PHONE)?,
            may_call,
            zip: row.text(ZIP)?,
            state: row.text(STATE)?,
        },
        licensed: None,
        id,
    })
}

/// `SELECT_QUOTES`' consent columns: the lead's record with its notice, if it has one.
fn consent(row: &impl NamedRow, id: &str) -> Result<Option<Consent>, StoreError> {
    let Some(channel) = row.text("consent_channel")? else {
        return Ok(None);
    };
    let unreadable = |column: &str, value: &str| {
        StoreError::Database(
            format!("consent record of {id}: the stored {column} {value:?} cannot be read").into(),
        )
    };
    let at = row.required("consent_at")?;
    let language = row.required("consent_language")?;
    Ok(Some(Consent {
        text: row.text("consent_text")?,
        sha256: row.text("consent_sha256")?,
        page: row.required("consent_page")?,
        language: Language::parse(&language).ok_or_else(|| unreadable("language", &language))?,
        at: OffsetDateTime::parse(&at, &Rfc3339).map_err(|_| unreadable("time", &at))?,
        channel: ConsentChannel::parse(&channel).ok_or_else(|| unreadable("channel", &channel))?,
        phone: row
            .text("consent_phone")?
            .map(|given| -> Result<PhoneConsentShown, StoreError> {
                Ok(PhoneConsentShown {
                    text: row.text("consent_phone_disclosure")?,
                    given: given == "given",
                })
            })
            .transpose()?,
    }))
}

/// `SELECT_QUOTES`' written consent given after the lead, if any.
fn written_later(row: &impl NamedRow, id: &str) -> Result<Option<WrittenLater>, StoreError> {
    let (Some(channel), Some(at)) = (
        row.text("written_consent_channel")?,
        row.text("written_consent_at")?,
    ) else {
        return Ok(None);
    };
    let unreadable = || {
        StoreError::Database(
            format!("written consent of {id}: {channel:?} at {at:?} cannot be read").into(),
        )
    };
    Ok(Some(WrittenLater {
        channel: ConsentChannel::parse(&channel).ok_or_else(unreadable)?,
        at: OffsetDateTime::parse(&at, &Rfc3339).map_err(|_| unreadable())?,
    }))
}

/// A row of `lead_queries::QUEUED_LEADS`.
pub fn queued_lead(row: &impl NamedRow) -> Result<QueuedLead, StoreError> {
    Ok(QueuedLead {
        id: row.required(ID)?,
        created_at: row.required(CREATED_AT)?,
        channels: QueuedChannels::parse(&row.required(QUEUED_CHANNELS)?).collect(),
    })
}

/// A row of `lead_queries::EARLIER_QUOTE`, compared with `quote`, which was not stored beside it.
pub fn earlier(quote: &NewQuote, row: &impl NamedRow) -> Result<Inserted, StoreError> {
    Ok(Inserted::earlier(
        quote,
        row.required(ID)?,
        &row.required(PRODUCT)?,
        &row.required(EMAIL)?,
    ))
}

/// One channel's joined outbox row, by the names `SELECT_QUOTES` gives its columns: the
/// channel's name, then the column's (`webhook_attempts`).
fn delivery_on(row: &impl NamedRow, channel: Channel) -> Result<Option<Delivery>, StoreError> {
    let column = |name: &str| format!("{}_{name}", channel.as_str());
    if !row.flag(&column("queued"))? {
        return Ok(None);
    }
    let delivered_at = row.text(&column("delivered_at"))?;
    let status = match (&delivered_at, row.text(&column("gave_up_at"))?) {
        (Some(_), _) => DeliveryStatus::Delivered,
        (None, Some(_)) => DeliveryStatus::Undelivered,
        (None, None) => DeliveryStatus::Pending,
    };
    Ok(Some(Delivery {
        status,
        attempts: row.count(&column("attempts"))?.unwrap_or(0),
        last_error: row.text(&column("last_error"))?,
        delivered_at,
    }))
}
