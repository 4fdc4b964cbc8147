//! The behaviour every `QuoteStore` must have, written once and run against each store.

use std::sync::Arc;
use std::time::Duration;

use time::OffsetDateTime;
use wasm_core::QuoteRequest;

use super::consent::{sha256_hex, verify, ConsentChannel, NewConsent, Verified};
use super::transcript::MAX_TRANSCRIPT_BYTES;
use super::{
    CallReport, Channel, DeliveryOutcome, DeliveryStatus, Inserted, LeadFilter, LeadQuery,
    LeadStatus, ListQuery, NewQuote, PendingLead, QuoteStore, Source, SpentToken, StoreOptions,
    VoiceOrigin, REUSED_TOKEN,
};

/// Expands `$case!(name, StoreOptions)` for every case below, so each store runs them all: a
/// case's name, then the options its store is opened with (it is closed after the case).
macro_rules! for_each_case {
    ($case:ident) => {
        $crate::store::suite::for_each_case!(@ $case
            concurrent_inserts_are_all_committed_and_read_back_in_order = NO_CHANNEL,
            a_repeated_voice_tool_call_is_stored_once = NO_CHANNEL,
            an_idempotency_key_answers_with_the_first_quote = EVERY_CHANNEL,
            a_call_report_is_written_once_and_completed = NO_CHANNEL,
            a_transcript_is_kept_within_its_bound = NO_CHANNEL,
            a_chat_turn_never_writes_over_a_call_nor_a_call_over_a_chat = NO_CHANNEL,
            conversations_are_kept_with_or_without_a_lead_until_their_cutoff = NO_CHANNEL,
            a_notice_acceptance_stands_once_and_goes_with_its_conversation = NO_CHANNEL,
            a_form_token_serves_one_lead_even_among_concurrent_posts = EVERY_CHANNEL,
            every_stored_lead_appends_one_consent_record_to_the_chain = NO_CHANNEL,
            a_later_written_consent_is_a_record_of_its_own_and_lifts_the_list = NO_CHANNEL,
            a_conversations_consent_its_lead_missed_is_found_later = NO_CHANNEL,
            pages_follow_the_cursor_both_ways = NO_CHANNEL,
            the_outbox_tracks_each_lead_to_delivery_or_giving_up = EVERY_CHANNEL,
            each_channel_has_its_own_outbox_row_and_a_call_one_follow_up = EVERY_CHANNEL,
            repeats_among_concurrent_inserts_fail_alone = EVERY_CHANNEL,
            spam_is_listed_apart_and_delivered_once_it_is_not = EMAIL_ONLY,
            a_site_key_is_made_once = NO_CHANNEL,
            a_failing_channel_has_one_incident_until_it_is_closed = EVERY_CHANNEL,
            a_do_not_contact_change_requeues_its_persons_webhook_posts = EVERY_CHANNEL,
            a_visitors_opt_out_marks_their_leads_and_is_told_once = NO_CHANNEL,
            a_lead_is_queued_on_its_own_row_until_a_worker_takes_it = EMAIL_ONLY,
        );
    };
    (@ $case:ident $($name:ident = $options:ident,)*) => {
        $($case!($name, $crate::store::suite::$options);)*
    };
}

/// Nothing queued: a new quote is only kept.
pub const NO_CHANNEL: StoreOptions = StoreOptions {
    forward_leads: false,
    email_leads: false,
};
/// Queued for e-mail only.
pub const EMAIL_ONLY: StoreOptions = StoreOptions {
    forward_leads: false,
    email_leads: true,
};
/// Webhook and e-mail both on.
pub const EVERY_CHANNEL: StoreOptions = StoreOptions {
    forward_leads: true,
    email_leads: true,
};
pub(crate) use for_each_case;

pub fn web(email: &str) -> NewQuote {
    NewQuote::new(
        QuoteRequest::parse("family", email).unwrap(),
        Source::Web,
        Some("test"),
    )
}

pub fn spoken(email: &str, call_id: &str, tool_call_id: &str) -> NewQuote {
    let origin = VoiceOrigin {
        call_id: call_id.into(),
        tool_call_id: tool_call_id.into(),
    };
    let request = QuoteRequest::parse("medicare", email).unwrap();
    NewQuote::from_assistant(request, Source::Voice, origin)
}

/// Up to ten deliveries due on channel `on` at `at`.
pub async fn due(store: &Arc<dyn QuoteStore>, on: Channel, at: OffsetDateTime) -> Vec<PendingLead> {
    store.take_due_deliveries(on, at, 10).await.unwrap()
}

/// Records each of `leads` delivered.
async fn delivered(store: &Arc<dyn QuoteStore>, leads: &[PendingLead]) {
    for lead in leads {
        let outcome = DeliveryOutcome::Delivered;
        store.record_delivery(lead, outcome).await.unwrap();
    }
}

/// The disclosure of the consent to be called, as the cases show and read it.
const SAID: &str = "Clearharbor may call me. Consent is not a condition of purchase.";

/// `quote` as the assistant passed it on: with `phone`, whether the person may be called there
/// (`yes`: the disclosure agreed to), and its consent record with `notice`.
fn by_phone(quote: NewQuote, phone: Option<&str>, yes: bool, notice: Option<&str>) -> NewQuote {
    quote
        .with_contact(super::Contact {
            phone: phone.map(str::to_owned),
            may_call: yes,
            zip: None,
            state: None,
        })
        .with_consent(NewConsent {
            notice: notice.map(str::to_owned),
            page: "/".into(),
            channel: ConsentChannel::Voice,
            client: None,
            user_agent: None,
            phone: phone.map(|_| super::consent::PhoneConsent {
                disclosure: SAID.into(),
                given: yes,
            }),
        })
}

/// An end-of-call report of call `call_id` that says nothing more.
pub fn report(call_id: &str) -> CallReport {
    CallReport {
        call_id: call_id.into(),
        ended_reason: None,
        summary: None,
        transcript: None,
        transcript_lines_dropped: 0,
        recording_url: None,
        started_at: None,
        channel: Source::Voice,
    }
}

pub async fn concurrent_inserts_are_all_committed_and_read_back_in_order(
    store: Arc<dyn QuoteStore>,
) {
    let inserts: Vec<_> = (0..200)
        .map(|i| {
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.insert(web(&format!("p{i}@example.com"))).await })
        })
        .collect();
    for insert in inserts {
        assert_eq!(insert.await.unwrap().unwrap(), Inserted::New);
    }
    let rows = store.list_since(None).await.unwrap();
    assert_eq!(rows.len(), 200);
    assert!(rows
        .windows(2)
        .all(|w| (&w[0].created_at, &w[0].id) < (&w[1].created_at, &w[1].id)));
    store.ping().await.unwrap();
    store.close().await;
    assert!(store.insert(web("late@example.com")).await.is_err());
}

