//! Consent records: with every lead, what its visitor was shown and agreed to when they sent it
//! (the lead-generation notice's exact text, kept once under its SHA-256 in `notice_texts`), on
//! which page and in which language, when, by which channel, from which address and browser.
//!
//! The records are append-only and hash-chained: each one's hash covers its own fields and the
//! previous record's hash, so changing, removing or reordering any stored byte breaks the chain
//! from there on, and `backend records verify` (`verify`) names the first record that does not
//! match. Deleting a lead keeps its record: it is the proof the lead was asked for.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use serde::Serialize;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::clean_text;
use super::language::Language;
use super::lead_queries::{CONSENT_CHAIN, CONSENT_OF_LEAD, CONSENT_OF_PERSON, CONSENT_RECORD};
use super::sql::{on_every_database, Lane, NamedRow};
use super::stored_names::stored_names;
use super::timestamp::{format_timestamp, serialize_timestamp};
use super::StoreError;

/// Whose records to find: those with this phone number (E.164) or this e-mail address (in any
/// case), either or both; with neither, none.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Person {
    pub phone: Option<String>,
    pub email: Option<String>,
}

/// How the lead was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum ConsentChannel {
    /// The quote form with its script (`fetch`).
    Form,
    /// The quote form posted by the browser itself, without JavaScript.
    FormWithoutScript,
    /// Spoken to the voice assistant.
    Voice,
    /// Typed to the assistant in the chat.
    Chat,
    /// The page a lead's e-mail links to, asking for written consent (`/consent/...`).
    ConsentPage,
}

stored_names!(
    ConsentChannel,
    parse,
    [
        Form => "form",
        FormWithoutScript => "form_without_script",
        Voice => "voice",
        Chat => "chat",
        ConsentPage => "consent_page",
    ]
);

/// What a new lead's consent record holds beyond the lead's own id, language and time.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewConsent {
    /// The notice's exact text as the visitor was shown it; `None` when the site has no built
    /// front end to show one (an API-only server).
    pub notice: Option<String>,
    /// The page the lead came from (`/`, `/es/`).
    pub page: String,
    pub channel: ConsentChannel,
    /// The client's address as the server worked it out (behind a trusted proxy, the visitor's).
    pub client: Option<String>,
    pub user_agent: Option<String>,
    /// With a phone number, the written consent to be called asked for beside it.
    pub phone: Option<PhoneConsent>,
}

impl NewConsent {
    /// The texts the record refers to by their SHA-256: the notice, and the phone disclosure.
    pub fn texts(&self) -> impl Iterator<Item = &str> {
        let disclosure = self.phone.as_ref().map(|phone| phone.disclosure.as_str());
        self.notice.as_deref().into_iter().chain(disclosure)
    }
}

/// The consent to be called asked for beside a phone number (47 CFR 64.1200(f)(9)): the
/// disclosure's exact text (kept once under its SHA-256 like a notice's) and whether the
/// visitor ticked its box (in a call or a chat: said or wrote yes).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PhoneConsent {
    pub disclosure: String,
    pub given: bool,
}

impl PhoneConsent {
    fn stored(&self) -> &'static str {
        if self.given {
            "given"
        } else {
            "not_given"
        }
    }
}

/// A lead's phone consent as the admin API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PhoneConsentShown {
    /// The disclosure's text.
    #[schema(required = true)]
    pub text: Option<String>,
    pub given: bool,
}

/// A lead's consent record as the admin API shows it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Consent {
    /// The notice's text; `None` when none was shown.
    #[schema(required = true)]
    pub text: Option<String>,
    #[schema(required = true)]
    pub sha256: Option<String>,
    #[schema(schema_with = super::schema::consent_page)]
    pub page: String,
    pub language: Language,
    /// RFC 3339, UTC: when the lead was stored.
    #[serde(serialize_with = "serialize_timestamp")]
    #[schema(value_type = String)]
    pub at: OffsetDateTime,
    pub channel: ConsentChannel,
    /// With a phone number: the disclosure beside it and whether its box was ticked.
    #[schema(required = true)]
    pub phone: Option<PhoneConsentShown>,
}

