//! A written consent to be called given after a lead was stored: a click on the exact text in
//! the chat, the box on the consent page a lead's e-mail links to, or an agreement spoken in a
//! call whose recording the site stored. Each is a record of its own in the consent chain
//! (`consent::CALL_CONSENT_KIND`, its hash covering the evidence), appended in one transaction
//! with taking the person off the do-not-contact list: only their own written consent does.
//! The lead's row is not touched, so its first record still matches it; the inbox reads the
//! permission from the latest such record (`lead_queries::SELECT_QUOTES`).

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::call_consent::CallConsent;
use super::consent::{self, Evidence, Head, Link, NewConsent, PhoneConsent, Reach};
use super::do_not_contact;
use super::language::Language;
use super::lead_queries;
use super::queries::{CONSENT_HEAD, INSERT_CONSENT, INSERT_NOTICE_TEXT};
use super::rows::stored_quote;
use super::sql::{on_every_database, Connection, Lane, Value};
use super::{LeadStatus, StoreError};

/// How a written consent was given, and what it agreed to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewWrittenConsent {
    pub lead_id: String,
    /// The consent text's exact words, as shown or read.
    pub disclosure: String,
    /// `chat`, `consent_page` or `voice`.
    pub channel: consent::ConsentChannel,
    /// The page it was given on (`/consent/...`, `/`), or the call's.
    pub page: String,
    pub language: Language,
    pub client: Option<String>,
    pub user_agent: Option<String>,
    pub evidence: Option<Evidence>,
    pub at: OffsetDateTime,
}

/// What became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WrittenOutcome {
    /// Appended as record `seq`.
    Recorded { seq: i64 },
    /// The lead already holds written consent: nothing was added.
    AlreadyWritten,
    /// No such lead, or one without a phone number or held as spam: nothing to consent to.
    NotCallable,
}

on_every_database! {
    pub trait WrittenConsents: Send + Sync {
        fn record_written_consent(
            &self,
            new: NewWrittenConsent,
        ) -> BoxFuture<'_, Result<WrittenOutcome, StoreError>> {
            self.run(Lane::Person, true, move |c| append(c, new).boxed())
        }
    }
}

/// Appends `new` in the transaction `c` is in: what `record_written_consent` does, for the
/// rules that record one in a transaction of their own (`conversation_consent.rs`).
pub(super) async fn append(
    c: &mut dyn Connection,
    new: NewWrittenConsent,
) -> Result<WrittenOutcome, StoreError> {
    if let Some(lock) = c.transaction_lock() {
        c.execute(lock, &[consent::CHAIN_LOCK.into()]).await?;
    }
    let rows = c
        .query(&lead_queries::lead(), &[new.lead_id.as_str().into()])
        .await?;
    let Some(lead) = rows.first().map(stored_quote).transpose()? else {
        return Ok(WrittenOutcome::NotCallable);
    };
    let Some(phone) = lead.contact.phone.as_deref() else {
        return Ok(WrittenOutcome::NotCallable);
    };
    if lead.status == LeadStatus::Spam {
        return Ok(WrittenOutcome::NotCallable);
    }
    if lead.call_consent == Some(CallConsent::Written) {
        return Ok(WrittenOutcome::AlreadyWritten);
    }
    let reach = Reach {
        email: &lead.email,
        phone: Some(phone),
        may_call: Some("yes"),
    };
    let given = NewConsent {
        notice: None,
        page: new.page.clone(),
        channel: new.channel,
        client: new.client.clone(),
        user_agent: new.user_agent.clone(),
        phone: Some(PhoneConsent {
            disclosure: new.disclosure.clone(),
            given: true,
        }),
    };
    let seq = append_link(c, &given, |head| {
        Link::after(head, &new.lead_id, new.language, new.at, reach, &given)
            .written_later(new.evidence.as_ref())
    })
    .await?;
    c.execute(
        do_not_contact::LIFT,
        &[phone.into(), lead.email.as_str().into()],
    )
    .await?;
    Ok(WrittenOutcome::Recorded { seq })
}

/// Appends the record `link` makes of the chain's head, with `given`'s texts, in the transaction
/// `c` is in; its number.
pub(super) async fn append_link(
    c: &mut dyn Connection,
    given: &NewConsent,
    link: impl FnOnce(Option<Head>) -> Link,
) -> Result<i64, StoreError> {
    for text in given.texts() {
        c.execute(
            INSERT_NOTICE_TEXT,
            &[consent::sha256_hex(text).into(), text.into()],
        )
        .await?;
    }
    let head = c.query(CONSENT_HEAD, &[]).await?;
    let link = link(head.first().map(Head::read).transpose()?);
    c.execute(INSERT_CONSENT, &insert_values(&link)).await?;
    Ok(link.seq)
}

/// `queries::INSERT_CONSENT`'s values for `link`.
pub(super) fn insert_values(link: &Link) -> [Value; 19] {
    [
        link.seq.into(),
        link.lead_id.as_str().into(),
        link.channel.as_str().into(),
        link.page.as_str().into(),
        link.language.as_str().into(),
        link.at.as_str().into(),
        link.client.clone().into(),
        link.user_agent.clone().into(),
        link.notice_sha256.clone().into(),
        link.prev_hash.as_str().into(),
        link.phone_consent.clone().into(),
        link.phone_disclosure_sha256.clone().into(),
        link.hash_form.into(),
        link.email.clone().into(),
        link.phone.clone().into(),
        link.may_call.clone().into(),
        link.kind.as_str().into(),
        link.evidence.clone().into(),
        link.hash().into(),
    ]
}
