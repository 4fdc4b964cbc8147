//! `store::sql` on PostgreSQL: the work runs on a connection of the pool, each statement
//! prepared once per connection.

use std::error::Error;

use bytes::BytesMut;
use deadpool_postgres::GenericClient;
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use tokio_postgres::types::{IsNull, ToSql, Type};

use super::{classify, pool_error, PostgresStore};
use crate::store::options::StoreOptions;
use crate::store::sql::{Connection, Database, Lane, Record, Value};
use crate::store::StoreError;

impl Database for PostgresStore {
    fn run<T, W>(&self, _: Lane, transaction: bool, work: W) -> BoxFuture<'_, Result<T, StoreError>>
    where
        T: Send + 'static,
        W: for<'c> FnOnce(&'c mut dyn Connection) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static,
    {
        async move {
            let mut client = self.pool.get().await.map_err(pool_error)?;
            if !transaction {
                return work(&mut PgConnection(&client)).await;
            }
            let tx = client.transaction().await.map_err(classify)?;
            let done = work(&mut PgConnection(&tx)).await?;
            tx.commit().await.map_err(classify)?;
            Ok(done)
        }
        .boxed()
    }

    fn options(&self) -> StoreOptions {
        self.options
    }
}

/// A pooled connection (`deadpool_postgres::Client`), or the transaction open on one.
struct PgConnection<'a, C>(&'a C);

fn bound(values: &[Value]) -> Vec<&(dyn ToSql + Sync)> {
    values
        .iter()
        .map(|value| value as &(dyn ToSql + Sync))
        .collect()
}

impl<C: GenericClient> Connection for PgConnection<'_, C> {
    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>> {
        async move {
            let statement = self.0.prepare_cached(sql).await.map_err(classify)?;
            let values = bound(values);
            self.0.execute(&statement, &values).await.map_err(classify)
        }
        .boxed()
    }

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Record>, StoreError>> {
        async move {
            let statement = self.0.prepare_cached(sql).await.map_err(classify)?;
            let values = bound(values);
            let rows = self.0.query(&statement, &values).await.map_err(classify)?;
            Ok(rows
                .into_iter()
                .map(|row| Box::new(row) as Record)
                .collect())
        }
        .boxed()
    }

    fn row_lock(&self) -> &'static str {
        " FOR UPDATE"
    }

    fn transaction_lock(&self) -> Option<&'static str> {
        Some("SELECT pg_advisory_xact_lock($1)")
    }
}

impl ToSql for Value {
    fn to_sql(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        self.to_sql_checked(ty, out)
    }

    fn accepts(_: &Type) -> bool {
        true
    }

    /// Each value checked against the parameter's type as its own Rust type would be (the
    /// enum's `accepts` cannot tell the variants apart); a number for an `INTEGER` parameter
    /// fits in 32 bits or is refused.
    fn to_sql_checked(
        &self,
        ty: &Type,
        out: &mut BytesMut,
    ) -> Result<IsNull, Box<dyn Error + Sync + Send>> {
        match self {
            Value::Text(text) => text.to_sql_checked(ty, out),
            Value::Number(n) if *ty == Type::INT4 => {
                n.map(i32::try_from).transpose()?.to_sql_checked(ty, out)
            }
            Value::Number(n) => n.to_sql_checked(ty, out),
            Value::Bytes(bytes) => bytes.to_sql_checked(ty, out),
        }
    }
}
