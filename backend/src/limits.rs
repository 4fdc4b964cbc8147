//! Server-side limits, named once.

/// Largest quote request body accepted (issue 2).
pub const MAX_QUOTE_BODY_BYTES: usize = 16 * 1024;
/// User agents beyond this are cut before they are stored.
pub const MAX_USER_AGENT_CHARS: usize = 512;
/// Most inserts committed together in one transaction (group commit).
pub const MAX_WRITE_BATCH: usize = 512;
/// How long a graceful shutdown may take before in-flight requests are abandoned.
pub const SHUTDOWN_GRACE: std::time::Duration = std::time::Duration::from_secs(10);
