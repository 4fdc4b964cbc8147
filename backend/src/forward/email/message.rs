//! The e-mails the broker receives: one per lead, one after the call a voice lead came from,
//! threaded under the lead's, and the hourly digest of the leads beyond the e-mail budget. Headers hold only what we make (the product's label, the source,
//! ids) and the lead's address as a checked `Reply-To`; everything a visitor or the voice
//! provider sends goes in the body, escaped in the HTML part, so none of it can add a header.

use std::time::SystemTime;

use html_escape::{encode_double_quoted_attribute, encode_text};
use lettre::message::{Mailbox, MessageBuilder, MultiPart};
use lettre::{Address, Message};

use crate::leads::ended_reason;
use crate::settings::email::EmailSettings;
use crate::settings::site::SiteSettings;
use crate::store::consent::ConsentChannel;
use crate::store::do_not_contact::OptOut;
use crate::store::spam_report::SpamReport;
use crate::store::{CallConsent, CallReport, HeldLeads, LeadStatus, Source, StoredQuote};

/// `<local@sender's domain>`: the same lead (or hour) always gets the same id, so a resend is
/// recognisably the same message.
pub(super) fn message_id(settings: &EmailSettings, local: &str) -> String {
    format!("<{local}@{}>", settings.from.email.domain())
}

fn subject(quote: &StoredQuote) -> String {
    format!(
        "New quote request: {} ({})",
        quote.product.label(),
        quote.source.as_str()
    )
}

/// `spam`: the day's word on posts held as spam and the consent chain's head, carried by one
/// lead e-mail a day; `opt_outs`: the visitors' own opt-outs not yet told.
pub(super) fn lead(
    settings: &EmailSettings,
    site: &SiteSettings,
    quote: &StoredQuote,
    spam: Option<&SpamReport>,
    opt_outs: &[OptOut],
) -> Result<Message, lettre::error::Error> {
    let (text, html) = with_opt_outs(site, lead_body(site, quote, spam), opt_outs);
    headers(settings, quote)
        .subject(subject(quote))
        .message_id(Some(message_id(settings, &quote.id)))
        .multipart(MultiPart::alternative_plain_html(text, html))
}

/// After the call: how it ended, its summary, transcript and recording link.
pub(super) fn follow_up(
    settings: &EmailSettings,
    site: &SiteSettings,
    quote: &StoredQuote,
    call: &CallReport,
) -> Result<Message, lettre::error::Error> {
    let (text, html) = follow_up_body(site, quote, call);
    let lead_id = message_id(settings, &quote.id);
    headers(settings, quote)
        .subject(format!("Re: {}", subject(quote)))
        .message_id(Some(message_id(settings, &format!("{}.call", quote.id))))
        .in_reply_to(lead_id.clone())
        .references(lead_id)
        .multipart(MultiPart::alternative_plain_html(text, html))
}

/// The digest of the leads held before `hour` began, beyond the site's e-mail budget.
pub(super) fn digest(
    settings: &EmailSettings,
    site: &SiteSettings,
    held: &HeldLeads,
    hour: time::OffsetDateTime,
    opt_outs: &[OptOut],
) -> Result<Message, lettre::error::Error> {
    let body = digest_body(site, held, settings.max_per_hour);
    let (text, html) = with_opt_outs(site, body, opt_outs);
    let stamp = hour.unix_timestamp();
    addressed(settings, hour)
        .subject(format!(
            "E-mail budget reached: {} more {} in the inbox",
            held.total,
            if held.total == 1 { "lead" } else { "leads" }
        ))
        .message_id(Some(message_id(settings, &format!("digest.{stamp}"))))
        .multipart(MultiPart::alternative_plain_html(text, html))
}

