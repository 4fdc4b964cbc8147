//! What each tower-http part would keep or lose of what the server does now, tried on the part
//! itself: one line each, "keeps" or "loses" with what it did, or "by its API" where there is
//! nothing to try. What it is held against is pinned by the server's tests (named in
//! `docs/architecture.md`, "tower-http, evaluated").

use std::convert::Infallible;
use std::os::unix::fs::symlink;
use std::sync::Mutex;
use std::time::Duration;

use backend::http::{body, error};
use bytes::Bytes;
use http_body_util::{BodyExt, Empty, Full, StreamBody};
use hyper::body::Frame;
use tower::{Service, ServiceBuilder, ServiceExt};
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::request_id::{MakeRequestUuid, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::services::ServeDir;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::{DefaultMakeSpan, DefaultOnResponse, TraceLayer};
use warp::http::{Request, Response, StatusCode};
use warp::Filter;

pub fn run() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    runtime.block_on(async {
        request_id().await;
        trace().await;
        serve_dir().await;
        body_limit().await;
        timeout().await;
    });
}

fn report(kept: bool, what: &str) {
    println!("{} {what}", if kept { "keeps:" } else { "loses:" });
}

/// A loss that follows from the part's signatures.
fn by_its_api(what: &str) {
    println!("loses (by its API): {what}");
}

type Text = String;

async fn answered(
    response: Response<impl hyper::body::Body<Data = Bytes>>,
) -> (StatusCode, Option<String>, Text) {
    let status = response.status();
    let content_type = response
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .map(str::to_owned);
    let body = match response.into_body().collect().await {
        Ok(body) => String::from_utf8_lossy(&body.to_bytes()).into_owned(),
        Err(_) => "(the body failed)".into(),
    };
    (status, content_type, body)
}

/// `SetRequestIdLayer` keeps the id any client sends; ours only a trusted proxy's.
async fn request_id() {
    let service = ServiceBuilder::new()
        .layer(SetRequestIdLayer::x_request_id(MakeRequestUuid))
        .layer(PropagateRequestIdLayer::x_request_id())
        .service_fn(|_: Request<Empty<Bytes>>| async {
            Ok::<_, Infallible>(Response::new(Empty::<Bytes>::new()))
        });
    let sent = Request::builder()
        .header("x-request-id", "two words from anyone")
        .body(Empty::new())
        .expect("request");
    let response = service.clone().oneshot(sent).await.expect("answer");
    let kept = response.headers().get("x-request-id").cloned();
    report(
        kept.is_none(),
        &format!("the trusted-proxy rule: SetRequestIdLayer kept a client's invalid id, {kept:?}, whoever sent it"),
    );
    let fresh = service
        .oneshot(Request::new(Empty::new()))
        .await
        .expect("answer");
    let id = fresh.headers()["x-request-id"]
        .to_str()
        .unwrap_or_default()
        .to_owned();
    let version = id.as_bytes().get(14).copied().map(char::from);
    report(
        version == Some('7'),
        &format!("UUIDv7 ids: MakeRequestUuid made {id} (version {version:?}); a MakeRequestId of ours is needed"),
    );
}

/// `TraceLayer`'s own span and line at INFO: the query string is in them (ours logs the path
/// only, so an e-mail address in a query never reaches the log).
async fn trace() {
    let captured = tempfile::NamedTempFile::new().expect("log file");
    let subscriber = tracing_subscriber::fmt()
        .json()
        .with_writer(Mutex::new(captured.reopen().expect("log file")))
        .finish();
    let _default = tracing::subscriber::set_default(subscriber);
    let service = ServiceBuilder::new()
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(DefaultMakeSpan::new().level(tracing::Level::INFO))
                .on_response(DefaultOnResponse::new().level(tracing::Level::INFO)),
        )
        .service_fn(|_: Request<Empty<Bytes>>| async {
            Ok::<_, Infallible>(Response::new(Empty::<Bytes>::new()))
        });
    let request = Request::builder()
        .uri("/quote-result?email=ana@example.com")
        .body(Empty::new())
        .expect("request");
    let _ = service.oneshot(request).await;
    let log = std::fs::read_to_string(captured.path()).expect("log");
    report(
        !log.contains("ana@example.com"),
        &format!(
            "no query string in the log: TraceLayer's default span wrote {}",
            log.trim()
        ),
    );
    by_its_api(
        "the request line's fields.method and fields.path: TraceLayer's on_response sees the response only, so they move into the span (make_span_with)",
    );
}

