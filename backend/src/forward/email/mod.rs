//! The e-mail channels (`SMTP_URL`): an e-mail per lead to every recipient, and one after the
//! call a voice lead came from. Sent over a pool of at most `SMTP_MAX_CONNECTIONS` connections to
//! the relay however many leads are due (`relay.rs`). A 5xx reply is permanent (the lead is
//! marked undelivered with the relay's text); anything else (refused, timed out, 4xx) is retried.
//! Lead e-mails spend the site's hourly budget (`LEAD_EMAIL_MAX_PER_HOUR`); the leads beyond it
//! go out in one digest an hour (`digest.rs`).

mod booking;
mod consent_request;
mod digest;
mod message;
mod notice;
mod relay;

use std::sync::Arc;

use deadpool::managed::{Pool, PoolError};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use lettre::transport::smtp::response::Response;
use lettre::Message;
use time::OffsetDateTime;

use super::worker::{Failure, Sender, DELIVERY_TIMEOUT};
use crate::leads::licence;
use crate::settings::email::EmailSettings;
use crate::settings::site::SiteSettings;
use crate::store::do_not_contact::{OptOut, OptOuts};
use crate::store::spam_report::SpamReports;
use crate::store::{hour_of, CallReports, Channel, EmailBudget, FailingChannel, PendingLead};
use relay::{ConnectError, Relay};

pub use booking::BookingMail;
pub use consent_request::{last_four, ConsentRequest, NotSent};
pub use digest::Digest;

/// The connections and the recipients, shared by both e-mail channels.
pub struct Mailer {
    connections: Pool<Relay>,
    settings: EmailSettings,
    site: SiteSettings,
}

impl Mailer {
    pub fn new(
        settings: EmailSettings,
        site: SiteSettings,
    ) -> Result<Mailer, lettre::transport::smtp::Error> {
        let relay = Relay::new(
            settings.relay.clone(),
            settings.extra_roots.as_deref(),
            DELIVERY_TIMEOUT,
        )?;
        let connections = Pool::builder(relay)
            .max_size(settings.max_connections)
            .build()
            .expect("a pool without timeouts needs no runtime, the only way building fails");
        Ok(Mailer {
            connections,
            settings,
            site,
        })
    }

    /// Sends `message`; the relay's reply to it.
    async fn send(
        &self,
        message: Result<Message, lettre::error::Error>,
    ) -> Result<Response, Failure> {
        // A message that cannot be built now never will be.
        let message = message.map_err(|e| Failure::Permanent(format!("cannot compose: {e}")))?;
        let mut connection = self.connections.get().await.map_err(|error| match error {
            PoolError::Backend(ConnectError::Smtp(error)) => smtp_failure(error),
            PoolError::Backend(error) => Failure::Temporary(error.to_string()),
            error => Failure::Temporary(error.to_string()),
        })?;
        connection
            .send(message.envelope(), &message.formatted())
            .await
            .map_err(smtp_failure)
    }

    /// One test message to `LEAD_EMAIL_TO` (`backend send-test-email`): the relay's reply, or
    /// why it was not accepted.
    pub async fn send_test(&self) -> Result<String, String> {
        let message = notice::test(&self.settings, &self.site, OffsetDateTime::now_utc());
        match tokio::time::timeout(DELIVERY_TIMEOUT, self.send(message)).await {
            Ok(Ok(reply)) => Ok(reply_text(&reply)),
            Ok(Err(Failure::Permanent(error) | Failure::Temporary(error))) => Err(error),
            Ok(Err(Failure::OverBudget)) => unreachable!("only a lead e-mail spends the budget"),
            Err(_) => Err(format!(
                "the relay did not answer within {} s",
                DELIVERY_TIMEOUT.as_secs()
            )),
        }
    }

    /// The alert that `failing` has failed for longer than the alert threshold.
    pub async fn alert_failing(&self, failing: &FailingChannel) -> Result<(), String> {
        let message = notice::failing(&self.settings, &self.site, failing);
        self.send_notice(message).await
    }

    /// The message that a call's recording has not been copied since `since`.
    pub async fn alert_recording_failing(
        &self,
        call_id: &str,
        since: OffsetDateTime,
        error: &str,
    ) -> Result<(), String> {
        let message = notice::recording_failing(&self.settings, &self.site, call_id, since, error);
        self.send_notice(message).await
    }

    /// The message that `channel` delivers again.
    pub async fn alert_recovered(&self, channel: Channel) -> Result<(), String> {
        let message = notice::recovered(
            &self.settings,
            &self.site,
            channel,
            OffsetDateTime::now_utc(),
        );
        self.send_notice(message).await
    }

    /// The e-mail asking a visitor for written consent (`consent_request.rs`), sent now and
    /// waited for: it is not queued, so the broker hears at once whether it went.
    pub async fn send_consent_request(&self, request: &ConsentRequest<'_>) -> Result<(), NotSent> {
        let message = consent_request::message(&self.settings, request);
        match tokio::time::timeout(DELIVERY_TIMEOUT, self.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(Failure::Permanent(error))) => Err(NotSent::Refused(error)),
            Ok(Err(Failure::Temporary(error))) => Err(NotSent::Unreachable(error)),
            Ok(Err(Failure::OverBudget)) => unreachable!("only a lead e-mail spends the budget"),
            Err(_) => Err(NotSent::Unreachable(format!(
                "the relay did not answer within {} s",
                DELIVERY_TIMEOUT.as_secs()
            ))),
        }
    }

    async fn send_notice(
        &self,
        message: Result<Message, lettre::error::Error>,
    ) -> Result<(), String> {
        match tokio::time::timeout(DELIVERY_TIMEOUT, self.send(message)).await {
            Ok(Ok(_)) => Ok(()),
            Ok(Err(Failure::Permanent(error) | Failure::Temporary(error))) => Err(error),
            Ok(Err(Failure::OverBudget)) => unreachable!("only a lead e-mail spends the budget"),
            Err(_) => Err("timed out".to_owned()),
        }
    }
}

