//! The built front end, loaded into memory once at start and served from there.
//!
//! Hashed files under `/assets/` are cached for a year as immutable; HTML and other unhashed
//! files are revalidated on every visit. The build writes `.br` and `.gz` siblings of text files;
//! the one the browser accepts is sent. Any other path gets the not-found page with status 404,
//! so the client shows its 404 screen and crawlers see a 404.
//!
//! Nothing whose path has a segment starting with `.` is loaded (a `.env` or `.git/` copied into
//! `STATIC_DIR` by mistake stays private), except the top-level `/.well-known/`. Revalidated
//! files carry an `ETag`, so a revisit with `If-None-Match` costs a 304 and no body.
//!
//! Only regular files inside `STATIC_DIR` are served (`files.rs`): a symbolic link is followed
//! only to a regular file inside it, never out of it, and a link loop is skipped, not fatal.
//!
//! Every HTML page comes with a fresh form token in its cookie (`spam::FormTokens`), so the
//! file itself stays the same for everyone.
//!
//! A prerendered page is also served at its path without `.html` (`/licences`), and the privacy
//! notice at `/privacy` with the server's own settings written in (`privacy.rs`).

mod content_type;
mod encoding;
mod files;
mod privacy;

pub use privacy::PrivacyFacts;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use bytes::Bytes;
use warp::filters::BoxedFilter;
use warp::http::{header, HeaderMap, HeaderValue, Method, Response, StatusCode};
use warp::reply::Response as Reply;
use warp::{Filter, Reply as _};

use encoding::Encoding;
use files::servable_files;
use sha2::Digest;

use crate::http::forwarded_proto;
use crate::http::page_reply::no_store;
use crate::http::route_list::off;
use crate::routes::form_token_cookie;
use crate::spam::FormTokens;

const IMMUTABLE: &str = "public, max-age=31536000, immutable";
const REVALIDATE: &str = "no-cache";
const INDEX: &str = "/index.html";
const NOT_FOUND_PAGE: &str = "/404.html";
/// The broker's inbox (`frontend/admin.html`): served only at `/admin`, and only when the
/// password is set (`admin_page`), never under its file name.
const ADMIN_PAGE: &str = "/admin.html";

#[derive(Clone)]
struct Asset {
    content_type: String,
    cache_control: &'static str,
    identity: Bytes,
    /// Weak, as the `.br` and `.gz` bodies are the same content; `None` for immutable files.
    etag: Option<HeaderValue>,
    gzip: Option<Bytes>,
    brotli: Option<Bytes>,
}

#[derive(Default)]
pub struct Site {
    assets: HashMap<String, Asset>,
}

impl Site {
    /// Loads every file under `dir`, and the privacy notice stating `privacy` (the retention
    /// periods, the forwarding). A missing directory gives an empty site (the API still works).
    pub fn load(dir: &Path, privacy: &PrivacyFacts) -> std::io::Result<Site> {
        let mut site = Site::default();
        if !dir.is_dir() {
            tracing::warn!(dir = %dir.display(), "front end not built; serving the API only");
            return Ok(site);
        }
        let files = servable_files(dir)?;
        for (url, path) in &files {
            if url.ends_with(".gz") || url.ends_with(".br") {
                continue;
            }
            let sibling = |ext: &str| -> std::io::Result<Option<Bytes>> {
                files
                    .get(&format!("{url}.{ext}"))
                    .map(|path| std::fs::read(path).map(Bytes::from))
                    .transpose()
            };
            let identity = Bytes::from(std::fs::read(path)?);
            let immutable = url.starts_with("/assets/");
            let asset = Asset {
                content_type: content_type::for_path(url),
                cache_control: if immutable { IMMUTABLE } else { REVALIDATE },
                etag: (!immutable).then(|| etag(&identity)),
                identity,
                gzip: sibling("gz")?,
                brotli: sibling("br")?,
            };
            if let Some(path) = clean_path(url) {
                site.assets.insert(path.to_owned(), asset.clone());
            }
            // Another language's landing page at its folder (`/es/index.html` at `/es/`, and
            // at `/es`, as people type it).
            if let Some(folder) = url.strip_suffix("index.html").filter(|f| *f != "/") {
                site.assets.insert(folder.to_owned(), asset.clone());
                site.assets
                    .insert(folder.trim_end_matches('/').to_owned(), asset.clone());
            }
            site.assets.insert(url.clone(), asset);
        }
        for (language_dir, path) in privacy::NOTICES {
            if let Some(notice) = privacy::notice(dir, language_dir, privacy)? {
                let identity = Bytes::from(notice);
                let asset = Asset {
                    content_type: content_type::for_path(privacy::PAGE),
                    cache_control: REVALIDATE,
                    etag: Some(etag(&identity)),
                    identity,
                    gzip: None,
                    brotli: None,
                };
                site.assets.insert(path.to_owned(), asset);
            }
        }
        Ok(site)
    }

