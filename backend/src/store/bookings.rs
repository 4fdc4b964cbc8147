//! Booked calls (docs/product.md §13): a visitor's booking of one of the broker's open times,
//! stored in one transaction with its lead and the Scope of Appointment signed with it, a record
//! of its own in the consent chain (`consent::SOA_KIND`). A time is booked at most once among the
//! bookings not cancelled, on any instance: the table's partial unique index decides, and the
//! booking that loses is told `Booked::Taken` with nothing stored.
//!
//! The lead is the one a quote made when the booking came by the quote's signed reference
//! (`leads::booking_ref`) with that lead's e-mail address and phone number, and the lead is still
//! there and not held as spam: the lead's row and first record stay as they are (its record's
//! hash covers its contact details), the Scope of Appointment is appended on it, and a phone box
//! ticked adds a written consent to be called (`written_consent`), while one left unticked takes
//! nothing back. Otherwise the booking makes a lead of its own. A lead deleted takes its
//! bookings with it (`DELETE_OF_LEAD`): its Scope of Appointment stays in the chain as every
//! record of it does.
//!
//! Booking, moving and cancelling queue the booking's e-mails in the same transaction
//! (`booking_mails.rs`). A visitor moves a booking by its link (`routes/booking_manage`): the new
//! booking is taken and the old cancelled in one transaction, and the new one keeps the old one's
//! lead and Scope of Appointment record (`soa_seq`): the record holds what the visitor agreed to
//! discuss and signed, which a new time does not change, so no new record is made.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use uuid::Uuid;

use super::booking_mail_queue::{self, MailKind};
use super::call_consent::CallConsent;
use super::consent::{self, ConsentChannel, Link, NewConsent, Reach, SoaEvidence};
use super::do_not_contact;
use super::insert_quote::{QuoteValues, INSERT_QUOTE};
use super::lead_columns::PHONE;
use super::lead_queries::{self, BOOKING_BY_TOOL_CALL, UPCOMING_BOOKINGS};
use super::model::{LeadStatus, NewQuote, StoredQuote};
use super::rows::stored_quote;
use super::sql::{on_every_database, Connection, Lane, NamedRow, Value};
use super::written_consent::{self, append_link, NewWrittenConsent};
use super::StoreError;

/// $1 id, $2 lead, $3 start, $4 end, $5 now: nothing when the time is booked already.
const INSERT_BOOKING: &str = "INSERT INTO bookings (id, lead_id, starts_at, ends_at, created_at)
    VALUES ($1, $2, $3, $4, $5) ON CONFLICT DO NOTHING";
const SET_SOA: &str = "UPDATE bookings SET soa_seq = $2 WHERE id = $1";
/// $1 the record, $2 the conversation its Scope of Appointment was agreed in.
const LINK_CALL: &str = "UPDATE consent_records SET call_id = $2 WHERE seq = $1";
/// $1 now: the times booked that have not ended.
const TAKEN: &str = "SELECT starts_at, ends_at FROM bookings
    WHERE status = 'booked' AND ends_at > $1 ORDER BY starts_at";
const LISTED: &str = "SELECT b.id, b.lead_id, b.starts_at, b.ends_at, b.status, r.evidence,
        r.notice_sha256, r.at, r.channel
    FROM bookings b LEFT JOIN consent_records r ON r.seq = b.soa_seq";
/// $1 new id, $2 the booking moved, $3 start, $4 end, $5 now: nothing when the time is booked
/// already or the booking moved is not booked.
const INSERT_MOVED: &str =
    "INSERT INTO bookings (id, lead_id, starts_at, ends_at, created_at, soa_seq)
    SELECT $1, lead_id, $3, $4, $5, soa_seq FROM bookings WHERE id = $2 AND status = 'booked'
    ON CONFLICT DO NOTHING";
/// $1 lead: the latest name it signed a Scope of Appointment with.
const LATEST_SIGNATURE: &str = "SELECT evidence FROM consent_records
    WHERE lead_id = $1 AND kind = 'soa' ORDER BY seq DESC LIMIT 1";
/// $1 id, $2 now.
const CANCEL: &str = "UPDATE bookings SET status = 'cancelled', cancelled_at = $2
    WHERE id = $1 AND status = 'booked'";
