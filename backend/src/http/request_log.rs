//! One structured line per request. Only method, path, status and latency: never a body or
//! a query string, so an e-mail address cannot end up in the logs.

use tracing_subscriber::EnvFilter;

pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .json()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
}

pub fn log() -> warp::log::Log<impl Fn(warp::log::Info<'_>) + Copy> {
    warp::log::custom(|info| {
        tracing::info!(
            target: "request",
            method = %info.method(),
            path = info.path(),
            status = info.status().as_u16(),
            latency_ms = info.elapsed().as_secs_f64() * 1000.0,
        );
    })
}
