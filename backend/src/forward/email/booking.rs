//! A booking's e-mails (docs/product.md §13, queued in `store::booking_mails`): to the broker
//! (`LEAD_EMAIL_TO`), in English, the invitation (`METHOD:REQUEST`) and the cancellation
//! (`METHOD:CANCEL`) as `.ics` attachments a calendar app adds or removes; to the visitor, in
//! the language of the page they booked on and in the content's words, the confirmation with the
//! invitation and the link to cancel or move the call, and the reminder the day before.

use std::time::SystemTime;

use html_escape::{encode_double_quoted_attribute, encode_text};
use jiff::Timestamp;
use lettre::message::header::ContentType;
use lettre::message::{Attachment, Mailbox, MultiPart, SinglePart};
use lettre::{Address, Message};
use time::OffsetDateTime;

use super::message::message_id;
use super::Mailer;
use crate::forward::worker::Failure;
use crate::leads::booking_words::BookingWords;
use crate::leads::calendar::{self, Call, Method};
use crate::settings::email::EmailSettings;
use crate::store::booking_mails::{DueMail, MailKind};
use crate::store::Language;

/// One of a booking's e-mails as it is to be written.
pub struct BookingMail<'a> {
    pub due: &'a DueMail,
    /// The content's words (booking on in the build); without them the visitor's e-mails are
    /// not written.
    pub words: Option<&'a BookingWords>,
    /// The visitor's link to cancel or move the call (the confirmation's).
    pub link: Option<&'a str>,
    pub now: OffsetDateTime,
}

impl Mailer {
    pub async fn send_booking_mail(&self, mail: &BookingMail<'_>) -> Result<(), Failure> {
        self.send(message(&self.settings, mail)).await.map(drop)
    }
}

fn message(settings: &EmailSettings, mail: &BookingMail) -> Result<Message, lettre::error::Error> {
    let due = mail.due;
    let booking = &due.booking;
    let name = booking
        .soa
        .as_ref()
        .map_or("the visitor", |soa| soa.signature.as_str());
    let visitor = due.visitor.as_ref();
    let start: Timestamp = booking
        .starts_at
        .parse()
        .map_err(|_| lettre::error::Error::MissingTo)?;
    let from = settings.from.email.to_string();
    let mut builder = Message::builder()
        .from(settings.from.clone())
        .date(SystemTime::from(mail.now))
        .message_id(Some(message_id(
            settings,
            &format!("{}.{}", booking.id, due.kind.as_str()),
        )));
    match due.kind {
        MailKind::Request | MailKind::Cancel => {
            for to in &settings.to {
                builder = builder.to(to.clone());
            }
            let when = match mail.words {
                Some(words) => words.when(start, Language::En),
                None => format!("{start} (UTC)"),
            };
            let summary = format!("Call with {name}");
            let broker = settings.to.first().map(|to| to.email.to_string());
            let call = Call {
                booking,
                name,
                phone: visitor.and_then(|v| v.phone.as_deref()),
                email: visitor.map(|v| v.email.as_str()),
                summary: &summary,
                organizer: Some(&from),
                attendee: broker.as_deref(),
            };
            let (method, subject, said) = match due.kind {
                MailKind::Request => (
                    Method::Request,
                    format!("Booked call: {name}, {when}"),
                    format!("{name} booked a call for {when}. The invitation is attached."),
                ),
                _ => (
                    Method::Cancel,
                    format!("Cancelled call: {name}, {when}"),
                    format!("The call with {name} on {when} is cancelled. The attached cancellation removes it from your calendar."),
                ),
            };
            let text = format!("{said}\n\n{}\n", calendar::description(&call));
            let ics = calendar::invitation(method, &call, mail.now);
            builder.subject(subject).multipart(
                MultiPart::mixed()
                    .singlepart(SinglePart::plain(text))
                    .singlepart(attachment(ics, method)),
            )
        }
        MailKind::Confirmation | MailKind::Reminder => {
            let words = mail.words.ok_or(lettre::error::Error::MissingTo)?;
            let visitor = visitor.ok_or(lettre::error::Error::MissingTo)?;
            let to: Address = visitor
                .email
                .parse()
                .map_err(|_| lettre::error::Error::MissingTo)?;
            let language = visitor.language;
            let texts = words.emails(language);
            let when = words.when(start, language);
            builder = builder.to(Mailbox::new(None, to));
            if due.kind == MailKind::Reminder {
                let said = texts.reminder.replace("{when}", &when);
                return builder
                    .subject(texts.reminder_subject.replace("{when}", &when))
                    .multipart(MultiPart::alternative_plain_html(
                        format!("{said}\n"),
                        page(language, &format!("<p>{}</p>", encode_text(&said))),
                    ));
            }
            let said = texts.booked.replace("{when}", &when);
            let (mut text, mut html) = (
                format!("{said}\n"),
                format!("<p>{}</p>", encode_text(&said)),
            );
            if let Some(link) = mail.link {
                text.push_str(&format!("\n{}\n{link}\n", texts.manage));
                html.push_str(&format!(
                    "<p>{}<br><a href=\"{}\">{}</a></p>",
                    encode_text(&texts.manage),
                    encode_double_quoted_attribute(link),
                    encode_text(link)
                ));
            }
            let visitor_address = visitor.email.clone();
            let call = Call {
                booking,
                name,
                phone: visitor.phone.as_deref(),
                email: None,
                summary: &texts.summary,
                organizer: Some(&from),
                attendee: Some(&visitor_address),
            };
            let ics = calendar::invitation(Method::Request, &call, mail.now);
            let body = MultiPart::alternative_plain_html(text, page(language, &html));
            builder
                .subject(texts.subject.replace("{when}", &when))
                .multipart(
                    MultiPart::mixed()
                        .multipart(body)
                        .singlepart(attachment(ics, Method::Request)),
                )
        }
    }
}

/// The `.ics` file, typed with its method as calendar apps look for it.
fn attachment(ics: String, method: Method) -> SinglePart {
    let (method, file) = match method {
        Method::Request => ("REQUEST", "invite.ics"),
        Method::Cancel => ("CANCEL", "cancel.ics"),
    };
    let content_type =
        ContentType::parse(&format!("text/calendar; charset=utf-8; method={method}"))
            .unwrap_or(ContentType::TEXT_PLAIN);
    Attachment::new(file.to_owned()).body(ics, content_type)
}

fn page(language: Language, body: &str) -> String {
    format!(
        "<!doctype html><html lang=\"{}\"><body>{body}</body></html>",
        language.as_str()
    )
}
