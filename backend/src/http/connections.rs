//! The accept loop: HTTP/1.1 connections served by the warp filter, with the bounds a public
//! server needs so slow or silent clients cannot take it down.
//!
//! - A connection must send a whole request head within `HEAD_TIMEOUT` of opening, or of its
//!   previous response (so an idle keep-alive connection is closed after it too); hyper's header
//!   read timeout runs from the first poll, silent connections included.
//! - At most `cap` connections are open at once, below the open-file limit (raised to its hard
//!   limit at start), so the process always keeps descriptors for its database and logs. Past the
//!   cap new connections wait in the kernel's backlog until one closes, which the timeout
//!   guarantees within `HEAD_TIMEOUT`.
//! - One client address holds at most `AddressCap`'s share of them (trusted proxies excepted), so
//!   a single address cannot fill the cap and keep everyone else in the backlog.
//! - A response the client does not read is cut off `SEND_TIMEOUT` after its socket first stopped
//!   taking bytes (`send_deadline`), so slow readers give their connections back too.
//! - A request head may be at most `MAX_HEAD_BYTES` (431 beyond, `head_size`): hyper's read
//!   buffer is capped there too (its floor is 8 KiB, its default about 400 KB), so an unfinished
//!   head costs tens of kilobytes.
//! - A request body that stalls is cut off by the filter reading it (`body.rs`).
//!
//! Each request is handled with its id as the current one, for the log, and answered with its
//! `X-Request-Id` (`request_id`).

use std::convert::Infallible;
use std::future::Future;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use tokio::net::TcpListener;
use tokio::sync::Semaphore;
use tracing::Instrument;
use warp::{Filter, Reply};

use crate::http::address_cap::{AddressCap, MAX_PER_ADDRESS};
use crate::http::client_ip::Peer;
use crate::http::forwarded_proto::{self, Https};
use crate::http::head_size::{self, MAX_HEAD_BYTES};
use crate::http::request_id::{self, RequestId};
use crate::http::request_target;
use crate::http::send_deadline::SendDeadline;
use crate::settings::trusted_proxies::TrustedProxies;

/// How long a client has to send its request head (and how long an idle keep-alive connection
/// lives).
pub const HEAD_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a response may wait for a client that stopped reading it.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Descriptors kept back from connections: the SQLite files, the PostgreSQL pool, the lead
/// forwarder's connections, standard streams and the runtime's own.
const RESERVED_FILES: u64 = 128;
/// The fewest connections allowed, however low the open-file limit.
const MIN_CONNECTIONS: u64 = 16;
/// How often the cap may be logged while it stays reached.
const CAP_LOG_INTERVAL: Duration = Duration::from_secs(60);

/// Raises the open-file soft limit to the hard limit and returns how many connections fit under it.
pub fn connection_cap() -> usize {
    let files = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(files) => files,
        Err(error) => {
            tracing::warn!(%error, "cannot read or raise the open-file limit");
            rlimit::getrlimit(rlimit::Resource::NOFILE).map_or(1024, |(soft, _)| soft)
        }
    };
    let cap = files.saturating_sub(RESERVED_FILES).max(MIN_CONNECTIONS);
    tracing::info!(
        open_files = files,
        max_connections = cap,
        "connection limits"
    );
    usize::try_from(cap).unwrap_or(usize::MAX)
}

/// One address may hold a quarter of the connections at most, so a few can never hold them all.
fn per_address_cap(cap: usize, proxies: TrustedProxies) -> AddressCap {
    AddressCap::new(MAX_PER_ADDRESS.min(cap / 4), proxies)
}

