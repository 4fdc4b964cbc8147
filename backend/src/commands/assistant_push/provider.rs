//! The provider's REST API, as far as the command uses it: list, create and update tools and
//! assistants, authorised by the private key (sent only as the bearer token, never shown).

use std::time::Duration;

use reqwest::Method;
use secrecy::{ExposeSecret, SecretString};
use serde_json::Value;
use url::Url;

const TIMEOUT: Duration = Duration::from_secs(30);
/// The most the provider lists at once; a broker has a handful of tools and assistants.
const LIST_LIMIT: u32 = 1000;
/// How much of a refusal's body an error quotes.
const QUOTED_BODY_CHARS: usize = 300;

pub struct ProviderApi {
    client: reqwest::Client,
    base: Url,
    key: SecretString,
    /// Kept out of the errors too, should a refusal quote the request (the voice events' secret;
    /// a dry run may have none).
    also_hidden: Option<SecretString>,
}

impl ProviderApi {
    pub fn new(base: Url, key: SecretString, also_hidden: Option<SecretString>) -> ProviderApi {
        let client = reqwest::Client::builder()
            .timeout(TIMEOUT)
            .build()
            .expect("the TLS roots load");
        ProviderApi {
            client,
            base,
            key,
            also_hidden,
        }
    }

    pub fn url(&self, path: &str) -> String {
        url(&self.base, path)
    }

    /// `GET /{kind}`: every tool or assistant.
    pub async fn list(&self, kind: &str) -> Result<Vec<Value>, String> {
        let listed = self
            .send(Method::GET, &format!("{kind}?limit={LIST_LIMIT}"), None)
            .await?;
        serde_json::from_value(listed)
            .map_err(|_| format!("GET {} did not answer a list", self.url(kind)))
    }

    /// `POST /{kind}` or, with an id, `PATCH /{kind}/{id}`; the id of what was saved.
    pub async fn save(&self, kind: &str, id: Option<&str>, body: &Value) -> Result<String, String> {
        let (method, path) = match id {
            Some(id) => (Method::PATCH, format!("{kind}/{id}")),
            None => (Method::POST, kind.to_owned()),
        };
        let saved = self.send(method.clone(), &path, Some(body)).await?;
        saved["id"]
            .as_str()
            .map(str::to_owned)
            .ok_or_else(|| format!("{method} {} answered no id", self.url(&path)))
    }

    async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
    ) -> Result<Value, String> {
        let url = self.url(path);
        let mut request = self
            .client
            .request(method.clone(), &url)
            .bearer_auth(self.key.expose_secret());
        if let Some(body) = body {
            request = request
                .header(reqwest::header::CONTENT_TYPE, "application/json")
                .body(body.to_string());
        }
        let failed = |problem: String| format!("{method} {url} {problem}");
        let response = request.send().await.map_err(|error| {
            failed(format!(
                "failed: {}",
                crate::store::error_chain::describe(&error)
            ))
        })?;
        let status = response.status();
        let text = response
            .text()
            .await
            .map_err(|error| failed(format!("failed: {error}")))?;
        if !status.is_success() {
            let secrets: Vec<&SecretString> = [Some(&self.key), self.also_hidden.as_ref()]
                .into_iter()
                .flatten()
                .collect();
            let quoted = quote(&text, &secrets);
            return Err(failed(format!("answered {status}: {quoted}")));
        }
        serde_json::from_str(&text).map_err(|_| failed("did not answer JSON".into()))
    }
}

/// The address of a path (`tool`, `assistant/{id}`) under the API's base, which may have a path.
pub fn url(base: &Url, path: &str) -> String {
    format!("{}/{path}", base.as_str().trim_end_matches('/'))
}

/// The start of a refusal's body on one line, without the secrets.
fn quote(body: &str, secrets: &[&SecretString]) -> String {
    let mut quoted = body.replace('\n', " ");
    for secret in secrets {
        quoted = quoted.replace(secret.expose_secret(), "…");
    }
    quoted.chars().take(QUOTED_BODY_CHARS).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_refusal_is_quoted_on_one_line_without_secrets_and_cut_short() {
        let (key, secret) = (SecretString::from("sk-1"), SecretString::from("whs-2"));
        assert_eq!(
            quote(
                "bad header\nx-vapi-secret: whs-2 (key sk-1)",
                &[&key, &secret]
            ),
            "bad header x-vapi-secret: … (key …)"
        );
        assert_eq!(quote(&"a".repeat(1000), &[&key]).len(), QUOTED_BODY_CHARS);
    }
}
