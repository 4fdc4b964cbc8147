//! Versioned schema changes, applied in order on start. The same SQL runs on SQLite (where
//! `PRAGMA user_version` records the last applied) and PostgreSQL (`schema_version`).

use rusqlite::Connection;

use super::StoreError;

pub const MIGRATIONS: &[&str] = &[
    // 1: quote requests.
    "CREATE TABLE quote_requests (
        id          TEXT PRIMARY KEY,
        product     TEXT NOT NULL
                    CHECK (product IN ('medicare','individual','family','medicaid','employer')),
        email       TEXT NOT NULL,
        source      TEXT NOT NULL DEFAULT 'web',
        user_agent  TEXT,
        created_at  TEXT NOT NULL
    );
    CREATE INDEX quote_requests_created_at ON quote_requests (created_at, id);",
    // 2: quotes spoken to the voice assistant, call reports, and the lead-forwarding outbox.
    "ALTER TABLE quote_requests ADD COLUMN call_id TEXT;
    ALTER TABLE quote_requests ADD COLUMN tool_call_id TEXT;
    CREATE UNIQUE INDEX quote_requests_tool_call ON quote_requests (call_id, tool_call_id)
        WHERE tool_call_id IS NOT NULL;
    CREATE TABLE voice_calls (
        call_id       TEXT PRIMARY KEY,
        ended_reason  TEXT,
        summary       TEXT,
        transcript    TEXT,
        reported_at   TEXT NOT NULL
    );
    CREATE TABLE lead_outbox (
        quote_id         TEXT PRIMARY KEY REFERENCES quote_requests (id),
        attempts         INTEGER NOT NULL DEFAULT 0,
        next_attempt_at  TEXT NOT NULL,
        last_error       TEXT,
        delivered_at     TEXT,
        gave_up_at       TEXT
    );
    CREATE INDEX lead_outbox_due ON lead_outbox (next_attempt_at)
        WHERE delivered_at IS NULL AND gave_up_at IS NULL;",
    // 3: the client's Idempotency-Key, kept with the quote it first created.
    "ALTER TABLE quote_requests ADD COLUMN idempotency_key TEXT;
    CREATE UNIQUE INDEX quote_requests_idempotency_key ON quote_requests (idempotency_key)
        WHERE idempotency_key IS NOT NULL;",
    // 4: one outbox row per lead and delivery channel (webhook, e-mail, the e-mail after a
    // call), the webhook's rows kept; the call's recording link.
    "ALTER TABLE voice_calls ADD COLUMN recording_url TEXT;
    CREATE TABLE lead_outbox_channels (
        quote_id         TEXT NOT NULL REFERENCES quote_requests (id),
        channel          TEXT NOT NULL CHECK (channel IN ('webhook','email','follow_up')),
        attempts         INTEGER NOT NULL DEFAULT 0,
        next_attempt_at  TEXT NOT NULL,
        last_error       TEXT,
        delivered_at     TEXT,
        gave_up_at       TEXT,
        PRIMARY KEY (quote_id, channel)
    );
    INSERT INTO lead_outbox_channels
        (quote_id, channel, attempts, next_attempt_at, last_error, delivered_at, gave_up_at)
        SELECT quote_id, 'webhook', attempts, next_attempt_at, last_error, delivered_at, gave_up_at
        FROM lead_outbox;
    DROP TABLE lead_outbox;
    ALTER TABLE lead_outbox_channels RENAME TO lead_outbox;
    CREATE INDEX lead_outbox_due ON lead_outbox (channel, next_attempt_at)
        WHERE delivered_at IS NULL AND gave_up_at IS NULL;",
    // 5: the broker's inbox: each lead's status, and signed-in sessions (by the SHA-256 of
    // their id; `last_seen_at` ends them after the idle limit).
    "ALTER TABLE quote_requests ADD COLUMN status TEXT NOT NULL DEFAULT 'new'
        CHECK (status IN ('new','contacted'));
    ALTER TABLE quote_requests ADD COLUMN status_changed_at TEXT;
    CREATE INDEX quote_requests_status ON quote_requests (status, created_at);
    CREATE TABLE admin_sessions (
        id_hash       TEXT PRIMARY KEY,
        created_at    TEXT NOT NULL,
        last_seen_at  TEXT NOT NULL
    );",
    // 6: a new quote's outbox entries on its own row, until a worker takes them into
    // lead_outbox (`queued.rs`); the index finds the quotes still queued there, oldest first.
    "ALTER TABLE quote_requests ADD COLUMN queued_channels TEXT;
    CREATE INDEX quote_requests_queued ON quote_requests (created_at)
        WHERE queued_channels IS NOT NULL;",
    // 7: the broker's note on a lead; a channel whose deliveries have failed long enough to
    // alert the broker, one row per open incident, so instances sharing the database alert once
    // (`delivery_alerts.rs`).
    "ALTER TABLE quote_requests ADD COLUMN note TEXT;
    CREATE TABLE delivery_incidents (
        channel        TEXT PRIMARY KEY CHECK (channel IN ('webhook','email','follow_up')),
        failing_since  TEXT NOT NULL,
        alerted_at     TEXT NOT NULL
    );",
    // 8: spam (`spam`: why a lead is held as spam, NULL for a lead; kept apart from `status`,
    // whose check SQLite cannot alter, and so a lead marked "not spam" is where it was); the
    // keys every instance signs with, made once by the first (`site_keys`).
    "ALTER TABLE quote_requests ADD COLUMN spam TEXT;
    CREATE TABLE site_keys (
        name   TEXT PRIMARY KEY,
        value  TEXT NOT NULL
    );",
    // 9: the site-wide budget of lead e-mails (`email_budget.rs`): each clock hour's count of
    // lead e-mails and whether its digest was taken; a lead e-mail held for the digest.
    "CREATE TABLE lead_email_hours (
        hour             TEXT PRIMARY KEY,
        emails           INTEGER NOT NULL DEFAULT 0,
        digest_taken_at  TEXT
    );
    ALTER TABLE lead_outbox ADD COLUMN held_at TEXT;
    CREATE INDEX lead_outbox_held ON lead_outbox (held_at)
        WHERE held_at IS NOT NULL AND delivered_at IS NULL;",
    // 10: the language of the page a lead came from (`/` or `/es/`), which the broker answers
    // in; the leads before it came from the English page.
    "ALTER TABLE quote_requests ADD COLUMN language TEXT NOT NULL DEFAULT 'en';",
    // 11: the form tokens leads were sent with, each page view's token serving one lead
    // (`spam::form_token`); kept until the token would have expired anyway (`issued_at`).
    "CREATE TABLE spent_form_tokens (
        token      TEXT PRIMARY KEY,
        issued_at  TEXT NOT NULL
    );
    CREATE INDEX spent_form_tokens_issued_at ON spent_form_tokens (issued_at);",
    // 12: consent records (`consent.rs`): each lead's, append-only and hash-chained (`seq` in
    // order, each `hash` covering the previous), and each distinct notice text once.
    "CREATE TABLE notice_texts (
        sha256  TEXT PRIMARY KEY,
        text    TEXT NOT NULL
    );
    CREATE TABLE consent_records (
        seq            BIGINT PRIMARY KEY,
        lead_id        TEXT NOT NULL UNIQUE,
        channel        TEXT NOT NULL,
        page           TEXT NOT NULL,
        language       TEXT NOT NULL,
        at             TEXT NOT NULL,
        client         TEXT,
        user_agent     TEXT,
        notice_sha256  TEXT REFERENCES notice_texts (sha256),
        prev_hash      TEXT NOT NULL,
        hash           TEXT NOT NULL
    );",
    // 13: when a conversation started and whether it was a call or a chat; each call's
    // recording copied into the database (`recordings.rs`), BYTEA being a BLOB to SQLite.
    "ALTER TABLE voice_calls ADD COLUMN started_at TEXT;
    ALTER TABLE voice_calls ADD COLUMN channel TEXT NOT NULL DEFAULT 'voice'
        CHECK (channel IN ('voice','chat'));
    CREATE TABLE call_recordings (
        call_id          TEXT PRIMARY KEY,
        source_url       TEXT NOT NULL,
        queued_at        TEXT NOT NULL,
        attempts         INTEGER NOT NULL DEFAULT 0,
        next_attempt_at  TEXT NOT NULL,
        claimed_until    TEXT,
        last_error       TEXT,
        alerted_at       TEXT,
        gave_up_at       TEXT,
        stored_at        TEXT,
        content_type     TEXT,
        sha256           TEXT,
        size             BIGINT,
        audio            BYTEA
    );
    CREATE INDEX call_recordings_due ON call_recordings (next_attempt_at)
        WHERE stored_at IS NULL AND gave_up_at IS NULL;",
    // 14: a lead the broker can call: its phone number (E.164) and whether the visitor agreed
    // in writing to be called (`yes`, or `no`: e-mail only), its ZIP code and that ZIP's state;
    // when the broker recorded that the visitor asked not to be contacted (kept apart from
    // `status`, whose check SQLite cannot alter, like `spam`). A consent record keeps the
    // disclosure beside the phone field and whether its box was ticked.
    "ALTER TABLE quote_requests ADD COLUMN phone TEXT;
    ALTER TABLE quote_requests ADD COLUMN may_call TEXT CHECK (may_call IN ('yes','no'));
    ALTER TABLE quote_requests ADD COLUMN zip TEXT;
    ALTER TABLE quote_requests ADD COLUMN state TEXT;
    ALTER TABLE quote_requests ADD COLUMN do_not_contact_at TEXT;
    CREATE INDEX quote_requests_state ON quote_requests (state, created_at)
        WHERE state IS NOT NULL;
    ALTER TABLE consent_records ADD COLUMN phone_consent TEXT;
    ALTER TABLE consent_records ADD COLUMN phone_disclosure_sha256 TEXT;",
    // 15: conversations apart by channel: a chat's id is kept as `chat:` and the chat's own
    // (`voice_events::conversation_id`), in `voice_calls` and its leads' `call_id`, so no call's
    // report can land on a chat's record. A chat kept before conversations named their channel
    // is known by its leads (one a call's lead also names stays a call). A transcript's lines
    // left out past its bound (`transcript.rs`).
    "UPDATE voice_calls SET channel = 'chat'
        WHERE channel = 'voice'
          AND call_id IN (SELECT call_id FROM quote_requests WHERE source = 'chat')
          AND call_id NOT IN (SELECT call_id FROM quote_requests
                              WHERE source = 'voice' AND call_id IS NOT NULL);
    UPDATE voice_calls SET call_id = 'chat:' || call_id WHERE channel = 'chat';
    UPDATE quote_requests SET call_id = 'chat:' || call_id
        WHERE source = 'chat' AND call_id IS NOT NULL;
    ALTER TABLE voice_calls ADD COLUMN transcript_lines_dropped BIGINT NOT NULL DEFAULT 0;",
    // 16: the do-not-contact list (`do_not_contact.rs`): each phone number (E.164) and e-mail
    // address (lower case) of a person who asked not to be contacted, kept when their leads are
    // deleted; `lead_id` is the lead the broker marked, whose unmarking takes its entries off.
    "CREATE TABLE do_not_contact (
        kind      TEXT NOT NULL CHECK (kind IN ('phone','email')),
        value     TEXT NOT NULL,
        added_at  TEXT NOT NULL,
        lead_id   TEXT,
        PRIMARY KEY (kind, value)
    );
    CREATE INDEX do_not_contact_lead ON do_not_contact (lead_id) WHERE lead_id IS NOT NULL;
    INSERT INTO do_not_contact (kind, value, added_at, lead_id)
        SELECT 'email', LOWER(email), MIN(do_not_contact_at), MIN(id) FROM quote_requests
        WHERE do_not_contact_at IS NOT NULL GROUP BY LOWER(email);
    INSERT INTO do_not_contact (kind, value, added_at, lead_id)
        SELECT 'phone', phone, MIN(do_not_contact_at), MIN(id) FROM quote_requests
        WHERE do_not_contact_at IS NOT NULL AND phone IS NOT NULL GROUP BY phone;",
    // 17: a consent record keeps what the inbox acts on, under its hash (`consent::HASH_FORM`):
    // the lead's e-mail, phone and call permission; `hash_form` 1 for the records before.
    "ALTER TABLE consent_records ADD COLUMN hash_form BIGINT NOT NULL DEFAULT 1;
    ALTER TABLE consent_records ADD COLUMN email TEXT;
    ALTER TABLE consent_records ADD COLUMN phone TEXT;
    ALTER TABLE consent_records ADD COLUMN may_call TEXT;",
    // 18: a lead may have more than its first record: a written consent to be called given
    // later (`written_consent.rs`) or a Scope of Appointment (`soa`) is a record of its own in
    // the chain. `kind` names which (`lead` for the records before), `evidence` what it stands
    // on (a call's recording SHA-256 and the moment of the answer); the table is made anew
    // without the one-record-a-lead constraint, which neither database can drop the same way.
    "CREATE TABLE consent_records_kept (
        seq                      BIGINT PRIMARY KEY,
        lead_id                  TEXT NOT NULL,
        channel                  TEXT NOT NULL,
        page                     TEXT NOT NULL,
        language                 TEXT NOT NULL,
        at                       TEXT NOT NULL,
        client                   TEXT,
        user_agent               TEXT,
        notice_sha256            TEXT REFERENCES notice_texts (sha256),
        prev_hash                TEXT NOT NULL,
        hash                     TEXT NOT NULL,
        phone_consent            TEXT,
        phone_disclosure_sha256  TEXT,
        hash_form                BIGINT NOT NULL DEFAULT 1,
        email                    TEXT,
        phone                    TEXT,
        may_call                 TEXT,
        kind                     TEXT NOT NULL DEFAULT 'lead'
                                 CHECK (kind IN ('lead','call_consent','soa')),
        evidence                 TEXT
    );
    INSERT INTO consent_records_kept (seq, lead_id, channel, page, language, at, client,
        user_agent, notice_sha256, prev_hash, hash, phone_consent, phone_disclosure_sha256,
        hash_form, email, phone, may_call)
        SELECT seq, lead_id, channel, page, language, at, client, user_agent, notice_sha256,
            prev_hash, hash, phone_consent, phone_disclosure_sha256, hash_form, email, phone,
            may_call
        FROM consent_records;
    DROP TABLE consent_records;
    ALTER TABLE consent_records_kept RENAME TO consent_records;
    CREATE INDEX consent_records_of_lead ON consent_records (lead_id, kind, seq);",
    // 19: the call or chat a consent record's lead came from, kept on the record when the lead
    // is deleted (a link to the kept conversation, outside the record's hash); what a lead's
    // webhook row posts (`event`: NULL for the lead as it came, or a change of its
    // do-not-contact state) and when that happened (`event_at`).
    "ALTER TABLE consent_records ADD COLUMN call_id TEXT;
    ALTER TABLE lead_outbox ADD COLUMN event TEXT;
    ALTER TABLE lead_outbox ADD COLUMN event_at TEXT;",
    // 20: a conversation on legal hold (`conversations.rs`): no purge deletes it, nor its
    // recording, until the hold is lifted.
    "ALTER TABLE voice_calls ADD COLUMN legal_hold_at TEXT;",
    // 21: a chat visitor's Yes to the consent text the page showed, kept by the chat's id (as its
    // leads' `call_id` names it) until the chat's leads are stored (`conversation_consent.rs`):
    // the exact text, the page and its language, the address, the browser and the time.
    "CREATE TABLE chat_call_consents (
        call_id      TEXT PRIMARY KEY,
        disclosure   TEXT NOT NULL,
        language     TEXT NOT NULL,
        page         TEXT NOT NULL,
        client       TEXT,
        user_agent   TEXT,
        answered_at  TEXT NOT NULL
    );",
    // 22: a visitor's own opt-out (`/opt-out`, `do_not_contact::OptOuts`): when they asked
    // (`requested_at`, NULL for an entry the broker's marking put on), and when the broker was
    // told of it in a lead e-mail or the digest (`told_at`).
    "ALTER TABLE do_not_contact ADD COLUMN requested_at TEXT;
    ALTER TABLE do_not_contact ADD COLUMN told_at TEXT;
    CREATE INDEX do_not_contact_untold ON do_not_contact (requested_at)
        WHERE requested_at IS NOT NULL AND told_at IS NULL;",
    // 23: booked calls (`bookings.rs`): one row per booking, its lead, its time in UTC and its
    // Scope of Appointment's consent record (`soa_seq`). A time is booked at most once among the
    // bookings not cancelled (the partial unique index), whichever instance takes it.
    "CREATE TABLE bookings (
        id            TEXT PRIMARY KEY,
        lead_id       TEXT NOT NULL,
        starts_at     TEXT NOT NULL,
        ends_at       TEXT NOT NULL,
        status        TEXT NOT NULL DEFAULT 'booked' CHECK (status IN ('booked','cancelled')),
        created_at    TEXT NOT NULL,
        cancelled_at  TEXT,
        soa_seq       BIGINT
    );
    CREATE UNIQUE INDEX bookings_one_per_time ON bookings (starts_at) WHERE status = 'booked';
    CREATE INDEX bookings_of_lead ON bookings (lead_id);",
    // 24: a visitor's acceptance of the notice before a call or of the chat's
    // (`notice_acceptance.rs`), by the conversation's id, whichever of it and the conversation's
    // own row comes first: the exact text the site showed in the page's language, its SHA-256
    // and the time; the first acceptance of a conversation stands.
    "CREATE TABLE notice_acceptances (
        call_id      TEXT PRIMARY KEY,
        channel      TEXT NOT NULL CHECK (channel IN ('voice','chat')),
        language     TEXT NOT NULL,
        sha256       TEXT NOT NULL,
        text         TEXT NOT NULL,
        accepted_at  TEXT NOT NULL
    );",
    // 25: a booking's e-mails (`booking_mails.rs`): the broker's invitation and cancellation, the
    // visitor's confirmation and reminder, each a row due at its time, claimed by one instance of
    // several and marked sent once.
    "CREATE TABLE booking_mails (
        booking_id     TEXT NOT NULL,
        kind           TEXT NOT NULL
                       CHECK (kind IN ('request','cancel','confirmation','reminder')),
        due_at         TEXT NOT NULL,
        attempts       INTEGER NOT NULL DEFAULT 0,
        last_error     TEXT,
        claimed_until  TEXT,
        sent_at        TEXT,
        gave_up_at     TEXT,
        PRIMARY KEY (booking_id, kind)
    );
    CREATE INDEX booking_mails_due ON booking_mails (due_at)
        WHERE sent_at IS NULL AND gave_up_at IS NULL;",
    // 26: the broker's private calendar feed (`calendar_feed.rs`): its one secret address, made on
    // first asking and replaced on request.
    "CREATE TABLE calendar_feed (
        one         INTEGER PRIMARY KEY CHECK (one = 1),
        secret      TEXT NOT NULL,
        created_at  TEXT NOT NULL
    );",
];

