//! The JSON log on stderr, and one structured line per request in it. Only method, path,
//! status and latency: never a body or a query string, so an e-mail address cannot end up in
//! the logs. Each line written while a request is handled, this one among them, carries the
//! request's id in its `span` (`request_id`).

use std::backtrace::{Backtrace, BacktraceStatus};
use std::panic::PanicHookInfo;

use tracing_subscriber::EnvFilter;

use super::json_line::{JsonLine, JsonLineFields};

/// Installs the JSON subscriber and routes panics through it (see `log_panic`).
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .fmt_fields(JsonLineFields)
        .event_format(JsonLine)
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        .try_init();
    std::panic::set_hook(Box::new(log_panic));
}

/// A panic becomes one JSON error line like any other event, instead of the default hook's
/// free text on stderr, which log collectors reading JSON lines would garble or drop.
fn log_panic(info: &PanicHookInfo<'_>) {
    let payload = info.payload();
    let message = payload
        .downcast_ref::<&str>()
        .copied()
        .or_else(|| payload.downcast_ref::<String>().map(String::as_str))
        .unwrap_or("(a panic without a message)");
    let location = info.location().map(ToString::to_string);
    let backtrace = Backtrace::capture();
    let backtrace =
        (backtrace.status() == BacktraceStatus::Captured).then(|| backtrace.to_string());
    tracing::error!(
        target: "panic",
        panic = message,
        location,
        backtrace,
        thread = std::thread::current().name(),
        "a task panicked"
    );
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::http::json_line::tests::logged;

    #[test]
    fn a_panic_is_one_json_line_in_the_log() {
        // The hook is global: it is ours only around this one panic, on this thread, whose
        // subscriber is the captured one.
        let lines = logged(true, || {
            let previous = std::panic::take_hook();
            std::panic::set_hook(Box::new(log_panic));
            let outcome = std::panic::catch_unwind(|| panic!("static str is not valid {}", "path"));
            std::panic::set_hook(previous);
            assert!(outcome.is_err());
        });
        assert_eq!(lines.len(), 1, "{lines:?}");
        let line = &lines[0];
        assert_eq!(line["level"], "ERROR");
        assert_eq!(line["target"], "panic");
        assert_eq!(line["fields"]["panic"], "static str is not valid path");
        assert!(line["fields"]["location"]
            .as_str()
            .unwrap()
            .contains("request_log.rs"));
    }
}
