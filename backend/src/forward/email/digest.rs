//! The hourly digest: once the site's lead e-mails for an hour are spent
//! (`LEAD_EMAIL_MAX_PER_HOUR`), the leads beyond are held (`store::EmailBudget`), and once an
//! hour one e-mail lists those held before the hour began and says the budget was reached. The
//! store hands each hour's digest to one instance; one whose e-mail fails gives it back, to be
//! tried again a little later.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use tokio::sync::oneshot;

use super::super::worker::rounds;
use super::{message, Mailer, Untold};
use crate::store::do_not_contact::OptOuts;
use crate::store::{hour_of, EmailBudget};

/// How often the digest looks for held leads: a cheap query on a partial index.
const CHECK_EVERY: Duration = Duration::from_secs(5);
/// How long after a failed digest it is tried again.
const RETRY_AFTER: Duration = Duration::from_secs(60);
/// Leads listed one by one in a digest; it counts the rest, which are all in the inbox.
pub const LISTED: usize = 100;

pub struct Digest {
    pub mailer: Arc<Mailer>,
    pub budget: Arc<dyn EmailBudget>,
    /// The visitors' own opt-outs not yet told, listed by the digest too.
    pub opt_outs: Arc<dyn OptOuts>,
}

impl Digest {
    pub async fn run(self, stopped: oneshot::Receiver<()>, finished: Arc<AtomicU64>) {
        let round = || async {
            match self.send_due(OffsetDateTime::now_utc()).await {
                Ok(()) => CHECK_EVERY,
                Err(error) => {
                    tracing::warn!(%error, "the hourly lead digest failed; will retry");
                    RETRY_AFTER
                }
            }
        };
        rounds(round, stopped, &finished).await;
    }

    /// Sends the digest of the leads held before this hour began, unless none are held or this
    /// hour's digest was taken (by this instance or another).
    async fn send_due(&self, now: OffsetDateTime) -> Result<(), String> {
        let hour = hour_of(now);
        let held = self
            .budget
            .held_leads(hour, LISTED)
            .await
            .map_err(|e| e.to_string())?;
        if held.total == 0
            || !self
                .budget
                .take_digest(hour)
                .await
                .map_err(|e| e.to_string())?
        {
            return Ok(());
        }
        let settings = &self.mailer.settings;
        let told = Untold::take(&*self.opt_outs).await;
        let message = message::digest(settings, &self.mailer.site, &held, hour, &told.opt_outs);
        if let Err(failure) = self.mailer.send(message).await {
            told.give_back(&*self.opt_outs).await;
            let _ = self.budget.release_digest(hour).await;
            return Err(format!("{failure:?}"));
        }
        let marked = self
            .budget
            .mark_digested(hour, OffsetDateTime::now_utc())
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(leads = marked, "hourly lead digest sent");
        Ok(())
    }
}
