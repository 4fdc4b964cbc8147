//! `backend records verify`: walks the consent records' hash chain (`store::consent`) in
//! DATABASE_URL, read-only, and says how many hold, or names the first record that does not
//! match (exiting non-zero). `backend records export --lead ID DIR`: an auditor's copy of one
//! lead: the lead, its consent record and notice, the conversation it came from with its
//! transcript and recording, and a manifest of every file's SHA-256 (`leads::audit_copy`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::leads::audit_copy::{audit_copy, AuditCopy, MANIFEST};
use crate::store::consent::{verify, ConsentRecords, StoredLink, Verified};
use crate::store::{Conversations, Inbox, Recordings};

/// Records read at a time.
const PAGE: usize = 1_000;

/// `backend records`'s subcommands.
#[derive(Debug, PartialEq, Eq, clap::Subcommand)]
pub enum RecordsCommand {
    /// Check every consent record against its hash, the one before it and its notice's text.
    Verify,
    /// Write one lead's records into DIR (new or empty) for an auditor: the lead, its consent
    /// record and notice, its conversation, transcript and recording, and manifest.json with their
    /// SHA-256s.
    Export(ExportArgs),
}

/// `backend records export`'s arguments.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct ExportArgs {
    /// The lead's id, as the inbox and the admin API give it.
    #[arg(long, value_name = "ID")]
    pub lead: String,
    /// Where the files go: a folder that does not exist yet, or an empty one.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Writes `args.lead`'s audit copy (`leads::audit_copy`) into `args.dir` and says what it wrote.
pub async fn export_lead(
    store: &(impl Inbox + ConsentRecords + Conversations + Recordings + ?Sized),
    args: &ExportArgs,
    out: &mut impl Write,
) -> Result<(), String> {
    let copy = audit_copy(store, &args.lead)
        .await
        .map_err(|e| format!("reading the lead's records: {e}"))?
        .ok_or_else(|| format!("no lead {:?} in the database", args.lead))?;
    write_files(&args.dir, &args.lead, copy, out)
        .map_err(|e| format!("{}: {e}", args.dir.display()))
}

fn write_files(
    dir: &Path,
    lead_id: &str,
    copy: AuditCopy,
    out: &mut impl Write,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    if std::fs::read_dir(dir)?.next().is_some() {
        return Err(std::io::Error::other(
            "is not empty: give a new or empty folder, so the copy holds only this lead's files",
        ));
    }
    let listed = copy.files.len() - 1;
    for (name, bytes) in copy.files {
        std::fs::write(dir.join(name), &bytes)?;
    }
    writeln!(
        out,
        "lead {lead_id}: {listed} files and {MANIFEST} (their SHA-256s) in {}",
        dir.display()
    )
}

/// Verifies the chain in `store` and reports to `out`; an `Err` names the broken record.
pub async fn verify_chain(
    store: &(impl ConsentRecords + ?Sized),
    out: &mut impl Write,
) -> Result<(), String> {
    // The whole chain is checked at once: a record is judged against the one before it, which a
    // page boundary must not hide, and a broker's records fit in memory many times over.
    let mut chain: Vec<StoredLink> = Vec::new();
    loop {
        let after = chain.last().map_or(0, |last| last.link.seq);
        let page = store
            .consent_chain(after, PAGE)
            .await
            .map_err(|e| format!("reading the consent records: {e}"))?;
        let done = page.len() < PAGE;
        chain.extend(page);
        if done {
            break;
        }
    }
    match verify(&chain) {
        Verified::Intact { records } => {
            writeln!(out, "consent records: {records} checked, the chain holds")
                .map_err(|e| e.to_string())
        }
        Verified::Broken { seq, lead_id, why } => Err(format!(
            "consent record {seq} (lead {lead_id}) {why}; the records before it hold"
        )),
    }
}
