//! Copies each call's recording from the provider into the database, through the same durable
//! outbox pattern as the leads (`store/recordings.rs`): the end-of-call report queues the copy
//! in its transaction, this worker downloads what is due, and a failed download is retried with
//! backoff until the lead retry policy's give-up time, so a restart loses nothing. A copy still
//! failing after `ALERT_AFTER_MINUTES` is alerted on once (by one instance of several).

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use sha2::{Digest, Sha256};
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;
use tokio::sync::oneshot;

use super::backoff;
use super::email::Mailer;
use super::worker::bounded;
use crate::settings::leads::RetryPolicy;
use crate::store::error_chain;
use crate::store::{DueRecording, RecordingOutcome, Recordings, StoredRecording};

/// How long one download may take: an hour's call is about 100 MB of WAV.
pub const DOWNLOAD_TIMEOUT: Duration = Duration::from_secs(300);
/// The largest recording kept: about two and a half hours of the provider's mono WAV. A larger
/// one is given up on (and alerted on), not cut.
pub const MAX_RECORDING_BYTES: usize = 256 * 1024 * 1024;
/// A copy taken by one instance is left to it for this long (longer than a download may take).
const CLAIM: Duration = Duration::from_secs(600);
/// Recordings come a few a day: a slow poll, and two downloads at once.
const POLL_INTERVAL: Duration = Duration::from_secs(2);
const BATCH: usize = 4;
const CONCURRENCY: usize = 2;

/// What the copying worker needs.
pub struct RecordingCopies {
    pub store: Arc<dyn Recordings>,
    pub client: reqwest::Client,
    pub retry: RetryPolicy,
    /// How long a copy fails before it is alerted on.
    pub alert_after: Duration,
    /// Without one (no `SMTP_URL`) the alert is only logged.
    pub mailer: Option<Arc<Mailer>>,
}

impl RecordingCopies {
    pub fn client() -> Result<reqwest::Client, reqwest::Error> {
        reqwest::Client::builder()
            .timeout(DOWNLOAD_TIMEOUT)
            .user_agent(concat!("recording-copier/", env!("CARGO_PKG_VERSION")))
            .build()
    }

    /// Runs until `stopped`; a download in flight then is claimed again after `CLAIM`.
    pub async fn run(self, mut stopped: oneshot::Receiver<()>) {
        loop {
            let busy = tokio::select! {
                busy = self.copy_due() => busy,
                _ = &mut stopped => return,
            };
            if !busy {
                tokio::select! {
                    _ = tokio::time::sleep(POLL_INTERVAL) => {}
                    _ = &mut stopped => return,
                }
            }
        }
    }

    /// Copies every due recording once; true when more may be due right away.
    async fn copy_due(&self) -> bool {
        let now = OffsetDateTime::now_utc();
        let due = match self
            .store
            .take_due_recordings(now, now + CLAIM, BATCH)
            .await
        {
            Ok(due) => due,
            Err(error) => {
                tracing::warn!(%error, "cannot read the recordings to copy");
                return false;
            }
        };
        let full = due.len() == BATCH;
        futures_util::stream::iter(due)
            .for_each_concurrent(CONCURRENCY, |due| self.copy_one(due))
            .await;
        full
    }

    /// Downloads one copy and records how it went; a failure past the alert threshold is
    /// alerted on once it is recorded, so the inbox already shows its error.
    async fn copy_one(&self, due: DueRecording) {
        let (outcome, failure) = match download(&self.client, &due.url).await {
            Ok(recording) => {
                tracing::info!(call_id = %due.call_id, bytes = recording.audio.len(), sha256 = %recording.sha256, "call recording copied");
                (RecordingOutcome::Stored(recording), None)
            }
            Err(error) => {
                let error = bounded(error);
                (self.failed(&due, error.clone()), Some(error))
            }
        };
        if let Err(error) = self
            .store
            .record_recording(due.call_id.clone(), outcome)
            .await
        {
            // The claim runs out and the copy is tried again: never lost.
            tracing::warn!(call_id = %due.call_id, %error, "cannot record a recording's copy");
            return;
        }
        let now = OffsetDateTime::now_utc();
        let queued_at = queued_at(&due, now);
        if let Some(error) = failure.filter(|_| now - queued_at >= self.alert_after) {
            self.alert(&due, queued_at, &error).await;
        }
    }

    fn failed(&self, due: &DueRecording, error: String) -> RecordingOutcome {
        let now = OffsetDateTime::now_utc();
        let queued_at = queued_at(due, now);
        if now - queued_at >= self.retry.give_up_after {
            tracing::error!(call_id = %due.call_id, %error, "giving up copying a call's recording");
            return RecordingOutcome::GiveUp { error };
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
        tracing::error!(call_id = %due.call_id, %error, "a call's recording has not been copied for too long; alerting");
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

/// The recording at `url`, whole, with its SHA-256; an error names what went wrong.
async fn download(client: &reqwest::Client, url: &str) -> Result<StoredRecording, String> {
    let mut response = client
        .get(url)
        .send()
        .await
        .map_err(|e| error_chain::describe(&e.without_url()))?;
    let status = response.status();
    if !status.is_success() {
        return Err(format!("the provider answered HTTP {}", status.as_u16()));
    }
    if response
        .content_length()
        .is_some_and(|length| length > MAX_RECORDING_BYTES as u64)
    {
        return Err(too_large());
    }
    let content_type = content_type(&response, url);
    let mut audio = Vec::new();
    let mut hash = Sha256::new();
    while let Some(chunk) = response
        .chunk()
        .await
        .map_err(|e| error_chain::describe(&e.without_url()))?
    {
        if audio.len() + chunk.len() > MAX_RECORDING_BYTES {
            return Err(too_large());
        }
        hash.update(&chunk);
        audio.extend_from_slice(&chunk);
    }
    if audio.is_empty() {
        return Err("the provider sent an empty recording".to_owned());
    }
    Ok(StoredRecording {
        content_type,
        sha256: hex::encode(hash.finalize()),
        audio,
    })
}

fn too_large() -> String {
    format!("the recording is larger than {MAX_RECORDING_BYTES} bytes")
}

/// The type the provider gave, or the one its name says when it gave only a generic one.
fn content_type(response: &reqwest::Response, url: &str) -> String {
    let given = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .filter(|value| !value.starts_with("application/octet-stream"))
        .map(str::to_owned);
    given.unwrap_or_else(|| {
        let path = url::Url::parse(url)
            .map(|url| url.path().to_owned())
            .unwrap_or_default();
        mime_guess::from_path(path)
            .first_or_octet_stream()
            .to_string()
    })
}
