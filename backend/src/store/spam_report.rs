//! The lead e-mails' daily word: once a day, the first lead e-mail says how many posts were held
//! as spam since the day before, so a person whose post was held by mistake (a browser that
//! blocks the form's cookie) is not lost unseen, and carries the consent chain's head (its last
//! record's number and SHA-256), so a copy of it lives outside the database for `backend records
//! verify --head` to check against. The claim is a row of `site_keys`, so one instance of several
//! tells it. Written once for both databases, over `store::sql`.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::consent::Head;
use super::lead_queries::HELD_AS_SPAM;
use super::queries::{self, CONSENT_HEAD};
use super::sql::{on_every_database, Lane, NamedRow};
use super::StoreError;

/// The day's word: how many posts were held as spam since `since`, and the consent chain's head
/// (`None` while it has no records).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpamReport {
    pub held: u64,
    pub since: OffsetDateTime,
    pub consent_head: Option<Head>,
}

on_every_database! {
    pub trait SpamReports: Send + Sync {
        /// Takes the day's report at `now`: `None` when one was taken less than a day ago (here or
        /// by another instance).
        fn take_spam_report(
            &self,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<Option<SpamReport>, StoreError>> {
            self.run(Lane::Outbox, false, move |c| {
                async move {
                    let last = c.query(queries::KEY, &[KEY.into()]).await?;
                    let last = last.first().map(|row| row.required("value")).transpose()?;
                    let claim = [KEY.into(), now.into(), day_before(now).into()];
                    if c.query(CLAIM, &claim).await?.is_empty() {
                        return Ok(None);
                    }
                    let since = since(last.as_deref(), now);
                    let held = c.query(HELD_AS_SPAM, &[since.into()]).await?;
                    let held = held.first().map(|row| row.count("held")).transpose()?;
                    let head = c.query(CONSENT_HEAD, &[]).await?;
                    Ok(Some(SpamReport {
                        held: held.flatten().unwrap_or(0).into(),
                        since,
                        consent_head: head.first().map(Head::read).transpose()?,
                    }))
                }
                .boxed()
            })
        }
    }
}

/// The `site_keys` row holding when the last report was taken.
const KEY: &str = "spam_reported_at";

/// $1 the key, $2 now, $3 a day before now: the claim, one row when taken.
const CLAIM: &str = "INSERT INTO site_keys (name, value) VALUES ($1, $2)
    ON CONFLICT (name) DO UPDATE SET value = excluded.value WHERE site_keys.value <= $3
    RETURNING value";

/// A day before `now`: the first report covers the day before it.
fn day_before(now: OffsetDateTime) -> OffsetDateTime {
    now - time::Duration::days(1)
}

/// Since the last report (as stored), or a day before `now` for the first.
fn since(last: Option<&str>, now: OffsetDateTime) -> OffsetDateTime {
    last.and_then(|last| {
        OffsetDateTime::parse(last, &time::format_description::well_known::Rfc3339).ok()
    })
    .unwrap_or_else(|| day_before(now))
}