/// $1 lead, $2 now: its bookings still to come, cancelled as the lead is marked do not contact
/// (`inbox.rs`).
pub(super) const CANCEL_UPCOMING_OF_LEAD: &str =
    "UPDATE bookings SET status = 'cancelled', cancelled_at = $2
    WHERE lead_id = $1 AND status = 'booked' AND starts_at > $2";
/// $1 lead: its bookings, deleted with it in its transaction (`inbox.rs`), so none is left naming
/// a lead that is gone and the times to come are open again.
pub(super) const DELETE_OF_LEAD: &str = "DELETE FROM bookings WHERE lead_id = $1";

/// A booking as the visitor sent it, with the lead it makes unless it joins one.
#[derive(Clone, Debug)]
pub struct NewBooking {
    /// The lead, with its own consent record (the lead-generation notice beside the form).
    pub lead: NewQuote,
    /// The lead a quote made that the booking came from (by its signed reference): joined
    /// instead of storing `lead` when it is still there, not held as spam, and has `lead`'s
    /// e-mail address (in any case) and phone number.
    pub joins: Option<String>,
    pub starts_at: OffsetDateTime,
    pub ends_at: OffsetDateTime,
    /// The Scope of Appointment: its statement's exact text as the page showed it, where, how,
    /// from which address and browser.
    pub soa: NewConsent,
    pub soa_evidence: SoaEvidence,
}

/// A call to come, with the lead's number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Upcoming {
    pub booking: Booking,
    pub phone: Option<String>,
}

/// What became of a visitor's move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Moved {
    New {
        id: String,
    },
    /// The new time was booked meanwhile: nothing changed.
    Taken,
    /// The booking is not booked (cancelled, or moved already): nothing changed.
    NotBooked,
}

/// What became of a cancellation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cancelled {
    Now,
    /// Cancelled (or moved) before.
    Already,
    Unknown,
}

/// What became of a booking.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Booked {
    /// Stored, or stored before by the same tool call of the assistant.
    New { id: String, lead_id: String },
    /// The time was booked meanwhile: nothing stored.
    Taken,
}

/// A booking's Scope of Appointment as the admin API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct SoaShown {
    #[schema(schema_with = super::schema::soa_products)]
    pub products: Vec<String>,
    pub signature: String,
    /// The statement's SHA-256, its key in `notice_texts`.
    #[schema(required = true)]
    pub sha256: Option<String>,
    #[schema(format = DateTime)]
    pub at: String,
    pub channel: String,
}

/// A booking as the admin API shows it; times in UTC, RFC 3339.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Booking {
    pub id: String,
    /// The lead the booking made, or the quote's lead it joined (deleting the lead deletes its
    /// bookings).
    pub lead_id: String,
    #[schema(format = DateTime)]
    pub starts_at: String,
    #[schema(format = DateTime)]
    pub ends_at: String,
    /// `booked` or `cancelled`.
    #[schema(schema_with = super::schema::booking_status)]
    pub status: String,
    #[schema(required = true)]
    pub soa: Option<SoaShown>,
}

/// What the booking page pre-fills for a lead it joins.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct KnownLead {
    pub email: String,
    /// E.164.
    pub phone: Option<String>,
    /// The name it last signed a Scope of Appointment with.
    pub name: Option<String>,
}

