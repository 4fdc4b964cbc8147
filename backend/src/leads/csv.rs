//! The leads as a CSV document, the same for `backend export` and the admin API's `format=csv`.

use std::io::Write;

use crate::store::{format_timestamp, CallConsent, Channel, Delivery, StoredQuote};

/// The JSON row's fields flattened: a channel's `delivery.<channel>.attempts` is
/// `<channel>_delivery_attempts`, except the webhook's, whose columns keep their first names
/// (`delivery`, `delivery_attempts`...); the e-mail channels' follow, then why a spam lead is
/// spam, the broker's note and the language of the page the lead came from, its consent record,
/// and how to call it, then a written consent given later (last, so the columns before them stay
/// where they were).
pub const CSV_HEADER: [&str; 37] = [
    "id",
    "created_at",
    "product",
    "email",
    "source",
    "call_id",
    "call_ended_reason",
    "call_summary",
    "delivery",
    "delivery_attempts",
    "delivery_last_error",
    "delivery_delivered_at",
    "user_agent",
    "status",
    "status_changed_at",
    "email_delivery",
    "email_delivery_attempts",
    "email_delivery_last_error",
    "email_delivery_delivered_at",
    "follow_up_delivery",
    "follow_up_delivery_attempts",
    "follow_up_delivery_last_error",
    "follow_up_delivery_delivered_at",
    "spam_reason",
    "note",
    "language",
    "consent_channel",
    "consent_notice_sha256",
    "consent_notice",
    "phone",
    "may_call",
    "call_consent",
    "zip",
    "state",
    "licensed",
    "written_later_channel",
    "written_later_at",
];

/// The header line and one line per row; the admin API sends the same document. Every cell is
/// quoted, so no separator splits one in any locale (Excel splits on `;` where `,` is the decimal
/// mark), and a cell a spreadsheet would run as a formula is defused (`formula_guard`).
pub fn write_csv(rows: &[StoredQuote], out: &mut impl Write) -> std::io::Result<()> {
    let mut writer = csv::WriterBuilder::new()
        .quote_style(csv::QuoteStyle::Always)
        .from_writer(out);
    writer.write_record(CSV_HEADER)?;
    for row in rows {
        writer.write_record(csv_cells(row).iter().map(|cell| formula_guard(cell)))?;
    }
    writer.flush()
}

/// A channel's status, attempts, last error and delivery time, empty when the row has no entry
/// on it.
fn delivery_cells(delivery: Option<&Delivery>) -> [String; 4] {
    let Some(delivery) = delivery else {
        return Default::default();
    };
    [
        delivery.status.as_str().to_owned(),
        delivery.attempts.to_string(),
        delivery.last_error.clone().unwrap_or_default(),
        delivery.delivered_at.clone().unwrap_or_default(),
    ]
}

fn csv_cells(row: &StoredQuote) -> [String; CSV_HEADER.len()] {
    let text = |cell: &Option<String>| cell.clone().unwrap_or_default();
    let consent = row.consent.as_ref();
    let [webhook, webhook_attempts, webhook_error, webhook_at] =
        delivery_cells(row.delivery_on(Channel::Webhook));
    let [email, email_attempts, email_error, email_at] =
        delivery_cells(row.delivery_on(Channel::Email));
    let [follow_up, follow_up_attempts, follow_up_error, follow_up_at] =
        delivery_cells(row.delivery_on(Channel::FollowUp));
    [
        row.id.clone(),
        format_timestamp(row.created_at),
        row.product.as_str().to_owned(),
        row.email.clone(),
        row.source.as_str().to_owned(),
        text(&row.call_id),
        text(&row.call_ended_reason),
        text(&row.call_summary),
        webhook,
        webhook_attempts,
        webhook_error,
        webhook_at,
        text(&row.user_agent),
        row.status.as_str().to_owned(),
        text(&row.status_changed_at),
        email,
        email_attempts,
        email_error,
        email_at,
        follow_up,
        follow_up_attempts,
        follow_up_error,
        follow_up_at,
        text(&row.spam_reason),
        text(&row.note),
        row.language.as_str().to_owned(),
        consent.map_or_else(String::new, |c| c.channel.as_str().to_owned()),
        consent.and_then(|c| c.sha256.clone()).unwrap_or_default(),
        consent.and_then(|c| c.text.clone()).unwrap_or_default(),
        text(&row.contact.phone),
        row.contact.may_call_text().unwrap_or_default().to_owned(),
        row.call_consent
            .map(CallConsent::as_str)
            .unwrap_or_default()
            .to_owned(),
        text(&row.contact.zip),
        text(&row.contact.state),
        yes_no(row.licensed),
        row.written_later
            .map_or_else(String::new, |later| later.channel.as_str().to_owned()),
        row.written_later
            .map_or_else(String::new, |later| format_timestamp(later.at)),
    ]
}