/// Whether a database at schema version `found` is one this release reads as it is, for a
/// command that never migrates (`backend export`); `database` names it in the message.
pub fn check_version(found: usize, database: &str) -> Result<(), StoreError> {
    let current = MIGRATIONS.len();
    let problem = match found {
        0 => format!("{database} holds no quote requests (it has no schema): is it the server's database?"),
        n if n < current => format!(
            "{database} has schema version {n} and this release reads {current}: start this release's server on it once, which migrates it"
        ),
        n if n > current => format!(
            "{database} has schema version {n}, newer than this release's {current}: use the release that wrote it"
        ),
        _ => return Ok(()),
    };
    Err(StoreError::Unusable(problem.into()))
}

pub fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    let current: usize = conn.pragma_query_value(None, "user_version", |row| row.get(0))?;
    if current >= MIGRATIONS.len() {
        return Ok(());
    }
    let tx = conn.transaction()?;
    for sql in &MIGRATIONS[current..] {
        tx.execute_batch(sql)?;
    }
    tx.pragma_update(None, "user_version", MIGRATIONS.len())?;
    tx.commit()
}

/// Conversations and leads as schema 14 kept them: a chat kept as a chat, one kept before
/// conversations named their channel (known by its lead), a call and a web lead; migration 15
/// keeps the chats as `chat:<id>`, leads and all.
#[cfg(test)]
pub(super) const KEPT_BEFORE_15: &str = "
    INSERT INTO quote_requests (id, product, email, source, created_at, call_id, tool_call_id)
        VALUES ('a','family','x@y.z','chat','2026-11-01T00:00:00.000Z','sess-new','t1'),
               ('b','family','x@y.z','chat','2026-11-01T00:00:00.000Z','sess-old','t1'),
               ('c','family','x@y.z','voice','2026-11-01T00:00:00.000Z','call-1','t1'),
               ('d','family','x@y.z','web','2026-11-01T00:00:00.000Z',NULL,NULL);
    INSERT INTO voice_calls (call_id, transcript, reported_at, channel)
        VALUES ('sess-new','User: hi','2026-11-01T00:00:00.000Z','chat'),
               ('sess-old','User: hello','2026-11-01T00:00:00.000Z','voice'),
               ('call-1','AI: Hi','2026-11-01T00:00:00.000Z','voice');";