/// An e-mail's two parts with the visitors' own opt-outs (`/opt-out`) not yet told listed at
/// their end, each with when it was asked: the broker removes them from any list kept elsewhere.
fn with_opt_outs(
    site: &SiteSettings,
    (mut text, html): (String, String),
    opt_outs: &[OptOut],
) -> (String, String) {
    if opt_outs.is_empty() {
        return (text, html);
    }
    let heading = "Asked not to be contacted";
    let why = "These people put themselves on the do-not-contact list on the site's opt-out page: \
               their leads, earlier and later, read as do not contact. Take them off any list kept \
               elsewhere (a CRM, a dialer).";
    let lines: Vec<String> = opt_outs
        .iter()
        .map(|opt_out| {
            let kind = if opt_out.kind == "phone" {
                "Phone"
            } else {
                "E-mail"
            };
            let at = site.local_time(opt_out.requested_at);
            format!("{kind} {}, asked {at}", one_line(&opt_out.value))
        })
        .collect();
    text.push_str(&format!("\n{heading}\n\n{why}\n\n{}\n", lines.join("\n")));
    let items: String = lines
        .iter()
        .map(|line| format!("<li>{}</li>", encode_text(line)))
        .collect();
    let note = format!(
        "<h2>{heading}</h2><p>{}</p><ul>{items}</ul>",
        encode_text(why)
    );
    let html = match html.strip_suffix("</body></html>") {
        Some(body) => format!("{body}{note}</body></html>"),
        None => format!("{html}{note}"),
    };
    (text, html)
}

/// The plain-text and HTML parts of the digest: why it came, then a line per lead.
fn digest_body(site: &SiteSettings, held: &HeldLeads, max_per_hour: u32) -> (String, String) {
    let heading = "The e-mail budget was reached";
    let why = format!(
        "The site sent its {max_per_hour} lead e-mails of the hour (LEAD_EMAIL_MAX_PER_HOUR), so \
         these {} leads came without an e-mail each. Every one is stored and listed in the inbox.",
        held.total
    );
    let line = |quote: &StoredQuote| {
        format!(
            "{} | {} | {} | {}",
            site.local_time(quote.created_at),
            quote.product.label(),
            quote.source.as_str(),
            one_line(&quote.email)
        )
    };
    let lines: Vec<String> = held.listed.iter().map(line).collect();
    let unlisted = held.total.saturating_sub(held.listed.len() as u64);
    let more = (unlisted > 0).then(|| format!("and {unlisted} more in the inbox"));
    let text = format!(
        "{heading}\n\n{why}\n\n{}\n{}",
        lines.join("\n"),
        more.as_ref().map(|m| format!("{m}\n")).unwrap_or_default()
    );
    let items: String = lines
        .iter()
        .chain(more.as_ref())
        .map(|line| format!("<li>{}</li>", encode_text(line)))
        .collect();
    let html = format!(
        "<!doctype html><html><body><h1>{heading}</h1><p>{}</p><ul>{items}</ul></body></html>",
        encode_text(&why)
    );
    (text, html)
}

