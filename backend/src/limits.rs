//! Server-side limits, named once.

/// Largest quote request body accepted (issue 2).
pub const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;
/// User agents beyond this are cut before they are stored.
pub const MAX_USER_AGENT_CHARS: usize = 512;
/// Most inserts committed together in one transaction (group commit).
pub const MAX_WRITE_BATCH: usize = 512;
/// How long a graceful shutdown may take before in-flight requests are abandoned.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);
/// Quote posts a client may make per minute once its burst is spent (issue 7).
pub const DEFAULT_RATE_PER_MINUTE: u32 = 10;
/// Quote posts a client may make at once.
pub const DEFAULT_RATE_BURST: u32 = 5;
/// Clients whose rate is tracked before idle ones are forgotten.
pub const MAX_TRACKED_CLIENTS: usize = 100_000;
