//! The messages to whoever runs the site rather than about a lead: the test message
//! (`backend send-test-email`, to `LEAD_EMAIL_TO`) and the delivery alerts (to `ALERT_EMAIL_TO`).
//! Plain text: they are read once and acted on.

use lettre::message::{header::ContentType, Mailbox};
use lettre::Message;
use time::OffsetDateTime;

use crate::settings::email::EmailSettings;
use crate::settings::site::SiteSettings;
use crate::store::{Channel, FailingChannel};

pub(super) fn test(
    settings: &EmailSettings,
    site: &SiteSettings,
    now: OffsetDateTime,
) -> Result<Message, lettre::error::Error> {
    let body = format!(
        "This is a test message from `backend send-test-email`, sent {} through {}.\n\nLead e-mails go to the same recipients through the same relay, so they arrive here too.\n",
        site.local_time(now),
        settings.relay
    );
    compose(
        settings,
        &settings.to,
        "Test message from the quote site",
        body,
    )
}

/// `channel` has failed to deliver some leads for longer than the alert threshold.
pub(super) fn failing(
    settings: &EmailSettings,
    site: &SiteSettings,
    failing: &FailingChannel,
) -> Result<Message, lettre::error::Error> {
    let name = channel_name(failing.channel);
    let leads = match failing.leads {
        1 => "1 lead".to_owned(),
        n => format!("{n} leads"),
    };
    let inbox = site
        .inbox()
        .map(|inbox| format!("\nThe leads are in the inbox: {inbox}\n"))
        .unwrap_or_default();
    let body = format!(
        "Delivering leads by {name} has been failing since {}: {leads} not delivered yet. They are kept and retried.\n\nThe last error: {}\n{inbox}\nAnother message follows once deliveries work again.\n",
        site.local_time(failing.since),
        failing.error
    );
    compose(
        settings,
        &settings.alert_to,
        &format!("Alert: leads are not reaching you by {name}"),
        body,
    )
}

pub(super) fn recovered(
    settings: &EmailSettings,
    site: &SiteSettings,
    channel: Channel,
    now: OffsetDateTime,
) -> Result<Message, lettre::error::Error> {
    let name = channel_name(channel);
    let body = format!(
        "Leads are being delivered by {name} again (checked {}): no lead is waiting after a failed attempt.\n",
        site.local_time(now)
    );
    compose(
        settings,
        &settings.alert_to,
        &format!("Recovered: leads reach you by {name} again"),
        body,
    )
}

/// A call's recording has not been copied into the site's storage for longer than the alert
/// threshold; the copy goes on being retried until the lead retry policy's give-up time.
pub(super) fn recording_failing(
    settings: &EmailSettings,
    site: &SiteSettings,
    call_id: &str,
    since: OffsetDateTime,
    error: &str,
) -> Result<Message, lettre::error::Error> {
    let conversations = site
        .inbox()
        .map(|inbox| {
            format!("\nThe call is under Conversations in the inbox: {inbox}#conversations\n")
        })
        .unwrap_or_default();
    let body = format!(
        "The recording of call {call_id} has not been copied from the voice provider since {}. It is retried until LEAD_GIVE_UP_DAYS have passed; after that only the provider's copy remains, for as long as the provider keeps it.\n\nThe last error: {error}\n{conversations}",
        site.local_time(since),
    );
    compose(
        settings,
        &settings.alert_to,
        "Alert: a call recording is not being kept",
        body,
    )
}

fn channel_name(channel: Channel) -> &'static str {
    match channel {
        Channel::Webhook => "the webhook (LEAD_WEBHOOK_URL)",
        Channel::Email => "e-mail",
        Channel::FollowUp => "the e-mail after a call",
    }
}

fn compose(
    settings: &EmailSettings,
    to: &[Mailbox],
    subject: &str,
    body: String,
) -> Result<Message, lettre::error::Error> {
    let mut builder = Message::builder()
        .from(settings.from.clone())
        .subject(subject)
        .header(ContentType::TEXT_PLAIN);
    for to in to {
        builder = builder.to(to.clone());
    }
    builder.body(body)
}
