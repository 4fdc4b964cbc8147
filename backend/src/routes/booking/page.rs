//! The booking page's settings and words, from the build (`booking` in each language's
//! `.site/site.json`, `null` when booking is off), and its HTML: written here, every value
//! escaped, a plain form that needs no JavaScript. The open times are the server's
//! (`wasm_core::booking`), labelled on the broker's wall clock with the zone named; with
//! JavaScript the page's one script (`/book/local-times.js`) relabels them on the visitor's clock.

use std::io;
use std::path::Path;

use serde::Deserialize;
use wasm_core::booking::{time_zone, BookingSettings, Hours, Slot};
use wasm_core::FieldRule;

use crate::http::page_reply::either;
use crate::leads::booking_ref;
use crate::leads::booking_words::slot_label;
use crate::leads::notice::LeadNotices;
use crate::routes::quote_result::escaped;
use crate::settings::site::{read_build_facts, BUILD_FACTS};
use crate::store::Language;

/// The product types a Scope of Appointment may name, as the form's `soa` values and the
/// record's `products` name them, with the content's key for each one's label.
pub const PRODUCTS: [(&str, &str); 4] = [
    ("medicare_advantage", "medicareAdvantage"),
    ("part_d", "partD"),
    ("medicare_supplement", "medicareSupplement"),
    ("dental_vision_hearing", "dentalVisionHearing"),
];

/// The page's words in one language, as the build writes them (other keys ignored).
#[derive(Clone, Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Texts {
    pub title: String,
    pub intro: String,
    pub slot_label: String,
    /// With `{zone}`.
    pub shown_in_zone: String,
    /// With `{zone}`: the visitor's, once the page's script has relabelled the times.
    pub shown_in_your_zone: String,
    pub no_times: String,
    pub name_label: String,
    pub email_label: String,
    pub soa_heading: String,
    pub soa_products: std::collections::BTreeMap<String, String>,
    /// The exact text each booking's record keeps, the broker named.
    pub soa_statement: String,
    pub submit: String,
    pub success: Success,
    pub errors: Errors,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Success {
    pub title: String,
    pub description: String,
}

#[derive(Clone, Debug, Deserialize)]
pub struct Errors {
    pub slot: String,
    pub name: String,
    pub email: String,
    pub soa: String,
    pub taken: String,
}

#[derive(Deserialize)]
struct Facts {
    #[serde(default)]
    booking: Option<serde_json::Value>,
}

/// Booking as the build turned it on: the hours and each language's words.
#[derive(Clone)]
pub struct BookingSite {
    pub hours: Hours,
    english: Texts,
    spanish: Texts,
}

impl BookingSite {
    /// `None` when the build has no `booking` (off, or no built front end).
    pub fn load(static_dir: &Path) -> io::Result<Option<BookingSite>> {
        let english_file = static_dir.join(BUILD_FACTS);
        let Some(english) = read(&english_file)? else {
            return Ok(None);
        };
        let wrong = |what: String| {
            io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{}: booking {what} (rebuild the front end)",
                    english_file.display()
                ),
            )
        };
        let settings: BookingSettings =
            serde_json::from_value(english.clone()).map_err(|e| wrong(e.to_string()))?;
        let zone = time_zone::by_name(&settings.time_zone).map_err(|e| wrong(e.to_string()))?;
        let hours = Hours::new(&settings, zone).map_err(|e| wrong(e.to_string()))?;
        let texts = |value: serde_json::Value| -> io::Result<Texts> {
            serde_json::from_value(value).map_err(|e| wrong(e.to_string()))
        };
        let spanish = read(&static_dir.join(".site/es/site.json"))?.unwrap_or(english.clone());
        Ok(Some(BookingSite {
            hours,
            english: texts(english)?,
            spanish: texts(spanish)?,
        }))
    }

    pub fn texts(&self, language: Language) -> &Texts {
        either(language, &self.english, &self.spanish)
    }
}

