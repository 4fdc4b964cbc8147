//! The times still open to book (docs/product.md §13): each slot of the broker's hours, stepped
//! by `slotMinutes` on the wall clock of the broker's zone, offered only when it starts after the
//! notice, on one of the `daysAhead` days (today the first, in the broker's calendar), not on a
//! closed day, and free of every booking taken.
//!
//! Across a daylight-saving change a wall-clock time is read as the zone reads it: one skipped
//! (spring forward: 02:30 on 8 March 2026 in New York) is no time at all and not offered; one
//! that happens twice (fall back: 01:30 on 1 November 2026) is offered twice, two instants an
//! hour apart, as the broker is at work in both. A slot's end is its start plus `slotMinutes` of
//! real time.

use jiff::civil::{DateTime, Time};
use jiff::tz::AmbiguousOffset;
use jiff::{SignedDuration, Timestamp};

use super::hours::{minutes, Hours};

/// One time to book: its start and end instants.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Slot {
    pub start: Timestamp,
    pub end: Timestamp,
}

impl Slot {
    /// Whether the two share any moment.
    pub fn overlaps(&self, other: &Slot) -> bool {
        self.start < other.end && other.start < self.end
    }
}

/// The open slots from `now`, in order; `taken` are the bookings not cancelled.
pub fn open_times(hours: &Hours, now: Timestamp, taken: &[Slot]) -> Vec<Slot> {
    let earliest = now + SignedDuration::from_hours(i64::from(hours.notice_hours));
    let length = SignedDuration::from_mins(i64::from(hours.slot_minutes));
    let mut slots = Vec::new();
    let mut date = hours.time_zone.to_datetime(now).date();
    for _ in 0..hours.days_ahead {
        if !hours.closed.contains(&date) {
            for span in hours.spans(date.weekday()) {
                let mut at = minutes(span.start);
                while at + hours.slot_minutes <= minutes(span.end) {
                    let wall =
                        date.to_datetime(Time::constant((at / 60) as i8, (at % 60) as i8, 0, 0));
                    for start in instants(hours, wall) {
                        let slot = Slot {
                            start,
                            end: start + length,
                        };
                        if start >= earliest && !taken.iter().any(|t| t.overlaps(&slot)) {
                            slots.push(slot);
                        }
                    }
                    at += hours.slot_minutes;
                }
            }
        }
        let Ok(next) = date.tomorrow() else { break };
        date = next;
    }
    slots.sort();
    slots
}

/// The slot of `open_times` that starts at `start`, if it is open.
pub fn open_slot(hours: &Hours, now: Timestamp, taken: &[Slot], start: Timestamp) -> Option<Slot> {
    open_times(hours, now, taken)
        .into_iter()
        .find(|slot| slot.start == start)
}

