//! Every lead's rows as they are stored, for copying them from one store into another
//! (`backend import`): the quote requests, the calls' end-of-call reports and the delivery state
//! (the outbox), column by column, so nothing a migration adds is left behind. Ids are kept (they
//! are text, UUIDs and the voice provider's call ids: no sequence to move on), and a row whose
//! key is already in the target is left as it is there, so a copy can run again.

pub(in crate::store) mod consent_chain;
pub(in crate::store) mod tables;

pub use tables::{Copied, Table};

use super::{postgres, sqlite, DatabaseUrl, StoreError};

/// Every row of `TABLES` in `source`, which must be at this release's schema version, with only
/// the columns it knows, each value checked as a new lead's is and its free text cleaned as the
/// server cleans what it stores (`clean_text`); nothing is written to it.
pub async fn read(source: &DatabaseUrl) -> Result<Vec<Table>, StoreError> {
    let mut tables = match source {
        DatabaseUrl::Sqlite(target) => {
            let target = target.clone();
            tokio::task::spawn_blocking(move || sqlite::table_copy::read(&target))
                .await
                .map_err(|e| StoreError::Database(super::Cause::of(e)))??
        }
        DatabaseUrl::Postgres(url) => postgres::table_copy::read(url).await?,
    };
    for table in &mut tables {
        table.admit()?;
    }
    Ok(tables)
}

/// Writes `tables` into `target` (migrated first, as the server would) in one transaction.
pub async fn write(target: &DatabaseUrl, tables: Vec<Table>) -> Result<Vec<Copied>, StoreError> {
    match target {
        DatabaseUrl::Sqlite(target) => {
            let target = target.clone();
            tokio::task::spawn_blocking(move || sqlite::table_copy::write(&target, &tables))
                .await
                .map_err(|e| StoreError::Database(super::Cause::of(e)))?
        }
        DatabaseUrl::Postgres(url) => postgres::table_copy::write(url, &tables).await,
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;
    use std::time::Duration;

    use time::OffsetDateTime;

    use super::*;
    use crate::store::suite::{self, PostgresSchema, EVERY_CHANNEL};
    use crate::store::{
        open_with, CallReport, Channel, DeliveryOutcome, QuoteStore, StoreOptions, StoredQuote,
    };

    /// Leads in every state: delivered by webhook, an e-mail to retry, one given up, a spoken
    /// one with its call report, one still queued; what the store lists.
    async fn seed(url: &DatabaseUrl) -> Vec<StoredQuote> {
        let store: Arc<dyn QuoteStore> = open_with(url, EVERY_CHANNEL).await.unwrap();
        for i in 0..3 {
            store
                .insert(suite::web(&format!("w{i}@example.com")))
                .await
                .unwrap();
        }
        store
            .insert(suite::spoken("v@example.com", "call-1", "tool-1"))
            .await
            .unwrap();
        let report = CallReport {
            ended_reason: Some("customer-ended-call".into()),
            summary: Some("Medicare for two".into()),
            transcript: Some("AI: Hello".into()),
            recording_url: Some("https://storage.example.com/call-1.wav".into()),
            started_at: Some("2026-11-27T10:00:00.000Z".into()),
            ..suite::report("call-1")
        };
        store.record_call(report).await.unwrap();
        let recording = crate::store::StoredRecording {
            content_type: "audio/wav".into(),
            sha256: "00".repeat(32),
            audio: vec![0, 1, 2, 255],
        };
        store
            .record_recording(
                "call-1".into(),
                crate::store::RecordingOutcome::Stored {
                    recording,
                    max_total_bytes: u64::MAX,
                },
            )
            .await
            .unwrap();
        let later = OffsetDateTime::now_utc() + Duration::from_secs(1);
        let due = suite::due(&store, Channel::Webhook, later).await;

        let outcomes = [
            DeliveryOutcome::Delivered,
            DeliveryOutcome::Retry {
                error: "HTTP 503".into(),
                next_attempt_at: later + Duration::from_secs(60),
            },
            DeliveryOutcome::GiveUp {
                error: "HTTP 410".into(),
            },
        ];
        for (lead, outcome) in due.iter().zip(outcomes) {
            store.record_delivery(lead, outcome).await.unwrap();
        }
        let queued = suite::web("queued@example.com");
        let queued_id = queued.id.to_string();
        store.insert(queued).await.unwrap();
        // Its person asked not to be contacted: on the list, which goes with the leads.
        store
            .set_status(queued_id, crate::store::LeadStatus::DoNotContact, later)
            .await
            .unwrap();
        let listed = store.list_since(None).await.unwrap();
        store.close().await;
        listed
    }

    async fn listed(url: &DatabaseUrl) -> Vec<StoredQuote> {
        let store = open_with(url, StoreOptions::default()).await.unwrap();
        let listed = store.list_since(None).await.unwrap();
        store.close().await;
        listed
    }

    /// Copies `from` into `to` twice: everything the first time, nothing the second.
    async fn copy_twice(from: &DatabaseUrl, to: &DatabaseUrl, leads: u64) {
        let copied = write(to, read(from).await.unwrap()).await.unwrap();
        let counts: Vec<_> = copied
            .iter()
            .map(|c| (c.table, c.copied, c.already_there))
            .collect();
        assert_eq!(
            counts,
            [
                ("quote_requests", leads, 0),
                ("voice_calls", 1, 0),
                ("call_recordings", 1, 0),
                // Webhook and e-mail for the 4 taken into the outbox, the call's follow-up, and
                // the queued lead's webhook post of its do-not-contact mark.
                ("lead_outbox", 2 * (leads - 1) + 2, 0),
                ("notice_texts", 0, 0),
                ("consent_records", 0, 0),
                ("chat_call_consents", 0, 0),
                ("do_not_contact", 1, 0),
                ("bookings", 0, 0),
                ("notice_acceptances", 0, 0),
                ("booking_mails", 0, 0),
                ("calendar_feed", 0, 0)
            ]
        );
        let again = write(to, read(from).await.unwrap()).await.unwrap();
        assert!(again.iter().all(|c| c.copied == 0), "{again:?}");
    }

    fn sqlite_in(dir: &tempfile::TempDir, name: &str) -> DatabaseUrl {
        DatabaseUrl::Sqlite(dir.path().join(name).to_string_lossy().into())
    }

    #[tokio::test]
    async fn every_lead_with_its_call_and_deliveries_is_copied_once() {
        let dir = tempfile::tempdir().unwrap();
        let (source, target) = (sqlite_in(&dir, "a.db"), sqlite_in(&dir, "b.db"));
        let stored = seed(&source).await;
        assert_eq!(stored.len(), 5);
        copy_twice(&source, &target, 5).await;
        assert_eq!(listed(&target).await, stored);
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
    async fn from_sqlite_to_postgresql_and_back() {
        let dir = tempfile::tempdir().unwrap();
        let schema = PostgresSchema::create().await;
        let postgres = DatabaseUrl::Postgres(schema.url());
        let (source, back) = (sqlite_in(&dir, "a.db"), sqlite_in(&dir, "back.db"));
        let stored = seed(&source).await;
        copy_twice(&source, &postgres, 5).await;
        assert_eq!(listed(&postgres).await, stored);
        copy_twice(&postgres, &back, 5).await;
        assert_eq!(listed(&back).await, stored);
        schema.drop().await;
    }
}
