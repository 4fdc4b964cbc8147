//! The embedded SQLite store.
//!
//! One writer thread owns the write connection and commits every insert that is waiting in one
//! transaction (group commit): with `synchronous=FULL` each commit costs an fsync, so batching is
//! what lets durable writes keep up with many concurrent requests. A caller is answered only after
//! the transaction holding its row has committed. Reads use their own connection (WAL lets them
//! run beside the writer).

pub mod backup;
pub(in crate::store) mod connection;
pub(in crate::store) mod parameters;
pub(super) mod table_copy;

use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::sync::{Arc, Mutex, RwLock};
use std::thread::JoinHandle;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rusqlite::{params, Connection, OpenFlags, ToSql, Transaction, MAIN_DB};
use time::OffsetDateTime;
use tokio::sync::oneshot;

use super::consent::{self, Head, NewConsent};
use super::do_not_contact;
use super::insert_quote::{QuoteValues, INSERT_QUOTE};
use super::lead_queries;
use super::migrations::{check_version, migrate};
use super::options::{StoreOptions, DATABASE_WAIT};
use super::outbox::delivery_record;
use super::queries;
use super::quotes::InsertQuote;
use super::rows::{self, pending_lead};
use super::sql::Value;
use super::timestamp::format_timestamp;
use super::written_consent::insert_values;
use super::{
    Cause, Channel, DeliveryOutcome, Inserted, NewQuote, Outbox, PendingLead, QuoteStore,
    StoreError, REUSED_TOKEN,
};

/// Most inserts committed together in one transaction (group commit).
const MAX_WRITE_BATCH: usize = 512;
/// How long a write waits for another process holding the database (a backup, `sqlite3` open
/// by hand) before the request is told the database is unavailable (503, retry).
const BUSY_TIMEOUT: std::time::Duration = DATABASE_WAIT;
/// How long the health check waits for the write lock before reporting it held.
const HEALTH_LOCK_WAIT: std::time::Duration = std::time::Duration::from_millis(500);

/// The quotes and the outbox's changes go through the writer thread, so they share its group
/// commits. The rarer writes of the rules over `store::sql` (the inbox, the call reports,
/// retention) take the write lock on their lane's connection (`sqlite/connection.rs`).
enum Write {
    /// Boxed: a quote with its consent record is many times the size of the other writes.
    Quote(Box<NewQuote>),
    /// One statement of a rule written once (`outbox::delivery_record`).
    Statement {
        sql: &'static str,
        values: Vec<Value>,
    },
    /// Takes up to `limit` quotes still queued on their own row into the outbox (`queued.rs`).
    TakeQueued { limit: usize },
}

/// What one write did: a quote's insert (new or an earlier one), or anything else.
enum Applied {
    Quote(Inserted),
    Done,
}

struct WriteJob {
    write: Write,
    done: oneshot::Sender<Result<Applied, StoreError>>,
}

/// The outbox workers run at the idle CPU priority (`forward/background.rs`), so nothing the
/// request path waits for is locked by them: writes take the sender's lock for reading only,
/// and the workers read on a connection of their own.
pub struct SqliteStore {
    writer: RwLock<Option<mpsc::Sender<WriteJob>>>,
    writer_thread: Mutex<Option<JoinHandle<()>>>,
    reader: Arc<Mutex<Connection>>,
    outbox_reader: Arc<Mutex<Connection>>,
    /// How the rules over `store::sql` behave (`sqlite/connection.rs`).
    options: StoreOptions,
}

/// A lock another connection holds is temporary; anything else is a failure of ours.
impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        match e.sqlite_error_code() {
            Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
                StoreError::Unavailable(Cause::of(e))
            }
            _ => StoreError::Database(Cause::of(e)),
        }
    }
}

