//! The voice assistant's deployment settings (`VAPI_*`). Only public values live here: the
//! provider's public key is meant to be embedded in pages. The notice shown before a call is the
//! content's (`voiceControls.consentText`), built into the page.

use serde::{Serialize, Serializer};
use url::Url;

use super::env::Env;
use super::error::ConfigError;

const PUBLIC_KEY: &str = "VAPI_PUBLIC_KEY";
const ASSISTANT_ID: &str = "VAPI_ASSISTANT_ID";
const BASE_URL: &str = "VAPI_API_BASE_URL";
/// What `VAPI_API_BASE_URL` must look like, for its start-up error.
const BASE_URL_FORM: &str =
    "an http:// or https:// address without user, query or fragment, such as https://api.vapi.ai";

/// What the page needs to start a voice call. Absent (`voice: null`) when no key is configured.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct VoiceSettings {
    /// The provider's public key, meant to be embedded in pages.
    pub public_key: String,
    pub assistant_id: String,
    /// The provider API's base address as the URL parser reads it (lower-case scheme and host,
    /// no default port); `None` means the SDK's default. The page gets it without the trailing
    /// slash, since the SDK appends paths such as `/call/web`.
    #[serde(serialize_with = "without_trailing_slash")]
    #[schema(required = true, value_type = Option<String>)]
    pub api_base_url: Option<Url>,
}

impl VoiceSettings {
    /// Reads the `VAPI_*` variables.
    pub fn from_env(env: &Env) -> Result<Option<VoiceSettings>, ConfigError> {
        let required_with = |variable: &'static str, with: &str| {
            ConfigError::new(
                variable,
                "",
                format!("is required with {with}"),
                "both VAPI_PUBLIC_KEY and VAPI_ASSISTANT_ID, from the voice provider's dashboard",
            )
        };
        let (public_key, assistant_id) = match (env.value(PUBLIC_KEY), env.value(ASSISTANT_ID)) {
            (Some(key), Some(id)) => (key, id),
            (None, None) => return Ok(None),
            (Some(_), None) => return Err(required_with(ASSISTANT_ID, PUBLIC_KEY)),
            (None, Some(_)) => return Err(required_with(PUBLIC_KEY, ASSISTANT_ID)),
        };
        Ok(Some(VoiceSettings {
            public_key,
            assistant_id,
            api_base_url: base_url(env)?,
        }))
    }
}

/// `VAPI_API_BASE_URL`. Its origin goes into the Content-Security-Policy and the page's client
/// config, so a user or password (which would be published there), a query or a fragment is
/// refused.
pub(super) fn base_url(env: &Env) -> Result<Option<Url>, ConfigError> {
    let refused = |problem: &str| {
        ConfigError::new(
            BASE_URL,
            env.value(BASE_URL).unwrap_or_default(),
            problem,
            BASE_URL_FORM,
        )
    };
    // The parser drops tabs and new lines silently; a space in a base URL is a typo.
    if env
        .value(BASE_URL)
        .is_some_and(|value| value.contains(char::is_whitespace))
    {
        return Err(refused("holds a space"));
    }
    let Some(url) = env.http_url(BASE_URL, BASE_URL_FORM)? else {
        return Ok(None);
    };
    if !url.username().is_empty() || url.password().is_some() {
        return Err(refused("holds a user or password"));
    }
    if url.query().is_some() || url.fragment().is_some() {
        return Err(refused("holds a query or fragment"));
    }
    Ok(Some(url))
}

fn without_trailing_slash<S: Serializer>(url: &Option<Url>, out: S) -> Result<S::Ok, S::Error> {
    url.as_ref()
        .map(|url| url.as_str().trim_end_matches('/'))
        .serialize(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(vars: &[(&str, &str)]) -> Result<Option<VoiceSettings>, ConfigError> {
        VoiceSettings::from_env(&Env::new(&crate::settings::env::lookup(vars)))
    }

    /// The settings with a key, an assistant and `VAPI_API_BASE_URL=url`.
    fn with_base(url: &str) -> Result<Option<VoiceSettings>, ConfigError> {
        settings(&[
            ("VAPI_PUBLIC_KEY", "pk"),
            ("VAPI_ASSISTANT_ID", "a"),
            ("VAPI_API_BASE_URL", url),
        ])
    }

    fn page_base(settings: &VoiceSettings) -> String {
        serde_json::to_value(settings).unwrap()["apiBaseUrl"]
            .as_str()
            .unwrap()
            .to_owned()
    }

    #[test]
    fn unset_or_blank_means_not_configured() {
        assert_eq!(settings(&[]), Ok(None));
        assert_eq!(
            settings(&[("VAPI_PUBLIC_KEY", "  "), ("VAPI_ASSISTANT_ID", "")]),
            Ok(None)
        );
        assert_eq!(settings(&[("VAPI_API_BASE_URL", "https://x")]), Ok(None));
    }

    #[test]
    fn key_and_assistant_must_come_together() {
        assert_eq!(
            settings(&[("VAPI_PUBLIC_KEY", "pk")]).unwrap_err().to_string(),
            "VAPI_ASSISTANT_ID=\"\" is required with VAPI_PUBLIC_KEY; expected both VAPI_PUBLIC_KEY and VAPI_ASSISTANT_ID, from the voice provider's dashboard"
        );
        let without_key = settings(&[("VAPI_ASSISTANT_ID", "a")]).unwrap_err();
        assert_eq!(without_key.variable, "VAPI_PUBLIC_KEY");
    }

    #[test]
    fn full_settings_are_trimmed_and_the_base_loses_its_trailing_slash() {
        let s = settings(&[
            ("VAPI_PUBLIC_KEY", " pk-1 "),
            ("VAPI_ASSISTANT_ID", "asst-9"),
            ("VAPI_API_BASE_URL", "http://127.0.0.1:9000/"),
        ])
        .unwrap()
        .unwrap();
        // The page's settings, whole: the key trimmed, the base without its trailing slash.
        assert_eq!(
            serde_json::to_value(&s).unwrap(),
            serde_json::json!({
                "publicKey": "pk-1",
                "assistantId": "asst-9",
                "apiBaseUrl": "http://127.0.0.1:9000",
            })
        );
    }

    #[test]
    fn a_base_url_is_normalised_as_a_url_parser_reads_it() {
        let base = |url| page_base(&with_base(url).unwrap().unwrap());
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
            let Err(invalid) = with_base(bad) else {
                panic!("{bad} accepted")
            };
            assert_eq!(
                (
                    invalid.variable,
                    invalid.value.as_deref(),
                    invalid.problem.as_str()
                ),
                ("VAPI_API_BASE_URL", Some(bad), problem)
            );
        }
    }
}
