//! `SITE_URL`: the site's public address, for the links the server writes (in e-mails, for the
//! voice assistant's webhook). Unset, it is the content's canonical URL (`brand.url` in
//! `content/site.yaml`), which the front end's build writes into `STATIC_DIR/.site/site.json`, so
//! the site's address has one source; without a built front end, the server's own address.

use std::net::SocketAddr;
use std::path::Path;

use serde::Deserialize;
use url::Url;

use super::env::Env;
use super::error::ConfigError;

/// What the front end's build hands the server from the content (`frontend/scripts/prerender.mjs`).
pub const BUILD_FACTS: &str = ".site/site.json";
const EXPECTED: &str = "the site's public address, such as https://www.example.com/";

#[derive(Deserialize)]
struct Canonical {
    url: String,
}

pub fn site_url(env: &Env, static_dir: &Path, addr: SocketAddr) -> Result<Url, ConfigError> {
    if let Some(url) = env.http_url("SITE_URL", EXPECTED)? {
        return Ok(url);
    }
    let canonical = std::fs::read(static_dir.join(BUILD_FACTS))
        .ok()
        .and_then(|json| serde_json::from_slice::<Canonical>(&json).ok())
        .and_then(|canonical| Url::parse(&canonical.url).ok());
    Ok(canonical.unwrap_or_else(|| {
        Url::parse(&format!("http://{addr}/")).expect("a socket address makes a URL")
    }))
}

#[cfg(test)]
mod tests {
    use super::super::env::lookup;
    use super::*;

    const ADDR: &str = "127.0.0.1:8080";

    fn url(vars: &[(&str, &str)], dir: &Path) -> Result<Url, ConfigError> {
        let get = lookup(vars);
        site_url(&Env::new(&get), dir, ADDR.parse().unwrap())
    }

    #[test]
    fn defaults_to_the_contents_canonical_url_then_the_servers_address() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(
            url(&[], dir.path()).unwrap().as_str(),
            "http://127.0.0.1:8080/"
        );
        std::fs::create_dir(dir.path().join(".site")).unwrap();
        std::fs::write(
            dir.path().join(BUILD_FACTS),
            r#"{"url": "https://www.broker.test/", "retention": {}}"#,
        )
        .unwrap();
        assert_eq!(
            url(&[], dir.path()).unwrap().as_str(),
            "https://www.broker.test/"
        );
        let set = url(&[("SITE_URL", "https://quotes.broker.test/")], dir.path()).unwrap();
        assert_eq!(set.as_str(), "https://quotes.broker.test/");
    }

    #[test]
    fn a_site_url_without_http_host_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let error = url(&[("SITE_URL", "broker.test")], dir.path()).unwrap_err();
        assert_eq!(error.variable, "SITE_URL");
    }
}
