//! `backend import SOURCE_URL`: copies every lead, with its call report and delivery state, from
//! another store into `DATABASE_URL` (SQLite to PostgreSQL and back), keeping ids. A lead already
//! there is left as it is, so the import can run again; it prints what it copied.

use std::io::Write;

use crate::store::table_copy::{self, Copied};
use crate::store::DatabaseUrl;

/// `backend import`'s argument.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct ImportArgs {
    /// The store to copy from, as DATABASE_URL is written: sqlite://PATH, file:PATH or
    /// postgres://... It must be at this release's schema (start this release on it once).
    #[arg(value_name = "SOURCE_URL")]
    pub source: String,
}

/// Copies from `args.source` into `target` and reports to `out`.
pub async fn run(
    target: &DatabaseUrl,
    args: &ImportArgs,
    out: &mut impl Write,
) -> Result<(), String> {
    let source = DatabaseUrl::parse(&args.source).map_err(|e| format!("SOURCE_URL: {e}"))?;
    if source == *target {
        return Err(format!(
            "SOURCE_URL and DATABASE_URL are both {target}: nothing to copy"
        ));
    }
    let tables = table_copy::read(&source)
        .await
        .map_err(|e| format!("reading {source}: {e}"))?;
    let copied = table_copy::write(target, tables)
        .await
        .map_err(|e| format!("writing into {target} (nothing was written): {e}"))?;
    report(&source, target, &copied, out).map_err(|e| e.to_string())
}

fn report(
    source: &DatabaseUrl,
    target: &DatabaseUrl,
    copied: &[Copied],
    out: &mut impl Write,
) -> std::io::Result<()> {
    writeln!(out, "imported from {source} into {target}:")?;
    for table in copied {
        let what = match table.table {
            "quote_requests" => "quote requests",
            "voice_calls" => "conversations",
            "call_recordings" => "call recordings",
            "lead_outbox" => "deliveries (webhook and e-mail)",
            "notice_texts" => "notice texts",
            "consent_records" => "consent records",
            other => other,
        };
        writeln!(
            out,
            "  {what}: {} copied, {} already there",
            table.copied, table.already_there
        )?;
    }
    out.flush()
}
