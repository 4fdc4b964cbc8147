use super::call_consent::{CallConsent, WrittenLater};
use super::clean_text;
use super::consent::{Consent, Head, Link, NewConsent, Reach};
use super::language::Language;
use super::lead_events::QueuedEvent;
use super::stored_names::stored_names;
use super::timestamp::serialize_timestamp;
use serde::Serialize;
use time::OffsetDateTime;
use utoipa::ToSchema;
use uuid::Uuid;
use wasm_core::{ContactDetails, Product, QuoteRequest};

/// Where a quote request came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Source {
    Web,
    Voice,
    /// Typed to the assistant through the provider's web chat.
    Chat,
}

stored_names!(Source, parse, [Web => "web", Voice => "voice", Chat => "chat"]);

/// Where the broker is with a lead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum LeadStatus {
    #[default]
    New,
    Contacted,
    /// Held back as spam (`StoredQuote::spam_reason` says why): never delivered, and listed
    /// only when asked for.
    Spam,
    /// The visitor asked not to be contacted again: nothing more goes out about the lead, and
    /// the inbox hides its phone and e-mail actions.
    #[serde(rename = "do_not_contact")]
    DoNotContact,
}

stored_names!(
    LeadStatus,
    parse,
    [New => "new", Contacted => "contacted", Spam => "spam", DoNotContact => "do_not_contact"]
);

/// The voice call (or the chat's session) and tool call a quote was asked for in; the pair
/// identifies it, so the provider retrying a tool call does not store it twice.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VoiceOrigin {
    pub call_id: String,
    pub tool_call_id: String,
}

/// How the broker may reach a lead beyond its e-mail address (the page's `quote.fields`, the
/// assistant's `request_quote`); each part `None` when not asked or not given.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
pub struct Contact {
    /// E.164 (+15555550123), when the page asked for it and the visitor gave one.
    #[schema(required = true)]
    pub phone: Option<String>,
    /// Whether the visitor agreed in writing to be called or texted at `phone`; without it the
    /// lead is e-mail only.
    pub may_call: bool,
    #[schema(required = true)]
    pub zip: Option<String>,
    /// The ZIP code's state or territory, two letters.
    #[schema(required = true)]
    pub state: Option<String>,
}

impl From<&ContactDetails> for Contact {
    fn from(details: &ContactDetails) -> Contact {
        Contact {
            phone: details
                .phone
                .as_ref()
                .map(|phone| phone.as_str().to_owned()),
            may_call: details.may_call,
            zip: details.zip.as_ref().map(|zip| zip.as_str().to_owned()),
            state: details.state().map(|state| state.code().to_owned()),
        }
    }
}

impl Contact {
    /// `may_call` as stored: `yes` or `no` with a phone number, nothing without one.
    pub fn may_call_text(&self) -> Option<&'static str> {
        self.phone
            .as_ref()
            .map(|_| if self.may_call { "yes" } else { "no" })
    }
}

/// A valid quote request about to be stored, with the identity it will keep.
#[derive(Clone, Debug)]
pub struct NewQuote {
    pub id: Uuid,
    pub request: QuoteRequest,
    pub source: Source,
    pub user_agent: Option<String>,
    pub voice: Option<VoiceOrigin>,
    /// The client's `Idempotency-Key`: a later post with the same key is answered from this one.
    pub idempotency_key: Option<String>,
    /// Why the quote is held as spam: stored, never queued for delivery.
    pub spam: Option<&'static str>,
    /// The form token a lead from the page spends: when another lead spent it already, the
    /// store keeps this one as spam (`REUSED_TOKEN`).
    pub form_token: Option<SpentToken>,
    /// Its consent record (`consent.rs`), appended to the chain when the quote is stored.
    pub consent: Option<NewConsent>,
    /// The language of the page it came from.
    pub language: Language,
    pub contact: Contact,
    pub created_at: OffsetDateTime,
}

/// `spam` of a lead sent with a form token another lead spent (`spam::Signal::ReusedToken`).
pub const REUSED_TOKEN: &str = "reused_token";

/// A page view's form token, spent by the lead sent with it: its key (the token's signature,
/// which no other page view's shares) and when it was issued (after the token's lifetime the
/// store may forget it: it is expired anyway).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpentToken {
    pub key: String,
    pub issued: OffsetDateTime,
}

impl NewQuote {
    pub fn new(request: QuoteRequest, source: Source, user_agent: Option<&str>) -> NewQuote {
        NewQuote {
            id: Uuid::now_v7(),
            request,
            source,
            user_agent: user_agent.map(clean_text::user_agent),
            voice: None,
            idempotency_key: None,
            spam: None,
            form_token: None,
            consent: None,
            language: Language::En,
            contact: Contact::default(),
            created_at: OffsetDateTime::now_utc(),
        }
    }

    pub fn with_idempotency_key(self, key: Option<String>) -> NewQuote {
        NewQuote {
            idempotency_key: key,
            ..self
        }
    }