/// The hex SHA-256 of a notice's text (its key in `notice_texts`), or of any bytes.
pub fn sha256_hex(bytes: impl AsRef<[u8]>) -> String {
    hex::encode(Sha256::digest(bytes.as_ref()))
}

/// One record of the chain, as stored: every field its hash covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Link {
    pub seq: i64,
    pub lead_id: String,
    pub channel: String,
    pub page: String,
    pub language: String,
    pub at: String,
    #[schema(required = true)]
    pub client: Option<String>,
    #[schema(required = true)]
    pub user_agent: Option<String>,
    #[schema(required = true)]
    pub notice_sha256: Option<String>,
    /// The previous record's hash (`""` for the first).
    pub prev_hash: String,
    /// With a phone number: `given` or `not_given`, and the disclosure's SHA-256.
    #[schema(required = true)]
    pub phone_consent: Option<String>,
    #[schema(required = true)]
    pub phone_disclosure_sha256: Option<String>,
    /// Which fields the hash covers: `HASH_FORM` for a record that keeps what the inbox acts on
    /// (the three below), `FIRST_FORM` for the records made before it did.
    pub hash_form: i64,
    /// The lead's e-mail address, phone number and call permission (`yes`/`no`, with a phone
    /// number) as the lead was stored; `None` in a `FIRST_FORM` record.
    #[schema(required = true)]
    pub email: Option<String>,
    #[schema(required = true)]
    pub phone: Option<String>,
    #[schema(required = true, schema_with = super::schema::may_call)]
    pub may_call: Option<String>,
    /// `lead` for the record stored with a lead, `call_consent` for a written consent to be
    /// called given after it (`written_consent.rs`).
    #[schema(schema_with = record_kind)]
    pub kind: String,
    /// What a `call_consent` record stands on, as JSON (`Evidence`); `None` for a lead's.
    #[schema(required = true)]
    pub evidence: Option<String>,
}

/// `Link::kind` in the OpenAPI document.
fn record_kind() -> utoipa::openapi::Object {
    super::schema::words(&[LEAD_KIND, CALL_CONSENT_KIND])
}

/// The hash form of the records made before they kept the lead's contact details.
pub const FIRST_FORM: i64 = 1;
/// The hash form of a lead's record: its hash covers the lead's e-mail, phone and call
/// permission.
pub const HASH_FORM: i64 = 2;
/// The hash form of a later written consent: `HASH_FORM`'s fields, its kind and its evidence.
pub const WRITTEN_FORM: i64 = 3;
/// The lock the chain is appended under where several writers may append at once (PostgreSQL's
/// advisory lock; any number, the same everywhere).
pub const CHAIN_LOCK: i64 = 0x0063_6f6e_7365_6e74;
/// A lead's first record.
pub const LEAD_KIND: &str = "lead";
/// A written consent to be called, given after the lead was stored.
pub const CALL_CONSENT_KIND: &str = "call_consent";

/// A Scope of Appointment signed with a booking (`bookings.rs`): its statement is the record's
/// notice, its products and signature its evidence.
pub const SOA_KIND: &str = "soa";

/// What a Scope of Appointment's record holds besides its statement: the product types the
/// person chose to discuss and the full name they typed (or, to the assistant, said) as their
/// signature; agreed in a conversation with the assistant, which one (the call whose recording
/// holds the statement read and the agreement, or the chat), as the record's `call_id` links it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct SoaEvidence {
    pub products: Vec<String>,
    pub signature: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub call_id: Option<String>,
}

/// What a later written consent stands on beyond the click that gave it: for an agreement
/// spoken in a call, the call, its stored recording's SHA-256 and the moment of the answer.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
pub struct Evidence {
    pub call_id: Option<String>,
    pub recording_sha256: Option<String>,
    /// When the answer was given (RFC 3339), which may be before the record was made.
    pub answered_at: Option<String>,
}

