//! The embedded SQLite store.
//!
//! One writer thread owns the write connection and commits every insert that is waiting in one
//! transaction (group commit): with `synchronous=FULL` each commit costs an fsync, so batching is
//! what lets durable writes keep up with many concurrent requests. A caller is answered only after
//! the transaction holding its row has committed. Reads use their own connection (WAL lets them
//! run beside the writer).

use std::path::Path;
use std::sync::mpsc;
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rusqlite::{params, Connection, OpenFlags};
use tokio::sync::oneshot;

use super::migrations::migrate;
use super::{NewQuote, QuoteStore, StoreError, StoredQuote};
use crate::limits::MAX_WRITE_BATCH;
use crate::store::model::format_timestamp;

const BUSY_TIMEOUT_MS: u32 = 5_000;

struct WriteJob {
    quote: NewQuote,
    done: oneshot::Sender<Result<(), StoreError>>,
}

pub struct SqliteStore {
    writer: Mutex<Option<mpsc::Sender<WriteJob>>>,
    writer_thread: Mutex<Option<JoinHandle<()>>>,
    reader: Arc<Mutex<Connection>>,
}

impl From<rusqlite::Error> for StoreError {
    fn from(e: rusqlite::Error) -> StoreError {
        StoreError::Database(e.to_string())
    }
}

/// `target` is a file path, or a `file:` URI such as `file:quotes.db?mode=ro`.
fn connect(target: &str) -> Result<Connection, StoreError> {
    if !target.starts_with("file:") {
        if let Some(dir) = Path::new(target).parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir)
                .map_err(|e| StoreError::Unavailable(format!("{}: {e}", dir.display())))?;
        }
    }
    let flags = OpenFlags::SQLITE_OPEN_READ_WRITE
        | OpenFlags::SQLITE_OPEN_CREATE
        | OpenFlags::SQLITE_OPEN_URI
        | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let conn = Connection::open_with_flags(target, flags)
        .map_err(|e| StoreError::Unavailable(e.to_string()))?;
    conn.busy_timeout(std::time::Duration::from_millis(BUSY_TIMEOUT_MS.into()))?;
    // WAL lets the reader work beside the writer; FULL makes every commit survive power loss.
    conn.pragma_update_and_check(None, "journal_mode", "WAL", |_| Ok(()))?;
    conn.pragma_update(None, "synchronous", "FULL")?;
    Ok(conn)
}

impl SqliteStore {
    pub async fn open(target: &str) -> Result<SqliteStore, StoreError> {
        let target = target.to_owned();
        tokio::task::spawn_blocking(move || SqliteStore::open_blocking(&target))
            .await
            .map_err(|e| StoreError::Unavailable(e.to_string()))?
    }

    fn open_blocking(target: &str) -> Result<SqliteStore, StoreError> {
        let mut write_conn = connect(target)?;
        migrate(&mut write_conn)?;
        let reader = connect(target)?;
        let (tx, rx) = mpsc::channel();
        let thread = std::thread::Builder::new()
            .name("sqlite-writer".into())
            .spawn(move || write_loop(write_conn, rx))
            .map_err(|e| StoreError::Unavailable(e.to_string()))?;
        Ok(SqliteStore {
            writer: Mutex::new(Some(tx)),
            writer_thread: Mutex::new(Some(thread)),
            reader: Arc::new(Mutex::new(reader)),
        })
    }

    fn read<T: Send + 'static>(
        &self,
        query: impl FnOnce(&Connection) -> Result<T, StoreError> + Send + 'static,
    ) -> BoxFuture<'static, Result<T, StoreError>> {
        let reader = Arc::clone(&self.reader);
        async move {
            tokio::task::spawn_blocking(move || {
                let conn = reader.lock().unwrap_or_else(|poisoned| poisoned.into_inner());
                query(&conn)
            })
            .await
            .map_err(|e| StoreError::Database(e.to_string()))?
        }
        .boxed()
    }
}

