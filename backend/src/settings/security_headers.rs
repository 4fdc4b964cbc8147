//! The security headers sent with every response, and what they depend on: `HSTS` and the voice
//! API's origin.
//!
//! The Content-Security-Policy allows our own origin plus exactly what the voice assistant's SDK
//! needs: the provider's API, daily.co (the SDK loads its call machine script from there, and
//! talks to it over https and websockets), `wasm-unsafe-eval` to compile our quote rules, and
//! media from `blob:` URLs. `'unsafe-inline'` styles are needed because React, Radix and
//! framer-motion set `style` attributes; scripts stay strict.

use warp::http::{HeaderMap, HeaderName, HeaderValue};

use super::env::Env;
use super::error::ConfigError;
use super::voice::VoiceSettings;

const DAILY: &str = "https://*.daily.co";
const DAILY_SOCKETS: &str = "wss://*.daily.co";
const HSTS_MAX_AGE_SECONDS: u32 = 63_072_000;
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
    pub fn from_env(
        env: &Env,
        voice: Option<&VoiceSettings>,
    ) -> Result<SecurityHeaders, ConfigError> {
        let voice_api_origin = voice
            .and_then(|v| v.api_base_url.as_ref())
            .map(|url| url.origin().ascii_serialization())
            .unwrap_or_else(|| DEFAULT_VOICE_API_ORIGIN.to_owned());
        Ok(SecurityHeaders {
            hsts: hsts(env)?,
            voice_api_origin,
        })
    }

    pub fn content_security_policy(&self) -> String {
        let voice = &self.voice_api_origin;
        [
            "default-src 'self'".to_owned(),
            format!("script-src 'self' 'wasm-unsafe-eval' {DAILY}"),
            "style-src 'self' 'unsafe-inline'".to_owned(),
            "img-src 'self' data: blob:".to_owned(),
            "font-src 'self'".to_owned(),
            format!("connect-src 'self' {voice} {DAILY} {DAILY_SOCKETS}"),
            "media-src 'self' blob:".to_owned(),
            // The particle worker is a file of ours; no `blob:` workers.
            "worker-src 'self'".to_owned(),
            format!("frame-src {DAILY}"),
            "object-src 'none'".to_owned(),
            "base-uri 'self'".to_owned(),
            "form-action 'self'".to_owned(),
            "frame-ancestors 'none'".to_owned(),
        ]
        .join("; ")
    }

    /// Built once at start; the same map is added to every response.
    pub fn header_map(&self) -> HeaderMap {
        let mut map = HeaderMap::new();
        let mut set = |name: &'static str, value: String| {
            let value = HeaderValue::from_str(&value).expect("header values are ASCII");
            map.insert(HeaderName::from_static(name), value);
        };
        set("content-security-policy", self.content_security_policy());
        set("x-content-type-options", "nosniff".into());
        set("referrer-policy", "strict-origin-when-cross-origin".into());
        set(
            "permissions-policy",
            "microphone=(self), camera=(), geolocation=(), payment=()".into(),
        );
        set("x-frame-options", "DENY".into());
        if self.hsts {
            set(
                "strict-transport-security",
                format!("max-age={HSTS_MAX_AGE_SECONDS}; includeSubDomains"),
            );
        }
        map
    }
}

/// `HSTS`: a switch that must be read exactly, since `yes` quietly meaning off would leave a site
/// its operator believes protected without the header. Unset is off.
fn hsts(env: &Env) -> Result<bool, ConfigError> {
    let Some(value) = env.value("HSTS") else {
        return Ok(false);
    };
    match value.to_ascii_lowercase().as_str() {
        "0" | "false" => Ok(false),
        "1" | "true" => Ok(true),
        _ => Err(ConfigError::new(
            "HSTS",
            value,
            "cannot be read",
            "1 or true (send Strict-Transport-Security), 0 or false (do not)",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::env::lookup;

    fn headers(vars: &[(&str, &str)]) -> Result<SecurityHeaders, ConfigError> {
        SecurityHeaders::from_env(&Env::new(&lookup(vars)), None)
    }

    #[test]
    fn the_voice_api_origin_is_the_base_urls() {
        for (base, origin) in [
            ("HTTPS://X.Example.COM:443/v1/", "https://x.example.com"),
            ("http://127.0.0.1:9000", "http://127.0.0.1:9000"),
        ] {
            let vars = [
                ("VAPI_PUBLIC_KEY", "pk"),
                ("VAPI_ASSISTANT_ID", "a"),
                ("VAPI_API_BASE_URL", base),
            ];
            let get = lookup(&vars);
            let env = Env::new(&get);
            let voice = VoiceSettings::from_env(&env).unwrap();
            let headers = SecurityHeaders::from_env(&env, voice.as_ref()).unwrap();
            assert_eq!(headers.voice_api_origin, origin);
            assert!(headers.content_security_policy().contains(&format!(
                "connect-src 'self' {origin} https://*.daily.co wss://*.daily.co"
            )));
        }
    }

    #[test]
    fn hsts_is_a_switch_read_exactly() {
        for (value, on) in [
            ("1", true),
            ("true", true),
            (" TRUE ", true),
            ("0", false),
            ("false", false),
            ("", false),
        ] {
            assert_eq!(headers(&[("HSTS", value)]).unwrap().hsts, on, "{value:?}");
        }
        let unset = headers(&[]).unwrap();
        assert!(!unset.hsts);
        assert_eq!(unset.voice_api_origin, DEFAULT_VOICE_API_ORIGIN);
        for value in ["yes", "on", "2"] {
            assert_eq!(
                headers(&[("HSTS", value)]).unwrap_err().to_string(),
                format!("HSTS={value:?} cannot be read; expected 1 or true (send Strict-Transport-Security), 0 or false (do not)")
            );
        }
    }

    #[test]
    fn hsts_only_when_asked() {
        let off = headers(&[]).unwrap().header_map();
        assert!(!off.contains_key("strict-transport-security"));
        let on = headers(&[("HSTS", "1")]).unwrap().header_map();
        assert!(on["strict-transport-security"]
            .to_str()
            .unwrap()
            .starts_with("max-age="));
        assert!(on["content-security-policy"]
            .to_str()
            .unwrap()
            .ends_with("frame-ancestors 'none'"));
    }
}
