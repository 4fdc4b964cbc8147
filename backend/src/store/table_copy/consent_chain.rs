//! Whether a source's consent records can join the target's chain (`backend import`). Each
//! record's hash covers the one before it, so a record copied into a target whose chain went
//! its own way would either meet a record of the target's under its number (and be left out,
//! "already there") or follow a hash that is not the one before it. A target whose records are
//! the start of the source's (an earlier import of the same source, or none) takes the rest; any
//! other is refused before anything is written.

use std::collections::HashMap;

use super::tables::{Table, Value};
use crate::store::consent::Head;
use crate::store::StoreError;

/// The target's chain as `joins` takes it, read in the import's transaction.
pub const TARGET_CHAIN: &str = "SELECT seq, hash FROM consent_records ORDER BY seq";

/// The table `joins` looks at.
const CONSENT_RECORDS: &str = "consent_records";

/// `Ok` when every consent record in `tables` is either one the target holds already (the same
/// number and hash) or follows the target's last record (`target`: its chain, in order).
pub fn joins(tables: &[Table], target: &[Head]) -> Result<(), StoreError> {
    let Some(records) = tables.iter().find(|t| t.schema.name == CONSENT_RECORDS) else {
        return Ok(());
    };
    let column = |name: &str| records.schema.columns.iter().position(|c| c.name == name);
    let (Some(seq), Some(prev_hash), Some(hash)) =
        (column("seq"), column("prev_hash"), column("hash"))
    else {
        return Ok(());
    };
    let held: HashMap<i64, &str> = target
        .iter()
        .map(|head| (head.seq, head.sha256.as_str()))
        .collect();
    let last = target.last();
    for row in &records.rows {
        let (Value::Integer(seq), Value::Text(prev_hash), Value::Text(hash)) =
            (&row[seq], &row[prev_hash], &row[hash])
        else {
            continue;
        };
        let problem = match held.get(seq) {
            Some(kept) if kept == hash => continue,
            Some(_) => "is not the record the target holds under that number",
            None if last.is_some_and(|last| *seq == last.seq + 1 && *prev_hash != last.sha256) => {
                "does not follow the target's last record"
            }
            None => continue,
        };
        return Err(StoreError::Unusable(
            format!(
                "the source's consent record {seq} {problem}: the target holds consent records of its own, and joining the two chains would lose a record or break the chain; import into a database without consent records (nothing was imported)"
            )
            .into(),
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::table_copy::tables::TABLES;

    /// Consent records numbered from 1, each `(hash, prev_hash)`, other columns empty.
    fn source(links: &[(&str, &str)]) -> Vec<Table> {
        let schema = TABLES.iter().find(|s| s.name == CONSENT_RECORDS).unwrap();
        let rows = links
            .iter()
            .zip(1..)
            .map(|(&(hash, prev), seq)| {
                schema
                    .columns
                    .iter()
                    .map(|column| match column.name {
                        "seq" => Value::Integer(seq),
                        "hash" => Value::Text(hash.into()),
                        "prev_hash" => Value::Text(prev.into()),
                        _ => Value::Null,
                    })
                    .collect()
            })
            .collect();
        vec![Table { schema, rows }]
    }

    fn chain(hashes: &[&str]) -> Vec<Head> {
        hashes
            .iter()
            .zip(1..)
            .map(|(hash, seq)| Head {
                seq,
                sha256: (*hash).into(),
            })
            .collect()
    }

    #[test]
    fn an_empty_target_or_one_holding_the_start_of_the_source_takes_the_rest() {
        let tables = source(&[("a", ""), ("b", "a"), ("c", "b")]);
        joins(&tables, &[]).unwrap();
        joins(&tables, &chain(&["a"])).unwrap();
        joins(&tables, &chain(&["a", "b", "c"])).unwrap();
        // Leads copied where the target went on: none of the source's records is lost.
        joins(&source(&[("a", "")]), &chain(&["a", "t"])).unwrap();
    }

    #[test]
    fn a_target_with_records_of_its_own_is_refused_naming_the_record() {
        let refused =
            |tables: &[Table], target: &[Head]| joins(tables, target).unwrap_err().to_string();
        // Its own leads under the source's numbers.
        let said = refused(&source(&[("a", ""), ("b", "a")]), &chain(&["t"]));
        assert!(
            said.starts_with("the source's consent record 1 is not the record the target holds"),
            "{said}"
        );
        // The same source imported before, both gone on since.
        let said = refused(&source(&[("a", ""), ("b", "a")]), &chain(&["a", "t"]));
        assert!(said.contains("record 2 is not the record"), "{said}");
        // A source record that would follow another hash than the target's last.
        let said = refused(&source(&[("a", ""), ("b", "x")]), &chain(&["a"]));
        assert!(said.contains("record 2 does not follow"), "{said}");
        assert!(!said.contains('\n'));
    }
}
