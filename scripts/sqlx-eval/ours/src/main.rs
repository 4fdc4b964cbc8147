//! The store's stack doing the evaluation's job (scripts/bench-sqlx.sh): `ours sqlite FILE N` or
//! `ours postgres URL N`. Creates `sqlx_eval_quotes`, inserts N rows (each its own transaction,
//! a cached statement with `$1..$5`), selects each back by id, drops the table. SQLite runs on a
//! thread owning the connection, each statement a message to it (as the store's writer thread);
//! PostgreSQL through a deadpool pool, a connection taken per statement.

use std::sync::{mpsc, Arc};

use deadpool_postgres::{Manager, ManagerConfig, Pool, RecyclingMethod};
use rusqlite::{Connection, Statement};
use tokio::sync::oneshot;

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

type Job = Box<dyn FnOnce(&mut Connection) + Send>;

/// Runs `f` on the connection's thread; its answer.
async fn call<T: Send + 'static>(
    jobs: &mpsc::Sender<Job>,
    f: impl FnOnce(&mut Connection) -> rusqlite::Result<T> + Send + 'static,
) -> T {
    let (tx, rx) = oneshot::channel();
    jobs.send(Box::new(move |c| drop(tx.send(f(c))))).unwrap();
    rx.await.unwrap().unwrap()
}

/// `values[n - 1]` as each `$n`, as backend/src/store/sqlite/parameters.rs binds.
fn bind(st: &mut Statement<'_>, values: &[String]) -> rusqlite::Result<()> {
    for index in 1..=st.parameter_count() {
        let name = st.parameter_name(index).unwrap_or("?");
        let value = name[1..]
            .parse::<usize>()
            .ok()
            .and_then(|n| values.get(n.checked_sub(1)?));
        let value = value.ok_or_else(|| rusqlite::Error::InvalidParameterName(name.into()))?;
        st.raw_bind_parameter(index, value)?;
    }
    Ok(())
}

async fn sqlite(path: String, n: usize) {
    let (jobs, queue) = mpsc::channel::<Job>();
    let thread = std::thread::spawn(move || {
        let mut conn = Connection::open(path).unwrap();
        conn.pragma_update(None, "journal_mode", "WAL").unwrap();
        conn.pragma_update(None, "synchronous", "NORMAL").unwrap();
        queue.into_iter().for_each(|job| job(&mut conn));
    });
    call(&jobs, |c| c.execute_batch(&format!("{DROP}; {CREATE}"))).await;
    for i in 0..n {
        call(&jobs, move |c| {
            let tx = c.transaction()?;
            let mut st = tx.prepare_cached(INSERT)?;
            bind(&mut st, &quote(i))?;
            st.raw_execute()?;
            drop(st);
            tx.commit()
        })
        .await;
    }
    for i in 0..n {
        let [id, ..] = quote(i);
        let row: [String; 5] = call(&jobs, move |c| {
            let mut st = c.prepare_cached(SELECT)?;
            bind(&mut st, &[id])?;
            let mut rows = st.raw_query();
            let row = rows.next()?.expect("the row");
            Ok([
                row.get(0)?,
                row.get(1)?,
                row.get(2)?,
                row.get(3)?,
                row.get(4)?,
            ])
        })
        .await;
        assert_eq!(row, quote(i));
    }
    call(&jobs, |c| c.execute_batch(DROP)).await;
    drop(jobs);
    thread.join().unwrap();
}

async fn postgres(url: String, n: usize) -> Result<(), Box<dyn std::error::Error>> {
    let provider = Arc::new(rustls::crypto::ring::default_provider());
    let tls = rustls::ClientConfig::builder_with_provider(provider)
        .with_safe_default_protocol_versions()?
        .with_root_certificates(rustls::RootCertStore::empty())
        .with_no_client_auth();
    let tls = tokio_postgres_rustls::MakeRustlsConnect::new(tls);
    let fast = ManagerConfig {
        recycling_method: RecyclingMethod::Fast,
    };
    let manager = Manager::from_config(url.parse()?, tls, fast);
    let pool = Pool::builder(manager).max_size(4).build()?;
    pool.get()
        .await?
        .batch_execute(&format!("{DROP}; {CREATE}"))
        .await?;
    for i in 0..n {
        let mut client = pool.get().await?;
        let tx = client.transaction().await?;
        let st = tx.prepare_cached(INSERT).await?;
        let values = quote(i);
        let values: Vec<&(dyn tokio_postgres::types::ToSql + Sync)> =
            values.iter().map(|v| v as _).collect();
        tx.execute(&st, &values).await?;
        tx.commit().await?;
    }
    for i in 0..n {
        let client = pool.get().await?;
        let st = client.prepare_cached(SELECT).await?;
        let row = client.query_one(&st, &[&quote(i)[0]]).await?;
        let row: [String; 5] = std::array::from_fn(|c| row.get(c));
        assert_eq!(row, quote(i));
    }
    pool.get().await?.batch_execute(DROP).await?;
    Ok(())
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let usage = "usage: ours sqlite FILE N | ours postgres URL N";
    let n: usize = args.get(3).ok_or(usage)?.parse()?;
    match args[1].as_str() {
        "sqlite" => sqlite(args[2].clone(), n).await,
        "postgres" => postgres(args[2].clone(), n).await?,
        _ => return Err(usage.into()),
    }
    Ok(())
}
