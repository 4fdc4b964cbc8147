//! The e-mail channels (`SMTP_URL`): an e-mail per lead to every recipient, and one after the
//! call a voice lead came from. Sent through lettre's pooled SMTP transport, at most
//! `SMTP_MAX_CONNECTIONS` at once however many leads are due. A 5xx reply is permanent (the lead is
//! marked undelivered with the relay's text); anything else (refused, timed out, 4xx) is retried.

mod message;

use std::sync::Arc;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use lettre::transport::smtp::client::{Certificate, Tls, TlsParameters};
use lettre::transport::smtp::PoolConfig;
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};
use tokio::sync::Semaphore;

use super::worker::{Failure, Sender, DELIVERY_TIMEOUT};
use crate::settings::email::{EmailSettings, SmtpTls};
use crate::store::{PendingLead, QuoteStore};

/// The transport and the recipients, shared by both e-mail channels.
pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    settings: EmailSettings,
    /// lettre's pool bounds the connections it keeps, not those it opens: this bounds those.
    /// (Each message costs a connection about 40 ms more than its round trips: lettre writes the
    /// body and the final `.` apart, without TCP_NODELAY, so the second waits for the relay's
    /// delayed ACK. Throughput grows with the connections.)
    sending: Semaphore,
}

impl Mailer {
    pub fn new(settings: EmailSettings) -> Result<Mailer, lettre::transport::smtp::Error> {
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::from_url(settings.relay.expose())?
            .timeout(Some(DELIVERY_TIMEOUT))
            .pool_config(PoolConfig::new().max_size(settings.max_connections as u32));
        if let Some(pem) = &settings.extra_roots {
            let parameters = TlsParameters::builder(settings.relay.host().to_owned())
                .add_root_certificate(Certificate::from_pem(pem)?)
                .build_rustls()?;
            builder = match settings.relay.tls() {
                SmtpTls::None => builder,
                SmtpTls::Opportunistic => builder.tls(Tls::Opportunistic(parameters)),
                SmtpTls::Required => builder.tls(Tls::Required(parameters)),
                SmtpTls::Wrapper => builder.tls(Tls::Wrapper(parameters)),
            };
        }
        Ok(Mailer {
            sending: Semaphore::new(settings.max_connections),
            transport: builder.build(),
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
        let _permit = self
            .sending
            .acquire()
            .await
            .map_err(|e| Failure::Temporary(e.to_string()))?;
        match self.transport.send(message).await {
            Ok(_) => Ok(()),
            // lettre's text holds the code and the relay's own words.
            Err(error) if error.is_permanent() => Err(Failure::Permanent(error.to_string())),
            Err(error) => Err(Failure::Temporary(error.to_string())),
        }
    }
}

/// The e-mail about a new lead.
pub struct LeadEmail(pub Arc<Mailer>);

impl Sender for LeadEmail {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        let mailer = &self.0;
        mailer
            .send(message::lead(&mailer.settings, &lead.quote))
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
