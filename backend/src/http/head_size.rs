//! The cap on a request head (request line and headers). hyper's read buffer, capped at
//! `MAX_HEAD_BYTES` (`connections`), bounds what an unfinished head holds, but a head that
//! arrives whole in a read past the buffer's cap is still parsed: heads up to about 48 KiB were
//! served. So the accept loop also measures each parsed head as it was sent (`mark`) and
//! `within_cap` refuses one past the cap with `431 request_head_too_large`, through the one
//! `recover` and the request log like any error.

use warp::http::Request;
use warp::{Filter, Rejection};

use crate::http::error::ApiError;
use crate::http::request_target::unmarked;

/// The largest request head, far above the few kilobytes a browser sends.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// Put in a request's extensions when its head is past `MAX_HEAD_BYTES`.
#[derive(Clone, Copy, Debug)]
struct TooLarge;

/// The head's size as an HTTP/1.1 client writes it: `METHOD target HTTP/1.1\r\n`, then
/// `name: value\r\n` for each header, then `\r\n`.
fn head_bytes<B>(request: &Request<B>) -> usize {
    const VERSION_AND_SEPARATORS: usize = " HTTP/1.1\r\n".len() + " ".len();
    let request_line =
        request.method().as_str().len() + written_len(request.uri()) + VERSION_AND_SEPARATORS;
    let headers: usize = request
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + ": ".len() + value.len() + "\r\n".len())
        .sum();
    request_line + headers + "\r\n".len()
}

/// How long `shown` is written out, counted without writing it anywhere (every request is
/// measured).
fn written_len(shown: &impl std::fmt::Display) -> usize {
    struct Count(usize);
    impl std::fmt::Write for Count {
        fn write_str(&mut self, text: &str) -> std::fmt::Result {
            self.0 += text.len();
            Ok(())
        }
    }
    let mut count = Count(0);
    let _ = std::fmt::Write::write_fmt(&mut count, format_args!("{shown}"));
    count.0
}

/// Marks `request` when its head is past `MAX_HEAD_BYTES`.
pub fn mark<B>(request: &mut Request<B>) {
    if head_bytes(request) > MAX_HEAD_BYTES {
        request.extensions_mut().insert(TooLarge);
    }
}

/// Refuses a request `mark` marked.
pub fn within_cap() -> impl Filter<Extract = (), Error = Rejection> + Clone {
    unmarked::<TooLarge>(ApiError::HeadTooLarge {
        limit: MAX_HEAD_BYTES,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_head_is_measured_as_it_was_sent() {
        let request = Request::builder()
            .method("GET")
            .uri("/healthz?a=1")
            .header("host", "x")
            .header("x-padding", "abc")
            .body(())
            .unwrap();
        let sent = "GET /healthz?a=1 HTTP/1.1\r\nhost: x\r\nx-padding: abc\r\n\r\n";
        assert_eq!(head_bytes(&request), sent.len());
    }
}
