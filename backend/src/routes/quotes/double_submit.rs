//! The idempotency key of a form post. A browser's form carries no key of its own (the page is
//! the same prerendered file for everyone), so the server names the request: the same product and
//! e-mail posted again within `REMEMBERED` get the key of the first, and the store answers the
//! second post with the first quote. A double click, a resend after a lost answer or a retry after
//! a failure is therefore one lead; the same request after that is a new one, as with the form's
//! JSON posts. Only a digest of the values is kept, in this instance's memory.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use wasm_core::QuoteRequest;

/// How long a request is remembered: a double submit comes within seconds, a retry after a
/// failure within minutes.
const REMEMBERED: Duration = Duration::from_secs(10 * 60);
/// At most this many requests are remembered (a few hundred KB); past it the oldest are forgotten.
const CAPACITY: usize = 10_000;

#[derive(Default)]
pub struct RecentForms {
    seen: Mutex<HashMap<[u8; 32], (String, Instant)>>,
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
        let mut seen = self
            .seen
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((key, _)) = seen.get(&digest).filter(|(_, at)| fresh(at)) {
            return key.clone();
        }
        if seen.len() >= CAPACITY {
            seen.retain(|_, (_, at)| fresh(at));
        }
        if seen.len() >= CAPACITY {
            let oldest = seen.iter().min_by_key(|(_, (_, at))| *at).map(|(d, _)| *d);
            if let Some(oldest) = oldest {
                seen.remove(&oldest);
            }
        }
        let key = format!("form-{}", uuid::Uuid::now_v7());
        seen.insert(digest, (key.clone(), now));
        key
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
        for i in 0..CAPACITY + 10 {
            recent.key_at(&quote(&format!("a{i}@example.com")), false, start);
        }
        assert_eq!(recent.seen.lock().unwrap().len(), CAPACITY);
    }
}
