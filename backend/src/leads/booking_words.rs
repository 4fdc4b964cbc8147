//! The words of a booking's e-mails to the visitor and of the page its link opens, in each
//! language, from the build (`booking.emails` and `booking.manage` in each language's
//! `.site/site.json`, docs/product.md §13), and a call's time as both say it: on the broker's
//! wall clock, in the broker's zone (`booking.timeZone`).

use std::io;
use std::path::Path;

use jiff::tz::TimeZone;
use jiff::Timestamp;
use serde::Deserialize;
use wasm_core::booking::time_zone;

use crate::settings::site::{read_build_facts, BUILD_FACTS, SPANISH_BUILD_FACTS};
use crate::store::Language;

/// The visitor's e-mails; `{when}` is the call's time.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmailWords {
    /// The calendar entry's title.
    pub summary: String,
    pub subject: String,
    pub booked: String,
    /// Before the link to cancel or move the call.
    pub manage: String,
    pub reminder_subject: String,
    pub reminder: String,
}

/// The page the link opens; `{when}` is the call's time.
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ManageWords {
    pub title: String,
    pub booked: String,
    pub cancel: String,
    pub move_label: String,
    #[serde(rename = "move")]
    pub move_button: String,
    pub cancelled: String,
    pub moved: String,
    /// The link was used: the call is cancelled or moved, or its time has passed.
    pub gone: String,
    /// The link was not one this site made.
    pub unknown: String,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Booking {
    time_zone: String,
    emails: EmailWords,
    manage: ManageWords,
}

#[derive(Deserialize)]
struct Facts {
    #[serde(default)]
    booking: Option<Booking>,
}

/// Each language's words, and the broker's zone.
pub struct BookingWords {
    pub zone: TimeZone,
    english: Booking,
    spanish: Booking,
}

impl BookingWords {
    /// `None` when the build has no `booking` (off, or no built front end).
    pub fn load(static_dir: &Path) -> io::Result<Option<BookingWords>> {
        let Some(english) = read(&static_dir.join(BUILD_FACTS))? else {
            return Ok(None);
        };
        let spanish = read(&static_dir.join(SPANISH_BUILD_FACTS))?.unwrap_or(english.clone());
        let zone = time_zone::by_name(&english.time_zone)
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e.to_string()))?;
        Ok(Some(BookingWords {
            zone,
            english,
            spanish,
        }))
    }

    pub fn emails(&self, language: Language) -> &EmailWords {
        &self.of(language).emails
    }

    pub fn manage(&self, language: Language) -> &ManageWords {
        &self.of(language).manage
    }

    /// The call starting at `start` as `language` says it, in the broker's zone.
    pub fn when(&self, start: Timestamp, language: Language) -> String {
        slot_label(&self.zone, start, language)
    }

    fn of(&self, language: Language) -> &Booking {
        match language {
            Language::En => &self.english,
            Language::Es => &self.spanish,
        }
    }
}

fn read(file: &Path) -> io::Result<Option<Booking>> {
    Ok(read_build_facts::<Facts>(file)?.and_then(|facts| facts.booking))
}

/// Spanish's days, Monday first, and months (English's are jiff's own).
const SPANISH_DAYS: [&str; 7] = [
    "lunes",
    "martes",
    "miércoles",
    "jueves",
    "viernes",
    "sábado",
    "domingo",
];
const SPANISH_MONTHS: [&str; 12] = [
    "enero",
    "febrero",
    "marzo",
    "abril",
    "mayo",
    "junio",
    "julio",
    "agosto",
    "septiembre",
    "octubre",
    "noviembre",
    "diciembre",
];

/// `Monday, March 9, 10:30 AM CDT` (`lunes 9 de marzo, 10:30 CDT`): the start on the broker's
/// wall clock, with the zone's abbreviation, which tells the two 01:30s of a fall-back night apart.
pub fn slot_label(zone: &TimeZone, start: Timestamp, language: Language) -> String {
    let zoned = start.to_zoned_datetime(zone.clone());
    match language {
        Language::En => zoned.strftime("%A, %B %-d, %-I:%M %p %Z").to_string(),
        Language::Es => format!(
            "{} {} de {}, {}",
            SPANISH_DAYS[usize::from(zoned.weekday().to_monday_zero_offset().unsigned_abs())],
            zoned.day(),
            SPANISH_MONTHS[usize::try_from(zoned.month() - 1).unwrap_or(0)],
            zoned.strftime("%H:%M %Z")
        ),
    }
}
