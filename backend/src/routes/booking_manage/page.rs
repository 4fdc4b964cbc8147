//! The page the booking's link opens, in the content's words (`booking.manage`): every value
//! escaped, plain forms that need no JavaScript.

use jiff::Timestamp;
use wasm_core::booking::Slot;

use super::BookingManage;
use crate::leads::booking_words::slot_label;
use crate::routes::booking::document;
use crate::routes::quote_result::escaped;
use crate::store::Language;

pub use crate::routes::booking::plain;

/// The call, its buttons and the times it may move to.
pub struct Form {
    pub start: Timestamp,
    pub times: Vec<Slot>,
    pub alert: Option<String>,
    /// Seconds, when the post was over the rate limit.
    pub retry_after: Option<u64>,
}

/// What the page says.
pub enum Shown {
    Form(Box<Form>),
    Cancelled,
    Moved(Timestamp),
    Gone,
    Unknown,
    Failed,
}

impl Shown {
    pub fn retry_after(&self) -> Option<u64> {
        match self {
            Shown::Form(form) => form.retry_after,
            _ => None,
        }
    }
}

pub fn render(manage: &BookingManage, shown: &Shown, action: &str, language: Language) -> String {
    let words = manage.words.manage(language);
    let when = |start: Timestamp| manage.words.when(start, language);
    let said = |text: &str| format!("<p role=\"status\">{}</p>", escaped(text));
    let body = match shown {
        Shown::Cancelled => said(&words.cancelled),
        Shown::Moved(start) => said(&words.moved.replace("{when}", &when(*start))),
        Shown::Gone => said(&words.gone),
        Shown::Unknown => said(&words.unknown),
        Shown::Failed => format!("<p role=\"alert\">{}</p>", escaped(plain(language).failed)),
        Shown::Form(form) => {
            let mut html = String::new();
            if let Some(alert) = &form.alert {
                html.push_str(&format!("<p role=\"alert\">{}</p>", escaped(alert)));
            }
            html.push_str(&format!(
                "<p>{}</p><form method=\"post\" action=\"{}\"><p><button type=\"submit\" name=\"action\" value=\"cancel\">{}</button></p></form>",
                escaped(&words.booked.replace("{when}", &when(form.start))),
                escaped(action),
                escaped(&words.cancel),
            ));
            if !form.times.is_empty() {
                html.push_str(&format!(
                    "<form method=\"post\" action=\"{}\"><fieldset><legend>{}</legend>",
                    escaped(action),
                    escaped(&words.move_label),
                ));
                for slot in &form.times {
                    html.push_str(&format!(
                        "<p><label><input type=\"radio\" name=\"slot\" value=\"{}\" required> {}</label></p>",
                        escaped(&slot.start.to_string()),
                        escaped(&slot_label(&manage.site.hours.time_zone, slot.start, language)),
                    ));
                }
                html.push_str(&format!(
                    "</fieldset><p><button type=\"submit\" name=\"action\" value=\"move\">{}</button></p></form>",
                    escaped(&words.move_button),
                ));
            }
            html
        }
    };
    document(language, &words.title, &body, "")
}