fn yes_no(flag: Option<bool>) -> String {
    match flag {
        Some(true) => "yes".to_owned(),
        Some(false) => "no".to_owned(),
        None => String::new(),
    }
}

/// What a spreadsheet may take as the start of a formula: `=`, `+`, `-`, `@` (OWASP CSV
/// injection), their full-width forms (East Asian locales), and tab, carriage return and line
/// feed (Excel skips them before a formula).
const FORMULA_STARTS: [char; 11] = [
    '=', '+', '-', '@', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}', '\t', '\r', '\n',
];

/// A leading apostrophe makes a cell text. White space before the formula does not hide it:
/// spreadsheets skip a no-break space (U+00A0), an ideographic space (U+3000) and the rest of
/// Unicode's White_Space as readily as an ASCII one.
pub fn formula_guard(cell: &str) -> String {
    if cell.starts_with(FORMULA_STARTS) || cell.trim_start().starts_with(FORMULA_STARTS) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_line(cells: &[&str]) -> String {
        let row = crate::leads::example_lead(cells[0], cells[1]);
        let mut out = Vec::new();
        write_csv(&[row], &mut out).unwrap();
        let text = String::from_utf8(out).unwrap();
        text.split_once('\n').unwrap().1.to_owned()
    }

    #[test]
    fn every_cell_is_quoted_and_formulas_are_defused() {
        let typed = r#""2026-11-22T09:30:00.000Z","family","#;
        assert!(csv_line(&["plain", "a,b"]).starts_with(&format!(r#""plain",{typed}"a,b","web","#)));
        assert!(csv_line(&["a;=1+1", r#"say "hi""#])
            .starts_with(&format!(r#""a;=1+1",{typed}"say ""hi""","#)));
        assert!(
            csv_line(&["line\nbreak", ""]).starts_with(&format!("\"line\nbreak\",{typed}\"\","))
        );
        for (cell, guarded) in [
            ("=HYPERLINK(\"x\")", "'=HYPERLINK(\"x\")"),
            ("+1", "'+1"),
            ("-1", "'-1"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("  =1+1", "'  =1+1"),
            ("\u{a0}=1+1", "'\u{a0}=1+1"),
            ("\u{2003}\u{3000}+1", "'\u{2003}\u{3000}+1"),
            ("\u{202f}\u{2028}@SUM(A1)", "'\u{202f}\u{2028}@SUM(A1)"),
            ("\u{a0}plain", "\u{a0}plain"),
            ("\u{ff1d}1+1", "'\u{ff1d}1+1"),
            ("\tx", "'\tx"),
            ("\n=1", "'\n=1"),
            ("ana@example.com", "ana@example.com"),
            ("a-b", "a-b"),
        ] {
            assert_eq!(formula_guard(cell), guarded, "{cell:?}");
        }
    }

    #[test]
    fn the_csv_columns_are_the_json_fields_flattened() {
        let row = StoredQuote {
            id: "0195".into(),
            created_at: time::macros::datetime!(2026-11-22 09:30 UTC),
            product: wasm_core::Product::Employer,
            email: "ana@example.com".into(),
            source: crate::store::Source::Voice,
            user_agent: Some("agent".into()),
            call_id: Some("call-1".into()),
            call_ended_reason: Some("customer-ended-call".into()),
            call_summary: Some("Wants a plan".into()),
            delivery: Some(crate::store::Deliveries {
                webhook: Some(crate::store::Delivery {
                    status: crate::store::DeliveryStatus::Delivered,
                    attempts: 2,
                    last_error: Some("HTTP 502".into()),
                    delivered_at: Some("2026-11-22T09:31:00.000Z".into()),
                }),
                email: Some(crate::store::Delivery {
                    status: crate::store::DeliveryStatus::Pending,
                    attempts: 1,
                    last_error: Some("451 try later".into()),
                    delivered_at: None,
                }),
                follow_up: None,
            }),
            status: crate::store::LeadStatus::Spam,
            status_changed_at: Some("2026-11-22T10:00:00.000Z".into()),
            spam_reason: Some("marked".into()),
            note: Some("Call back on Tuesday".into()),
            language: crate::store::Language::Es,
            consent: Some(crate::store::consent::Consent {
                text: Some("Un agente le contactará.".into()),
                sha256: Some("ab12".into()),
                page: "/es/".into(),
                language: crate::store::Language::Es,
                at: time::OffsetDateTime::UNIX_EPOCH,
                channel: crate::store::consent::ConsentChannel::Voice,
                phone: None,
            }),
            contact: crate::store::Contact {
                phone: Some("+15555550123".into()),
                may_call: true,
                zip: Some("78701".into()),
                state: Some("TX".into()),
            },
            call_consent: Some(crate::store::CallConsent::Oral),
            written_later: None,
            licensed: Some(false),
        };
        let mut json = serde_json::to_value(&row).unwrap();
        let delivery = json["delivery"].take();
        let consent = json["consent"].take();
        let later = json["written_later"].take();
        let mut flattened: Vec<(String, String)> = json
            .as_object()
            .unwrap()
            .iter()
            .filter(|(field, _)| {
                !["delivery", "consent", "written_later"].contains(&field.as_str())
            })
            .map(|(field, value)| {
                // A flag is yes or no in the CSV.
                let text = match value {
                    serde_json::Value::Bool(flag) => yes_no(Some(*flag)),
                    other => other.as_str().unwrap().to_owned(),
                };
                // E.164's `+` is a formula's start to a spreadsheet.
                (field.clone(), formula_guard(&text))
            })
            .collect();
        for (channel, state) in delivery.as_object().unwrap() {
            let prefix = match channel.as_str() {
                "webhook" => "delivery".to_owned(),
                other => format!("{other}_delivery"),
            };
            // A channel without an entry is `null` in JSON and empty cells in the CSV.
            for field in ["status", "attempts", "last_error", "delivered_at"] {
                let column = match field {
                    "status" => prefix.clone(),
                    other => format!("{prefix}_{other}"),
                };
                let value = &state[field];
                let text = match value {
                    serde_json::Value::Null => String::new(),
                    serde_json::Value::String(text) => text.clone(),
                    other => other.to_string(),
                };
                flattened.push((column, text));
            }
        }
        // The consent record says which notice, and how the lead was sent.
        for (column, field) in [
            ("consent_channel", "channel"),
            ("consent_notice_sha256", "sha256"),
            ("consent_notice", "text"),
        ] {
            flattened.push((column.into(), consent[field].as_str().unwrap().into()));
        }
        for field in ["channel", "at"] {
            let text = later[field].as_str().unwrap_or_default();
            flattened.push((format!("written_later_{field}"), text.into()));
        }
        let mut out = Vec::new();
        write_csv(&[row], &mut out).unwrap();
        let mut csv = csv::Reader::from_reader(out.as_slice());
        let header: Vec<String> = csv.headers().unwrap().iter().map(str::to_owned).collect();
        let cells: Vec<String> = csv
            .records()
            .next()
            .unwrap()
            .unwrap()
            .iter()
            .map(str::to_owned)
            .collect();
        let mut columns: Vec<(String, String)> = header.into_iter().zip(cells).collect();
        columns.sort();
        flattened.sort();
        assert_eq!(columns, flattened);
    }
}