/// `250 2.0.0 Ok: queued as 4Fq`: the reply's code and its lines.
fn reply_text(reply: &Response) -> String {
    let lines: Vec<&str> = reply.message().collect();
    format!("{} {}", reply.code(), lines.join(" "))
}

/// lettre's text holds the reply's code and the relay's own words.
fn smtp_failure(error: lettre::transport::smtp::Error) -> Failure {
    if error.is_permanent() {
        Failure::Permanent(error.to_string())
    } else {
        Failure::Temporary(error.to_string())
    }
}

/// The e-mail about a new lead, within the site's hourly budget.
pub struct LeadEmail {
    pub mailer: Arc<Mailer>,
    pub budget: Arc<dyn EmailBudget>,
    /// Once a day, a lead e-mail says how many posts were held as spam, and the consent chain's
    /// head.
    pub spam: Arc<dyn SpamReports>,
    /// The visitors' own opt-outs not yet told, listed by the next lead e-mail.
    pub opt_outs: Arc<dyn OptOuts>,
}

impl Sender for LeadEmail {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        async move {
            let settings = &self.mailer.settings;
            let mut spam = None;
            // A retry spends nothing more: the lead took its e-mail on its first attempt.
            if lead.attempts == 0 {
                let hour = hour_of(time::OffsetDateTime::now_utc());
                let taken = self
                    .budget
                    .take_lead_email(hour, settings.max_per_hour)
                    .await
                    .map_err(|e| Failure::Temporary(e.to_string()))?;
                if !taken {
                    return Err(Failure::OverBudget);
                }
                spam = match self
                    .spam
                    .take_spam_report(time::OffsetDateTime::now_utc())
                    .await
                {
                    Ok(report) => report
                        .filter(|report| report.held > 0 || report.consent_head.is_some()),
                    Err(error) => {
                        // The e-mail goes without it; the next one tries again.
                        tracing::warn!(%error, "cannot count the posts held as spam or read the consent chain's head");
                        None
                    }
                };
            }
            let mut quote = lead.quote.clone();
            licence::check(&self.mailer.site, [&mut quote]);
            let told = Untold::take(&*self.opt_outs).await;
            let sent = self
                .mailer
                .send(message::lead(
                    settings,
                    &self.mailer.site,
                    &quote,
                    spam.as_ref(),
                    &told.opt_outs,
                ))
                .await;
            if sent.is_err() {
                told.give_back(&*self.opt_outs).await;
            }
            sent.map(drop)
        }
        .boxed()
    }
}

/// The visitors' opt-outs an e-mail lists (`store::do_not_contact::OptOuts`): taken, marked told,
/// as it is written, and given back when it is not sent, so a failed e-mail loses none and two
/// sent at once never list one twice.
struct Untold {
    opt_outs: Vec<OptOut>,
    taken_at: OffsetDateTime,
}

impl Untold {
    /// The oldest of them, as many as a digest lists leads; none when the store cannot say (the
    /// e-mail goes without them, and the next one tries again).
    async fn take(store: &dyn OptOuts) -> Untold {
        let taken_at = OffsetDateTime::now_utc();
        let opt_outs = match store.take_untold_opt_outs(taken_at, digest::LISTED).await {
            Ok(opt_outs) => opt_outs,
            Err(error) => {
                tracing::warn!(%error, "cannot read the opt-outs the broker has not been told of");
                Vec::new()
            }
        };
        Untold { opt_outs, taken_at }
    }

    async fn give_back(self, store: &dyn OptOuts) {
        if self.opt_outs.is_empty() {
            return;
        }
        if let Err(error) = store.release_opt_outs(self.opt_outs, self.taken_at).await {
            tracing::error!(%error, "an e-mail listing opt-outs failed and they cannot be given back; they will not be listed again");
        }
    }
}

/// The e-mail after a call, about the call's first lead.
pub struct FollowUpEmail {
    pub mailer: Arc<Mailer>,
    pub calls: Arc<dyn CallReports>,
}

impl Sender for FollowUpEmail {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        async move {
            let call_id =
                lead.quote.call_id.clone().ok_or_else(|| {
                    Failure::Permanent("the lead has no call to follow up".into())
                })?;
            let call = self
                .calls
                .call(call_id)
                .await
                .map_err(|e| Failure::Temporary(e.to_string()))?
                .ok_or_else(|| Failure::Permanent("the call's report is gone".into()))?;
            let mailer = &self.mailer;
            mailer
                .send(message::follow_up(
                    &mailer.settings,
                    &mailer.site,
                    &lead.quote,
                    &call,
                ))
                .await
                .map(drop)
        }
        .boxed()
    }
}
