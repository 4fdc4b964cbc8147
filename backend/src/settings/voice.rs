//! The voice assistant's deployment settings (`VAPI_*`, `VOICE_CONSENT_TEXT`). Only public values
//! live here: the provider's public key is meant to be embedded in pages.

use serde::Serialize;
use validator::{Validate, ValidationError};

use super::invalid::{check, InvalidSetting};

/// What the page needs to start a voice call. Absent (`voice: null`) when no key is configured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Validate)]
#[serde(rename_all = "camelCase")]
pub struct VoiceSettings {
    pub public_key: String,
    pub assistant_id: String,
    /// The provider API's base address; `None` means the SDK's default.
    #[validate(custom(
        function = "base_url",
        message = "an http:// or https:// address without query, such as https://api.vapi.ai"
    ))]
    pub api_base_url: Option<String>,
    /// When set, shown once before the first call and remembered once accepted.
    pub consent_text: Option<String>,
}

#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum VoiceConfigError {
    #[error("VAPI_PUBLIC_KEY and VAPI_ASSISTANT_ID must be set together (only {0} is set)")]
    Incomplete(&'static str),
    #[error(transparent)]
    Invalid(#[from] InvalidSetting),
}

impl VoiceSettings {
    /// Reads the `VAPI_*` and `VOICE_CONSENT_TEXT` variables; blank values count as unset.
    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<Option<VoiceSettings>, VoiceConfigError> {
        let read = |key: &str| {
            get(key)
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let (public_key, assistant_id) = match (read("VAPI_PUBLIC_KEY"), read("VAPI_ASSISTANT_ID"))
        {
            (Some(key), Some(id)) => (key, id),
            (None, None) => return Ok(None),
            (Some(_), None) => return Err(VoiceConfigError::Incomplete("VAPI_PUBLIC_KEY")),
            (None, Some(_)) => return Err(VoiceConfigError::Incomplete("VAPI_ASSISTANT_ID")),
        };
        let settings = VoiceSettings {
            public_key,
            assistant_id,
            // The SDK appends paths such as `/call/web` to the base, so a trailing slash is dropped.
            api_base_url: read("VAPI_API_BASE_URL").map(|url| url.trim_end_matches('/').to_owned()),
            consent_text: read("VOICE_CONSENT_TEXT"),
        };
        check(&settings, &[("api_base_url", "VAPI_API_BASE_URL")], &get)?;
        Ok(Some(settings))
    }
}

fn base_url(url: &str) -> Result<(), ValidationError> {
    let rest = url
        .strip_prefix("https://")
        .or_else(|| url.strip_prefix("http://"));
    let host_ok = rest.is_some_and(|r| {
        let host = r.split('/').next().unwrap_or("");
        !host.is_empty() && !host.contains(char::is_whitespace)
    });
    if !host_ok {
        return Err(ValidationError::new("has no http(s) host"));
    }
    if url.contains(['?', '#']) || url.contains(char::is_whitespace) {
        return Err(ValidationError::new("holds a query, fragment or space"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Result<Option<VoiceSettings>, VoiceConfigError> {
        VoiceSettings::from_lookup(crate::settings::lookup(vars))
    }

    #[test]
    fn unset_or_blank_means_not_configured() {
        assert_eq!(settings(&[]), Ok(None));
        assert_eq!(
            settings(&[("VAPI_PUBLIC_KEY", "  "), ("VAPI_ASSISTANT_ID", "")]),
            Ok(None)
        );
        assert_eq!(settings(&[("VOICE_CONSENT_TEXT", "Grabamos")]), Ok(None));
    }

    #[test]
    fn key_and_assistant_must_come_together() {
        assert_eq!(
            settings(&[("VAPI_PUBLIC_KEY", "pk")]),
            Err(VoiceConfigError::Incomplete("VAPI_PUBLIC_KEY"))
        );
        assert_eq!(
            settings(&[("VAPI_ASSISTANT_ID", "a")]),
            Err(VoiceConfigError::Incomplete("VAPI_ASSISTANT_ID"))
        );
    }

    #[test]
    fn full_settings_are_trimmed_and_the_base_loses_its_trailing_slash() {
        let s = settings(&[
            ("VAPI_PUBLIC_KEY", " pk-1 "),
            ("VAPI_ASSISTANT_ID", "asst-9"),
            ("VAPI_API_BASE_URL", "http://127.0.0.1:9000/"),
            ("VOICE_CONSENT_TEXT", "Esta llamada la atiende una IA."),
        ])
        .unwrap()
        .unwrap();
        assert_eq!(s.public_key, "pk-1");
        assert_eq!(s.assistant_id, "asst-9");
        assert_eq!(s.api_base_url.as_deref(), Some("http://127.0.0.1:9000"));
        assert_eq!(
            s.consent_text.as_deref(),
            Some("Esta llamada la atiende una IA.")
        );
    }

    #[test]
    fn a_base_url_that_is_not_http_is_refused() {
        for bad in [
            "api.vapi.ai",
            "ftp://x",
            "https://",
            "https://a b",
            "https://x/?q=1",
            "https://x#f",
        ] {
            let result = settings(&[
                ("VAPI_PUBLIC_KEY", "pk"),
                ("VAPI_ASSISTANT_ID", "a"),
                ("VAPI_API_BASE_URL", bad),
            ]);
            let Err(VoiceConfigError::Invalid(invalid)) = result else {
                panic!("{bad} accepted")
            };
            assert_eq!(
                (invalid.variable, invalid.value.as_str()),
                ("VAPI_API_BASE_URL", bad)
            );
        }
    }
}