/// The plain-text and HTML parts of a lead's e-mail: who and what first, then the link to the
/// lead in the inbox, and last the details only a support question needs.
fn lead_body(
    site: &SiteSettings,
    quote: &StoredQuote,
    spam: Option<&SpamReport>,
) -> (String, String) {
    let mut fields = vec![
        ("Product", quote.product.label().to_owned()),
        ("E-mail", quote.email.clone()),
    ];
    if quote.status == LeadStatus::DoNotContact {
        fields.push((
            "Do not contact",
            "on your do-not-contact list: do not call, text or e-mail".to_owned(),
        ));
    }
    if let Some(phone) = &quote.contact.phone {
        let consent = match quote.call_consent {
            Some(CallConsent::Written) => match quote.written_later.map(|later| later.channel) {
                Some(ConsentChannel::Chat) => {
                    "may call or text: written consent given (clicked Yes in the chat)"
                }
                Some(ConsentChannel::Voice) => {
                    "may call or text: written consent given (agreed in the recorded call)"
                }
                _ => "may call or text: written consent given",
            },
            Some(CallConsent::Oral) => {
                "oral consent only: may call by hand, no automated calls or texts"
            }
            None => "e-mail only: no consent to call",
        };
        fields.push(("Phone", format!("{phone} ({consent})")));
    }
    if let Some(zip) = &quote.contact.zip {
        let state = quote
            .contact
            .state
            .as_deref()
            .and_then(wasm_core::State::parse);
        let place = state.map_or("state unknown", |state| state.name());
        let licence = match quote.licensed {
            Some(true) => " (licensed there)".to_owned(),
            Some(false) => format!(" (NOT licensed in {place})"),
            None => String::new(),
        };
        fields.push(("ZIP code", format!("{zip}, {place}{licence}")));
    }
    fields.extend([
        ("Received", site.local_time(quote.created_at)),
        ("Source", quote.source.as_str().to_owned()),
        ("Language", quote.language.label().to_owned()),
    ]);
    let mut details = Vec::new();
    if let Some(call_id) = &quote.call_id {
        details.push(("Call id", call_id.clone()));
    }
    if let (Source::Web, Some(agent)) = (quote.source, &quote.user_agent) {
        details.push(("Browser", agent.clone()));
    }
    if let Some(consent) = &quote.consent {
        let shown = match (&consent.text, &consent.sha256) {
            (Some(text), Some(sha256)) => format!("\"{text}\" (SHA-256 {sha256})"),
            _ => "none".to_owned(),
        };
        details.push(("Notice shown", shown));
    }
    details.push(("Lead id", quote.id.clone()));
    let heading = "New quote request";
    let closing = format!("Reply to this message to write to {}.", quote.email);
    let (link_text, link_html) = inbox_link(site, &quote.id);
    let (ask_text, ask_html) = consent_offer(site, quote);
    let (spam_text, spam_html) = spam.map_or_else(Default::default, |spam| daily_note(site, spam));
    let text = format!(
        "{heading}\n\n{}\n{link_text}{ask_text}\n{closing}\n{spam_text}\nDetails\n\n{}\n",
        text_fields(&fields),
        text_fields(&details)
    );
    let html = format!(
        "<!doctype html><html><body><h1>{heading}</h1>{}{link_html}{ask_html}<p>{}</p>{spam_html}<h2>Details</h2>{}</body></html>",
        html_fields(&fields),
        encode_text(&closing),
        html_fields(&details)
    );
    (text, html)
}

/// The day's word, as text and HTML: how many posts were held as spam and where they are (when
/// any were), and the consent chain's head.
fn daily_note(site: &SiteSettings, report: &SpamReport) -> (String, String) {
    let (mut text, mut html) = match report.held {
        0 => Default::default(),
        _ => spam_note(site, report),
    };
    if let Some(head) = &report.consent_head {
        let said = format!(
            "Consent records: the chain's head is record {}, SHA-256 {}. Keep this e-mail: `backend records verify --head {}` checks the database still holds that record.",
            head.seq, head.sha256, head.sha256
        );
        text.push_str(&format!("\n{said}\n"));
        html.push_str(&format!("<p>{}</p>", encode_text(&said)));
    }
    (text, html)
}

/// The day's word on spam, as text and HTML: how many posts were held, and where they are.
fn spam_note(site: &SiteSettings, spam: &SpamReport) -> (String, String) {
    let posts = match spam.held {
        1 => "1 post was".to_owned(),
        n => format!("{n} posts were"),
    };
    let said = format!(
        "Since {}, {posts} held as spam (not in the list of leads, never forwarded); a person blocking the form's cookie can be among them.",
        site.local_time(spam.since)
    );
    match site.inbox() {
        Some(mut inbox) => {
            inbox.set_fragment(Some("spam"));
            (
                format!("\n{said} See them: {inbox}\n"),
                linked(&format!("{said} "), inbox.as_str(), "See them in the inbox"),
            )
        }
        None => (
            format!("\n{said}\n"),
            format!("<p>{}</p>", encode_text(&said)),
        ),
    }
}

/// The lead's page in the inbox, as a line of text and an HTML paragraph (both empty without
/// `SITE_URL`).
fn inbox_link(site: &SiteSettings, lead_id: &str) -> (String, String) {
    match site.lead_page(lead_id) {
        Some(url) => (
            format!("\nOpen it in the inbox: {url}\n"),
            linked("", &url, "Open it in the inbox"),
        ),
        None => (String::new(), String::new()),
    }
}

