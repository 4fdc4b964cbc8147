//! The PostgreSQL store, for several stateless backend instances sharing one database.
//!
//! A pool of connections. Quotes go through group commit (`group_commit`): those arriving
//! together, each queued on its channels, are one statement and one commit. Errors reaching the
//! server are `Unavailable`, so the routes answer 503; the pool reconnects by itself once the
//! database is back.

mod group_commit;

mod connection;
pub(super) mod table_copy;
mod tls;

use deadpool_postgres::{Manager, ManagerConfig, Pool, PoolError, RecyclingMethod, Runtime};
use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;
use tokio_postgres::config::Host;
use tokio_postgres::types::ToSql;
use tokio_postgres::Row;

use super::lead_queries::{claim_due_deliveries, TAKE_QUEUED_LEADS};
use super::migrations::{check_version, MIGRATIONS};
use super::options::{StoreOptions, DATABASE_WAIT};
use super::outbox::delivery_record;
use super::quotes::InsertQuote;
use super::rows::pending_lead;
use super::sql::{Database, Lane, NamedRow};
use super::timestamp::format_timestamp;
use super::{
    Cause, Channel, DeliveryOutcome, Inserted, NewQuote, Outbox, PendingLead, QuoteStore,
    StoreError,
};
use crate::store::error_chain;
use group_commit::GroupCommit;

/// Connections per instance: 16 for reads, the health check and the forwarders (which records
/// up to 16 deliveries at once), and one held by each group-commit writer on top, so the writers
/// never starve `/healthz` (a load balancer would take the instance out).
const POOL_SIZE: usize = 16 + group_commit::WRITERS;
/// How long to wait for the server to answer a new connection before a request is told the
/// database is unavailable.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);
/// How long a worker holds the leads it took before another instance may send them (well beyond
/// the forwarder's delivery timeout, so only a dead worker's leads are taken over).
pub(super) const LEAD_CLAIM: std::time::Duration = std::time::Duration::from_secs(60);

/// Serialises migrations when several instances start at once (any constant shared by them).
const MIGRATION_LOCK: i64 = 0x7175_07e5;

pub struct PostgresStore {
    pool: Pool,
    options: StoreOptions,
    writer: GroupCommit,
}

/// Connection-level trouble (no SQLSTATE, or class 08 connection exception, 53 insufficient
/// resources, 57 operator intervention such as a shutdown) means "try again later".
fn classify(error: tokio_postgres::Error) -> StoreError {
    let transient = match error.code() {
        None => true,
        Some(state) => ["08", "53", "57"]
            .iter()
            .any(|class| state.code().starts_with(class)),
    };
    if transient {
        StoreError::Unavailable(Cause::of(error))
    } else {
        StoreError::Database(Cause::of(error))
    }
}

/// `host:port` of each server the URL names (never its user or password), for messages.
fn servers(config: &tokio_postgres::Config) -> String {
    let ports = config.get_ports();
    let servers: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            // One port for all hosts, or one each; none means the default.
            let port = ports.get(i).or(ports.first()).copied().unwrap_or(5432);
            match host {
                Host::Tcp(name) => format!("{name}:{port}"),
                #[cfg(unix)]
                Host::Unix(dir) => format!("{}/.s.PGSQL.{port}", dir.display()),
            }
        })
        .collect();
    servers.join(", ")
}

/// Not getting a connection at all (refused, not accepting connections, timed out) is always
/// temporary from the caller's side.
fn pool_error(error: PoolError) -> StoreError {
    StoreError::Unavailable(Cause::of(error))
}

/// A column a query does not return, or one its type cannot be read as: our mistake, not the
/// connection's.
fn column_error(error: tokio_postgres::Error) -> StoreError {
    StoreError::Database(Cause::of(error))
}

impl PostgresStore {
    pub async fn open(url: &str, options: StoreOptions) -> Result<PostgresStore, StoreError> {
        let connection = tls::connection(url)?;
        // As SQLite's "database opened": which server and database, never the user or password.
        let servers = servers(&connection.config);
        let database = connection
            .config
            .get_dbname()
            .unwrap_or_default()
            .to_owned();
        let sslmode = connection.sslmode;
        let store = PostgresStore::connect(connection, options).await?;
        tracing::info!(
            servers,
            database,
            sslmode,
            encrypted = store.encrypted().await,
            "PostgreSQL database opened"
        );
        store.migrate().await?;
        Ok(store)
    }

