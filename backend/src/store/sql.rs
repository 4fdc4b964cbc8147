//! The thin layer a lead's rules are written on, once for both databases: a statement with
//! PostgreSQL's `$n` parameters and its values, run on one of the store's connections, in a
//! transaction where the rule needs one. Each store answers it in one file
//! (`sqlite/connection.rs`, `postgres/connection.rs`); the rules above it never name a driver.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::options::StoreOptions;
use super::timestamp::format_timestamp;
use super::StoreError;

/// A value for a statement's `$n`: each database binds it as the column's type asks.
#[derive(Clone, Debug, PartialEq)]
pub enum Value {
    Text(Option<String>),
    Number(Option<i64>),
    Bytes(Vec<u8>),
}

/// `From` each Rust type a statement takes, as the `Value` it is bound as.
macro_rules! values_from {
    ($($from:ty => |$x:ident| $value:expr;)+) => {
        $(impl From<$from> for Value {
            fn from($x: $from) -> Value {
                $value
            }
        })+
    };
}

values_from! {
    String => |text| Value::Text(Some(text));
    &str => |text| Value::Text(Some(text.to_owned()));
    Option<&str> => |text| Value::Text(text.map(str::to_owned));
    Option<String> => |text| Value::Text(text);
    // As every timestamp is stored: RFC 3339 text (`timestamp::format_timestamp`).
    OffsetDateTime => |at| Value::Text(Some(format_timestamp(at)));
    Option<OffsetDateTime> => |at| Value::Text(at.map(format_timestamp));
    i64 => |n| Value::Number(Some(n));
    u32 => |n| Value::Number(Some(n.into()));
    // A count or a limit: one past `i64::MAX` is as good as no limit.
    usize => |n| Value::Number(Some(i64::try_from(n).unwrap_or(i64::MAX)));
    // A count: one past `i64::MAX` is kept as `i64::MAX`.
    u64 => |n| Value::Number(Some(i64::try_from(n).unwrap_or(i64::MAX)));
    Vec<u8> => |bytes| Value::Bytes(bytes);
}

/// One row as a driver reads its columns, by name.
pub trait NamedRow {
    fn text(&self, column: &str) -> Result<Option<String>, StoreError>;
    fn flag(&self, column: &str) -> Result<bool, StoreError>;
    fn count(&self, column: &str) -> Result<Option<u32>, StoreError>;
    /// A `BIGINT NOT NULL` column.
    fn number(&self, column: &str) -> Result<i64, StoreError>;
    /// A `BIGINT` column.
    fn optional_number(&self, column: &str) -> Result<Option<i64>, StoreError>;
    /// A `BLOB` (SQLite) or `BYTEA` (PostgreSQL) column.
    fn bytes(&self, column: &str) -> Result<Vec<u8>, StoreError>;

    /// A column the schema declares `NOT NULL`.
    fn required(&self, column: &str) -> Result<String, StoreError> {
        self.text(column).map(Option::unwrap_or_default)
    }
}

/// A row a statement returned, read by column name.
pub type Record = Box<dyn NamedRow + Send + Sync>;

/// Which of its connections a store runs the work on. SQLite has one writer at a time: its
/// outbox workers read and write on a connection of their own, so a person's inbox query never
/// holds up a delivery. PostgreSQL takes any connection of its pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lane {
    /// What a person or a request waits on: the inbox, the sessions and site keys, the call
    /// reports, the conversations, the consent records, the quote list; and the delivery
    /// alerts' few statements.
    Person,
    /// Background work: the outbox workers (the e-mail budget and the spam report, a call's
    /// report for its follow-up), the recordings' fetcher, retention's hourly deletions.
    Outbox,
}

/// Statements on one connection.
pub trait Connection: Send {
    /// How many rows it changed.
    fn execute<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<u64, StoreError>>;