fn read(file: &Path) -> io::Result<Option<serde_json::Value>> {
    let facts = read_build_facts::<Facts>(file)?;
    Ok(facts
        .and_then(|facts| facts.booking)
        .filter(|booking| !booking.is_null()))
}

/// What the visitor typed, shown again.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Typed {
    pub slot: String,
    pub name: String,
    pub email: String,
    pub phone: String,
    pub may_call: bool,
    pub soa: Vec<String>,
    /// The quote's reference the page was opened with (`leads::booking_ref`), sent back in a
    /// hidden field.
    pub lead: String,
}

/// The message under each field that has one; `alert` above the form.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Problems {
    pub alert: Option<String>,
    pub slot: Option<String>,
    pub name: Option<String>,
    pub email: Option<String>,
    pub phone: Option<String>,
    pub soa: Option<String>,
}

impl Problems {
    /// Only `alert`, above the form.
    pub fn alert(alert: &str) -> Problems {
        Problems {
            alert: Some(alert.to_owned()),
            ..Problems::default()
        }
    }

    pub fn any(&self) -> bool {
        [&self.slot, &self.name, &self.email, &self.phone, &self.soa]
            .iter()
            .any(|p| p.is_some())
    }
}

/// The words the content does not give, in `language`: the phone field's (as the opt-out page
/// says them), and a failure's.
pub fn plain(language: Language) -> Plain {
    match language {
        Language::En => Plain {
            phone: "Phone number",
            phone_error: "Please enter a valid US phone number.",
            failed: "We could not take your booking just now. Please try again in a few minutes.",
            another_site: "This booking was sent from another website, so it was not taken. Send the form below to book.",
        },
        Language::Es => Plain {
            phone: "Número de teléfono",
            phone_error: "Escriba un número de teléfono válido de EE. UU.",
            failed: "No pudimos recibir su cita en este momento. Inténtelo de nuevo en unos minutos.",
            another_site: "Esta cita se envió desde otro sitio web, así que no se aceptó. Envíe el formulario de abajo para reservar.",
        },
    }
}

pub struct Plain {
    pub phone: &'static str,
    pub phone_error: &'static str,
    pub failed: &'static str,
    pub another_site: &'static str,
}