/// `KEPT_BEFORE_15`'s rows, one line each, once migrated: `KEPT_AFTER_15` in order.
#[cfg(test)]
pub(super) const KEPT_AFTER_15_SQL: &str =
    "SELECT call_id || ' ' || channel || ' ' || transcript_lines_dropped FROM voice_calls
     UNION ALL SELECT id || ' ' || COALESCE(call_id, '-') FROM quote_requests";
#[cfg(test)]
pub(super) const KEPT_AFTER_15: [&str; 7] = [
    "a chat:sess-new",
    "b chat:sess-old",
    "c call-1",
    "call-1 voice 0",
    "chat:sess-new chat 0",
    "chat:sess-old chat 0",
    "d -",
];

#[cfg(test)]
mod tests {
    use super::*;

    /// An in-memory database at schema version `version`.
    fn at_version(version: usize) -> Connection {
        let conn = Connection::open_in_memory().unwrap();
        for sql in &MIGRATIONS[..version] {
            conn.execute_batch(sql).unwrap();
        }
        conn.pragma_update(None, "user_version", version).unwrap();
        conn
    }

    #[test]
    fn applies_once_and_is_idempotent() {
        let mut conn = Connection::open_in_memory().unwrap();
        migrate(&mut conn).unwrap();
        migrate(&mut conn).unwrap();
        let version: usize = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .unwrap();
        assert_eq!(version, MIGRATIONS.len());
        conn.execute(
            "INSERT INTO quote_requests (id, product, email, created_at) VALUES ('a','family','x@y.z','t')",
            [],
        )
        .unwrap();
        let bad = conn.execute(
            "INSERT INTO quote_requests (id, product, email, created_at) VALUES ('b','dental','x@y.z','t')",
            [],
        );
        assert!(bad.is_err(), "the product check constraint holds");
        let spoken =
            "INSERT INTO quote_requests (id, product, email, created_at, call_id, tool_call_id)
                      VALUES (?1, 'family', 'x@y.z', 't', 'call', 'tool')";
        conn.execute(spoken, ["c"]).unwrap();
        assert!(
            conn.execute(spoken, ["d"]).is_err(),
            "one row per call and tool call"
        );
        let keyed = "INSERT INTO quote_requests (id, product, email, created_at, idempotency_key)
                     VALUES (?1, 'family', 'x@y.z', 't', 'key')";
        conn.execute(keyed, ["e"]).unwrap();
        assert!(
            conn.execute(keyed, ["f"]).is_err(),
            "one row per idempotency key"
        );
        let outbox =
            "INSERT INTO lead_outbox (quote_id, channel, next_attempt_at) VALUES ('a', ?1, 't')";
        conn.execute(outbox, ["webhook"]).unwrap();
        conn.execute(outbox, ["email"]).unwrap();
        assert!(
            conn.execute(outbox, ["email"]).is_err(),
            "one row per lead and channel"
        );
        assert!(
            conn.execute(outbox, ["fax"]).is_err(),
            "known channels only"
        );
    }

