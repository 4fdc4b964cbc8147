//! `backend records verify`: walks the consent records' hash chain (`store::consent`) in
//! DATABASE_URL, read-only, and says how many hold and the chain's head (its last record's
//! number and SHA-256), or names the first record that does not match (exiting non-zero); with
//! `--head SHA256` (a head noted before, as the daily lead e-mail carries it) it also fails
//! unless the chain still holds that record, so removing the last records is caught.
//! `backend records export --lead ID DIR`: an auditor's copy of one lead: the lead, its consent
//! record and texts, the conversation it came from with its transcript and recording, and a
//! manifest of every file's SHA-256 (`leads::audit_copy`), readable by its owner only;
//! `--consent SEQ` instead: the copy of one consent record, which outlives its lead.

use std::fs::{DirBuilder, OpenOptions, Permissions};
use std::io::Write;
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use crate::leads::audit_copy::{audit_copy, record_copy, AuditCopy, MANIFEST};
use crate::store::consent::{verify, ConsentRecords, Head, StoredLink, Verified};
use crate::store::notice_acceptance::NoticeAcceptances;
use crate::store::{Conversations, Inbox, Recordings};

/// Records read at a time.
const PAGE: usize = 1_000;
/// An audit copy's folder and files: its owner's only, like a backup (they hold a lead).
const COPY_FOLDER_MODE: u32 = 0o700;
const COPY_FILE_MODE: u32 = 0o600;

/// `backend records`'s subcommands.
#[derive(Debug, PartialEq, Eq, clap::Subcommand)]
pub enum RecordsCommand {
    /// Check every consent record against its hash, the one before it, its notice's text and
    /// its lead; print the chain's head.
    Verify(VerifyArgs),
    /// Write one lead's records (--lead ID) or one consent record's (--consent SEQ, its lead
    /// deleted or not) into DIR (new or empty) for an auditor: the lead, its consent record and
    /// texts, its conversation, transcript and recording, and manifest.json with their SHA-256s.
    Export(ExportArgs),
}

/// `backend records verify`'s option.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct VerifyArgs {
    /// A head printed before (by verify, or in the daily lead e-mail): fail unless the chain
    /// still holds the record with this SHA-256.
    #[arg(long, value_name = "SHA256")]
    pub head: Option<String>,
}

/// `backend records export`'s arguments: a lead or a consent record, one of the two.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct ExportArgs {
    /// The lead's id, as the inbox and the admin API give it.
    #[arg(
        long,
        value_name = "ID",
        required_unless_present = "consent",
        conflicts_with = "consent"
    )]
    pub lead: Option<String>,
    /// A consent record's number (`seq`, as the admin API's consent records give it): the
    /// record and its texts, with its lead's files while the lead is kept, and the conversation
    /// while it is kept.
    #[arg(long, value_name = "SEQ")]
    pub consent: Option<i64>,
    /// Where the files go: a folder that does not exist yet, or an empty one.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
}

/// Writes the audit copy of `args.lead` or `args.consent` (`leads::audit_copy`) into `args.dir`
/// and says what it wrote.
pub async fn export_copy(
    store: &(impl Inbox + ConsentRecords + Conversations + Recordings + NoticeAcceptances + ?Sized),
    args: &ExportArgs,
    out: &mut impl Write,
) -> Result<(), String> {
    let (copy, what) = match (&args.lead, args.consent) {
        (Some(lead), _) => (audit_copy(store, lead).await, format!("lead {lead}")),
        (None, Some(seq)) => (
            record_copy(store, seq).await,
            format!("consent record {seq}"),
        ),
        (None, None) => return Err("give --lead ID or --consent SEQ".into()),
    };
    let copy = copy
        .map_err(|e| format!("reading the {what}'s records: {e}"))?
        .ok_or_else(|| format!("no {what} in the database"))?;
    write_files(&args.dir, &what, copy, out).map_err(|e| format!("{}: {e}", args.dir.display()))
}

fn write_files(
    dir: &Path,
    what: &str,
    copy: AuditCopy,
    out: &mut impl Write,
) -> std::io::Result<()> {
    DirBuilder::new()
        .recursive(true)
        .mode(COPY_FOLDER_MODE)
        .create(dir)?;
    if std::fs::read_dir(dir)?.next().is_some() {
        return Err(std::io::Error::other(
            "is not empty: give a new or empty folder, so the copy holds only these records",
        ));
    }
    // A folder that was there already is made its owner's only too.
    std::fs::set_permissions(dir, Permissions::from_mode(COPY_FOLDER_MODE))?;
    let listed = copy.files.len() - 1;
    for (name, bytes) in copy.files {
        OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(COPY_FILE_MODE)
            .open(dir.join(name))?
            .write_all(&bytes)?;
    }
    writeln!(
        out,
        "{what}: {listed} files and {MANIFEST} (their SHA-256s) in {}",
        dir.display()
    )
}

/// Verifies the chain in `store` and reports to `out` with its head; an `Err` names the broken
/// record, or says the chain holds no record with the hash `args.head`.
pub async fn verify_chain(
    store: &(impl ConsentRecords + ?Sized),
    args: &VerifyArgs,
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
    let (records, head) = match verify(&chain) {
        Verified::Intact { records, head } => (records, head),
        Verified::Broken { seq, lead_id, why } => {
            return Err(format!(
                "consent record {seq} (lead {lead_id}) {why}; the records before it hold"
            ))
        }
    };
    if let Some(given) = &args.head {
        let given = given.trim().to_ascii_lowercase();
        if !chain.iter().any(|stored| stored.hash == given) {
            return Err(format!(
                "the chain holds no record with SHA-256 {given} (the head given): records after it were removed, or it is another database's"
            ));
        }
    }
    let head = match head {
        Some(Head { seq, sha256 }) => format!("head: record {seq}, SHA-256 {sha256}"),
        None => "no records yet".to_owned(),
    };
    writeln!(
        out,
        "consent records: {records} checked, the chain holds; {head}"
    )
    .map_err(|e| e.to_string())
}
