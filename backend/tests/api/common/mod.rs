//! Starts the real application on port 0 with a fresh database and a small built site.

pub mod broker;
pub mod eventually;
pub mod postgres;
pub mod receiver;
pub mod recording_host;
pub mod smtp;
pub mod vapi_rest;
pub mod voice;

use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use backend::app::{self, RunningServer};
use backend::settings::leads::LeadsConfig;
use backend::settings::Config;
use backend::spam::{self, FormTokens};
use backend::store::{self, DatabaseUrl, StoredQuote};
use eventually::eventually;
use tempfile::TempDir;

pub struct TestApp {
    pub addr: SocketAddr,
    /// A person's browser that loads a page of the site before each lead: every post carries a
    /// fresh form token (a token serves one lead).
    pub client: reqwest::Client,
    page_views: Arc<PageViews>,
    pub database: DatabaseUrl,
    config: Config,
    server: Option<RunningServer>,
    _dir: TempDir,
}

pub const INDEX_HTML: &str = "<!doctype html><title>Home</title><div id=root>home</div>";
pub const NOT_FOUND_HTML: &str = "<!doctype html><title>404 Page Not Found</title>";
pub const ASSET_JS: &str = "console.log('app');";
/// A browser's form post's `Content-Type`.
pub const FORM: &str = "application/x-www-form-urlencoded";

/// A `Set-Cookie` as its `name=value` and its attributes in a stable order (the order a server
/// writes them in means nothing to a browser).
pub fn cookie_parts(set_cookie: &str) -> (&str, Vec<&str>) {
    let mut parts = set_cookie.split("; ");
    let pair = parts.next().unwrap_or_default();
    let mut attributes: Vec<&str> = parts.collect();
    attributes.sort_unstable();
    (pair, attributes)
}

/// The first column of the one row `sql` gives on `database`, either kind.
pub async fn first_value<T>(database: &DatabaseUrl, sql: &str) -> T
where
    T: rusqlite::types::FromSql + for<'a> tokio_postgres::types::FromSql<'a>,
{
    match database {
        DatabaseUrl::Sqlite(path) => rusqlite::Connection::open(path)
            .unwrap()
            .query_row(sql, [], |row| row.get(0))
            .unwrap(),
        DatabaseUrl::Postgres(url) => {
            let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                .await
                .unwrap();
            tokio::spawn(connection);
            client.query_one(sql, &[]).await.unwrap().get(0)
        }
    }
}