    /// What makes it unique besides its id, as `lead_queries::EARLIER_QUOTE` takes them: its
    /// idempotency key, its call and its tool call (a NULL one matches nothing).
    pub fn unique_keys(&self) -> [Option<&str>; 3] {
        let voice = self.voice.as_ref();
        [
            self.idempotency_key.as_deref(),
            voice.map(|v| v.call_id.as_str()),
            voice.map(|v| v.tool_call_id.as_str()),
        ]
    }

    /// Its consent record of `consent` after the chain's `head`, keeping for the inbox its
    /// e-mail, phone and call permission.
    pub fn link_after(&self, head: Option<Head>, consent: &NewConsent) -> Link {
        let reach = Reach {
            email: self.request.email().as_str(),
            phone: self.contact.phone.as_deref(),
            may_call: self.contact.may_call_text(),
        };
        let id = self.id.to_string();
        Link::after(head, &id, self.language, self.created_at, reach, consent)
    }

    pub fn in_language(self, language: Language) -> NewQuote {
        NewQuote { language, ..self }
    }

    pub fn with_spam(self, reason: Option<&'static str>) -> NewQuote {
        NewQuote {
            spam: reason,
            ..self
        }
    }

    pub fn with_consent(self, consent: NewConsent) -> NewQuote {
        NewQuote {
            consent: Some(consent),
            ..self
        }
    }

    pub fn with_contact(self, contact: Contact) -> NewQuote {
        NewQuote { contact, ..self }
    }

    pub fn spending(self, form_token: Option<SpentToken>) -> NewQuote {
        NewQuote { form_token, ..self }
    }

    /// The form token to remember as spent with this quote: a lead's (spam spends none).
    pub fn token_to_spend(&self) -> Option<&SpentToken> {
        self.form_token.as_ref().filter(|_| self.spam.is_none())
    }

    /// Asked of the assistant in a call (`Voice`) or a chat (`Chat`, the chat's session in
    /// `call_id`): a retried tool call is stored once either way.
    pub fn from_assistant(request: QuoteRequest, source: Source, origin: VoiceOrigin) -> NewQuote {
        NewQuote {
            voice: Some(origin),
            ..NewQuote::new(request, source, None)
        }
    }
}

/// Whether an insert stored a new row, or found one stored before under the same idempotency
/// key or voice tool call.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Inserted {
    New,
    /// The earlier row holds the same request: its id is the answer.
    Replayed {
        id: String,
    },
    /// The earlier row holds another request; it stands and nothing was stored.
    Conflict,
}

impl Inserted {
    /// Compares the earlier row (`id`, `product`, `email`) with the request being inserted.
    pub fn earlier(quote: &NewQuote, id: String, product: &str, email: &str) -> Inserted {
        let request = &quote.request;
        if request.product().as_str() == product && request.email().as_str() == email {
            Inserted::Replayed { id }
        } else {
            Inserted::Conflict
        }
    }
}

/// A quote request as read back from the store, with its call and its forwarding state.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[schema(as = StoredQuoteRequest)]
pub struct StoredQuote {
    #[schema(format = Uuid)]
    pub id: String,
    #[schema(value_type = String)]
    pub product: Product,
    pub email: String,
    pub source: Source,
    #[schema(required = true)]
    pub user_agent: Option<String>,
    /// RFC 3339, UTC.
    #[serde(serialize_with = "serialize_timestamp")]
    #[schema(value_type = String)]
    pub created_at: OffsetDateTime,
    #[schema(required = true)]
    pub call_id: Option<String>,
    #[schema(required = true)]
    pub call_ended_reason: Option<String>,
    #[schema(required = true)]
    pub call_summary: Option<String>,
    /// Each delivery channel's state; `None` when every channel was off for this row.
    #[schema(required = true)]
    pub delivery: Option<Deliveries>,
    pub status: LeadStatus,
    /// When the status was last changed (`None`: never, it is as it arrived).
    #[schema(required = true)]
    pub status_changed_at: Option<String>,
    /// With status `spam`, why: a signal of the post (`honeypot`, `no_token`, `bad_token`,
    /// `expired_token`, `too_fast`) or `marked` by the broker.
    #[schema(required = true, schema_with = super::schema::spam_reason)]
    pub spam_reason: Option<String>,
    /// The broker's own note on the lead (the inbox's "Note").
    #[schema(required = true)]
    pub note: Option<String>,
    /// The language of the page the lead came from (`en` or `es`): the one to answer in.
    pub language: Language,
    /// What the visitor was shown and agreed to (`consent.rs`); `None` for a lead stored
    /// before consent records were kept.
    #[schema(required = true)]
    pub consent: Option<Consent>,
    #[serde(flatten)]
    pub contact: Contact,
    /// With `may_call`, the kind of permission to be called (`call_consent.rs`).
    #[schema(required = true)]
    pub call_consent: Option<CallConsent>,
    /// The written consent to be called given after the lead was stored (the latest), if any.
    #[schema(required = true)]
    pub written_later: Option<WrittenLater>,
    /// Whether the broker is licensed in the ZIP code's state (`broker.licences` in the
    /// content); `None` without a state or without listed licences. Not stored: the site's
    /// settings fill it in (`SiteSettings::check_licences`).
    #[schema(required = true)]
    pub licensed: Option<bool>,
}