/// For a lead with a number and no written consent to call it (neither spam nor do not
/// contact), the offer to ask for it in writing: the inbox's "Ask for written consent" on the
/// lead's page, which an e-mail cannot do itself (it needs the broker signed in). Empty
/// otherwise, and without `SITE_URL`.
fn consent_offer(site: &SiteSettings, quote: &StoredQuote) -> (String, String) {
    let askable = quote.contact.phone.is_some()
        && quote.call_consent != Some(CallConsent::Written)
        && !matches!(quote.status, LeadStatus::Spam | LeadStatus::DoNotContact);
    match site.lead_page(&quote.id).filter(|_| askable) {
        Some(url) => {
            let said = format!(
                "No written consent to call yet. Ask for written consent: \"Ask for written consent\" on the lead's page in the inbox e-mails {} a page to give it.",
                quote.email
            );
            let said = one_line(&said);
            (
                format!("{said}\nAsk for written consent: {url}\n"),
                linked(&format!("{said} "), &url, "Ask for written consent"),
            )
        }
        None => (String::new(), String::new()),
    }
}

/// The plain-text and HTML parts of the e-mail after a call.
fn follow_up_body(site: &SiteSettings, quote: &StoredQuote, call: &CallReport) -> (String, String) {
    let missing = || "(none)".to_owned();
    let mut fields = vec![
        (
            "Ended",
            call.ended_reason
                .as_deref()
                .map(ended_reason::describe)
                .unwrap_or_else(missing),
        ),
        (
            "Lead",
            format!("{} ({})", quote.email, quote.product.label()),
        ),
    ];
    if let Some(url) = &call.recording_url {
        fields.push(("Recording", url.clone()));
    }
    let details = vec![
        ("Call id", call.call_id.clone()),
        ("Lead id", quote.id.clone()),
    ];
    let summary = call.summary.as_deref().map(lines).unwrap_or_else(missing);
    let transcript = call
        .transcript
        .as_deref()
        .map(lines)
        .unwrap_or_else(missing);
    let heading = "The call has ended";
    let (link_text, link_html) = inbox_link(site, &quote.id);
    let text = format!(
        "{heading}\n\n{}\n{link_text}\nSummary\n\n{summary}\n\nTranscript\n\n{transcript}\n\nDetails\n\n{}\n",
        text_fields(&fields),
        text_fields(&details)
    );
    let recording = call
        .recording_url
        .as_deref()
        .and_then(web_link)
        .map(|url| linked("", url.as_str(), "Listen to the recording"))
        .unwrap_or_default();
    let html = format!(
        "<!doctype html><html><body><h1>{heading}</h1>{}{link_html}{recording}<h2>Summary</h2><p style=\"white-space:pre-wrap\">{}</p><h2>Transcript</h2><pre style=\"white-space:pre-wrap\">{}</pre><h2>Details</h2>{}</body></html>",
        html_fields(&fields),
        encode_text(&summary),
        encode_text(&transcript),
        html_fields(&details)
    );
    (text, html)
}

/// From, To and Date.
fn addressed(settings: &EmailSettings, date: time::OffsetDateTime) -> MessageBuilder {
    let builder = Message::builder()
        .from(settings.from.clone())
        .date(SystemTime::from(date));
    settings
        .to
        .iter()
        .fold(builder, |builder, to| builder.to(to.clone()))
}

/// From, To, Reply-To and Date, the same for both messages of a lead.
fn headers(settings: &EmailSettings, quote: &StoredQuote) -> MessageBuilder {
    let builder = addressed(settings, quote.created_at);
    // The quote rules accept only addresses an e-mail can carry, so this holds; should one ever
    // not parse, the message goes without Reply-To (the address is in the body).
    match quote.email.parse::<Address>() {
        Ok(address) => builder.reply_to(Mailbox::new(None, address)),
        Err(error) => {
            tracing::warn!(id = %quote.id, %error, "the lead's address cannot be a Reply-To");
            builder
        }
    }
}

