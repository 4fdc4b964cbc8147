//! Booked calls as iCalendar (RFC 5545, with iTIP's methods, RFC 5546), written by the
//! `icalendar` crate (which folds long lines and escapes text): the invitation a booking's
//! e-mails carry (`METHOD:REQUEST`), its cancellation (`METHOD:CANCEL`, the same `UID`, a higher
//! `SEQUENCE`), and the broker's feed of the calls to come (`METHOD:PUBLISH`). A booking's `UID`
//! is its id (a UUID, unique on its own), so the invitation, the cancellation and the feed name
//! one event; times are in UTC.

use icalendar::{Calendar, Component, Event, EventStatus, Property};
use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::OffsetDateTime;

use crate::store::bookings::Booking;

/// A booking's `SEQUENCE` while booked, and once cancelled: a booking is never changed but by
/// cancelling it (a move cancels it and books another).
const BOOKED_SEQUENCE: u32 = 0;
const CANCELLED_SEQUENCE: u32 = 1;
const PRODUCT_ID: &str = "-//Quote site//Booked calls//EN";

/// What the calendar entry is for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    Request,
    Cancel,
}

/// A booked call as its calendar entries say it.
pub struct Call<'a> {
    pub booking: &'a Booking,
    /// The visitor's typed name (the Scope of Appointment's signature).
    pub name: &'a str,
    pub phone: Option<&'a str>,
    pub email: Option<&'a str>,
    /// The entry's title.
    pub summary: &'a str,
    /// Who sends the invitation (`SMTP_FROM`) and who it invites, as `mailto:` addresses.
    pub organizer: Option<&'a str>,
    pub attendee: Option<&'a str>,
}

/// The product types of a Scope of Appointment as the broker reads them.
pub fn product_label(value: &str) -> &str {
    match value {
        "medicare_advantage" => "Medicare Advantage",
        "part_d" => "Part D",
        "medicare_supplement" => "Medicare Supplement",
        "dental_vision_hearing" => "Dental, vision and hearing",
        other => other,
    }
}

/// The entry's description: who, their number and address, and what they agreed to discuss.
pub fn description(call: &Call) -> String {
    let mut lines = vec![format!("Name: {}", call.name)];
    if let Some(phone) = call.phone {
        lines.push(format!("Phone: {phone}"));
    }
    if let Some(email) = call.email {
        lines.push(format!("E-mail: {email}"));
    }
    if let Some(soa) = &call.booking.soa {
        let products: Vec<&str> = soa.products.iter().map(|p| product_label(p)).collect();
        lines.push(format!("Scope of Appointment: {}", products.join(", ")));
    }
    lines.join("\n")
}

/// One call's invitation or cancellation, stamped `now`.
pub fn invitation(method: Method, call: &Call, now: OffsetDateTime) -> String {
    let mut calendar = head();
    let method_name = match method {
        Method::Request => "REQUEST",
        Method::Cancel => "CANCEL",
    };
    calendar.append_property(Property::new("METHOD", method_name));
    calendar.push(event(call, method == Method::Cancel, now));
    calendar.to_string()
}

/// The broker's feed: every call in `calls`, stamped `now`.
pub fn feed(name: &str, calls: &[Call], now: OffsetDateTime) -> String {
    let mut calendar = head();
    calendar.append_property(Property::new("METHOD", "PUBLISH"));
    calendar.append_property(Property::new("X-WR-CALNAME", name));
    for call in calls {
        calendar.push(event(call, false, now));
    }
    calendar.to_string()
}

fn head() -> Calendar {
    let mut calendar = Calendar::empty();
    calendar.append_property(Property::new("VERSION", "2.0"));
    calendar.append_property(Property::new("PRODID", PRODUCT_ID));
    calendar.append_property(Property::new("CALSCALE", "GREGORIAN"));
    calendar
}

