//! `backend records verify`: walks the consent records' hash chain (`store::consent`) in
//! DATABASE_URL, read-only, and says how many hold, or names the first record that does not
//! match (exiting non-zero).

use std::io::Write;

use crate::store::consent::{verify, ConsentRecords, StoredLink, Verified};

/// Records read at a time.
const PAGE: usize = 1_000;

/// `backend records`'s subcommands.
#[derive(Debug, PartialEq, Eq, clap::Subcommand)]
pub enum RecordsCommand {
    /// Check every consent record against its hash, the one before it and its notice's text.
    Verify,
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
