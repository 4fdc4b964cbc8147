//! Copies each call's recording from the provider into the database, through the same durable
//! outbox pattern as the leads (`store/recordings.rs`): the end-of-call report queues the copy
//! in its transaction, this worker downloads what is due (`recording_client.rs`), and a failed
//! download is retried with backoff until the lead retry policy's give-up time, so a restart
//! loses nothing. A copy that can never be made (refused, larger than `MAX_RECORDING_BYTES`, or
//! past `RECORDINGS_MAX_MB`) is given up at once. A copy too large or past the total, or still
//! failing after `ALERT_AFTER_MINUTES`, is alerted on once (by one instance of several).
//!
//! `SLOTS` downloads run at once, each slot taking the next due copy as soon as it is free, so a
//! slow host holds one slot for at most its pace's bound (`Pace`), never the others' copies.

use std::sync::Arc;
use std::time::Duration;

use futures_util::stream::FuturesUnordered;
use futures_util::StreamExt;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use tokio::sync::oneshot;

use super::backoff;
use super::email::Mailer;
use super::recording_client::{Failure, Pace, RecordingClient};
use super::worker::bounded;
use crate::settings::leads::RetryPolicy;
use crate::settings::recordings::MB;
use crate::store::{DueRecording, RecordingOutcome, Recordings};

/// The largest recording kept: about two and a half hours of the provider's mono WAV. A larger
/// one is given up on (and alerted on), not cut.
pub const MAX_RECORDING_BYTES: u64 = 256 * MB;
/// A copy taken by one instance is left to it for longer than the slowest download may take.
const CLAIM: Duration = Pace::STANDARD
    .longest(MAX_RECORDING_BYTES)
    .saturating_add(Duration::from_secs(60));
/// Recordings come a few a day: a slow poll, and a few downloads at once.
const POLL_INTERVAL: Duration = Duration::from_secs(2);
const SLOTS: usize = 4;

/// What the copying worker needs.
pub struct RecordingCopies {
    pub store: Arc<dyn Recordings>,
    pub client: RecordingClient,
    pub retry: RetryPolicy,
    /// How long a copy fails before it is alerted on.
    pub alert_after: Duration,
    /// `RECORDINGS_MAX_MB`, in bytes.
    pub max_total_bytes: u64,
    /// Without one (no `SMTP_URL`) the alert is only logged.
    pub mailer: Option<Arc<Mailer>>,
}

impl RecordingCopies {
    /// Runs until `stopped`; a download in flight then is claimed again after `CLAIM`.
    pub async fn run(self, mut stopped: oneshot::Receiver<()>) {
        let mut copies = FuturesUnordered::new();
        loop {
            let free = SLOTS - copies.len();
            if free > 0 {
                for due in self.take_due(free).await {
                    copies.push(self.copy_one(due));
                }
            }
            // A slot freed looks for the next copy at once; else the poll's pace.
            tokio::select! {
                Some(()) = copies.next(), if !copies.is_empty() => {}
                _ = tokio::time::sleep(POLL_INTERVAL) => {}
                _ = &mut stopped => return,
            }
        }
    }

    async fn take_due(&self, limit: usize) -> Vec<DueRecording> {
        let now = OffsetDateTime::now_utc();
        self.store
            .take_due_recordings(now, now + CLAIM, limit)
            .await
            .unwrap_or_else(|error| {
                tracing::warn!(%error, "cannot read the recordings to copy");
                Vec::new()
            })
    }

    /// Downloads one copy and records how it went, then alerts once it is recorded (so the
    /// inbox already shows its error) on a copy too large or past the total, and on one still
    /// failing past the alert threshold. A refused copy is not mailed about: whoever can post a
    /// report could otherwise have the server mail the broker at will.
    async fn copy_one(&self, due: DueRecording) {
        let (outcome, error, at_once) = match self.download(&due).await {
            Ok(outcome) => (outcome, None, false),
            Err(Problem::Retry(error)) => {
                let error = bounded(error);
                (self.failed(&due, error.clone()), Some(error), false)
            }
            Err(Problem::Refused(error)) => (self.give_up(&due, bounded(error)), None, false),
            Err(Problem::TooMuch(error)) => {
                let error = bounded(error);
                (self.give_up(&due, error.clone()), Some(error), true)
            }
        };
        let (error, at_once) = match self.record(&due, outcome).await {
            Some(true) => (error, at_once),
            Some(false) => {
                // Copies finishing together took the room left while this one downloaded.
                let error = over_total(self.max_total_bytes);
                let outcome = self.give_up(&due, error.clone());
                if self.record(&due, outcome).await.is_none() {
                    return;
                }
                (Some(error), true)
            }
            None => return,
        };
        let now = OffsetDateTime::now_utc();
        let queued_at = queued_at(&due, now);
        if let Some(error) = error.filter(|_| at_once || now - queued_at >= self.alert_after) {
            self.alert(&due, queued_at, &error).await;
        }
    }