/// What the inbox acts on, as a new lead is stored: its record keeps them under its hash.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reach<'a> {
    pub email: &'a str,
    pub phone: Option<&'a str>,
    /// `yes` or `no` with a phone number, `None` without one.
    pub may_call: Option<&'a str>,
}

/// The chain's last record: its number and hash, which `backend records verify --head` takes
/// back to check the database still holds it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Head {
    pub seq: i64,
    pub sha256: String,
}

impl Link {
    /// The record for lead `lead_id` (in `language`, stored at `at`, reached at `reach`) after
    /// the chain's head (`None` for an empty chain).
    pub fn after(
        head: Option<Head>,
        lead_id: &str,
        language: Language,
        at: OffsetDateTime,
        reach: Reach<'_>,
        consent: &NewConsent,
    ) -> Link {
        let (seq, prev_hash) = head.map_or((1, String::new()), |head| (head.seq + 1, head.sha256));
        Link {
            seq,
            lead_id: lead_id.to_owned(),
            channel: consent.channel.as_str().to_owned(),
            page: consent.page.clone(),
            language: language.as_str().to_owned(),
            at: format_timestamp(at),
            client: consent.client.clone(),
            user_agent: consent.user_agent.as_deref().map(clean_text::user_agent),
            notice_sha256: consent.notice.as_deref().map(sha256_hex),
            prev_hash,
            phone_consent: consent.phone.as_ref().map(|p| p.stored().to_owned()),
            phone_disclosure_sha256: consent.phone.as_ref().map(|p| sha256_hex(&p.disclosure)),
            hash_form: HASH_FORM,
            email: Some(reach.email.to_owned()),
            phone: reach.phone.map(str::to_owned),
            may_call: reach.may_call.map(str::to_owned),
            kind: LEAD_KIND.to_owned(),
            evidence: None,
        }
    }

    /// The record as a written consent to be called that its lead gave after it was stored
    /// (its consent's phone disclosure being what it agreed to), standing on `evidence`.
    pub fn written_later(self, evidence: Option<&Evidence>) -> Link {
        Link {
            hash_form: WRITTEN_FORM,
            kind: CALL_CONSENT_KIND.to_owned(),
            evidence: evidence.map(|e| serde_json::json!(e).to_string()),
            ..self
        }
    }

    /// The record as a Scope of Appointment its lead signed (its consent's notice being the
    /// statement), its evidence covered by its hash as a written consent's is.
    pub fn scope_of_appointment(self, evidence: &SoaEvidence) -> Link {
        Link {
            hash_form: WRITTEN_FORM,
            kind: SOA_KIND.to_owned(),
            evidence: Some(serde_json::json!(evidence).to_string()),
            ..self
        }
    }

    /// The hex SHA-256 of the fields as one JSON array: unambiguous whatever a field holds. A
    /// `HASH_FORM` record's array starts with its form and holds every field. A `FIRST_FORM`
    /// record's is as the records made before the contact details were kept have it: the phone
    /// consent's two fields come last, only in a record that has them (the records made before
    /// they existed keep their hashes too).
    pub fn hash(&self) -> String {
        let form_two = self.hash_form != FIRST_FORM;
        let mut fields = Vec::new();
        if form_two {
            fields.push(serde_json::json!(self.hash_form));
        }
        fields.extend([
            serde_json::json!(self.seq),
            serde_json::json!(self.lead_id),
            serde_json::json!(self.channel),
            serde_json::json!(self.page),
            serde_json::json!(self.language),
            serde_json::json!(self.at),
            serde_json::json!(self.client),
            serde_json::json!(self.user_agent),
            serde_json::json!(self.notice_sha256),
            serde_json::json!(self.prev_hash),
        ]);
        if form_two || self.phone_consent.is_some() || self.phone_disclosure_sha256.is_some() {
            fields.push(serde_json::json!(self.phone_consent));
            fields.push(serde_json::json!(self.phone_disclosure_sha256));
        }
        if form_two {
            fields.push(serde_json::json!(self.email));
            fields.push(serde_json::json!(self.phone));
            fields.push(serde_json::json!(self.may_call));
        }
        if self.hash_form >= WRITTEN_FORM {
            fields.push(serde_json::json!(self.kind));
            fields.push(serde_json::json!(self.evidence));
        }
        sha256_hex(serde_json::Value::Array(fields).to_string())
    }

