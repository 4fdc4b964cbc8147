//! How long what the site stores is kept, on one timer.
//!
//! - Leads: `LEAD_RETENTION_DAYS`; older ones are deleted at start (`daily_round`, which
//!   `app::start` awaits before serving, so no lead past the limit is shown or forwarded) and once
//!   a day after, the same way the broker deletes one (`leads::deletion`). Idle admin sessions are
//!   cleared on the same round.
//! - What a caller said: a conversation's end-of-call report (ended reason, summary, transcript,
//!   recording link) is kept for `CONVERSATION_RETENTION_DAYS`, whether or not it produced a lead
//!   and after its lead is deleted (the rules a Medicare broker markets under ask for years);
//!   that setting alone removes it. Checked at start and every hour.
//! - The form tokens leads spent: forgotten on the same hourly round once they have expired
//!   (`spam::FORM_TOKEN_MAX_AGE`), when no post can spend them again.
//! - A chat's Yes to the consent text (`store::conversation_consent`) goes with the conversations.
//!   The same round records the written consent a conversation gave on any lead that missed it
//!   when it was stored, so a failure there is never lost.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::sync::oneshot;
use tokio::time::{interval, interval_at, Instant, MissedTickBehavior};

use crate::leads::deletion::{delete_lead, Why};
use crate::settings::inbox::session_cutoffs;
use crate::spam::FORM_TOKEN_MAX_AGE;
use crate::store::conversation_consent::ConversationConsents;
use crate::store::{CallReports, Inbox, Quotes, Sessions, StoreError};

const PURGE_INTERVAL: Duration = Duration::from_secs(60 * 60);
const ROUND_EVERY: Duration = Duration::from_secs(24 * 60 * 60);
/// Leads deleted per query, so a first run over years of leads holds no lock for long.
const BATCH: usize = 200;

/// What a daily round deletes: leads past `leads` (kept forever when `None`), and ended sessions
/// when there are sessions, which last `sessions` at most (an untouched store is not written to:
/// it may be read-only); and what the hourly purge does: conversations past `conversations`.
#[derive(Clone, Copy, Debug)]
pub struct Plan {
    pub leads: Option<Duration>,
    pub sessions: Option<Duration>,
    pub conversations: Duration,
}

/// One daily round: how many leads it deleted.
pub async fn daily_round(
    store: &(impl Inbox + Sessions + ?Sized),
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

/// The timer, until `stopped`: the hourly purge of call reports from the start, the daily rounds
/// after the first.
pub async fn run(
    store: Arc<impl Inbox + Sessions + CallReports + Quotes + ConversationConsents + ?Sized>,
    plan: Plan,
    mut stopped: oneshot::Receiver<()>,
) {
    // The first purge is immediate: reports left from before a restart go at start.
    let mut hourly = interval(PURGE_INTERVAL);
    hourly.set_missed_tick_behavior(MissedTickBehavior::Delay);
    let mut daily = interval_at(Instant::now() + ROUND_EVERY, ROUND_EVERY);
    daily.set_missed_tick_behavior(MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = hourly.tick() => hourly_purge(store.as_ref(), plan.conversations).await,
            _ = daily.tick() => {
                let now = OffsetDateTime::now_utc();
                if let Err(error) = daily_round(store.as_ref(), plan, now).await {
                    // Tomorrow's round tries again; nothing is lost by waiting.
                    tracing::error!(%error, "deleting old leads failed");
                }
            }
            _ = &mut stopped => return,
        }
    }
}

async fn hourly_purge(
    store: &(impl CallReports + Quotes + ConversationConsents + ?Sized),
    conversations: Duration,
) {
    let now = OffsetDateTime::now_utc();
    match store.purge_call_reports(now - conversations).await {
        Ok(0) => {}
        Ok(deleted) => tracing::info!(
            deleted,
            "deleted conversations past CONVERSATION_RETENTION_DAYS"
        ),
        // Tried again at the next interval.
        Err(error) => tracing::warn!(%error, "cannot delete old call reports"),
    }
    if let Err(error) = store
        .forget_spent_form_tokens(now - FORM_TOKEN_MAX_AGE)
        .await
    {
        tracing::warn!(%error, "cannot forget expired form tokens");
    }
    // A conversation's written consent its lead missed when it was stored (`settle`'s failure).
    match store.settle_conversations().await {
        Ok(0) => {}
        Ok(recorded) => tracing::info!(recorded, "recorded conversations' written consents"),
        Err(error) => tracing::warn!(%error, "cannot record conversations' written consents"),
    }
}