/// The id of the lead `response` (to a quote post, which must be `201`) created.
pub async fn created_id(response: reqwest::Response) -> String {
    assert_eq!(response.status(), 201);
    response.json::<serde_json::Value>().await.unwrap()["id"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// A client that does not follow redirects: a browser's first step, the `303` itself.
pub fn no_redirects() -> reqwest::Client {
    reqwest::Client::builder()
        .redirect(reqwest::redirect::Policy::none())
        .build()
        .unwrap()
}

fn small_site(dir: &TempDir) -> PathBuf {
    let site = dir.path().join("dist");
    std::fs::create_dir_all(site.join("assets")).unwrap();
    std::fs::write(site.join("index.html"), INDEX_HTML).unwrap();
    std::fs::write(site.join("404.html"), NOT_FOUND_HTML).unwrap();
    std::fs::write(site.join("assets/app-abc123.js"), ASSET_JS).unwrap();
    std::fs::write(site.join("assets/app-abc123.js.br"), b"brotli-bytes").unwrap();
    // The build's facts the server reads: here only each page's lead-generation notice.
    std::fs::create_dir_all(site.join(".site/es")).unwrap();
    let facts = |notice: &str| serde_json::json!({ "leadNotice": notice }).to_string();
    std::fs::write(site.join(".site/site.json"), facts(LEAD_NOTICE)).unwrap();
    std::fs::write(site.join(".site/es/site.json"), facts(LEAD_NOTICE_ES)).unwrap();
    site
}

/// The notice beside the small site's English and Spanish quote forms.
pub const LEAD_NOTICE: &str = "A licensed insurance agent of Test Broker will contact you.";
pub const LEAD_NOTICE_ES: &str = "Un agente con licencia de Test Broker le contactará.";

/// The form token's cookie (`form_token=...`) the home page sets, as a browser keeps it; empty
/// when the site has no page.
pub async fn form_cookie(addr: SocketAddr) -> String {
    let page = reqwest::get(format!("http://{addr}/"))
        .await
        .expect("home page");
    page.headers()
        .get_all(reqwest::header::SET_COOKIE)
        .iter()
        .filter_map(|value| value.to_str().ok())
        .find(|value| value.starts_with("form_token="))
        .and_then(|value| value.split(';').next())
        .unwrap_or_default()
        .to_owned()
}

/// The form tokens the site gives its pages (signed with its key, kept in the database), one
/// fresh for each post to the form's path; none when the site has no page to give one.
struct PageViews {
    tokens: Option<FormTokens>,
}

impl PageViews {
    async fn of(addr: SocketAddr, database: &DatabaseUrl) -> PageViews {
        if form_cookie(addr).await.is_empty() {
            return PageViews { tokens: None };
        }
        let store = store::open(database).await.expect("the database opens");
        let tokens = FormTokens::load(store.as_ref(), Duration::ZERO)
            .await
            .expect("the site's key");
        store.close().await;
        PageViews {
            tokens: Some(tokens),
        }
    }

    fn cookie(&self) -> Option<String> {
        let token = self.tokens.as_ref()?.issue(time::OffsetDateTime::now_utc());
        Some(format!("{}={token}", spam::COOKIE))
    }
}

impl reqwest::cookie::CookieStore for PageViews {
    fn set_cookies(
        &self,
        _cookie_headers: &mut dyn Iterator<Item = &reqwest::header::HeaderValue>,
        _url: &reqwest::Url,
    ) {
    }

    fn cookies(&self, url: &reqwest::Url) -> Option<reqwest::header::HeaderValue> {
        if url.path() != "/api/quote-requests" {
            return None;
        }
        self.cookie()?.parse().ok()
    }
}

/// How a test wants its application, `spawn_app`-style: the production defaults (read through
/// `Config::from_lookup`, as from the environment) except the rate limit, which is off because
/// tests post far more than 10 a minute from one address, and the form's fill time, which is 0
/// because a test posts as soon as its page is served (`spam` tests the default); a fresh SQLite
/// database and the small site in a temporary folder; then whatever the test sets.
/// A last change to the settings, after everything else the test set.
type Configure = Box<dyn FnOnce(&mut Config)>;

#[derive(Default)]
pub struct Spawn {
    env: Vec<(String, String)>,
    dir: Option<TempDir>,
    static_dir: Option<PathBuf>,
    database: Option<DatabaseUrl>,
    leads: Option<LeadsConfig>,
    configure: Option<Configure>,
}

impl Spawn {
    /// Settings as environment variables, read like the real ones.
    pub fn env(mut self, vars: &[(&str, &str)]) -> Spawn {
        self.env = vars
            .iter()
            .map(|(k, v)| (k.to_string(), v.to_string()))
            .collect();
        self
    }

    /// `env` made at run time (an SMTP server's address).
    pub fn env_owned(mut self, vars: Vec<(String, String)>) -> Spawn {
        self.env = vars;
        self
    }

    /// The temporary folder the app's files live in (for a test that put its own there).
    pub fn dir(mut self, dir: TempDir) -> Spawn {
        self.dir = Some(dir);
        self
    }

    pub fn static_dir(mut self, static_dir: PathBuf) -> Spawn {
        self.static_dir = Some(static_dir);
        self
    }

    /// Another database (for example a PostgreSQL one) instead of a fresh SQLite file.
    pub fn database(mut self, database: DatabaseUrl) -> Spawn {
        self.database = Some(database);
        self
    }

    /// With the voice events, admin API or forwarding switched on as `leads` says.
    pub fn leads(mut self, leads: LeadsConfig) -> Spawn {
        self.leads = Some(leads);
        self
    }

    /// Settings changed last, after the environment (for example a rate limit).
    pub fn configure(mut self, configure: impl FnOnce(&mut Config) + 'static) -> Spawn {
        self.configure = Some(Box::new(configure));
        self
    }

    pub async fn start(self) -> TestApp {
        let dir = self
            .dir
            .unwrap_or_else(|| tempfile::tempdir().expect("temp dir"));
        let fixed = [
            ("PORT", "0"),
            ("RATE_LIMIT_PER_MINUTE", "0"),
            ("FORM_MIN_FILL_SECONDS", "0"),
        ];
        let env = self
            .env
            .iter()
            .map(|(k, v)| (k.as_str(), v.as_str()))
            .chain(fixed);
        let lookup = |key: &str| {
            env.clone()
                .find(|(k, _)| *k == key)
                .map(|(_, v)| v.to_owned())
        };
        let mut config = Config::from_lookup(lookup).expect("valid settings");
        config.static_dir = self.static_dir.unwrap_or_else(|| small_site(&dir));
        // Read from STATIC_DIR as the server's settings are, here from the site given.
        config.site.licences = backend::settings::site::licences(&config.static_dir);
        config.database = self.database.unwrap_or_else(|| {
            DatabaseUrl::Sqlite(dir.path().join("quotes.db").to_string_lossy().into())
        });
        if let Some(leads) = self.leads {
            config.leads = leads;
        }
        if let Some(configure) = self.configure {
            configure(&mut config);
        }
        TestApp::start_config(dir, config).await
    }
}

impl TestApp {
    pub fn spawn() -> Spawn {
        Spawn::default()
    }

    pub async fn start() -> TestApp {
        TestApp::spawn().start().await
    }

    async fn start_config(dir: TempDir, config: Config) -> TestApp {
        let server = app::start(&config).await.expect("server starts");
        let page_views = Arc::new(PageViews::of(server.addr, &config.database).await);
        TestApp {
            addr: server.addr,
            client: reqwest::Client::builder()
                .cookie_provider(Arc::clone(&page_views))
                .build()
                .unwrap(),
            page_views,
            database: config.database.clone(),
            config,
            server: Some(server),
            _dir: dir,
        }
    }

    /// A fresh page view's form token cookie (`form_token=...`), as a browser holds it after
    /// loading the page; empty when the site has no page to give one.
    pub fn form_cookie(&self) -> String {
        self.page_views.cookie().unwrap_or_default()
    }

    /// Shuts the server down gracefully and starts it again on the same database.
    pub async fn restart(&mut self) {
        self.shutdown().await;
        let server = app::start(&self.config).await.expect("server restarts");
        self.addr = server.addr;
        self.server = Some(server);
    }

    /// Shuts the server down and starts it again on the same database with `change` made to
    /// its settings (as an operator editing the environment before a restart).
    pub async fn restart_with(&mut self, change: impl FnOnce(&mut Config)) {
        change(&mut self.config);
        self.restart().await;
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }

    /// Posts a web quote request, which must be answered `201`; the new lead's id.
    pub async fn post_lead(&self, product: &str, email: &str) -> String {
        let response = self
            .client
            .post(self.url("/api/quote-requests"))
            .json(&serde_json::json!({"product": product, "email": email}))
            .send()
            .await
            .unwrap();
        created_id(response).await
    }

    pub async fn get(&self, path: &str) -> reqwest::Response {
        self.client
            .get(self.url(path))
            .send()
            .await
            .expect("request sent")
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

    /// A browser's form post with `cookie` and `headers`, its redirect not followed.
    pub async fn form_post(
        &self,
        cookie: &str,
        headers: &[(&str, &str)],
        body: &str,
    ) -> reqwest::Response {
        let mut request = no_redirects()
            .post(self.url("/api/quote-requests"))
            .header("content-type", FORM)
            .header("cookie", cookie);
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        request.body(body.to_owned()).send().await.unwrap()
    }

    /// Once the server's loop named `name` (`alerts`, `digest`, a channel's worker such as
    /// `email`) has run a whole round begun after this call: whatever it would have done about
    /// what the test has just changed, it has done. The round in flight now may have looked
    /// before the change; the one after it has not.
    pub async fn after_a_round(&self, name: &str) {
        let finished = || {
            let server = self.server.as_ref().expect("a running server");
            let finished = server.rounds_finished(name);
            finished.unwrap_or_else(|| panic!("the server runs no loop named {name}"))
        };
        let enough = finished() + 2;
        eventually(&format!("two rounds of {name}"), || async {
            match finished() {
                done if done >= enough => Ok(()),
                done => Err(format!("{done} of {enough} rounds")),
            }
        })
        .await
    }

    /// `form_post` as a browser that just loaded the form's page sends it.
    pub async fn page_form_post(&self, body: &str) -> reqwest::Response {
        self.form_post(&self.form_cookie(), &[], body).await
    }

    /// Every stored row, read through a separate connection to the same database.
    pub async fn rows(&self) -> Vec<StoredQuote> {
        let store = store::open(&self.database).await.unwrap();
        let rows = store.list_since(None).await.unwrap();
        store.close().await;
        rows
    }

    /// The database's rows once `done` holds for them.
    pub async fn wait_for_rows(
        &self,
        what: &str,
        done: impl Fn(&[StoredQuote]) -> bool,
    ) -> Vec<StoredQuote> {
        eventually(what, || async {
            let rows = self.rows().await;
            if done(&rows) {
                Ok(rows)
            } else {
                Err(format!("{rows:?}"))
            }
        })
        .await
    }

    /// Runs `sql` on the app's database directly (to age a row, or look at a table the API
    /// does not show).
    pub async fn sql(&self, sql: &str) {
        match &self.database {
            DatabaseUrl::Sqlite(path) => {
                rusqlite::Connection::open(path)
                    .unwrap()
                    .execute_batch(sql)
                    .unwrap();
            }
            DatabaseUrl::Postgres(url) => {
                let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
                    .await
                    .unwrap();
                tokio::spawn(connection);
                client.batch_execute(sql).await.unwrap();
            }
        }
    }

    /// A connection of the test's own to the app's SQLite file.
    pub fn sqlite(&self) -> rusqlite::Connection {
        let DatabaseUrl::Sqlite(path) = &self.database else {
            panic!("an SQLite test")
        };
        rusqlite::Connection::open(path).unwrap()
    }

    /// Another process's write lock on the app's SQLite file (a backup, `sqlite3` open by hand),
    /// held past the busy timeout until the returned connection rolls back or is dropped.
    pub fn hold_write_lock(&self) -> rusqlite::Connection {
        let holder = self.sqlite();
        holder.execute_batch("BEGIN EXCLUSIVE").unwrap();
        holder
    }

    /// Makes the app's SQLite file refuse every quote from now on, as an operator's tool could.
    pub fn refuse_inserts(&self) {
        self.sqlite()
            .execute_batch(
                "CREATE TRIGGER refuse BEFORE INSERT ON quote_requests
                 BEGIN SELECT RAISE(ABORT, 'refused by the test'); END;",
            )
            .unwrap();
    }

    /// The number `sql` (one `SELECT count(*)`) gives on the app's database.
    pub async fn count(&self, sql: &str) -> i64 {
        first_value(&self.database, sql).await
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
