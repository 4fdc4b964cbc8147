//! Every statement that reads or writes the lead table, `quote_requests`, written once for both
//! stores like `queries.rs` (PostgreSQL's `$n`, which SQLite takes as they are). With
//! `lead_columns.rs` (the columns' declaration) and `migrations.rs` (the schema's history) it is
//! the one file naming the table's columns: a test in `lead_columns.rs` holds that. A new quote's
//! insert is written from the declaration (`insert_quote.rs`), and so is `SELECT_QUOTES`' list of
//! columns. An open filter is a NULL parameter, so one statement serves every combination.

use std::sync::LazyLock;

use super::lead_columns::{COLUMNS, DO_NOT_CONTACT_AT, EMAIL, MAY_CALL, PHONE};
use super::queries::ACCEPTANCE_COLUMNS;

/// What the store reads as the lead `q`'s `do_not_contact_at`: when it was marked do not
/// contact, or its person's phone number or e-mail address put on the do-not-contact list
/// (`do_not_contact.rs`); NULL when neither. A literal, so that statements take it in with
/// `concat!`.
macro_rules! do_not_contact_now {
    () => {
        "COALESCE(q.do_not_contact_at,
            (SELECT d.added_at FROM do_not_contact d
             WHERE d.kind = 'email' AND d.value = LOWER(q.email)),
            (SELECT d.added_at FROM do_not_contact d
             WHERE d.kind = 'phone' AND d.value = q.phone))"
    };
}

/// $1 idempotency key, $2 call id, $3 tool call id (`NewQuote::unique_keys`; NULL ones match
/// nothing).
pub const EARLIER_QUOTE: &str = "SELECT id, product, email FROM quote_requests
    WHERE idempotency_key = $1 OR (call_id = $2 AND tool_call_id = $3)";

/// The oldest quotes still queued on their own row (`queued.rs`), as `rows::queued_lead` reads
/// them. $1 limit.
pub const QUEUED_LEADS: &str = "SELECT id, created_at, queued_channels FROM quote_requests
    WHERE queued_channels IS NOT NULL ORDER BY created_at LIMIT $1";
/// Once a queued quote is in the outbox (`queries::INSERT_OUTBOX`). $1 quote id.
pub const CLEAR_QUEUED: &str = "UPDATE quote_requests SET queued_channels = NULL WHERE id = $1";

/// PostgreSQL, where several instances take queued quotes at once: `QUEUED_LEADS`,
/// `queries::INSERT_OUTBOX` and `CLEAR_QUEUED` as one statement, each quote taken by one of
/// them. $1 limit, $2 the channels this release knows (another is skipped, as `queued.rs` skips
/// it).
pub static TAKE_QUEUED_LEADS: LazyLock<String> = LazyLock::new(|| {
    format!(
        "WITH taken AS ({QUEUED_LEADS} FOR UPDATE SKIP LOCKED),
        cleared AS (
            UPDATE quote_requests q SET queued_channels = NULL FROM taken WHERE q.id = taken.id)
        INSERT INTO lead_outbox (quote_id, channel, next_attempt_at)
            SELECT taken.id, channel, taken.created_at
            FROM taken CROSS JOIN unnest(string_to_array(taken.queued_channels, ',')) AS channel
            WHERE channel = ANY($2)
        ON CONFLICT DO NOTHING"
    )
});

