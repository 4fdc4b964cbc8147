//! Group commit on PostgreSQL: quotes that arrive together, each queued on its channels, are
//! stored by one statement (`insert_quote::INSERT_QUOTES`), so they share one round trip and one
//! commit, as SQLite's writer thread shares one transaction among them.
//!
//! A few writer tasks, each on a connection of its own, take turns at the queue: one waits for
//! quotes and takes every one waiting, stores them, and answers each only once the statement has
//! committed, while the next writer gathers the quotes arriving meanwhile. A quote seen before
//! (its idempotency key, or its call and tool call) is skipped by the statement alone and looked
//! up afterwards, so its neighbours are stored; a batch that fails for another reason than the
//! connection is retried quote by quote, so one bad quote fails alone. A batch with leads that
//! spend form tokens spends them first, in the same transaction, so a failed batch spends none.

use std::borrow::Cow;
use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use deadpool_postgres::{GenericClient, Object, Pool};
use tokio::sync::{mpsc, oneshot};
use tokio::task::JoinHandle;
use tokio_postgres::types::ToSql;

use super::{classify, pool_error};
use crate::store::consent::{self, Head, Link, NewConsent};
use crate::store::do_not_contact;
use crate::store::insert_quote::{columns, QuoteValues, INSERT_QUOTES};
use crate::store::lead_columns::ID;
use crate::store::lead_queries::EARLIER_QUOTE;
use crate::store::options::StoreOptions;
use crate::store::queries;
use crate::store::rows;
use crate::store::sql::NamedRow;
use crate::store::{format_timestamp, Inserted, NewQuote, StoreError, REUSED_TOKEN};

pub(super) const LOCK_CONSENT_CHAIN: &str = "SELECT pg_advisory_xact_lock($1)";
/// `queries::INSERT_NOTICE_TEXT` for many texts: $1 their SHA-256s, $2 the texts.
const INSERT_NOTICE_TEXTS: &str = "INSERT INTO notice_texts (sha256, text)
    SELECT * FROM unnest($1::text[], $2::text[])
    ON CONFLICT DO NOTHING";
/// `queries::INSERT_CONSENT` for many records: one array per column.
const INSERT_CONSENTS: &str = "INSERT INTO consent_records
        (seq, lead_id, channel, page, language, at, client, user_agent, notice_sha256, prev_hash,
        phone_consent, phone_disclosure_sha256, hash_form, email, phone, may_call, hash)
    SELECT * FROM unnest($1::bigint[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[],
        $7::text[], $8::text[], $9::text[], $10::text[], $11::text[], $12::text[], $13::bigint[],
        $14::text[], $15::text[], $16::text[], $17::text[])";

/// $1 the tokens' keys, $2 when each was issued: the keys no lead had spent before.
const SPEND_FORM_TOKENS: &str = "INSERT INTO spent_form_tokens (token, issued_at)
    SELECT * FROM unnest($1::text[], $2::text[])
    ON CONFLICT DO NOTHING
    RETURNING token";

/// Writers, each holding a connection from the pool: while one waits for its commit, the next
/// gathers the following batch.
pub(super) const WRITERS: usize = 4;
/// Most quotes stored by one statement.
const MAX_BATCH: usize = 512;

struct Job {
    quote: NewQuote,
    done: oneshot::Sender<Result<Inserted, StoreError>>,
}

type Queue = Arc<tokio::sync::Mutex<mpsc::UnboundedReceiver<Job>>>;

/// Every new quote's `queued_channels` (`StoreOptions::queued_channels`).
type Queued = Arc<Option<String>>;

pub(super) struct GroupCommit {
    queue: Mutex<Option<mpsc::UnboundedSender<Job>>>,
    writers: Mutex<Vec<JoinHandle<()>>>,
}

impl GroupCommit {
    pub(super) fn start(pool: &Pool, options: StoreOptions) -> GroupCommit {
        let (queue, jobs) = mpsc::unbounded_channel();
        let jobs: Queue = Arc::new(tokio::sync::Mutex::new(jobs));
        let queued: Queued = Arc::new(options.queued_channels());
        let writers = (0..WRITERS)
            .map(|_| {
                tokio::spawn(write_loop(
                    pool.clone(),
                    Arc::clone(&jobs),
                    Arc::clone(&queued),
                ))
            })
            .collect();
        GroupCommit {
            queue: Mutex::new(Some(queue)),
            writers: Mutex::new(writers),
        }
    }

    /// Resolves once the statement holding `quote` has committed.
    pub(super) async fn insert(&self, quote: NewQuote) -> Result<Inserted, StoreError> {
        let (done, result) = oneshot::channel();
        let queued = match &*self.queue.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(queue) => queue.send(Job { quote, done }).is_ok(),
            None => false,
        };
        if !queued {
            return Err(StoreError::Unavailable("the store is shutting down".into()));
        }
        result
            .await
            .unwrap_or_else(|_| Err(StoreError::Unavailable("the writer stopped".into())))
    }

    /// Stops taking quotes and waits until every queued one is committed and answered.
    pub(super) async fn close(&self) {
        self.queue.lock().unwrap_or_else(|p| p.into_inner()).take();
        let writers = std::mem::take(&mut *self.writers.lock().unwrap_or_else(|p| p.into_inner()));
        for writer in writers {
            let _ = writer.await;
        }
    }
}