    #[test]
    fn chats_kept_before_take_their_prefix_with_their_leads() {
        let mut conn = at_version(14);
        conn.execute_batch(KEPT_BEFORE_15).unwrap();
        migrate(&mut conn).unwrap();
        let mut statement = conn.prepare(KEPT_AFTER_15_SQL).unwrap();
        let rows = statement.query_map([], |row| row.get(0)).unwrap();
        let mut kept: Vec<String> = rows.map(Result::unwrap).collect();
        kept.sort();
        assert_eq!(kept, KEPT_AFTER_15);
    }

    #[test]
    fn consent_records_made_before_a_lead_could_have_more_keep_their_chain() {
        use crate::store::consent::{self, verify, Link, NewConsent, Reach, Verified};
        use crate::store::lead_queries::CONSENT_CHAIN;
        use crate::store::sqlite::connection::records;
        use crate::store::Language;

        let mut conn = at_version(17);
        let notice = NewConsent {
            notice: None,
            page: "/".into(),
            channel: consent::ConsentChannel::Form,
            client: Some("203.0.113.7".into()),
            user_agent: None,
            phone: None,
        };
        let mut head = None;
        for lead in ["lead-1", "lead-2"] {
            let reach = Reach {
                email: "ana@example.com",
                phone: None,
                may_call: None,
            };
            let at = time::OffsetDateTime::UNIX_EPOCH;
            let link = Link::after(head.take(), lead, Language::En, at, reach, &notice);
            conn.execute(
                "INSERT INTO consent_records (seq, lead_id, channel, page, language, at, client,
                    user_agent, notice_sha256, prev_hash, hash, hash_form, email)
                VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, NULL, NULL, ?8, ?9, ?10, ?11)",
                rusqlite::params![
                    link.seq,
                    link.lead_id,
                    link.channel,
                    link.page,
                    link.language,
                    link.at,
                    link.client,
                    link.prev_hash,
                    link.hash(),
                    link.hash_form,
                    link.email,
                ],
            )
            .unwrap();
            head = Some(consent::Head {
                seq: link.seq,
                sha256: link.hash(),
            });
        }
        migrate(&mut conn).unwrap();
        let values = [0_i64.into(), 10_i64.into()];
        let rows = records(&conn, CONSENT_CHAIN, &values).unwrap();
        let chain: Vec<_> = rows
            .iter()
            .map(|row| consent::stored_link(row).unwrap())
            .collect();
        assert!(chain
            .iter()
            .all(|stored| stored.link.kind == consent::LEAD_KIND));
        assert!(
            matches!(verify(&chain), Verified::Intact { records: 2, .. }),
            "{:?}",
            verify(&chain)
        );
    }

    #[test]
    fn the_webhook_outbox_survives_the_move_to_channels() {
        let mut conn = at_version(3);
        conn.execute_batch(
            "INSERT INTO quote_requests (id, product, email, created_at) VALUES ('a','family','x@y.z','t');
             INSERT INTO lead_outbox (quote_id, attempts, next_attempt_at, last_error) VALUES ('a', 2, 'n', 'HTTP 503');",
        )
        .unwrap();
        migrate(&mut conn).unwrap();
        let row: (String, u32, String) = conn
            .query_row(
                "SELECT channel, attempts, last_error FROM lead_outbox WHERE quote_id = 'a'",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .unwrap();
        assert_eq!(row, ("webhook".into(), 2, "HTTP 503".into()));
    }
}