pub async fn a_repeated_voice_tool_call_is_stored_once(store: Arc<dyn QuoteStore>) {
    let (a, b) = tokio::join!(
        store.insert(spoken("ana@example.com", "call", "tool-1")),
        store.insert(spoken("ana@example.com", "call", "tool-1")),
    );
    let mut outcomes = vec![a.unwrap(), b.unwrap()];
    outcomes.sort_by_key(|o| *o != Inserted::New);
    let Inserted::Replayed { id } = outcomes.pop().unwrap() else {
        panic!("the second is a replay")
    };
    assert_eq!(outcomes, [Inserted::New]);
    let replay = Inserted::Replayed { id: id.clone() };
    for (email, call, tool_call, inserted) in [
        ("ana@example.com", "call", "tool-1", replay),
        ("bea@example.com", "call", "tool-1", Inserted::Conflict),
        ("ana@example.com", "call", "tool-2", Inserted::New),
        ("ana@example.com", "other", "tool-1", Inserted::New),
    ] {
        let quote = spoken(email, call, tool_call);
        assert_eq!(store.insert(quote).await.unwrap(), inserted);
    }
    let rows = store.list_since(None).await.unwrap();
    assert_eq!(rows.len(), 3);
    assert!(rows
        .iter()
        .all(|r| r.source == super::Source::Voice && r.delivery.is_none()));
    assert_eq!(
        rows.iter().find(|r| r.id == id).unwrap().email,
        "ana@example.com",
        "the first stands"
    );
}

pub async fn an_idempotency_key_answers_with_the_first_quote(store: Arc<dyn QuoteStore>) {
    let keyed = |email: &str, key: &str| web(email).with_idempotency_key(Some(key.into()));
    let first = keyed("ana@example.com", "k-1");
    let id = first.id.to_string();
    assert_eq!(store.insert(first).await.unwrap(), Inserted::New);
    let (a, b) = tokio::join!(
        store.insert(keyed("ana@example.com", "k-1")),
        store.insert(keyed("ana@example.com", "k-1"))
    );
    let replay = Inserted::Replayed { id };
    assert_eq!((a.unwrap(), b.unwrap()), (replay.clone(), replay));
    for (quote, inserted) in [
        (keyed("bea@example.com", "k-1"), Inserted::Conflict),
        (keyed("bea@example.com", "k-2"), Inserted::New),
        // No key, no check.
        (web("ana@example.com"), Inserted::New),
    ] {
        assert_eq!(store.insert(quote).await.unwrap(), inserted);
    }
    assert_eq!(store.list_since(None).await.unwrap().len(), 3);
}

/// Posts arriving together share a commit in both stores; the repeats among them must not take
/// their neighbours down with them.
pub async fn repeats_among_concurrent_inserts_fail_alone(store: Arc<dyn QuoteStore>) {
    let first = web("ana@example.com").with_idempotency_key(Some("k".into()));
    let first_id = first.id.to_string();
    assert_eq!(store.insert(first).await.unwrap(), Inserted::New);
    let inserts: Vec<_> = (0..200)
        .map(|i| {
            let quote = match i % 10 {
                0 => web("ana@example.com").with_idempotency_key(Some("k".into())),
                1 => web("bea@example.com").with_idempotency_key(Some("k".into())),
                2 => spoken("ana@example.com", "call", "tool"),
                _ => web(&format!("p{i}@example.com")),
            };
            let store = Arc::clone(&store);
            tokio::spawn(async move { store.insert(quote).await })
        })
        .collect();
    let mut outcomes = Vec::new();
    for insert in inserts {
        outcomes.push(insert.await.unwrap().unwrap());
    }
    let replayed = Inserted::Replayed {
        id: first_id.clone(),
    };
    for (wanted, count, what) in [
        (replayed, 20, "the same request again"),
        (Inserted::Conflict, 20, "another request under the key"),
        (
            Inserted::New,
            141,
            "every other post, and the tool call once",
        ),
    ] {
        let counted = outcomes.iter().filter(|o| **o == wanted).count();
        assert_eq!(counted, count, "{what}");
    }
    let spoken_again = outcomes
        .iter()
        .filter(|o| matches!(o, Inserted::Replayed { id } if *id != first_id))
        .count();
    assert_eq!(spoken_again, 19, "the tool call stored once, then replayed");
    let rows = store.list_since(None).await.unwrap();
    assert_eq!(rows.len(), 1 + 140 + 1);
    assert!(
        rows.iter().all(|r| r
            .delivery
            .as_ref()
            .is_some_and(|d| d.webhook.is_some() && d.email.is_some())),
        "each with its outbox row on every channel"
    );
}

pub async fn a_call_report_is_written_once_and_completed(store: Arc<dyn QuoteStore>) {
    store
        .insert(spoken("ana@example.com", "call", "t"))
        .await
        .unwrap();
    store.insert(web("web@example.com")).await.unwrap();
    let first = CallReport {
        ended_reason: Some("customer-ended-call".into()),
        transcript: Some("AI: Hi".into()),
        recording_url: Some("https://recordings.example.com/call.wav".into()),
        ..report("call")
    };
    store.record_call(first.clone()).await.unwrap();
    // A repeated report adds the summary the first lacked and changes nothing it had.
    let repeated = CallReport {
        ended_reason: Some("silence-timed-out".into()),
        summary: Some("Wants Medicare".into()),
        transcript: Some("AI: Something else".into()),
        recording_url: Some("https://recordings.example.com/other.wav".into()),
        started_at: Some("2026-11-27T10:00:00.000Z".into()),
        ..first.clone()
    };
    store.record_call(repeated).await.unwrap();
    let call = store.call("call".into()).await.unwrap().unwrap();
    assert_eq!(
        call,
        CallReport {
            summary: Some("Wants Medicare".into()),
            started_at: Some("2026-11-27T10:00:00.000Z".into()),
            ..first
        }
    );
    // The recording's copy follows the link kept.
    let now = OffsetDateTime::now_utc();
    let due = store
        .take_due_recordings(now, now + Duration::from_secs(60), 10)
        .await
        .unwrap();
    let urls: Vec<_> = due.iter().map(|d| d.url.as_str()).collect();
    assert_eq!(urls, ["https://recordings.example.com/call.wav"]);
    // Lists carry the call's report but not its transcript; the lead's own page does.
    let rows = store.list_since(None).await.unwrap();
    let (spoken, web): (Vec<_>, Vec<_>) = rows.iter().partition(|r| r.call_id.is_some());
    assert_eq!(spoken[0].call_summary.as_deref(), Some("Wants Medicare"));
    assert_eq!(
        spoken[0].call_ended_reason.as_deref(),
        Some("customer-ended-call")
    );
    assert_eq!(web[0].call_summary, None);
    assert!(!serde_json::to_string(&rows).unwrap().contains("AI: Hi"));
    let lead = store.lead(spoken[0].id.clone()).await.unwrap().unwrap();
    assert_eq!(lead.call_transcript.as_deref(), Some("AI: Hi"));
    assert_eq!(
        lead.call_recording_url.as_deref(),
        Some("https://recordings.example.com/call.wav")
    );
    assert_eq!(store.call("none".into()).await.unwrap(), None);
    assert!(
        rows.iter().all(|r| r.delivery.is_none()),
        "no outbox rows with every channel off"
    );
}

