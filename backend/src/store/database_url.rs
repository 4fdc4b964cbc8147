//! `DATABASE_URL`: which database stands behind the store. A PostgreSQL URL may hold a password,
//! so `Debug` and the error for an unsupported URL show it replaced by `***`.

use std::fmt;

/// Where quote requests are stored.
#[derive(Clone, PartialEq, Eq)]
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
        Err(UnsupportedDatabaseUrl(without_password(url)))
    }
}

/// The URL as given, its password replaced by `***`: for messages.
impl fmt::Display for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseUrl::Sqlite(path) if path.starts_with("file:") => f.write_str(path),
            DatabaseUrl::Sqlite(path) => write!(f, "sqlite://{path}"),
            DatabaseUrl::Postgres(url) => f.write_str(&without_password(url)),
        }
    }
}

impl fmt::Debug for DatabaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatabaseUrl::Sqlite(path) => f.debug_tuple("Sqlite").field(path).finish(),
            DatabaseUrl::Postgres(url) => f
                .debug_tuple("Postgres")
                .field(&without_password(url))
                .finish(),
        }
    }
}

/// `url` with its password, in the user part or as libpq's `password` parameter, replaced by
/// `***`; text that is no URL with a host is shown after its last `@`, where a password would end.
fn without_password(url: &str) -> String {
    let parsed = url::Url::parse(url).ok().filter(|parsed| parsed.has_host());
    let Some(mut parsed) = parsed else {
        return match url.rsplit_once('@') {
            Some((_, host)) => format!("***@{host}"),
            None => url.to_owned(),
        };
    };
    if parsed.password().is_some() {
        let _ = parsed.set_password(Some("***"));
    }
    if parsed.query_pairs().any(|(name, _)| name == "password") {
        let pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(name, value)| {
                let value = if name == "password" {
                    "***".into()
                } else {
                    value.into_owned()
                };
                (name.into_owned(), value)
            })
            .collect();
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    parsed.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_is_never_shown() {
        let url = DatabaseUrl::parse("postgres://quotes:hunter2@db.internal:5432/quotes").unwrap();
        assert_eq!(
            format!("{url:?}"),
            r#"Postgres("postgres://quotes:***@db.internal:5432/quotes")"#
        );
        let url =
            DatabaseUrl::parse("postgres://quotes@db/quotes?password=hunter2&sslmode=require")
                .unwrap();
        let shown = format!("{url:?}");
        assert!(
            !shown.contains("hunter2") && shown.contains("sslmode=require"),
            "{shown}"
        );
        let UnsupportedDatabaseUrl(shown) =
            DatabaseUrl::parse("mysql://root:hunter2@db/quotes").unwrap_err();
        assert_eq!(shown, "mysql://root:***@db/quotes");
        let UnsupportedDatabaseUrl(shown) = DatabaseUrl::parse("root:hunter2@db").unwrap_err();
        assert_eq!(shown, "***@db");
        assert_eq!(
            format!("{:?}", DatabaseUrl::parse("sqlite://data/q.db").unwrap()),
            r#"Sqlite("data/q.db")"#
        );
        let url = DatabaseUrl::parse("postgres://quotes:hunter2@db.internal/quotes").unwrap();
        assert_eq!(url.to_string(), "postgres://quotes:***@db.internal/quotes");
        let url = DatabaseUrl::parse("sqlite:data/q.db").unwrap();
        assert_eq!(url.to_string(), "sqlite://data/q.db");
    }
}
