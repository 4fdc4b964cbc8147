//! The outbox worker every delivery channel shares: it takes the channel's due leads, sends each
//! through the channel's `Sender` (a bounded number at once), and records the outcome; failures
//! are retried with exponential backoff and jitter until the retry policy gives up. The state
//! lives in the database, so it survives restarts.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::StreamExt;
use time::OffsetDateTime;
use tokio::runtime::Handle;
use tokio::sync::oneshot;

use super::backoff;
use super::task::Task;
use crate::settings::leads::RetryPolicy;
use crate::store::{Channel, DeliveryOutcome, Outbox, PendingLead};

/// How long one delivery may take before it counts as failed (and, on shutdown, how long the
/// deliveries in flight get to finish).
pub const DELIVERY_TIMEOUT: Duration = Duration::from_secs(10);
/// How often a worker looks for due leads, and how many it takes at once.
const POLL_INTERVAL: Duration = Duration::from_millis(200);
const BATCH: usize = 64;
/// The longest error text kept per outbox row (and per recording's copy).
const ERROR_CHARS: usize = 500;

/// Why a delivery failed, and whether trying again can help.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Retried with backoff until the retry policy gives up.
    Temporary(String),
    /// Not retried: the lead is marked undelivered with this error.
    Permanent(String),
    /// Not sent: the site's e-mail budget for the hour is spent, so the lead waits for the
    /// hourly digest.
    OverBudget,
}

/// What the inbox shows as a held lead e-mail's last error.
const HELD_NOTE: &str =
    "held for the hourly digest: LEAD_EMAIL_MAX_PER_HOUR lead e-mails were sent this hour";

/// One channel's way of delivering a lead.
pub trait Sender: Send + Sync + 'static {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>>;
}

/// What a worker runs: a channel, its sender, how often it retries and how many at once.
pub struct Lane {
    pub channel: Channel,
    pub sender: Arc<dyn Sender>,
    pub retry: RetryPolicy,
    pub concurrency: usize,
}

/// The worker delivering `lane`'s leads, on `runtime` (the outbox's thread).
pub fn start(
    runtime: &Handle,
    store: Arc<dyn Outbox>,
    lane: Lane,
    finished: Arc<AtomicU64>,
) -> Task {
    Task::spawn(runtime, |stopped| async move {
        let (store, lane) = (store.as_ref(), &lane);
        rounds(|| deliver_due(store, lane), stopped, &finished).await;
    })
}

/// How many rounds each of the server's loops of `rounds` has finished, by the loop's name (a
/// channel's, `digest`, `booking e-mails`, `alerts`). A round that finds nothing to do leaves no
/// other trace, so this is how a test knows that a check has run since it changed something.
#[derive(Default)]
pub struct RoundCounts(Vec<(&'static str, Arc<AtomicU64>)>);

impl RoundCounts {
    /// The count a new loop named `name` keeps.
    pub fn count(&mut self, name: &'static str) -> Arc<AtomicU64> {
        let finished = Arc::default();
        self.0.push((name, Arc::clone(&finished)));
        finished
    }

    pub fn finished(&self, name: &str) -> Option<u64> {
        let (_, finished) = self.0.iter().find(|(named, _)| *named == name)?;
        Some(finished.load(Ordering::Acquire))
    }
}

/// Runs `round` until `stopped`, counting each finished round in `finished`; the next begins after
/// the wait the round answers (none while more may be due). On stop, the round in flight gets
/// `DELIVERY_TIMEOUT` to finish and be recorded.
pub async fn rounds<F, R>(mut round: F, mut stopped: oneshot::Receiver<()>, finished: &AtomicU64)
where
    F: FnMut() -> R,
    R: std::future::Future<Output = Duration>,
{
    loop {
        let current = round();
        tokio::pin!(current);
        let wait = tokio::select! {
            wait = &mut current => wait,
            _ = &mut stopped => {
                let _ = tokio::time::timeout(DELIVERY_TIMEOUT, current).await;
                return;
            }
        };
        finished.fetch_add(1, Ordering::Release);
        if !wait.is_zero() {
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = &mut stopped => return,
            }
        }
    }
}

/// Sends every due lead once; how long until the next round (none when more may be due now).
async fn deliver_due(store: &dyn Outbox, lane: &Lane) -> Duration {
    let now = OffsetDateTime::now_utc();
    let due = match store.take_due_deliveries(lane.channel, now, BATCH).await {
        Ok(due) => due,
        Err(error) => {
            tracing::warn!(%error, channel = lane.channel.as_str(), "cannot read the lead outbox");
            return POLL_INTERVAL;
        }
    };
    let wait = if due.len() == BATCH {
        Duration::ZERO
    } else {
        POLL_INTERVAL
    };
    futures_util::stream::iter(due)
        .for_each_concurrent(lane.concurrency, |lead| deliver_one(store, lane, lead))
        .await;
    wait
}

async fn deliver_one(store: &dyn Outbox, lane: &Lane, lead: PendingLead) {
    let channel = lane.channel.as_str();
    let sent = tokio::time::timeout(DELIVERY_TIMEOUT, lane.sender.send(&lead))
        .await
        .unwrap_or_else(|_| {
            Err(Failure::Temporary(format!(
                "timed out after {} s",
                DELIVERY_TIMEOUT.as_secs()
            )))
        });
    let outcome = match sent {
        Ok(()) => DeliveryOutcome::Delivered,
        Err(Failure::OverBudget) => {
            tracing::info!(id = %lead.quote.id, channel, "lead e-mail held for the hourly digest: the e-mail budget is spent");
            DeliveryOutcome::Held {
                note: HELD_NOTE.to_owned(),
            }
        }
        Err(Failure::Permanent(error)) => {
            let error = bounded(error);
            tracing::error!(id = %lead.quote.id, channel, %error, "lead refused for good; not retried");
            DeliveryOutcome::GiveUp { error }
        }
        Err(Failure::Temporary(error)) => {
            let error = bounded(error);
            let now = OffsetDateTime::now_utc();
            if now - lead.since() >= lane.retry.give_up_after {
                tracing::error!(id = %lead.quote.id, channel, %error, "giving up delivering a lead");
                DeliveryOutcome::GiveUp { error }
            } else {
                let wait = backoff::delay(lead.attempts, lane.retry.first, lane.retry.longest);
                tracing::warn!(id = %lead.quote.id, channel, %error, attempts = lead.attempts + 1, "lead delivery failed; will retry");
                DeliveryOutcome::Retry {
                    error,
                    next_attempt_at: now + wait,
                }
            }
        }
    };
    if let Err(error) = store.record_delivery(&lead, outcome).await {
        // The row stays due, so it is sent again: at least once, never lost.
        tracing::warn!(id = %lead.quote.id, channel, %error, "cannot record a lead delivery");
    }
}

pub(super) fn bounded(error: String) -> String {
    error.chars().take(ERROR_CHARS).collect()
}