pub async fn a_transcript_is_kept_within_its_bound(store: Arc<dyn QuoteStore>) {
    let line = format!("User: {}", "a".repeat(1000));
    let long = vec![line.as_str(); 300].join("\n");
    let long = CallReport {
        transcript: Some(long),
        ..report("long")
    };
    store.record_call(long.clone()).await.unwrap();
    let kept = store.call("long".into()).await.unwrap().unwrap();
    let transcript = kept.transcript.unwrap();
    assert!(transcript.len() <= MAX_TRANSCRIPT_BYTES);
    let lines = transcript.lines().count() as u64;
    assert_eq!(kept.transcript_lines_dropped, 300 - lines);
    let conversation = store.conversation("long".into()).await.unwrap().unwrap();
    assert_eq!(conversation.transcript_lines_dropped, 300 - lines);
    // A chat's turn keeps the chat's bound and count as the turn gives them.
    let chat = CallReport {
        call_id: "chat:long".into(),
        transcript_lines_dropped: 4,
        channel: Source::Chat,
        ..long
    };
    store.record_call(chat).await.unwrap();
    let kept = store.call("chat:long".into()).await.unwrap().unwrap();
    assert_eq!(kept.channel, Source::Chat);
    assert_eq!(kept.transcript_lines_dropped, 4 + 300 - lines);
}

pub async fn a_chat_turn_never_writes_over_a_call_nor_a_call_over_a_chat(
    store: Arc<dyn QuoteStore>,
) {
    let call = CallReport {
        ended_reason: Some("customer-ended-call".into()),
        transcript: Some("AI: the call".into()),
        ..report("same")
    };
    store.record_call(call.clone()).await.unwrap();
    let turn = CallReport {
        transcript: Some("User: the chat".into()),
        channel: Source::Chat,
        ..call.clone()
    };
    store.record_call(turn.clone()).await.unwrap();
    assert_eq!(store.call("same".into()).await.unwrap(), Some(call.clone()));
    // Nor a call's report over a chat.
    let chat = CallReport {
        call_id: "chat:same".into(),
        ended_reason: None,
        ..turn
    };
    store.record_call(chat.clone()).await.unwrap();
    let over = CallReport {
        call_id: "chat:same".into(),
        ..call
    };
    store.record_call(over).await.unwrap();
    assert_eq!(store.call("chat:same".into()).await.unwrap(), Some(chat));
}

pub async fn a_form_token_serves_one_lead_even_among_concurrent_posts(store: Arc<dyn QuoteStore>) {
    let issued = OffsetDateTime::now_utc() - Duration::from_secs(60);
    let token = |key: &str| SpentToken {
        key: key.into(),
        issued,
    };
    // Eight posts at once with one token (a batch, or batches racing), and one with another.
    let posts = (0..8).map(|i| {
        let store = Arc::clone(&store);
        let quote = web(&format!("same{i}@example.com")).spending(Some(token("aa")));
        async move { store.insert(quote).await }
    });
    for inserted in futures_util::future::join_all(posts).await {
        assert_eq!(inserted.unwrap(), Inserted::New);
    }
    store
        .insert(web("other@example.com").spending(Some(token("bb"))))
        .await
        .unwrap();
    // Spam spends no token: the person's own post after a script's too-quick one is a lead.
    store
        .insert(
            web("quick@example.com")
                .with_spam(Some("too_fast"))
                .spending(Some(token("cc"))),
        )
        .await
        .unwrap();
    store
        .insert(web("person@example.com").spending(Some(token("cc"))))
        .await
        .unwrap();
    let rows = store.list_since(None).await.unwrap();
    let leads: Vec<&str> = rows
        .iter()
        .filter(|r| r.spam_reason.is_none())
        .map(|r| &r.email[..])
        .collect();
    assert_eq!(leads.len(), 3, "{leads:?}");
    assert!(leads[0].starts_with("same"));
    assert_eq!(&leads[1..], ["other@example.com", "person@example.com"]);
    let reused = rows
        .iter()
        .filter(|r| r.spam_reason.as_deref() == Some(REUSED_TOKEN))
        .count();
    assert_eq!(reused, 7);
    // Forgotten once expired; until then, remembered.
    assert_eq!(store.forget_spent_form_tokens(issued).await.unwrap(), 0);
    let later = issued + Duration::from_secs(1);
    assert_eq!(store.forget_spent_form_tokens(later).await.unwrap(), 3);
}