    /// Whether it holds what its hash does not cover (a first-form record with contact
    /// details, or an earlier form's record that is not a lead's, was changed: the inbox would
    /// act on them).
    fn holds_uncovered(&self) -> bool {
        let contact = self.email.is_some() || self.phone.is_some() || self.may_call.is_some();
        let later = self.kind != LEAD_KIND || self.evidence.is_some();
        (self.hash_form == FIRST_FORM && contact) || (self.hash_form < WRITTEN_FORM && later)
    }
}

impl Head {
    /// A row of `queries::CONSENT_HEAD`.
    pub fn read(row: &impl NamedRow) -> Result<Head, StoreError> {
        Ok(Head {
            seq: row.number("seq")?,
            sha256: row.required("hash")?,
        })
    }
}

/// A stored record with the hash it was stored with, and its notice's stored text.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
pub struct StoredLink {
    pub link: Link,
    pub hash: String,
    #[schema(required = true)]
    pub notice_text: Option<String>,
    /// The phone consent's disclosure, as stored under its key.
    #[schema(required = true)]
    pub phone_disclosure_text: Option<String>,
    /// The lead's e-mail, phone and call permission as `quote_requests` holds them now; `None`
    /// once the lead is deleted (its record is kept). Not part of the record, so not in its copy.
    #[serde(skip)]
    pub lead: Option<LeadReach>,
    /// The call or chat its lead came from: the lead's while it is kept, then the one the record
    /// kept when the lead was deleted. A link to the conversation, outside the hash, so not in
    /// its copy either.
    #[serde(skip)]
    pub call_id: Option<String>,
}

/// A stored lead's contact details, as `verify` compares them with its record's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LeadReach {
    pub email: String,
    pub phone: Option<String>,
    pub may_call: Option<String>,
}

/// What `verify` found: how many records hold, or the first that does not and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verified {
    Intact {
        records: usize,
        /// The last record's; `None` for an empty chain.
        head: Option<Head>,
    },
    Broken {
        seq: i64,
        lead_id: String,
        why: String,
    },
}

