//! Security headers sent with every response.
//!
//! The Content-Security-Policy allows our own origin plus exactly what the voice assistant's SDK
//! needs: the provider's API, daily.co (the SDK loads its call machine script from there, and
//! talks to it over https and websockets), `wasm-unsafe-eval` to compile our quote rules, and
//! media from `blob:` URLs. `'unsafe-inline'` styles are needed because React, Radix and
//! framer-motion set `style` attributes; scripts stay strict.

use warp::http::{HeaderMap, HeaderName, HeaderValue};

use crate::settings::security_headers::SecurityHeaders;

const DAILY: &str = "https://*.daily.co";
const DAILY_SOCKETS: &str = "wss://*.daily.co";
const HSTS_MAX_AGE_SECONDS: u32 = 63_072_000;

impl SecurityHeaders {
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

#[cfg(test)]
mod tests {
    use crate::settings::Config;

    fn headers(vars: &'static [(&'static str, &'static str)]) -> super::SecurityHeaders {
        Config::from_lookup(crate::settings::lookup(vars))
            .unwrap()
            .security_headers
    }

    #[test]
    fn the_voice_origin_comes_from_the_configured_url() {
        assert_eq!(headers(&[]).voice_api_origin, "https://api.vapi.ai");
        let custom = headers(&[
            ("VAPI_PUBLIC_KEY", "pk"),
            ("VAPI_ASSISTANT_ID", "assistant"),
            ("VAPI_API_BASE_URL", "http://127.0.0.1:4010/v1/"),
        ]);
        assert_eq!(custom.voice_api_origin, "http://127.0.0.1:4010");
        assert!(custom.content_security_policy().contains(
            "connect-src 'self' http://127.0.0.1:4010 https://*.daily.co wss://*.daily.co"
        ));
    }

    #[test]
    fn hsts_only_when_asked() {
        assert!(!headers(&[])
            .header_map()
            .contains_key("strict-transport-security"));
        let on = headers(&[("HSTS", "1")]).header_map();
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