/// `target` is a file path, or a `file:` URI such as `file:quotes.db?cache=shared`. The server
/// writes every quote, so a database it could only read (a `mode=ro` URI, a file it may not
/// write) stops it at start rather than failing every post.
fn connect(target: &str) -> Result<Connection, StoreError> {
    if !target.starts_with("file:") {
        if let Some(dir) = Path::new(target)
            .parent()
            .filter(|d| !d.as_os_str().is_empty())
        {
            std::fs::create_dir_all(dir).map_err(|e| {
                StoreError::Unavailable(Cause::new(format!("{}: {e}", dir.display()), e))
            })?;
        }
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(target, flags)
        .map_err(|e| StoreError::Unavailable(Cause::of(e)))?;
    if conn.is_readonly(MAIN_DB)? {
        return Err(StoreError::Unusable(format!(
            "the database {} is read-only (a mode=ro URI, or a file the server may not write), and the server stores every quote in it: give it a writable one (`backend export` reads a read-only one)",
            file_named(target).display()
        ).into()));
    }
    conn.busy_timeout(BUSY_TIMEOUT)?;
    // WAL lets the reader work beside the writer; FULL makes every commit survive power loss.
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    // The schema's REFERENCES hold only with this on: the bundled build's default, said here so
    // no build of SQLite can turn it off.
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// For reading only: no file, directory, journal mode or migration is created, and a missing
/// file is an error that names it.
fn connect_read_only(target: &str) -> Result<Connection, StoreError> {
    let conn = open_for_reading(target)?;
    let version: usize = conn
        .pragma_query_value(None, "user_version", |row| row.get(0))
        .map_err(|e| cannot_read(target, e))?;
    check_version(version, &file_named(target).display().to_string())?;
    Ok(conn)
}

/// `target` opened read-only, whatever its schema version (a backup copies any).
fn open_for_reading(target: &str) -> Result<Connection, StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(target, flags).map_err(|e| cannot_read(target, e))?;
    conn.busy_timeout(BUSY_TIMEOUT)?;
    Ok(conn)
}

/// A database that cannot be read, named: missing, or why not.
fn cannot_read(target: &str, e: rusqlite::Error) -> StoreError {
    let file = file_named(target);
    let message = if file.exists() {
        format!("cannot read the database {}: {e}", file.display())
    } else {
        format!("no database at {}", file.display())
    };
    StoreError::Unusable(Cause::new(message, e))
}

/// The file `target` names, absolute, for messages: the path itself, or the path part of a
/// `file:` URI (`file:///var/lib/quotes/quotes.db?mode=ro`).
fn file_named(target: &str) -> PathBuf {
    let path = match target.strip_prefix("file:") {
        Some(uri) => {
            let path = uri.split(['?', '#']).next().unwrap_or_default();
            path.strip_prefix("//localhost")
                .or_else(|| path.strip_prefix("//"))
                .unwrap_or(path)
        }
        None => target,
    };
    std::path::absolute(path).unwrap_or_else(|_| PathBuf::from(path))
}

impl SqliteStore {
    pub async fn open(target: &str, options: StoreOptions) -> Result<SqliteStore, StoreError> {
        let target = target.to_owned();
        tokio::task::spawn_blocking(move || SqliteStore::open_blocking(&target, options))
            .await
            .map_err(|e| StoreError::Unavailable(Cause::of(e)))?
    }

    /// See `store::open_read_only`: a reader and no writer.
    pub async fn open_read_only(target: &str) -> Result<SqliteStore, StoreError> {
        let target = target.to_owned();
        let reader = tokio::task::spawn_blocking(move || connect_read_only(&target))
            .await
            .map_err(|e| StoreError::Unavailable(Cause::of(e)))??;
        let reader = Arc::new(Mutex::new(reader));
        Ok(SqliteStore {
            writer: RwLock::new(None),
            writer_thread: Mutex::new(None),
            outbox_reader: Arc::clone(&reader),
            reader,
            options: StoreOptions::default(),
        })
    }

    fn open_blocking(target: &str, options: StoreOptions) -> Result<SqliteStore, StoreError> {
        let mut write_conn = connect(target)?;
        // Which file a relative DATABASE_URL (or the default) ended up as, so it is never a guess.
        tracing::info!(
            path = write_conn.path().unwrap_or(target),
            "SQLite database opened"
        );
        migrate(&mut write_conn)?;
        let reader = connect(target)?;
        let outbox_reader = connect(target)?;
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_loop(write_conn, rx, options))
            .map_err(|e| StoreError::Unavailable(Cause::of(e)))?;
        Ok(SqliteStore {
            writer: RwLock::new(Some(tx)),
            writer_thread: Mutex::new(Some(thread)),
            reader: Arc::new(Mutex::new(reader)),
            outbox_reader: Arc::new(Mutex::new(outbox_reader)),
            options,
        })
    }

    /// Hands `write` to the writer thread; resolves once its transaction has committed.
    fn write(&self, write: Write) -> BoxFuture<'static, Result<Applied, StoreError>> {
        let (done, result) = oneshot::channel();
        let sent = match &*self.writer.read().unwrap_or_else(|p| p.into_inner()) {
            Some(writer) => writer.send(WriteJob { write, done }).is_ok(),
            None => false,
        };
        async move {
            if !sent {
                return Err(StoreError::Unavailable(
                    "the store takes no writes (opened read-only, or shutting down)".into(),
                ));
            }
            result
                .await
                .unwrap_or_else(|_| Err(StoreError::Unavailable("the writer stopped".into())))
        }
        .boxed()
    }
}

