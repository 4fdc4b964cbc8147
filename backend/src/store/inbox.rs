//! What the broker's inbox asks of a store beyond keeping leads: finding them by filter, marking
//! them, deleting them whole (for a person who asks, and for retention), and the admin sessions.
//! Written once for both databases, over `store::sql`, with the SQL in `lead_queries.rs` and
//! `queries.rs`. Its writes are rare and a person waits for each: on SQLite they run on the
//! person's connection, not behind the request path's group commits.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use time::OffsetDateTime;
use wasm_core::Product;

use super::booking_mail_queue;
use super::bookings;
use super::lead_columns::ID;
use super::lead_events::{do_not_contact_states, repost_changed};
use super::lead_queries::{
    self, find_leads, DELETE_LEAD, KEEP_CALL, LEADS_CREATED_BEFORE, LEAD_EXISTS,
    LIST_DO_NOT_CONTACT, MARK_DO_NOT_CONTACT, MARK_SPAM, SET_NOTE, SET_STATUS,
};
use super::model::{LeadStatus, Source, StoredQuote};
use super::queries as sql;
use super::rows::stored_quote;
use super::sql::{on_every_database, Lane, NamedRow, Value};
use super::StoreError;

/// Which leads the inbox lists; every part narrows the list, `None` leaves it open.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadFilter {
    pub product: Option<Product>,
    pub source: Option<Source>,
    pub status: Option<LeadStatus>,
    /// Created at or after.
    pub since: Option<OffsetDateTime>,
    /// Created before.
    pub until: Option<OffsetDateTime>,
    /// Part of the e-mail address, any case.
    pub email: Option<String>,
    /// The ZIP code's state, two letters.
    pub state: Option<String>,
}

/// One page of the filtered list, newest first; `after` is the last id of the previous page.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LeadQuery {
    pub filter: LeadFilter,
    pub after: Option<String>,
    pub limit: usize,
}

/// A lead with everything the inbox shows on its page.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct LeadDetail {
    #[serde(flatten)]
    pub quote: StoredQuote,
    /// The call's (or chat's) transcript, as far as it is kept (`transcript.rs`).
    #[schema(required = true)]
    pub call_transcript: Option<String>,
    /// The voice call's recording, when its end-of-call report had one.
    #[schema(required = true)]
    pub call_recording_url: Option<String>,
}

/// When a session counts as ended: unused since `idle_since`, or signed in at or before
/// `signed_in_since` (its whole lifetime).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SessionCutoffs {
    pub idle_since: OffsetDateTime,
    pub signed_in_since: OffsetDateTime,
}