pub async fn every_stored_lead_appends_one_consent_record_to_the_chain(store: Arc<dyn QuoteStore>) {
    let consent = |notice: &str| NewConsent {
        notice: Some(notice.into()),
        page: "/".into(),
        channel: ConsentChannel::Form,
        client: Some("203.0.113.7".into()),
        user_agent: Some("Firefox".into()),
        phone: None,
    };
    // Twenty at once (one batch, or batches racing), two notices among them.
    let posts = (0..20).map(|i| {
        let store = Arc::clone(&store);
        let notice = if i % 2 == 0 { "Agent A" } else { "Agent B" };
        let quote = web(&format!("c{i}@example.com"))
            .with_idempotency_key(Some(format!("key-{i}")))
            .with_consent(consent(notice));
        async move { store.insert(quote).await }
    });
    for inserted in futures_util::future::join_all(posts).await {
        assert_eq!(inserted.unwrap(), Inserted::New);
    }
    // A replay stores nothing, and appends nothing.
    let replay = web("c0@example.com")
        .with_idempotency_key(Some("key-0".into()))
        .with_consent(consent("Agent A"));
    assert!(matches!(
        store.insert(replay).await.unwrap(),
        Inserted::Replayed { .. }
    ));
    let chain = store.consent_chain(0, 100).await.unwrap();
    assert!(matches!(
        verify(&chain),
        Verified::Intact { records: 20, .. }
    ));
    let paged = store.consent_chain(5, 3).await.unwrap();
    assert_eq!(
        paged.iter().map(|l| l.link.seq).collect::<Vec<_>>(),
        [6, 7, 8]
    );
    let rows = store.list_since(None).await.unwrap();
    let shown = rows[0].consent.as_ref().expect("a consent record");
    assert_eq!(shown.text.as_deref(), Some("Agent A"));
    assert_eq!(
        shown.sha256.as_deref(),
        Some(sha256_hex("Agent A").as_str())
    );
    assert_eq!(
        (shown.page.as_str(), shown.channel),
        ("/", ConsentChannel::Form)
    );
}

pub async fn a_later_written_consent_is_a_record_of_its_own_and_lifts_the_list(
    store: Arc<dyn QuoteStore>,
) {
    use super::call_consent::CallConsent;
    use super::consent::{Evidence, CALL_CONSENT_KIND};
    use super::written_consent::{NewWrittenConsent, WrittenOutcome};
    use super::Language;

    // A caller asked to be called: oral, as the assistant passed it on.
    let caller = |email: &str, phone: Option<&str>, call_id: &str| {
        let notice = Some("A licensed agent will contact you.");
        let quote = spoken(email, call_id, "tool-1");
        by_phone(quote, phone, phone.is_some(), notice)
    };
    // The person asked not to be contacted on an earlier lead; a new one arrives listed.
    store
        .insert(caller("caller@example.com", Some("+15555550123"), "call-0"))
        .await
        .unwrap();
    let earlier = store.list_since(None).await.unwrap()[0].clone();
    assert!(store
        .set_status(
            earlier.id.clone(),
            LeadStatus::DoNotContact,
            OffsetDateTime::now_utc()
        )
        .await
        .unwrap());
    store
        .insert(caller("caller@example.com", Some("+15555550123"), "call-1"))
        .await
        .unwrap();
    store
        .insert(caller("no-phone@example.com", None, "call-2"))
        .await
        .unwrap();
    let rows = store.list_since(None).await.unwrap();
    let oral = rows
        .iter()
        .find(|r| r.call_id.as_deref() == Some("call-1"))
        .unwrap()
        .clone();
    assert_eq!(oral.call_consent, Some(CallConsent::Oral));
    assert_eq!(oral.status, LeadStatus::DoNotContact);
    let no_phone = rows
        .iter()
        .find(|r| r.email == "no-phone@example.com")
        .unwrap()
        .clone();
    let answered = OffsetDateTime::now_utc() - Duration::from_secs(60);
    let agreed = |lead_id: String| NewWrittenConsent {
        lead_id,
        disclosure: SAID.into(),
        channel: ConsentChannel::Voice,
        page: "/".into(),
        language: Language::En,
        client: None,
        user_agent: None,
        evidence: Some(Evidence {
            call_id: Some("call-1".into()),
            recording_sha256: Some(sha256_hex(b"the call's audio")),
            answered_at: Some(super::format_timestamp(answered)),
        }),
        at: OffsetDateTime::now_utc(),
    };
    for (lead_id, outcome) in [
        (oral.id.clone(), WrittenOutcome::Recorded { seq: 4 }),
        // Written once, nothing appended again.
        (oral.id.clone(), WrittenOutcome::AlreadyWritten),
        (no_phone.id, WrittenOutcome::NotCallable),
        (
            "00000000-0000-4000-8000-000000000000".into(),
            WrittenOutcome::NotCallable,
        ),
    ] {
        let recorded = store.record_written_consent(agreed(lead_id)).await;
        assert_eq!(recorded.unwrap(), outcome);
    }

    let lead = store.lead(oral.id.clone()).await.unwrap().unwrap().quote;
    assert_eq!(lead.call_consent, Some(CallConsent::Written));
    assert!(lead.contact.may_call);
    let later = lead.written_later.expect("the later consent");
    assert_eq!(later.channel, ConsentChannel::Voice);
    assert_ne!(
        lead.status,
        LeadStatus::DoNotContact,
        "their own written consent takes them off the list"
    );
    // The lead's first record is still the one shown, and the chain holds with both.
    assert_eq!(lead.consent.unwrap().channel, ConsentChannel::Voice);
    let records = store
        .consent_records_of_lead(oral.id.clone())
        .await
        .unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[1].link.kind, CALL_CONSENT_KIND);
    assert!(records[1]
        .link
        .evidence
        .as_deref()
        .unwrap()
        .contains("recording_sha256"));
    assert_eq!(records[1].phone_disclosure_text.as_deref(), Some(SAID));
    let chain = store.consent_chain(0, 100).await.unwrap();
    assert!(matches!(
        verify(&chain),
        Verified::Intact { records: 4, .. }
    ));
    // Deleting the lead keeps both records.
    assert!(store.delete_lead(oral.id.clone()).await.unwrap());
    assert_eq!(
        store.consent_records_of_lead(oral.id).await.unwrap().len(),
        2
    );
    let chain = store.consent_chain(0, 100).await.unwrap();
    assert!(matches!(
        verify(&chain),
        Verified::Intact { records: 4, .. }
    ));
}

