//! The licence check on a lead: whether its ZIP code's state is one the broker is licensed in
//! (`broker.licences` in the content), shown wherever the broker reads the lead.

use crate::settings::site::SiteSettings;
use crate::store::StoredQuote;

/// Fills in each lead's `licensed`.
pub fn check<'a>(site: &SiteSettings, leads: impl IntoIterator<Item = &'a mut StoredQuote>) {
    for lead in leads {
        lead.licensed = site.licensed_in(lead.contact.state.as_deref());
    }
}
