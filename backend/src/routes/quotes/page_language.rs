//! The language of the page a quote post came from, which its answer is written in. The post's
//! `lang` field says it (and the lead records it); a post refused before its body was read (too
//! large, too slow, not JSON) has only its `Referer`: a browser sends the page's address with a
//! post to its own site (the site's `Referrer-Policy` is `strict-origin-when-cross-origin`), and
//! the Spanish site's pages are under `/es/`.

use warp::http::{HeaderValue, Uri};

use crate::store::Language;

/// The language of the page in a `Referer`: Spanish under `/es/`, English otherwise (none, or
/// one that cannot be read, included).
pub fn from_referer(referer: Option<&HeaderValue>) -> Language {
    let path = referer
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.parse::<Uri>().ok());
    let Some(path) = path else {
        return Language::En;
    };
    let prefix = Language::Es.as_str();
    match path
        .path()
        .strip_prefix('/')
        .and_then(|p| p.strip_prefix(prefix))
    {
        Some("") => Language::Es,
        Some(rest) if rest.starts_with('/') => Language::Es,
        _ => Language::En,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pages_under_es_are_spanish() {
        let language = |referer: Option<&str>| {
            from_referer(referer.map(|r| HeaderValue::from_str(r).unwrap()).as_ref())
        };
        for (referer, expected) in [
            ("https://www.clearharbor.example/es/", Language::Es),
            ("http://127.0.0.1:8080/es", Language::Es),
            ("http://127.0.0.1:8080/es/quote-result", Language::Es),
            ("https://www.clearharbor.example/es/?utm=x", Language::Es),
            ("https://www.clearharbor.example/", Language::En),
            ("https://www.clearharbor.example/espanol", Language::En),
            ("https://www.clearharbor.example/privacy?es/", Language::En),
            ("not a url", Language::En),
        ] {
            assert_eq!(language(Some(referer)), expected, "{referer}");
        }
        assert_eq!(language(None), Language::En);
    }
}
