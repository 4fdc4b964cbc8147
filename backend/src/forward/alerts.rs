//! Alerts when leads stop reaching the broker: each instance looks at the deliveries every
//! `check_every`; a channel with a lead failing for longer than `ALERT_AFTER_MINUTES` opens an
//! incident in the store and sends one alert e-mail through the relay (the channel's last error
//! in it), and once no lead of the channel fails any more the incident closes with one more
//! e-mail. The incident's row makes one instance of several send each message.

use std::sync::atomic::AtomicU64;
use std::sync::Arc;

use time::OffsetDateTime;
use tokio::runtime::Handle;

use super::email::Mailer;
use super::task::Task;
use super::worker::rounds;
use crate::settings::alerts::AlertSettings;
use crate::store::{DeliveryAlerts, StoreError};

/// The checks, on the server's own runtime. Without a mailer (no `SMTP_URL`) an incident is only
/// logged.
pub fn start(
    store: Arc<dyn DeliveryAlerts>,
    mailer: Option<Arc<Mailer>>,
    settings: AlertSettings,
    finished: Arc<AtomicU64>,
) -> Task {
    Task::spawn(&Handle::current(), |stopped| async move {
        let round = || async {
            if let Err(error) = check(store.as_ref(), mailer.as_deref(), settings).await {
                tracing::warn!(%error, "cannot check the lead deliveries for alerts");
            }
            settings.check_every
        };
        rounds(round, stopped, &finished).await;
    })
}

async fn check(
    store: &dyn DeliveryAlerts,
    mailer: Option<&Mailer>,
    settings: AlertSettings,
) -> Result<(), StoreError> {
    let now = OffsetDateTime::now_utc();
    let failing = store.failing_channels().await?;
    let open = store.open_incidents().await?;
    for channel in &failing {
        let name = channel.channel.as_str();
        if now - channel.since < settings.after || open.contains(&channel.channel) {
            continue;
        }
        if !store
            .open_incident(channel.channel, channel.since, now)
            .await?
        {
            continue;
        }
        tracing::error!(
            channel = name,
            leads = channel.leads,
            since = %channel.since,
            error = %channel.error,
            "leads have not been delivered for too long; alerting"
        );
        let Some(mailer) = mailer else { continue };
        if let Err(error) = mailer.alert_failing(channel).await {
            tracing::error!(channel = name, %error, "cannot send the delivery alert; trying again at the next check");
            // Closed again, so the next check (of any instance) sends it.
            store.close_incident(channel.channel).await?;
        }
    }
    for channel in open {
        if failing.iter().any(|f| f.channel == channel) {
            continue;
        }
        if !store.close_incident(channel).await? {
            continue;
        }
        tracing::info!(channel = channel.as_str(), "lead deliveries work again");
        if let Some(mailer) = mailer {
            if let Err(error) = mailer.alert_recovered(channel).await {
                tracing::error!(channel = channel.as_str(), %error, "cannot send the recovery message");
            }
        }
    }
    Ok(())
}
