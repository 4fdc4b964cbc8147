//! sqlx 0.8 doing the evaluation's job (scripts/bench-sqlx.sh), as ../ours does it:
//! `sqlx-eval-sqlx sqlite FILE N` (one SqliteConnection: its worker thread) or
//! `sqlx-eval-sqlx postgres URL N` (a PgPool, a connection taken per statement). Then the
//! behaviour checks: `check-binds`, `check-tls URL` and `check-migrate FILE`.

use std::borrow::Cow;
use std::str::FromStr;

use sqlx::migrate::{Migration, MigrationType, Migrator};
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::sqlite::{SqliteConnectOptions, SqliteJournalMode, SqliteSynchronous};
use sqlx::{ConnectOptions, Connection, Row};

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

const DROP: &str = "DROP TABLE IF EXISTS sqlx_eval_quotes";
const CREATE: &str = "CREATE TABLE sqlx_eval_quotes (id TEXT PRIMARY KEY, product TEXT NOT NULL, \
    email TEXT NOT NULL, created_at TEXT NOT NULL, language TEXT NOT NULL)";
const INSERT: &str = "INSERT INTO sqlx_eval_quotes (id, product, email, created_at, language) \
    VALUES ($1, $2, $3, $4, $5)";
const SELECT: &str =
    "SELECT id, product, email, created_at, language FROM sqlx_eval_quotes WHERE id = $1";

fn quote(i: usize) -> [String; 5] {
    let id = format!("q{i:08}");
    let email = format!("{id}@example.com");
    [
        id,
        "family".into(),
        email,
        "2026-01-01T00:00:00Z".into(),
        "en".into(),
    ]
}

/// The job on `$db` (`&pool`, or `&mut conn`: expanded anew at each use).
macro_rules! job {
    ($db:expr, $n:expr) => {{
        sqlx::query(DROP).execute($db).await?;
        sqlx::query(CREATE).execute($db).await?;
        for i in 0..$n {
            let mut tx = $db.begin().await?;
            let mut query = sqlx::query(INSERT);
            for value in quote(i) {
                query = query.bind(value);
            }
            query.execute(&mut *tx).await?;
            tx.commit().await?;
        }
        for i in 0..$n {
            let [id, ..] = quote(i);
            let row = sqlx::query(SELECT).bind(id).fetch_one($db).await?;
            let row: [String; 5] = std::array::from_fn(|c| row.get(c));
            assert_eq!(row, quote(i));
        }
        sqlx::query(DROP).execute($db).await?;
    }};
}

async fn sqlite_connection(path: &str) -> Result<sqlx::SqliteConnection> {
    let options = SqliteConnectOptions::new()
        .filename(path)
        .create_if_missing(true);
    let options = options
        .journal_mode(SqliteJournalMode::Wal)
        .synchronous(SqliteSynchronous::Normal);
    Ok(options.connect().await?)
}

/// 3a: `$n` bound by its number or by first appearance; a missing value.
async fn check_binds() -> Result {
    let mut conn = sqlite_connection(":memory:").await?;
    let sql = "SELECT $2 || $1 || $2";
    let text: String = sqlx::query_scalar(sql)
        .bind("a")
        .bind("b")
        .fetch_one(&mut conn)
        .await?;
    println!(
        "sqlite: {sql:?} with binds a, b -> {text:?} (by number: \"bab\"; by appearance: \"aba\")"
    );
    let one: Result<Option<String>> = sqlx::query_scalar("SELECT $2 || $1")
        .bind("a")
        .fetch_one(&mut conn)
        .await
        .map_err(Into::into);
    println!("sqlite: \"SELECT $2 || $1\" with one bind (a) -> {one:?} (error, or NULL)");
    Ok(())
}

/// 3b: connects to `url` as it is and says whether the connection is encrypted.
async fn check_tls(url: &str) -> Result {
    let result: Result<bool> = async {
        let mut conn = PgConnectOptions::from_str(url)?.connect().await?;
        let sql = "SELECT ssl FROM pg_stat_ssl WHERE pid = pg_backend_pid()";
        Ok(sqlx::query_scalar(sql).fetch_one(&mut conn).await?)
    }
    .await;
    match result {
        Ok(ssl) => println!("connected, ssl={ssl}"),
        Err(e) => println!("refused: {e}"),
    }
    Ok(())
}

/// 3c: a database migrated as migrations.rs does (`user_version`), then sqlx's migrator with the
/// same SQL as its migration 1; then with `_sqlx_migrations` filled in (the conversion).
async fn check_migrate(path: &str) -> Result {
    let sql = "CREATE TABLE quote_requests (id TEXT PRIMARY KEY)";
    let mut conn = sqlite_connection(path).await?;
    sqlx::raw_sql(&format!("{sql}; PRAGMA user_version = 1"))
        .execute(&mut conn)
        .await?;
    let migration = Migration::new(
        1,
        "quote requests".into(),
        MigrationType::Simple,
        Cow::Borrowed(sql),
        false,
    );
    let checksum = migration.checksum.to_vec();
    let migrator = Migrator {
        migrations: Cow::Owned(vec![migration]),
        ..Migrator::DEFAULT
    };
    println!(
        "sqlx migrator on our migrated database: {:?}",
        migrator.run(&mut conn).await
    );
    sqlx::query("INSERT INTO _sqlx_migrations (version, description, success, checksum, execution_time) VALUES (1, 'quote requests', TRUE, $1, 0)")
        .bind(checksum).execute(&mut conn).await?;
    println!(
        "after recording migration 1 in _sqlx_migrations (SHA-384 of its SQL): {:?}",
        migrator.run(&mut conn).await
    );
    Ok(())
}

#[tokio::main]
async fn main() -> Result {
    let args: Vec<String> = std::env::args().collect();
    let arg = |i: usize| {
        args.get(i)
            .map(String::as_str)
            .ok_or("usage: see src/main.rs")
    };
    match arg(1)? {
        "sqlite" => {
            let n: usize = arg(3)?.parse()?;
            let mut conn = sqlite_connection(arg(2)?).await?;
            job!(&mut conn, n);
            conn.close().await?;
        }
        "postgres" => {
            let n: usize = arg(3)?.parse()?;
            let pool = PgPoolOptions::new()
                .max_connections(4)
                .connect(arg(2)?)
                .await?;
            job!(&pool, n);
            pool.close().await;
        }
        "check-binds" => check_binds().await?,
        "check-tls" => check_tls(arg(2)?).await?,
        "check-migrate" => check_migrate(arg(2)?).await?,
        _ => return Err("usage: see src/main.rs".into()),
    }
    Ok(())
}