/// Walks `chain` (in `seq` order) and checks every record: numbered one after another, its
/// hash over its fields, its link to the previous one, and its notice's text against its key.
pub fn verify(chain: &[StoredLink]) -> Verified {
    let mut previous: Option<&StoredLink> = None;
    for stored in chain {
        let link = &stored.link;
        let broken = |why: String| Verified::Broken {
            seq: link.seq,
            lead_id: link.lead_id.clone(),
            why,
        };
        let expected_seq = previous.map_or(1, |p| p.link.seq + 1);
        if link.seq != expected_seq {
            return broken(format!(
                "is numbered {}, where {expected_seq} was expected (a record is missing)",
                link.seq
            ));
        }
        let expected_prev = previous.map_or("", |p| p.hash.as_str());
        if link.prev_hash != expected_prev {
            return broken(
                "does not follow the record before it (its previous hash differs)".into(),
            );
        }
        if link.hash() != stored.hash {
            return broken("does not match its hash (a field was changed)".into());
        }
        if link.holds_uncovered() {
            return broken(
                "holds contact details its hash does not cover (a field was changed)".into(),
            );
        }
        if let (HASH_FORM.., Some(lead)) = (link.hash_form, &stored.lead) {
            // A later consent changes the permission without touching the lead's row.
            let first = link.kind == LEAD_KIND;
            let changed = [
                ("e-mail", link.email.as_deref() != Some(lead.email.as_str())),
                ("phone", link.phone != lead.phone),
                (
                    "call permission (may_call)",
                    first && link.may_call != lead.may_call,
                ),
            ]
            .into_iter()
            .find_map(|(name, differs)| differs.then_some(name));
            if let Some(name) = changed {
                return broken(format!(
                    "holds another {name} than its lead in quote_requests (the lead was changed)"
                ));
            }
        }
        for (key, text) in [
            (&link.notice_sha256, &stored.notice_text),
            (&link.phone_disclosure_sha256, &stored.phone_disclosure_text),
        ] {
            match (key, text) {
                (Some(key), Some(text)) if sha256_hex(text) != *key => {
                    return broken(format!(
                        "refers to the notice {key}, whose stored text has changed"
                    ));
                }
                (Some(key), None) => {
                    return broken(format!("refers to the notice {key}, which is missing"));
                }
                _ => {}
            }
        }
        previous = Some(stored);
    }
    Verified::Intact {
        records: chain.len(),
        head: chain.last().map(|last| Head {
            seq: last.link.seq,
            sha256: last.hash.clone(),
        }),
    }
}

on_every_database! {
    /// What `backend records verify` reads of a store (records are appended with their quote, by
    /// `Quotes::insert`).
    pub trait ConsentRecords: Send + Sync {
        /// Up to `limit` records after record `after` (0: from the first), in order, each with its
        /// notice's stored text.
        fn consent_chain(
            &self,
            after: i64,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<StoredLink>, StoreError>> {
            let rows = self.query(
                Lane::Person,
                CONSENT_CHAIN,
                vec![after.into(), limit.into()],
            );
            async move { rows.await?.iter().map(stored_link).collect() }.boxed()
        }

        /// The records kept with lead `lead_id` (which may be deleted), in order, each with its
        /// texts: the lead's own first, then any written consent it gave later.
        fn consent_records_of_lead(
            &self,
            lead_id: String,
        ) -> BoxFuture<'_, Result<Vec<StoredLink>, StoreError>> {
            let rows = self.query(Lane::Person, CONSENT_OF_LEAD, vec![lead_id.into()]);
            async move { rows.await?.iter().map(stored_link).collect() }.boxed()
        }

        /// Record number `seq`, with its texts; `None` when there is none.
        fn consent_record_numbered(
            &self,
            seq: i64,
        ) -> BoxFuture<'_, Result<Option<StoredLink>, StoreError>> {
            let rows = self.query(Lane::Person, CONSENT_RECORD, vec![seq.into()]);
            async move { rows.await?.first().map(stored_link).transpose() }.boxed()
        }

        /// Up to `limit` records of one person, found by phone number or e-mail address (either
        /// matching), deleted leads included, oldest first.
        fn consent_records_of(
            &self,
            person: Person,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<StoredLink>, StoreError>> {
            let values = vec![person.phone.into(), person.email.into(), limit.into()];
            let rows = self.query(Lane::Person, CONSENT_OF_PERSON, values);
            async move { rows.await?.iter().map(stored_link).collect() }.boxed()
        }
    }
}