    /// See `store::open_read_only`: no migration (nor the NOTICE its `IF NOT EXISTS` prints),
    /// and every session read-only, so the server refuses any write whatever runs.
    pub async fn open_read_only(url: &str) -> Result<PostgresStore, StoreError> {
        let mut connection = tls::connection(url)?;
        let config = &mut connection.config;
        let given = config
            .get_options()
            .map(|o| format!("{o} "))
            .unwrap_or_default();
        config.options(format!("{given}-c default_transaction_read_only=on"));
        let database = format!(
            "the PostgreSQL database {:?} on {}",
            config.get_dbname().unwrap_or_default(),
            servers(config)
        );
        let store = PostgresStore::connect(connection, StoreOptions::default()).await?;
        let client = store.pool.get().await.map_err(pool_error)?;
        let has_schema: bool = client
            .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])
            .await
            .map_err(classify)?
            .get(0);
        let version = match has_schema {
            false => 0,
            true => client
                .query_opt("SELECT version FROM schema_version", &[])
                .await
                .map_err(classify)?
                .map_or(0, |row| row.get::<_, i32>(0)),
        };
        check_version(usize::try_from(version).unwrap_or(0), &database)?;
        drop(client);
        Ok(store)
    }

    /// The pool, and its first connection at once: a server that cannot be reached at start is
    /// reported with where it was looked for and why it did not answer.
    async fn connect(
        connection: tls::Connection,
        options: StoreOptions,
    ) -> Result<PostgresStore, StoreError> {
        let tls::Connection {
            mut config, tls, ..
        } = connection;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(CONNECT_TIMEOUT);
        }
        let servers = servers(&config);
        let manager = Manager::from_config(
            config,
            tls,
            // A connection the server dropped is noticed at checkout and replaced.
            ManagerConfig {
                recycling_method: RecyclingMethod::Verified,
            },
        );
        let pool = Pool::builder(manager)
            .max_size(POOL_SIZE)
            .runtime(Runtime::Tokio1)
            .wait_timeout(Some(DATABASE_WAIT))
            .create_timeout(Some(CONNECT_TIMEOUT))
            .recycle_timeout(Some(CONNECT_TIMEOUT))
            .build()
            .map_err(|e| StoreError::Database(Cause::of(e)))?;
        let error = match pool.get().await {
            Ok(_first) => {
                let writer = GroupCommit::start(&pool, options);
                return Ok(PostgresStore {
                    pool,
                    options,
                    writer,
                });
            }
            Err(error) => error,
        };
        let cause = match &error {
            PoolError::Backend(error) => error_chain::describe(error),
            PoolError::Timeout(_) => {
                format!("no answer within {} s", CONNECT_TIMEOUT.as_secs())
            }
            other => other.to_string(),
        };
        Err(StoreError::Unavailable(Cause::new(
            format!("cannot reach PostgreSQL at {servers}: {cause}"),
            error,
        )))
    }

    /// Whether the connections are encrypted (`sslmode=prefer` falls back to plaintext when the
    /// server offers no TLS); `None` where the server cannot say (a pooler, another
    /// PostgreSQL-speaking database), which is no reason to refuse to start.
    async fn encrypted(&self) -> Option<bool> {
        let client = self.pool.get().await.ok()?;
        let row = client
            .query_opt(
                "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()",
                &[],
            )
            .await
            .ok()?;
        Some(row.is_some_and(|row| row.get::<_, bool>(0)))
    }

    /// The same migrations as SQLite; the version is kept in `schema_version`. The transaction
    /// holds an advisory lock, so instances starting together migrate one after the other.
    async fn migrate(&self) -> Result<(), StoreError> {
        let mut client = self.pool.get().await.map_err(pool_error)?;
        let tx = client.transaction().await.map_err(classify)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])
            .await
            .map_err(classify)?;
        // Not `IF NOT EXISTS`: on every start but the first it would log a NOTICE that reads
        // like a failure ("relation \"schema_version\" already exists").
        let has_schema: bool = tx
            .query_one("SELECT to_regclass('schema_version') IS NOT NULL", &[])
            .await
            .map_err(classify)?
            .get(0);
        if !has_schema {
            tx.batch_execute("CREATE TABLE schema_version (version INTEGER NOT NULL)")
                .await
                .map_err(classify)?;
        }
        let current: i32 = tx
            .query_opt("SELECT version FROM schema_version", &[])
            .await
            .map_err(classify)?
            .map_or(0, |row| row.get(0));
        let current = usize::try_from(current).unwrap_or(0);
        if current < MIGRATIONS.len() {
            for sql in &MIGRATIONS[current..] {
                tx.batch_execute(sql).await.map_err(classify)?;
            }
            let version = i32::try_from(MIGRATIONS.len()).unwrap_or(i32::MAX);
            tx.execute("DELETE FROM schema_version", &[])
                .await
                .map_err(classify)?;
            tx.execute(
                "INSERT INTO schema_version (version) VALUES ($1)",
                &[&version],
            )
            .await
            .map_err(classify)?;
        }
        tx.commit().await.map_err(classify)
    }
}