async fn write_loop(pool: Pool, jobs: Queue, queued: Queued) {
    let mut connection: Option<Object> = None;
    let mut batch = Vec::with_capacity(MAX_BATCH);
    loop {
        let taken = jobs.lock().await.recv_many(&mut batch, MAX_BATCH).await;
        if taken == 0 {
            return;
        }
        // A connection the server dropped (a restart, an outage) is replaced by the next batch.
        if connection.as_ref().is_some_and(|c| c.is_closed()) {
            connection = None;
        }
        let client = match connection {
            Some(ref mut client) => client,
            None => match pool.get().await {
                Ok(client) => connection.insert(client),
                Err(error) => {
                    let error = pool_error(error);
                    for job in batch.drain(..) {
                        let _ = job.done.send(Err(error.clone()));
                    }
                    continue;
                }
            },
        };
        commit(client, queued.as_deref(), std::mem::take(&mut batch)).await;
    }
}

async fn commit(client: &mut Object, queued: Option<&str>, mut batch: Vec<Job>) {
    // Two batches that both repeat two keys would each wait for the other's row if they took
    // them in opposite orders (a deadlock PostgreSQL breaks after a second); in one order they
    // cannot.
    batch.sort_by(|a, b| a.quote.unique_keys().cmp(&b.quote.unique_keys()));
    let quotes: Vec<&NewQuote> = batch.iter().map(|job| &job.quote).collect();
    match insert(client, queued, &quotes).await {
        Ok(outcomes) => {
            for (job, outcome) in batch.into_iter().zip(outcomes) {
                let _ = job.done.send(Ok(outcome));
            }
        }
        // Not the connection: one quote may be at fault, and must not fail its neighbours.
        Err(StoreError::Database(_)) if batch.len() > 1 => {
            for job in batch {
                let result = insert(client, queued, &[&job.quote])
                    .await
                    .map(|outcomes| outcomes.into_iter().next().unwrap_or(Inserted::New));
                let _ = job.done.send(result);
            }
        }
        Err(error) => {
            for job in batch {
                let _ = job.done.send(Err(error.clone()));
            }
        }
    }
}

