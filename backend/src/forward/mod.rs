//! Forwarding every new lead to the broker's systems (`LEAD_WEBHOOK_URL`).
//!
//! The store writes an outbox row in the same transaction as the quote, so nothing is lost
//! between commit and send. This worker delivers outbox rows at least once, retrying with
//! exponential backoff and jitter; the state lives in the database, so it survives restarts.
//! A row still failing `give_up_after` past its creation stays in the export as undelivered.

mod backoff;
mod delivery;

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use time::OffsetDateTime;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

pub use delivery::{signature, IDEMPOTENCY_HEADER, SIGNATURE_HEADER};

use crate::settings::leads::ForwardingConfig;
use crate::store::{DeliveryOutcome, PendingLead, QuoteStore};

/// How long one delivery may take before it counts as failed.
const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// How often the forwarder looks for due leads, how many it takes at once and sends together.
const POLL_INTERVAL: Duration = Duration::from_millis(200);
const BATCH: usize = 64;
const CONCURRENCY: usize = 16;

/// The running worker; `stop` ends it.
pub struct Forwarder {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Forwarder {
    pub fn start(store: Arc<dyn QuoteStore>, config: ForwardingConfig) -> Forwarder {
        let (stop, stopped) = oneshot::channel();
        let task = tokio::spawn(run(store, config, stopped));
        Forwarder { stop, task }
    }

    /// Deliveries in flight get up to `DELIVERY_TIMEOUT` to finish; any still unfinished
    /// stay due and go out again after a restart, under the same idempotency key.
    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

async fn run(
    store: Arc<dyn QuoteStore>,
    config: ForwardingConfig,
    mut stopped: oneshot::Receiver<()>,
) {
    let client = match reqwest::Client::builder()
        .timeout(DELIVERY_TIMEOUT)
        .user_agent(concat!("lead-forwarder/", env!("CARGO_PKG_VERSION")))
        .build()
    {
        Ok(client) => client,
        Err(error) => {
            tracing::error!(%error, "cannot build the lead forwarding client; leads stay in the outbox");
            return;
        }
    };
    loop {
        let round = deliver_due(store.as_ref(), &config, &client);
        tokio::pin!(round);
        let busy = tokio::select! {
            busy = &mut round => busy,
            _ = &mut stopped => {
                // Let what is in flight finish and be recorded, within a bound.
                let _ = tokio::time::timeout(DELIVERY_TIMEOUT, round).await;
                return;
            }
        };
        if !busy {
            tokio::select! {
                _ = tokio::time::sleep(POLL_INTERVAL) => {}
                _ = &mut stopped => return,
            }
        }
    }
}

/// Sends every due lead once; true when there may be more due right away.
async fn deliver_due(
    store: &dyn QuoteStore,
    config: &ForwardingConfig,
    client: &reqwest::Client,
) -> bool {
    let due = match store.due_leads(OffsetDateTime::now_utc(), BATCH).await {
        Ok(due) => due,
        Err(error) => {
            tracing::warn!(%error, "cannot read the lead outbox");
            return false;
        }
    };
    let full = due.len() == BATCH;
    futures_util::stream::iter(due)
        .for_each_concurrent(CONCURRENCY, |lead| deliver_one(store, config, client, lead))
        .await;
    full
}

async fn deliver_one(
    store: &dyn QuoteStore,
    config: &ForwardingConfig,
    client: &reqwest::Client,
    lead: PendingLead,
) {
    let outcome = match delivery::send(client, config, &lead.quote).await {
        Ok(()) => DeliveryOutcome::Delivered,
        Err(error) => {
            let now = OffsetDateTime::now_utc();
            if now - lead.quote.created_at >= config.give_up_after {
                tracing::error!(id = %lead.quote.id, %error, "giving up forwarding a lead");
                DeliveryOutcome::GiveUp { error }
            } else {
                let wait = backoff::delay(lead.attempts, config.retry_first, config.retry_longest);
                tracing::warn!(id = %lead.quote.id, %error, attempts = lead.attempts + 1, "lead delivery failed; will retry");
                DeliveryOutcome::Retry {
                    error,
                    next_attempt_at: now + wait,
                }
            }
        }
    };
    if let Err(error) = store.record_delivery(lead.quote.id.clone(), outcome).await {
        // The row stays due, so it is sent again: at least once, never lost.
        tracing::warn!(id = %lead.quote.id, %error, "cannot record a lead delivery");
    }
}