/// One value per line: control characters (line breaks among them) become spaces.
fn one_line(value: &str) -> String {
    value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// Free text with its line breaks, each written `\n` (the transport sends CRLF).
fn lines(text: &str) -> String {
    text.replace("\r\n", "\n").replace('\r', "\n")
}

fn text_fields(fields: &[(&str, String)]) -> String {
    fields
        .iter()
        .map(|(name, value)| format!("{name}: {}", one_line(value)))
        .collect::<Vec<_>>()
        .join("\n")
}

fn html_fields(fields: &[(&str, String)]) -> String {
    let rows: String = fields
        .iter()
        .map(|(name, value)| {
            format!(
                "<tr><th align=\"left\">{name}</th><td>{}</td></tr>",
                encode_text(&one_line(value))
            )
        })
        .collect();
    format!("<table>{rows}</table>")
}

/// A paragraph of `said` (escaped) ending in a link named `name` to `url`.
fn linked(said: &str, url: &str, name: &str) -> String {
    format!(
        "<p>{}<a href=\"{}\">{name}</a></p>",
        encode_text(said),
        encode_double_quoted_attribute(url)
    )
}

/// Only an http(s) link becomes clickable, as the URL parser writes it (percent-encoded);
/// anything else stays text.
fn web_link(url: &str) -> Option<reqwest::Url> {
    reqwest::Url::parse(url)
        .ok()
        .filter(|u| matches!(u.scheme(), "http" | "https"))
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use crate::settings::email::SmtpUrl;

    /// The settings every e-mail test of this folder sends with.
    pub(in crate::forward::email) fn settings() -> EmailSettings {
        EmailSettings {
            relay: SmtpUrl::parse("smtp://127.0.0.1:25").unwrap(),
            to: vec!["broker@example.com".parse().unwrap()],
            alert_to: vec!["ops@example.com".parse().unwrap()],
            from: "Quotes <quotes@broker.example>".parse().unwrap(),
            extra_roots: None,
            max_connections: 1,
            max_per_hour: 60,
        }
    }

    fn quote(email: &str, user_agent: &str) -> StoredQuote {
        StoredQuote {
            created_at: time::macros::datetime!(2026-11-22 15:40 UTC),
            user_agent: Some(user_agent.into()),
            ..crate::leads::example_lead("0195-lead", email)
        }
    }

    /// The message as sent, headers and body.
    fn raw(message: Result<Message, lettre::error::Error>) -> String {
        String::from_utf8(message.unwrap().formatted()).unwrap()
    }

    fn header<'a>(raw: &'a str, name: &str) -> Vec<&'a str> {
        let head = raw.split("\r\n\r\n").next().unwrap();
        head.split("\r\n")
            .filter_map(|line| line.split_once(": "))
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v)
            .collect()
    }

    #[test]
    fn a_lead_has_its_subject_reply_to_and_stable_id() {
        let quote = quote("o'brien+x{1}@example.com", "UA\r\nBcc: evil@example.com");
        let site = SiteSettings::default();
        let raw = raw(lead(&settings(), &site, &quote, None, &[]));
        assert_eq!(
            header(&raw, "Subject"),
            ["New quote request: Family Health (web)"]
        );
        assert_eq!(header(&raw, "Reply-To"), ["o'brien+x{1}@example.com"]);
        assert_eq!(header(&raw, "Message-ID"), ["<0195-lead@broker.example>"]);
        assert!(header(&raw, "Bcc").is_empty(), "{raw}");
        assert!(header(&raw, "Date")[0].contains("22 Nov 2026 15:40:00"));
        let (text, html) = lead_body(&site, &quote, None);
        assert!(
            text.contains("\nBrowser: UA  Bcc: evil@example.com\n"),
            "{text}"
        );
        assert!(!text.contains("inbox"), "no link without SITE_URL: {text}");
        assert!(
            html.contains("o&#x27;brien+x{1}@example.com")
                || html.contains("o'brien+x{1}@example.com"),
            "{html}"
        );
    }

    #[test]
    fn the_visitors_opt_outs_close_the_message_each_once() {
        let at = time::macros::datetime!(2026-11-22 15:40 UTC);
        let opt_outs =
            [("email", "ana@example.com"), ("phone", "+15125550123")].map(|(kind, value)| OptOut {
                kind: kind.into(),
                value: value.into(),
                requested_at: at,
            });
        let site = SiteSettings::default();
        let body = lead_body(&site, &quote("bo@example.com", "Mozilla/5.0"), None);
        let (text, html) = with_opt_outs(&site, body.clone(), &opt_outs);
        assert!(text.starts_with(&body.0), "{text}");
        let asked = site.local_time(at);
        assert!(text.ends_with(&format!(
            "Asked not to be contacted\n\nThese people put themselves on the do-not-contact list on the site's opt-out page: their leads, earlier and later, read as do not contact. Take them off any list kept elsewhere (a CRM, a dialer).\n\nE-mail ana@example.com, asked {asked}\nPhone +15125550123, asked {asked}\n"
        )), "{text}");
        let last = format!(
            "<li>Phone +15125550123, asked {}</li></ul></body></html>",
            encode_text(&asked)
        );
        assert!(html.ends_with(&last), "{html}");
        assert_eq!(with_opt_outs(&site, body.clone(), &[]), body);
    }

    #[test]
    fn a_lead_on_the_do_not_contact_list_says_so_first() {
        let site = SiteSettings::default();
        let mut listed = quote("ana@example.com", "UA");
        listed.status = LeadStatus::DoNotContact;
        let (text, html) = lead_body(&site, &listed, None);
        assert!(
            text.contains(
                "Do not contact: on your do-not-contact list: do not call, text or e-mail"
            ),
            "{text}"
        );
        assert!(html.contains("do-not-contact list"), "{html}");
        let (text, _) = lead_body(&site, &quote("ana@example.com", "UA"), None);
        assert!(!text.contains("Do not contact"), "{text}");
    }

    #[test]
    fn the_digest_says_why_and_lists_each_held_lead_escaped() {
        let held = HeldLeads {
            listed: vec![
                quote("ana@example.com", "x"),
                quote("<b>bo</b>@example.com", "x"),
            ],
            total: 3,
        };
        let hour = time::macros::datetime!(2026-11-26 16:00 UTC);
        let site = SiteSettings::default();
        let raw = raw(digest(&settings(), &site, &held, hour, &[]));
        assert_eq!(
            header(&raw, "Subject"),
            ["E-mail budget reached: 3 more leads in the inbox"]
        );
        assert!(header(&raw, "Reply-To").is_empty(), "{raw}");
        let (text, html) = digest_body(&site, &held, 60);
        assert!(
            text.contains(
                "The site sent its 60 lead e-mails of the hour (LEAD_EMAIL_MAX_PER_HOUR), so these 3 \
                 leads came without an e-mail each. Every one is stored and listed in the inbox.\n"
            ),
            "{text}"
        );
        assert!(!text.contains("  "), "no run of spaces: {text}");
        assert!(
            text.contains("2026-11-22 15:40:00 UTC | Family Health | web | ana@example.com"),
            "{text}"
        );
        assert!(text.ends_with("and 1 more in the inbox\n"), "{text}");
        assert!(html.contains("&lt;b&gt;bo&lt;/b&gt;@example.com"), "{html}");
    }

    #[test]
    fn the_follow_up_threads_under_the_lead_and_escapes_its_text() {
        let call = CallReport {
            call_id: "call-1".into(),
            ended_reason: Some("customer-ended-call".into()),
            summary: Some("<b>Wants</b>\r\nSubject: hacked".into()),
            transcript: Some("AI: Hi\r\nUser: hello".into()),
            transcript_lines_dropped: 0,
            recording_url: Some("javascript:alert(1)".into()),
            started_at: None,
            channel: crate::store::Source::Voice,
        };
        let quote = quote("ana@example.com", "x");
        let site = SiteSettings::default();
        let raw = raw(follow_up(&settings(), &site, &quote, &call));
        assert_eq!(
            header(&raw, "Subject"),
            ["Re: New quote request: Family Health (web)"]
        );
        assert_eq!(header(&raw, "In-Reply-To"), ["<0195-lead@broker.example>"]);
        assert_eq!(header(&raw, "References"), ["<0195-lead@broker.example>"]);
        assert_eq!(
            header(&raw, "Message-ID"),
            ["<0195-lead.call@broker.example>"]
        );
        assert!(header(&raw, "Subject").len() == 1, "{raw}");
        let (text, html) = follow_up_body(&site, &quote, &call);
        assert!(
            text.contains("Summary\n\n<b>Wants</b>\nSubject: hacked\n"),
            "{text}"
        );
        assert!(
            html.contains("&lt;b&gt;Wants&lt;/b&gt;\nSubject: hacked"),
            "{html}"
        );
        assert!(!html.contains("href=\"javascript"), "not a link: {html}");
        assert!(text.contains("Recording: javascript:alert(1)"), "{text}");
        assert!(text.contains("Ended: The caller hung up\n"), "{text}");
    }

    #[test]
    fn a_number_without_written_consent_gets_the_offer_to_ask_for_it() {
        let site = SiteSettings {
            url: Some("https://quotes.example.com/".parse().unwrap()),
            ..SiteSettings::default()
        };
        let with = |call_consent, status| StoredQuote {
            contact: crate::store::Contact {
                phone: Some("+15555550123".into()),
                ..Default::default()
            },
            call_consent,
            status,
            ..quote("ana@example.com", "UA")
        };
        let (text, html) = lead_body(&site, &with(Some(CallConsent::Oral), LeadStatus::New), None);
        assert!(
            text.contains("\nNo written consent to call yet. Ask for written consent: \"Ask for written consent\" on the lead's page in the inbox e-mails ana@example.com a page to give it.\nAsk for written consent: https://quotes.example.com/admin#lead/0195-lead\n"),
            "{text}"
        );
        assert!(
            html.contains("<a href=\"https://quotes.example.com/admin#lead/0195-lead\">Ask for written consent</a>"),
            "{html}"
        );
        assert!(lead_body(&site, &with(None, LeadStatus::New), None)
            .0
            .contains("Ask for written consent:"));
        for (consent, status) in [
            (Some(CallConsent::Written), LeadStatus::New),
            (None, LeadStatus::Spam),
            (None, LeadStatus::DoNotContact),
        ] {
            let (text, _) = lead_body(&site, &with(consent, status), None);
            assert!(!text.contains("Ask for written consent"), "{text}");
        }
        let (text, _) = lead_body(&site, &quote("ana@example.com", "UA"), None);
        assert!(
            !text.contains("Ask for written consent"),
            "no number: {text}"
        );
    }

    #[test]
    fn the_link_and_local_time_come_first_and_the_ids_last() {
        let site = SiteSettings {
            url: Some("https://quotes.example.com/".parse().unwrap()),
            time_zone: jiff::tz::TimeZone::get("America/Chicago").unwrap(),
            licences: Vec::new(),
        };
        let (text, html) = lead_body(&site, &quote("ana@example.com", "Mozilla/5.0"), None);
        assert!(
            text.starts_with("New quote request\n\nProduct: Family Health\nE-mail: ana@example.com\nReceived: 2026-11-22 09:40:00 CST\nSource: web\nLanguage: English\n\nOpen it in the inbox: https://quotes.example.com/admin#lead/0195-lead\n"),
            "{text}"
        );
        assert!(
            text.ends_with("Details\n\nBrowser: Mozilla/5.0\nLead id: 0195-lead\n"),
            "{text}"
        );
        let notice = "Un agente con licencia le contactará.";
        let spanish = StoredQuote {
            language: crate::store::Language::Es,
            consent: Some(crate::store::consent::Consent {
                text: Some(notice.into()),
                sha256: Some(crate::store::consent::sha256_hex(notice)),
                page: "/es/".into(),
                language: crate::store::Language::Es,
                at: time::OffsetDateTime::UNIX_EPOCH,
                channel: crate::store::consent::ConsentChannel::Form,
                phone: None,
            }),
            ..quote("ana@example.com", "Mozilla/5.0")
        };
        let (spanish_text, spanish_html) = lead_body(&site, &spanish, None);
        assert!(
            spanish_text.contains("\nLanguage: Spanish\n"),
            "{spanish_text}"
        );
        assert!(spanish_html.contains("Spanish"), "{spanish_html}");
        let said = format!(
            "\nNotice shown: \"{notice}\" (SHA-256 {})\n",
            crate::store::consent::sha256_hex(notice)
        );
        assert!(spanish_text.contains(&said), "{spanish_text}");
        assert!(
            html.contains("<a href=\"https://quotes.example.com/admin#lead/0195-lead\">"),
            "{html}"
        );
        assert!(
            html.find("Open it").unwrap() < html.find("Mozilla").unwrap(),
            "{html}"
        );
    }
}
