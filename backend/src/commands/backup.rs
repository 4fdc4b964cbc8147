//! `backend backup PATH`: a consistent copy of the SQLite database at `DATABASE_URL`, made while
//! the server runs, readable by its owner only. PostgreSQL has its own tool for this (`pg_dump`).

use std::path::PathBuf;

use crate::store::{sqlite, DatabaseUrl};

/// `backend backup`'s argument.
#[derive(Debug, PartialEq, Eq, clap::Args)]
pub struct BackupArgs {
    /// Where the copy goes (a file there is replaced once the copy is complete).
    pub path: PathBuf,
}

/// Backs up `database` to `args.path` and prints what it wrote.
pub async fn run(database: &DatabaseUrl, args: &BackupArgs) -> Result<(), String> {
    let target = match database {
        DatabaseUrl::Sqlite(target) => target.clone(),
        DatabaseUrl::Postgres(_) => {
            return Err(
                "DATABASE_URL is a PostgreSQL database: back it up with pg_dump \
                        (docs/operating.md, \"Backups\")"
                    .into(),
            )
        }
    };
    let destination = args.path.clone();
    let written =
        tokio::task::spawn_blocking(move || sqlite::backup::backup(&target, &destination))
            .await
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
    println!(
        "backed up {} ({} quote requests, {} bytes) to {}",
        written.source.display(),
        written.quote_requests,
        written.bytes,
        args.path.display()
    );
    Ok(())
}
