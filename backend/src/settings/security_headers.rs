//! `HSTS` and the voice API's origin: what the security headers (`http::security_headers`) depend
//! on.

use super::invalid::InvalidSetting;
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
    ) -> Result<SecurityHeaders, InvalidSetting> {
        let voice_api_origin = voice
            .and_then(|v| v.api_base_url.as_deref())
            .map(origin_of)
            .unwrap_or_else(|| DEFAULT_VOICE_API_ORIGIN.to_owned());
        Ok(SecurityHeaders {
            hsts: hsts(get("HSTS"))?,
            voice_api_origin,
        })
    }
}

/// `HSTS`: a switch that must be read exactly, since `yes` quietly meaning off would leave a site
/// its operator believes protected without the header. Blank is unset, which is off.
fn hsts(raw: Option<String>) -> Result<bool, InvalidSetting> {
    let Some(raw) = raw else { return Ok(false) };
    match raw.trim().to_ascii_lowercase().as_str() {
        "" | "0" | "false" => Ok(false),
        "1" | "true" => Ok(true),
        _ => Err(InvalidSetting {
            variable: "HSTS",
            value: raw,
            problem: "cannot be read".into(),
            expected: "1 or true (send Strict-Transport-Security), 0 or false (do not)".into(),
        }),
    }
}

/// `scheme://host[:port]` of an http(s) URL that `settings::voice` has already checked.
fn origin_of(url: &str) -> String {
    reqwest::Url::parse(url)
        .map(|url| url.origin().ascii_serialization())
        .unwrap_or_else(|_| DEFAULT_VOICE_API_ORIGIN.to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn headers(vars: &[(&str, &str)]) -> Result<SecurityHeaders, InvalidSetting> {
        SecurityHeaders::from_lookup(&crate::settings::lookup(vars), None)
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
            let get = crate::settings::lookup(&vars);
            let voice = VoiceSettings::from_lookup(&get).unwrap();
            let headers = SecurityHeaders::from_lookup(&get, voice.as_ref()).unwrap();
            assert_eq!(headers.voice_api_origin, origin);
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
        assert!(!headers(&[]).unwrap().hsts);
        assert_eq!(
            headers(&[]).unwrap().voice_api_origin,
            DEFAULT_VOICE_API_ORIGIN
        );
        for value in ["yes", "on", "2"] {
            assert_eq!(
                headers(&[("HSTS", value)]).unwrap_err().to_string(),
                format!("HSTS={value:?} cannot be read; expected 1 or true (send Strict-Transport-Security), 0 or false (do not)")
            );
        }
    }
}