/// The form page: `times` to choose from, what was typed, the problems.
pub fn form(
    site: &BookingSite,
    notices: &LeadNotices,
    language: Language,
    times: &[Slot],
    typed: &Typed,
    problems: &Problems,
) -> String {
    let texts = site.texts(language);
    let plain = plain(language);
    let under = |problem: &Option<String>, id: &str| match problem {
        Some(message) => format!(
            "<p class=\"field-error\" id=\"{id}-error\" role=\"alert\">{}</p>",
            escaped(message)
        ),
        None => String::new(),
    };
    let mut html = String::new();
    if let Some(alert) = &problems.alert {
        html.push_str(&format!("<p role=\"alert\">{}</p>", escaped(alert)));
    }
    html.push_str(&format!("<p>{}</p>", escaped(&texts.intro)));
    html.push_str(&format!(
        "<form method=\"post\" action=\"{}\"><fieldset><legend>{}</legend>\
         <p id=\"booking-zone\" data-your-zone=\"{}\">{}</p>",
        super::form_path(language),
        escaped(&texts.slot_label),
        escaped(&texts.shown_in_your_zone),
        escaped(
            &texts
                .shown_in_zone
                .replace("{zone}", site.hours.time_zone.iana_name().unwrap_or("UTC"))
        ),
    ));
    if times.is_empty() {
        html.push_str(&format!("<p>{}</p>", escaped(&texts.no_times)));
    }
    for slot in times {
        let value = slot.start.to_string();
        let checked = if value == typed.slot { " checked" } else { "" };
        html.push_str(&format!(
            "<p><label><input type=\"radio\" name=\"slot\" value=\"{0}\" required{checked}> <span data-at=\"{0}\">{1}</span></label></p>",
            escaped(&value),
            escaped(&slot_label(&site.hours.time_zone, slot.start, language)),
        ));
    }
    html.push_str(&under(&problems.slot, "slot"));
    html.push_str("</fieldset>");
    html.push_str(&format!(
        "<p><label for=\"name\">{}</label> <input id=\"name\" name=\"name\" autocomplete=\"name\" required maxlength=\"200\" value=\"{}\"></p>{}",
        escaped(&texts.name_label),
        escaped(&typed.name),
        under(&problems.name, "name"),
    ));
    html.push_str(&format!(
        "<p><label for=\"email\">{}</label> <input id=\"email\" type=\"email\" name=\"email\" autocomplete=\"email\" required value=\"{}\"></p>{}",
        escaped(&texts.email_label),
        escaped(&typed.email),
        under(&problems.email, "email"),
    ));
    let rules = notices.rules(language);
    if rules.phone != FieldRule::Off {
        let required = if rules.phone == FieldRule::Required {
            " required"
        } else {
            ""
        };
        html.push_str(&format!(
            "<p><label for=\"phone\">{}</label> <input id=\"phone\" type=\"tel\" name=\"phone\" autocomplete=\"tel\"{required} value=\"{}\"></p>{}",
            plain.phone,
            escaped(&typed.phone),
            under(&problems.phone, "phone"),
        ));
        if let Some(consent) = notices.phone_consent(language, false) {
            let checked = if typed.may_call { " checked" } else { "" };
            html.push_str(&format!(
                "<p><label><input type=\"checkbox\" name=\"may_call\" value=\"yes\"{checked}> {}</label></p>",
                escaped(&consent.disclosure)
            ));
        }
    }
    html.push_str(&format!(
        "<fieldset><legend>{}</legend>",
        escaped(&texts.soa_heading)
    ));
    for (value, key) in PRODUCTS {
        let label = texts.soa_products.get(key).map_or(value, String::as_str);
        let checked = if typed.soa.iter().any(|p| p == value) {
            " checked"
        } else {
            ""
        };
        html.push_str(&format!(
            "<p><label><input type=\"checkbox\" name=\"soa\" value=\"{value}\"{checked}> {}</label></p>",
            escaped(label)
        ));
    }
    html.push_str(&under(&problems.soa, "soa"));
    html.push_str(&format!(
        "<p class=\"soa-statement\">{}</p></fieldset>",
        escaped(&texts.soa_statement)
    ));
    if let Some(notice) = notices.text(language) {
        html.push_str(&format!("<p class=\"lead-notice\">{}</p>", escaped(notice)));
    }
    if !typed.lead.is_empty() {
        html.push_str(&format!(
            "<input type=\"hidden\" name=\"{}\" value=\"{}\">",
            booking_ref::FIELD,
            escaped(&typed.lead)
        ));
    }
    html.push_str(&format!(
        "<p><button type=\"submit\">{}</button></p></form>",
        escaped(&texts.submit)
    ));
    document(language, &texts.title, &html, SCRIPT)
}

/// The confirmation page.
pub fn done(site: &BookingSite, language: Language) -> String {
    let success = &site.texts(language).success;
    document(
        language,
        &success.title,
        &format!("<p>{}</p>", escaped(&success.description)),
        "",
    )
}

/// The tag that loads the form page's script, which `routes` serves.
const SCRIPT: &str = "<script src=\"/book/local-times.js\" defer></script>";
/// The script: the times on the visitor's clock.
pub const LOCAL_TIMES_JS: &str = include_str!("local-times.js");

/// The page around `body`, with the site's icon (booking is on only with a built front end,
/// which has it) and `head`'s tags.
pub fn document(language: Language, title: &str, body: &str, head: &str) -> String {
    let title = escaped(title);
    format!(
        "<!doctype html><html lang=\"{}\"><head><meta charset=\"utf-8\">\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\
         <meta name=\"robots\" content=\"noindex\">\
         <link rel=\"icon\" href=\"/favicon.svg\" type=\"image/svg+xml\">\
         <title>{title}</title>{head}</head><body><main><h1>{title}</h1>{body}</main></body></html>",
        language.as_str()
    )
}
