//! Which quote posts are a script's rather than a person's, told without a third party and
//! without a step for people: the page the form is on was served (its signed, time-stamped
//! token, `form_token.rs`), it was served long enough ago for a person to fill the form in, and
//! the hidden honeypot field is empty. A post that fails is answered exactly as a person's is
//! (a script learns nothing) and stored as spam: listed apart in the inbox, never delivered.

mod form_token;

pub use form_token::{FormTokens, COOKIE, MAX_AGE as FORM_TOKEN_MAX_AGE};

/// Why a post is held as spam, as `StoredQuote::spam_reason` keeps it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    /// The hidden field people never see was filled.
    Honeypot,
    /// No token: the post did not come from a page the site served (or cookies are off).
    NoToken,
    /// A token the site did not sign.
    BadToken,
    /// A token older than a page is left open (`form_token::MAX_AGE`).
    ExpiredToken,
    /// Posted sooner after the page was served than a person fills the form in.
    TooFast,
    /// A token another lead was sent with: one page view serves one lead.
    ReusedToken,
}

impl Signal {
    pub fn as_str(self) -> &'static str {
        match self {
            Signal::Honeypot => "honeypot",
            Signal::NoToken => "no_token",
            Signal::BadToken => "bad_token",
            Signal::ExpiredToken => "expired_token",
            Signal::TooFast => "too_fast",
            Signal::ReusedToken => crate::store::REUSED_TOKEN,
        }
    }
}