/// A chat's Yes and a call's stored recording that came before their leads, whose settling
/// right after the lead did not happen: the hourly round records them, once.
pub async fn a_conversations_consent_its_lead_missed_is_found_later(store: Arc<dyn QuoteStore>) {
    use super::call_consent::CallConsent;
    use super::conversation_consent::ChatAnswer;
    use super::recordings::{RecordingOutcome, StoredRecording};
    use super::Language;

    let now = OffsetDateTime::now_utc();
    let yes = ChatAnswer {
        call_id: "chat:s1".into(),
        yes: true,
        disclosure: SAID.into(),
        language: Language::En,
        page: "/".into(),
        client: Some("203.0.113.9".into()),
        user_agent: Some("Firefox".into()),
        at: now,
    };
    assert_eq!(
        store.record_chat_answer(yes).await.unwrap(),
        0,
        "no lead yet"
    );
    let recorded = CallReport {
        recording_url: Some("https://storage.example/call-9.wav".into()),
        ..report("call-9")
    };
    store.record_call(recorded).await.unwrap();
    let audio = b"the call's audio".to_vec();
    let stored = RecordingOutcome::Stored {
        recording: StoredRecording {
            content_type: "audio/wav".into(),
            sha256: sha256_hex(&audio),
            audio,
        },
        max_total_bytes: 1 << 20,
    };
    assert!(store
        .record_recording("call-9".into(), stored)
        .await
        .unwrap());
    let lead = |source, email: &str, call_id: &str, may_call| {
        let origin = VoiceOrigin {
            call_id: call_id.into(),
            tool_call_id: email.into(),
        };
        let request = QuoteRequest::parse("medicare", email).unwrap();
        let quote = NewQuote::from_assistant(request, source, origin);
        by_phone(quote, Some("+15555550123"), may_call, None)
    };
    for quote in [
        lead(Source::Chat, "chat@example.com", "chat:s1", false),
        lead(Source::Voice, "call@example.com", "call-9", true),
        lead(Source::Voice, "declined@example.com", "call-9", false),
    ] {
        store.insert(quote).await.unwrap();
    }
    assert_eq!(store.settle_conversations().await.unwrap(), 2);
    assert_eq!(store.settle_conversations().await.unwrap(), 0, "once");
    let consents: Vec<_> = store
        .list_since(None)
        .await
        .unwrap()
        .into_iter()
        .map(|lead| (lead.email, lead.call_consent))
        .collect();
    assert_eq!(
        consents,
        [
            ("chat@example.com".to_owned(), Some(CallConsent::Written)),
            ("call@example.com".to_owned(), Some(CallConsent::Written)),
            ("declined@example.com".to_owned(), None),
        ]
    );
    let chain = store.consent_chain(0, 100).await.unwrap();
    assert_eq!(chain.len(), 5, "three leads' records and two written");
    assert!(matches!(verify(&chain), Verified::Intact { .. }));
}

pub async fn conversations_are_kept_with_or_without_a_lead_until_their_cutoff(
    store: Arc<dyn QuoteStore>,
) {
    store
        .insert(spoken("ana@example.com", "with-lead", "t"))
        .await
        .unwrap();
    for call_id in ["with-lead", "no-lead"] {
        let reported = CallReport {
            ended_reason: Some("customer-ended-call".into()),
            summary: Some("a summary".into()),
            transcript: Some("AI: Hi".into()),
            ..report(call_id)
        };
        store.record_call(reported).await.unwrap();
    }
    let a_day_ago = OffsetDateTime::now_utc() - Duration::from_secs(24 * 3600);
    assert_eq!(
        store.purge_call_reports(a_day_ago).await.unwrap(),
        0,
        "both reports are newer than the cut-off"
    );
    // Deleting the lead keeps the conversation it came from.
    let lead = store.list_since(None).await.unwrap()[0].id.clone();
    assert!(store.delete_lead(lead).await.unwrap());
    for call_id in ["with-lead", "no-lead"] {
        assert!(
            store.call(call_id.into()).await.unwrap().is_some(),
            "{call_id}"
        );
    }
    // One on legal hold outlives its cut-off, with its recording's copy, until it is let go.
    assert!(store
        .set_legal_hold("no-lead".into(), Some(OffsetDateTime::now_utc()))
        .await
        .unwrap());
    assert!(!store
        .set_legal_hold("never-reported".into(), Some(OffsetDateTime::now_utc()))
        .await
        .unwrap());
    let later = OffsetDateTime::now_utc() + Duration::from_secs(60);
    assert_eq!(store.purge_call_reports(later).await.unwrap(), 1);
    let held = store.conversation("no-lead".into()).await.unwrap().unwrap();
    assert!(held.legal_hold_at.is_some());
    assert!(store.set_legal_hold("no-lead".into(), None).await.unwrap());
    assert_eq!(store.purge_call_reports(later).await.unwrap(), 1);
    assert_eq!(store.purge_call_reports(later).await.unwrap(), 0);
}

pub async fn a_notice_acceptance_stands_once_and_goes_with_its_conversation(
    store: Arc<dyn QuoteStore>,
) {
    use crate::store::notice_acceptance::NewNoticeAcceptance;
    use crate::store::{Language, Source};

    let accept = |call_id: &str, text: &str, language| NewNoticeAcceptance {
        call_id: call_id.into(),
        channel: Source::Voice,
        text: text.into(),
        language,
        at: OffsetDateTime::now_utc(),
    };
    // Before the conversation's report: kept, and the first stands.
    assert!(store
        .accept_notice(accept("call-1", "Una IA contesta.", Language::Es))
        .await
        .unwrap());
    assert!(!store
        .accept_notice(accept("call-1", "An AI answers.", Language::En))
        .await
        .unwrap());
    let kept = store
        .notice_acceptance("call-1".into())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(kept.text, "Una IA contesta.");
    assert_eq!(kept.language, Language::Es);
    assert_eq!(
        kept.sha256,
        crate::store::consent::sha256_hex("Una IA contesta.")
    );
    assert_eq!(
        store.notice_acceptance("call-2".into()).await.unwrap(),
        None
    );
    for call_id in ["call-1", "call-2"] {
        store.record_call(report(call_id)).await.unwrap();
    }
    let listed = store.conversations(10).await.unwrap();
    let notices: Vec<_> = listed
        .iter()
        .map(|c| {
            (
                c.call_id.as_str(),
                c.notice_accepted.as_ref().map(|n| &n.text),
            )
        })
        .collect();
    assert_eq!(
        notices,
        [("call-2", None), ("call-1", Some(&kept.text))],
        "newest first"
    );
    // Purged with its conversation, and one whose conversation never came once as old.
    assert!(store
        .accept_notice(accept("never-reported", "An AI answers.", Language::En))
        .await
        .unwrap());
    let later = OffsetDateTime::now_utc() + Duration::from_secs(60);
    store.purge_call_reports(later).await.unwrap();
    for call_id in ["call-1", "never-reported"] {
        assert_eq!(
            store.notice_acceptance(call_id.into()).await.unwrap(),
            None,
            "{call_id}"
        );
    }
}

