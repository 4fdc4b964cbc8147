//! The do-not-contact list: the phone numbers and e-mail addresses of the people who asked not
//! to be contacted. Marking a lead do not contact puts its number and address on it
//! (`inbox_queries::LIST_DO_NOT_CONTACT`), and the list outlives the lead: every lead of that
//! person, earlier or later, reads as do not contact (`queries::do_not_contact_at!`), so a new
//! one gets no Call link and no follow-up, and its delivery says so. Only the person's own new
//! written consent (the quote form's phone box, ticked) takes their number and address off; the
//! broker unmarking the lead they marked takes off what that marking put on.

use super::consent::ConsentChannel;
use super::model::NewQuote;

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
