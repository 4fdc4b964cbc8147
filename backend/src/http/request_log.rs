//! The JSON log on stderr, and one structured line per request in it. Only method, path,
//! status and latency: never a body or a query string, so an e-mail address cannot end up in
//! the logs. Each line written while a request is handled, this one among them, carries the
//! request's id in its `span` (`request_id`).

use std::backtrace::{Backtrace, BacktraceStatus};
use std::panic::PanicHookInfo;

use tracing_subscriber::EnvFilter;

/// Installs the JSON subscriber and routes panics through it (see `log_panic`).
pub fn init() {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info"));
    let _ = tracing_subscriber::fmt()
        .json()
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
    use std::sync::{Arc, Mutex};

    use serde_json::{json, Value};

    use super::*;

    #[derive(Clone, Default)]
    struct Captured(Arc<Mutex<Vec<u8>>>);

    impl std::io::Write for Captured {
        fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
            self.0.lock().unwrap().extend_from_slice(bytes);
            Ok(bytes.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    /// The lines `log` writes in the server's format, without their `timestamp`.
    fn logged(log: impl FnOnce()) -> Vec<Value> {
        let captured = Captured::default();
        let writer = captured.clone();
        let subscriber = tracing_subscriber::fmt()
            .json()
            .with_writer(move || writer.clone())
            .finish();
        tracing::subscriber::with_default(subscriber, log);
        let text = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
        text.lines()
            .map(|line| serde_json::from_str::<Value>(line).expect(line))
            .map(|mut line| {
                line.as_object_mut().unwrap().remove("timestamp");
                line
            })
            .collect()
    }

    #[test]
    fn a_line_logged_while_a_request_is_handled_carries_its_id() {
        let lines = logged(|| {
            tracing::error_span!("request", request_id = "0193-ab").in_scope(|| {
                let delivery = tracing::info_span!("delivery", attempt = 2);
                let _delivery = delivery.enter();
                tracing::info!(target: "request", status = 201_u16, "done");
            });
        });
        assert_eq!(lines.len(), 1, "{lines:?}");
        assert_eq!(
            lines[0]["fields"],
            json!({"message": "done", "status": 201})
        );
        assert_eq!(lines[0]["span"], json!({"attempt": 2, "name": "delivery"}));
        assert_eq!(
            lines[0]["spans"][0],
            json!({"request_id": "0193-ab", "name": "request"})
        );
    }

    #[test]
    fn an_event_of_the_log_crate_keeps_its_level_and_target() {
        let lines = logged(|| {
            let record = log::Record::builder()
                .level(log::Level::Warn)
                .target("some_crate::pool")
                .args(format_args!("from log"))
                .build();
            tracing_log::format_trace(&record).unwrap();
        });
        assert_eq!(lines.len(), 1);
        assert_eq!(lines[0]["level"], "WARN");
        assert_eq!(lines[0]["target"], "some_crate::pool");
        assert_eq!(lines[0]["fields"]["message"], "from log");
    }

    #[test]
    fn a_panic_is_one_json_line_in_the_log() {
        // The hook is global: it is ours only around this one panic, on this thread, whose
        // subscriber is the captured one.
        let lines = logged(|| {
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