/// `ServeDir` serves a link out of its folder and a dot-file, and sends a precompressed file
/// without `Vary: Accept-Encoding`.
async fn serve_dir() {
    let outside = tempfile::tempdir().expect("temp dir");
    std::fs::write(outside.path().join("passwd"), "root:x:0:0").expect("file");
    let site = tempfile::tempdir().expect("temp dir");
    symlink(outside.path().join("passwd"), site.path().join("leak.txt")).expect("link");
    std::fs::write(site.path().join(".env"), "SECRET=1").expect("file");
    std::fs::write(site.path().join("app.js"), "js").expect("file");
    std::fs::write(site.path().join("app.js.br"), "br").expect("file");
    let files = ServeDir::new(site.path())
        .precompressed_br()
        .precompressed_gzip();
    let get = |path: &str| {
        Request::builder()
            .uri(path)
            .header("accept-encoding", "br")
            .body(Empty::<Bytes>::new())
            .expect("request")
    };
    let (status, _, body) = answered(
        files
            .clone()
            .oneshot(get("/leak.txt"))
            .await
            .expect("answer"),
    )
    .await;
    report(
        status == StatusCode::NOT_FOUND,
        &format!("symlink refusal: a link out of the folder was answered {status} {body:?}"),
    );
    let (status, _, body) =
        answered(files.clone().oneshot(get("/.env")).await.expect("answer")).await;
    report(
        status == StatusCode::NOT_FOUND,
        &format!("dot-files kept private: /.env was answered {status} {body:?}"),
    );
    let response = files.oneshot(get("/app.js")).await.expect("answer");
    let vary = response.headers().get("vary").cloned();
    let content_type = response.headers().get("content-type").cloned();
    report(
        vary.is_some(),
        &format!("Vary: Accept-Encoding on a precompressed file: {vary:?}; Content-Type {content_type:?} (ours adds charset=utf-8)"),
    );
}

/// The filter's body read (`body::limited`) and the error body, behind `layer`.
fn limited_route() -> impl Filter<Extract = (warp::reply::Response,), Error = Infallible> + Clone {
    body::limited(16)
        .map(|bytes: Bytes| warp::reply::Reply::into_response(format!("{} bytes", bytes.len())))
        .recover(error::recover)
        .unify()
}

/// A body sent in frames, with no declared length.
type Chunked =
    StreamBody<futures_util::stream::Iter<std::vec::IntoIter<Result<Frame<Bytes>, Infallible>>>>;

/// Frames of `chunk` bytes, `count` of them, then the end; no length declared.
fn chunked(chunk: usize, count: usize) -> Request<Chunked> {
    let frames: Vec<_> = (0..count)
        .map(|_| Ok(Frame::data(Bytes::from(vec![b'x'; chunk]))))
        .collect();
    Request::post("/")
        .body(StreamBody::new(futures_util::stream::iter(frames)))
        .expect("request")
}

/// `RequestBodyLimitLayer` answers a declared length over its limit in plain text, and turns a
/// chunked body over it into a read error the route cannot tell from a broken body.
async fn body_limit() {
    let mut service = ServiceBuilder::new()
        .layer(RequestBodyLimitLayer::new(16))
        .service(warp::service(limited_route()));
    let declared = Request::post("/")
        .header("content-length", "32")
        .body(Full::new(Bytes::from(vec![b'x'; 32])))
        .expect("request");
    let (status, content_type, body) =
        answered(service.call(declared).await.expect("answer")).await;
    report(
        content_type.as_deref() == Some("application/json"),
        &format!("the JSON error body on a declared length over the limit: {status} {content_type:?} {body:?}"),
    );
    let mut service = ServiceBuilder::new()
        .layer(RequestBodyLimitLayer::new(16))
        .service(warp::service(limited_route()));
    let (status, _, body) = answered(service.call(chunked(10, 3)).await.expect("answer")).await;
    report(
        status == StatusCode::PAYLOAD_TOO_LARGE,
        &format!("413 for a chunked body over the limit: {status} {body}"),
    );
}

/// `TimeoutLayer` answers a stalled request with an empty 408 (ours: the JSON
/// `request_timeout`), and ends with the handler's future: a response the client does not read
/// is not its concern.
async fn timeout() {
    let stalled = Request::post("/")
        .body(StreamBody::new(futures_util::stream::pending::<
            Result<Frame<Bytes>, Infallible>,
        >()))
        .expect("request");
    let service = ServiceBuilder::new()
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_millis(100),
        ))
        .service(warp::service(limited_route()));
    let (status, content_type, body) =
        answered(service.oneshot(stalled).await.expect("answer")).await;
    report(
        content_type.as_deref() == Some("application/json"),
        &format!("the JSON error body on a stalled body: {status} {content_type:?} {body:?}"),
    );
    by_its_api(
        "the slow-reader send deadline: TimeoutLayer ends when the response's head is ready and ResponseBodyTimeoutLayer times the body's producer, not the client; SendDeadline stays",
    );
}
