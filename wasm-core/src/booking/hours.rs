//! The broker's hours: the `booking` settings of content/site.yaml (as the build writes them to
//! `.site/site.json`), checked once into `Hours`. The build refuses the same mistakes first
//! (frontend/site-content/booking.ts); whoever reads site.json checks them here again, so a
//! hand-edited file cannot give wrong times either.

use std::collections::BTreeMap;
use std::fmt;

use jiff::civil::{Date, Time, Weekday};
use jiff::tz::TimeZone;
use serde::Deserialize;

/// The settings as the build writes them (camelCase keys; other keys, the texts, ignored).
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct BookingSettings {
    /// An IANA name, `America/Chicago`.
    pub time_zone: String,
    /// `mon` ... `sun`, each a list of `"HH:MM-HH:MM"`; a missing day is closed.
    pub hours: BTreeMap<String, Vec<String>>,
    pub slot_minutes: u32,
    /// The earliest bookable time, this many hours from now.
    pub notice_hours: u32,
    /// How many days are offered, today the first.
    pub days_ahead: u32,
    /// Days closed, `2026-12-25`, in the broker's calendar.
    #[serde(default)]
    pub closed: Vec<String>,
}

/// The weekdays as the settings name them, Monday first.
pub const WEEKDAYS: [(&str, Weekday); 7] = [
    ("mon", Weekday::Monday),
    ("tue", Weekday::Tuesday),
    ("wed", Weekday::Wednesday),
    ("thu", Weekday::Thursday),
    ("fri", Weekday::Friday),
    ("sat", Weekday::Saturday),
    ("sun", Weekday::Sunday),
];

/// A span of a day's hours, wall-clock times in the broker's zone.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Span {
    pub start: Time,
    pub end: Time,
}

/// The checked hours: each weekday's spans in order, the zone's rules, the limits.
#[derive(Clone, Debug)]
pub struct Hours {
    pub time_zone: TimeZone,
    /// Indexed by `Weekday::to_monday_zero_offset`.
    pub week: [Vec<Span>; 7],
    pub slot_minutes: u32,
    pub notice_hours: u32,
    pub days_ahead: u32,
    pub closed: Vec<Date>,
}

/// What is wrong with the settings, named by the key as the content spells it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum HoursError {
    UnknownZone(String),
    UnknownDay(String),
    NotASpan {
        key: String,
        value: String,
    },
    Reversed {
        key: String,
        value: String,
    },
    SlotLongerThanSpan {
        key: String,
        value: String,
    },
    Overlap {
        key: String,
        value: String,
        other: String,
    },
    NotADate {
        key: String,
        value: String,
    },
    OutOfRange {
        key: &'static str,
    },
}

impl fmt::Display for HoursError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownZone(name) => {
                write!(f, "booking.timeZone: {name:?} is not an IANA time zone")
            }
            Self::UnknownDay(day) => write!(f, "booking.hours.{day}: not a weekday (mon ... sun)"),
            Self::NotASpan { key, value } => {
                write!(f, "{key}: {value:?} is not a span such as \"09:00-12:30\"")
            }
            Self::Reversed { key, value } => write!(f, "{key}: {value:?} ends before it starts"),
            Self::SlotLongerThanSpan { key, value } => {
                write!(f, "{key}: {value:?} is shorter than slotMinutes")
            }
            Self::Overlap { key, value, other } => {
                write!(f, "{key}: {value:?} overlaps {other:?}")
            }
            Self::NotADate { key, value } => write!(f, "{key}: {value:?} is not a date"),
            Self::OutOfRange { key } => write!(f, "booking.{key}: out of range"),
        }
    }
}

impl std::error::Error for HoursError {}

/// The largest values the build takes (frontend/site-content/booking.ts), checked here again.
const MAX_SLOT_MINUTES: u32 = 480;
const MAX_NOTICE_HOURS: u32 = 24 * 30;
const MAX_DAYS_AHEAD: u32 = 365;

