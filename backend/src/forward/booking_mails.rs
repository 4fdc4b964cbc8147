//! Sends a booking's e-mails as they fall due (`store::booking_mails`, `email/booking.rs`): the
//! broker's invitation and cancellation, the visitor's confirmation and, the day before the call,
//! the reminder. Each row is claimed by one instance of several for longer than a send takes and
//! marked sent after the relay took it, so each goes once (a crash between the two sends it again
//! after the claim: at least once). The state lives in the database, so it survives restarts.
//!
//! Every e-mail spends the site's hourly e-mail budget (`LEAD_EMAIL_MAX_PER_HOUR`) on its first
//! attempt, as a lead e-mail does: the visitor's go to an address a stranger typed. Over the
//! budget an e-mail waits for the next hour. The visitor's confirmation and reminder are not sent
//! for a call cancelled meanwhile, nor a reminder once the call has begun; a failure is retried
//! with backoff, a refusal (5xx) is not.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::sync::oneshot;

use super::backoff;
use super::email::{BookingMail, Mailer};
use super::worker::{bounded, rounds, Failure, DELIVERY_TIMEOUT};
use crate::leads::booking_link::{self, BookingLinks};
use crate::leads::booking_words::BookingWords;
use crate::settings::leads::RetryPolicy;
use crate::settings::site::SiteSettings;
use crate::store::booking_mails::{BookingMails, DueMail, MailKind, MailOutcome};
use crate::store::{hour_of, EmailBudget};

/// A row taken by one instance is left to it for longer than a send may take.
const CLAIM: Duration = Duration::from_secs(60);
const POLL_INTERVAL: Duration = Duration::from_secs(1);
const BATCH: usize = 16;
/// A booking's e-mail still failing after this many attempts is given up.
const MAX_ATTEMPTS: u32 = 12;

/// What the booking e-mails' worker needs.
pub struct BookingMailer {
    pub store: Arc<dyn BookingMails>,
    pub budget: Arc<dyn EmailBudget>,
    pub mailer: Arc<Mailer>,
    pub words: Option<Arc<BookingWords>>,
    pub links: Arc<BookingLinks>,
    pub site: SiteSettings,
    pub max_per_hour: u32,
    pub retry: RetryPolicy,
}

impl BookingMailer {
    /// Runs until `stopped`; an e-mail in flight then is claimed again after `CLAIM`.
    pub async fn run(self, stopped: oneshot::Receiver<()>, finished: Arc<AtomicU64>) {
        rounds(|| self.send_due(), stopped, &finished).await;
    }

    /// Sends every e-mail due once; how long until the next round (none when more may be due now).
    async fn send_due(&self) -> Duration {
        let now = OffsetDateTime::now_utc();
        let due = match self.store.take_due_mails(now, now + CLAIM, BATCH).await {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "cannot read the booking e-mails due");
                return POLL_INTERVAL;
            }
        };
        let wait = if due.len() == BATCH {
            Duration::ZERO
        } else {
            POLL_INTERVAL
        };
        for mail in due {
            let outcome = self.send_one(&mail).await;
            let (id, kind) = (mail.booking.id.clone(), mail.kind);
            if let Err(error) = self.store.record_mail(id, kind, outcome).await {
                // The row is claimed again after `CLAIM` and sent again: at least once.
                tracing::warn!(booking = %mail.booking.id, kind = kind.as_str(), %error, "cannot record a booking e-mail");
            }
        }
        wait
    }

    async fn send_one(&self, mail: &DueMail) -> MailOutcome {
        let now = OffsetDateTime::now_utc();
        let booking = &mail.booking;
        let for_visitor = matches!(mail.kind, MailKind::Confirmation | MailKind::Reminder);
        if for_visitor {
            if booking.status != "booked" {
                return dropped("the call was cancelled");
            }
            if mail.visitor.is_none() || self.words.is_none() {
                return dropped("the lead is gone, or the site has no booking words");
            }
            let begun = OffsetDateTime::parse(
                &booking.starts_at,
                &time::format_description::well_known::Rfc3339,
            )
            .is_ok_and(|start| start <= now);
            if begun {
                return dropped("the call has begun");
            }
        }
        if mail.attempts == 0 {
            match self
                .budget
                .take_lead_email(hour_of(now), self.max_per_hour)
                .await
            {
                Ok(true) => {}
                Ok(false) => {
                    tracing::info!(booking = %booking.id, kind = mail.kind.as_str(), "booking e-mail waits for the next hour: the e-mail budget is spent");
                    return MailOutcome::Later {
                        at: hour_of(now) + time::Duration::HOUR,
                    };
                }
                Err(error) => return self.retry(mail, error.to_string(), now),
            }
        }
        let link = (mail.kind == MailKind::Confirmation)
            .then(|| {
                let language = mail.visitor.as_ref()?.language;
                let path = booking_link::path(&self.links.issue(&booking.id), language);
                self.site.page(&path)
            })
            .flatten();
        let message = BookingMail {
            due: mail,
            words: self.words.as_deref(),
            link: link.as_deref(),
            now,
        };
        let sent = tokio::time::timeout(DELIVERY_TIMEOUT, self.mailer.send_booking_mail(&message))
            .await
            .unwrap_or_else(|_| Err(Failure::Temporary("timed out".into())));
        match sent {
            Ok(()) => {
                tracing::info!(booking = %booking.id, kind = mail.kind.as_str(), "booking e-mail sent");
                MailOutcome::Sent
            }
            Err(Failure::Permanent(error)) => {
                tracing::error!(booking = %booking.id, kind = mail.kind.as_str(), %error, "booking e-mail refused for good; not retried");
                dropped(&error)
            }
            Err(Failure::Temporary(error)) => self.retry(mail, error, now),
            Err(Failure::OverBudget) => MailOutcome::Later {
                at: hour_of(now) + time::Duration::HOUR,
            },
        }
    }

    fn retry(&self, mail: &DueMail, error: String, now: OffsetDateTime) -> MailOutcome {
        let error = bounded(error);
        if mail.attempts + 1 >= MAX_ATTEMPTS {
            tracing::error!(booking = %mail.booking.id, kind = mail.kind.as_str(), %error, "giving up a booking e-mail");
            return MailOutcome::Dropped { why: error };
        }
        tracing::warn!(booking = %mail.booking.id, kind = mail.kind.as_str(), %error, "booking e-mail failed; will retry");
        MailOutcome::Retry {
            error,
            at: now + backoff::delay(mail.attempts, self.retry.first, self.retry.longest),
        }
    }
}

fn dropped(why: &str) -> MailOutcome {
    MailOutcome::Dropped {
        why: bounded(why.to_owned()),
    }
}