pub async fn pages_follow_the_cursor_both_ways(store: Arc<dyn QuoteStore>) {
    for i in 0..7 {
        store
            .insert(web(&format!("p{i}@example.com")))
            .await
            .unwrap();
    }
    let all = store.list_since(None).await.unwrap();
    for newest_first in [true, false] {
        let mut seen = Vec::new();
        let mut after = None;
        loop {
            let page = store
                .list(ListQuery {
                    after: after.clone(),
                    limit: Some(3),
                    newest_first,
                    ..ListQuery::default()
                })
                .await
                .unwrap();
            if page.is_empty() {
                break;
            }
            after = page.last().map(|r| r.id.clone());
            seen.extend(page.into_iter().map(|r| r.id));
        }
        let mut expected: Vec<_> = all.iter().map(|r| r.id.clone()).collect();
        if newest_first {
            expected.reverse();
        }
        assert_eq!(seen, expected);
    }
    let future = OffsetDateTime::now_utc() + Duration::from_secs(3600);
    assert!(store.list_since(Some(future)).await.unwrap().is_empty());
}

/// `store` must have been opened with every channel on; the webhook's rows are followed here.
pub async fn a_failing_channel_has_one_incident_until_it_is_closed(store: Arc<dyn QuoteStore>) {
    const WEBHOOK: Channel = Channel::Webhook;
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        store.insert(web(email)).await.unwrap();
    }
    let now = OffsetDateTime::now_utc() + Duration::from_millis(5);
    let due = due(&store, WEBHOOK, now).await;
    assert!(
        store.failing_channels().await.unwrap().is_empty(),
        "none failed yet"
    );
    let retry = |error: &str| DeliveryOutcome::Retry {
        error: error.into(),
        next_attempt_at: now + Duration::from_secs(60),
    };
    for (lead, error) in due.iter().take(2).zip(["HTTP 500", "HTTP 503"]) {
        store.record_delivery(lead, retry(error)).await.unwrap();
    }
    delivered(&store, &due[2..]).await;
    let failing = store.failing_channels().await.unwrap();
    assert_eq!(failing.len(), 1, "{failing:?}");
    // The claim does not return the leads in order on PostgreSQL: the older of the two failing.
    let oldest = due[..2]
        .iter()
        .map(|lead| lead.quote.created_at)
        .min()
        .unwrap();
    assert_eq!(
        (failing[0].channel, failing[0].leads, failing[0].since),
        (WEBHOOK, 2, oldest)
    );
    assert!(failing[0].error.starts_with("HTTP 50"), "{failing:?}");

    assert!(store
        .open_incident(WEBHOOK, failing[0].since, now)
        .await
        .unwrap());
    assert!(
        !store
            .open_incident(WEBHOOK, failing[0].since, now)
            .await
            .unwrap(),
        "once"
    );
    assert_eq!(store.open_incidents().await.unwrap(), [WEBHOOK]);
    delivered(&store, &due[..2]).await;
    assert!(store.failing_channels().await.unwrap().is_empty());
    assert!(store.close_incident(WEBHOOK).await.unwrap());
    assert!(!store.close_incident(WEBHOOK).await.unwrap(), "once");
    assert!(store.open_incidents().await.unwrap().is_empty());
}

/// Marking a lead do not contact re-queues the webhook post of each of its person's leads it
/// turned (by e-mail in any case), due at once with the event; an attempt taken before the
/// change is not recorded over it; unmarking re-queues them again; another person's is left.
pub async fn a_do_not_contact_change_requeues_its_persons_webhook_posts(
    store: Arc<dyn QuoteStore>,
) {
    use super::lead_events::LeadEvent;
    const WEBHOOK: Channel = Channel::Webhook;
    for email in ["ana@example.com", "Ana@Example.COM", "bea@example.com"] {
        store.insert(web(email)).await.unwrap();
    }
    let now = OffsetDateTime::now_utc() + Duration::from_millis(5);
    let first = due(&store, WEBHOOK, now).await;
    assert_eq!(first.len(), 3);
    assert!(first.iter().all(|lead| lead.event.is_none()));
    let ana = first
        .iter()
        .find(|lead| lead.quote.email == "ana@example.com")
        .unwrap();
    let marked_at = now + Duration::from_secs(1);
    assert!(store
        .set_status(ana.quote.id.clone(), LeadStatus::DoNotContact, marked_at)
        .await
        .unwrap());
    // The first posts were in flight: their outcomes no longer land on Ana's rows.
    delivered(&store, &first).await;
    let later = marked_at + Duration::from_millis(5);
    let marked = due(&store, WEBHOOK, later).await;
    let mut emails: Vec<&str> = marked.iter().map(|l| l.quote.email.as_str()).collect();
    emails.sort();
    assert_eq!(emails, ["Ana@Example.COM", "ana@example.com"]);
    for lead in &marked {
        let queued = lead.event.unwrap();
        // Stored to the millisecond.
        let at = super::format_timestamp(marked_at);
        assert_eq!(
            (queued.event, lead.attempts, lead.quote.status),
            (LeadEvent::DoNotContactMarked, 0, LeadStatus::DoNotContact)
        );
        assert_eq!(super::format_timestamp(lead.since()), at);
    }
    delivered(&store, &marked).await;
    assert!(due(&store, WEBHOOK, later).await.is_empty());

    let unmarked_at = later + Duration::from_secs(1);
    assert!(store
        .set_status(ana.quote.id.clone(), LeadStatus::Contacted, unmarked_at)
        .await
        .unwrap());
    let unmarked = due(&store, WEBHOOK, unmarked_at).await;
    assert_eq!(unmarked.len(), 2);
    for lead in &unmarked {
        assert_eq!(
            lead.event.map(|queued| queued.event),
            Some(LeadEvent::DoNotContactUnmarked)
        );
        assert_ne!(lead.quote.status, LeadStatus::DoNotContact);
    }
    // Marking a lead contacted that was not do not contact posts nothing.
    delivered(&store, &unmarked).await;
    assert!(store
        .set_status(ana.quote.id.clone(), LeadStatus::New, unmarked_at)
        .await
        .unwrap());
    assert!(due(&store, WEBHOOK, unmarked_at).await.is_empty());
}