fn read_on<T: Send + 'static>(
    connection: &Arc<Mutex<Connection>>,
    query: impl FnOnce(&mut Connection) -> Result<T, StoreError> + Send + 'static,
) -> BoxFuture<'static, Result<T, StoreError>> {
    let connection = Arc::clone(connection);
    async move {
        tokio::task::spawn_blocking(move || {
            let mut conn = connection
                .lock()
                .unwrap_or_else(|poisoned| poisoned.into_inner());
            query(&mut conn)
        })
        .await
        .map_err(|e| StoreError::Database(Cause::of(e)))?
    }
    .boxed()
}

fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<WriteJob>, options: StoreOptions) {
    // Every new quote's `queued_channels` (`StoreOptions::queued_channels`).
    let queued = options.queued_channels();
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_WRITE_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match commit(
            &mut conn,
            batch.iter().map(|job| &job.write),
            queued.as_deref(),
        ) {
            Ok(outcomes) => batch.into_iter().zip(outcomes).for_each(|(job, outcome)| {
                let _ = job.done.send(Ok(outcome));
            }),
            // One bad row must not fail its neighbours: retry each on its own. A held lock is
            // not a bad row; retrying would make every one of them wait the busy timeout again.
            Err(StoreError::Database(_)) if batch.len() > 1 => batch.into_iter().for_each(|job| {
                let result = commit(&mut conn, std::iter::once(&job.write), queued.as_deref())
                    .map(|outcomes| outcomes.into_iter().next().unwrap_or(Applied::Done));
                let _ = job.done.send(result);
            }),
            Err(e) => batch.into_iter().for_each(|job| {
                let _ = job.done.send(Err(e.clone()));
            }),
        }
    }
}

fn commit<'a>(
    conn: &mut Connection,
    writes: impl Iterator<Item = &'a Write>,
    queued_channels: Option<&str>,
) -> Result<Vec<Applied>, StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let outcomes = writes
        .map(|write| apply(&tx, write, queued_channels))
        .collect::<Result<Vec<_>, _>>()?;
    tx.commit()?;
    Ok(outcomes)
}

fn apply(
    tx: &Transaction,
    write: &Write,
    queued_channels: Option<&str>,
) -> Result<Applied, StoreError> {
    let run = |sql: &str, values: &[&dyn ToSql]| parameters::execute(tx, sql, values);
    match write {
        Write::Quote(quote) => {
            let reused;
            let quote = match quote.token_to_spend() {
                Some(token)
                    if run(
                        queries::SPEND_FORM_TOKEN,
                        params![token.key, format_timestamp(token.issued)],
                    )? == 0 =>
                {
                    reused = quote.clone().with_spam(Some(REUSED_TOKEN));
                    &reused
                }
                _ => quote,
            };
            let values = QuoteValues::new(quote, queued_channels);
            let insert = values.values();
            if run(&INSERT_QUOTE, &insert.each_ref().map(|v| v as &dyn ToSql))? == 0 {
                let keys = quote.unique_keys().map(Value::from);
                let earlier = connection::records(tx, lead_queries::EARLIER_QUOTE, &keys)?;
                let earlier = earlier
                    .first()
                    .ok_or(rusqlite::Error::QueryReturnedNoRows)?;
                return Ok(Applied::Quote(rows::earlier(quote, earlier)?));
            }
            if let Some(consent) = &quote.consent {
                append_consent(tx, quote, consent)?;
            }
            if let Some((phone, email)) = do_not_contact::lifted_by(quote) {
                run(do_not_contact::LIFT, params![phone, email])?;
            }
        }
        Write::Statement { sql, values } => {
            run(sql, &connection::bound(values))?;
        }
        Write::TakeQueued { limit } => {
            let leads = connection::records(tx, lead_queries::QUEUED_LEADS, &[(*limit).into()])?;
            let leads: Vec<_> = leads
                .iter()
                .map(rows::queued_lead)
                .collect::<Result<_, _>>()?;
            for lead in &leads {
                for channel in &lead.channels {
                    run(
                        queries::INSERT_OUTBOX,
                        params![lead.id, lead.created_at, channel.as_str()],
                    )?;
                }
                run(lead_queries::CLEAR_QUEUED, params![lead.id])?;
            }
            return Ok(Applied::Done);
        }
    }
    Ok(Applied::Quote(Inserted::New))
}