on_every_database! {
    pub trait Bookings: Send + Sync {
        /// Lead `id`'s contact details, unless it is gone or held as spam (a booking would not join
        /// it).
        fn known_lead(&self, id: String) -> BoxFuture<'_, Result<Option<KnownLead>, StoreError>> {
            let lead = self.query(Lane::Person, lead_queries::lead(), vec![id.as_str().into()]);
            let signed = self.query(Lane::Person, LATEST_SIGNATURE, vec![id.into()]);
            async move {
                let Some(lead) = lead.await?.first().map(stored_quote).transpose()? else {
                    return Ok(None);
                };
                if lead.status == LeadStatus::Spam {
                    return Ok(None);
                }
                let name = signed
                    .await?
                    .first()
                    .map(|row| row.text("evidence"))
                    .transpose()?
                    .flatten()
                    .and_then(|json| serde_json::from_str::<SoaEvidence>(&json).ok())
                    .map(|evidence| evidence.signature);
                Ok(Some(KnownLead {
                    email: lead.email,
                    phone: lead.contact.phone,
                    name,
                }))
            }
            .boxed()
        }

        /// Stores `new`, its lead and its Scope of Appointment in one transaction.
        fn book(&self, new: NewBooking) -> BoxFuture<'_, Result<Booked, StoreError>> {
            let queued = self.options().queued_channels();
            let mail = self.options().email_leads;
            self.run(Lane::Person, true, move |c| {
                async move {
                    let booked = book(c, &new, queued.as_deref()).await?;
                    if let (Booked::New { id, .. }, true) = (&booked, mail) {
                        booking_mail_queue::queue_booked(c, id, new.starts_at, new.lead.created_at)
                            .await?;
                    }
                    Ok(booked)
                }
                .boxed()
            })
        }

        /// The start and end of every booking not cancelled that ends after `now`.
        fn taken_times(
            &self,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<Vec<(OffsetDateTime, OffsetDateTime)>, StoreError>> {
            let rows = self.query(Lane::Person, TAKEN, vec![now.into()]);
            async move {
                rows.await?
                    .iter()
                    .map(|row| Ok((moment(row, "starts_at")?, moment(row, "ends_at")?)))
                    .collect()
            }
            .boxed()
        }

        /// Up to `limit` bookings (of lead `lead` only, when given), the latest time first.
        fn bookings(
            &self,
            limit: usize,
            lead: Option<String>,
        ) -> BoxFuture<'_, Result<Vec<Booking>, StoreError>> {
            let sql = format!(
                "{LISTED} WHERE (CAST($2 AS TEXT) IS NULL OR b.lead_id = $2)
                ORDER BY b.starts_at DESC, b.id LIMIT $1"
            );
            let rows = self.query(Lane::Person, sql, vec![limit.into(), lead.into()]);
            async move { rows.await?.iter().map(booking).collect() }.boxed()
        }

        fn booking(&self, id: String) -> BoxFuture<'_, Result<Option<Booking>, StoreError>> {
            let sql = format!("{LISTED} WHERE b.id = $1");
            let rows = self.query(Lane::Person, sql, vec![id.into()]);
            async move { rows.await?.first().map(booking).transpose() }.boxed()
        }

        /// The booking the assistant's tool call `tool_call_id` in conversation `call_id` made, if
        /// any: the provider may send a tool call again.
        fn booking_by_tool_call(
            &self,
            call_id: String,
            tool_call_id: String,
        ) -> BoxFuture<'_, Result<Option<Booking>, StoreError>> {
            let sql = format!("{LISTED} {BOOKING_BY_TOOL_CALL}");
            let rows = self.query(Lane::Person, sql, vec![call_id.into(), tool_call_id.into()]);
            async move { rows.await?.first().map(booking).transpose() }.boxed()
        }

        /// Every booking not cancelled that ends after `now`, the earliest first, with the lead's
        /// number (the broker's calendar feed).
        fn upcoming_bookings(
            &self,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<Vec<Upcoming>, StoreError>> {
            let rows = self.query(Lane::Person, UPCOMING_BOOKINGS, vec![now.into()]);
            async move {
                rows.await?
                    .iter()
                    .map(|row| {
                        Ok(Upcoming {
                            booking: booking(row)?,
                            phone: row.text(PHONE)?,
                        })
                    })
                    .collect()
            }
            .boxed()
        }

        /// Cancels booking `id` if it is booked, queueing the broker's cancellation.
        fn cancel_booking(
            &self,
            id: String,
            at: OffsetDateTime,
        ) -> BoxFuture<'_, Result<Cancelled, StoreError>> {
            let mail = self.options().email_leads;
            self.run(Lane::Person, true, move |c| {
                async move {
                    if c.execute(CANCEL, &[id.as_str().into(), at.into()]).await? == 1 {
                        if mail {
                            booking_mail_queue::queue(c, &id, MailKind::Cancel, at).await?;
                        }
                        return Ok(Cancelled::Now);
                    }
                    let exists = c
                        .query("SELECT id FROM bookings WHERE id = $1", &[id.into()])
                        .await?;
                    Ok(match exists.is_empty() {
                        true => Cancelled::Unknown,
                        false => Cancelled::Already,
                    })
                }
                .boxed()
            })
        }

        /// Books `starts_at`..`ends_at` for booking `id`'s lead and Scope of Appointment and
        /// cancels `id`, in one transaction, queueing the broker's cancellation of the old and the
        /// new one's e-mails.
        fn move_booking(
            &self,
            id: String,
            starts_at: OffsetDateTime,
            ends_at: OffsetDateTime,
            at: OffsetDateTime,
        ) -> BoxFuture<'_, Result<Moved, StoreError>> {
            let mail = self.options().email_leads;
            self.run(Lane::Person, true, move |c| {
                async move {
                    let new = Uuid::now_v7().to_string();
                    let values: [Value; 5] = [
                        new.as_str().into(),
                        id.as_str().into(),
                        starts_at.into(),
                        ends_at.into(),
                        at.into(),
                    ];
                    if c.execute(INSERT_MOVED, &values).await? == 0 {
                        let booked = c
                            .query(
                                "SELECT id FROM bookings WHERE id = $1 AND status = 'booked'",
                                &[id.as_str().into()],
                            )
                            .await?;
                        return Ok(match booked.is_empty() {
                            true => Moved::NotBooked,
                            false => Moved::Taken,
                        });
                    }
                    c.execute(CANCEL, &[id.as_str().into(), at.into()]).await?;
                    if mail {
                        booking_mail_queue::queue(c, &id, MailKind::Cancel, at).await?;
                        booking_mail_queue::queue_booked(c, &new, starts_at, at).await?;
                    }
                    Ok(Moved::New { id: new })
                }
                .boxed()
            })
        }
    }
}

