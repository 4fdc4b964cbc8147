//! The e-mail to a visitor asking for written consent to be called (the broker's "Ask for
//! written consent" in the inbox): in the lead's language, to the lead's address, with the link
//! to the consent page and the exact words the page asks them to agree to. It holds no more of
//! the lead than the visitor gave: the number's last four digits, so they know which one.

use std::time::SystemTime;

use html_escape::{encode_double_quoted_attribute, encode_text};
use lettre::message::{Mailbox, MultiPart};
use lettre::{Address, Message};
use time::OffsetDateTime;

use super::message::message_id;
use crate::settings::email::EmailSettings;
use crate::store::Language;

/// What the e-mail says, besides its words.
pub struct ConsentRequest<'a> {
    pub lead_id: &'a str,
    /// The lead's address, the only recipient.
    pub to: &'a str,
    pub language: Language,
    /// The number it covers, as stored (E.164); only its last four digits are written.
    pub phone: &'a str,
    /// The consent page's full address.
    pub link: &'a str,
    /// The words the page asks them to agree to.
    pub disclosure: &'a str,
    pub at: OffsetDateTime,
}

/// Why the e-mail did not go.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotSent {
    /// The relay refused it for good (a 5xx reply, a message that cannot be built): the relay's
    /// words.
    Refused(String),
    /// The relay could not be reached, or answered 4xx or too late: worth trying again later.
    Unreachable(String),
}

/// The number's last four digits.
pub fn last_four(phone: &str) -> String {
    let digits: Vec<char> = phone.chars().filter(char::is_ascii_digit).collect();
    digits[digits.len().saturating_sub(4)..].iter().collect()
}

pub(super) fn message(
    settings: &EmailSettings,
    request: &ConsentRequest,
) -> Result<Message, lettre::error::Error> {
    let to: Address = request
        .to
        .parse()
        .map_err(|_| lettre::error::Error::MissingTo)?;
    let words = Words::of(request.language);
    let (text, html) = body(request);
    Message::builder()
        .from(settings.from.clone())
        .to(Mailbox::new(None, to))
        .date(SystemTime::from(request.at))
        .subject(words.subject)
        .message_id(Some(message_id(
            settings,
            &format!(
                "{}.consent.{}",
                request.lead_id,
                request.at.unix_timestamp()
            ),
        )))
        .multipart(MultiPart::alternative_plain_html(text, html))
}

/// The plain-text and HTML parts: why, the exact text, the link, and that ignoring it is fine.
fn body(request: &ConsentRequest) -> (String, String) {
    let words = Words::of(request.language);
    let ending = last_four(request.phone);
    let ask = words.ask.replace("{last4}", &ending);
    let text = format!(
        "{}\n\n{ask}\n\n{}\n\n\"{}\"\n\n{}\n{}\n\n{}\n",
        words.heading,
        words.text_intro,
        request.disclosure,
        words.open,
        request.link,
        words.otherwise
    );
    let html = format!(
        "<!doctype html><html lang=\"{}\"><body><h1>{}</h1><p>{}</p><p>{}</p><blockquote>{}</blockquote>\
         <p><a href=\"{}\">{}</a></p><p>{}</p></body></html>",
        request.language.as_str(),
        encode_text(words.heading),
        encode_text(&ask),
        encode_text(words.text_intro),
        encode_text(request.disclosure),
        encode_double_quoted_attribute(request.link),
        encode_text(words.button),
        encode_text(words.otherwise)
    );
    (text, html)
}

struct Words {
    subject: &'static str,
    heading: &'static str,
    /// With `{last4}` where the number's last digits go.
    ask: &'static str,
    text_intro: &'static str,
    open: &'static str,
    button: &'static str,
    otherwise: &'static str,
}

impl Words {
    fn of(language: Language) -> Words {
        match language {
            Language::En => Words {
                subject: "May we call you about your quote? Your permission in writing",
                heading: "May we call you about your quote?",
                ask: "Thank you for your quote request. To call or text you at your number ending in {last4}, we need your permission in writing.",
                text_intro: "If you agree, open the page below, read the text and tick the box. The text is:",
                open: "Give your permission (the link works for 30 days):",
                button: "Give your permission to be called",
                otherwise: "If you do not want to be called or texted, ignore this e-mail: nothing changes, and we will reply by e-mail only.",
            },
            Language::Es => Words {
                subject: "¿Podemos llamarle sobre su cotización? Su permiso por escrito",
                heading: "¿Podemos llamarle sobre su cotización?",
                ask: "Gracias por su solicitud de cotización. Para llamarle o enviarle mensajes a su número terminado en {last4}, necesitamos su permiso por escrito.",
                text_intro: "Si está de acuerdo, abra la página de abajo, lea el texto y marque la casilla. El texto es:",
                open: "Dé su permiso (el enlace funciona durante 30 días):",
                button: "Dar su permiso para que le llamen",
                otherwise: "Si no quiere que le llamen ni le envíen mensajes, ignore este correo: nada cambia y le responderemos solo por correo electrónico.",
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::forward::email::message::tests::settings;

    #[test]
    fn the_visitor_gets_the_link_and_the_exact_text_in_their_language() {
        let request = ConsentRequest {
            lead_id: "lead-1",
            to: "ana@example.com",
            language: Language::Es,
            phone: "+15555550123",
            link: "https://quotes.example/es/consent/t?a=1&b=2",
            disclosure: "Acepto <que> me llamen.",
            at: OffsetDateTime::UNIX_EPOCH,
        };
        let raw = String::from_utf8(message(&settings(), &request).unwrap().formatted()).unwrap();
        let head = raw.split("\r\n\r\n").next().unwrap();
        assert!(head.contains("\r\nTo: ana@example.com\r\n"), "{head}");
        assert!(head.contains("Message-ID: <lead-1.consent.0@broker.example>"));
        assert!(
            !raw.contains("broker@example.com"),
            "only the visitor: {raw}"
        );
        let (text, html) = body(&request);
        assert!(text.starts_with("¿Podemos llamarle"), "{text}");
        assert!(text.contains("terminado en 0123"), "{text}");
        assert!(!text.contains("555555"), "the number stays masked: {text}");
        assert!(text.contains("\"Acepto <que> me llamen.\""));
        assert!(text.contains("\nhttps://quotes.example/es/consent/t?a=1&b=2\n"));
        assert!(html.contains("<blockquote>Acepto &lt;que&gt; me llamen.</blockquote>"));
        assert!(html.contains("href=\"https://quotes.example/es/consent/t?a=1&amp;b=2\""));
    }

    #[test]
    fn only_the_last_four_digits_are_shown() {
        assert_eq!(last_four("+15555550123"), "0123");
        assert_eq!(last_four("12"), "12");
    }
}