fn write_loop(mut conn: Connection, jobs: mpsc::Receiver<WriteJob>) {
    while let Ok(first) = jobs.recv() {
        let mut batch = vec![first];
        while batch.len() < MAX_WRITE_BATCH {
            match jobs.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        match commit(&mut conn, batch.iter().map(|job| &job.quote)) {
            Ok(()) => batch.into_iter().for_each(|job| {
                let _ = job.done.send(Ok(()));
            }),
            // One bad row must not fail its neighbours: retry each on its own.
            Err(_) if batch.len() > 1 => batch.into_iter().for_each(|job| {
                let result = commit(&mut conn, std::iter::once(&job.quote));
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
    quotes: impl Iterator<Item = &'a NewQuote>,
) -> Result<(), StoreError> {
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    {
        let mut insert = tx.prepare_cached(
            "INSERT INTO quote_requests (id, product, email, source, user_agent, created_at)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        )?;
        for quote in quotes {
            insert.execute(params![
                quote.id.to_string(),
                quote.request.product().as_str(),
                quote.request.email().as_str(),
                quote.source.as_str(),
                quote.user_agent,
                quote.created_at_text(),
            ])?;
        }
    }
    tx.commit()?;
    Ok(())
}

impl QuoteStore for SqliteStore {
    fn insert(&self, quote: NewQuote) -> BoxFuture<'_, Result<(), StoreError>> {
        let (done, result) = oneshot::channel();
        let sent = match &*self.writer.lock().unwrap_or_else(|p| p.into_inner()) {
            Some(writer) => writer.send(WriteJob { quote, done }).is_ok(),
            None => false,
        };
        async move {
            if !sent {
                return Err(StoreError::Unavailable("the store is shutting down".into()));
            }
            result
                .await
                .unwrap_or_else(|_| Err(StoreError::Unavailable("the writer stopped".into())))
        }
        .boxed()
    }

    fn list_since(
        &self,
        since: Option<time::OffsetDateTime>,
    ) -> BoxFuture<'_, Result<Vec<StoredQuote>, StoreError>> {
        let since = since.map(format_timestamp).unwrap_or_default();
        self.read(move |conn| {
            let mut query = conn.prepare_cached(
                "SELECT id, product, email, source, user_agent, created_at FROM quote_requests
                 WHERE created_at >= ?1 ORDER BY created_at, id",
            )?;
            let rows = query.query_map([since], |row| {
                Ok(StoredQuote {
                    id: row.get(0)?,
                    product: row.get(1)?,
                    email: row.get(2)?,
                    source: row.get(3)?,
                    user_agent: row.get(4)?,
                    created_at: row.get(5)?,
                })
            })?;
            Ok(rows.collect::<Result<Vec<_>, _>>()?)
        })
    }

    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        self.read(|conn| {
            conn.query_row("SELECT 1", [], |_| Ok(()))
                .map_err(|e| StoreError::Unavailable(e.to_string()))
        })
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        // Dropping the sender lets the writer drain its queue and return.
        self.writer.lock().unwrap_or_else(|p| p.into_inner()).take();
        let thread = self.writer_thread.lock().unwrap_or_else(|p| p.into_inner()).take();
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
    use crate::store::Source;
    use wasm_core::QuoteRequest;

    fn quote(email: &str) -> NewQuote {
        NewQuote::new(QuoteRequest::parse("family", email).unwrap(), Source::Web, Some("test"))
    }

    #[tokio::test]
    async fn concurrent_inserts_are_all_committed_and_read_back_in_order() {
        let dir = tempfile::tempdir().unwrap();
        let store = Arc::new(SqliteStore::open(dir.path().join("q.db").to_str().unwrap()).await.unwrap());
        let inserts: Vec<_> = (0..200)
            .map(|i| {
                let store = Arc::clone(&store);
                tokio::spawn(async move { store.insert(quote(&format!("p{i}@example.com"))).await })
            })
            .collect();
        for insert in inserts {
            insert.await.unwrap().unwrap();
        }
        let rows = store.list_since(None).await.unwrap();
        assert_eq!(rows.len(), 200);
        assert!(rows.windows(2).all(|w| (&w[0].created_at, &w[0].id) < (&w[1].created_at, &w[1].id)));
        store.ping().await.unwrap();
        store.close().await;
        assert!(store.insert(quote("late@example.com")).await.is_err());
    }

    #[tokio::test]
    async fn a_read_only_database_refuses_writes() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("q.db");
        let store = SqliteStore::open(path.to_str().unwrap()).await.unwrap();
        store.close().await;
        let ro = SqliteStore::open(&format!("file:{}?mode=ro", path.display())).await.unwrap();
        ro.ping().await.unwrap();
        assert!(ro.insert(quote("a@example.com")).await.is_err());
    }
}