/// Stores `quotes` in one statement (after spending their form tokens, in one transaction with
/// it); then each one it skipped is compared with the earlier row.
async fn insert(
    client: &mut Object,
    queued: Option<&str>,
    quotes: &[&NewQuote],
) -> Result<Vec<Inserted>, StoreError> {
    if quotes
        .iter()
        .all(|quote| quote.token_to_spend().is_none() && quote.consent.is_none())
    {
        return insert_quotes(&*client, queued, quotes).await;
    }
    store_notice_texts(&*client, quotes).await?;
    let tx = client.transaction().await.map_err(classify)?;
    let quotes = spend_form_tokens(&tx, quotes).await?;
    let quotes: Vec<&NewQuote> = quotes.iter().map(|quote| &**quote).collect();
    let outcomes = insert_quotes(&tx, queued, &quotes).await?;
    let new = || {
        let stored = quotes.iter().zip(&outcomes);
        stored
            .filter(|(_, outcome)| **outcome == Inserted::New)
            .map(|(quote, _)| *quote)
    };
    let consents = new().filter_map(|quote| Some((quote, quote.consent.as_ref()?)));
    append_consents(&tx, consents.collect()).await?;
    for (phone, email) in new().filter_map(do_not_contact::lifted_by) {
        tx.execute(do_not_contact::LIFT, &[&phone, &email])
            .await
            .map_err(classify)?;
    }
    tx.commit().await.map_err(classify)?;
    Ok(outcomes)
}

/// Stores the texts the quotes' consent records will refer to, each committed at once and
/// before the quotes' transaction: a text is kept under its SHA-256 whether or not a record
/// refers to it, and a new text inserted in two transactions that then both wait for the
/// chain's lock would make each wait for the other's row.
async fn store_notice_texts(
    client: &impl GenericClient,
    quotes: &[&NewQuote],
) -> Result<(), StoreError> {
    let mut texts: Vec<&str> = quotes
        .iter()
        .filter_map(|quote| quote.consent.as_ref())
        .flat_map(NewConsent::texts)
        .collect();
    if texts.is_empty() {
        return Ok(());
    }
    // A batch's quotes mostly share one notice: each distinct text is hashed once.
    texts.sort_unstable();
    texts.dedup();
    let keys: Vec<String> = texts.iter().map(consent::sha256_hex).collect();
    let statement = client
        .prepare_cached(INSERT_NOTICE_TEXTS)
        .await
        .map_err(classify)?;
    client
        .execute(&statement, &[&keys, &texts])
        .await
        .map_err(classify)?;
    Ok(())
}

/// Appends the stored quotes' consent records to the chain, in order, under a lock every
/// instance takes for it until the commit: one chain, however many writers. The writers take
/// turns from the lock to the commit, so that stretch is kept to two round trips and the commit.
async fn append_consents(
    tx: &deadpool_postgres::Transaction<'_>,
    stored: Vec<(&NewQuote, &NewConsent)>,
) -> Result<(), StoreError> {
    if stored.is_empty() {
        return Ok(());
    }
    let lock = tx
        .prepare_cached(LOCK_CONSENT_CHAIN)
        .await
        .map_err(classify)?;
    let read_head = tx
        .prepare_cached(queries::CONSENT_HEAD)
        .await
        .map_err(classify)?;
    let insert_links = tx.prepare_cached(INSERT_CONSENTS).await.map_err(classify)?;
    // Sent together, run in order: the head is read once the lock is granted, by a statement
    // whose snapshot then holds the last holder's commit.
    let (_, head) = futures_util::try_join!(
        tx.execute(&lock, &[&consent::CHAIN_LOCK]),
        tx.query_opt(&read_head, &[])
    )
    .map_err(classify)?;
    let mut head = head.as_ref().map(Head::read).transpose()?;
    let mut links = Vec::with_capacity(stored.len());
    for (quote, consent) in stored {
        let link = quote.link_after(head.take(), consent);
        let hash = link.hash();
        head = Some(Head {
            seq: link.seq,
            sha256: hash.clone(),
        });
        links.push((link, hash));
    }
    let seqs: Vec<i64> = links.iter().map(|(l, _)| l.seq).collect();
    let forms: Vec<i64> = links.iter().map(|(l, _)| l.hash_form).collect();
    let text = |field: fn(&Link) -> Option<&str>| -> Vec<Option<&str>> {
        links.iter().map(|(l, _)| field(l)).collect()
    };
    let hashes: Vec<&str> = links.iter().map(|(_, h)| h.as_str()).collect();
    tx.execute(
        &insert_links,
        &[
            &seqs,
            &text(|l| Some(&l.lead_id)),
            &text(|l| Some(&l.channel)),
            &text(|l| Some(&l.page)),
            &text(|l| Some(&l.language)),
            &text(|l| Some(&l.at)),
            &text(|l| l.client.as_deref()),
            &text(|l| l.user_agent.as_deref()),
            &text(|l| l.notice_sha256.as_deref()),
            &text(|l| Some(&l.prev_hash)),
            &text(|l| l.phone_consent.as_deref()),
            &text(|l| l.phone_disclosure_sha256.as_deref()),
            &forms,
            &text(|l| l.email.as_deref()),
            &text(|l| l.phone.as_deref()),
            &text(|l| l.may_call.as_deref()),
            &hashes,
        ],
    )
    .await
    .map_err(classify)?;
    Ok(())
}

