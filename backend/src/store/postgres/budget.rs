//! The e-mail budget on PostgreSQL (`store::email_budget`): each statement takes or gives back
//! its count in one atomic upsert, so instances sharing the database spend one budget and only
//! one of them sends an hour's digest.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::{limit, PostgresStore};
use crate::store::email_budget::{self as sql, hour_key, EmailBudget, HeldLeads, HOURS_KEPT};
use crate::store::model::format_timestamp;
use crate::store::rows::{stored_quote, NamedRow};
use crate::store::spam_report::{self as spam, SpamReport, SpamReports};
use crate::store::StoreError;

impl EmailBudget for PostgresStore {
    fn take_lead_email(
        &self,
        hour: OffsetDateTime,
        max: u32,
    ) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let (hour, max) = (hour_key(hour), i32::try_from(max).unwrap_or(i32::MAX));
            let taken = self.execute(sql::TAKE_LEAD_EMAIL, &[&hour, &max]).await?;
            Ok(taken == 1)
        }
        .boxed()
    }

    fn held_leads(
        &self,
        before: OffsetDateTime,
        max: usize,
    ) -> BoxFuture<'_, Result<HeldLeads, StoreError>> {
        async move {
            let before = format_timestamp(before);
            let rows = self
                .query(&sql::held_leads(), &[&before, &limit(Some(max))])
                .await?;
            let listed = rows.iter().map(stored_quote).collect::<Result<_, _>>()?;
            let counted = self.query(&sql::count_held(), &[&before]).await?;
            let total = match counted.first() {
                Some(row) => row.count("held")?.map_or(0, u64::from),
                None => 0,
            };
            Ok(HeldLeads { listed, total })
        }
        .boxed()
    }

    fn take_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<bool, StoreError>> {
        async move {
            let now = format_timestamp(OffsetDateTime::now_utc());
            let oldest = hour_key(hour - HOURS_KEPT);
            self.execute(sql::FORGET_HOURS, &[&oldest]).await?;
            let hour = hour_key(hour);
            let taken = self.execute(sql::TAKE_DIGEST, &[&hour, &now]).await?;
            Ok(taken == 1)
        }
        .boxed()
    }

    fn release_digest(&self, hour: OffsetDateTime) -> BoxFuture<'_, Result<(), StoreError>> {
        async move {
            let hour = hour_key(hour);
            self.execute(sql::RELEASE_DIGEST, &[&hour]).await.map(drop)
        }
        .boxed()
    }

    fn mark_digested(
        &self,
        before: OffsetDateTime,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<u64, StoreError>> {
        async move {
            let (before, now) = (format_timestamp(before), format_timestamp(now));
            self.execute(sql::MARK_DIGESTED, &[&before, &now]).await
        }
        .boxed()
    }
}

impl SpamReports for PostgresStore {
    fn take_spam_report(
        &self,
        now: OffsetDateTime,
    ) -> BoxFuture<'_, Result<Option<SpamReport>, StoreError>> {
        async move {
            let last = self.query(spam::LAST_REPORT, &[&spam::KEY]).await?;
            let last = last.first().map(|row| row.required("value")).transpose()?;
            let (at, day_before) = (
                format_timestamp(now),
                format_timestamp(spam::day_before(now)),
            );
            let claimed = self
                .query(spam::CLAIM, &[&spam::KEY, &at, &day_before])
                .await?;
            if claimed.is_empty() {
                return Ok(None);
            }
            let since = spam::since(last.as_deref(), now);
            let held = self
                .query(spam::HELD_SINCE, &[&format_timestamp(since)])
                .await?;
            let held = held.first().map(|row| row.count("held")).transpose()?;
            Ok(Some(SpamReport {
                held: held.flatten().unwrap_or(0).into(),
                since,
            }))
        }
        .boxed()
    }
}
