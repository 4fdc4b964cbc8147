//! What the assistant reads out after `available_times` or `book_call`, in the conversation's
//! language: one line each, naming the argument that was wrong and saying what to do next. The
//! times are on the broker's clock, each with the value `book_call` takes.

use jiff::Timestamp;
use wasm_core::booking::{Hours, Slot};

use super::replies::{echo, single_line};
use crate::http::page_reply::either;
use crate::leads::booking_words::slot_label;
use crate::routes::booking::PRODUCTS;
use crate::store::Language;

/// The words of the replies in one language; `{…}` is filled in.
pub struct Words {
    pub not_booked: &'static str,
    /// `{reason}`.
    pub unreadable: &'static str,
    /// `{value}`.
    pub slot: &'static str,
    pub slot_not_offered: &'static str,
    pub name: &'static str,
    /// `{value}`.
    pub email: &'static str,
    pub phone: &'static str,
    /// `{values}`.
    pub products: &'static str,
    /// `{value}`.
    pub language: &'static str,
    /// `{value}`.
    pub from: &'static str,
    /// `{times}`.
    pub taken: &'static str,
    /// `{zone}`, `{times}`.
    pub open: &'static str,
    pub none_open: &'static str,
    /// `{date}`.
    pub none_open_from: &'static str,
    /// `{time}`, `{name}`, `{email}`.
    pub booked: &'static str,
    pub storage_failed: &'static str,
    pub booking_off: &'static str,
    /// Between a time's words and its value, `{value}`.
    pub slot_value: &'static str,
}

const ENGLISH: Words = Words {
    not_booked: "Not booked.",
    unreadable: "Not done: {reason}. Call the tool again with its arguments.",
    slot: "slot: {value} is not one of the times available_times gave; call available_times and offer the caller its times.",
    slot_not_offered: "slot: that time is not open to book; call available_times and offer the caller its times.",
    name: "name: say the caller's full name as they give it, their signature for the Scope of Appointment.",
    email: "email: {value} is not a valid e-mail address; ask the caller to spell it again, letter by letter.",
    phone: "phone: not a valid US phone number (ten digits, area code first); ask the caller to say it again, or leave it out.",
    products: "products: give at least one of {values}, those the caller agreed to discuss.",
    language: "language: {value} is neither en nor es; give the language you read the Scope of Appointment in.",
    from: "from: {value} is not a date such as 2026-03-09.",
    taken: "Not booked: that time was just booked by someone else. Times still open: {times}. Offer them to the caller.",
    open: "Open times, on the broker's clock ({zone}): {times}. Say them to the caller; pass the chosen one's value as slot to book_call.",
    none_open: "No times are open to book. Tell the caller, and offer to take a quote request instead.",
    none_open_from: "No times are open to book from {date}. Tell the caller, and offer an earlier date or a quote request.",
    booked: "Booked: a call on {time} for {name} ({email}). Tell the caller a licensed agent will call them then.",
    storage_failed: "Not done: our system could not do it just now. Please try again in a moment.",
    booking_off: "Booking calls is not offered here; offer to take a quote request instead.",
    slot_value: "value",
};

const SPANISH: Words = Words {
    not_booked: "No se reservó.",
    unreadable: "No se hizo: {reason}. Llame de nuevo a la herramienta con sus argumentos.",
    slot: "slot: {value} no es una de las horas que dio available_times; llame a available_times y ofrezca sus horas a la persona.",
    slot_not_offered: "slot: esa hora no se puede reservar; llame a available_times y ofrezca sus horas a la persona.",
    name: "name: diga el nombre completo de la persona tal como lo da, su firma del alcance de la cita.",
    email: "email: {value} no es un correo electrónico válido; pida a la persona que lo deletree de nuevo, letra por letra.",
    phone: "phone: no es un número de teléfono válido de EE. UU. (diez dígitos, primero el código de área); pida que lo repita, o déjelo fuera.",
    products: "products: dé al menos uno de {values}, los que la persona aceptó tratar.",
    language: "language: {value} no es en ni es; dé el idioma en que leyó el alcance de la cita.",
    from: "from: {value} no es una fecha como 2026-03-09.",
    taken: "No se reservó: otra persona acaba de reservar esa hora. Horas aún libres: {times}. Ofrézcalas a la persona.",
    open: "Horas libres, en la hora del corredor ({zone}): {times}. Dígaselas a la persona; pase el valor de la elegida como slot a book_call.",
    none_open: "No hay horas libres para reservar. Dígaselo a la persona y ofrezca tomar una solicitud de cotización.",
    none_open_from: "No hay horas libres para reservar desde el {date}. Dígaselo a la persona y ofrezca una fecha anterior o una solicitud de cotización.",
    booked: "Reservada: una llamada el {time} para {name} ({email}). Diga a la persona que un agente con licencia la llamará entonces.",
    storage_failed: "No se hizo: nuestro sistema no pudo hacerlo ahora. Inténtelo de nuevo en un momento.",
    booking_off: "Aquí no se ofrece reservar llamadas; ofrezca tomar una solicitud de cotización.",
    slot_value: "valor",
};

