//! How long what a caller said is kept. An end-of-call report (ended reason, summary,
//! transcript) stays while a quote request refers to it; one from a call that produced no lead
//! is deleted once it is a day old. Checked at start and every hour, so no such report lives
//! much past its day.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::store::QuoteStore;

/// How long a report no quote refers to is kept.
pub const UNREFERENCED_CALL_REPORT_DAYS: u64 = 1;
const KEEP_UNREFERENCED: Duration = Duration::from_secs(UNREFERENCED_CALL_REPORT_DAYS * 86_400);
const PURGE_INTERVAL: Duration = Duration::from_secs(60 * 60);

/// The running purge; `stop` ends it.
pub struct Retention {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl Retention {
    pub fn start(store: Arc<dyn QuoteStore>) -> Retention {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            // The first tick is immediate: reports left from before a restart go at start.
            let mut every = tokio::time::interval(PURGE_INTERVAL);
            every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tokio::select! {
                    _ = every.tick() => purge(store.as_ref()).await,
                    _ = &mut stopped => return,
                }
            }
        });
        Retention { stop, task }
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}

async fn purge(store: &dyn QuoteStore) {
    let cutoff = OffsetDateTime::now_utc() - KEEP_UNREFERENCED;
    match store.purge_call_reports(cutoff).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(deleted, "deleted call reports no quote request refers to"),
        // Tried again at the next interval.
        Err(error) => tracing::warn!(%error, "cannot delete old call reports"),
    }
}
