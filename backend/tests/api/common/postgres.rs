//! A PostgreSQL database of its own for one integration test.

/// A database of its own on the `TEST_DATABASE_URL` cluster, so the test can lock it out.
pub struct TestDatabase {
    admin: tokio_postgres::Client,
    name: String,
    pub url: String,
}

impl TestDatabase {
    /// Panics when `TEST_DATABASE_URL` is not set (the callers are `#[ignore]`d tests: asked for
    /// by name or by scripts/test.sh, a missing database fails them rather than passing them).
    pub async fn create() -> TestDatabase {
        let base = std::env::var("TEST_DATABASE_URL")
            .expect("TEST_DATABASE_URL is not set: run scripts/test.sh, which starts a PostgreSQL of its own");
        let (admin, connection) = tokio_postgres::connect(&base, tokio_postgres::NoTls)
            .await
            .unwrap();
        tokio::spawn(connection);
        let name = format!("test_{}", uuid::Uuid::now_v7().simple());
        admin
            .batch_execute(&format!("CREATE DATABASE {name}"))
            .await
            .unwrap();
        let mut url: reqwest::Url = base.parse().unwrap();
        url.set_path(&format!("/{name}"));
        TestDatabase {
            admin,
            name,
            url: url.to_string(),
        }
    }

    /// Refuses new connections and drops the server's open ones, as if the database went away;
    /// returns once they are gone (termination is asynchronous, up to 5 s each), so a request
    /// made next cannot still find one open.
    pub async fn go_down(&self) {
        let name = &self.name;
        self.admin
            .batch_execute(&format!(
                "ALTER DATABASE {name} WITH ALLOW_CONNECTIONS false;
                 SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE datname = '{name}';"
            ))
            .await
            .unwrap();
    }

    pub async fn come_back(&self) {
        let sql = format!("ALTER DATABASE {} WITH ALLOW_CONNECTIONS true", self.name);
        self.admin.batch_execute(&sql).await.unwrap();
    }

    pub async fn drop(self) {
        let sql = format!("DROP DATABASE {} WITH (FORCE)", self.name);
        self.admin.batch_execute(&sql).await.unwrap();
    }
}

/// Runs `scenario` on a database of its own (see `create`), dropped afterwards.
pub async fn on_postgres<F: std::future::Future<Output = ()>>(
    scenario: impl FnOnce(backend::store::DatabaseUrl) -> F,
) {
    let database = TestDatabase::create().await;
    scenario(backend::store::DatabaseUrl::Postgres(database.url.clone())).await;
    database.drop().await;
}

/// For each scenario `$name(database: Option<DatabaseUrl>)`, the tests `$name::sqlite` (a fresh
/// SQLite file, `None`) and `$name::postgres` (a PostgreSQL database of its own, `#[ignore]`d:
/// scripts/test.sh runs it).
macro_rules! on_both_databases {
    ($($name:ident),* $(,)?) => {$(
        mod $name {
            #[tokio::test]
            async fn sqlite() {
                super::$name(None).await;
            }

            #[tokio::test]
            #[ignore = "needs PostgreSQL: TEST_DATABASE_URL (scripts/test.sh runs it)"]
            async fn postgres() {
                $crate::common::postgres::on_postgres(|url| super::$name(Some(url))).await;
            }
        }
    )*};
}
pub(crate) use on_both_databases;