/// Appends `quote`'s consent record to the chain (the writer thread is the chain's one writer).
fn append_consent(
    tx: &Transaction,
    quote: &NewQuote,
    consent: &NewConsent,
) -> Result<(), StoreError> {
    for text in consent.texts() {
        parameters::execute(
            tx,
            queries::INSERT_NOTICE_TEXT,
            params![consent::sha256_hex(text), text],
        )?;
    }
    // Read in place, not as a `connection::records` row: this runs for every quote.
    let head = parameters::query(tx, queries::CONSENT_HEAD, &[], |row| {
        Ok(Head {
            seq: row.get("seq")?,
            sha256: row.get("hash")?,
        })
    })?;
    let link = quote.link_after(head.into_iter().next(), consent);
    let values = insert_values(&link);
    parameters::execute(tx, queries::INSERT_CONSENT, &connection::bound(&values))?;
    Ok(())
}

impl InsertQuote for SqliteStore {
    fn insert_quote(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>> {
        self.write(Write::Quote(Box::new(quote)))
            .map(|r| {
                r.map(|applied| match applied {
                    Applied::Quote(inserted) => inserted,
                    Applied::Done => Inserted::New,
                })
            })
            .boxed()
    }
}

impl Outbox for SqliteStore {
    fn take_due_deliveries(
        &self,
        channel: Channel,
        now: OffsetDateTime,
        limit: usize,
    ) -> BoxFuture<'_, Result<Vec<PendingLead>, StoreError>> {
        let taken = self.write(Write::TakeQueued { limit });
        // On the outbox workers' own connection (`SqliteStore`).
        let due = read_on(&self.outbox_reader, move |conn| {
            let values = [now.into(), limit.into(), channel.as_str().into()];
            let due = connection::records(conn, &lead_queries::due_deliveries(), &values)?;
            due.iter().map(|row| pending_lead(row, channel)).collect()
        });
        async move {
            taken.await?;
            due.await
        }
        .boxed()
    }

    fn record_delivery(
        &self,
        lead: &PendingLead,
        outcome: DeliveryOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let (sql, values) = delivery_record(lead, outcome, OffsetDateTime::now_utc());
        self.write(Write::Statement { sql, values })
            .map(|r| r.map(drop))
            .boxed()
    }
}

