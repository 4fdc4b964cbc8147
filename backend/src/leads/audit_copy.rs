//! An auditor's copy of one lead's records: the lead, its consent records and the texts they
//! refer to (the notice, the phone disclosure), the conversation it came from with its transcript,
//! the site's copy of its recording and the visitor's acceptance of the notice before it
//! (`call-notice.json`), and `manifest.json` with every file's SHA-256. Or the copy
//! of one consent record, which outlives its lead: the same files, less the lead's once it is
//! deleted. `backend records export` writes it into a folder; the inbox's "Records" button and
//! the admin API download it as a ZIP.

use serde::Serialize;
use time::OffsetDateTime;

use super::recording_type::audio_type;
use crate::store::consent::{sha256_hex, ConsentRecords, StoredLink, LEAD_KIND, SOA_KIND};
use crate::store::notice_acceptance::{NoticeAcceptance, NoticeAcceptances};
use crate::store::{format_timestamp, Conversations, Inbox, LeadDetail, Recordings, StoreError};

pub const MANIFEST: &str = "manifest.json";

/// The copy's files, in order, `manifest.json` last.
pub struct AuditCopy {
    pub files: Vec<(String, Vec<u8>)>,
}

#[derive(Serialize)]
struct Manifest<'a> {
    lead_id: &'a str,
    /// The consent record the copy was asked for by (`record_copy`).
    #[serde(skip_serializing_if = "Option::is_none")]
    consent_seq: Option<i64>,
    /// Its lead is deleted: the copy holds no `lead.json`.
    lead_deleted: bool,
    exported_at: String,
    files: Vec<ManifestEntry<'a>>,
}

#[derive(Serialize)]
struct ManifestEntry<'a> {
    name: &'a str,
    sha256: String,
    bytes: usize,
}

/// `call-notice.json`: the conversation's acceptance of the notice before it, named by its id.
#[derive(Serialize)]
struct CallNotice<'a> {
    call_id: &'a str,
    #[serde(flatten)]
    acceptance: &'a NoticeAcceptance,
}

/// `None` when there is no lead `lead_id`.
pub async fn audit_copy(
    store: &(impl Inbox + ConsentRecords + Conversations + Recordings + NoticeAcceptances + ?Sized),
    lead_id: &str,
) -> Result<Option<AuditCopy>, StoreError> {
    let Some(lead) = store.lead(lead_id.to_owned()).await? else {
        return Ok(None);
    };
    let consent = store.consent_records_of_lead(lead_id.to_owned()).await?;
    let call_id = lead.quote.call_id.clone();
    let copy = copy_of(store, lead_id, None, Some(lead), consent, call_id).await?;
    Ok(Some(copy))
}

/// The copy of consent record `seq`: the record with the texts it refers to, and while its lead
/// is kept the lead's own files; once the lead is deleted, what stays of it (the conversation
/// and its recording, while they are kept). `None` when there is no record `seq`.
pub async fn record_copy(
    store: &(impl Inbox + ConsentRecords + Conversations + Recordings + NoticeAcceptances + ?Sized),
    seq: i64,
) -> Result<Option<AuditCopy>, StoreError> {
    let Some(record) = store.consent_record_numbered(seq).await? else {
        return Ok(None);
    };
    let lead_id = record.link.lead_id.clone();
    let lead = store.lead(lead_id.clone()).await?;
    let call_id = record.call_id.clone();
    let copy = copy_of(store, &lead_id, Some(seq), lead, vec![record], call_id).await?;
    Ok(Some(copy))
}

