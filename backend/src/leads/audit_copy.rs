//! An auditor's copy of one lead's records: the lead, its consent records and the notice text it
//! was shown, the conversation it came from with its transcript and the site's copy of its
//! recording, and `manifest.json` with every file's SHA-256. `backend records export` writes it
//! into a folder; the inbox's "Records" button downloads it as a ZIP.

use serde::Serialize;
use time::OffsetDateTime;

use super::recording_type::audio_type;
use crate::store::consent::{sha256_hex, ConsentRecords, LEAD_KIND};
use crate::store::{format_timestamp, Conversations, Inbox, Recordings, StoreError};

pub const MANIFEST: &str = "manifest.json";

/// The copy's files, in order, `manifest.json` last.
pub struct AuditCopy {
    pub files: Vec<(String, Vec<u8>)>,
}

#[derive(Serialize)]
struct Manifest<'a> {
    lead_id: &'a str,
    exported_at: String,
    files: Vec<ManifestEntry<'a>>,
}

#[derive(Serialize)]
struct ManifestEntry<'a> {
    name: &'a str,
    sha256: String,
    bytes: usize,
}

/// `None` when there is no lead `lead_id`.
pub async fn audit_copy(
    store: &(impl Inbox + ConsentRecords + Conversations + Recordings + ?Sized),
    lead_id: &str,
) -> Result<Option<AuditCopy>, StoreError> {
    let Some(lead) = store.lead(lead_id.to_owned()).await? else {
        return Ok(None);
    };
    let records = store.consent_records_of_lead(lead_id.to_owned()).await?;
    let (conversation, recording) = match &lead.quote.call_id {
        Some(call_id) => (
            store.conversation(call_id.clone()).await?,
            store.recording(call_id.clone()).await?,
        ),
        None => (None, None),
    };
    let mut files = vec![("lead.json".to_owned(), pretty(&lead))];
    for record in &records {
        // The lead's own record is `consent.json`; a written consent given later is named by
        // its number in the chain.
        if record.link.kind == LEAD_KIND {
            files.push(("consent.json".to_owned(), pretty(record)));
            if let Some(text) = &record.notice_text {
                files.push(("notice.txt".to_owned(), text.clone().into_bytes()));
            }
        } else {
            let name = format!("written-consent-{}.json", record.link.seq);
            files.push((name, pretty(record)));
        }
    }
    if let Some(conversation) = &conversation {
        files.push(("conversation.json".to_owned(), pretty(conversation)));
    }
    if let Some(recording) = recording {
        files.push((
            recording_name(audio_type(&recording.content_type)),
            recording.audio,
        ));
    }
    let manifest = Manifest {
        lead_id,
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
    Ok(Some(AuditCopy { files }))
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