    fn query<'a>(
        &'a mut self,
        sql: &'a str,
        values: &'a [Value],
    ) -> BoxFuture<'a, Result<Vec<Record>, StoreError>>;

    /// What a `SELECT` ends with to lock the rows it reads until the transaction ends:
    /// `FOR UPDATE` where the database locks rows, nothing on SQLite, whose immediate
    /// transaction holds the whole database's write lock already.
    fn row_lock(&self) -> &'static str;

    /// A statement taking `$1`'s lock until the transaction ends, so that transactions naming
    /// the same number run one after the other where several may run at once (PostgreSQL's
    /// advisory lock); `None` on SQLite, whose immediate transaction holds the write lock.
    fn transaction_lock(&self) -> Option<&'static str>;
}

/// How a store runs work on a connection. The work may only wait on the connection: SQLite
/// runs it on a blocking thread, where nothing else would wake it.
pub trait Database: Send + Sync {
    /// Runs `work` on a connection of `lane`; with `transaction`, in one transaction committed
    /// if the work succeeds and rolled back if not (on SQLite an immediate one, which waits for
    /// the writer's lock as any other connection does).
    fn run<T, W>(
        &self,
        lane: Lane,
        transaction: bool,
        work: W,
    ) -> BoxFuture<'_, Result<T, StoreError>>
    where
        T: Send + 'static,
        W: for<'c> FnOnce(&'c mut dyn Connection) -> BoxFuture<'c, Result<T, StoreError>>
            + Send
            + 'static;

    /// What the store was opened with: the channels a lead is queued on, whether leads are
    /// e-mailed.
    fn options(&self) -> StoreOptions;

    /// One statement on its own: how many rows it changed.
    fn execute(
        &self,
        lane: Lane,
        sql: impl Into<String>,
        values: Vec<Value>,
    ) -> BoxFuture<'_, Result<u64, StoreError>>
    where
        Self: Sized,
    {
        let sql = sql.into();
        self.run(lane, false, move |c| {
            async move { c.execute(&sql, &values).await }.boxed()
        })
    }

    /// One query on its own: its rows.
    fn query(
        &self,
        lane: Lane,
        sql: impl Into<String>,
        values: Vec<Value>,
    ) -> BoxFuture<'_, Result<Vec<Record>, StoreError>>
    where
        Self: Sized,
    {
        let sql = sql.into();
        self.run(lane, false, move |c| {
            async move { c.query(&sql, &values).await }.boxed()
        })
    }
}

/// A store's trait that every `Database` answers, each method written once with its doc and
/// its body: the trait (object-safe, for `Arc<dyn QuoteStore>`) gets the signatures and the
/// blanket `impl<D: Database>` the bodies.
macro_rules! on_every_database {
    (
        $(#[$trait_doc:meta])*
        pub trait $name:ident: Send + Sync {
            $(
                $(#[$doc:meta])*
                fn $method:ident(&$self:ident $(, $arg:ident: $ty:ty)* $(,)?) -> $out:ty $body:block
            )+
        }
    ) => {
        $(#[$trait_doc])*
        pub trait $name: Send + Sync {
            $(
                $(#[$doc])*
                fn $method(&$self $(, $arg: $ty)*) -> $out;
            )+
        }

        impl<D: $crate::store::sql::Database> $name for D {
            $(
                fn $method(&$self $(, $arg: $ty)*) -> $out $body
            )+
        }
    };
}

pub(crate) use on_every_database;

impl<R: NamedRow + ?Sized> NamedRow for Box<R> {
    fn text(&self, column: &str) -> Result<Option<String>, StoreError> {
        (**self).text(column)
    }
    fn flag(&self, column: &str) -> Result<bool, StoreError> {
        (**self).flag(column)
    }
    fn count(&self, column: &str) -> Result<Option<u32>, StoreError> {
        (**self).count(column)
    }
    fn number(&self, column: &str) -> Result<i64, StoreError> {
        (**self).number(column)
    }
    fn optional_number(&self, column: &str) -> Result<Option<i64>, StoreError> {
        (**self).optional_number(column)
    }
    fn bytes(&self, column: &str) -> Result<Vec<u8>, StoreError> {
        (**self).bytes(column)
    }
}
