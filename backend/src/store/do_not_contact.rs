//! The do-not-contact list: the phone numbers and e-mail addresses of the people who asked not
//! to be contacted. Marking a lead do not contact puts its number and address on it
//! (`lead_queries::LIST_DO_NOT_CONTACT`), and the list outlives the lead: every lead of that
//! person, earlier or later, reads as do not contact (`lead_queries::do_not_contact_now!`), so a new
//! one gets no Call link and no follow-up, and its delivery says so. Only the person's own new
//! written consent (the quote form's phone box, ticked) takes their number and address off; the
//! broker unmarking the lead they marked takes off what that marking put on.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use time::format_description::well_known::Rfc3339;
use time::OffsetDateTime;

use super::consent::ConsentChannel;
use super::model::NewQuote;
use super::sql::{on_every_database, Lane, NamedRow};
use super::StoreError;

/// $1 phone number, $2 e-mail address: taken off the list.
pub const LIFT: &str = "DELETE FROM do_not_contact
    WHERE (kind = 'phone' AND value = $1) OR (kind = 'email' AND value = LOWER($2))";

/// The phone number and e-mail address a stored quote takes off the list: those of a lead sent
/// with the form's phone consent ticked, and not held as spam.
pub fn lifted_by(quote: &NewQuote) -> Option<(&str, &str)> {
    let consent = quote.consent.as_ref()?;
    let written = matches!(
        consent.channel,
        ConsentChannel::Form | ConsentChannel::FormWithoutScript
    ) && consent.phone.as_ref().is_some_and(|phone| phone.given);
    let phone = quote.contact.phone.as_deref()?;
    (written && quote.spam.is_none()).then(|| (phone, quote.request.email().as_str()))
}

/// A phone number or e-mail address a visitor put on the list themselves (`/opt-out`), as the
/// broker is told of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptOut {
    /// `phone` (E.164) or `email` (lower case).
    pub kind: String,
    pub value: String,
    pub requested_at: OffsetDateTime,
}

on_every_database! {
    /// A visitor's own request not to be contacted, and the broker told of each once: a lead e-mail
    /// or the digest takes the requests not yet told (`take_untold_opt_outs`, which marks them
    /// told, so two e-mails sent at once never list one twice) and gives them back when it is not
    /// sent.
    pub trait OptOuts: Send + Sync {
        /// Puts `phone` (E.164) and `email` (lower-cased here) on the list at `now`. One already
        /// there stays as it is, except that it becomes the visitor's own: no unmarking of a lead
        /// takes it off, and the broker is told of it unless told before.
        fn opt_out(
            &self,
            phone: Option<String>,
            email: Option<String>,
            now: OffsetDateTime,
        ) -> BoxFuture<'_, Result<(), StoreError>> {
            let entries: Vec<(&str, String)> = phone
                .map(|phone| ("phone", phone))
                .into_iter()
                .chain(email.map(|email| ("email", email.to_lowercase())))
                .collect();
            self.run(Lane::Person, true, move |c| {
                async move {
                    for (kind, value) in entries {
                        c.execute(OPT_OUT, &[kind.into(), value.into(), now.into()])
                            .await?;
                    }
                    Ok(())
                }
                .boxed()
            })
        }

        /// The oldest requests not yet told, at most `limit`, marked told at `now`.
        fn take_untold_opt_outs(
            &self,
            now: OffsetDateTime,
            limit: usize,
        ) -> BoxFuture<'_, Result<Vec<OptOut>, StoreError>> {
            self.run(Lane::Outbox, true, move |c| {
                async move {
                    let rows = c.query(TAKE_UNTOLD, &[now.into(), limit.into()]).await?;
                    let mut taken = rows
                        .iter()
                        .map(|row| {
                            let at = row.required("requested_at")?;
                            Ok(OptOut {
                                kind: row.required("kind")?,
                                value: row.required("value")?,
                                requested_at: OffsetDateTime::parse(&at, &Rfc3339).map_err(|_| {
                                    StoreError::Database(
                                        format!("do_not_contact: the stored requested_at {at:?} cannot be read").into(),
                                    )
                                })?,
                            })
                        })
                        .collect::<Result<Vec<_>, StoreError>>()?;
                    taken.sort_by(|a, b| (a.requested_at, &a.kind).cmp(&(b.requested_at, &b.kind)));
                    Ok(taken)
                }
                .boxed()
            })
        }

        /// Gives back the requests `take_untold_opt_outs` took at `taken_at`, whose e-mail was not
        /// sent, for the next e-mail to tell.
        fn release_opt_outs(
            &self,
            taken: Vec<OptOut>,
            taken_at: OffsetDateTime,
        ) -> BoxFuture<'_, Result<(), StoreError>> {
            self.run(Lane::Outbox, true, move |c| {
                async move {
                    for opt_out in taken {
                        let values = [opt_out.kind.into(), opt_out.value.into(), taken_at.into()];
                        c.execute(RELEASE, &values).await?;
                    }
                    Ok(())
                }
                .boxed()
            })
        }
    }
}

/// $1 kind, $2 value, $3 now: the visitor's own request. An entry the broker's marking put on
/// becomes theirs (its `lead_id` gone) and is told; one they asked for before stays as it was.
const OPT_OUT: &str = "INSERT INTO do_not_contact (kind, value, added_at, requested_at)
    VALUES ($1, $2, $3, $3)
    ON CONFLICT (kind, value) DO UPDATE SET lead_id = NULL,
        requested_at = COALESCE(do_not_contact.requested_at, excluded.requested_at)";

/// $1 now, $2 limit: the oldest requests not yet told, marked told.
const TAKE_UNTOLD: &str = "UPDATE do_not_contact SET told_at = $1
    WHERE requested_at IS NOT NULL AND told_at IS NULL
      AND (kind, value) IN (
        SELECT kind, value FROM do_not_contact
        WHERE requested_at IS NOT NULL AND told_at IS NULL
        ORDER BY requested_at, kind, value LIMIT $2)
    RETURNING kind, value, requested_at";

/// $1 kind, $2 value, $3 when it was taken.
const RELEASE: &str =
    "UPDATE do_not_contact SET told_at = NULL WHERE kind = $1 AND value = $2 AND told_at = $3";
