//! A booking's e-mails (docs/product.md §13), queued in the transaction that books, moves or
//! cancels it so none is lost between commit and send: the broker's invitation (`request`) and
//! cancellation (`cancel`), the visitor's confirmation and reminder (due the day before the
//! call). A row per booking and kind, so each goes once; the worker (`forward/booking_mails.rs`)
//! claims the rows due for a while, so one instance of several takes each, and marks it sent.
//! Queued (`booking_mail_queue.rs`) only when the site sends e-mail (`SMTP_URL`), as the lead
//! e-mails are.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

pub use super::booking_mail_queue::MailKind;
use super::bookings::{self, Booking};
use super::lead_columns::{EMAIL, LANGUAGE, PHONE};
use super::lead_queries::BOOKING_VISITOR;
use super::sql::{on_every_database, Lane, NamedRow, Value};
use super::{Language, StoreError};

/// A row due, with what its e-mail says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DueMail {
    pub kind: MailKind,
    pub attempts: u32,
    pub booking: Booking,
    /// The lead's address, language and number (gone with the lead: `None`).
    pub visitor: Option<Visitor>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Visitor {
    pub email: String,
    pub language: Language,
    pub phone: Option<String>,
}

/// What became of one attempt.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MailOutcome {
    Sent,
    /// Not to be sent any more (the call was cancelled or has begun, the relay refused it).
    Dropped {
        why: String,
    },
    Retry {
        error: String,
        at: OffsetDateTime,
    },
    /// Over the hour's e-mail budget: due again at `at`, nothing spent.
    Later {
        at: OffsetDateTime,
    },
}

/// $1 now, $2 claimed until, $3 limit. The outer condition repeats the claim's: on PostgreSQL a
/// second instance waiting on the row lock re-reads the row and skips one just claimed.
const TAKE_DUE: &str = "UPDATE booking_mails SET claimed_until = $2
    WHERE (booking_id, kind) IN (
        SELECT booking_id, kind FROM booking_mails
        WHERE sent_at IS NULL AND gave_up_at IS NULL AND due_at <= $1
            AND (claimed_until IS NULL OR claimed_until <= $1)
        ORDER BY due_at LIMIT $3)
    AND (claimed_until IS NULL OR claimed_until <= $1)
    RETURNING booking_id, kind, attempts";
/// $1 booking, $2 kind, then each outcome's values.
const SENT: &str = "UPDATE booking_mails SET sent_at = $3, attempts = attempts + 1,
        last_error = NULL, claimed_until = NULL
    WHERE booking_id = $1 AND kind = $2";
const DROPPED: &str = "UPDATE booking_mails SET gave_up_at = $3, last_error = $4,
        claimed_until = NULL
    WHERE booking_id = $1 AND kind = $2";
const RETRY: &str = "UPDATE booking_mails SET due_at = $3, last_error = $4,
        attempts = attempts + 1, claimed_until = NULL
    WHERE booking_id = $1 AND kind = $2";
const LATER: &str = "UPDATE booking_mails SET due_at = $3, claimed_until = NULL
    WHERE booking_id = $1 AND kind = $2";

on_every_database! {
    pub trait BookingMails: Send + Sync {
        /// Up to `limit` rows due at `now`, each claimed until `claim_until` so that one instance
        /// of several takes it.
        fn take_due_mails(
            &self,
            now: OffsetDateTime,
            claim_until: OffsetDateTime,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<DueMail>, StoreError>> {
            let values = vec![now.into(), claim_until.into(), limit.into()];
            self.run(Lane::Outbox, true, move |c| {
                async move {
                    let claimed = c.query(TAKE_DUE, &values).await?;
                    let mut due = Vec::with_capacity(claimed.len());
                    for row in claimed {
                        let id = row.required("booking_id")?;
                        let kind = row.required("kind")?;
                        let kind = MailKind::parse(&kind).ok_or_else(|| {
                            StoreError::Unusable(format!("booking_mails.kind is {kind}").into())
                        })?;
                        let Some(booking) = bookings::read(c, &id).await? else {
                            continue;
                        };
                        let visitor = c
                            .query(BOOKING_VISITOR, &[booking.lead_id.as_str().into()])
                            .await?;
                        let visitor = visitor.first().map(visitor_of).transpose()?;
                        due.push(DueMail {
                            kind,
                            attempts: row.count("attempts")?.unwrap_or(0),
                            booking,
                            visitor,
                        });
                    }
                    Ok(due)
                }
                .boxed()
            })
        }

        fn record_mail(
            &self,
            booking_id: String,
            kind: MailKind,
            outcome: MailOutcome,
        ) -> BoxFuture<'_, Result<(), StoreError>> {
            let now = OffsetDateTime::now_utc();
            let mut values: Vec<Value> = vec![booking_id.into(), kind.as_str().into()];
            let sql = match outcome {
                MailOutcome::Sent => {
                    values.push(now.into());
                    SENT
                }
                MailOutcome::Dropped { why } => {
                    values.extend([now.into(), why.into()]);
                    DROPPED
                }
                MailOutcome::Retry { error, at } => {
                    values.extend([at.into(), error.into()]);
                    RETRY
                }
                MailOutcome::Later { at } => {
                    values.push(at.into());
                    LATER
                }
            };
            let done = self.execute(Lane::Outbox, sql, values);
            async move { done.await.map(drop) }.boxed()
        }
    }
}

fn visitor_of(row: &impl NamedRow) -> Result<Visitor, StoreError> {
    Ok(Visitor {
        email: row.required(EMAIL)?,
        language: Language::parse(&row.required(LANGUAGE)?).unwrap_or(Language::En),
        phone: row.text(PHONE)?,
    })
}
