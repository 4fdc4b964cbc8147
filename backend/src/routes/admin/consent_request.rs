//! `POST /api/admin/quote-requests/{id}/consent-request`: the inbox's "Ask for written consent".
//! For a lead with a phone number and no written consent to be called (oral or none), neither
//! held as spam nor on the do-not-contact list, it e-mails the visitor, in the lead's language,
//! a link to the consent page (`/consent/<token>`, `routes/consent_page`) where they can give it
//! by ticking a box on the exact text. The e-mail is sent before the answer, not queued: the
//! broker learns at once whether it went (`502` when the relay refused it, `503` when it could
//! not be reached or e-mail is off), and nothing is kept that would wait for a retry.

use std::sync::Arc;

use serde::Serialize;
use time::OffsetDateTime;
use uuid::Uuid;
use warp::reply::Response;
use warp::{Rejection, Reply};

use crate::forward::{ConsentRequest, Mailer, NotSent};
use crate::http::error::{store_failed, ApiError, ErrorBody};
use crate::http::error_answers::{AdminErrors, CrossSite, NotFound};
use crate::leads::consent_link::{self, ConsentLinks};
use crate::leads::notice::LeadNotices;
use crate::settings::site::SiteSettings;
use crate::store::{format_timestamp, CallConsent, Inbox, Language, LeadStatus, StoredQuote};

pub struct AskConsent {
    pub store: Arc<dyn Inbox>,
    pub links: Arc<ConsentLinks>,
    pub notices: Arc<LeadNotices>,
    /// `None` when e-mail is off (`SMTP_URL` unset).
    pub mailer: Option<Arc<Mailer>>,
    pub site: Arc<SiteSettings>,
}

/// What was sent.
#[derive(Serialize, utoipa::ToSchema)]
#[schema(as = ConsentRequestSent)]
#[serde(deny_unknown_fields)]
struct Sent {
    /// The lead's address, the e-mail's only recipient.
    sent_to: String,
    /// The e-mail's and the page's language: the lead's.
    language: Language,
    /// When the link stops working (30 days on), RFC 3339, UTC.
    expires_at: String,
}

/// Ask for written consent: e-mails the visitor, to the lead's address and in the lead's
/// language, a link to the consent page (/consent/<token>, /es/consent/<token>; the token names
/// the lead and an expiry 30 days on, signed by the site, nothing personal in it), where the
/// exact consent text is shown with an unticked box; ticking it records written consent
/// (written_later.channel consent_page). Only for a lead with a phone number and no written
/// consent, not spam, not do not contact. The e-mail is sent before the answer: nothing is
/// queued. No body.
///
/// The caller is already checked (and, with a session, that the request came from the inbox).
#[utoipa::path(
    post,
    path = "/api/admin/quote-requests/{id}/consent-request",
    operation_id = "askWrittenConsent",
    params(("id" = String, Path)),
    responses(
        AdminErrors, CrossSite, NotFound,
        (status = 200, description = "The relay took the e-mail.", body = Sent),
        (status = 405, description = "Another method than POST (method_not_allowed).", body = ErrorBody),
        (status = 409, description = "Nothing to ask, nothing sent: consent_already_written, or consent_not_askable (no phone number, held as spam, marked do not contact, or no consent text on the site's page in the lead's language), the message saying which.", body = ErrorBody),
        (status = 502, description = "The mail relay refused the e-mail for good (email_refused, with the relay's reply): not sent.", body = ErrorBody),
        (status = 503, description = "Not sent: e-mail is off (email_not_configured: SMTP_URL unset), the relay could not be reached or answered 4xx or too late (email_not_sent: try again later), or the database is unavailable (database_unavailable).", body = ErrorBody),
    )
)]
pub async fn ask(ask: Arc<AskConsent>, id: String) -> Result<Response, Rejection> {
    let sent = ask.respond(&id, OffsetDateTime::now_utc()).await?;
    Ok(warp::reply::json(&sent).into_response())
}

impl AskConsent {
    async fn respond(&self, id: &str, now: OffsetDateTime) -> Result<Sent, ApiError> {
        // Every id this API gives out is a UUID; anything else names no lead.
        let id = Uuid::parse_str(id)
            .map_err(|_| ApiError::NotFound)?
            .to_string();
        let lead = self
            .store
            .lead(id)
            .await
            .map_err(store_failed("reading a lead failed"))?
            .ok_or(ApiError::NotFound)?
            .quote;
        let phone = askable(&lead)?;
        let disclosure = self
            .notices
            .phone_consent(lead.language, true)
            .ok_or_else(|| {
                ApiError::ConsentNotAskable(format!(
                    "The site's {} page asks for no phone number, so it has no consent text to show; nothing was sent.",
                    lead.language.label()
                ))
            })?
            .disclosure;
        let mailer = self.mailer.as_ref().ok_or(ApiError::EmailNotConfigured)?;
        let (token, expires) = self.links.issue(&lead.id, now);
        let link = self
            .site
            .page(&consent_link::path(&token, lead.language))
            .ok_or_else(|| ApiError::EmailNotSent("the site has no address (SITE_URL)".into()))?;
        let request = ConsentRequest {
            lead_id: &lead.id,
            to: &lead.email,
            language: lead.language,
            phone,
            link: &link,
            disclosure: &disclosure,
            at: now,
        };
        match mailer.send_consent_request(&request).await {
            Ok(()) => {
                tracing::info!(id = %lead.id, "written consent asked for by e-mail");
                Ok(Sent {
                    sent_to: lead.email.clone(),
                    language: lead.language,
                    expires_at: format_timestamp(expires),
                })
            }
            Err(NotSent::Refused(error)) => {
                tracing::warn!(id = %lead.id, %error, "the relay refused the consent request");
                Err(ApiError::EmailRefused(error))
            }
            Err(NotSent::Unreachable(error)) => {
                tracing::warn!(id = %lead.id, %error, "the consent request could not be sent");
                Err(ApiError::EmailNotSent(error))
            }
        }
    }
}

/// The lead's number, when asking for written consent to call it makes sense.
fn askable(lead: &StoredQuote) -> Result<&str, ApiError> {
    let refused = |why: &str| {
        Err(ApiError::ConsentNotAskable(format!(
            "{why}; nothing was sent."
        )))
    };
    let Some(phone) = lead.contact.phone.as_deref() else {
        return refused("This lead has no phone number to consent to");
    };
    match lead.status {
        LeadStatus::Spam => return refused("This lead is held as spam"),
        LeadStatus::DoNotContact => {
            return refused("This lead is marked do not contact: it must not be e-mailed")
        }
        _ => {}
    }
    if lead.call_consent == Some(CallConsent::Written) {
        return Err(ApiError::ConsentAlreadyWritten);
    }
    Ok(phone)
}