    /// Whether the outcome was kept (a stored copy is not, past the total); `None` when it could
    /// not be recorded: the claim runs out and the copy is tried again, never lost.
    async fn record(&self, due: &DueRecording, outcome: RecordingOutcome) -> Option<bool> {
        match self
            .store
            .record_recording(due.call_id.clone(), outcome)
            .await
        {
            Ok(kept) => Some(kept),
            Err(error) => {
                tracing::warn!(call_id = %due.call_id, %error, "cannot record a recording's copy");
                None
            }
        }
    }

    /// The copy to store, or why there is none.
    async fn download(&self, due: &DueRecording) -> Result<RecordingOutcome, Problem> {
        let stored = self.store.stored_recording_bytes().await.map_err(|error| {
            Problem::Retry(format!("cannot read the recordings' total: {error}"))
        })?;
        let room = self.max_total_bytes.saturating_sub(stored);
        if room == 0 {
            return Err(Problem::TooMuch(over_total(self.max_total_bytes)));
        }
        let limit = room.min(MAX_RECORDING_BYTES);
        match self.client.download(&due.url, limit, Pace::STANDARD).await {
            Ok(recording) => {
                tracing::info!(call_id = %due.call_id, bytes = recording.audio.len(), sha256 = %recording.sha256, "call recording copied");
                Ok(RecordingOutcome::Stored {
                    recording,
                    max_total_bytes: self.max_total_bytes,
                })
            }
            Err(Failure::Retry(error)) => Err(Problem::Retry(error)),
            Err(Failure::Refused(error)) => Err(Problem::Refused(error)),
            Err(Failure::TooLarge) if limit == MAX_RECORDING_BYTES => Err(Problem::TooMuch(
                format!("the recording is larger than {MAX_RECORDING_BYTES} bytes"),
            )),
            Err(Failure::TooLarge) => Err(Problem::TooMuch(over_total(self.max_total_bytes))),
        }
    }

    fn give_up(&self, due: &DueRecording, error: String) -> RecordingOutcome {
        tracing::error!(call_id = %due.call_id, %error, "giving up copying a call's recording");
        RecordingOutcome::GiveUp { error }
    }

    fn failed(&self, due: &DueRecording, error: String) -> RecordingOutcome {
        let now = OffsetDateTime::now_utc();
        let queued_at = queued_at(due, now);
        if now - queued_at >= self.retry.give_up_after {
            return self.give_up(due, error);
        }
        let wait = backoff::delay(due.attempts, self.retry.first, self.retry.longest);
        tracing::warn!(call_id = %due.call_id, %error, attempts = due.attempts + 1, "copying a call's recording failed; will retry");
        RecordingOutcome::Retry {
            error,
            next_attempt_at: now + wait,
        }
    }

    async fn alert(&self, due: &DueRecording, since: OffsetDateTime, error: &str) {
        let now = OffsetDateTime::now_utc();
        match self
            .store
            .mark_recording_alerted(due.call_id.clone(), now)
            .await
        {
            Ok(true) => {}
            Ok(false) => return,
            Err(error) => {
                tracing::warn!(call_id = %due.call_id, %error, "cannot mark a recording's alert");
                return;
            }
        }
        tracing::error!(call_id = %due.call_id, %error, "a call's recording is not being kept; alerting");
        if let Some(mailer) = &self.mailer {
            if let Err(sent) = mailer
                .alert_recording_failing(&due.call_id, since, error)
                .await
            {
                tracing::error!(call_id = %due.call_id, error = %sent, "cannot send the recording alert");
            }
        }
    }
}

/// When the copy was queued: the retry policy's and the alert's clock.
fn queued_at(due: &DueRecording, now: OffsetDateTime) -> OffsetDateTime {
    OffsetDateTime::parse(&due.queued_at, &Rfc3339).unwrap_or(now)
}

/// Why a copy was not made this time.
enum Problem {
    /// Tried again later, until the retry policy gives up.
    Retry(String),
    /// Never worth another try: not allowed (`RECORDING_ORIGINS`, an address inside).
    Refused(String),
    /// Never worth another try: too large, or past the total.
    TooMuch(String),
}

fn over_total(max_total_bytes: u64) -> String {
    format!(
        "the stored recordings would take more than RECORDINGS_MAX_MB ({} MB)",
        max_total_bytes / MB
    )
}
