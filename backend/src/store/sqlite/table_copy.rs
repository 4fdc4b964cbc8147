//! SQLite's side of `store::table_copy`.

use rusqlite::types::ValueRef;
use rusqlite::TransactionBehavior;

use super::connection::records;
use super::{connect, connect_read_only, file_named, migrate};
use crate::store::consent::Head;
use crate::store::table_copy::consent_chain;
use crate::store::table_copy::tables::{unknown_type, Copied, Table, Value, TABLES};
use crate::store::StoreError;

pub fn read(target: &str) -> Result<Vec<Table>, StoreError> {
    let conn = connect_read_only(target)?;
    // One read transaction: the tables as of one instant, while a server may be writing.
    let tx = conn.unchecked_transaction()?;
    let tables = TABLES
        .iter()
        .map(|schema| {
            let found: Vec<String> = tx
                .prepare("SELECT name FROM pragma_table_info(?1)")?
                .query_map([schema.name], |row| row.get(0))?
                .collect::<Result<_, _>>()?;
            schema.holds_only_known(&found)?;
            let mut statement = tx.prepare(&format!("{} ORDER BY rowid", schema.select_sql()))?;
            let mut rows = Vec::new();
            let mut found = statement.query([])?;
            while let Some(row) = found.next()? {
                let values = schema
                    .columns
                    .iter()
                    .enumerate()
                    .map(|(i, column)| match row.get_ref(i)? {
                        ValueRef::Null => Ok(Value::Null),
                        ValueRef::Integer(n) => Ok(Value::Integer(n)),
                        ValueRef::Text(text) => {
                            Ok(Value::Text(String::from_utf8_lossy(text).into()))
                        }
                        ValueRef::Real(_) => {
                            Err(unknown_type(schema.name, column.name, "real number"))
                        }
                        ValueRef::Blob(bytes) => Ok(Value::Bytes(bytes.to_vec())),
                    })
                    .collect::<Result<Vec<_>, StoreError>>()?;
                rows.push(values);
            }
            Ok(Table { schema, rows })
        })
        .collect();
    tx.finish()?;
    tables
}

pub fn write(target: &str, tables: &[Table]) -> Result<Vec<Copied>, StoreError> {
    let mut conn = connect(target)?;
    tracing::info!(
        path = %file_named(target).display(),
        "SQLite database opened"
    );
    migrate(&mut conn)?;
    // Immediate: no server appends to the chain between reading it and joining the source's.
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let chain = records(&tx, consent_chain::TARGET_CHAIN, &[])?;
    let chain = chain
        .iter()
        .map(Head::read)
        .collect::<Result<Vec<_>, _>>()?;
    consent_chain::joins(tables, &chain)?;
    let mut copied = Vec::new();
    for table in tables {
        let mut statement = tx.prepare(&table.schema.insert_sql())?;
        let mut done = Copied {
            table: table.schema.name,
            copied: 0,
            already_there: 0,
        };
        for row in &table.rows {
            let values = row.iter().map(|value| match value {
                Value::Null => rusqlite::types::Value::Null,
                Value::Integer(n) => rusqlite::types::Value::Integer(*n),
                Value::Text(text) => rusqlite::types::Value::Text(text.clone()),
                Value::Bytes(bytes) => rusqlite::types::Value::Blob(bytes.clone()),
            });
            // Positional: each $n appears once, in order.
            match statement.execute(rusqlite::params_from_iter(values))? {
                0 => done.already_there += 1,
                _ => done.copied += 1,
            }
        }
        copied.push(done);
    }
    tx.commit()?;
    Ok(copied)
}