/// Where a lead is delivered; each lead has one outbox entry per channel that was on when it
/// was stored (`FollowUp` once its call's end-of-call report arrives).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    /// The lead post to `LEAD_WEBHOOK_URL` (`forward/lead_post.rs`), stored as `webhook`.
    Webhook,
    /// The e-mail to the broker about the new lead.
    Email,
    /// The e-mail after the call a voice lead came from, threaded under the lead's.
    FollowUp,
}

impl Channel {
    pub const ALL: [Channel; 3] = [Channel::Webhook, Channel::Email, Channel::FollowUp];
}

stored_names!(Channel, parse, [Webhook => "webhook", Email => "email", FollowUp => "follow_up"]);

/// The delivery state of each channel of one lead (`None`: no entry on that channel).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Deliveries {
    #[schema(required = true)]
    pub webhook: Option<Delivery>,
    #[schema(required = true)]
    pub email: Option<Delivery>,
    #[schema(required = true)]
    pub follow_up: Option<Delivery>,
}

impl Deliveries {
    pub fn get(&self, channel: Channel) -> Option<&Delivery> {
        match channel {
            Channel::Webhook => self.webhook.as_ref(),
            Channel::Email => self.email.as_ref(),
            Channel::FollowUp => self.follow_up.as_ref(),
        }
    }

    pub fn set(&mut self, channel: Channel, delivery: Option<Delivery>) {
        *match channel {
            Channel::Webhook => &mut self.webhook,
            Channel::Email => &mut self.email,
            Channel::FollowUp => &mut self.follow_up,
        } = delivery;
    }
}

impl StoredQuote {
    /// The state of one channel's delivery, when the lead has an entry on it.
    pub fn delivery_on(&self, channel: Channel) -> Option<&Delivery> {
        self.delivery.as_ref().and_then(|d| d.get(channel))
    }
}

/// One channel's delivery of a lead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct Delivery {
    pub status: DeliveryStatus,
    pub attempts: u32,
    #[schema(required = true)]
    pub last_error: Option<String>,
    #[schema(required = true)]
    pub delivered_at: Option<String>,
}

impl Delivery {
    /// A lead queued on a channel whose worker has not taken it into the outbox yet.
    pub fn queued() -> Delivery {
        Delivery {
            status: DeliveryStatus::Pending,
            attempts: 0,
            last_error: None,
            delivered_at: None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryStatus {
    /// Not yet delivered; the worker keeps trying.
    Pending,
    Delivered,
    /// The worker gave up; the broker must pick this one up from the export.
    Undelivered,
}

stored_names!(
    DeliveryStatus,
    [Pending => "pending", Delivered => "delivered", Undelivered => "undelivered"]
);

/// What the provider reports when a voice call ends.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CallReport {
    pub call_id: String,
    pub ended_reason: Option<String>,
    pub summary: Option<String>,
    pub transcript: Option<String>,
    /// The transcript's lines (each one speaker's turn) left out past `MAX_TRANSCRIPT_BYTES`.
    pub transcript_lines_dropped: u64,
    /// `artifact.recordingUrl`: where the provider keeps the call's recording.
    pub recording_url: Option<String>,
    /// When the call (or the chat's first turn) started, RFC 3339.
    pub started_at: Option<String>,
    /// `Voice` for a call, `Chat` for the web chat.
    pub channel: Source,
}

/// Which quotes to list: `since` bounds the creation time, `after` is the id of the last row of
/// the previous page (in the chosen order), `limit` the page size (all when `None`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListQuery {
    pub since: Option<OffsetDateTime>,
    pub after: Option<String>,
    pub limit: Option<usize>,
    pub newest_first: bool,
}

/// A quote waiting in the outbox on one channel, as that channel's worker sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PendingLead {
    pub quote: StoredQuote,
    pub channel: Channel,
    pub attempts: u32,
    /// The change its webhook row was re-queued for (`lead_events`); `None`: the lead as it came.
    pub event: Option<QueuedEvent>,
}

impl PendingLead {
    pub fn new(quote: StoredQuote, channel: Channel, event: Option<QueuedEvent>) -> PendingLead {
        let attempts = quote.delivery_on(channel).map_or(0, |d| d.attempts);
        PendingLead {
            quote,
            channel,
            attempts,
            event,
        }
    }

    /// When what it delivers happened: the event's time, or the lead's creation. Retries are
    /// given up on counting from it.
    pub fn since(&self) -> OffsetDateTime {
        self.event.map_or(self.quote.created_at, |queued| queued.at)
    }
}

/// What one delivery attempt came to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DeliveryOutcome {
    Delivered,
    Retry {
        error: String,
        next_attempt_at: OffsetDateTime,
    },
    GiveUp {
        error: String,
    },
    /// Over the site's e-mail budget: held for the hourly digest (`email_budget.rs`), with
    /// `note` saying so where the delivery's last error shows.
    Held {
        note: String,
    },
}