/// `quotes`, each lead whose form token was spent before (by an earlier lead, or by one before
/// it in this batch) held as spam.
async fn spend_form_tokens<'q>(
    tx: &deadpool_postgres::Transaction<'_>,
    quotes: &[&'q NewQuote],
) -> Result<Vec<Cow<'q, NewQuote>>, StoreError> {
    let (keys, issued): (Vec<&str>, Vec<String>) = quotes
        .iter()
        .filter_map(|quote| quote.token_to_spend())
        .map(|token| (token.key.as_str(), format_timestamp(token.issued)))
        .unzip();
    if keys.is_empty() {
        return Ok(quotes.iter().map(|&quote| Cow::Borrowed(quote)).collect());
    }
    let statement = tx
        .prepare_cached(SPEND_FORM_TOKENS)
        .await
        .map_err(classify)?;
    let mut unspent = tx
        .query(&statement, &[&keys, &issued])
        .await
        .map_err(classify)?
        .iter()
        .map(|row| row.required("token"))
        .collect::<Result<HashSet<String>, _>>()?;
    Ok(quotes
        .iter()
        .map(|&quote| match quote.token_to_spend() {
            // The first lead with a key spends it; the statement inserted it once.
            Some(token) if !unspent.remove(&token.key) => {
                Cow::Owned(quote.clone().with_spam(Some(REUSED_TOKEN)))
            }
            _ => Cow::Borrowed(quote),
        })
        .collect())
}

async fn insert_quotes(
    client: &impl GenericClient,
    queued: Option<&str>,
    quotes: &[&NewQuote],
) -> Result<Vec<Inserted>, StoreError> {
    let values: Vec<QuoteValues> = quotes
        .iter()
        .map(|quote| QuoteValues::new(quote, queued))
        .collect();
    let arrays = columns(&values);
    let params: Vec<&(dyn ToSql + Sync)> = arrays
        .iter()
        .map(|array| array as &(dyn ToSql + Sync))
        .collect();
    let statement = client
        .prepare_cached(&INSERT_QUOTES)
        .await
        .map_err(classify)?;
    let stored = client
        .query(&statement, &params)
        .await
        .map_err(classify)?
        .iter()
        .map(|row| row.required(ID))
        .collect::<Result<HashSet<String>, _>>()?;
    let mut outcomes = Vec::with_capacity(quotes.len());
    for (quote, values) in quotes.iter().zip(&values) {
        if stored.contains(values.id()) {
            outcomes.push(Inserted::New);
            continue;
        }
        let earlier = client
            .prepare_cached(EARLIER_QUOTE)
            .await
            .map_err(classify)?;
        let keys = quote.unique_keys();
        let params = keys.each_ref().map(|key| key as &(dyn ToSql + Sync));
        let row = client
            .query_one(&earlier, &params)
            .await
            .map_err(classify)?;
        outcomes.push(rows::earlier(quote, &row)?);
    }
    Ok(outcomes)
}
