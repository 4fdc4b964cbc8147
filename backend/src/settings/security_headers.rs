//! `HSTS` and the voice API's origin: what the security headers (`http::security_headers`) depend
//! on.

use crate::settings::voice::VoiceSettings;

pub const DEFAULT_VOICE_API_ORIGIN: &str = "https://api.vapi.ai";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SecurityHeaders {
    /// `HSTS=1`: only behind TLS, or browsers would refuse plain http for the whole period.
    pub hsts: bool,
    /// The origin of `VAPI_API_BASE_URL`.
    pub voice_api_origin: String,
}

impl SecurityHeaders {
    /// The voice API origin follows the (already validated) voice settings.
    pub fn from_lookup(
        get: &impl Fn(&str) -> Option<String>,
        voice: Option<&VoiceSettings>,
    ) -> SecurityHeaders {
        let hsts = get("HSTS").is_some_and(|v| matches!(v.trim(), "1" | "true"));
        let voice_api_origin = voice
            .and_then(|v| v.api_base_url.as_deref())
            .map(origin_of)
            .unwrap_or_else(|| DEFAULT_VOICE_API_ORIGIN.to_owned());
        SecurityHeaders {
            hsts,
            voice_api_origin,
        }
    }
}

/// `scheme://host[:port]` of an http(s) URL that `settings::voice` has already checked.
fn origin_of(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("https", url));
    let authority = rest.split('/').next().unwrap_or(rest);
    format!("{scheme}://{}", authority.to_ascii_lowercase())
}