async fn copy_of(
    store: &(impl Conversations + Recordings + NoticeAcceptances + ?Sized),
    lead_id: &str,
    consent_seq: Option<i64>,
    lead: Option<LeadDetail>,
    consent: Vec<StoredLink>,
    call_id: Option<String>,
) -> Result<AuditCopy, StoreError> {
    let (conversation, recording, notice) = match &call_id {
        Some(call_id) => (
            store.conversation(call_id.clone()).await?,
            store.recording(call_id.clone()).await?,
            store.notice_acceptance(call_id.clone()).await?,
        ),
        None => (None, None, None),
    };
    let mut files = Vec::new();
    if let Some(lead) = &lead {
        files.push(("lead.json".to_owned(), pretty(lead)));
    }
    // A lead that booked more than once (its bookings joined it) has a Scope of Appointment per
    // booking, each named by its number in the chain.
    let soas = consent.iter().filter(|r| r.link.kind == SOA_KIND).count();
    for record in &consent {
        // A Scope of Appointment signed with a booking is `soa`, its statement beside it.
        if record.link.kind == SOA_KIND {
            let name = match soas {
                1 => "soa".to_owned(),
                _ => format!("soa-{}", record.link.seq),
            };
            files.push((format!("{name}.json"), pretty(record)));
            if let Some(text) = &record.notice_text {
                files.push((format!("{name}-statement.txt"), text.clone().into_bytes()));
            }
            continue;
        }
        // The record asked for, or the lead's own, is `consent`; a written consent the lead
        // gave later is named by its number in the chain.
        let (record_name, disclosure_name) =
            if consent_seq.is_some() || record.link.kind == LEAD_KIND {
                ("consent.json".to_owned(), "phone-disclosure.txt".to_owned())
            } else {
                let name = format!("written-consent-{}", record.link.seq);
                (
                    format!("{name}.json"),
                    format!("{name}-phone-disclosure.txt"),
                )
            };
        files.push((record_name, pretty(record)));
        if let Some(text) = &record.notice_text {
            files.push(("notice.txt".to_owned(), text.clone().into_bytes()));
        }
        if let Some(text) = &record.phone_disclosure_text {
            files.push((disclosure_name, text.clone().into_bytes()));
        }
    }
    if let Some(conversation) = &conversation {
        files.push(("conversation.json".to_owned(), pretty(conversation)));
    }
    // Kept by the conversation's id, so it is there before the conversation's report too.
    if let (Some(call_id), Some(acceptance)) = (&call_id, &notice) {
        let accepted = CallNotice {
            call_id,
            acceptance,
        };
        files.push(("call-notice.json".to_owned(), pretty(&accepted)));
    }
    if let Some(recording) = recording {
        files.push((
            recording_name(audio_type(&recording.content_type)),
            recording.audio,
        ));
    }
    let manifest = Manifest {
        lead_id,
        consent_seq,
        lead_deleted: lead.is_none(),
        exported_at: format_timestamp(OffsetDateTime::now_utc()),
        files: files
            .iter()
            .map(|(name, bytes)| ManifestEntry {
                name,
                sha256: sha256_hex(bytes),
                bytes: bytes.len(),
            })
            .collect(),
    };
    let manifest = pretty(&manifest);
    files.push((MANIFEST.to_owned(), manifest));
    Ok(AuditCopy { files })
}

/// `recording.wav`, `recording.mp3`...: the extension its type is best known by.
fn recording_name(content_type: &str) -> String {
    let extension = mime_guess::get_mime_extensions_str(content_type)
        .and_then(|extensions| {
            ["wav", "mp3", "ogg", "webm", "m4a"]
                .into_iter()
                .find(|known| extensions.contains(known))
                .or(extensions.first().copied())
        })
        .unwrap_or("bin");
    format!("recording.{extension}")
}

fn pretty(value: &impl Serialize) -> Vec<u8> {
    let mut text = serde_json::to_vec_pretty(value).expect("the records serialize to JSON");
    text.push(b'\n');
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_recording_is_named_by_its_type() {
        assert_eq!(recording_name("audio/wav"), "recording.wav");
        assert_eq!(recording_name("audio/mpeg"), "recording.mp3");
        assert_eq!(
            recording_name("application/x-unknown-thing"),
            "recording.bin"
        );
    }
}
