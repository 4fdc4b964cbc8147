//! The one way these tests wait: for what they check, not for a while. `eventually` asks its
//! probe again and again (every 20 ms) until it answers, and fails naming what it waited for
//! and what it saw last once `PATIENCE` has passed, which only a broken server takes.

use std::future::Future;
use std::time::Duration;

/// Far longer than anything takes on a loaded CI machine; a test that reaches it has failed.
const PATIENCE: Duration = Duration::from_secs(60);
const POLL: Duration = Duration::from_millis(20);

/// `probe`'s first `Ok`: it answers `Err` with what it saw while the wait goes on.
pub async fn eventually<T, E, F, Fut>(what: &str, mut probe: F) -> T
where
    E: std::fmt::Display,
    F: FnMut() -> Fut,
    Fut: Future<Output = Result<T, E>>,
{
    let deadline = tokio::time::Instant::now() + PATIENCE;
    loop {
        match probe().await {
            Ok(done) => return done,
            Err(seen) => assert!(
                tokio::time::Instant::now() < deadline,
                "timed out waiting for {what}: {seen}"
            ),
        }
        tokio::time::sleep(POLL).await;
    }
}
