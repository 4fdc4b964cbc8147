//! The broker's private calendar feed's secret (docs/product.md §13): one for the site, made on
//! first asking, replaced on request, shared by every instance through the database.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::OffsetDateTime;

use super::sql::{on_every_database, Lane, NamedRow};
use super::StoreError;

/// $1 secret, $2 now: kept only when there is none yet.
const MAKE: &str = "INSERT INTO calendar_feed (one, secret, created_at) VALUES (1, $1, $2)
    ON CONFLICT (one) DO NOTHING";
/// $1 secret, $2 now.
const REPLACE: &str = "INSERT INTO calendar_feed (one, secret, created_at) VALUES (1, $1, $2)
    ON CONFLICT (one) DO UPDATE SET secret = excluded.secret, created_at = excluded.created_at";
const SECRET: &str = "SELECT secret FROM calendar_feed WHERE one = 1";

on_every_database! {
    pub trait CalendarFeed: Send + Sync {
        /// The feed's secret, `candidate` kept now if there is none yet.
        fn feed_secret(&self, candidate: String) -> BoxFuture<'_, Result<String, StoreError>> {
            self.run(Lane::Person, true, move |c| {
                async move {
                    let now = OffsetDateTime::now_utc();
                    c.execute(MAKE, &[candidate.into(), now.into()]).await?;
                    let rows = c.query(SECRET, &[]).await?;
                    rows.first()
                        .map(|row| row.required("secret"))
                        .transpose()?
                        .ok_or_else(|| {
                            StoreError::Unusable("the calendar feed has no secret".into())
                        })
                }
                .boxed()
            })
        }

        /// Replaces the feed's secret with `secret`: the old one opens nothing from now on.
        fn replace_feed_secret(&self, secret: String) -> BoxFuture<'_, Result<(), StoreError>> {
            let now = OffsetDateTime::now_utc();
            let done = self.execute(Lane::Person, REPLACE, vec![secret.into(), now.into()]);
            async move { done.await.map(drop) }.boxed()
        }

        /// The feed's secret if one was made.
        fn current_feed_secret(&self) -> BoxFuture<'_, Result<Option<String>, StoreError>> {
            let rows = self.query(Lane::Person, SECRET, Vec::new());
            async move {
                rows.await?
                    .first()
                    .map(|row| row.required("secret"))
                    .transpose()
            }
            .boxed()
        }
    }
}