    fn respond(&self, method: &Method, path: &str, headers: &HeaderMap) -> Reply {
        self.serve(method, lookup(path), not_found_page(path), headers)
    }

    /// Whether what `path` is answered with is an HTML page (the not-found page included).
    fn is_page(&self, path: &str) -> bool {
        lookup(path)
            .and_then(|lookup| self.assets.get(lookup))
            .or_else(|| self.assets.get(not_found_page(path)))
            .or_else(|| self.assets.get(NOT_FOUND_PAGE))
            .or_else(|| self.assets.get(INDEX))
            .is_some_and(|asset| asset.content_type.starts_with("text/html"))
    }

    /// `lookup` is the asset to send; `None`, or one that does not exist, gets `not_found` (a
    /// language's 404 page).
    fn serve(
        &self,
        method: &Method,
        lookup: Option<&str>,
        not_found: &str,
        headers: &HeaderMap,
    ) -> Reply {
        if method != Method::GET && method != Method::HEAD {
            return crate::http::error::ApiError::MethodNotAllowed { allow: "GET, HEAD" }
                .into_response();
        }
        let (asset, status) = match lookup.and_then(|lookup| self.assets.get(lookup)) {
            Some(asset) => (asset, StatusCode::OK),
            None => match self
                .assets
                .get(not_found)
                .or_else(|| self.assets.get(NOT_FOUND_PAGE))
                .or_else(|| self.assets.get(INDEX))
            {
                Some(page) => (page, StatusCode::NOT_FOUND),
                None => return plain(StatusCode::NOT_FOUND, "Not found"),
            },
        };
        let etag = asset.etag.as_ref().filter(|_| status == StatusCode::OK);
        if etag.is_some_and(|etag| if_none_match(headers, etag)) {
            let mut response = Response::builder()
                .status(StatusCode::NOT_MODIFIED)
                .header(header::CACHE_CONTROL, asset.cache_control)
                .header(header::VARY, "Accept-Encoding");
            if let Some(etag) = etag {
                response = response.header(header::ETAG, etag);
            }
            return response.body(Bytes::new()).map_or_else(
                |_| plain(StatusCode::INTERNAL_SERVER_ERROR, "error"),
                |r| r.into_response(),
            );
        }
        let encoding = Encoding::choose(headers, asset.brotli.is_some(), asset.gzip.is_some());
        let body = match encoding {
            Encoding::Brotli => asset.brotli.clone(),
            Encoding::Gzip => asset.gzip.clone(),
            Encoding::Identity => None,
        }
        .unwrap_or_else(|| asset.identity.clone());
        let mut response = Response::builder()
            .status(status)
            .header(header::CONTENT_TYPE, asset.content_type.as_str())
            .header(header::CACHE_CONTROL, asset.cache_control)
            .header(header::VARY, "Accept-Encoding")
            .header(header::CONTENT_LENGTH, body.len());
        if let Some(etag) = etag {
            response = response.header(header::ETAG, etag);
        }
        if let Some(value) = encoding.header_value() {
            response = response.header(header::CONTENT_ENCODING, HeaderValue::from_static(value));
        }
        let body = if method == Method::HEAD {
            Bytes::new()
        } else {
            body
        };
        match response.body(body) {
            Ok(response) => response.into_response(),
            Err(_) => plain(StatusCode::INTERNAL_SERVER_ERROR, "error"),
        }
    }
}