/// Booking `id` as the admin API shows it, read in a transaction.
pub(super) async fn read(c: &mut dyn Connection, id: &str) -> Result<Option<Booking>, StoreError> {
    let sql = format!("{LISTED} WHERE b.id = $1");
    let rows = c.query(&sql, &[id.into()]).await?;
    rows.first().map(booking).transpose()
}

async fn book(
    c: &mut dyn Connection,
    new: &NewBooking,
    queued: Option<&str>,
) -> Result<Booked, StoreError> {
    if let Some(lock) = c.transaction_lock() {
        c.execute(lock, &[consent::CHAIN_LOCK.into()]).await?;
    }
    let lead = &new.lead;
    // A tool call sent again while its first was being stored is answered with that booking.
    if let Some(origin) = &lead.voice {
        let key = [
            origin.call_id.as_str().into(),
            origin.tool_call_id.as_str().into(),
        ];
        let sql = format!("SELECT b.id, b.lead_id FROM bookings b {BOOKING_BY_TOOL_CALL}");
        if let Some(row) = c.query(&sql, &key).await?.first() {
            return Ok(Booked::New {
                id: row.required("id")?,
                lead_id: row.required("lead_id")?,
            });
        }
    }
    let joined = match &new.joins {
        Some(id) => joinable(c, id, lead).await?,
        None => None,
    };
    let id = Uuid::now_v7().to_string();
    let lead_id = joined
        .as_ref()
        .map_or_else(|| lead.id.to_string(), |known| known.id.clone());
    let booking: [Value; 5] = [
        id.as_str().into(),
        lead_id.as_str().into(),
        new.starts_at.into(),
        new.ends_at.into(),
        lead.created_at.into(),
    ];
    if c.execute(INSERT_BOOKING, &booking).await? == 0 {
        return Ok(Booked::Taken);
    }
    let soa = match &joined {
        Some(known) => join(c, new, known).await?,
        None => make_lead(c, new, queued).await?,
    };
    c.execute(SET_SOA, &[id.as_str().into(), soa.into()])
        .await?;
    if let Some(call_id) = &new.soa_evidence.call_id {
        c.execute(LINK_CALL, &[soa.into(), call_id.as_str().into()])
            .await?;
    }
    Ok(Booked::New { id, lead_id })
}

