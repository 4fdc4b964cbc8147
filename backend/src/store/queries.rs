//! The SQL both stores run, written once with PostgreSQL's `$n` parameters, which SQLite
//! takes as they are (`sqlite/parameters.rs` binds them by number). Timestamps are fixed-width
//! RFC 3339 text in UTC, so text order is time order in both databases. A new quote's insert is
//! written from its columns in `insert_quote.rs`; the statements here that only a lead's own
//! code runs name its columns by `lead_columns.rs`' constants.

use std::sync::LazyLock;

use super::lead_columns::{
    do_not_contact_now, CALL_ID, COLUMNS, CREATED_AT, DO_NOT_CONTACT_AT, EMAIL, ID,
    IDEMPOTENCY_KEY, MAY_CALL, PHONE, PRODUCT, QUEUED_CHANNELS, TABLE, TOOL_CALL_ID,
};

/// $1 idempotency key, $2 call id, $3 tool call id (`NewQuote::unique_keys`; NULL ones match
/// nothing).
pub static EARLIER_QUOTE: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {ID}, {PRODUCT}, {EMAIL} FROM {TABLE}
        WHERE {IDEMPOTENCY_KEY} = $1 OR ({CALL_ID} = $2 AND {TOOL_CALL_ID} = $3)"
    )
});

/// The oldest quotes still queued on their own row (`queued.rs`), as `rows::queued_lead` reads
/// them. $1 limit.
pub static QUEUED_LEADS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "SELECT {ID}, {CREATED_AT}, {QUEUED_CHANNELS} FROM {TABLE}
        WHERE {QUEUED_CHANNELS} IS NOT NULL ORDER BY {CREATED_AT} LIMIT $1"
    )
});

/// Taking one queued quote into the outbox: a row per channel, then the column cleared.
/// $1 quote id, $2 first attempt, $3 channel.
pub const INSERT_OUTBOX: &str = "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
    VALUES ($1, $3, $2) ON CONFLICT DO NOTHING";
/// $1 quote id.
pub static CLEAR_QUEUED: LazyLock<String> =
    LazyLock::new(|| format!("UPDATE {TABLE} SET {QUEUED_CHANNELS} = NULL WHERE {ID} = $1"));

/// PostgreSQL, where several instances take queued quotes at once: `QUEUED_LEADS`,
/// `INSERT_OUTBOX` and `CLEAR_QUEUED` as one statement, each quote taken by one of them.
/// $1 limit, $2 the channels this release knows (another is skipped, as `queued.rs` skips it).
pub static TAKE_QUEUED_LEADS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH taken AS ({} FOR UPDATE SKIP LOCKED),
        cleared AS (
            UPDATE {TABLE} q SET {QUEUED_CHANNELS} = NULL FROM taken WHERE q.{ID} = taken.{ID})
        INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
            SELECT taken.{ID}, channel, taken.{CREATED_AT}
            FROM taken CROSS JOIN unnest(string_to_array(taken.{QUEUED_CHANNELS}, ',')) AS channel
            WHERE channel = ANY($2)
        ON CONFLICT DO NOTHING",
        *QUEUED_LEADS
    )
});

/// The e-mail after a call, threaded under the call's first quote: once per call, and only for
/// a call that produced quotes, not for a person who asked not to be contacted. $1 call id, $2
/// first attempt.
pub const INSERT_FOLLOW_UP: &str = concat!(
    "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
    SELECT q.id, 'follow_up', $2 FROM quote_requests q
    WHERE q.call_id = $1 AND ",
    do_not_contact_now!(),
    " IS NULL
    ORDER BY q.created_at, q.id LIMIT 1
    ON CONFLICT DO NOTHING"
);

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

