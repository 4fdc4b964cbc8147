//! The inbox on PostgreSQL: the same statements as SQLite (`inbox_queries.rs`), a deletion in
//! one transaction.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;
use tokio_postgres::types::ToSql;

use super::{classify, limit, pool_error, PostgresStore};
use crate::store::inbox::{Inbox, LeadDetail, LeadQuery, SessionCutoffs, Sessions, SiteKeys};
use crate::store::inbox_queries::{self as sql, FilterValues};
use crate::store::model::{format_timestamp, LeadStatus, StoredQuote};
use crate::store::rows::{stored_quote, NamedRow};
use crate::store::StoreError;

impl Inbox for PostgresStore {
    fn find_leads(&self, query: LeadQuery) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
        async move {
            let v = FilterValues::new(&query);
            let limit = limit(Some(query.limit));
            let params: [&(dyn ToSql + Sync); 9] = [
                &v.since,
                &v.until,
                &v.product,
                &v.source,
                &v.status,
                &v.email_pattern,
                &v.after,
                &limit,
                &v.state,
            ];
            let rows = self.query(&sql::find_leads(), &params).await?;
            rows.iter().map(stored_quote).collect()
        }
        .boxed()
    }

    fn lead(&self, id: String) -> BoxFuture<'_, Result<Option<LeadDetail>, StoreError>> {
        async move {
            let rows = self.query(&sql::lead(), &[&id]).await?;
            let Some(quote) = rows.first().map(stored_quote).transpose()? else {
                return Ok(None);
            };
            let call_recording_url = match &quote.call_id {
                Some(call_id) => self
                    .query(sql::CALL_RECORDING, &[call_id])
                    .await?
                    .first()
                    .map(|row| row.text("recording_url"))
                    .transpose()?
                    .flatten(),
                None => None,
            };
            Ok(Some(LeadDetail {
                quote,
                call_recording_url,
            }))
        }
        .boxed()
    }

    fn set_status(
        &self,
        id: String,
        status: LeadStatus,
        at: OffsetDateTime,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let at = format_timestamp(at);
            let marking = match status {
                LeadStatus::Spam => sql::MARK_SPAM,
                LeadStatus::DoNotContact => sql::MARK_DO_NOT_CONTACT,
                LeadStatus::New | LeadStatus::Contacted => "",
            };
            if marking.is_empty() {
                let queued = self.options.queued_channels();
                let changed = self
                    .execute(sql::SET_STATUS, &[&id, &status.as_str(), &at, &queued])
                    .await?;
                return Ok(changed == 1);
            }
            let mut client = self.pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(classify)?;
            let changed = tx.execute(marking, &[&id, &at]).await.map_err(classify)?;
            tx.execute(sql::DROP_UNDELIVERED, &[&id])
                .await
                .map_err(classify)?;
            tx.commit().await.map_err(classify)?;
            Ok(changed == 1)
        }
        .boxed()
    }

    fn set_note(
        &self,
        id: String,
        note: Option<String>,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move { Ok(self.execute(sql::SET_NOTE, &[&id, &note]).await? == 1) }.boxed()
    }

    fn delete_lead(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let mut client = self.pool.get().await.map_err(pool_error)?;
            let tx = client.transaction().await.map_err(classify)?;
            // Locks the lead, so a concurrent deletion of the same one waits and finds nothing.
            let found = tx
                .query_opt(&format!("{} FOR UPDATE", sql::LEAD_EXISTS), &[&id])
                .await
                .map_err(classify)?;
            if found.is_none() {
                return Ok(false);
            }
            tx.execute(sql::DELETE_OUTBOX, &[&id])
                .await
                .map_err(classify)?;
            tx.execute(sql::DELETE_LEAD, &[&id])
                .await
                .map_err(classify)?;
            tx.commit().await.map_err(classify)?;
            Ok(true)
        }
        .boxed()
    }

    fn leads_created_before(
        &self,
        cutoff: OffsetDateTime,
        max: usize,
    ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
        async move {
            let cutoff = format_timestamp(cutoff);
            let rows = self
                .query(sql::LEADS_CREATED_BEFORE, &[&cutoff, &limit(Some(max))])
                .await?;
            rows.iter().map(|row| row.required("id")).collect()
        }
        .boxed()
    }
}

impl Sessions for PostgresStore {
    fn create_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        async move {
            let now = format_timestamp(now);
            self.execute(sql::CREATE_SESSION, &[&id_hash, &now])
                .await
                .map(drop)
        }
        .boxed()
    }

    fn touch_session(
        &self,
        id_hash: String,
        now: OffsetDateTime,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let now = format_timestamp(now);
            let idle_since = format_timestamp(cutoffs.idle_since);
            let signed_in_since = format_timestamp(cutoffs.signed_in_since);
            let touched = self
                .execute(
                    sql::TOUCH_SESSION,
                    &[&id_hash, &now, &idle_since, &signed_in_since],
                )
                .await?;
            Ok(touched == 1)
        }
        .boxed()
    }

    fn delete_session(&self, id_hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
        async move {
            self.execute(sql::DELETE_SESSION, &[&id_hash])
                .await
                .map(drop)
        }
        .boxed()
    }

    fn delete_all_sessions(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
        async move { self.execute(sql::DELETE_ALL_SESSIONS, &[]).await }.boxed()
    }

    fn delete_ended_sessions(
        &self,
        cutoffs: SessionCutoffs,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        async move {
            let idle_since = format_timestamp(cutoffs.idle_since);
            let signed_in_since = format_timestamp(cutoffs.signed_in_since);
            self.execute(sql::DELETE_ENDED_SESSIONS, &[&idle_since, &signed_in_since])
                .await
        }
        .boxed()
    }
}

impl SiteKeys for PostgresStore {
    fn site_key(
        &self,
        name: &'static str,
        candidate: String,
    ) -> BoxFuture<'_, Result<String, StoreError>> {
        async move {
            self.execute(sql::KEEP_KEY, &[&name, &candidate]).await?;
            let rows = self.query(sql::KEY, &[&name]).await?;
            rows.first()
                .map(|row| row.required("value"))
                .unwrap_or_else(|| Err(StoreError::Database("the site key was not kept".into())))
        }
        .boxed()
    }
}