/// The columns `rows::stored_quote` reads, by these names: the quote (every column of
/// `lead_columns.rs`) with its call report and each channel's outbox row joined in. The call's
/// transcript is left out: lists, the CSV and deliveries carry none; one lead's page reads it
/// (`queries::CALL_OF_LEAD`). The e-mail, phone and call permission are its consent
/// record's where the record keeps them (its hash covers them: `consent::HASH_FORM`), so a change
/// to the lead's row outside the chain does not reach the inbox (and `backend records verify`
/// names it); whether its person may be contacted is the do-not-contact list's too.
static SELECT_QUOTES: LazyLock<String> = LazyLock::new(|| {
    let answered = [EMAIL, PHONE, MAY_CALL, DO_NOT_CONTACT_AT];
    let own: Vec<String> = COLUMNS
        .iter()
        .map(|column| column.name)
        .filter(|name| !answered.contains(name))
        .map(|name| format!("q.{name}"))
        .collect();
    format!(
        "SELECT {}, c.ended_reason, c.summary,
        CASE WHEN r.email IS NOT NULL THEN r.email ELSE q.email END AS email,
        CASE WHEN r.email IS NOT NULL THEN r.phone ELSE q.phone END AS phone,
        CASE WHEN wc.seq IS NOT NULL THEN 'yes'
            WHEN r.email IS NOT NULL THEN r.may_call ELSE q.may_call END AS may_call,
        wc.channel AS written_consent_channel, wc.at AS written_consent_at,
        {} AS do_not_contact_at,
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
    FROM quote_requests q
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

/// `Quotes::list`, newest or oldest first: $1 since; then $2 the cursor id when `after` one; the
/// limit last.
pub fn list_quotes(newest_first: bool, after: bool) -> String {
    let (direction, beyond) = if newest_first {
        ("DESC", "<")
    } else {
        ("ASC", ">")
    };
    let (after, limit) = match after {
        true => (
            format!("AND (q.created_at, q.id) {beyond} (SELECT created_at, id FROM quote_requests WHERE id = $2)"),
            "$3",
        ),
        false => (String::new(), "$2"),
    };
    format!(
        "{} WHERE q.created_at >= $1 {after}
         ORDER BY q.created_at {direction}, q.id {direction} LIMIT {limit}",
        *SELECT_QUOTES
    )
}

/// The inbox's list. $1 since, $2 until, $3 product, $4 source, $5 status, $6 e-mail `LIKE`
/// pattern, $7 the cursor id, $8 the limit, $9 the ZIP code's state. Spam is listed only when $5
/// asks for it, and then alone; a lead the visitor asked not to be contacted about has that
/// status only.
pub fn find_leads() -> String {
    format!(
        "{}
         WHERE (CAST($1 AS TEXT) IS NULL OR q.created_at >= $1)
           AND (CAST($2 AS TEXT) IS NULL OR q.created_at < $2)
           AND (CAST($3 AS TEXT) IS NULL OR q.product = $3)
           AND (CAST($4 AS TEXT) IS NULL OR q.source = $4)
           AND (COALESCE(CAST($5 AS TEXT), '') = 'spam') = (q.spam IS NOT NULL)
           AND (CAST($5 AS TEXT) IS NULL OR $5 = 'spam'
                OR ($5 = 'do_not_contact') = ({} IS NOT NULL)
                   AND ($5 = 'do_not_contact' OR q.status = $5))
           AND (CAST($9 AS TEXT) IS NULL OR q.state = $9)
           AND (CAST($6 AS TEXT) IS NULL OR LOWER(q.email) LIKE $6 ESCAPE '\\')
           AND (CAST($7 AS TEXT) IS NULL OR (q.created_at, q.id) <
                (SELECT created_at, id FROM quote_requests WHERE id = $7))
         ORDER BY q.created_at DESC, q.id DESC LIMIT $8",
        *SELECT_QUOTES,
        do_not_contact_now!()
    )
}

/// $1 id.
pub fn lead() -> String {
    format!("{} WHERE q.id = $1", *SELECT_QUOTES)
}

/// $1 the conversation: its leads with a phone number, oldest first.
pub fn leads_of_conversation() -> String {
    format!(
        "{} WHERE q.call_id = $1 AND q.phone IS NOT NULL
         ORDER BY q.created_at, q.id",
        *SELECT_QUOTES
    )
}

/// An outbox row `d` held for the e-mail digest (`email_budget.rs`) before $1.
const HELD: &str = "d.channel = 'email' AND d.held_at IS NOT NULL AND d.held_at < $1
    AND d.delivered_at IS NULL AND d.gave_up_at IS NULL";

/// $1 before, $2 limit.
pub fn held_leads() -> String {
    format!(
        "{} JOIN lead_outbox d ON d.quote_id = q.id
         WHERE {HELD} ORDER BY q.created_at, q.id LIMIT $2",
        *SELECT_QUOTES
    )
}

/// $1 before.
pub fn count_held() -> String {
    format!("SELECT CAST(count(*) AS INTEGER) AS held FROM lead_outbox d WHERE {HELD}")
}

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
/// $1 id, $2 the note (NULL: none).
pub const SET_NOTE: &str = "UPDATE quote_requests SET note = $2 WHERE id = $1";
/// $1 id (no row: no such lead).
pub const LEAD_EXISTS: &str = "SELECT id FROM quote_requests WHERE id = $1";
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
/// $1 since: how many posts were held as spam (`spam_report.rs`).
pub const HELD_AS_SPAM: &str = "SELECT CAST(COUNT(*) AS INTEGER) AS held FROM quote_requests
    WHERE spam IS NOT NULL AND created_at >= $1";

/// The leads of lead $1's person (its own, and those with its e-mail address in any case or its
/// phone number), each with since when it is do not contact (NULL: it is not).
pub const PERSONS_LEADS: &str = concat!(
    "SELECT q.id, ",
    do_not_contact_now!(),
    " AS marked_since FROM quote_requests q
    WHERE q.id = $1
       OR LOWER(q.email) = (SELECT LOWER(email) FROM quote_requests WHERE id = $1)
       OR q.phone = (SELECT phone FROM quote_requests WHERE id = $1)"
);
/// $1 quote id, $2 event, $3 when: the lead's webhook row due at once for the event, its attempts
/// and outcome reset, unless the lead is held as spam (which is not forwarded).
pub const REQUEUE_WEBHOOK: &str = "INSERT INTO lead_outbox
        (quote_id, channel, next_attempt_at, event, event_at)
    SELECT id, 'webhook', $3, $2, $3 FROM quote_requests WHERE id = $1 AND spam IS NULL
    ON CONFLICT (quote_id, channel) DO UPDATE SET attempts = 0,
        next_attempt_at = excluded.next_attempt_at, last_error = NULL, delivered_at = NULL,
        gave_up_at = NULL, held_at = NULL, event = excluded.event, event_at = excluded.event_at";

/// The channels whose deliveries fail (`delivery_alerts.rs`): how many leads, since when.
pub const FAILING_CHANNELS: &str = "SELECT o.channel AS channel,
        CAST(COUNT(*) AS INTEGER) AS leads,
        MIN(q.created_at) AS since,
        MAX(o.last_error) AS error
    FROM lead_outbox o JOIN quote_requests q ON q.id = o.quote_id
    WHERE o.delivered_at IS NULL AND o.gave_up_at IS NULL AND o.last_error IS NOT NULL
    GROUP BY o.channel";

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

/// The conversations with a lead that a kept Yes or a stored recording would make written and
/// has no written consent yet (`conversation_consent.rs`).
pub const UNSETTLED: &str = "SELECT DISTINCT q.call_id FROM quote_requests q
    WHERE q.call_id IS NOT NULL AND q.phone IS NOT NULL AND q.spam IS NULL
      AND NOT EXISTS (SELECT 1 FROM consent_records x
                      WHERE x.lead_id = q.id AND x.kind = 'call_consent')
      AND ((q.source = 'chat'
            AND EXISTS (SELECT 1 FROM chat_call_consents a WHERE a.call_id = q.call_id))
        OR (q.source = 'voice' AND q.may_call = 'yes'
            AND EXISTS (SELECT 1 FROM call_recordings r
                        WHERE r.call_id = q.call_id AND r.stored_at IS NOT NULL)))";

/// The chain's records as `consent::stored_link` reads them, each with its notice's text, its
/// lead's contact details as they are now (none once the lead is deleted) and the call or chat
/// the lead came from (the record keeps it when the lead is deleted, `KEEP_CALL`).
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

/// After `FROM bookings b`, $1 call, $2 tool call: the booking an assistant's tool call made.
pub const BOOKING_BY_TOOL_CALL: &str =
    "JOIN quote_requests q ON q.id = b.lead_id WHERE q.call_id = $1 AND q.tool_call_id = $2";
/// $1 now: the calls not cancelled that have not ended, with the lead's number.
pub const UPCOMING_BOOKINGS: &str = "SELECT b.id, b.lead_id, b.starts_at, b.ends_at, b.status,
        r.evidence, r.notice_sha256, r.at, r.channel, q.phone
    FROM bookings b LEFT JOIN consent_records r ON r.seq = b.soa_seq
        LEFT JOIN quote_requests q ON q.id = b.lead_id
    WHERE b.status = 'booked' AND b.ends_at > $1 ORDER BY b.starts_at, b.id";
/// $1 lead: whom a booking's e-mails go to (`booking_mails.rs`).
pub const BOOKING_VISITOR: &str = "SELECT email, language, phone FROM quote_requests WHERE id = $1";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_page_goes_on_from_its_cursor_in_its_order() {
        let page = list_quotes(true, true);
        assert!(page.contains("< (SELECT") && page.ends_with("LIMIT $3") && page.contains("DESC"));
        let all = list_quotes(false, false);
        assert!(!all.contains("$3") && all.ends_with("LIMIT $2") && all.contains("ASC"));
    }
}
