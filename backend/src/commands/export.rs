//! `backend export`: the stored quote requests as CSV or JSON lines, without a running server.

use std::io::Write;

use time::OffsetDateTime;

use crate::leads::csv::write_csv;
use crate::leads::since::parse_since;
use crate::store::Quotes;

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    Csv,
    /// One JSON object a line.
    #[value(name = "jsonl", alias = "json")]
    JsonLines,
}

/// `backend export`'s options.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct ExportArgs {
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Only requests created at or after this day (UTC) or time: YYYY-MM-DD or RFC 3339.
    #[arg(long, value_name = "WHEN", value_parser = parse_since)]
    pub since: Option<OffsetDateTime>,
}

pub async fn run(
    store: &(impl Quotes + ?Sized),
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

#[cfg(test)]
mod tests {
    use time::UtcOffset;

    use super::*;

    #[test]
    fn arguments() {
        use clap::Parser;

        #[derive(Parser)]
        struct Export {
            #[command(flatten)]
            args: ExportArgs,
        }
        let args = |a: &[&str]| {
            Export::try_parse_from(std::iter::once("export").chain(a.iter().copied()))
                .map(|export| export.args)
        };
        let defaults = args(&[]).unwrap();
        assert_eq!((defaults.format, defaults.since), (Format::Csv, None));
        let parsed = args(&["--format", "jsonl", "--since", "2026-01-01"]).unwrap();
        assert_eq!(parsed.format, Format::JsonLines);
        assert_eq!(parsed.since.unwrap().unix_timestamp(), 1_767_225_600);
        assert_eq!(args(&["--format=json"]).unwrap().format, Format::JsonLines);
        assert_eq!(args(&["--format=csv"]).unwrap().format, Format::Csv);
        assert!(args(&["--since", "yesterday"]).is_err());
        assert!(args(&["--since", "9999-12-31T23:59:59-23:59"]).is_err());
        let offset = args(&["--since=2026-01-01T01:00:00+01:00"])
            .unwrap()
            .since
            .unwrap();
        assert_eq!(
            (offset.unix_timestamp(), offset.offset()),
            (1_767_225_600, UtcOffset::UTC)
        );
        assert!(args(&["--format"]).is_err());
        assert!(args(&["--format", "xml"]).is_err());
        assert!(args(&["--bogus"]).is_err());
    }
}
