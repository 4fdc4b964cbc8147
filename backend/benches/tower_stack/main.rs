//! The tower-http evaluation (`docs/architecture.md`, "tower-http, evaluated"): the server's
//! own stack (`ours`: `app::start`, so the accept loop, request ids and request log of
//! `backend/src/http/`) against the same filter behind tower-http's layers (`tower`, `tower.rs`),
//! for one kind of request, so `scripts/bench-tower.sh` can count the instructions each takes
//! under callgrind.
//!
//!   tower_stack ours|tower quote|asset N   N requests of the kind on one keep-alive connection
//!   tower_stack show                       each stack's answer to each kind, to compare them
//!   tower_stack behaviours                 what tower-http's parts keep and lose (`behaviours.rs`)
//!
//! The client is this main thread and the server runs on others, so callgrind's per-thread
//! counts (`--separate-threads=yes`) tell the server's instructions from the client's. The
//! server runs on a current-thread runtime, so no two runs differ by how tasks were spread over
//! worker threads.

mod behaviours;
mod client;
mod site;
mod tower;

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use backend::app::{self, RunningServer};
use backend::leads::consent_link::ConsentLinks;
use backend::leads::notice::LeadNotices;
use backend::routes::booking::BookingSite;
use backend::routes::consent_page::{ConsentPages, ConsentParts};
use backend::routes::opt_out::OptOutPages;
use backend::routes::quote_result::ResultPages;
use backend::routes::site::{PrivacyFacts, Site};
use backend::settings::Config;
use backend::spam::FormTokens;
use backend::store::{self, DatabaseUrl, StoreOptions};
use client::{Answer, Client};
use http_body_util::BodyExt;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tower_http::services::ServeDir;

#[derive(Clone, Copy, PartialEq)]
enum Stack {
    Ours,
    Tower,
}

#[derive(Clone, Copy, PartialEq)]
enum Kind {
    /// A valid quote post with the form token's cookie, as `scripts/bench.sh` sends.
    Quote,
    /// A hashed asset from a browser that takes brotli: its `.br` sibling.
    Asset,
}

const QUOTE: &str = r#"{"product":"family","email":"a@example.com"}"#;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // `cargo bench` passes `--bench`; that alone runs nothing (the script runs the binary).
    match args.as_slice() {
        [] | ["--bench", ..] => {}
        ["show"] => show(),
        ["behaviours"] => behaviours::run(),
        [stack, kind, count] => {
            let stack = match *stack {
                "ours" => Stack::Ours,
                "tower" => Stack::Tower,
                _ => usage(),
            };
            let kind = match *kind {
                "quote" => Kind::Quote,
                "asset" => Kind::Asset,
                _ => usage(),
            };
            let count = count.parse().unwrap_or_else(|_| usage());
            requests(stack, kind, count);
        }
        _ => usage(),
    }
}

fn usage() -> ! {
    eprintln!("usage: tower_stack ours|tower quote|asset N | show | behaviours");
    std::process::exit(2)
}

/// Serves `count` requests of `kind` (after the page that gives the form token) and checks each.
fn requests(stack: Stack, kind: Kind, count: usize) {
    log_init(stack);
    let server = Server::start(stack, kind);
    let mut client = Client::connect(server.addr);
    let request = request(&mut client, kind);
    for _ in 0..count {
        check(kind, &client.send(&request));
    }
    drop(client);
    server.stop();
}

/// The first answer of each stack to each kind of request, head and body size.
fn show() {
    for stack in [Stack::Ours, Stack::Tower] {
        for kind in [Kind::Quote, Kind::Asset] {
            let server = Server::start(stack, kind);
            let mut client = Client::connect(server.addr);
            let request = request(&mut client, kind);
            let answer = client.send(&request);
            check(kind, &answer);
            let name = if stack == Stack::Ours {
                "ours"
            } else {
                "tower"
            };
            print!(
                "== {name}:\n{}({} bytes of body)\n\n",
                answer.head,
                answer.body.len()
            );
            drop(client);
            server.stop();
        }
    }
}

/// The JSON log on stderr, as the server writes it; for tower-http's stack without the
/// filter's own request line (`TraceLayer` writes the one line instead).
fn log_init(stack: Stack) {
    if stack == Stack::Tower {
        // Before any other thread exists.
        std::env::set_var("RUST_LOG", "info,request=off");
    }
    backend::http::request_log::init();
}

