//! The voice assistant's deployment settings (`VAPI_*`, `VOICE_CONSENT_TEXT`). Only public values
//! live here: the provider's public key is meant to be embedded in pages.

use serde::Serialize;

use super::invalid::InvalidSetting;

/// What `VAPI_API_BASE_URL` must look like, for its start-up error.
const BASE_URL_FORM: &str =
    "an http:// or https:// address without user, query or fragment, such as https://api.vapi.ai";

/// What the page needs to start a voice call. Absent (`voice: null`) when no key is configured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct VoiceSettings {
    pub public_key: String,
    pub assistant_id: String,
    /// The provider API's base address, normalised (`base_url`); `None` means the SDK's default.
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
        let api_base_url = read("VAPI_API_BASE_URL")
            .map(|url| {
                base_url(&url).map_err(|problem| InvalidSetting {
                    variable: "VAPI_API_BASE_URL",
                    value: get("VAPI_API_BASE_URL").unwrap_or_default(),
                    problem: problem.into(),
                    expected: BASE_URL_FORM.into(),
                })
            })
            .transpose()?;
        Ok(Some(VoiceSettings {
            public_key,
            assistant_id,
            api_base_url,
            consent_text: read("VOICE_CONSENT_TEXT"),
        }))
    }
}

/// The base as a URL parser reads it (lower-case scheme and host, no default port), without the
/// trailing slash, since the SDK appends paths such as `/call/web`. Its origin goes into the
/// Content-Security-Policy and the page's client config, so a user or password (which would be
/// published there), a query or a fragment is refused.
fn base_url(raw: &str) -> Result<String, &'static str> {
    // The parser drops tabs and new lines silently; a space in a base URL is a typo.
    if raw.contains(char::is_whitespace) {
        return Err("holds a space");
    }
    let url = reqwest::Url::parse(raw).map_err(|_| "has no http(s) host")?;
    if !matches!(url.scheme(), "http" | "https") || url.host_str().is_none_or(str::is_empty) {
        return Err("has no http(s) host");
    }
    if !url.username().is_empty() || url.password().is_some() {
        return Err("holds a user or password");
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err("holds a query or fragment");
    }
    Ok(url.as_str().trim_end_matches('/').to_owned())
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
    fn a_base_url_is_normalised_as_a_url_parser_reads_it() {
        let base = |url| {
            settings(&[
                ("VAPI_PUBLIC_KEY", "pk"),
                ("VAPI_ASSISTANT_ID", "a"),
                ("VAPI_API_BASE_URL", url),
            ])
            .unwrap()
            .unwrap()
            .api_base_url
            .unwrap()
        };
        assert_eq!(base("HTTPS://X.Example.COM:443/"), "https://x.example.com");
        assert_eq!(
            base("http://127.0.0.1:9000/v1/"),
            "http://127.0.0.1:9000/v1"
        );
        assert_eq!(base("https://api.vapi.ai"), "https://api.vapi.ai");
    }

    #[test]
    fn a_base_url_that_is_not_http_is_refused() {
        for (bad, problem) in [
            ("api.vapi.ai", "has no http(s) host"),
            ("ftp://x", "has no http(s) host"),
            ("https://", "has no http(s) host"),
            ("https://a b", "holds a space"),
            ("https://x/?q=1", "holds a query or fragment"),
            ("https://x#f", "holds a query or fragment"),
            ("https://user:pw@api.vapi.ai", "holds a user or password"),
            ("https://user@api.vapi.ai", "holds a user or password"),
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
                (
                    invalid.variable,
                    invalid.value.as_str(),
                    invalid.problem.as_str()
                ),
                ("VAPI_API_BASE_URL", bad, problem)
            );
        }
    }
}
