//! `DATABASE_URL`: which database stands behind the store.

/// Where quote requests are stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatabaseUrl {
    /// A SQLite file, or an SQLite `file:` URI (for example `file:quotes.db?mode=ro`).
    Sqlite(String),
    /// A PostgreSQL connection URL (`postgres://user@host:port/database?options`).
    Postgres(String),
}

#[derive(Debug, thiserror::Error)]
#[error("DATABASE_URL {0:?} is not supported: use sqlite://PATH, file:PATH or postgres://...")]
pub struct UnsupportedDatabaseUrl(pub String);

impl DatabaseUrl {
    pub fn parse(url: &str) -> Result<DatabaseUrl, UnsupportedDatabaseUrl> {
        if let Some(path) = url
            .strip_prefix("sqlite://")
            .or_else(|| url.strip_prefix("sqlite:"))
        {
            if !path.is_empty() {
                return Ok(DatabaseUrl::Sqlite(path.to_owned()));
            }
        }
        if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            return Ok(DatabaseUrl::Postgres(url.to_owned()));
        }
        if url.starts_with("file:") {
            return Ok(DatabaseUrl::Sqlite(url.to_owned()));
        }
        Err(UnsupportedDatabaseUrl(url.to_owned()))
    }
}