/// The kept conversations, as `conversations::conversation` reads them, newest first: each with the first
/// lead it produced, its recording's state and its notice's acceptance. `transcript` is `c.transcript` for one
/// conversation, `NULL` in a list.
fn conversations(transcript: &str, condition: &str) -> String {
    format!(
        "SELECT c.call_id, c.channel, c.ended_reason, c.summary, {transcript} AS transcript,
            c.transcript_lines_dropped, c.recording_url, c.reported_at, c.started_at,
            c.legal_hold_at, l.id AS lead_id, r.queued_at AS recording_queued_at,
            r.stored_at AS recording_stored_at, r.gave_up_at AS recording_gave_up_at,
            r.sha256 AS recording_sha256, r.size AS recording_size,
            r.last_error AS recording_error, {ACCEPTANCE_COLUMNS}
        FROM voice_calls c
        LEFT JOIN quote_requests l ON l.id = (
            SELECT q.id FROM quote_requests q WHERE q.call_id = c.call_id
            ORDER BY q.created_at, q.id LIMIT 1)
        LEFT JOIN call_recordings r ON r.call_id = c.call_id
        LEFT JOIN notice_acceptances a ON a.call_id = c.call_id
        {condition}"
    )
}

/// $1 limit.
pub static CONVERSATIONS: LazyLock<String> = LazyLock::new(|| {
    conversations(
        "CAST(NULL AS TEXT)",
        "ORDER BY c.reported_at DESC, c.call_id DESC LIMIT $1",
    )
});
/// $1 call id.
pub static CONVERSATION: LazyLock<String> =
    LazyLock::new(|| conversations("c.transcript", "WHERE c.call_id = $1"));

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
/// The chain's records as `consent::stored_link` reads them, each with its notice's text, its
/// lead's contact details as they are now (none once the lead is deleted) and the call or chat
/// the lead came from (the record keeps it when the lead is deleted, `inbox_queries::KEEP_CALL`).
macro_rules! consent_records {
    ($condition:literal) => {
        concat!(
            "SELECT r.seq, r.lead_id, r.channel, r.page, r.language, r.at, r.client,
                r.user_agent, r.notice_sha256, r.prev_hash, r.phone_consent,
                r.phone_disclosure_sha256, r.hash_form, r.email, r.phone, r.may_call, r.kind,
                r.evidence, r.hash,
                n.text AS notice_text, pd.text AS phone_disclosure_text, q.email AS lead_email,
                q.phone AS lead_phone, q.may_call AS lead_may_call,
                COALESCE(q.call_id, r.call_id) AS call_id
            FROM consent_records r LEFT JOIN notice_texts n ON n.sha256 = r.notice_sha256
            LEFT JOIN notice_texts pd ON pd.sha256 = r.phone_disclosure_sha256
            LEFT JOIN quote_requests q ON q.id = r.lead_id ",
            $condition
        )
    };
}
/// In order, after record $1 (0: from the start), $2 at most.
pub const CONSENT_CHAIN: &str = consent_records!("WHERE r.seq > $1 ORDER BY r.seq LIMIT $2");
/// $1 the record's number.
pub const CONSENT_RECORD: &str = consent_records!("WHERE r.seq = $1");
/// $1 lead id.
pub const CONSENT_OF_LEAD: &str = consent_records!("WHERE r.lead_id = $1 ORDER BY r.seq");
/// One person's records, their leads deleted or not, oldest first: those with $1 phone number
/// (E.164) or $2 e-mail address (in any case), whichever are given, at most $3. A record from before
/// records kept the contact details (`consent::FIRST_FORM`) is found by its lead's, while the
/// lead is kept.
pub const CONSENT_OF_PERSON: &str = consent_records!(
    "WHERE (CAST($1 AS TEXT) IS NOT NULL AND COALESCE(r.phone, q.phone) = $1)
        OR (CAST($2 AS TEXT) IS NOT NULL AND LOWER(COALESCE(r.email, q.email)) = LOWER($2))
    ORDER BY r.seq LIMIT $3"
);

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

