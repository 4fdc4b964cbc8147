//! The e-mail channels (`SMTP_URL`): an e-mail per lead to every recipient, and one after the
//! call a voice lead came from. Sent over a pool of at most `SMTP_MAX_CONNECTIONS` connections to
//! the relay however many leads are due (`relay.rs`). A 5xx reply is permanent (the lead is
//! marked undelivered with the relay's text); anything else (refused, timed out, 4xx) is retried.
//! Lead e-mails spend the site's hourly budget (`LEAD_EMAIL_MAX_PER_HOUR`); the leads beyond it
//! go out in one digest an hour (`digest.rs`).

mod digest;
mod message;
mod relay;

use std::sync::Arc;

use deadpool::managed::{Pool, PoolError};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use lettre::Message;

use super::worker::{Failure, Sender, DELIVERY_TIMEOUT};
use crate::settings::email::EmailSettings;
use crate::store::{hour_of, PendingLead, QuoteStore};
use relay::{ConnectError, Relay};

pub use digest::Digest;

/// The connections and the recipients, shared by both e-mail channels.
pub struct Mailer {
    connections: Pool<Relay>,
    settings: EmailSettings,
}

impl Mailer {
    pub fn new(settings: EmailSettings) -> Result<Mailer, lettre::transport::smtp::Error> {
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
        })
    }

    /// How many messages may be in flight at once.
    pub fn max_connections(&self) -> usize {
        self.settings.max_connections
    }

    async fn send(&self, message: Result<Message, lettre::error::Error>) -> Result<(), Failure> {
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
    pub store: Arc<dyn QuoteStore>,
}

impl Sender for LeadEmail {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        async move {
            let settings = &self.mailer.settings;
            // A retry spends nothing more: the lead took its e-mail on its first attempt.
            if lead.attempts == 0 {
                let hour = hour_of(time::OffsetDateTime::now_utc());
                let taken = self
                    .store
                    .take_lead_email(hour, settings.max_per_hour)
                    .await
                    .map_err(|e| Failure::Temporary(e.to_string()))?;
                if !taken {
                    return Err(Failure::OverBudget);
                }
            }
            self.mailer.send(message::lead(settings, &lead.quote)).await
        }
        .boxed()
    }
}

/// The e-mail after a call, about the call's first lead.
pub struct FollowUpEmail {
    pub mailer: Arc<Mailer>,
    pub store: Arc<dyn QuoteStore>,
}

impl Sender for FollowUpEmail {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        async move {
            let call_id =
                lead.quote.call_id.clone().ok_or_else(|| {
                    Failure::Permanent("the lead has no call to follow up".into())
                })?;
            let call = self
                .store
                .call(call_id)
                .await
                .map_err(|e| Failure::Temporary(e.to_string()))?
                .ok_or_else(|| Failure::Permanent("the call's report is gone".into()))?;
            let settings = &self.mailer.settings;
            self.mailer
                .send(message::follow_up(settings, &lead.quote, &call))
                .await
        }
        .boxed()
    }
}