/// A row of `lead_queries::CONSENT_CHAIN`.
pub(super) fn stored_link(row: &impl NamedRow) -> Result<StoredLink, StoreError> {
    Ok(StoredLink {
        link: Link {
            seq: row.number("seq")?,
            lead_id: row.required("lead_id")?,
            channel: row.required("channel")?,
            page: row.required("page")?,
            language: row.required("language")?,
            at: row.required("at")?,
            client: row.text("client")?,
            user_agent: row.text("user_agent")?,
            notice_sha256: row.text("notice_sha256")?,
            prev_hash: row.required("prev_hash")?,
            phone_consent: row.text("phone_consent")?,
            phone_disclosure_sha256: row.text("phone_disclosure_sha256")?,
            hash_form: row.number("hash_form")?,
            email: row.text("email")?,
            phone: row.text("phone")?,
            may_call: row.text("may_call")?,
            kind: row.required("kind")?,
            evidence: row.text("evidence")?,
        },
        hash: row.required("hash")?,
        notice_text: row.text("notice_text")?,
        phone_disclosure_text: row.text("phone_disclosure_text")?,
        lead: match row.text("lead_email")? {
            Some(email) => Some(LeadReach {
                email,
                phone: row.text("lead_phone")?,
                may_call: row.text("lead_may_call")?,
            }),
            None => None,
        },
        call_id: row.text("call_id")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn consent(notice: &str) -> NewConsent {
        NewConsent {
            notice: Some(notice.into()),
            page: "/es/".into(),
            channel: ConsentChannel::Form,
            client: Some("203.0.113.7".into()),
            user_agent: Some("Firefox\n\"quoted\"".into()),
            phone: None,
        }
    }

    const DISCLOSURE: &str = "Clearharbor may call me. Consent is not a condition of purchase.";

    fn chain(n: usize) -> Vec<StoredLink> {
        let mut chain: Vec<StoredLink> = Vec::new();
        for i in 0..n {
            let head = chain.last().map(|l| Head {
                seq: l.link.seq,
                sha256: l.hash.clone(),
            });
            // Every other lead gave a phone number, the box ticked or not.
            let phone = (i % 2 == 1).then(|| PhoneConsent {
                disclosure: DISCLOSURE.into(),
                given: i % 4 == 1,
            });
            let may_call = phone.as_ref().map(|p| if p.given { "yes" } else { "no" });
            let email = format!("lead{i}@example.com");
            let reach = Reach {
                email: &email,
                phone: phone.as_ref().map(|_| "+15555550123"),
                may_call,
            };
            let link = Link::after(
                head,
                &format!("lead-{i}"),
                Language::Es,
                OffsetDateTime::UNIX_EPOCH,
                reach,
                &NewConsent {
                    phone: phone.clone(),
                    ..consent("A licensed agent will contact you.")
                },
            );
            chain.push(StoredLink {
                hash: link.hash(),
                notice_text: Some("A licensed agent will contact you.".into()),
                phone_disclosure_text: phone.map(|p| p.disclosure),
                lead: Some(LeadReach {
                    email: reach.email.to_owned(),
                    phone: reach.phone.map(str::to_owned),
                    may_call: may_call.map(str::to_owned),
                }),
                call_id: None,
                link,
            });
        }
        chain
    }

    #[test]
    fn an_untouched_chain_holds() {
        let three = chain(3);
        let head = Some(Head {
            seq: 3,
            sha256: three[2].hash.clone(),
        });
        assert_eq!(verify(&three), Verified::Intact { records: 3, head });
        assert_eq!(
            verify(&[]),
            Verified::Intact {
                records: 0,
                head: None
            }
        );
        let first = &chain(1)[0].link;
        assert_eq!(first.user_agent.as_deref(), Some("Firefox \"quoted\""));
        assert_eq!((first.seq, first.prev_hash.as_str()), (1, ""));
        assert_eq!(
            first.notice_sha256.as_deref(),
            Some(sha256_hex("A licensed agent will contact you.").as_str())
        );
    }

    /// The record `verify` finds broken, and why.
    fn named(chain: &[StoredLink]) -> (i64, String) {
        match verify(chain) {
            Verified::Broken { seq, why, .. } => (seq, why),
            intact => panic!("{intact:?}"),
        }
    }

    #[test]
    fn any_change_names_the_first_record_it_breaks() {
        let mut changed = chain(3);
        changed[1].link.client = Some("198.51.100.1".into());
        assert_eq!(named(&changed).0, 2);
        let mut rehashed = chain(3);
        rehashed[1].link.page = "/".into();
        rehashed[1].hash = rehashed[1].link.hash();
        let (seq, why) = named(&rehashed);
        assert_eq!(seq, 3, "the next record no longer follows: {why}");
        let mut text = chain(3);
        text[0].notice_text = Some("A licensed agent may contact you.".into());
        assert!(named(&text).1.contains("stored text has changed"));
        let mut gap = chain(3);
        gap.remove(1);
        assert!(named(&gap).1.contains("a record is missing"));
    }

    /// A record as the releases before `HASH_FORM` made it.
    fn first_form(link: &Link) -> Link {
        Link {
            hash_form: FIRST_FORM,
            email: None,
            phone: None,
            may_call: None,
            ..link.clone()
        }
    }

    #[test]
    fn a_record_without_a_phone_keeps_the_hash_it_had_before_phones() {
        let link = &first_form(&chain(1)[0].link);
        let before_phones = serde_json::json!([
            link.seq,
            link.lead_id,
            link.channel,
            link.page,
            link.language,
            link.at,
            link.client,
            link.user_agent,
            link.notice_sha256,
            link.prev_hash,
        ]);
        assert_eq!(link.hash(), sha256_hex(before_phones.to_string()));
    }

    #[test]
    fn first_form_records_keep_verifying_before_new_ones() {
        let mut mixed = chain(4);
        let mut head: Option<Head> = None;
        for stored in &mut mixed[..2] {
            stored.link = first_form(&stored.link);
            stored.link.prev_hash = head.map_or_else(String::new, |h| h.sha256);
            stored.hash = stored.link.hash();
            head = Some(Head {
                seq: stored.link.seq,
                sha256: stored.hash.clone(),
            });
        }
        mixed[2].link.prev_hash = mixed[1].hash.clone();
        mixed[2].hash = mixed[2].link.hash();
        mixed[3].link.prev_hash = mixed[2].hash.clone();
        mixed[3].hash = mixed[3].link.hash();
        assert!(matches!(
            verify(&mixed),
            Verified::Intact { records: 4, .. }
        ));
        // A first-form record given contact details its hash never covered is changed.
        mixed[1].link.may_call = Some("yes".into());
        assert!(matches!(verify(&mixed), Verified::Broken { seq: 2, .. }));
        // Nor can a new record pass for a first-form one.
        let mut demoted = chain(2);
        demoted[1].link = first_form(&demoted[1].link);
        assert!(matches!(verify(&demoted), Verified::Broken { seq: 2, .. }));
    }

    #[test]
    fn a_lead_changed_after_its_record_is_named() {
        let mut flipped = chain(4);
        flipped[3].lead.as_mut().unwrap().may_call = Some("yes".into());
        let (seq, said) = named(&flipped);
        assert_eq!(seq, 4);
        assert!(said.contains("call permission (may_call)"), "{said}");
        let mut phone = chain(4);
        phone[3].lead.as_mut().unwrap().phone = Some("+15555550199".into());
        assert!(named(&phone).1.contains("another phone"));
        let mut email = chain(4);
        email[0].lead.as_mut().unwrap().email = "x@example.com".into();
        assert!(named(&email).1.contains("another e-mail"));
        // A deleted lead's record stands alone.
        let mut deleted = chain(4);
        deleted[1].lead = None;
        assert!(matches!(
            verify(&deleted),
            Verified::Intact { records: 4, .. }
        ));
    }

    #[test]
    fn a_changed_phone_consent_or_disclosure_breaks_the_chain_there() {
        let mut ticked = chain(4);
        ticked[3].link.phone_consent = Some("given".into());
        assert!(matches!(verify(&ticked), Verified::Broken { seq: 4, .. }));
        let mut reworded = chain(4);
        reworded[1].phone_disclosure_text = Some("Clearharbor may call me.".into());
        let (seq, why) = named(&reworded);
        assert_eq!(seq, 2);
        assert!(why.contains("stored text has changed"), "{why}");
    }
}
