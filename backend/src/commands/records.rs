//! `backend records verify`: walks the consent records' hash chain (`store::consent`) in
//! DATABASE_URL, read-only, and says how many hold, or names the first record that does not
//! match (exiting non-zero). `backend records export --lead ID DIR`: an auditor's copy of one
//! lead: the lead, its consent record and notice, the conversation it came from with its
//! transcript, and a manifest of every file's SHA-256.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde::Serialize;
use time::OffsetDateTime;

use crate::store::consent::{sha256_hex, verify, ConsentRecords, StoredLink, Verified};
use crate::store::{format_timestamp, Conversations, Inbox};

/// Records read at a time.
const PAGE: usize = 1_000;

/// `backend records`'s subcommands.
#[derive(Debug, PartialEq, Eq, clap::Subcommand)]
pub enum RecordsCommand {
    /// Check every consent record against its hash, the one before it and its notice's text.
    Verify,
    /// Write one lead's records into DIR (new or empty) for an auditor: the lead, its consent
    /// record and notice, its conversation and transcript, and manifest.json with their SHA-256s.
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

#[derive(Serialize)]
struct Manifest {
    lead_id: String,
    exported_at: String,
    /// Each file written, with its SHA-256 (hex) and size.
    files: Vec<ManifestEntry>,
}

#[derive(Serialize)]
struct ManifestEntry {
    name: &'static str,
    sha256: String,
    bytes: usize,
}

/// Writes lead `args.lead`'s records into `args.dir` and says what it wrote to `out`.
pub async fn export_lead(
    store: &(impl Inbox + ConsentRecords + Conversations + ?Sized),
    args: &ExportArgs,
    out: &mut impl Write,
) -> Result<(), String> {
    let read = |e: crate::store::StoreError| format!("reading the lead's records: {e}");
    let lead = store
        .lead(args.lead.clone())
        .await
        .map_err(read)?
        .ok_or_else(|| format!("no lead {:?} in the database", args.lead))?;
    let consent = store
        .consent_record(args.lead.clone())
        .await
        .map_err(read)?;
    let conversation = match &lead.quote.call_id {
        Some(call_id) => store.conversation(call_id.clone()).await.map_err(read)?,
        None => None,
    };
    let mut files: Vec<(&'static str, Vec<u8>)> = vec![("lead.json", pretty(&lead)?)];
    if let Some(record) = &consent {
        files.push(("consent.json", pretty(record)?));
        if let Some(text) = &record.notice_text {
            files.push(("notice.txt", text.clone().into_bytes()));
        }
    }
    if let Some(conversation) = &conversation {
        files.push(("conversation.json", pretty(conversation)?));
    }
    write_files(&args.dir, &args.lead, files, out)
        .map_err(|e| format!("{}: {e}", args.dir.display()))
}

/// `value` as indented JSON, ending in a line break.
fn pretty(value: &impl Serialize) -> Result<Vec<u8>, String> {
    let mut text = serde_json::to_vec_pretty(value).map_err(|e| e.to_string())?;
    text.push(b'\n');
    Ok(text)
}

fn write_files(
    dir: &Path,
    lead_id: &str,
    files: Vec<(&'static str, Vec<u8>)>,
    out: &mut impl Write,
) -> std::io::Result<()> {
    std::fs::create_dir_all(dir)?;
    if std::fs::read_dir(dir)?.next().is_some() {
        return Err(std::io::Error::other(
            "is not empty: give a new or empty folder, so the copy holds only this lead's files",
        ));
    }
    let mut manifest = Manifest {
        lead_id: lead_id.to_owned(),
        exported_at: format_timestamp(OffsetDateTime::now_utc()),
        files: Vec::new(),
    };
    for (name, bytes) in files {
        std::fs::write(dir.join(name), &bytes)?;
        manifest.files.push(ManifestEntry {
            name,
            sha256: sha256_hex(&bytes),
            bytes: bytes.len(),
        });
    }
    let listed = manifest.files.len();
    std::fs::write(
        dir.join("manifest.json"),
        pretty(&manifest).map_err(std::io::Error::other)?,
    )?;
    writeln!(
        out,
        "lead {lead_id}: {listed} files and manifest.json (their SHA-256s) in {}",
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
