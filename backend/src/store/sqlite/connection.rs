//! `store::sql` on SQLite: the work runs on a blocking thread holding the lane's connection, off
//! the writer thread that group-commits quotes. Its statements are answered at once, so its
//! future is ready when first polled.

use std::sync::Arc;
use std::task::{Context, Poll, Waker};

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rusqlite::types::{FromSql, ToSqlOutput, Value as SqliteValue, ValueRef};
use rusqlite::ToSql;

use super::parameters;
use super::SqliteStore;
use crate::store::options::StoreOptions;
use crate::store::sql::{Connection, Database, Lane, NamedRow, Record, Value};
use crate::store::{Cause, StoreError};

impl Database for SqliteStore {
    fn run<T, W>(
        &self,
        lane: Lane,
        transaction: bool,
        work: W,
    ) -> BoxFuture<'_, Result<T, StoreError>>
    where
        T: Send + 'static,
        W: for<'c> FnOnce(&'c mut dyn Connection) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        let lane = match lane {
            Lane::Person => &self.reader,
            Lane::Outbox => &self.outbox_reader,
        };
        super::read_on(lane, move |conn| {
            // A transaction left open by work that panicked (its thread unwound past the
            // `COMMIT`) would keep SQLite's write lock from the writer thread: end it first.
            if !conn.is_autocommit() {
                conn.execute_batch("ROLLBACK")?;
            }
            if transaction {
                conn.execute_batch("BEGIN IMMEDIATE")?;
            }
            let done = answered(work(&mut SqliteConnection(conn)));
            if transaction {
                conn.execute_batch(if done.is_ok() { "COMMIT" } else { "ROLLBACK" })?;
            }
            done
        })
    }

    fn options(&self) -> StoreOptions {
        self.options
    }
}

/// The work's outcome: every statement it waits on is answered when called.
fn answered<T>(mut work: BoxFuture<'_, Result<T, StoreError>>) -> Result<T, StoreError> {
    match work.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(outcome) => outcome,
        Poll::Pending => Err(StoreError::Database(
            "work on SQLite waited on something other than its connection".into(),
        )),
    }
}

/// Mutable, so that it is `Send` (a shared `rusqlite::Connection` is not): the work's future
/// must be, although it never leaves the blocking thread.
struct SqliteConnection<'c>(&'c mut rusqlite::Connection);

impl Connection for SqliteConnection<'_> {
    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        let changed = parameters::execute(self.0, sql, &bound(values));
        async move { Ok(changed? as u64) }.boxed()
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Record>, StoreError>> {
        let rows = records(self.0, sql, values);
        async move { rows }.boxed()
    }

    fn row_lock(&self) -> &'static str {
        ""
    }

    fn transaction_lock(&self) -> Option<&'static str> {
        None
    }
}

pub(super) fn bound(values: &[Value]) -> Vec<&dyn ToSql> {
    values.iter().map(|value| value as &dyn ToSql).collect()
}

/// Every row `sql` returns with `values`, each read whole.
pub(in crate::store) fn records(
    conn: &rusqlite::Connection,
    sql: &str,
    values: &[Value],
) -> Result<Vec<Record>, StoreError> {
    let columns: Arc<[String]> = {
        let statement = conn.prepare_cached(sql)?;
        statement
            .column_names()
            .into_iter()
            .map(String::from)
            .collect()
    };
    parameters::query(conn, sql, &bound(values), |row| {
        let values = (0..columns.len())
            .map(|i| row.get_ref(i).map(SqliteValue::from))
            .collect::<Result<_, _>>()?;
        Ok(Box::new(SqliteRecord {
            columns: Arc::clone(&columns),
            values,
        }) as Record)
    })
}

impl ToSql for Value {
    fn to_sql(&self) -> rusqlite::Result<ToSqlOutput<'_>> {
        match self {
            Value::Text(text) => text.to_sql(),
            Value::Number(n) => n.to_sql(),
            Value::Bytes(bytes) => bytes.to_sql(),
        }
    }
}

/// A row read whole, as the work may keep it past its statement.
struct SqliteRecord {
    columns: Arc<[String]>,
    values: Vec<SqliteValue>,
}

impl SqliteRecord {
    /// `column` as `row.get` would read it.
    fn get<T: FromSql>(&self, column: &str) -> Result<T, StoreError> {
        let index = self
            .columns
            .iter()
            .position(|name| name == column)
            .ok_or_else(|| rusqlite::Error::InvalidColumnName(column.to_owned()))?;
        T::column_result(ValueRef::from(&self.values[index]))
            .map_err(|e| StoreError::Database(Cause::new(format!("the column {column}: {e}"), e)))
    }
}

impl NamedRow for SqliteRecord {
    fn text(&self, column: &str) -> Result<Option<String>, StoreError> {
        self.get(column)
    }
    fn flag(&self, column: &str) -> Result<bool, StoreError> {
        self.get(column)
    }
    fn count(&self, column: &str) -> Result<Option<u32>, StoreError> {
        self.get(column)
    }
    fn number(&self, column: &str) -> Result<i64, StoreError> {
        self.get(column)
    }
    fn optional_number(&self, column: &str) -> Result<Option<i64>, StoreError> {
        self.get(column)
    }
    fn bytes(&self, column: &str) -> Result<Vec<u8>, StoreError> {
        self.get(column)
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::store;
    use super::*;
    use crate::store::QuoteStore;

    const KEEP: &str = "INSERT INTO site_keys (name, value) VALUES ($1, $2)";

    async fn keys(store: &SqliteStore) -> usize {
        let rows = store.query(Lane::Outbox, "SELECT name FROM site_keys", vec![]);
        rows.await.unwrap().len()
    }

    #[tokio::test]
    async fn work_that_fails_keeps_none_of_its_transaction() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir, StoreOptions::default()).await;
        let failed = store.run(Lane::Person, true, |c| {
            async move {
                c.execute(KEEP, &["a".into(), "1".into()]).await?;
                c.execute(KEEP, &["a".into(), "2".into()]).await
            }
            .boxed()
        });
        assert!(failed.await.is_err(), "the second key is a duplicate");
        assert_eq!(keys(&store).await, 0);
        store.close().await;
    }

    #[tokio::test]
    async fn a_transaction_left_open_is_ended_before_the_next_work() {
        let dir = tempfile::tempdir().unwrap();
        let store = store(&dir, StoreOptions::default()).await;
        let left_open = store.run(Lane::Person, false, |c| {
            async move {
                c.execute("BEGIN IMMEDIATE", &[]).await?;
                c.execute(KEEP, &["a".into(), "1".into()]).await
            }
            .boxed()
        });
        left_open.await.unwrap();
        // The write lock is free again for the next work on the connection, and the writer.
        let kept = store.execute(Lane::Person, KEEP, vec!["b".into(), "2".into()]);
        assert_eq!(kept.await.unwrap(), 1);
        assert_eq!(keys(&store).await, 1, "only the committed key");
        store.ping().await.unwrap();
        store.close().await;
    }

    #[test]
    fn work_waiting_on_anything_but_its_connection_is_an_error() {
        let waiting = std::future::pending::<Result<(), StoreError>>().boxed();
        assert!(matches!(answered(waiting), Err(StoreError::Database(_))));
    }
}
