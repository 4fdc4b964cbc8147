//! `backend export`: the stored quote requests as CSV or JSON lines, without a running server.

use std::io::Write;

use time::format_description::well_known::Rfc3339;
use time::macros::format_description;
use time::{Date, OffsetDateTime, UtcOffset};

use crate::store::{format_timestamp, QuoteStore, StoredQuote};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    Csv,
    JsonLines,
}

#[derive(Debug, PartialEq, Eq)]
pub struct ExportArgs {
    pub format: Format,
    pub since: Option<OffsetDateTime>,
}

pub const USAGE: &str = "usage: backend export [--format csv|jsonl] [--since YYYY-MM-DD|RFC3339]";

impl ExportArgs {
    pub fn parse(args: &[String]) -> Result<ExportArgs, String> {
        let mut parsed = ExportArgs {
            format: Format::Csv,
            since: None,
        };
        let mut args = args.iter();
        while let Some(arg) = args.next() {
            let mut value = || args.next().ok_or_else(|| format!("{arg} needs a value"));
            match arg.as_str() {
                "--format" => {
                    parsed.format = match value()?.as_str() {
                        "csv" => Format::Csv,
                        "jsonl" | "json" => Format::JsonLines,
                        other => return Err(format!("unknown format {other:?}")),
                    }
                }
                "--since" => parsed.since = Some(parse_since(value()?)?),
                other => return Err(format!("unknown argument {other:?}")),
            }
        }
        Ok(parsed)
    }
}

/// Answered in UTC: the store compares UTC text, and a time whose UTC day falls outside the years
/// `time` can hold (`9999-12-31T23:59:59-23:59`) is refused here rather than panicking there.
pub fn parse_since(text: &str) -> Result<OffsetDateTime, String> {
    if let Ok(at) = OffsetDateTime::parse(text, &Rfc3339) {
        return at
            .checked_to_offset(UtcOffset::UTC)
            .ok_or_else(|| format!("since {text:?} is out of range"));
    }
    Date::parse(text, format_description!("[year]-[month]-[day]"))
        .map(|date| date.midnight().assume_utc())
        .map_err(|_| format!("since {text:?} is neither YYYY-MM-DD nor an RFC 3339 time"))
}

pub const CSV_HEADER: [&str; 12] = [
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
    "user_agent",
];

pub async fn run(
    store: &dyn QuoteStore,
    args: &ExportArgs,
    out: &mut impl Write,
) -> std::io::Result<()> {
    let rows = store
        .list_since(args.since)
        .await
        .map_err(std::io::Error::other)?;
    match args.format {
        Format::Csv => write_csv(&rows, out)?,
        Format::JsonLines => {
            for row in &rows {
                serde_json::to_writer(&mut *out, row)?;
                writeln!(out)?;
            }
        }
    }
    out.flush()
}

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

fn csv_cells(row: &StoredQuote) -> [String; 12] {
    let text = |cell: &Option<String>| cell.clone().unwrap_or_default();
    let delivery = row.delivery.as_ref();
    [
        row.id.clone(),
        format_timestamp(row.created_at),
        row.product.as_str().to_owned(),
        row.email.clone(),
        row.source.as_str().to_owned(),
        text(&row.call_id),
        text(&row.call_ended_reason),
        text(&row.call_summary),
        delivery
            .map(|d| d.status.as_str().to_owned())
            .unwrap_or_default(),
        delivery.map(|d| d.attempts.to_string()).unwrap_or_default(),
        delivery
            .and_then(|d| d.last_error.clone())
            .unwrap_or_default(),
        text(&row.user_agent),
    ]
}

/// What a spreadsheet may take as the start of a formula: `=`, `+`, `-`, `@` (OWASP CSV
/// injection), their full-width forms (East Asian locales), and tab, carriage return and line
/// feed (Excel skips them before a formula).
const FORMULA_STARTS: [char; 11] = [
    '=', '+', '-', '@', '\u{ff1d}', '\u{ff0b}', '\u{ff0d}', '\u{ff20}', '\t', '\r', '\n',
];

/// A leading apostrophe makes a cell text. Spaces before the formula do not hide it.
pub fn formula_guard(cell: &str) -> String {
    if cell.trim_start_matches(' ').starts_with(FORMULA_STARTS) {
        format!("'{cell}")
    } else {
        cell.to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn csv_line(cells: &[&str]) -> String {
        let row = StoredQuote {
            id: cells[0].into(),
            created_at: time::macros::datetime!(2026-11-22 09:30 UTC),
            product: wasm_core::Product::Family,
            email: cells[1].into(),
            source: crate::store::Source::Web,
            user_agent: None,
            call_id: None,
            call_ended_reason: None,
            call_summary: None,
            delivery: None,
            status: Default::default(),
            status_changed_at: None,
        };
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
    fn arguments() {
        let args =
            |a: &[&str]| ExportArgs::parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(
            args(&[]).unwrap(),
            ExportArgs {
                format: Format::Csv,
                since: None
            }
        );
        let parsed = args(&["--format", "jsonl", "--since", "2026-01-01"]).unwrap();
        assert_eq!(parsed.format, Format::JsonLines);
        assert_eq!(parsed.since.unwrap().unix_timestamp(), 1_767_225_600);
        assert!(args(&["--since", "yesterday"]).is_err());
        assert!(args(&["--since", "9999-12-31T23:59:59-23:59"]).is_err());
        let offset = args(&["--since", "2026-01-01T01:00:00+01:00"])
            .unwrap()
            .since
            .unwrap();
        assert_eq!(
            (offset.unix_timestamp(), offset.offset()),
            (1_767_225_600, UtcOffset::UTC)
        );
        assert!(args(&["--format"]).is_err());
        assert!(args(&["--bogus"]).is_err());
    }
}
