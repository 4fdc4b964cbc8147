//! Starts the real application on port 0 with a fresh database and a small built site.

pub mod postgres;
pub mod receiver;
pub mod voice;

use std::net::SocketAddr;
use std::path::PathBuf;

use backend::app::{self, RunningServer};
use backend::settings::Config;
use backend::store::DatabaseUrl;
use backend::settings::leads::LeadsConfig;
use backend::store::{self, StoredQuote};
use tempfile::TempDir;

pub struct TestApp {
    pub addr: SocketAddr,
    pub client: reqwest::Client,
    pub database: DatabaseUrl,
    config: Config,
    server: Option<RunningServer>,
    _dir: TempDir,
}

pub const INDEX_HTML: &str = "<!doctype html><title>Home</title><div id=root>home</div>";
pub const NOT_FOUND_HTML: &str = "<!doctype html><title>404 Page Not Found</title>";
pub const ASSET_JS: &str = "console.log('app');";

fn small_site(dir: &TempDir) -> PathBuf {
    let site = dir.path().join("dist");
    std::fs::create_dir_all(site.join("assets")).unwrap();
    std::fs::write(site.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(site.join("404.html"), NOT_FOUND_HTML).unwrap();
    std::fs::write(site.join("assets/app-abc123.js"), ASSET_JS).unwrap();
    std::fs::write(site.join("assets/app-abc123.js.br"), b"brotli-bytes").unwrap();
    site
}

impl TestApp {
    pub async fn start() -> TestApp {
        TestApp::start_configured(|_| {}).await
    }

    /// Like `start`, with settings changed first (for example a rate limit).
    pub async fn start_configured(adjust: impl FnOnce(&mut Config)) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let site = small_site(&dir);
        let database = DatabaseUrl::Sqlite(dir.path().join("quotes.db").to_string_lossy().into());
        TestApp::start_with_adjusted(dir, site, database, adjust).await
    }

    /// The small site and a fresh database, with the settings `vars` give (as environment variables).
    pub async fn start_env(vars: &[(&str, &str)]) -> TestApp {
        let dir = tempfile::tempdir().expect("temp dir");
        let site = small_site(&dir).to_string_lossy().into_owned();
        let database = format!("sqlite://{}", dir.path().join("quotes.db").display());
        let fixed = [
            ("PORT", "0"),
            ("RATE_LIMIT_PER_MINUTE", "0"),
            ("STATIC_DIR", site.as_str()),
            ("DATABASE_URL", database.as_str()),
        ];
        let lookup = |key: &str| vars.iter().chain(&fixed).find(|(k, _)| *k == key).map(|(_, v)| v.to_string());
        TestApp::start_config(dir, Config::from_lookup(lookup).expect("valid settings")).await
    }

    /// With the voice webhook, admin API or forwarding switched on as `leads` says.
    pub async fn start_with_leads(leads: LeadsConfig) -> TestApp {
        TestApp::start_configured(|c| c.leads = leads).await
    }

    /// On `database` (for example a PostgreSQL one), with a small built site in `dir`.
    pub async fn start_on(dir: TempDir, database: DatabaseUrl, leads: LeadsConfig) -> TestApp {
        let site = small_site(&dir);
        TestApp::start_with_adjusted(dir, site, database, |c| c.leads = leads).await
    }

    pub async fn start_with(dir: TempDir, static_dir: PathBuf, database: DatabaseUrl) -> TestApp {
        TestApp::start_with_adjusted(dir, static_dir, database, |_| {}).await
    }

    async fn start_with_adjusted(
        dir: TempDir,
        static_dir: PathBuf,
        database: DatabaseUrl,
        adjust: impl FnOnce(&mut Config),
    ) -> TestApp {
        // The production defaults, except the rate limit: tests post far more than 10 a minute
        // from one address (the rate-limit test turns it back on).
        let mut config = Config::from_lookup(|key| match key {
            "PORT" => Some("0".into()),
            "RATE_LIMIT_PER_MINUTE" => Some("0".into()),
            _ => None,
        })
        .expect("test configuration");
        config.database = database;
        config.static_dir = static_dir;
        adjust(&mut config);
        TestApp::start_config(dir, config).await
    }

    pub async fn start_config(dir: TempDir, config: Config) -> TestApp {
        let server = app::start(&config).await.expect("server starts");
        TestApp {
            addr: server.addr,
            client: reqwest::Client::new(),
            database: config.database.clone(),
            config,
            server: Some(server),
            _dir: dir,
        }
    }

    /// Shuts the server down gracefully and starts it again on the same database.
    pub async fn restart(&mut self) {
        self.shutdown().await;
        let server = app::start(&self.config).await.expect("server restarts");
        self.addr = server.addr;
        self.server = Some(server);
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    pub async fn post_json(&self, body: &str) -> reqwest::Response {
        self.client
            .post(self.url("/api/quote-requests"))
            .header("content-type", "application/json")
            .body(body.to_owned())
            .send()
            .await
            .expect("request sent")
    }

    /// Every stored row, read through a separate connection to the same database.
    pub async fn rows(&self) -> Vec<StoredQuote> {
        let store = store::open(&self.database).await.unwrap();
        let rows = store.list_since(None).await.unwrap();
        store.close().await;
        rows
    }

    pub async fn stop(mut self) {
        self.shutdown().await;
    }

    /// Stops the server but keeps its database, for commands that run without it.
    pub async fn shutdown(&mut self) {
        if let Some(server) = self.server.take() {
            server.shutdown().await;
        }
    }
}
