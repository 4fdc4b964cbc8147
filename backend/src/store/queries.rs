//! The SQL both stores run, written once with PostgreSQL's `$n` parameters, which SQLite
//! takes as they are (`sqlite/parameters.rs` binds them by number). Timestamps are fixed-width
//! RFC 3339 text in UTC, so text order is time order in both databases. A statement that reads
//! or writes the lead table is in `lead_queries.rs`.

/// Taking one queued quote into the outbox: a row per channel, then its queue cleared
/// (`lead_queries::CLEAR_QUEUED`). $1 quote id, $2 first attempt, $3 channel.
pub const INSERT_OUTBOX: &str = "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
    VALUES ($1, $3, $2) ON CONFLICT DO NOTHING";
/// A call's end-of-call report, written once: a repeated report adds what the first lacked and
/// keeps what it had (the record may be held as evidence), `reported_at` the first report's; a
/// chat's row is never a call's (`RECORD_CHAT_TURN`). Returns the recording link kept. $1 call
/// id, $2 ended reason, $3 summary, $4 transcript, $5 now, $6 recording URL, $7 when it started,
/// $8 the transcript's lines left out (`transcript.rs`).
pub const RECORD_CALL: &str = "INSERT INTO voice_calls
        (call_id, ended_reason, summary, transcript, reported_at, recording_url, started_at,
        transcript_lines_dropped, channel)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'voice')
    ON CONFLICT (call_id) DO UPDATE SET
        ended_reason = COALESCE(voice_calls.ended_reason, excluded.ended_reason),
        summary = COALESCE(voice_calls.summary, excluded.summary),
        transcript_lines_dropped = CASE WHEN voice_calls.transcript IS NULL
            THEN excluded.transcript_lines_dropped ELSE voice_calls.transcript_lines_dropped END,
        transcript = COALESCE(voice_calls.transcript, excluded.transcript),
        recording_url = COALESCE(voice_calls.recording_url, excluded.recording_url),
        started_at = COALESCE(voice_calls.started_at, excluded.started_at)
    WHERE voice_calls.channel = 'voice'
    RETURNING recording_url";

/// A chat's transcript after a turn (`chat_transcript.rs` makes it from the one kept, so it
/// only grows), `reported_at` the turn's; the chat keeps when it started. A chat's id never is
/// a call's (`voice_events::conversation_id`), and a call's row is never a chat's. $1 chat id,
/// $2 transcript, $3 now, $4 when it started, $5 the transcript's lines left out.
pub const RECORD_CHAT_TURN: &str = "INSERT INTO voice_calls
        (call_id, transcript, reported_at, started_at, transcript_lines_dropped, channel)
    VALUES ($1, $2, $3, $4, $5, 'chat')
    ON CONFLICT (call_id) DO UPDATE SET transcript = excluded.transcript,
        transcript_lines_dropped = excluded.transcript_lines_dropped,
        reported_at = excluded.reported_at,
        started_at = COALESCE(voice_calls.started_at, excluded.started_at)
    WHERE voice_calls.channel = 'chat'";

/// The columns `notice_acceptance::notice_acceptance` reads, of `notice_acceptances` under the
/// name `a`.
pub(super) const ACCEPTANCE_COLUMNS: &str = "a.accepted_at AS notice_accepted_at,
    a.text AS notice_text, a.sha256 AS notice_sha256, a.language AS notice_language";

/// $1 call id.
pub const SELECT_CALL: &str = "SELECT call_id, channel, ended_reason, summary, transcript,
        transcript_lines_dropped, recording_url, started_at
    FROM voice_calls WHERE call_id = $1";

/// $1 the cut-off: a conversation is kept until `CONVERSATION_RETENTION_DAYS` have passed,
/// with or without a lead (`leads::retention`).
/// One on legal hold stays.
pub const PURGE_OLD_CONVERSATIONS: &str =
    "DELETE FROM voice_calls WHERE reported_at < $1 AND legal_hold_at IS NULL";

/// $1 call id, $2 when the hold was put on (`NULL` lifts it): whether the conversation is kept.
pub const SET_LEGAL_HOLD: &str = "UPDATE voice_calls SET legal_hold_at = $2 WHERE call_id = $1";

/// $1 the form token's key, $2 when it was issued: one row, or none when a lead spent it before.
pub const SPEND_FORM_TOKEN: &str =
    "INSERT INTO spent_form_tokens (token, issued_at) VALUES ($1, $2) ON CONFLICT DO NOTHING";
/// $1 the cut-off: tokens issued before it have expired, and no post can spend them again.
pub const FORGET_SPENT_FORM_TOKENS: &str = "DELETE FROM spent_form_tokens WHERE issued_at < $1";

/// $1 sha256, $2 text: a notice's text, kept once.
pub const INSERT_NOTICE_TEXT: &str =
    "INSERT INTO notice_texts (sha256, text) VALUES ($1, $2) ON CONFLICT DO NOTHING";
/// The chain's last record.
pub const CONSENT_HEAD: &str = "SELECT seq, hash FROM consent_records ORDER BY seq DESC LIMIT 1";
/// `consent::Link`'s fields in order, then its hash.
pub const INSERT_CONSENT: &str = "INSERT INTO consent_records
        (seq, lead_id, channel, page, language, at, client, user_agent, notice_sha256, prev_hash,
        phone_consent, phone_disclosure_sha256, hash_form, email, phone, may_call, kind, evidence,
        hash)
    VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18,
        $19)";
/// An attempt's outcome is recorded on the row only while it holds the event the attempt posted
/// (`lead_events`): one re-queued meanwhile is due for its own post. The last parameter is the
/// event's time (NULL: the lead as it came).
macro_rules! same_event {
    ($n:literal) => {
        concat!(
            " AND COALESCE(event_at, '') = COALESCE(CAST(",
            $n,
            " AS TEXT), '')"
        )
    };
}
/// $1 quote id, $2 now, $3 channel, $4 event time.
pub const MARK_DELIVERED: &str = concat!(
    "UPDATE lead_outbox SET attempts = attempts + 1, delivered_at = $2
    WHERE quote_id = $1 AND channel = $3",
    same_event!("$4")
);
/// $1 quote id, $2 error, $3 next attempt, $4 channel, $5 event time.
pub const MARK_RETRY: &str = concat!(
    "UPDATE lead_outbox
    SET attempts = attempts + 1, last_error = $2, next_attempt_at = $3
    WHERE quote_id = $1 AND channel = $4",
    same_event!("$5")
);
/// $1 quote id, $2 error, $3 now, $4 channel, $5 event time.
pub const MARK_GAVE_UP: &str = concat!(
    "UPDATE lead_outbox
    SET attempts = attempts + 1, last_error = $2, gave_up_at = $3
    WHERE quote_id = $1 AND channel = $4",
    same_event!("$5")
);

/// $1 call id.
pub const CALL_OF_LEAD: &str =
    "SELECT recording_url, transcript FROM voice_calls WHERE call_id = $1";

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

/// $1 id.
pub const DELETE_OUTBOX: &str = "DELETE FROM lead_outbox WHERE quote_id = $1";
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