/// Serves `filter` on `listener` until `stop` resolves, then lets open connections finish.
/// `proxies` are exempt from the per-address cap.
pub async fn serve<F, R>(
    listener: TcpListener,
    filter: F,
    cap: usize,
    proxies: TrustedProxies,
    stop: impl Future<Output = ()>,
) where
    F: Filter<Extract = (R,), Error = Infallible> + Clone + Send + Sync + 'static,
    R: Reply + 'static,
{
    let permits = Arc::new(Semaphore::new(cap));
    let graceful = GracefulShutdown::new();
    let mut stop = std::pin::pin!(stop);
    let addresses = per_address_cap(cap, proxies.clone());
    let mut cap_logged: Option<Instant> = None;
    let mut address_cap_logged: Option<Instant> = None;
    loop {
        let permit = match Arc::clone(&permits).try_acquire_owned() {
            Ok(permit) => permit,
            Err(_) => {
                if cap_logged.is_none_or(|at| at.elapsed() >= CAP_LOG_INTERVAL) {
                    tracing::warn!(
                        max_connections = cap,
                        "connection cap reached: new connections wait until one closes"
                    );
                    cap_logged = Some(Instant::now());
                }
                tokio::select! {
                    permit = Arc::clone(&permits).acquire_owned() => match permit {
                        Ok(permit) => permit,
                        Err(_) => break,
                    },
                    () = &mut stop => break,
                }
            }
        };
        let (stream, peer) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(pair) => pair,
                Err(error) => {
                    // Out of descriptors despite the cap (another part of the process holds
                    // them): wait for some to close rather than spin.
                    tracing::error!(%error, "accept failed");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut stop => break,
        };
        let Some(slot) = addresses.admit(peer.ip()) else {
            // Closed at once: its descriptor and permit go back before the next accept.
            if address_cap_logged.is_none_or(|at| at.elapsed() >= CAP_LOG_INTERVAL) {
                tracing::warn!(
                    peer = %peer.ip(),
                    max_per_address = addresses.max(),
                    "connection cap per address reached: its new connections are closed"
                );
                address_cap_logged = Some(Instant::now());
            }
            continue;
        };
        let service = peer_service(filter.clone(), peer, proxies.clone());
        let connection = http1_builder().serve_connection(
            TokioIo::new(SendDeadline::new(stream, SEND_TIMEOUT)),
            service,
        );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            if let Err(error) = connection.await {
                tracing::debug!(%error, "connection ended with an error");
            }
            drop((slot, permit));
        });
    }
    drop(listener);
    graceful.shutdown().await;
}

/// How each connection is served: its head within `HEAD_TIMEOUT`, hyper's read buffer capped at
/// `MAX_HEAD_BYTES`.
fn http1_builder() -> http1::Builder {
    let mut builder = http1::Builder::new();
    builder
        .timer(TokioTimer::new())
        .header_read_timeout(HEAD_TIMEOUT)
        .max_buf_size(MAX_HEAD_BYTES);
    builder
}

/// The warp filter as a hyper service that hands each request its connection's peer address
/// and whether it came over HTTPS (as a trusted proxy says), handles it with its request id as
/// the current one and answers with the id. A trusted proxy's request ids are kept.
fn peer_service<F, R>(
    filter: F,
    peer: SocketAddr,
    proxies: TrustedProxies,
) -> impl hyper::service::Service<
    hyper::Request<hyper::body::Incoming>,
    Response = warp::reply::Response,
    Error = Infallible,
    Future = impl Future<Output = Result<warp::reply::Response, Infallible>> + Send,
>
where
    F: Filter<Extract = (R,), Error = Infallible> + Clone + Send + Sync + 'static,
    R: Reply + 'static,
{
    let service = warp::service(filter);
    let proxied = proxies.trusts(peer.ip());
    hyper::service::service_fn(move |mut request: hyper::Request<hyper::body::Incoming>| {
        let https = forwarded_proto::is_https(&proxies, Some(peer.ip()), request.headers());
        request.extensions_mut().insert(Peer(peer));
        request.extensions_mut().insert(Https(https));
        request_target::mark(&mut request);
        head_size::mark(&mut request);
        let id = RequestId::for_request(request.headers(), proxied);
        let header = id.header();
        let mut service = service.clone();
        // ERROR, the highest level, so that a filter quieting the server's own lines (`warn`)
        // keeps the request id on the lines it lets through.
        let span = tracing::error_span!("request", request_id = id.as_str());
        async move {
            let mut response = tower_service::Service::call(&mut service, request).await?;
            response.headers_mut().insert(request_id::HEADER, header);
            Ok(response)
        }
        .instrument(span)
    })
}