impl NamedRow for Row {
    fn text(&self, column: &str) -> Result<Option<String>, StoreError> {
        self.try_get(column).map_err(column_error)
    }
    fn flag(&self, column: &str) -> Result<bool, StoreError> {
        self.try_get(column).map_err(column_error)
    }
    fn count(&self, column: &str) -> Result<Option<u32>, StoreError> {
        let attempts: Option<i32> = self.try_get(column).map_err(column_error)?;
        Ok(attempts.map(|n| u32::try_from(n).unwrap_or(0)))
    }
    fn number(&self, column: &str) -> Result<i64, StoreError> {
        self.try_get(column).map_err(column_error)
    }
    fn optional_number(&self, column: &str) -> Result<Option<i64>, StoreError> {
        self.try_get(column).map_err(column_error)
    }
    fn bytes(&self, column: &str) -> Result<Vec<u8>, StoreError> {
        self.try_get(column).map_err(column_error)
    }
}

impl InsertQuote for PostgresStore {
    fn insert_quote(&self, quote: NewQuote) -> BoxFuture<'_, Result<Inserted, StoreError>> {
        self.writer.insert(quote).boxed()
    }
}

impl Outbox for PostgresStore {
    fn take_due_deliveries(
        &self,
        channel: Channel,
        now: OffsetDateTime,
        max: usize,
    ) -> BoxFuture<'_, Result<Vec<PendingLead>, StoreError>> {
        async move {
            let known: Vec<&str> = Channel::ALL.map(Channel::as_str).to_vec();
            let max = i64::try_from(max).unwrap_or(i64::MAX);
            let client = self.pool.get().await.map_err(pool_error)?;
            let take = client.prepare_cached(&TAKE_QUEUED_LEADS).await;
            let take = take.map_err(classify)?;
            client
                .execute(&take, &[&max, &known])
                .await
                .map_err(classify)?;
            let until = format_timestamp(now + LEAD_CLAIM);
            let params: [&(dyn ToSql + Sync); 4] =
                [&format_timestamp(now), &max, &until, &channel.as_str()];
            let claim = client.prepare_cached(&claim_due_deliveries()).await;
            let claim = claim.map_err(classify)?;
            let rows = client.query(&claim, &params).await.map_err(classify)?;
            rows.iter().map(|row| pending_lead(row, channel)).collect()
        }
        .boxed()
    }

    fn record_delivery(
        &self,
        lead: &PendingLead,
        outcome: DeliveryOutcome,
    ) -> BoxFuture<'_, Result<(), StoreError>> {
        let (sql, values) = delivery_record(lead, outcome, OffsetDateTime::now_utc());
        let recorded = self.execute(Lane::Outbox, sql, values);
        recorded.map(|r| r.map(drop)).boxed()
    }
}

