//! The idempotency key of a form post. A browser's form carries no key of its own (the page is
//! the same prerendered file for everyone), so the server names the request: the same product and
//! e-mail posted again within `REMEMBERED` get the key of the first, and the store answers the
//! second post with the first quote. A double click, a resend after a lost answer or a retry after
//! a failure is therefore one lead; the same request after that is a new one, as with the form's
//! JSON posts. Only a digest of the values is kept, in this instance's memory.

use std::convert::Infallible;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use wasm_core::QuoteRequest;

use crate::http::recent_clients::RecentClients;

/// How long a request is remembered: a double submit comes within seconds, a retry after a
/// failure within minutes.
const REMEMBERED: Duration = Duration::from_secs(10 * 60);
/// At most this many requests are remembered (a few hundred KB); one not posted again while
/// `CAPACITY / 2` others came is forgotten, at a constant cost per post (`RecentClients`).
const CAPACITY: usize = 10_000;

/// Each request's digest, with its key and when it was first posted.
pub struct RecentForms {
    seen: RecentClients<(String, Instant), [u8; 32]>,
}

impl Default for RecentForms {
    fn default() -> RecentForms {
        RecentForms {
            seen: RecentClients::new(CAPACITY),
        }
    }
}

impl RecentForms {
    /// The key for `request`: the one it was given within `REMEMBERED`, or a new one. A post
    /// held as spam has keys of its own, so a person's post is never answered with a script's
    /// spam that carried the same values.
    pub fn key_for(&self, request: &QuoteRequest, spam: bool) -> String {
        self.key_at(request, spam, Instant::now())
    }

    fn key_at(&self, request: &QuoteRequest, spam: bool, now: Instant) -> String {
        let digest: [u8; 32] = Sha256::new()
            .chain_update(request.product().as_str())
            .chain_update([0])
            .chain_update(request.email().as_str())
            .chain_update([0, u8::from(spam)])
            .finalize()
            .into();
        let fresh = |at: &Instant| now.saturating_duration_since(*at) < REMEMBERED;
        let remembered = self.seen.update(digest, |held| {
            let (key, at) = held
                .filter(|(_, at)| fresh(at))
                .unwrap_or_else(|| (format!("form-{}", uuid::Uuid::now_v7()), now));
            Ok::<_, Infallible>((key.clone(), (key, at)))
        });
        remembered.unwrap_or_else(|never| match never {})
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quote(email: &str) -> QuoteRequest {
        QuoteRequest::parse("family", email).unwrap()
    }

    #[test]
    fn the_same_request_within_the_window_has_the_same_key() {
        let recent = RecentForms::default();
        let start = Instant::now();
        let first = recent.key_at(&quote("ana@example.com"), false, start);
        assert!(first.starts_with("form-"));
        assert_eq!(
            recent.key_at(
                &quote(" ana@example.com "),
                false,
                start + Duration::from_secs(1)
            ),
            first,
            "the same values after trimming"
        );
        assert_ne!(
            recent.key_at(&quote("bea@example.com"), false, start),
            first
        );
        assert_ne!(
            recent.key_at(&quote("ana@example.com"), true, start),
            first,
            "spam with the same values"
        );
        assert_ne!(
            recent.key_at(&quote("ana@example.com"), false, start + REMEMBERED),
            first,
            "a new request once the window has passed"
        );
    }

    #[test]
    fn memory_is_bounded() {
        let recent = RecentForms::default();
        let start = Instant::now();
        let first = recent.key_at(&quote("a0@example.com"), false, start);
        for i in 1..3 * CAPACITY {
            recent.key_at(&quote(&format!("a{i}@example.com")), false, start);
            assert!(recent.seen.len() <= CAPACITY);
        }
        assert_ne!(
            recent.key_at(&quote("a0@example.com"), false, start),
            first,
            "forgotten once many others came"
        );
    }
}