/// The asset a path names: the home page for `/`; none for the inbox's file name.
fn lookup(path: &str) -> Option<&str> {
    match path {
        "/" => Some(INDEX),
        ADMIN_PAGE => None,
        path => Some(path),
    }
}

/// A page's path without `.html` (`/licences.html` at `/licences`); not for the pages with a path
/// of their own (a landing page, a 404 page, the inbox).
fn clean_path(url: &str) -> Option<&str> {
    if url == ADMIN_PAGE || url.ends_with(INDEX) || url.ends_with(NOT_FOUND_PAGE) {
        return None;
    }
    url.strip_suffix(".html")
}

/// The Spanish site's folder: its pages, and its own 404 page for any path under it.
const SPANISH: &str = "/es";
const SPANISH_NOT_FOUND_PAGE: &str = "/es/404.html";

/// The 404 page in the language of the path: Spanish under `/es/`.
fn not_found_page(path: &str) -> &'static str {
    match path.strip_prefix(SPANISH) {
        Some(rest) if rest.is_empty() || rest.starts_with('/') => SPANISH_NOT_FOUND_PAGE,
        _ => NOT_FOUND_PAGE,
    }
}

fn etag(body: &[u8]) -> HeaderValue {
    let digest = sha2::Sha256::digest(body);
    let value = format!("W/\"{}\"", hex::encode(&digest[..16]));
    HeaderValue::from_str(&value).unwrap_or_else(|_| HeaderValue::from_static("W/\"0\""))
}

/// Weak comparison (RFC 9110 13.1.2): `*`, or any listed tag with the same opaque part.
fn if_none_match(headers: &HeaderMap, etag: &HeaderValue) -> bool {
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_owned();
    let ours = opaque(etag.to_str().unwrap_or_default());
    headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(','))
        .any(|tag| tag.trim() == "*" || opaque(tag) == ours)
}

fn plain(status: StatusCode, text: &'static str) -> Reply {
    warp::reply::with_status(text, status).into_response()
}

/// `/admin`, the broker's inbox page, when `enabled` (`ADMIN_PASSWORD_HASH` is set): kept out
/// of search engines (`X-Robots-Tag`) and of caches. Otherwise the path is left to the site,
/// which answers 404 like for any unknown path.
pub fn admin_page(site: Arc<Site>, enabled: bool) -> BoxedFilter<(warp::reply::Response,)> {
    if !enabled {
        return off();
    }
    warp::path!("admin")
        .and(warp::method())
        .and(warp::header::headers_cloned())
        .map(move |method: Method, headers: HeaderMap| {
            let mut response = site.serve(&method, Some(ADMIN_PAGE), NOT_FOUND_PAGE, &headers);
            let headers = response.headers_mut();
            headers.insert(
                "x-robots-tag",
                HeaderValue::from_static("noindex, nofollow"),
            );
            headers.remove(header::ETAG);
            no_store(response)
        })
        .boxed()
}

/// Every path not claimed by the API; a page (a `GET` or `HEAD` of HTML, a `304` too) sets
/// the form token's cookie.
pub fn routes(site: Arc<Site>, tokens: Arc<FormTokens>) -> BoxedFilter<(warp::reply::Response,)> {
    warp::method()
        .and(warp::path::full())
        .and(forwarded_proto::headers_and_https())
        .map(
            move |method: Method, path: warp::path::FullPath, headers: HeaderMap, https: bool| {
                let mut response = site.respond(&method, path.as_str(), &headers);
                let read = method == Method::GET || method == Method::HEAD;
                if read && site.is_page(path.as_str()) {
                    form_token_cookie::give(&tokens, &mut response, https);
                }
                response
            },
        )
        .boxed()
}