pub fn words(language: Language) -> &'static Words {
    either(language, &ENGLISH, &SPANISH)
}

/// A wrong argument, its value quoted where the reply says it.
pub fn field(text: &str, value: &str) -> String {
    text.replace("{value}", &format!("{:?}", echo(value)))
}

/// Every wrong argument, after the words saying nothing was booked.
pub fn invalid(language: Language, problems: &[String]) -> String {
    single_line(&format!(
        "{} {}",
        words(language).not_booked,
        problems.join(" ")
    ))
}

pub fn unreadable(language: Language, reason: &str) -> String {
    single_line(&words(language).unreadable.replace("{reason}", reason))
}

pub fn products(language: Language) -> String {
    let values: Vec<&str> = PRODUCTS.iter().map(|(value, _)| *value).collect();
    words(language)
        .products
        .replace("{values}", &values.join(", "))
}

/// `times` as the assistant says them, each with the value `book_call` takes.
fn listed(hours: &Hours, times: &[Slot], language: Language) -> String {
    let value = words(language).slot_value;
    times
        .iter()
        .map(|slot| {
            format!(
                "{} ({value} {})",
                slot_label(&hours.time_zone, slot.start, language),
                slot.start
            )
        })
        .collect::<Vec<_>>()
        .join("; ")
}

pub fn open(hours: &Hours, times: &[Slot], language: Language, from: Option<&str>) -> String {
    let words = words(language);
    if times.is_empty() {
        return match from {
            Some(date) => words.none_open_from.replace("{date}", date),
            None => words.none_open.to_owned(),
        };
    }
    let zone = hours.time_zone.iana_name().unwrap_or("UTC");
    words
        .open
        .replace("{zone}", zone)
        .replace("{times}", &listed(hours, times, language))
}

pub fn taken(hours: &Hours, still_open: &[Slot], language: Language) -> String {
    let words = words(language);
    if still_open.is_empty() {
        return format!("{} {}", words.not_booked, words.none_open);
    }
    words
        .taken
        .replace("{times}", &listed(hours, still_open, language))
}

pub fn booked(
    hours: &Hours,
    start: Timestamp,
    name: &str,
    email: &str,
    language: Language,
) -> String {
    single_line(
        &words(language)
            .booked
            .replace("{time}", &slot_label(&hours.time_zone, start, language))
            .replace("{name}", name)
            .replace("{email}", email),
    )
}

#[cfg(test)]
mod tests {
    use super::super::{AVAILABLE_TIMES_TOOL, BOOK_CALL_TOOL};
    use super::*;

    #[test]
    fn every_reply_names_its_argument_in_both_languages() {
        for language in [Language::En, Language::Es] {
            let words = words(language);
            for (text, name) in [
                (words.slot, "slot:"),
                (words.slot_not_offered, "slot:"),
                (words.name, "name:"),
                (words.email, "email:"),
                (words.phone, "phone:"),
                (words.products, "products:"),
                (words.language, "language:"),
                (words.from, "from:"),
            ] {
                assert!(text.starts_with(name), "{text}");
            }
            assert!(words.open.contains(BOOK_CALL_TOOL));
            assert!(words.slot.contains(AVAILABLE_TIMES_TOOL));
            assert!(products(language).contains("medicare_advantage, part_d"));
        }
        assert_eq!(
            invalid(Language::Es, &[field(SPANISH.email, "ana@\nx")]),
            "No se reservó. email: \"ana@ x\" no es un correo electrónico válido; pida a la persona que lo deletree de nuevo, letra por letra."
        );
    }
}
