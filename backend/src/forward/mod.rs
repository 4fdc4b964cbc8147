//! Getting every new lead to the broker through the durable outbox: the lead post
//! (`lead_post.rs`, to `LEAD_WEBHOOK_URL`) and e-mail (`SMTP_URL`), each a channel.
//!
//! The request's transaction queues a new lead on its own row, naming its channels in the
//! lead's `queued_channels` column (`store/queued.rs`), so nothing is lost between commit and
//! send. One worker per channel (`worker.rs`) takes queued leads into the outbox, `lead_outbox`
//! (a row per lead and channel, which from then on holds the delivery's state), and delivers
//! them at least once, retrying with exponential backoff and jitter; the state lives in the
//! database, so it survives restarts. A row still failing past the retry policy's give-up time (or refused for
//! good) stays in the admin API and the export as undelivered. The calls' recordings are copied
//! into the database the same way (`recordings.rs`). The workers run on a thread of their own at
//! a lower priority (`background.rs`).

mod alerts;
mod background;
mod backoff;
mod booking_mails;
mod email;
mod lead_post;
mod recording_client;
mod recordings;
mod task;
mod worker;

use std::sync::Arc;

pub use email::{last_four, ConsentRequest, Mailer, NotSent};
pub use lead_post::{signature, IDEMPOTENCY_HEADER, SIGNATURE_HEADER};

use crate::leads::booking_link::BookingLinks;
use crate::leads::booking_words::BookingWords;
use crate::settings::alerts::AlertSettings;
use crate::settings::email::EmailSettings;
use crate::settings::leads::LeadsConfig;
use crate::settings::recordings::RecordingSettings;
use crate::settings::site::SiteSettings;
use crate::store::{Channel, QuoteStore};
use background::Background;
use booking_mails::BookingMailer;
use email::{Digest, FollowUpEmail, LeadEmail};
use lead_post::LeadPost;
use recording_client::RecordingClient;
use recordings::RecordingCopies;
pub use task::Task;
use worker::{Lane, RoundCounts};

/// Lead posts in flight at once.
const LEAD_POST_CONCURRENCY: usize = 16;

/// What a booking's e-mails need besides the mailer: the content's words (none with booking off)
/// and the visitor's link's key.
pub struct BookingParts {
    pub words: Option<Arc<BookingWords>>,
    pub links: Arc<BookingLinks>,
}

/// The running workers, one per channel that is on, and their thread.
pub struct Workers {
    workers: Vec<Task>,
    background: Option<Background>,
    alerts: Option<Task>,
    rounds: RoundCounts,
}

impl Workers {
    /// Starts a worker for each channel that is on. A channel whose client cannot be built
    /// leaves its leads in the outbox (and says so), where a fixed restart finds them.
    pub fn start(
        store: Arc<dyn QuoteStore>,
        leads: &LeadsConfig,
        email: Option<&EmailSettings>,
        site: &SiteSettings,
        alerts: AlertSettings,
        recordings: &RecordingSettings,
        booking: BookingParts,
    ) -> Workers {
        let mut lanes = Vec::new();
        let mut alert_mailer = None;
        let mut digest = None;
        let mut booking_mailer = None;
        if let Some(forwarding) = &leads.forwarding {
            match LeadPost::new(forwarding.clone()) {
                Ok(lead_post) => lanes.push(Lane {
                    channel: Channel::Webhook,
                    sender: Arc::new(lead_post),
                    retry: leads.retry,
                    concurrency: LEAD_POST_CONCURRENCY,
                }),
                Err(error) => {
                    tracing::error!(%error, "cannot build the lead forwarding client; leads stay in the outbox")
                }
            }
        }
        if let Some(settings) = email {
            match Mailer::new(settings.clone(), site.clone()) {
                Ok(mailer) => {
                    let concurrency = settings.max_connections;
                    let mailer = Arc::new(mailer);
                    alert_mailer = Some(Arc::clone(&mailer));
                    lanes.push(Lane {
                        channel: Channel::Email,
                        sender: Arc::new(LeadEmail {
                            mailer: Arc::clone(&mailer),
                            budget: Arc::clone(&store) as _,
                            spam: Arc::clone(&store) as _,
                            opt_outs: Arc::clone(&store) as _,
                        }),
                        retry: leads.retry,
                        concurrency,
                    });
                    booking_mailer = Some(BookingMailer {
                        store: Arc::clone(&store) as _,
                        budget: Arc::clone(&store) as _,
                        mailer: Arc::clone(&mailer),
                        words: booking.words,
                        links: booking.links,
                        site: site.clone(),
                        max_per_hour: settings.max_per_hour,
                        retry: leads.retry,
                    });
                    digest = Some(Digest {
                        mailer: Arc::clone(&mailer),
                        budget: Arc::clone(&store) as _,
                        opt_outs: Arc::clone(&store) as _,
                    });
                    lanes.push(Lane {
                        channel: Channel::FollowUp,
                        sender: Arc::new(FollowUpEmail {
                            mailer,
                            calls: Arc::clone(&store) as _,
                        }),
                        retry: leads.retry,
                        concurrency,
                    });
                }
                Err(error) => {
                    tracing::error!(%error, "cannot build the SMTP transport; e-mails stay in the outbox")
                }
            }
        }
        let copies = match RecordingClient::new(recordings.origins.clone()) {
            Ok(client) => Some(RecordingCopies {
                store: Arc::clone(&store) as _,
                client,
                retry: leads.retry,
                alert_after: alerts.after,
                max_total_bytes: recordings.max_total_bytes,
                mailer: alert_mailer.clone(),
            }),
            Err(error) => {
                tracing::error!(%error, "cannot build the recordings' download client; recordings stay queued");
                None
            }
        };
        let mut rounds = RoundCounts::default();
        let alerts = (!lanes.is_empty()).then(|| {
            let finished = rounds.count("alerts");
            alerts::start(Arc::clone(&store) as _, alert_mailer, alerts, finished)
        });
        let background = match Background::start() {
            Ok(background) => background,
            Err(error) => {
                tracing::error!(%error, "cannot start the lead outbox's thread; leads stay in the outbox");
                return Workers {
                    workers: Vec::new(),
                    background: None,
                    alerts,
                    rounds,
                };
            }
        };
        let runtime = background.handle();
        let mut workers: Vec<Task> = lanes
            .into_iter()
            .map(|lane| {
                let finished = rounds.count(lane.channel.as_str());
                worker::start(runtime, Arc::clone(&store) as _, lane, finished)
            })
            .collect();
        if let Some(digest) = digest {
            let finished = rounds.count("digest");
            workers.push(Task::spawn(runtime, |stopped| {
                digest.run(stopped, finished)
            }));
        }
        if let Some(booking_mailer) = booking_mailer {
            let finished = rounds.count("booking e-mails");
            workers.push(Task::spawn(runtime, |stopped| {
                booking_mailer.run(stopped, finished)
            }));
        }
        if let Some(copies) = copies {
            workers.push(Task::spawn(runtime, |stopped| copies.run(stopped)));
        }
        Workers {
            workers,
            background: Some(background),
            alerts,
            rounds,
        }
    }

    /// How many rounds the loop named `name` (see `RoundCounts`) has finished; `None` when the
    /// server runs no such loop.
    pub fn rounds_finished(&self, name: &str) -> Option<u64> {
        self.rounds.finished(name)
    }

    pub async fn stop(self) {
        if let Some(alerts) = self.alerts {
            alerts.stop().await;
        }
        futures_util::future::join_all(self.workers.into_iter().map(Task::stop)).await;
        if let Some(background) = self.background {
            background.stop().await;
        }
    }
}
