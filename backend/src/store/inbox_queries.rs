//! The inbox's SQL, written once for both stores like `queries.rs` (PostgreSQL's `$n`, which
//! SQLite takes as they are). An open filter is a NULL parameter, so one statement serves every
//! combination of filters.

use super::lead_columns::do_not_contact_now;
use super::queries::SELECT_QUOTES;

/// `lead_columns::do_not_contact_now!` for the statements written with `format!`.
const DO_NOT_CONTACT_NOW: &str = do_not_contact_now!();

/// $1 since, $2 until, $3 product, $4 source, $5 status, $6 e-mail `LIKE` pattern, $7 the
/// cursor id, $8 the limit, $9 the ZIP code's state. Spam is listed only when $5 asks for it,
/// and then alone; a lead the visitor asked not to be contacted about has that status only.
pub fn find_leads() -> String {
    format!(
        "{}
         WHERE (CAST($1 AS TEXT) IS NULL OR q.created_at >= $1)
           AND (CAST($2 AS TEXT) IS NULL OR q.created_at < $2)
           AND (CAST($3 AS TEXT) IS NULL OR q.product = $3)
           AND (CAST($4 AS TEXT) IS NULL OR q.source = $4)
           AND (COALESCE(CAST($5 AS TEXT), '') = 'spam') = (q.spam IS NOT NULL)
           AND (CAST($5 AS TEXT) IS NULL OR $5 = 'spam'
                OR ($5 = 'do_not_contact') = ({DO_NOT_CONTACT_NOW} IS NOT NULL)
                   AND ($5 = 'do_not_contact' OR q.status = $5))
           AND (CAST($9 AS TEXT) IS NULL OR q.state = $9)
           AND (CAST($6 AS TEXT) IS NULL OR LOWER(q.email) LIKE $6 ESCAPE '\\')
           AND (CAST($7 AS TEXT) IS NULL OR (q.created_at, q.id) <
                (SELECT created_at, id FROM quote_requests WHERE id = $7))
         ORDER BY q.created_at DESC, q.id DESC LIMIT $8",
        *SELECT_QUOTES
    )
}

/// $1 id.
pub fn lead() -> String {
    format!("{} WHERE q.id = $1", *SELECT_QUOTES)
}

/// $1 call id.
pub const CALL_OF_LEAD: &str =
    "SELECT recording_url, transcript FROM voice_calls WHERE call_id = $1";

/// $1 id, $2 status (`new` or `contacted`), $3 when, $4 the channels a new lead is queued on
/// (`StoreOptions::queued_channels`). A lead that was spam is queued as if it had just come (a
/// channel it was delivered on before is skipped as it is taken into the outbox).
pub const SET_STATUS: &str = "UPDATE quote_requests SET status = $2, status_changed_at = $3,
    queued_channels = CASE WHEN spam IS NULL THEN queued_channels ELSE $4 END, spam = NULL,
    do_not_contact_at = NULL
    WHERE id = $1";
/// $1 id, $2 when: the broker holds the lead as spam; it is no longer queued.
pub const MARK_SPAM: &str = "UPDATE quote_requests
    SET spam = COALESCE(spam, 'marked'), status_changed_at = $2, queued_channels = NULL
    WHERE id = $1";
/// $1 id, $2 when: the visitor asked not to be contacted; the lead is no longer queued.
pub const MARK_DO_NOT_CONTACT: &str = "UPDATE quote_requests
    SET do_not_contact_at = COALESCE(do_not_contact_at, $2), status_changed_at = $2,
        queued_channels = NULL
    WHERE id = $1";
/// $1 id, $2 when: the marked lead's e-mail address and phone number go on the do-not-contact
/// list (`do_not_contact.rs`), unless they are on it already.
pub const LIST_DO_NOT_CONTACT: &str = "INSERT INTO do_not_contact (kind, value, added_at, lead_id)
    SELECT 'email', LOWER(email), CAST($2 AS TEXT), id FROM quote_requests WHERE id = $1
    UNION ALL
    SELECT 'phone', phone, CAST($2 AS TEXT), id FROM quote_requests
    WHERE id = $1 AND phone IS NOT NULL
    ON CONFLICT DO NOTHING";
/// $1 id: the lead is no longer marked, and what marking it put on the list comes off.
pub const UNLIST_DO_NOT_CONTACT: &str = "DELETE FROM do_not_contact WHERE lead_id = $1";
/// $1 id: what was still to go out for a lead marked spam or not to be contacted.
pub const DROP_UNDELIVERED: &str =
    "DELETE FROM lead_outbox WHERE quote_id = $1 AND delivered_at IS NULL";

/// The key named $1: $2 unless one is stored, then whichever is (`KEY`).
pub const KEEP_KEY: &str =
    "INSERT INTO site_keys (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING";
/// $1 name.
pub const KEY: &str = "SELECT value FROM site_keys WHERE name = $1";

/// $1 id, $2 the note (NULL: none).
pub const SET_NOTE: &str = "UPDATE quote_requests SET note = $2 WHERE id = $1";

/// $1 id (no row: no such lead).
pub const LEAD_EXISTS: &str = "SELECT id FROM quote_requests WHERE id = $1";
/// $1 id.
pub const DELETE_OUTBOX: &str = "DELETE FROM lead_outbox WHERE quote_id = $1";
/// $1 id: its consent records keep the call or chat it came from, whose conversation stays, so
/// a record's copy still finds it once the lead is gone (`consent::StoredLink::call_id`).
pub const KEEP_CALL: &str = "UPDATE consent_records
    SET call_id = (SELECT call_id FROM quote_requests WHERE id = $1)
    WHERE lead_id = $1 AND call_id IS NULL";
/// $1 id.
pub const DELETE_LEAD: &str = "DELETE FROM quote_requests WHERE id = $1";

/// $1 cutoff, $2 limit.
pub const LEADS_CREATED_BEFORE: &str =
    "SELECT id FROM quote_requests WHERE created_at < $1 ORDER BY created_at, id LIMIT $2";

/// $1 id hash, $2 now.
pub const CREATE_SESSION: &str =
    "INSERT INTO admin_sessions (id_hash, created_at, last_seen_at) VALUES ($1, $2, $2)";
/// $1 id hash, $2 now, $3 idle since, $4 signed in since.
pub const TOUCH_SESSION: &str = "UPDATE admin_sessions SET last_seen_at = $2
    WHERE id_hash = $1 AND last_seen_at > $3 AND created_at > $4";
/// $1 id hash.
pub const DELETE_SESSION: &str = "DELETE FROM admin_sessions WHERE id_hash = $1";
pub const DELETE_ALL_SESSIONS: &str = "DELETE FROM admin_sessions";
/// $1 idle since, $2 signed in since.
pub const DELETE_ENDED_SESSIONS: &str =
    "DELETE FROM admin_sessions WHERE last_seen_at <= $1 OR created_at <= $2";
