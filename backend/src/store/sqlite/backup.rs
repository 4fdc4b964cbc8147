//! A consistent copy of an SQLite database while the server writes to it (`backend backup`).
//!
//! `VACUUM INTO` reads the database in one read transaction, so the copy is the database as of
//! one instant (WAL lets the server keep committing meanwhile), and writes it compacted. The copy
//! is made beside its destination under another name, readable by its owner only, synced, then
//! renamed over the destination: a failed or interrupted backup never leaves half a file where a
//! good one is expected.

use std::fs::{File, OpenOptions};
use std::io;
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};

use rusqlite::{Connection, OpenFlags};

use super::{file_named, open_for_reading};
use crate::store::{Cause, StoreError};

/// Who may read a backup: the leads are personal data.
const BACKUP_MODE: u32 = 0o600;

/// What a backup wrote.
#[derive(Debug, PartialEq, Eq)]
pub struct Backup {
    /// The database copied, absolute.
    pub source: PathBuf,
    pub quote_requests: u64,
    pub bytes: u64,
}

/// Copies the database `target` (a path or `file:` URI) to `destination`, replacing a file
/// there. Blocking: call it off the async runtime.
pub fn backup(target: &str, destination: &Path) -> Result<Backup, StoreError> {
    let source = file_named(target);
    let conn = open_for_reading(target)?;
    let partial = partial_name(destination);
    let written = copy(&conn, &partial).and_then(|()| {
        let backup = check(&partial)?;
        std::fs::rename(&partial, destination).map_err(|e| file_error(destination, e))?;
        sync_directory(destination)?;
        Ok(backup)
    });
    if written.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    let (quote_requests, bytes) = written?;
    Ok(Backup {
        source,
        quote_requests,
        bytes,
    })
}

/// `DESTINATION.partial-PID`, in the destination's directory so the rename cannot cross file
/// systems.
fn partial_name(destination: &Path) -> PathBuf {
    let mut name = destination.as_os_str().to_owned();
    name.push(format!(".partial-{}", std::process::id()));
    PathBuf::from(name)
}

fn file_error(path: &Path, e: io::Error) -> StoreError {
    StoreError::Unusable(Cause::new(format!("{}: {e}", path.display()), e))
}

fn copy(conn: &Connection, partial: &Path) -> Result<(), StoreError> {
    // Made empty first with its mode: VACUUM INTO writes into an empty file as it finds it, and
    // would make a new one readable by all (0644 under the usual umask).
    OpenOptions::new()
        .write(true)
        .create_new(true)
        .mode(BACKUP_MODE)
        .open(partial)
        .map_err(|e| file_error(partial, e))?;
    let path = partial
        .to_str()
        .ok_or_else(|| StoreError::Unusable("the backup's path is not UTF-8".into()))?;
    conn.execute("VACUUM INTO ?1", [path])
        .map_err(|e| StoreError::Database(Cause::new(format!("VACUUM INTO {path}: {e}"), e)))?;
    Ok(())
}

/// The copy opens, passes SQLite's quick check, and is on disk: how many quote requests it
/// holds and its size.
fn check(partial: &Path) -> Result<(u64, u64), StoreError> {
    let flags = OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX;
    let copy = Connection::open_with_flags(partial, flags)?;
    let verdict: String = copy.query_row("PRAGMA quick_check", [], |row| row.get(0))?;
    if verdict != "ok" {
        return Err(StoreError::Database(
            format!("the copy failed SQLite's check: {verdict}").into(),
        ));
    }
    let quote_requests: u64 = copy
        .query_row("SELECT count(*) FROM quote_requests", [], |row| row.get(0))
        .map_err(|e| {
            StoreError::Unusable(Cause::new(
                format!("the database holds no quote requests table: {e}"),
                e,
            ))
        })?;
    drop(copy);
    let file = File::open(partial).map_err(|e| file_error(partial, e))?;
    file.sync_all().map_err(|e| file_error(partial, e))?;
    let bytes = file.metadata().map_err(|e| file_error(partial, e))?.len();
    Ok((quote_requests, bytes))
}

/// The rename itself survives a power cut once the directory is synced.
fn sync_directory(destination: &Path) -> Result<(), StoreError> {
    let dir = match destination.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => dir,
        _ => Path::new("."),
    };
    File::open(dir)
        .and_then(|dir| dir.sync_all())
        .map_err(|e| file_error(dir, e))
}

#[cfg(test)]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;
    use crate::store::sqlite::SqliteStore;
    use crate::store::{suite, QuoteStore, Quotes, StoreOptions};

    #[tokio::test]
    async fn the_copy_holds_the_leads_and_only_its_owner_reads_it() {
        let dir = tempfile::tempdir().unwrap();
        let database = dir.path().join("quotes.db");
        let target = database.to_str().unwrap().to_owned();
        let store = SqliteStore::open(&target, StoreOptions::default())
            .await
            .unwrap();
        for i in 0..3 {
            store
                .insert(suite::web(&format!("b{i}@example.com")))
                .await
                .unwrap();
        }
        let destination = dir.path().join("backup.db");
        std::fs::write(&destination, "an older backup").unwrap();
        let written = backup(&target, &destination).unwrap();
        assert_eq!(written.quote_requests, 3);
        assert_eq!(written.source, database);
        let mode = std::fs::metadata(&destination)
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o777, 0o600);
        let copy = SqliteStore::open_read_only(destination.to_str().unwrap())
            .await
            .unwrap();
        assert_eq!(copy.list_since(None).await.unwrap().len(), 3);
        store.close().await;
        let names: Vec<_> = std::fs::read_dir(dir.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        assert!(
            !names
                .iter()
                .any(|n| n.to_string_lossy().contains("partial")),
            "{names:?}"
        );
    }

    #[test]
    fn a_missing_database_is_named_and_nothing_is_left_behind() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("none.db");
        let error = backup(missing.to_str().unwrap(), &dir.path().join("b.db")).unwrap_err();
        assert!(error.to_string().contains("no database at"), "{error}");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
