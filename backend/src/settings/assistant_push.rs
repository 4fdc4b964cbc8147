//! What `backend assistant push` reads from the environment: the provider's private key and API,
//! the assistant to update, the voice events' address and secret, and the content folder. A dry
//! run needs neither the key nor the secret (`required` asks for them before a real push).

use std::path::PathBuf;

use secrecy::SecretString;
use url::Url;

use super::env::Env;
use super::error::ConfigError;
use super::voice;

/// The provider's REST API when `VAPI_API_BASE_URL` is unset.
pub const DEFAULT_API_BASE_URL: &str = "https://api.vapi.ai";
/// The content folder when `CONTENT_DIR` is unset, as the front end's build reads it.
pub const DEFAULT_CONTENT_DIR: &str = "content";
const PRIVATE_KEY: &str = "VAPI_PRIVATE_KEY";
const WEBHOOK_SECRET: &str = "VAPI_WEBHOOK_SECRET";

#[derive(Debug)]
pub struct AssistantPushSettings {
    /// `VAPI_PRIVATE_KEY`: the provider's private API key, sent only as the bearer token.
    pub private_key: Option<SecretString>,
    pub api_base_url: Url,
    /// `VAPI_ASSISTANT_ID`: the assistant to update; unset, it is found by its name.
    pub assistant_id: Option<String>,
    /// `VAPI_WEBHOOK_SECRET`: what the provider must send with its voice events.
    pub voice_events_secret: Option<SecretString>,
    /// `SITE_URL`; unset, the content's `brand.url` (as the server's default is).
    pub site_url: Option<Url>,
    pub content_dir: PathBuf,
}

impl AssistantPushSettings {
    pub fn from_env() -> Result<AssistantPushSettings, ConfigError> {
        AssistantPushSettings::from_lookup(|key| std::env::var(key).ok())
    }

    pub fn from_lookup(
        get: impl Fn(&str) -> Option<String>,
    ) -> Result<AssistantPushSettings, ConfigError> {
        let env = Env::new(&get);
        Ok(AssistantPushSettings {
            private_key: env.secret(PRIVATE_KEY),
            api_base_url: voice::base_url(&env)?
                .unwrap_or_else(|| Url::parse(DEFAULT_API_BASE_URL).expect("the default is a URL")),
            assistant_id: env.value("VAPI_ASSISTANT_ID"),
            voice_events_secret: env.secret(WEBHOOK_SECRET),
            site_url: env.http_url(
                "SITE_URL",
                "the site's public address, such as https://www.example.com/",
            )?,
            content_dir: env
                .value("CONTENT_DIR")
                .unwrap_or_else(|| DEFAULT_CONTENT_DIR.into())
                .into(),
        })
    }

    /// The private key and the voice events' secret, which a push that sends anything needs.
    pub fn required(&self) -> Result<(&SecretString, &SecretString), ConfigError> {
        fn required<'a>(
            value: &'a Option<SecretString>,
            variable: &'static str,
            expected: &str,
        ) -> Result<&'a SecretString, ConfigError> {
            value
                .as_ref()
                .ok_or_else(|| ConfigError::new(variable, "", "is required", expected))
        }
        Ok((
            required(
                &self.private_key,
                PRIVATE_KEY,
                "the private API key from the voice provider's dashboard",
            )?,
            required(
                &self.voice_events_secret,
                WEBHOOK_SECRET,
                "the secret the provider sends to the webhook, for example `openssl rand -hex 32`",
            )?,
        ))
    }
}

#[cfg(test)]
mod tests {
    use secrecy::ExposeSecret;

    use super::super::env::lookup;
    use super::*;

    #[test]
    fn the_private_key_and_webhook_secret_are_required_to_send_and_never_shown() {
        let refused = |vars: &[(&str, &str)]| {
            AssistantPushSettings::from_lookup(lookup(vars))
                .unwrap()
                .required()
                .unwrap_err()
                .to_string()
        };
        let no_key = refused(&[("VAPI_WEBHOOK_SECRET", "whs")]);
        assert!(
            no_key.starts_with("VAPI_PRIVATE_KEY=\"\" is required"),
            "{no_key}"
        );
        let no_secret = refused(&[("VAPI_PRIVATE_KEY", "sk-1")]);
        assert!(
            no_secret.starts_with("VAPI_WEBHOOK_SECRET=\"\" is required"),
            "{no_secret}"
        );
        let settings = AssistantPushSettings::from_lookup(lookup(&[
            ("VAPI_PRIVATE_KEY", "sk-1"),
            ("VAPI_WEBHOOK_SECRET", "whs"),
        ]))
        .unwrap();
        let debug = format!("{settings:?}");
        assert!(!debug.contains("sk-1") && !debug.contains("whs"), "{debug}");
        let (key, secret) = settings.required().unwrap();
        assert_eq!(
            (key.expose_secret(), secret.expose_secret()),
            ("sk-1", "whs")
        );
        assert_eq!(settings.api_base_url.as_str(), "https://api.vapi.ai/");
        assert_eq!(settings.content_dir, PathBuf::from("content"));
        assert_eq!((settings.assistant_id, settings.site_url), (None, None));
    }

    #[test]
    fn a_dry_run_reads_an_empty_environment() {
        let settings = AssistantPushSettings::from_lookup(lookup(&[])).unwrap();
        assert!(settings.private_key.is_none() && settings.voice_events_secret.is_none());
        assert_eq!(settings.content_dir, PathBuf::from("content"));
    }
}