pub async fn the_outbox_tracks_each_lead_to_delivery_or_giving_up(store: Arc<dyn QuoteStore>) {
    const WEBHOOK: Channel = Channel::Webhook;
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        store.insert(web(email)).await.unwrap();
    }
    let now = OffsetDateTime::now_utc() + Duration::from_millis(5);
    let taken = due(&store, WEBHOOK, now).await;
    assert_eq!(taken.len(), 3);
    assert!(taken.iter().all(|lead| lead.attempts == 0));
    let [a, b, c] = [0, 1, 2].map(|i| taken[i].quote.id.clone());
    delivered(&store, &taken[..1]).await;
    let later = now + Duration::from_secs(60);
    let retry = DeliveryOutcome::Retry {
        error: "HTTP 500".into(),
        next_attempt_at: later,
    };
    store.record_delivery(&taken[1], retry).await.unwrap();
    store
        .record_delivery(
            &taken[2],
            DeliveryOutcome::GiveUp {
                error: "HTTP 410".into(),
            },
        )
        .await
        .unwrap();

    assert!(
        due(&store, WEBHOOK, now).await.is_empty(),
        "b waits; a and c are done"
    );
    let due = due(&store, WEBHOOK, later).await;
    assert_eq!(
        (due.len(), due[0].quote.id.as_str(), due[0].attempts),
        (1, b.as_str(), 1)
    );

    let rows = store.list_since(None).await.unwrap();
    let delivery = |id: &str| {
        rows.iter()
            .find(|r| r.id == id)
            .unwrap()
            .delivery_on(WEBHOOK)
            .cloned()
            .unwrap()
    };
    assert_eq!(delivery(&a).status, DeliveryStatus::Delivered);
    assert!(delivery(&a).delivered_at.is_some());
    assert_eq!(
        (delivery(&b).status, delivery(&b).last_error.as_deref()),
        (DeliveryStatus::Pending, Some("HTTP 500"))
    );
    assert_eq!(
        (delivery(&c).status, delivery(&c).attempts),
        (DeliveryStatus::Undelivered, 1)
    );
    assert!(
        rows.iter()
            .all(|r| r.delivery_on(Channel::Email).unwrap().status == DeliveryStatus::Pending),
        "the e-mail channel is untouched by the webhook's deliveries"
    );
}

/// `store` must have been opened with e-mail on and forwarding off.
pub async fn a_lead_is_queued_on_its_own_row_until_a_worker_takes_it(store: Arc<dyn QuoteStore>) {
    let queued = || Some(super::Delivery::queued());
    let id = |row: &super::StoredQuote| row.id.clone();
    for email in ["a@example.com", "b@example.com", "c@example.com"] {
        store.insert(web(email)).await.unwrap();
    }
    let before = store.list_since(None).await.unwrap();
    assert!(
        before
            .iter()
            .all(|r| r.delivery_on(Channel::Email).cloned() == queued()
                && r.delivery_on(Channel::Webhook).is_none()),
        "pending on e-mail alone before any worker ran: {before:?}"
    );
    let now = OffsetDateTime::now_utc() + Duration::from_millis(5);
    let two = store.take_due_deliveries(Channel::Email, now, 2).await;
    let two = two.unwrap();
    let mut taken: Vec<_> = two.iter().map(|lead| lead.quote.id.clone()).collect();
    taken.sort();
    assert_eq!(
        taken,
        before[..2].iter().map(id).collect::<Vec<_>>(),
        "the oldest, as many as asked"
    );
    assert!(two.iter().all(|lead| lead.attempts == 0));
    assert_eq!(
        store.list_since(None).await.unwrap(),
        before,
        "taken into the outbox, each lead reads the same"
    );
    let taken = due(&store, Channel::Email, now).await;
    assert!(
        taken.iter().any(|lead| lead.quote.id == before[2].id),
        "the third is taken by the next call"
    );
    assert!(due(&store, Channel::Webhook, now).await.is_empty());
}

/// `store` must have been opened with e-mail on.
pub async fn spam_is_listed_apart_and_delivered_once_it_is_not(store: Arc<dyn QuoteStore>) {
    let lead = web("lead@example.com");
    let spam = web("bot@example.com").with_spam(Some("no_token"));
    let (lead_id, spam_id) = (lead.id.to_string(), spam.id.to_string());
    store.insert(lead).await.unwrap();
    store.insert(spam).await.unwrap();
    let listed = |status: Option<LeadStatus>| {
        let store = Arc::clone(&store);
        async move {
            let query = LeadQuery {
                filter: LeadFilter {
                    status,
                    ..LeadFilter::default()
                },
                after: None,
                limit: 10,
            };
            let found = store.find_leads(query).await.unwrap();
            found
                .into_iter()
                .map(|q| (q.id, q.status, q.spam_reason))
                .collect::<Vec<_>>()
        }
    };
    let the_lead = vec![(lead_id.clone(), LeadStatus::New, None)];
    assert_eq!(listed(None).await, the_lead, "no spam unless asked for");
    assert_eq!(listed(Some(LeadStatus::New)).await, the_lead);
    assert_eq!(
        listed(Some(LeadStatus::Spam)).await,
        [(spam_id.clone(), LeadStatus::Spam, Some("no_token".into()))]
    );
    let due_ids = |at: OffsetDateTime| {
        let store = Arc::clone(&store);
        async move {
            let taken = due(&store, Channel::Email, at).await;
            taken.into_iter().map(|l| l.quote.id).collect::<Vec<_>>()
        }
    };
    let now = OffsetDateTime::now_utc() + Duration::from_millis(5);
    assert_eq!(
        due_ids(now).await,
        std::slice::from_ref(&lead_id),
        "spam is never queued"
    );

    assert!(store
        .set_status(spam_id.clone(), LeadStatus::New, now)
        .await
        .unwrap());
    assert!(
        due_ids(now).await.contains(&spam_id),
        "not spam: queued like a new lead"
    );
    assert_eq!(listed(None).await.len(), 2);
    assert!(listed(Some(LeadStatus::Spam)).await.is_empty());

    assert!(store
        .set_status(lead_id.clone(), LeadStatus::Spam, now)
        .await
        .unwrap());
    let marked = store.lead(lead_id.clone()).await.unwrap().unwrap().quote;
    assert_eq!(
        (marked.status, marked.spam_reason.as_deref()),
        (LeadStatus::Spam, Some("marked"))
    );
    assert!(
        marked.delivery_on(Channel::Email).is_none(),
        "what was still to go out is dropped: {marked:?}"
    );
    let later = now + Duration::from_secs(3600);
    assert!(!due_ids(later).await.contains(&lead_id));

    assert!(store
        .set_status(lead_id.clone(), LeadStatus::Contacted, now)
        .await
        .unwrap());
    assert!(due_ids(later).await.contains(&lead_id), "queued again");
    let lead = store.lead(lead_id).await.unwrap().unwrap().quote;
    assert_eq!(
        (lead.status, lead.spam_reason),
        (LeadStatus::Contacted, None)
    );
    assert!(!store
        .set_status("no-such-lead".into(), LeadStatus::Spam, now)
        .await
        .unwrap());
}