/// The instants a wall-clock time of the broker's zone is: none in a gap, two in a fold.
fn instants(hours: &Hours, wall: DateTime) -> Vec<Timestamp> {
    let offsets = match hours.time_zone.to_ambiguous_timestamp(wall).offset() {
        AmbiguousOffset::Unambiguous { offset } => vec![offset],
        AmbiguousOffset::Gap { .. } => vec![],
        AmbiguousOffset::Fold { before, after } => vec![before, after],
    };
    offsets
        .into_iter()
        .filter_map(|offset| offset.to_timestamp(wall).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::booking::hours::tests::settings;
    use crate::booking::hours::BookingSettings;
    use crate::booking::time_zone::by_name;

    fn hours(
        days: &[(&str, &[&str])],
        slot_minutes: u32,
        notice_hours: u32,
        days_ahead: u32,
    ) -> Hours {
        let settings = BookingSettings {
            slot_minutes,
            notice_hours,
            days_ahead,
            closed: vec!["2026-03-10".into()],
            ..settings(days)
        };
        Hours::new(&settings, by_name("America/New_York").unwrap()).unwrap()
    }

    fn at(instant: &str) -> Timestamp {
        instant.parse().unwrap()
    }

    fn starts(slots: &[Slot]) -> Vec<String> {
        slots.iter().map(|slot| slot.start.to_string()).collect()
    }

    const EVERY_DAY: [&str; 7] = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"];

    #[test]
    fn the_week_clocks_spring_forward_keeps_the_brokers_wall_clock() {
        // Thursday 5 March 2026, 09:00 in New York (EST, -05:00); a week of 09:00-10:00, hourly.
        let days: Vec<(&str, &[&str])> = EVERY_DAY
            .iter()
            .map(|d| (*d, &["09:00-10:00"][..]))
            .collect();
        let slots = open_times(&hours(&days, 60, 0, 7), at("2026-03-05T14:00:00Z"), &[]);
        assert_eq!(
            starts(&slots),
            [
                "2026-03-05T14:00:00Z", // Thu, EST
                "2026-03-06T14:00:00Z",
                "2026-03-07T14:00:00Z",
                "2026-03-08T13:00:00Z", // Sun, the change at 02:00: EDT, -04:00
                "2026-03-09T13:00:00Z",
                // Tue 10 March closed
                "2026-03-11T13:00:00Z",
            ]
        );
    }

    #[test]
    fn a_time_the_clocks_skip_is_not_offered() {
        // Sunday 8 March 2026, 00:00-04:00 hourly: 02:00 does not exist; 03:00 is EDT.
        let slots = open_times(
            &hours(&[("sun", &["00:00-04:00"])], 60, 0, 1),
            at("2026-03-08T05:00:00Z"),
            &[],
        );
        assert_eq!(
            starts(&slots),
            [
                "2026-03-08T05:00:00Z",
                "2026-03-08T06:00:00Z",
                "2026-03-08T07:00:00Z"
            ]
        );
        assert!(slots
            .iter()
            .all(|s| s.end - s.start == SignedDuration::from_hours(1)));
    }

    #[test]
    fn the_week_clocks_fall_back_offers_the_repeated_hour_twice() {
        // Sunday 1 November 2026, 00:00-03:00 hourly: 01:00 is 05:00Z (EDT) and 06:00Z (EST).
        let slots = open_times(
            &hours(
                &[("sun", &["00:00-03:00"]), ("mon", &["09:00-10:00"])],
                60,
                0,
                2,
            ),
            at("2026-11-01T04:00:00Z"),
            &[],
        );
        assert_eq!(
            starts(&slots),
            [
                "2026-11-01T04:00:00Z",
                "2026-11-01T05:00:00Z",
                "2026-11-01T06:00:00Z",
                "2026-11-01T07:00:00Z",
                "2026-11-02T14:00:00Z", // Monday 09:00 EST
            ]
        );
        // The Friday before: 09:00 EDT.
        let friday = open_times(
            &hours(&[("fri", &["09:00-09:30"])], 30, 0, 1),
            at("2026-10-30T04:00:00Z"),
            &[],
        );
        assert_eq!(starts(&friday), ["2026-10-30T13:00:00Z"]);
    }

    #[test]
    fn offers_only_after_the_notice_within_the_days_and_not_taken() {
        let h = hours(&[("mon", &["09:00-12:00"])], 30, 24, 8);
        // Sunday 8 March 2026, 10:15 EDT: the notice ends Monday 10:15, so Monday's first is 10:30.
        let now = at("2026-03-08T14:15:00Z");
        let slots = open_times(&h, now, &[]);
        assert_eq!(slots[0].start, at("2026-03-09T14:30:00Z"));
        // Monday 9 March (from 10:30: 10:30, 11:00, 11:30) and Monday 16 March (9:00 to 11:30):
        // 8 days from Sunday 8 reach Sunday 15 only, so the 16th is out.
        assert_eq!(slots.len(), 3);
        let longer = open_times(&hours(&[("mon", &["09:00-12:00"])], 30, 24, 9), now, &[]);
        assert_eq!(longer.len(), 9);
        // A booking taken at 11:00 (of another length: any overlap counts).
        let taken = [Slot {
            start: at("2026-03-09T15:00:00Z"),
            end: at("2026-03-09T15:45:00Z"),
        }];
        assert_eq!(
            starts(&open_times(&h, now, &taken)),
            ["2026-03-09T14:30:00Z"]
        );
        assert_eq!(open_slot(&h, now, &taken, at("2026-03-09T15:30:00Z")), None);
        assert!(open_slot(&h, now, &[], at("2026-03-09T15:30:00Z")).is_some());
        assert_eq!(open_slot(&h, now, &[], at("2026-03-09T15:10:00Z")), None);
    }
}
