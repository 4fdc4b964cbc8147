//! The inbox on SQLite. Its writes are rare and a person waits for each, so they run on the
//! reader's connection in their own immediate transaction (waiting out the writer's lock like
//! any other connection) instead of queueing behind the request path's group commits.

use futures_util::future::BoxFuture;
use rusqlite::{params, Transaction, TransactionBehavior};
use time::OffsetDateTime;

use super::parameters::{self, execute};
use super::SqliteStore;
use crate::store::inbox::{Inbox, LeadDetail, LeadQuery, SessionCutoffs, Sessions, SiteKeys};
use crate::store::inbox_queries::{self as sql, FilterValues};
use crate::store::model::{format_timestamp, LeadStatus, StoredQuote};
use crate::store::rows::{stored_quote, NamedRow};
use crate::store::StoreError;

fn limit(n: usize) -> i64 {
    i64::try_from(n).unwrap_or(i64::MAX)
}

impl Inbox for SqliteStore {
    fn find_leads(&self, query: LeadQuery) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
        self.read(move |conn| {
            let v = FilterValues::new(&query);
            parameters::query(
                conn,
                &sql::find_leads(),
                params![
                    v.since,
                    v.until,
                    v.product,
                    v.source,
                    v.status,
                    v.email_pattern,
                    v.after,
                    limit(query.limit),
                    v.state
                ],
                |row| stored_quote(row),
            )
        })
    }

    fn lead(&self, id: String) -> BoxFuture<'_, Result<Option<LeadDetail>, StoreError>> {
        self.read(move |conn| {
            let found =
                parameters::query(conn, &sql::lead(), params![id], |row| stored_quote(row))?;
            let Some(quote) = found.into_iter().next() else {
                return Ok(None);
            };
            let call_recording_url = match &quote.call_id {
                Some(call_id) => {
                    parameters::query(conn, sql::CALL_RECORDING, params![call_id], |row| {
                        row.text("recording_url")
                    })?
                    .into_iter()
                    .next()
                    .flatten()
                }
                None => None,
            };
            Ok(Some(LeadDetail {
                quote,
                call_recording_url,
            }))
        })
    }

    fn set_status(
        &self,
        id: String,
        status: LeadStatus,
        at: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        let queued = self.queued_channels.clone();
        self.read(move |conn| {
            let at = format_timestamp(at);
            let marking = match status {
                LeadStatus::Spam => sql::MARK_SPAM,
                LeadStatus::DoNotContact => sql::MARK_DO_NOT_CONTACT,
                LeadStatus::New | LeadStatus::Contacted => "",
            };
            if marking.is_empty() {
                let changed = execute(
                    conn,
                    sql::SET_STATUS,
                    params![id, status.as_str(), at, queued],
                )?;
                return Ok(changed == 1);
            }
            let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
            let changed = execute(&tx, marking, params![id, at])?;
            execute(&tx, sql::DROP_UNDELIVERED, params![id])?;
            tx.commit()?;
            Ok(changed == 1)
        })
    }

    fn set_note(
        &self,
        id: String,
        note: Option<String>,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read(move |conn| Ok(execute(conn, sql::SET_NOTE, params![id, note])? == 1))
    }

    fn delete_lead(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read(move |conn| {
            let tx = Transaction::new_unchecked(conn, TransactionBehavior::Immediate)?;
            let lead =
                parameters::query(&tx, sql::LEAD_EXISTS, params![id], |row| row.required("id"))?;
            if lead.is_empty() {
                return Ok(false);
            }
            execute(&tx, sql::DELETE_OUTBOX, params![id])?;
            execute(&tx, sql::DELETE_LEAD, params![id])?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn leads_created_before(
        &self,
        cutoff: OffsetDateTime,
        max: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        self.read(move |conn| {
            parameters::query(
                conn,
                sql::LEADS_CREATED_BEFORE,
                params![format_timestamp(cutoff), limit(max)],
                |row| row.required("id"),
            )
        })
    }
}

impl Sessions for SqliteStore {
    fn create_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        self.read(move |conn| {
            execute(
                conn,
                sql::CREATE_SESSION,
                params![id_hash, format_timestamp(now)],
            )
            .map(drop)
        })
    }

    fn touch_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        self.read(move |conn| {
            let touched = execute(
                conn,
                sql::TOUCH_SESSION,
                params![
                    id_hash,
                    format_timestamp(now),
                    format_timestamp(cutoffs.idle_since),
                    format_timestamp(cutoffs.signed_in_since)
                ],
            )?;
            Ok(touched == 1)
        })
    }

    fn delete_session(&self, id_hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
        self.read(move |conn| execute(conn, sql::DELETE_SESSION, params![id_hash]).map(drop))
    }

    fn delete_all_sessions(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.read(move |conn| {
            let deleted = execute(conn, sql::DELETE_ALL_SESSIONS, params![])?;
            Ok(deleted as u64)
        })
    }

    fn delete_ended_sessions(
        &self,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        self.read(move |conn| {
            let deleted = execute(
                conn,
                sql::DELETE_ENDED_SESSIONS,
                params![
                    format_timestamp(cutoffs.idle_since),
                    format_timestamp(cutoffs.signed_in_since)
                ],
            )?;
            Ok(deleted as u64)
        })
    }
}

impl SiteKeys for SqliteStore {
    fn site_key(
        &self,
        name: &'static str,
        candidate: String,
    ) -> BoxFuture<'_, Result<String, StoreError>> {
        self.read(move |conn| {
            execute(conn, sql::KEEP_KEY, params![name, candidate])?;
            parameters::query(conn, sql::KEY, params![name], |row| row.required("value"))?
                .into_iter()
                .next()
                .ok_or_else(|| StoreError::Database("the site key was not kept".into()))
        })
    }
}