on_every_database! {
    pub trait Inbox: Send + Sync {
        fn find_leads(
            &self,
            query: LeadQuery,
        ) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
            let filter = query.filter;
            let values = vec![
                filter.since.into(),
                filter.until.into(),
                filter.product.map(|p| p.as_str()).into(),
                filter.source.map(|s| s.as_str()).into(),
                filter.status.map(|s| s.as_str()).into(),
                filter.email.as_deref().map(contains_pattern).into(),
                query.after.into(),
                query.limit.into(),
                filter.state.into(),
            ];
            let rows = self.query(Lane::Person, find_leads(), values);
            async move { rows.await?.iter().map(stored_quote).collect() }.boxed()
        }

        fn lead(&self, id: String) -> BoxFuture<'_, Result<Option<LeadDetail>, StoreError>> {
            self.run(Lane::Person, false, move |c| {
                async move {
                    let rows = c.query(&lead_queries::lead(), &[id.into()]).await?;
                    let Some(quote) = rows.first().map(stored_quote).transpose()? else {
                        return Ok(None);
                    };
                    let call = match &quote.call_id {
                        Some(call_id) => c
                            .query(sql::CALL_OF_LEAD, &[call_id.as_str().into()])
                            .await?
                            .into_iter()
                            .next(),
                        None => None,
                    };
                    let column = |name| call.as_ref().map(|row| row.text(name)).transpose();
                    Ok(Some(LeadDetail {
                        quote,
                        call_transcript: column("transcript")?.flatten(),
                        call_recording_url: column("recording_url")?.flatten(),
                    }))
                }
                .boxed()
            })
        }

        /// Whether the lead exists (and now has `status`, changed at `at`). Marking a lead spam
        /// drops what was still to go out for it; marking spam `new` or `contacted` queues it for
        /// delivery like a new lead. With a webhook, each of its person's leads whose
        /// do-not-contact state the change turned is posted again (`lead_events`).
        fn set_status(
            &self,
            id: String,
            status: LeadStatus,
            at: OffsetDateTime,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            // With a webhook, a change of do-not-contact state is posted to it (`lead_events`).
            let webhook = self.options().forward_leads;
            let mail = self.options().email_leads;
            let marking = match status {
                LeadStatus::Spam => MARK_SPAM,
                LeadStatus::DoNotContact => MARK_DO_NOT_CONTACT,
                LeadStatus::New | LeadStatus::Contacted => {
                    let values: [Value; 4] = [
                        id.as_str().into(),
                        status.as_str().into(),
                        at.into(),
                        self.options().queued_channels().into(),
                    ];
                    return self.run(Lane::Person, true, move |c| {
                        async move {
                            let before = match webhook {
                                true => do_not_contact_states(c, &id).await?,
                                false => Vec::new(),
                            };
                            let changed = c.execute(SET_STATUS, &values).await?;
                            c.execute(sql::UNLIST_DO_NOT_CONTACT, &[id.as_str().into()])
                                .await?;
                            repost_changed(c, &id, &before, at).await?;
                            Ok(changed == 1)
                        }
                        .boxed()
                    });
                }
            };
            self.run(Lane::Person, true, move |c| {
                async move {
                    let before = match webhook {
                        true => do_not_contact_states(c, &id).await?,
                        false => Vec::new(),
                    };
                    let marked: [Value; 2] = [id.as_str().into(), at.into()];
                    let changed = c.execute(marking, &marked).await?;
                    if status == LeadStatus::DoNotContact {
                        c.execute(LIST_DO_NOT_CONTACT, &marked).await?;
                        if mail {
                            booking_mail_queue::queue_cancels_of_lead(c, &id, at).await?;
                        }
                        c.execute(bookings::CANCEL_UPCOMING_OF_LEAD, &marked)
                            .await?;
                    }
                    c.execute(sql::DROP_UNDELIVERED, &[id.as_str().into()])
                        .await?;
                    repost_changed(c, &id, &before, at).await?;
                    Ok(changed == 1)
                }
                .boxed()
            })
        }

        /// Whether the lead exists (and now has `note`; `None` removes it).
        fn set_note(
            &self,
            id: String,
            note: Option<String>,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let changed = self.execute(Lane::Person, SET_NOTE, vec![id.into(), note.into()]);
            async move { Ok(changed.await? == 1) }.boxed()
        }

        /// Deletes the lead, its outbox row (and with it its idempotency key, a column of the
        /// lead), in one transaction; its consent records keep the call it came from (its report
        /// stays). Whether the lead existed.
        fn delete_lead(&self, id: String) -> BoxFuture<'_, Result<bool, StoreError>> {
            self.run(Lane::Person, true, move |c| {
                async move {
                    let id = [Value::from(id)];
                    // Locks the lead, so a concurrent deletion of the same one waits and finds
                    // nothing, and no outbox row can be queued for it in between.
                    let exists = format!("{}{}", LEAD_EXISTS, c.row_lock());
                    if c.query(&exists, &id).await?.is_empty() {
                        return Ok(false);
                    }
                    c.execute(sql::DELETE_OUTBOX, &id).await?;
                    c.execute(KEEP_CALL, &id).await?;
                    c.execute(bookings::DELETE_OF_LEAD, &id).await?;
                    c.execute(DELETE_LEAD, &id).await?;
                    Ok(true)
                }
                .boxed()
            })
        }

        /// Ids of up to `limit` leads created before `cutoff`, oldest first.
        fn leads_created_before(
            &self,
            cutoff: OffsetDateTime,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<String>, StoreError>> {
            let values = vec![cutoff.into(), limit.into()];
            let rows = self.query(Lane::Person, LEADS_CREATED_BEFORE, values);
            async move { rows.await?.iter().map(|row| row.required(ID)).collect() }.boxed()
        }
    }
}

