//! Queueing a booking's e-mails (`booking_mails.rs`) in the transaction that books, moves or
//! cancels it: which e-mail a row is, and the statements that queue them.

use time::{Duration, OffsetDateTime};

use super::sql::{Connection, Value};
use super::stored_names::stored_names;
use super::StoreError;

/// How long before the call the visitor's reminder is due.
pub const REMINDER_BEFORE: Duration = Duration::hours(24);

/// Which of a booking's e-mails a row is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MailKind {
    /// The broker's invitation, `METHOD:REQUEST`.
    Request,
    /// The broker's cancellation, `METHOD:CANCEL`.
    Cancel,
    /// The visitor's confirmation, with the invitation and the link to cancel or move.
    Confirmation,
    /// The visitor's reminder, the day before.
    Reminder,
}

stored_names!(
    MailKind,
    parse,
    [Request => "request", Cancel => "cancel", Confirmation => "confirmation", Reminder => "reminder"]
);

/// $1 booking, $2 kind, $3 due.
const QUEUE: &str = "INSERT INTO booking_mails (booking_id, kind, due_at) VALUES ($1, $2, $3)
    ON CONFLICT DO NOTHING";
/// $1 lead, $2 now: the broker's cancellation of each of the lead's calls still to come, queued
/// before they are cancelled (`bookings::CANCEL_UPCOMING_OF_LEAD`).
const QUEUE_CANCELS_OF_LEAD: &str = "INSERT INTO booking_mails (booking_id, kind, due_at)
    SELECT id, 'cancel', $2 FROM bookings WHERE lead_id = $1 AND status = 'booked' AND starts_at > $2
    ON CONFLICT DO NOTHING";
/// Queues booking `id`'s invitation and confirmation at `now`, and its reminder the day before
/// `starts_at` unless that has passed.
pub(super) async fn queue_booked(
    c: &mut dyn Connection,
    id: &str,
    starts_at: OffsetDateTime,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    queue(c, id, MailKind::Request, now).await?;
    queue(c, id, MailKind::Confirmation, now).await?;
    let remind_at = starts_at - REMINDER_BEFORE;
    if remind_at > now {
        queue(c, id, MailKind::Reminder, remind_at).await?;
    }
    Ok(())
}

pub(super) async fn queue(
    c: &mut dyn Connection,
    id: &str,
    kind: MailKind,
    due: OffsetDateTime,
) -> Result<(), StoreError> {
    let values: [Value; 3] = [id.into(), kind.as_str().into(), due.into()];
    c.execute(QUEUE, &values).await.map(drop)
}

/// Queues the broker's cancellation of each of `lead`'s calls still to come at `now`.
pub(super) async fn queue_cancels_of_lead(
    c: &mut dyn Connection,
    lead: &str,
    now: OffsetDateTime,
) -> Result<(), StoreError> {
    c.execute(QUEUE_CANCELS_OF_LEAD, &[lead.into(), now.into()])
        .await
        .map(drop)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_kind_reads_back_by_its_name() {
        for kind in [
            MailKind::Request,
            MailKind::Cancel,
            MailKind::Confirmation,
            MailKind::Reminder,
        ] {
            assert_eq!(MailKind::parse(kind.as_str()), Some(kind));
        }
        assert_eq!(MailKind::parse("digest"), None);
    }
}