impl Hours {
    /// The settings checked, read in `time_zone` (their `timeZone`'s rules: `time_zone.rs`).
    pub fn new(settings: &BookingSettings, time_zone: TimeZone) -> Result<Hours, HoursError> {
        if !(5..=MAX_SLOT_MINUTES).contains(&settings.slot_minutes) {
            return Err(HoursError::OutOfRange { key: "slotMinutes" });
        }
        if settings.notice_hours > MAX_NOTICE_HOURS {
            return Err(HoursError::OutOfRange { key: "noticeHours" });
        }
        if !(1..=MAX_DAYS_AHEAD).contains(&settings.days_ahead) {
            return Err(HoursError::OutOfRange { key: "daysAhead" });
        }
        if let Some(day) = settings
            .hours
            .keys()
            .find(|day| !WEEKDAYS.iter().any(|(name, _)| name == day))
        {
            return Err(HoursError::UnknownDay(day.clone()));
        }
        let mut week: [Vec<Span>; 7] = Default::default();
        for (name, weekday) in WEEKDAYS {
            let Some(values) = settings.hours.get(name) else {
                continue;
            };
            let mut spans: Vec<(Span, &String)> = Vec::with_capacity(values.len());
            for (i, value) in values.iter().enumerate() {
                let key = format!("booking.hours.{name}[{i}]");
                let span = parse_span(value).ok_or_else(|| HoursError::NotASpan {
                    key: key.clone(),
                    value: value.clone(),
                })?;
                if span.end <= span.start {
                    return Err(HoursError::Reversed {
                        key,
                        value: value.clone(),
                    });
                }
                if minutes(span.end) - minutes(span.start) < settings.slot_minutes {
                    return Err(HoursError::SlotLongerThanSpan {
                        key,
                        value: value.clone(),
                    });
                }
                if let Some((_, other)) = spans
                    .iter()
                    .find(|(s, _)| span.start < s.end && s.start < span.end)
                {
                    return Err(HoursError::Overlap {
                        key,
                        value: value.clone(),
                        other: (*other).clone(),
                    });
                }
                spans.push((span, value));
            }
            spans.sort_by_key(|(span, _)| span.start);
            week[weekday.to_monday_zero_offset() as usize] =
                spans.into_iter().map(|(span, _)| span).collect();
        }
        let closed = settings
            .closed
            .iter()
            .enumerate()
            .map(|(i, value)| {
                value.parse::<Date>().map_err(|_| HoursError::NotADate {
                    key: format!("booking.closed[{i}]"),
                    value: value.clone(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Hours {
            time_zone,
            week,
            slot_minutes: settings.slot_minutes,
            notice_hours: settings.notice_hours,
            days_ahead: settings.days_ahead,
            closed,
        })
    }

    /// A weekday's spans, in order.
    pub fn spans(&self, weekday: Weekday) -> &[Span] {
        &self.week[weekday.to_monday_zero_offset() as usize]
    }
}

/// Minutes from midnight.
pub(crate) fn minutes(time: Time) -> u32 {
    time.hour() as u32 * 60 + time.minute() as u32
}

/// `"09:00-12:30"`: two times of day, each two-digit hours and minutes.
fn parse_span(value: &str) -> Option<Span> {
    let (start, end) = value.split_once('-')?;
    Some(Span {
        start: parse_time(start)?,
        end: parse_time(end)?,
    })
}

fn parse_time(value: &str) -> Option<Time> {
    let (hour, minute) = value.split_once(':')?;
    if hour.len() != 2 || minute.len() != 2 {
        return None;
    }
    let hour: i8 = hour.parse().ok()?;
    let minute: i8 = minute.parse().ok()?;
    Time::new(hour, minute, 0, 0).ok()
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// New York's hours, 30-minute slots, 24 hours' notice, 14 days, Christmas closed.
    pub(crate) fn settings(hours: &[(&str, &[&str])]) -> BookingSettings {
        BookingSettings {
            time_zone: "America/New_York".into(),
            hours: hours
                .iter()
                .map(|(day, spans)| {
                    (
                        day.to_string(),
                        spans.iter().map(|s| s.to_string()).collect(),
                    )
                })
                .collect(),
            slot_minutes: 30,
            notice_hours: 24,
            days_ahead: 14,
            closed: vec!["2026-12-25".into()],
        }
    }

    fn check(hours: &[(&str, &[&str])]) -> Result<Hours, HoursError> {
        Hours::new(&settings(hours), TimeZone::UTC)
    }

    #[test]
    fn takes_the_hours_in_order_each_day_its_own() {
        let hours = check(&[
            ("mon", &["13:00-17:00", "09:00-12:00"]),
            ("sat", &["10:00-12:00"]),
        ])
        .unwrap();
        let monday = hours.spans(Weekday::Monday);
        assert_eq!(monday[0].start, Time::constant(9, 0, 0, 0));
        assert_eq!(monday[1].end, Time::constant(17, 0, 0, 0));
        assert!(hours.spans(Weekday::Sunday).is_empty());
        assert_eq!(hours.closed, vec![Date::constant(2026, 12, 25)]);
    }

    #[test]
    fn refuses_reversed_overlapping_and_too_short_hours_naming_the_key() {
        assert_eq!(
            check(&[("tue", &["17:00-09:00"])]).unwrap_err().to_string(),
            "booking.hours.tue[0]: \"17:00-09:00\" ends before it starts"
        );
        assert_eq!(
            check(&[("mon", &["09:00-12:00", "11:30-17:00"])])
                .unwrap_err()
                .to_string(),
            "booking.hours.mon[1]: \"11:30-17:00\" overlaps \"09:00-12:00\""
        );
        assert_eq!(
            check(&[("sat", &["10:00-10:20"])]).unwrap_err(),
            HoursError::SlotLongerThanSpan {
                key: "booking.hours.sat[0]".into(),
                value: "10:00-10:20".into()
            }
        );
        assert!(matches!(
            check(&[("mon", &["9:00-12:00"])]),
            Err(HoursError::NotASpan { .. })
        ));
        assert!(matches!(
            check(&[("monday", &[])]),
            Err(HoursError::UnknownDay(_))
        ));
        let mut bad_date = settings(&[]);
        bad_date.closed = vec!["25/12/2026".into()];
        assert!(matches!(
            Hours::new(&bad_date, TimeZone::UTC),
            Err(HoursError::NotADate { .. })
        ));
    }
}