impl QuoteStore for SqliteStore {
    /// Answers, and can take the write lock: a lock another process holds (or a file that can
    /// no longer be written) means writes cannot commit, which monitoring must see even though
    /// reads still work. The server never opens a read-only database, so any failure counts.
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        read_on(&self.reader, |conn| {
            conn.query_row("SELECT 1", [], |_| Ok(()))
                .map_err(|e| StoreError::Unavailable(Cause::of(e)))?;
            conn.busy_timeout(HEALTH_LOCK_WAIT)?;
            let probe = conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;");
            conn.busy_timeout(BUSY_TIMEOUT)?;
            Ok(probe?)
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        // Dropping the sender lets the writer drain its queue and return.
        self.writer
            .write()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        let thread = self
            .writer_thread
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .take();
        async move {
            if let Some(thread) = thread {
                let _ = tokio::task::spawn_blocking(move || thread.join()).await;
            }
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::{suite, ListQuery, Quotes};

    /// A store on a new file in `dir`.
    pub(super) async fn store(dir: &tempfile::TempDir, options: StoreOptions) -> SqliteStore {
        let path = dir.path().join("q.db");
        SqliteStore::open(path.to_str().unwrap(), options)
            .await
            .unwrap()
    }

    /// Runs one case of the shared store suite on a fresh SQLite file, and closes the store.
    macro_rules! suite_case {
        ($name:ident, $options:expr) => {
            #[tokio::test]
            async fn $name() {
                let dir = tempfile::tempdir().unwrap();
                let store: Arc<dyn QuoteStore> = Arc::new(store(&dir, $options).await);
                suite::$name(Arc::clone(&store)).await;
                store.close().await;
            }
        };
    }

    suite::for_each_case!(suite_case);

    #[test]
    fn every_connection_enforces_the_schemas_references() {
        let dir = tempfile::tempdir().unwrap();
        let conn = connect(dir.path().join("q.db").to_str().unwrap()).unwrap();
        let enforced: bool = conn
            .pragma_query_value(None, "foreign_keys", |row| row.get(0))
            .unwrap();
        assert!(enforced, "PRAGMA foreign_keys is off");
    }

    #[tokio::test]
    async fn the_server_refuses_a_read_only_database_which_the_reader_opens() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.db");
        let quotes = store(&dir, StoreOptions::default()).await;
        quotes.insert(suite::web("a@example.com")).await.unwrap();
        quotes.close().await;
        let read_only = format!("file:{}?mode=ro", path.display());
        let Err(StoreError::Unusable(message)) =
            SqliteStore::open(&read_only, StoreOptions::default()).await
        else {
            panic!("the server opened a read-only database");
        };
        let message = message.to_string();
        assert!(
            message.starts_with(&format!("the database {} is read-only", path.display())),
            "{message}"
        );
        for target in [read_only, path.display().to_string()] {
            let reader = SqliteStore::open_read_only(&target).await.unwrap();
            assert_eq!(reader.list_since(None).await.unwrap().len(), 1);
            assert!(reader.insert(suite::web("b@example.com")).await.is_err());
        }
    }

    async fn message(target: &str) -> String {
        match SqliteStore::open_read_only(target).await {
            Err(StoreError::Unusable(message)) => message.to_string(),
            Err(other) => panic!("{other:?}"),
            Ok(_) => panic!("{target} opened"),
        }
    }

    #[tokio::test]
    async fn the_reader_creates_nothing_and_names_what_it_cannot_read() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none/q.db");
        assert_eq!(
            message(missing.to_str().unwrap()).await,
            format!("no database at {}", missing.display())
        );
        assert!(!dir.path().join("none").exists(), "no directory was made");
        let empty = dir.path().join("empty.db");
        Connection::open(&empty).unwrap();
        assert_eq!(
            message(&format!("file:{}", empty.display())).await,
            format!(
                "{} holds no quote requests (it has no schema): is it the server's database?",
                empty.display()
            )
        );
        let old = dir.path().join("old.db");
        Connection::open(&old)
            .unwrap()
            .pragma_update(None, "user_version", 1)
            .unwrap();
        assert!(message(old.to_str().unwrap())
            .await
            .contains("has schema version 1 and this release reads"));
    }

    #[tokio::test]
    async fn a_stored_value_the_typed_row_cannot_hold_is_a_clear_error() {
        let dir = tempfile::tempdir().unwrap();
        let quotes = store(&dir, StoreOptions::default()).await;
        quotes.insert(suite::web("a@example.com")).await.unwrap();
        let edited = Connection::open(dir.path().join("q.db")).unwrap();
        edited
            .execute("UPDATE quote_requests SET created_at = 'yesterday'", [])
            .unwrap();
        let Err(StoreError::Database(message)) = quotes.list(ListQuery::default()).await else {
            panic!("an unreadable row was listed");
        };
        let message = message.to_string();
        assert!(
            message.ends_with(r#"the stored created_at "yesterday" cannot be read"#),
            "{message}"
        );
    }
}
