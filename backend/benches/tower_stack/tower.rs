//! The same filter behind tower-http's layers, as it would replace the hand-written ones:
//! `SetRequestIdLayer`/`PropagateRequestIdLayer` for `request_id.rs` and the header
//! `connections.rs` sets, `TraceLayer` for the span and `request_log.rs`'s line,
//! `TimeoutLayer` and `RequestBodyLimitLayer` for `body.rs`'s deadline and cap, and `ServeDir`
//! for `routes/site/`. What tower-http has nothing for stays ours: the accept loop's head timeout,
//! head cap and send deadline (`SendDeadline`), the marks the filter reads (`Peer`, the request
//! target, the head's size), and the trusted-proxy rule for a sent id (`OurIds`).

use std::convert::Infallible;
use std::net::SocketAddr;
use std::time::Duration;

use backend::http::client_ip::Peer;
use backend::http::connections::{self, SEND_TIMEOUT};
use backend::http::head_size;
use backend::http::request_id::{self, RequestId};
use backend::http::request_target;
use backend::http::send_deadline::SendDeadline;
use backend::settings::trusted_proxies::TrustedProxies;
use bytes::Bytes;
use hyper::body::{Body, Incoming};
use hyper_util::rt::TokioIo;
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tower::{Service, ServiceBuilder};
use tower_http::body::Limited;
use tower_http::request_id::{MakeRequestId, PropagateRequestIdLayer, SetRequestIdLayer};
use tower_http::trace::TraceLayer;
use tracing::Span;
use warp::http::{Request, Response, StatusCode};

/// The largest body any route takes (the voice events'); each route keeps its own smaller cap.
pub const MAX_BODY_BYTES: usize = 1024 * 1024;
/// As `body.rs`'s deadline for a body, here on the whole request.
pub const REQUEST_TIMEOUT: Duration = Duration::from_secs(10);

type BoxError = Box<dyn std::error::Error + Send + Sync>;

/// tower-http asks for an id only when the request has none; ours, for one the peer may not set.
#[derive(Clone, Copy)]
struct OurIds {
    proxied: bool,
}

impl MakeRequestId for OurIds {
    fn make_request_id<B>(
        &mut self,
        request: &Request<B>,
    ) -> Option<tower_http::request_id::RequestId> {
        let id = RequestId::for_request(request.headers(), self.proxied);
        Some(tower_http::request_id::RequestId::new(id.header()))
    }
}

/// What the filter reads from the accept loop, and a sent id replaced unless a trusted proxy
/// sent a valid one (`SetRequestIdLayer` keeps any id it is sent).
fn mark(mut request: Request<Incoming>, peer: SocketAddr, proxied: bool) -> Request<Incoming> {
    request.extensions_mut().insert(Peer(peer));
    request_target::mark(&mut request);
    head_size::mark(&mut request);
    if request.headers().contains_key(request_id::HEADER) {
        let id = RequestId::for_request(request.headers(), proxied);
        request
            .headers_mut()
            .insert(request_id::HEADER, id.header());
    }
    request
}

/// The span a request is handled in: its id as ours has it, and the method and path, since
/// `TraceLayer`'s response callback sees the response only.
fn span<B>(request: &Request<B>) -> Span {
    let id = request
        .extensions()
        .get::<tower_http::request_id::RequestId>()
        .and_then(|id| id.header_value().to_str().ok())
        .unwrap_or_default();
    tracing::error_span!(
        "request",
        request_id = id,
        method = %request.method(),
        path = request.uri().path()
    )
}

/// The request's one log line (another target than ours, so the bench can turn ours off).
fn log_line<B>(response: &Response<B>, latency: Duration, _: &Span) {
    tracing::info!(
        target: "http_request",
        status = response.status().as_u16(),
        latency_ms = latency.as_secs_f64() * 1000.0,
    );
}

/// Serves `inner` behind the layers on `listener` until `stop`, each connection as
/// `connections::serve` does (head timeout, head cap, send deadline); `proxies`' ids are kept.
pub async fn serve<S, B>(
    listener: TcpListener,
    inner: S,
    proxies: TrustedProxies,
    stop: oneshot::Receiver<()>,
) where
    S: Service<Request<Limited<Incoming>>, Response = Response<B>, Error = Infallible>
        + Clone
        + Send
        + 'static,
    S::Future: Send + 'static,
    B: Body<Data = Bytes> + Default + Send + 'static,
    B::Error: Into<BoxError> + std::fmt::Display,
{
    let mut stop = std::pin::pin!(stop);
    loop {
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => accepted.expect("accept"),
            _ = &mut stop => return,
        };
        let proxied = proxies.trusts(peer.ip());
        let service = ServiceBuilder::new()
            .map_request(move |request| mark(request, peer, proxied))
            .layer(SetRequestIdLayer::x_request_id(OurIds { proxied }))
            .layer(
                TraceLayer::new_for_http()
                    .make_span_with(span)
                    .on_request(())
                    .on_response(log_line)
                    .on_body_chunk(())
                    .on_eos(())
                    .on_failure(()),
            )
            .layer(PropagateRequestIdLayer::x_request_id())
            .layer(tower_http::limit::RequestBodyLimitLayer::new(
                MAX_BODY_BYTES,
            ))
            .layer(tower_http::timeout::TimeoutLayer::with_status_code(
                StatusCode::REQUEST_TIMEOUT,
                REQUEST_TIMEOUT,
            ))
            .service(inner.clone());
        // As `connections::serve` sets up each connection.
        let connection = connections::http1_builder().serve_connection(
            TokioIo::new(SendDeadline::new(stream, SEND_TIMEOUT)),
            TowerToHyperService::new(service),
        );
        tokio::spawn(async move {
            let _ = connection.await;
        });
    }
}