/// Lead `id`, locked until the booking is stored (a deletion meanwhile waits, then takes the
/// booking with it), if the booking may join it.
async fn joinable(
    c: &mut dyn Connection,
    id: &str,
    typed: &NewQuote,
) -> Result<Option<StoredQuote>, StoreError> {
    let exists = format!("{}{}", lead_queries::LEAD_EXISTS, c.row_lock());
    if c.query(&exists, &[id.into()]).await?.is_empty() {
        return Ok(None);
    }
    let rows = c.query(&lead_queries::lead(), &[id.into()]).await?;
    let Some(lead) = rows.first().map(stored_quote).transpose()? else {
        return Ok(None);
    };
    let same = lead
        .email
        .eq_ignore_ascii_case(typed.request.email().as_str())
        && lead.contact.phone == typed.contact.phone;
    Ok((same && lead.status != LeadStatus::Spam).then_some(lead))
}

/// The booking's new lead with its record, then its Scope of Appointment; the latter's number.
async fn make_lead(
    c: &mut dyn Connection,
    new: &NewBooking,
    queued: Option<&str>,
) -> Result<i64, StoreError> {
    let lead = &new.lead;
    let values = QuoteValues::new(lead, queued);
    let row: Vec<Value> = values.values().into_iter().map(Value::from).collect();
    c.execute(&INSERT_QUOTE, &row).await?;
    if let Some(given) = &lead.consent {
        append_link(c, given, |head| lead.link_after(head, given)).await?;
    }
    let soa = append_link(c, &new.soa, |head| {
        lead.link_after(head, &new.soa)
            .scope_of_appointment(&new.soa_evidence)
    })
    .await?;
    if let Some((phone, email)) = do_not_contact::lifted_by(lead) {
        c.execute(do_not_contact::LIFT, &[phone.into(), email.into()])
            .await?;
    }
    Ok(soa)
}

/// The Scope of Appointment on the lead `known` the booking joins, reached as that lead is, and
/// with the phone box ticked a written consent to be called (nothing when the lead holds one
/// already); the former's number.
async fn join(
    c: &mut dyn Connection,
    new: &NewBooking,
    known: &StoredQuote,
) -> Result<i64, StoreError> {
    let booked = &new.lead;
    let reach = Reach {
        email: &known.email,
        phone: known.contact.phone.as_deref(),
        may_call: known.contact.may_call_text(),
    };
    let soa = append_link(c, &new.soa, |head| {
        Link::after(
            head,
            &known.id,
            booked.language,
            booked.created_at,
            reach,
            &new.soa,
        )
        .scope_of_appointment(&new.soa_evidence)
    })
    .await?;
    let ticked = booked
        .consent
        .as_ref()
        .and_then(|given| given.phone.as_ref())
        .filter(|phone| phone.given);
    if let Some(phone) = ticked {
        if known.call_consent != Some(CallConsent::Written) {
            let written = NewWrittenConsent {
                lead_id: known.id.clone(),
                disclosure: phone.disclosure.clone(),
                channel: ConsentChannel::FormWithoutScript,
                page: new.soa.page.clone(),
                language: booked.language,
                client: new.soa.client.clone(),
                user_agent: new.soa.user_agent.clone(),
                evidence: None,
                at: booked.created_at,
            };
            written_consent::append(c, written).await?;
        }
    }
    Ok(soa)
}

fn moment(row: &impl NamedRow, column: &str) -> Result<OffsetDateTime, StoreError> {
    let text = row.required(column)?;
    OffsetDateTime::parse(&text, &Rfc3339).map_err(|_| {
        StoreError::Unusable(format!("bookings.{column} is not a time: {text}").into())
    })
}

fn booking(row: &impl NamedRow) -> Result<Booking, StoreError> {
    let evidence: Option<SoaEvidence> = row
        .text("evidence")?
        .and_then(|json| serde_json::from_str(&json).ok());
    let soa = match evidence {
        Some(evidence) => Some(SoaShown {
            products: evidence.products,
            signature: evidence.signature,
            sha256: row.text("notice_sha256")?,
            at: row.required("at")?,
            channel: row.required("channel")?,
        }),
        None => None,
    };
    Ok(Booking {
        id: row.required("id")?,
        lead_id: row.required("lead_id")?,
        starts_at: row.required("starts_at")?,
        ends_at: row.required("ends_at")?,
        status: row.required("status")?,
        soa,
    })
}
