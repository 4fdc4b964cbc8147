//! A lead named in a link that needs nothing stored to be trusted: the lead's random id and the
//! second the link stops working, signed with a key every instance shares (`store::signer`)
//! under a domain of the link's own, so one kind of link never opens another's page. The
//! consent page's link (`consent_link`) and the booking page's reference to a quote's lead
//! (`booking_ref`) are such links.

use std::marker::PhantomData;
use std::time::Duration;

use time::OffsetDateTime;

use crate::store::signer::Signer;
use crate::store::{SiteKeys, StoreError};

/// Why a token opens nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Not one this site signed (mistyped, cut short, changed).
    Invalid,
    /// Signed, but past its time.
    Expired,
}

/// What makes one kind of link its own.
pub trait LinkKind {
    /// The key's name in `site_keys`.
    const KEY_NAME: &'static str;
    /// What a token's signature is made under (`Signer`).
    const DOMAIN: &'static str;
    /// How long a token works.
    const MAX_AGE: Duration;
}

pub struct SignedLeads<K> {
    signer: Signer,
    kind: PhantomData<K>,
}

impl<K: LinkKind> SignedLeads<K> {
    /// The shared key, made now (256 random bits) if the database holds none yet.
    pub async fn load(store: &(impl SiteKeys + ?Sized)) -> Result<SignedLeads<K>, StoreError> {
        let signer = Signer::load(store, K::KEY_NAME).await?;
        Ok(SignedLeads {
            signer,
            kind: PhantomData,
        })
    }

    pub fn new(key: &[u8]) -> SignedLeads<K> {
        SignedLeads {
            signer: Signer::new(key),
            kind: PhantomData,
        }
    }

    /// `lead.expires.signature`: the lead's id, the second the link stops working (Unix time)
    /// and their signature in hex; and that moment.
    pub fn issue(&self, lead_id: &str, now: OffsetDateTime) -> (String, OffsetDateTime) {
        let expires = now + K::MAX_AGE;
        let signed = format!("{lead_id}.{}", expires.unix_timestamp());
        let token = format!("{signed}.{}", self.signer.sign(K::DOMAIN, &signed));
        (token, expires)
    }

    /// The lead `token` names, if this site signed it and it has not expired at `now`.
    pub fn check(&self, token: &str, now: OffsetDateTime) -> Result<String, LinkError> {
        let (signed, tag) = token.rsplit_once('.').ok_or(LinkError::Invalid)?;
        let (lead_id, expires) = signed.split_once('.').ok_or(LinkError::Invalid)?;
        let expires: i64 = expires.parse().map_err(|_| LinkError::Invalid)?;
        // The text is signed as issued, digit for digit, not the number it reads as.
        if lead_id.is_empty() || !self.signer.verify(K::DOMAIN, signed, tag) {
            return Err(LinkError::Invalid);
        }
        if now.unix_timestamp() > expires {
            return Err(LinkError::Expired);
        }
        Ok(lead_id.to_owned())
    }
}
