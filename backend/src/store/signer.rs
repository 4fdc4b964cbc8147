//! A key every instance shares (made once and kept in `site_keys`, `SiteKeys`), keyed for
//! HMAC-SHA-256: what the site signs and checks with it (the form token, the known-browser mark,
//! the consent page's link), each under a domain of its own so that one's signature is never
//! another's.

use argon2::password_hash::rand_core::{OsRng, RngCore};
use hmac::{Hmac, Mac};
use sha2::Sha256;

use super::{SiteKeys, StoreError};

/// The signature's bytes kept (128 bits).
pub const TAG_BYTES: usize = 16;

pub struct Signer {
    /// Keyed once: keying hashes the key, which would otherwise be done again for every tag.
    keyed: Hmac<Sha256>,
}

impl Signer {
    /// The key named `name`, made now (`random_key`) if the database holds none yet.
    pub async fn load(
        store: &(impl SiteKeys + ?Sized),
        name: &'static str,
    ) -> Result<Signer, StoreError> {
        let key = store.site_key(name, random_key()).await?;
        Ok(Signer::new(key.as_bytes()))
    }

    pub fn new(key: &[u8]) -> Signer {
        let keyed = Hmac::<Sha256>::new_from_slice(key).expect("HMAC takes a key of any length");
        Signer { keyed }
    }

    /// `text`'s signature under `domain` (such as `form-token:`), in hex.
    pub fn sign(&self, domain: &str, text: &str) -> String {
        let tag = self.mac(domain, text).finalize().into_bytes();
        hex::encode(&tag[..TAG_BYTES])
    }

    /// Whether `tag` (hex, either case) is `text`'s signature under `domain`, compared in
    /// constant time.
    pub fn verify(&self, domain: &str, text: &str, tag: &str) -> bool {
        let mut tag_bytes = [0; TAG_BYTES];
        hex::decode_to_slice(tag, &mut tag_bytes).is_ok()
            && self
                .mac(domain, text)
                .verify_truncated_left(&tag_bytes)
                .is_ok()
    }

    fn mac(&self, domain: &str, text: &str) -> Hmac<Sha256> {
        let mut mac = self.keyed.clone();
        mac.update(domain.as_bytes());
        mac.update(text.as_bytes());
        mac
    }
}

/// 256 random bits from the OS, in hex: a key, a session id, a secret address.
pub fn random_key() -> String {
    let mut bytes = [0u8; 32];
    OsRng.fill_bytes(&mut bytes);
    hex::encode(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_signature_holds_for_its_text_domain_and_key_only() {
        let signer = Signer::new(b"key");
        let tag = signer.sign("a:", "text");
        assert_eq!(tag.len(), 2 * TAG_BYTES);
        assert!(signer.verify("a:", "text", &tag));
        assert!(signer.verify("a:", "text", &tag.to_uppercase()));
        assert!(!signer.verify("b:", "text", &tag));
        assert!(!signer.verify("a:", "texts", &tag));
        assert!(!Signer::new(b"other").verify("a:", "text", &tag));
        assert!(!signer.verify("a:", "text", &tag[..30]));
        assert!(!signer.verify("a:", "text", "zz"));
    }
}
