//! The lead post: our outgoing forward of each lead, POSTed as JSON to the broker's
//! `LEAD_WEBHOOK_URL` (the outbox's `webhook` channel), its id as idempotency key, and an HMAC
//! signature when a secret is set; posted again, with its event, when its person is marked or
//! unmarked do not contact (`store::lead_events`). Every failure is retried.

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use hmac::{Hmac, Mac};
use secrecy::ExposeSecret;
use serde::Serialize;
use sha2::Sha256;

use super::worker::{Failure, Sender, DELIVERY_TIMEOUT};
use crate::settings::leads::ForwardingConfig;
use crate::store::error_chain;
use crate::store::lead_events::LeadEvent;
use crate::store::{format_timestamp, CallConsent, LeadStatus, PendingLead};

pub const IDEMPOTENCY_HEADER: &str = "idempotency-key";
/// `sha256=<hex HMAC-SHA256 of the body keyed with LEAD_WEBHOOK_SECRET>`.
pub const SIGNATURE_HEADER: &str = "x-lead-signature";

pub struct LeadPost {
    client: reqwest::Client,
    config: ForwardingConfig,
}

impl LeadPost {
    pub fn new(config: ForwardingConfig) -> Result<LeadPost, reqwest::Error> {
        let client = reqwest::Client::builder()
            .timeout(DELIVERY_TIMEOUT)
            .user_agent(concat!("lead-forwarder/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(LeadPost { client, config })
    }
}

impl Sender for LeadPost {
    fn send<'a>(&'a self, lead: &'a PendingLead) -> BoxFuture<'a, Result<(), Failure>> {
        send(&self.client, &self.config, lead)
            .map(|sent| sent.map_err(Failure::Temporary))
            .boxed()
    }
}

/// What the broker's system receives: the lead as it is when sent, and why it is sent.
#[derive(Serialize)]
struct Lead<'a> {
    /// `created` (the lead as it came), `do_not_contact_marked` or `do_not_contact_unmarked`
    /// (its person's do-not-contact state changed: `store::lead_events`).
    event: LeadEvent,
    /// When that happened (the lead's `created_at` for `created`): a receiver keeps the latest
    /// of a lead's posts by it, whatever order they arrive in.
    event_at: String,
    id: &'a str,
    product: &'a str,
    email: &'a str,
    source: &'a str,
    call_id: Option<&'a str>,
    created_at: String,
    phone: Option<&'a str>,
    /// `written`, `oral` or `null` (`store::CallConsent`).
    call_consent: Option<CallConsent>,
    zip: Option<&'a str>,
    state: Option<&'a str>,
    language: &'a str,
    /// The person asked not to be contacted (`store::do_not_contact`): a CRM or dialer fed by
    /// this post must not call, text or e-mail them.
    do_not_contact: bool,
}

/// The lead's id for its first post; a re-post's names its event and time too, so a receiver
/// that drops a repeated key takes each change once.
fn idempotency_key(lead: &PendingLead) -> String {
    match lead.event {
        None => lead.quote.id.clone(),
        Some(queued) => format!(
            "{}:{}:{}",
            lead.quote.id,
            queued.event.as_str(),
            format_timestamp(queued.at)
        ),
    }
}

pub fn signature(secret: &str, body: &[u8]) -> String {
    let mut mac =
        Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// `Ok` only for a 2xx answer; otherwise why not, for the outbox's `last_error`.
async fn send(
    client: &reqwest::Client,
    config: &ForwardingConfig,
    lead: &PendingLead,
) -> Result<(), String> {
    let quote = &lead.quote;
    let event = lead.event.map_or(LeadEvent::Created, |queued| queued.event);
    let body = serde_json::to_vec(&Lead {
        event,
        event_at: format_timestamp(lead.since()),
        id: &quote.id,
        product: quote.product.as_str(),
        email: &quote.email,
        source: quote.source.as_str(),
        call_id: quote.call_id.as_deref(),
        created_at: format_timestamp(quote.created_at),
        phone: quote.contact.phone.as_deref(),
        call_consent: quote.call_consent,
        zip: quote.contact.zip.as_deref(),
        state: quote.contact.state.as_deref(),
        language: quote.language.as_str(),
        do_not_contact: quote.status == LeadStatus::DoNotContact,
    })
    .map_err(|e| e.to_string())?;
    let mut request = client
        .post(config.url.clone())
        .header(reqwest::header::CONTENT_TYPE, "application/json")
        .header(IDEMPOTENCY_HEADER, idempotency_key(lead));
    if let Some(secret) = &config.secret {
        request = request.header(SIGNATURE_HEADER, signature(secret.expose_secret(), &body));
    }
    // reqwest names the URL in its error, and LEAD_WEBHOOK_URL may carry a key in its query or
    // path (`?api_key=...`, `/hooks/<token>`): the error is logged and stored, so it goes without.
    let response = request
        .body(body)
        .send()
        .await
        .map_err(|e| error_chain::describe(&e.without_url()))?;
    let status = response.status();
    if status.is_success() {
        Ok(())
    } else {
        Err(format!("HTTP {status}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_the_rfc_4231_hmac() {
        // RFC 4231 test case 2.
        assert_eq!(
            signature("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
