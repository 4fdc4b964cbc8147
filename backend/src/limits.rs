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
/// Largest voice-provider webhook body accepted (an end-of-call report carries the transcript).
pub const MAX_WEBHOOK_BODY_BYTES: usize = 1024 * 1024;
/// Admin API page size when none is asked for, and the largest one allowed.
pub const ADMIN_PAGE_DEFAULT: usize = 50;
pub const ADMIN_PAGE_MAX: usize = 1000;
/// Lead forwarding: the first retry waits about this long, each later one twice as long...
pub const LEAD_RETRY_FIRST: std::time::Duration = std::time::Duration::from_secs(2);
/// ...up to this.
pub const LEAD_RETRY_LONGEST: std::time::Duration = std::time::Duration::from_secs(30 * 60);
/// How long one delivery may take before it counts as failed.
pub const LEAD_DELIVERY_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// How often the forwarder looks for due leads, and how many it sends at once.
pub const LEAD_POLL_INTERVAL: std::time::Duration = std::time::Duration::from_millis(200);
pub const LEAD_BATCH: usize = 64;
/// PostgreSQL: how long a worker holds the leads it took before another instance may send them
/// (well beyond `LEAD_DELIVERY_TIMEOUT`, so only a dead worker's leads are taken over).
pub const LEAD_CLAIM: std::time::Duration = std::time::Duration::from_secs(60);
pub const LEAD_CONCURRENCY: usize = 16;
/// PostgreSQL: connections per instance, and how long to wait for one (or for the server to
/// answer a new connection) before a request is told the database is unavailable.
pub const PG_POOL_SIZE: usize = 16;
pub const PG_POOL_WAIT: std::time::Duration = std::time::Duration::from_secs(3);
pub const PG_CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(3);
/// The `Retry-After` of a 503 when the database is unavailable.
pub const UNAVAILABLE_RETRY_AFTER_SECS: u32 = 5;