pub async fn a_visitors_opt_out_marks_their_leads_and_is_told_once(store: Arc<dyn QuoteStore>) {
    let earlier = web("Ana@Example.com");
    let earlier_id = earlier.id.to_string();
    store.insert(earlier).await.unwrap();
    let status = |id: String| {
        let store = Arc::clone(&store);
        async move { store.lead(id).await.unwrap().unwrap().quote.status }
    };
    assert_eq!(status(earlier_id.clone()).await, LeadStatus::New);

    let asked = OffsetDateTime::now_utc().replace_nanosecond(0).unwrap();
    let email = Some("ANA@example.com".to_owned());
    store.opt_out(None, email.clone(), asked).await.unwrap();
    store
        .opt_out(
            Some("+15125550123".into()),
            email,
            asked + Duration::from_secs(1),
        )
        .await
        .unwrap();
    assert_eq!(status(earlier_id).await, LeadStatus::DoNotContact);
    let later = web("ana@example.com");
    let later_id = later.id.to_string();
    store.insert(later).await.unwrap();
    assert_eq!(status(later_id).await, LeadStatus::DoNotContact);

    let now = asked + Duration::from_secs(60);
    let untold = |limit| {
        let store = Arc::clone(&store);
        async move { store.take_untold_opt_outs(now, limit).await.unwrap() }
    };
    let taken = untold(10).await;
    let told: Vec<_> = taken
        .iter()
        .map(|o| (o.kind.as_str(), o.value.as_str(), o.requested_at))
        .collect();
    assert_eq!(
        told,
        [
            ("email", "ana@example.com", asked),
            ("phone", "+15125550123", asked + Duration::from_secs(1))
        ],
        "the first request's time stands"
    );
    assert!(untold(10).await.is_empty());

    store.release_opt_outs(taken.clone(), now).await.unwrap();
    let again = untold(1).await;
    assert_eq!(
        again,
        taken[..1],
        "given back, oldest first, within the limit"
    );
    assert_eq!(untold(10).await, taken[1..]);
    let email = Some("ana@example.com".into());
    store.opt_out(None, email, now).await.unwrap();
    assert!(untold(10).await.is_empty(), "asking again is told no more");
}

pub async fn a_site_key_is_made_once(store: Arc<dyn QuoteStore>) {
    assert_eq!(store.site_key("k", "first".into()).await.unwrap(), "first");
    assert_eq!(store.site_key("k", "second".into()).await.unwrap(), "first");
    assert_eq!(store.site_key("j", "other".into()).await.unwrap(), "other");
}

/// `store` must have been opened with every channel on.
pub async fn each_channel_has_its_own_outbox_row_and_a_call_one_follow_up(
    store: Arc<dyn QuoteStore>,
) {
    let now = || OffsetDateTime::now_utc() + Duration::from_millis(5);
    store
        .insert(spoken("ana@example.com", "call", "t1"))
        .await
        .unwrap();
    store
        .insert(spoken("bea@example.com", "call", "t2"))
        .await
        .unwrap();
    store.insert(web("web@example.com")).await.unwrap();
    for channel in [Channel::Webhook, Channel::Email] {
        assert_eq!(due(&store, channel, now()).await.len(), 3);
    }
    assert!(due(&store, Channel::FollowUp, now()).await.is_empty());
    let ended = |call_id| CallReport {
        ended_reason: Some("customer-ended-call".into()),
        ..report(call_id)
    };
    for call_id in ["call", "call", "no-quotes"] {
        store.record_call(ended(call_id)).await.unwrap();
    }
    let follow_ups = due(&store, Channel::FollowUp, now()).await;
    assert_eq!(
        follow_ups.len(),
        1,
        "one per call with quotes: {follow_ups:?}"
    );
    let first = &follow_ups[0].quote;
    assert_eq!(
        (first.email.as_str(), follow_ups[0].attempts),
        ("ana@example.com", 0),
        "threaded under the call's first quote"
    );
    store
        .record_delivery(
            &PendingLead {
                channel: Channel::Email,
                ..follow_ups[0].clone()
            },
            DeliveryOutcome::GiveUp {
                error: "permanent error (550): no".into(),
            },
        )
        .await
        .unwrap();
    let rows = store.list_since(None).await.unwrap();
    let row = rows.iter().find(|r| r.id == first.id).unwrap();
    let deliveries = row.delivery.as_ref().unwrap();
    assert_eq!(
        deliveries.email.as_ref().unwrap().status,
        DeliveryStatus::Undelivered
    );
    assert_eq!(
        deliveries.webhook.as_ref().unwrap().status,
        DeliveryStatus::Pending
    );
    assert_eq!(
        deliveries.follow_up.as_ref().unwrap().status,
        DeliveryStatus::Pending
    );
}

/// A schema of its own on `TEST_DATABASE_URL`, so PostgreSQL runs never collide.
pub struct PostgresSchema {
    base: String,
    name: String,
}

impl PostgresSchema {
    /// Panics when `TEST_DATABASE_URL` is not set: these tests are `#[ignore]`d, so they run only
    /// when asked for, and then a missing database is a failure, never a silent pass.
    pub async fn create() -> PostgresSchema {
        let base = test_database_url();
        let name = format!("t_{}", uuid::Uuid::now_v7().simple());
        admin(&base)
            .await
            .batch_execute(&format!("CREATE SCHEMA {name}"))
            .await
            .expect("create schema");
        PostgresSchema { base, name }
    }

    /// The test database's URL with this schema first on the search path.
    pub fn url(&self) -> String {
        let separator = if self.base.contains('?') { '&' } else { '?' };
        format!(
            "{}{separator}options=-c%20search_path%3D{}",
            self.base, self.name
        )
    }

    pub async fn drop(self) {
        let sql = format!("DROP SCHEMA {} CASCADE", self.name);
        admin(&self.base)
            .await
            .batch_execute(&sql)
            .await
            .expect("drop schema");
    }
}

/// `TEST_DATABASE_URL`, or a panic that says how to get one.
pub fn test_database_url() -> String {
    std::env::var("TEST_DATABASE_URL").expect(
        "TEST_DATABASE_URL is not set: this test needs PostgreSQL. Run scripts/test.sh (it starts a \
         throwaway cluster) or set TEST_DATABASE_URL=postgres://user@host:port/db",
    )
}

async fn admin(url: &str) -> tokio_postgres::Client {
    let (client, connection) = tokio_postgres::connect(url, tokio_postgres::NoTls)
        .await
        .expect("TEST_DATABASE_URL answers");
    tokio::spawn(connection);
    client
}
