//! What a store operation fails with: how the caller should take it (the variant) and why it
//! failed (a `Cause`, which keeps the driver's or the system's error it came from).

use std::error::Error;
use std::fmt;
use std::sync::Arc;

/// Clone, so one failed group commit answers every quote in it. The text already says what its
/// source says (a log line or `error: ...` reads whole); `source()` hands code the error itself.
#[derive(Clone, Debug)]
pub enum StoreError {
    /// The database cannot be reached or is busy for now: worth a retry.
    Unavailable(Cause),
    /// A failure of the database or of ours that retrying will not mend.
    Database(Cause),
    /// The database is not one this command can use as it is (missing, read-only for the
    /// server, another schema): retrying will not help, the setting or the file must change.
    Unusable(Cause),
}

impl StoreError {
    fn cause(&self) -> &Cause {
        match self {
            StoreError::Unavailable(cause)
            | StoreError::Database(cause)
            | StoreError::Unusable(cause) => cause,
        }
    }
}

impl fmt::Display for StoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoreError::Unavailable(cause) => write!(f, "database unavailable: {cause}"),
            StoreError::Database(cause) => write!(f, "database error: {cause}"),
            StoreError::Unusable(cause) => write!(f, "{cause}"),
        }
    }
}

impl Error for StoreError {
    fn source(&self) -> Option<&(dyn Error + 'static)> {
        let source = self.cause().source.as_deref()?;
        Some(source)
    }
}

/// Why a store operation failed, as its message says it, with the error behind it when there
/// is one.
#[derive(Clone, Debug)]
pub struct Cause {
    message: String,
    source: Option<Arc<dyn Error + Send + Sync>>,
}

impl Cause {
    /// `error`, in its own words.
    pub fn of(error: impl Error + Send + Sync + 'static) -> Cause {
        Cause::new(error.to_string(), error)
    }

    /// `error`, in words that say more (which file, which server).
    pub fn new(message: String, error: impl Error + Send + Sync + 'static) -> Cause {
        Cause {
            message,
            source: Some(Arc::new(error)),
        }
    }
}

/// A failure of our own, with no error behind it.
impl From<String> for Cause {
    fn from(message: String) -> Cause {
        Cause {
            message,
            source: None,
        }
    }
}

impl From<&str> for Cause {
    fn from(message: &str) -> Cause {
        Cause::from(message.to_owned())
    }
}

impl fmt::Display for Cause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_reads_as_before_and_the_source_is_kept() {
        let refused = std::io::Error::new(std::io::ErrorKind::ConnectionRefused, "refused");
        let error = StoreError::Unavailable(Cause::of(refused));
        assert_eq!(error.to_string(), "database unavailable: refused");
        let source = error.source().expect("the source is kept");
        let io = source.downcast_ref::<std::io::Error>().expect("as it was");
        assert_eq!(io.kind(), std::io::ErrorKind::ConnectionRefused);
        let ours = StoreError::Database("the writer stopped".into());
        assert_eq!(ours.to_string(), "database error: the writer stopped");
        assert!(ours.source().is_none());
        assert_eq!(
            StoreError::Unusable("no database at /x".into()).to_string(),
            "no database at /x"
        );
    }
}