fn event(call: &Call, cancelled: bool, now: OffsetDateTime) -> Event {
    let booking = call.booking;
    let (sequence, status) = if cancelled {
        (CANCELLED_SEQUENCE, EventStatus::Cancelled)
    } else {
        (BOOKED_SEQUENCE, EventStatus::Confirmed)
    };
    let mut event = Event::new();
    event
        .uid(&booking.id)
        .add_property("DTSTAMP", utc(now))
        .add_property("DTSTART", stored_utc(&booking.starts_at))
        .add_property("DTEND", stored_utc(&booking.ends_at))
        .summary(call.summary)
        .description(&description(call))
        .sequence(sequence)
        .status(status);
    if let Some(organizer) = call.organizer {
        event.append_property(Property::new("ORGANIZER", format!("mailto:{organizer}")));
    }
    if let Some(attendee) = call.attendee {
        let mut property = Property::new("ATTENDEE", format!("mailto:{attendee}"));
        property
            .add_parameter("ROLE", "REQ-PARTICIPANT")
            .add_parameter("PARTSTAT", "ACCEPTED");
        event.append_property(property);
    }
    event.done()
}

/// `20260309T150000Z`.
fn utc(at: OffsetDateTime) -> String {
    let format = format_description!("[year][month][day]T[hour][minute][second]Z");
    at.to_offset(time::UtcOffset::UTC)
        .format(&format)
        .unwrap_or_default()
}

/// A stored time (RFC 3339) in UTC's basic form; a stored time always reads.
fn stored_utc(stored: &str) -> String {
    OffsetDateTime::parse(stored, &Rfc3339).map_or_else(|_| String::new(), utc)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::bookings::SoaShown;

    fn booking() -> Booking {
        Booking {
            id: "0190f3a0-0000-7000-8000-000000000001".into(),
            lead_id: "lead".into(),
            starts_at: "2026-03-09T15:00:00Z".into(),
            ends_at: "2026-03-09T15:30:00Z".into(),
            status: "booked".into(),
            soa: Some(SoaShown {
                products: vec!["part_d".into(), "medicare_advantage".into()],
                signature: "Ana Ruiz".into(),
                sha256: None,
                at: "2026-03-01T00:00:00Z".into(),
                channel: "form_without_script".into(),
            }),
        }
    }

    fn call(booking: &Booking) -> Call<'_> {
        Call {
            booking,
            name: "Ana; Ruiz, \"Jr\"",
            phone: Some("+15555550123"),
            email: Some("ana@example.com"),
            summary: "Call with Ana Ruiz",
            organizer: Some("quotes@broker.example"),
            attendee: Some("broker@example.com"),
        }
    }

    #[test]
    fn the_invitation_and_its_cancellation_name_one_event() {
        let booking = booking();
        let now = OffsetDateTime::UNIX_EPOCH;
        let request = invitation(Method::Request, &call(&booking), now);
        let parsed: icalendar::Calendar = request.parse().unwrap();
        assert_eq!(parsed.property_value("METHOD"), Some("REQUEST"));
        let event = parsed.events().next().unwrap();
        assert_eq!(event.get_uid(), Some(booking.id.as_str()));
        assert_eq!(event.get_sequence(), Some(0));
        assert_eq!(event.property_value("DTSTART"), Some("20260309T150000Z"));
        assert_eq!(event.property_value("DTEND"), Some("20260309T153000Z"));
        let text = event.get_description().unwrap();
        assert!(text.contains("Name: Ana; Ruiz, \"Jr\""), "{text}");
        assert!(text.contains("Phone: +15555550123"), "{text}");
        assert!(
            text.contains("Scope of Appointment: Part D, Medicare Advantage"),
            "{text}"
        );
        assert!(request.lines().all(|line| line.len() <= 76), "{request}");
        let cancel = invitation(Method::Cancel, &call(&booking), now);
        let parsed: icalendar::Calendar = cancel.parse().unwrap();
        assert_eq!(parsed.property_value("METHOD"), Some("CANCEL"));
        let event = parsed.events().next().unwrap();
        assert_eq!(event.get_uid(), Some(booking.id.as_str()));
        assert_eq!(event.get_sequence(), Some(1));
        assert_eq!(event.get_status(), Some(EventStatus::Cancelled));
    }
}
