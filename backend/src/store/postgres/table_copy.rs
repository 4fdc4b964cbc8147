//! PostgreSQL's side of `store::table_copy`.

use tokio_postgres::types::{ToSql, Type};

use super::group_commit::LOCK_CONSENT_CHAIN;
use super::{classify, pool_error, PostgresStore};
use crate::store::consent::Head;
use crate::store::consent::CHAIN_LOCK;
use crate::store::options::StoreOptions;
use crate::store::table_copy::consent_chain;
use crate::store::table_copy::tables::{unknown_type, Copied, Table, Value, TABLES};
use crate::store::{QuoteStore, StoreError};

pub async fn read(url: &str) -> Result<Vec<Table>, StoreError> {
    let store = PostgresStore::open_read_only(url).await?;
    let result = read_tables(&store).await;
    store.close().await;
    result
}

async fn read_tables(store: &PostgresStore) -> Result<Vec<Table>, StoreError> {
    let mut client = store.pool.get().await.map_err(pool_error)?;
    // One snapshot for all the tables, while servers may be writing.
    let tx = client
        .build_transaction()
        .isolation_level(tokio_postgres::IsolationLevel::RepeatableRead)
        .read_only(true)
        .start()
        .await
        .map_err(classify)?;
    let mut tables = Vec::new();
    for schema in &TABLES {
        let found: Vec<String> = tx
            .query(
                "SELECT column_name::text FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = $1",
                &[&schema.name],
            )
            .await
            .map_err(classify)?
            .iter()
            .map(|row| row.try_get(0))
            .collect::<Result<_, _>>()
            .map_err(classify)?;
        schema.holds_only_known(&found)?;
        let statement = tx.prepare(&schema.select_sql()).await.map_err(classify)?;
        let mut rows = Vec::new();
        for row in tx.query(&statement, &[]).await.map_err(classify)? {
            let values = statement
                .columns()
                .iter()
                .enumerate()
                .map(|(i, column)| {
                    let value = match *column.type_() {
                        Type::INT2 => row.try_get::<_, Option<i16>>(i).map(|n| n.map(i64::from)),
                        Type::INT4 => row.try_get::<_, Option<i32>>(i).map(|n| n.map(i64::from)),
                        Type::INT8 => row.try_get::<_, Option<i64>>(i),
                        Type::TEXT | Type::VARCHAR => {
                            return row
                                .try_get::<_, Option<String>>(i)
                                .map(|t| t.map_or(Value::Null, Value::Text))
                                .map_err(classify)
                        }
                        Type::BYTEA => {
                            return row
                                .try_get::<_, Option<Vec<u8>>>(i)
                                .map(|b| b.map_or(Value::Null, Value::Bytes))
                                .map_err(classify)
                        }
                        ref other => {
                            return Err(unknown_type(schema.name, column.name(), other.name()))
                        }
                    };
                    value
                        .map(|n| n.map_or(Value::Null, Value::Integer))
                        .map_err(classify)
                })
                .collect::<Result<Vec<_>, _>>()?;
            rows.push(values);
        }
        tables.push(Table { schema, rows });
    }
    tx.commit().await.map_err(classify)?;
    Ok(tables)
}

pub async fn write(url: &str, tables: &[Table]) -> Result<Vec<Copied>, StoreError> {
    // Opening migrates, as the server would, and logs the database opened.
    let store = PostgresStore::open(url, StoreOptions::default()).await?;
    let result = write_tables(&store, tables).await;
    store.close().await;
    result
}

async fn write_tables(store: &PostgresStore, tables: &[Table]) -> Result<Vec<Copied>, StoreError> {
    let mut client = store.pool.get().await.map_err(pool_error)?;
    let tx = client.transaction().await.map_err(classify)?;
    // Under the chain's lock (as servers append), the chain read once it is granted.
    tx.execute(LOCK_CONSENT_CHAIN, &[&CHAIN_LOCK])
        .await
        .map_err(classify)?;
    let chain = tx
        .query(consent_chain::TARGET_CHAIN, &[])
        .await
        .map_err(classify)?
        .iter()
        .map(Head::read)
        .collect::<Result<Vec<_>, _>>()?;
    consent_chain::joins(tables, &chain)?;
    let mut copied = Vec::new();
    for table in tables {
        let schema = table.schema;
        let statement = tx.prepare(&schema.insert_sql()).await.map_err(classify)?;
        let mut done = Copied {
            table: schema.name,
            copied: 0,
            already_there: 0,
        };
        for row in &table.rows {
            let values = row
                .iter()
                .zip(statement.params())
                .zip(schema.columns)
                .map(|((value, kind), column)| parameter(value, kind, schema.name, column.name))
                .collect::<Result<Vec<_>, _>>()?;
            let params: Vec<&(dyn ToSql + Sync)> = values.iter().map(|v| &**v).collect();
            match tx.execute(&statement, &params).await.map_err(classify)? {
                0 => done.already_there += 1,
                _ => done.copied += 1,
            }
        }
        copied.push(done);
    }
    tx.commit().await.map_err(classify)?;
    Ok(copied)
}

/// `value` as the column's type asks (tokio-postgres checks that an integer's width matches).
fn parameter(
    value: &Value,
    kind: &Type,
    table: &str,
    column: &str,
) -> Result<Box<dyn ToSql + Sync>, StoreError> {
    let integer = |value: &Value| match value {
        Value::Integer(n) => Ok(Some(*n)),
        Value::Null => Ok(None),
        Value::Text(_) | Value::Bytes(_) => Err(StoreError::Database(
            format!("{table}.{column}: not an integer where the target holds one").into(),
        )),
    };
    let out_of_range = |_| StoreError::Database(format!("{table}.{column}: out of range").into());
    Ok(match *kind {
        Type::INT2 => Box::new(
            integer(value)?
                .map(i16::try_from)
                .transpose()
                .map_err(out_of_range)?,
        ),
        Type::INT4 => Box::new(
            integer(value)?
                .map(i32::try_from)
                .transpose()
                .map_err(out_of_range)?,
        ),
        Type::INT8 => Box::new(integer(value)?),
        Type::TEXT | Type::VARCHAR => Box::new(match value {
            Value::Null => None,
            Value::Text(text) => Some(text.clone()),
            Value::Integer(n) => Some(n.to_string()),
            Value::Bytes(_) => {
                return Err(StoreError::Database(
                    format!("{table}.{column}: bytes where the target holds text").into(),
                ))
            }
        }),
        Type::BYTEA => Box::new(match value {
            Value::Bytes(bytes) => Some(bytes.clone()),
            Value::Null => None,
            _ => {
                return Err(StoreError::Database(
                    format!("{table}.{column}: not bytes where the target holds them").into(),
                ))
            }
        }),
        ref other => return Err(unknown_type(table, column, other.name())),
    })
}