on_every_database! {
    /// Signed-in sessions, by a keyed hash of their id (the id itself is never stored).
    pub trait Sessions: Send + Sync {
        fn create_session(
            &self,
            id_hash: String,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<(), StoreError>> {
            let values = vec![id_hash.into(), now.into()];
            self.execute(Lane::Person, sql::CREATE_SESSION, values)
                .map(|done| done.map(drop))
                .boxed()
        }

        /// Whether the session exists and has not ended by `cutoffs`; if so it counts as used now.
        fn touch_session(
            &self,
            id_hash: String,
            now: OffsetDateTime,
            cutoffs: SessionCutoffs,
        ) -> BoxFuture<'_, Result<bool, StoreError>> {
            let values = vec![
                id_hash.into(),
                now.into(),
                cutoffs.idle_since.into(),
                cutoffs.signed_in_since.into(),
            ];
            let touched = self.execute(Lane::Person, sql::TOUCH_SESSION, values);
            async move { Ok(touched.await? == 1) }.boxed()
        }

        fn delete_session(&self, id_hash: String) -> BoxFuture<'_, Result<(), StoreError>> {
            self.execute(Lane::Person, sql::DELETE_SESSION, vec![id_hash.into()])
                .map(|done| done.map(drop))
                .boxed()
        }

        /// Deletes every session (signing out everywhere); how many there were.
        fn delete_all_sessions(&self) -> BoxFuture<'_, Result<u64, StoreError>> {
            self.execute(Lane::Person, sql::DELETE_ALL_SESSIONS, vec![])
        }

        /// Deletes the sessions that have ended by `cutoffs`; how many.
        fn delete_ended_sessions(
            &self,
            cutoffs: SessionCutoffs,
        ) -> BoxFuture<'_, Result<u64, StoreError>> {
            let values = vec![cutoffs.idle_since.into(), cutoffs.signed_in_since.into()];
            self.execute(Lane::Person, sql::DELETE_ENDED_SESSIONS, values)
        }
    }
}

on_every_database! {
    /// Secrets every instance sharing the database signs with (`spam::FormTokens`' key).
    pub trait SiteKeys: Send + Sync {
        /// The key named `name`: `candidate`, stored, unless one was stored before (by this or
        /// another instance), which is then the answer.
        fn site_key(
            &self,
            name: &'static str,
            candidate: String,
        ) -> BoxFuture<'_, Result<String, StoreError>> {
            self.run(Lane::Person, false, move |c| {
                async move {
                    c.execute(sql::KEEP_KEY, &[name.into(), candidate.into()])
                        .await?;
                    let rows = c.query(sql::KEY, &[name.into()]).await?;
                    rows.first()
                        .map(|row| row.required("value"))
                        .unwrap_or_else(|| {
                            Err(StoreError::Database("the site key was not kept".into()))
                        })
                }
                .boxed()
            })
        }
    }
}

/// `%text%` in lower case with `LIKE`'s own characters escaped, so `_` and `%` match themselves.
fn contains_pattern(text: &str) -> String {
    let mut pattern = String::from("%");
    for c in text.to_lowercase().chars() {
        if matches!(c, '%' | '_' | '\\') {
            pattern.push('\\');
        }
        pattern.push(c);
    }
    pattern.push('%');
    pattern
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_email_search_matches_like_characters_literally() {
        assert_eq!(contains_pattern("Ana_B%"), "%ana\\_b\\%%");
        assert_eq!(contains_pattern("x\\y"), "%x\\\\y%");
    }
}