/// The request to repeat: for a quote, with the cookie the home page gives.
fn request(client: &mut Client, kind: Kind) -> Vec<u8> {
    match kind {
        Kind::Quote => {
            let page =
                client.send(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\r\n");
            let cookie = page
                .header("set-cookie")
                .and_then(|value| value.split(';').next())
                .filter(|cookie| cookie.starts_with("form_token="))
                .unwrap_or_else(|| panic!("no form token in {}", page.head))
                .to_owned();
            format!(
                "POST /api/quote-requests HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\
                 Content-Type: application/json\r\nCookie: {cookie}\r\nContent-Length: {}\r\n\r\n{QUOTE}",
                QUOTE.len()
            )
            .into_bytes()
        }
        Kind::Asset => format!(
            "GET {} HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: bench\r\n\
             Accept-Encoding: gzip, deflate, br\r\n\r\n",
            site::ASSET
        )
        .into_bytes(),
    }
}

fn check(kind: Kind, answer: &Answer) {
    match kind {
        Kind::Quote => assert_eq!(answer.status(), 201, "{}", answer.head),
        Kind::Asset => {
            assert_eq!(answer.status(), 200, "{}", answer.head);
            assert_eq!(
                answer.header("content-encoding"),
                Some("br"),
                "{}",
                answer.head
            );
        }
    }
}

/// The server on its own thread, until `stop`.
struct Server {
    addr: SocketAddr,
    stop: oneshot::Sender<()>,
    thread: std::thread::JoinHandle<()>,
    _dir: tempfile::TempDir,
}

impl Server {
    fn start(stack: Stack, kind: Kind) -> Server {
        let dir = tempfile::tempdir().expect("temp dir");
        let config = config(dir.path());
        let (addr_tx, addr_rx) = std::sync::mpsc::channel();
        let (stop, stopped) = oneshot::channel();
        let thread = std::thread::spawn(move || {
            let runtime = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .expect("runtime");
            runtime.block_on(serve(stack, kind, config, addr_tx, stopped));
        });
        let addr = addr_rx.recv().expect("the server starts");
        Server {
            addr,
            stop,
            thread,
            _dir: dir,
        }
    }

    fn stop(self) {
        let _ = self.stop.send(());
        self.thread.join().expect("the server stops");
    }
}

/// The production settings with the rate limit off (every post comes from one address) and no
/// fill time, as `scripts/bench.sh` runs the server.
fn config(dir: &Path) -> Config {
    let vars = [
        ("PORT", "0"),
        ("RATE_LIMIT_PER_MINUTE", "0"),
        ("FORM_MIN_FILL_SECONDS", "0"),
    ];
    let mut config = Config::from_lookup(|key| {
        vars.iter()
            .find(|(name, _)| *name == key)
            .map(|(_, value)| (*value).to_owned())
    })
    .expect("valid settings");
    config.static_dir = site::write(dir);
    config.database = DatabaseUrl::Sqlite(dir.join("quotes.db").to_string_lossy().into());
    config
}

async fn serve(
    stack: Stack,
    kind: Kind,
    config: Config,
    addr: std::sync::mpsc::Sender<SocketAddr>,
    stop: oneshot::Receiver<()>,
) {
    if stack == Stack::Ours {
        let server: RunningServer = app::start(&config).await.expect("the server starts");
        addr.send(server.addr).expect("address sent");
        let _ = stop.await;
        server.shutdown().await;
        return;
    }
    let listener = TcpListener::bind(config.addr).await.expect("bound");
    addr.send(listener.local_addr().expect("address"))
        .expect("address sent");
    let proxies = config.trusted_proxies.clone();
    if kind == Kind::Asset {
        let mut headers = config.security_headers.header_map();
        headers.insert(
            warp::http::header::CACHE_CONTROL,
            warp::http::HeaderValue::from_static("public, max-age=31536000, immutable"),
        );
        let files = ::tower::ServiceBuilder::new()
            .map_response(move |response: warp::http::Response<_>| {
                // One body type with a default (for `TimeoutLayer`'s answer), as a router in
                // front of both the filter and the files would need anyway.
                let mut response = response.map(BodyExt::boxed_unsync);
                response.headers_mut().extend(headers.clone());
                response
            })
            .service(
                ServeDir::new(&config.static_dir)
                    .precompressed_br()
                    .precompressed_gzip(),
            );
        tower::serve(listener, files, proxies, stop).await;
        return;
    }
    let options = StoreOptions {
        forward_leads: false,
        email_leads: false,
    };
    let store = store::open_with(&config.database, options)
        .await
        .expect("store");
    let site = Site::load(&config.static_dir, &PrivacyFacts::of(&config)).expect("site");
    let pages = ResultPages::load(&config.static_dir).expect("result pages");
    let tokens = FormTokens::load(store.as_ref(), config.spam.min_fill)
        .await
        .expect("form tokens");
    let pages = app::FormPages {
        results: Arc::new(pages),
        opt_out: Arc::new(OptOutPages::load(&config.static_dir).expect("opt-out pages")),
        booking: BookingSite::load(&config.static_dir).expect("booking page"),
        // The bench's site has no booking.
        booking_refs: None,
    };
    let routes = app::routes(
        Arc::clone(&store),
        Arc::new(site),
        pages,
        Arc::new(tokens),
        Arc::new(LeadNotices::load(&config.static_dir).expect("lead notices")),
        ConsentParts {
            links: Arc::new(
                ConsentLinks::load(store.as_ref())
                    .await
                    .expect("consent links"),
            ),
            pages: Arc::new(ConsentPages::load(&config.static_dir).expect("consent pages")),
        },
        &config,
    );
    tower::serve(listener, warp::service(routes), proxies, stop).await;
    store.close().await;
}