/// The columns `rows::stored_quote` reads, by these names: the quote (every column of
/// `lead_columns.rs`) with its call report and each channel's outbox row joined in. The call's
/// transcript is left out: lists, the CSV and deliveries carry none; one lead's page reads it
/// (`inbox_queries::CALL_OF_LEAD`). The e-mail, phone and call permission are its consent
/// record's where the record keeps them (its hash covers them: `consent::HASH_FORM`), so a change
/// to the lead's row outside the chain does not reach the inbox (and `backend records verify`
/// names it); whether its person may be contacted is the do-not-contact list's too.
pub(super) static SELECT_QUOTES: LazyLock<String> = LazyLock::new(|| {
    let answered = [EMAIL, PHONE, MAY_CALL, DO_NOT_CONTACT_AT];
    let own: Vec<String> = COLUMNS
        .iter()
        .map(|column| column.name)
        .filter(|name| !answered.contains(name))
        .map(|name| format!("q.{name}"))
        .collect();
    format!(
        "SELECT {}, c.ended_reason, c.summary,
        CASE WHEN r.email IS NOT NULL THEN r.email ELSE q.{EMAIL} END AS {EMAIL},
        CASE WHEN r.email IS NOT NULL THEN r.phone ELSE q.{PHONE} END AS {PHONE},
        CASE WHEN wc.seq IS NOT NULL THEN 'yes'
            WHEN r.email IS NOT NULL THEN r.may_call ELSE q.{MAY_CALL} END AS {MAY_CALL},
        wc.channel AS written_consent_channel, wc.at AS written_consent_at,
        {} AS {DO_NOT_CONTACT_AT},
        r.channel AS consent_channel, r.page AS consent_page, r.language AS consent_language,
        r.at AS consent_at, r.notice_sha256 AS consent_sha256, n.text AS consent_text,
        r.phone_consent AS consent_phone, pd.text AS consent_phone_disclosure,
        w.quote_id IS NOT NULL AS webhook_queued, w.attempts AS webhook_attempts,
        w.last_error AS webhook_last_error, w.delivered_at AS webhook_delivered_at,
        w.gave_up_at AS webhook_gave_up_at, w.event AS webhook_event,
        w.event_at AS webhook_event_at,
        e.quote_id IS NOT NULL AS email_queued, e.attempts AS email_attempts,
        e.last_error AS email_last_error, e.delivered_at AS email_delivered_at,
        e.gave_up_at AS email_gave_up_at,
        f.quote_id IS NOT NULL AS follow_up_queued, f.attempts AS follow_up_attempts,
        f.last_error AS follow_up_last_error, f.delivered_at AS follow_up_delivered_at,
        f.gave_up_at AS follow_up_gave_up_at
    FROM {TABLE} q
    LEFT JOIN voice_calls c ON c.call_id = q.call_id
    LEFT JOIN consent_records r ON r.lead_id = q.id AND r.kind = 'lead'
    LEFT JOIN consent_records wc ON wc.seq = (SELECT MAX(x.seq) FROM consent_records x
        WHERE x.lead_id = q.id AND x.kind = 'call_consent')
    LEFT JOIN notice_texts n ON n.sha256 = r.notice_sha256
    LEFT JOIN notice_texts pd ON pd.sha256 = r.phone_disclosure_sha256
    LEFT JOIN lead_outbox w ON w.quote_id = q.id AND w.channel = 'webhook'
    LEFT JOIN lead_outbox e ON e.quote_id = q.id AND e.channel = 'email'
    LEFT JOIN lead_outbox f ON f.quote_id = q.id AND f.channel = 'follow_up'",
        own.join(", "),
        do_not_contact_now!()
    )
});

/// $1 now, $2 limit, $3 channel. A row held for the e-mail digest (`email_budget.rs`) is not
/// due.
pub fn due_deliveries() -> String {
    format!(
        "{}
         JOIN lead_outbox d ON d.quote_id = q.id AND d.channel = $3
         WHERE d.delivered_at IS NULL AND d.gave_up_at IS NULL AND d.held_at IS NULL
           AND d.next_attempt_at <= $1
         ORDER BY d.next_attempt_at LIMIT $2",
        *SELECT_QUOTES
    )
}

/// PostgreSQL, where several instances share the outbox: claims the due rows it returns by
/// pushing their next attempt to $3, so each goes to one worker; a worker that dies holding
/// some leaves them due again at $3. $1 now, $2 limit, $4 channel.
pub fn claim_due_deliveries() -> String {
    format!(
        "WITH claimed AS (
            UPDATE lead_outbox SET next_attempt_at = $3
            WHERE channel = $4 AND quote_id IN (
                SELECT quote_id FROM lead_outbox
                WHERE channel = $4 AND delivered_at IS NULL AND gave_up_at IS NULL
                  AND held_at IS NULL AND next_attempt_at <= $1
                ORDER BY next_attempt_at LIMIT $2
                FOR UPDATE SKIP LOCKED)
            RETURNING quote_id)
        {} WHERE q.id IN (SELECT quote_id FROM claimed)",
        *SELECT_QUOTES
    )
}