impl QuoteStore for PostgresStore {
    fn ping(&self) -> BoxFuture<'_, Result<(), StoreError>> {
        async move {
            let client = self.pool.get().await.map_err(pool_error)?;
            client
                .simple_query("SELECT 1")
                .await
                .map_err(classify)
                .map(drop)
        }
        .boxed()
    }

    fn close(&self) -> BoxFuture<'_, ()> {
        async {
            self.writer.close().await;
            self.pool.close();
        }
        .boxed()
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::store::consent::ConsentRecords;
    use crate::store::suite::{self, PostgresSchema};
    use crate::store::Quotes;

    /// Runs one case of the shared store suite in a fresh schema, and closes the store.
    macro_rules! suite_case {
        ($name:ident, $options:expr) => {
            #[tokio::test]
            #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
            async fn $name() {
                let schema = PostgresSchema::create().await;
                let store = PostgresStore::open(&schema.url(), $options).await;
                let store: Arc<dyn QuoteStore> = Arc::new(store.unwrap());
                suite::$name(Arc::clone(&store)).await;
                store.close().await;
                schema.drop().await;
            }
        };
    }

    suite::for_each_case!(suite_case);

    /// Two instances on `schema`, as two servers sharing one database.
    async fn two(schema: &PostgresSchema, options: StoreOptions) -> [Arc<PostgresStore>; 2] {
        let url = schema.url();
        let (a, b) = tokio::join!(
            PostgresStore::open(&url, options),
            PostgresStore::open(&url, options)
        );
        [Arc::new(a.unwrap()), Arc::new(b.unwrap())]
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
    async fn migrations_run_once_even_when_instances_start_together() {
        let schema = PostgresSchema::create().await;
        let [a, b] = two(&schema, StoreOptions::default()).await;
        a.insert(suite::web("a@example.com")).await.unwrap();
        assert_eq!(b.list_since(None).await.unwrap().len(), 1);
        a.close().await;
        b.close().await;
        schema.drop().await;
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
    async fn chats_kept_before_migration_15_take_their_prefix_with_their_leads() {
        use crate::store::migrations::{KEPT_AFTER_15, KEPT_AFTER_15_SQL, KEPT_BEFORE_15};
        let schema = PostgresSchema::create().await;
        let (client, connection) = tokio_postgres::connect(&schema.url(), tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        client
            .batch_execute(&MIGRATIONS[..14].join(";\n"))
            .await
            .unwrap();
        client
            .batch_execute(
                "CREATE TABLE schema_version (version INTEGER NOT NULL);
                INSERT INTO schema_version (version) VALUES (14);",
            )
            .await
            .unwrap();
        client.batch_execute(KEPT_BEFORE_15).await.unwrap();
        let store = PostgresStore::open(&schema.url(), StoreOptions::default())
            .await
            .unwrap();
        let rows = client.query(KEPT_AFTER_15_SQL, &[]).await.unwrap();
        let mut kept: Vec<String> = rows.iter().map(|row| row.get(0)).collect();
        kept.sort();
        assert_eq!(kept, KEPT_AFTER_15);
        store.close().await;
        schema.drop().await;
    }

    #[tokio::test]
    #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
    async fn instances_sharing_the_outbox_each_get_their_own_leads() {
        let schema = PostgresSchema::create().await;
        let [a, b] = two(&schema, suite::EVERY_CHANNEL).await;
        for i in 0..40 {
            a.insert(suite::web(&format!("p{i}@example.com")))
                .await
                .unwrap();
        }
        let now = OffsetDateTime::now_utc() + std::time::Duration::from_millis(5);
        let email = Channel::Email;
        let (from_a, from_b) = tokio::join!(
            a.take_due_deliveries(email, now, 25),
            b.take_due_deliveries(email, now, 25)
        );
        let ids =
            |leads: Vec<PendingLead>| leads.into_iter().map(|l| l.quote.id).collect::<Vec<_>>();
        let (from_a, from_b) = (ids(from_a.unwrap()), ids(from_b.unwrap()));
        let mut all: Vec<_> = from_a.iter().chain(&from_b).collect();
        all.sort();
        all.dedup();
        assert_eq!(
            (all.len(), from_a.len() + from_b.len()),
            (40, 40),
            "each lead to exactly one"
        );
        let due = |store: &Arc<PostgresStore>, channel, at| {
            let store = Arc::clone(store);
            async move { store.take_due_deliveries(channel, at, 100).await.unwrap() }
        };
        let claimed = due(&a, email, now).await;
        assert!(claimed.is_empty(), "claimed leads are not due");
        let webhook = due(&a, Channel::Webhook, now).await;
        assert_eq!(webhook.len(), 40, "each channel is claimed on its own");
        let expired = now + LEAD_CLAIM + std::time::Duration::from_secs(1);
        let expired = due(&b, email, expired).await;
        assert_eq!(expired.len(), 40, "due again if never recorded");
        a.close().await;
        b.close().await;
        schema.drop().await;
    }

    /// The writers of two instances append to one chain at once, with notice texts new to both:
    /// every lead is stored with its record, and the chain holds.
    #[tokio::test]
    #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
    async fn instances_appending_at_once_keep_one_chain() {
        use crate::store::consent::{verify, ConsentChannel, NewConsent, Verified};

        let schema = PostgresSchema::create().await;
        let [a, b] = two(&schema, StoreOptions::default()).await;
        let posts = (0..400).map(|i| {
            let store = Arc::clone(if i % 2 == 0 { &a } else { &b });
            let quote = suite::web(&format!("chain{i}@example.com")).with_consent(NewConsent {
                notice: Some(format!("Notice {}", i % 3)),
                page: "/".into(),
                channel: ConsentChannel::Form,
                client: None,
                user_agent: None,
                phone: None,
            });
            async move { store.insert(quote).await }
        });
        for inserted in futures_util::future::join_all(posts).await {
            assert_eq!(inserted.unwrap(), Inserted::New);
        }
        let chain = a.consent_chain(0, 1000).await.unwrap();
        assert!(matches!(
            verify(&chain),
            Verified::Intact { records: 400, .. }
        ));
        a.close().await;
        b.close().await;
        schema.drop().await;
    }

    #[test]
    fn connection_trouble_is_unavailable() {
        assert!(matches!(
            pool_error(PoolError::Closed),
            StoreError::Unavailable(_)
        ));
    }
}
