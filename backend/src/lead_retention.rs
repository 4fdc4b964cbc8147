//! `LEAD_RETENTION_DAYS`: leads older than the limit are deleted at start and once a day, the
//! same way the broker deletes one (`deletion`). Ended admin sessions (idle, or past their
//! lifetime) are cleared on the same round. (Call reports that never became a lead are `retention`'s, after a day.)

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::sync::oneshot;
use tokio::task::JoinHandle;

use crate::deletion::{delete_lead, Why};
use crate::routes::admin::session_cutoffs;
use crate::store::{QuoteStore, StoreError};

const ROUND_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// Leads deleted per query, so a first run over years of leads holds no lock for long.
const BATCH: usize = 200;

/// What a round deletes: leads past `leads` (kept forever when `None`), and ended sessions when
/// there are sessions, which last `sessions` at most (an untouched store is not written to: it
/// may be read-only).
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub leads: Option<Duration>,
    pub sessions: Option<Duration>,
}

/// One round: how many leads it deleted.
pub async fn run_once(
    store: &dyn QuoteStore,
    plan: Plan,
    now: OffsetDateTime,
) -> Result<usize, StoreError> {
    if let Some(lifetime) = plan.sessions {
        store
            .delete_ended_sessions(session_cutoffs(now, lifetime))
            .await?;
    }
    let Some(retention) = plan.leads else {
        return Ok(0);
    };
    let cutoff = now - retention;
    let mut deleted = 0;
    loop {
        let ids = store.leads_created_before(cutoff, BATCH).await?;
        if ids.is_empty() {
            break;
        }
        for id in &ids {
            if delete_lead(store, id, Why::Retention).await? {
                deleted += 1;
            }
        }
    }
    Ok(deleted)
}

/// The daily rounds after the first (which `app::start` awaits before serving).
pub struct LeadRetention {
    stop: oneshot::Sender<()>,
    task: JoinHandle<()>,
}

impl LeadRetention {
    pub fn start(store: Arc<dyn QuoteStore>, plan: Plan) -> LeadRetention {
        let (stop, mut stopped) = oneshot::channel();
        let task = tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = &mut stopped => return,
                    _ = tokio::time::sleep(ROUND_EVERY) => {}
                }
                if let Err(error) = run_once(store.as_ref(), plan, OffsetDateTime::now_utc()).await
                {
                    // Tomorrow's round tries again; nothing is lost by waiting.
                    tracing::error!(%error, "deleting old leads failed");
                }
            }
        });
        LeadRetention { stop, task }
    }

    pub async fn stop(self) {
        let _ = self.stop.send(());
        let _ = self.task.await;
    }
}
