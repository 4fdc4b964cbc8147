//! Statements with PostgreSQL's `$n` parameters, run on SQLite as they are written. SQLite reads
//! `$1` as a parameter *named* "$1" and numbers its parameters in the order they first appear,
//! so binding by position would swap the values of `... SET status = $2 WHERE id = $1`: each
//! value is bound by the number in its parameter's name instead.

use rusqlite::{Connection, Row, Statement, ToSql};

use crate::store::StoreError;

/// Runs `sql` with `values[n - 1]` as each `$n`; how many rows it changed.
pub fn execute(conn: &Connection, sql: &str, values: &[&dyn ToSql]) -> Result<usize, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    bind(&mut statement, values)?;
    Ok(statement.raw_execute()?)
}

/// Every row `sql` returns with `values[n - 1]` as each `$n`, each as `read` makes it.
pub fn query<T>(
    conn: &Connection,
    sql: &str,
    values: &[&dyn ToSql],
    read: impl FnMut(&Row<'_>) -> Result<T, StoreError>,
) -> Result<Vec<T>, StoreError> {
    let mut statement = conn.prepare_cached(sql)?;
    bind(&mut statement, values)?;
    let rows = statement.raw_query();
    rows.and_then(read).collect()
}

/// Exactly one value for each `$n`, as PostgreSQL asks.
fn bind(statement: &mut Statement<'_>, values: &[&dyn ToSql]) -> rusqlite::Result<()> {
    let count = statement.parameter_count();
    if count != values.len() {
        return Err(rusqlite::Error::InvalidParameterCount(values.len(), count));
    }
    for index in 1..=count {
        let name = statement.parameter_name(index).unwrap_or("?");
        let value = name
            .strip_prefix('$')
            .and_then(|number| number.parse::<usize>().ok())
            .and_then(|number| values.get(number.checked_sub(1)?))
            .ok_or_else(|| rusqlite::Error::InvalidParameterName(name.to_owned()))?;
        statement.raw_bind_parameter(index, value)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(sql: &str, values: &[&dyn ToSql]) -> Result<Vec<String>, StoreError> {
        let conn = Connection::open_in_memory().unwrap();
        query(&conn, sql, values, |row| Ok(row.get("text")?))
    }

    #[test]
    fn each_value_goes_to_its_number_wherever_it_first_appears() {
        let swapped = text("SELECT $2 || $1 || $2 AS text", &[&"a", &"b"]).unwrap();
        assert_eq!(swapped, ["bab"]);
    }

    #[test]
    fn a_value_missing_or_left_over_is_an_error() {
        let both = "SELECT $1 || $2 AS text";
        assert!(text(both, &[&"a"]).is_err());
        assert!(text(both, &[&"a", &"b", &"c"]).is_err());
        assert!(text("SELECT ?1 AS text", &[&"a"]).is_err(), "only $n");
    }
}
