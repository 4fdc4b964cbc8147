//! Who is calling the admin API: a script with `ADMIN_TOKEN` as a bearer token, or the inbox
//! page with its session cookie. A request acting with the cookie must come from the site
//! itself (`same_site`); a bearer request carries no cookie, so no other site can make one.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use secrecy::{ExposeSecret, SecretString};
use serde::de::DeserializeOwned;
use time::OffsetDateTime;
use warp::http::{header, HeaderMap, Method};
use warp::{Filter, Rejection};

use super::session_cookie;
use crate::http::auth::check_bearer_token;
use crate::http::body::is_json;
use crate::http::client_ip;
use crate::http::error::{store_failed, ApiError};
use crate::http::failure_limit::FailureLimit;
use crate::http::forwarded_proto::is_https;
use crate::http::same_site::from_the_site;
use crate::settings::inbox::session_cutoffs;
use crate::settings::trusted_proxies::TrustedProxies;
use crate::store::Sessions;

pub enum Caller {
    Token,
    Session { id_hash: String },
}

impl Caller {
    pub fn via(&self) -> &'static str {
        match self {
            Caller::Token => "token",
            Caller::Session { .. } => "session",
        }
    }
}

/// What the admin API checks callers against.
pub struct Access {
    pub token: Option<SecretString>,
    /// `ADMIN_PASSWORD_HASH`; sessions exist only with it.
    pub password_hash: Option<SecretString>,
    /// `ADMIN_SESSION_DAYS`: a session ends this long after sign-in.
    pub session_lifetime: Duration,
    pub sessions: Arc<dyn Sessions>,
    pub proxies: TrustedProxies,
    /// Failed sign-ins per client, shared by the token and the password.
    pub failures: Arc<FailureLimit>,
}

/// What the request says about itself, for `Access::identify`.
pub struct RequestFacts {
    pub method: Method,
    pub headers: HeaderMap,
    pub peer: Option<IpAddr>,
}

impl RequestFacts {
    pub fn https(&self, proxies: &TrustedProxies) -> bool {
        is_https(proxies, self.peer, &self.headers)
    }

    /// The client's address behind trusted proxies (`None` outside a real connection).
    pub fn client(&self, proxies: &TrustedProxies) -> Option<IpAddr> {
        self.peer.map(|peer| proxies.client(peer, &self.headers))
    }

    /// The JSON `body` as a `T`: 415 unless sent as JSON, 400 saying `form` unless it is one.
    pub fn json<T: DeserializeOwned>(&self, body: &[u8], form: &str) -> Result<T, ApiError> {
        if !is_json(self.headers.get(header::CONTENT_TYPE)) {
            return Err(ApiError::UnsupportedMediaType);
        }
        serde_json::from_slice(body).map_err(|_| ApiError::MalformedJson(form.into()))
    }
}

pub fn request_facts(
) -> impl Filter<Extract = (RequestFacts,), Error = std::convert::Infallible> + Clone {
    warp::method()
        .and(warp::header::headers_cloned())
        .and(client_ip::peer())
        .map(|method, headers, peer: Option<SocketAddr>| RequestFacts {
            method,
            headers,
            peer: peer.map(|p| p.ip()),
        })
}

/// The caller, or the refusal: 401 without valid credentials, 403 for a cookie request that
/// changes something and does not come from the site.
pub fn caller(access: Arc<Access>) -> impl Filter<Extract = (Caller,), Error = Rejection> + Clone {
    request_facts().and_then(move |facts: RequestFacts| {
        let access = Arc::clone(&access);
        async move { access.identify(&facts).await.map_err(warp::reject::custom) }
    })
}

impl Access {
    pub async fn identify(&self, facts: &RequestFacts) -> Result<Caller, ApiError> {
        let refused = ApiError::Unauthorized {
            challenge: self.token.as_ref().map(|_| "Bearer"),
        };
        if facts.headers.contains_key(header::AUTHORIZATION) {
            let Some(token) = &self.token else {
                return Err(refused);
            };
            let client = facts.client(&self.proxies);
            return check_bearer_token(
                token.expose_secret(),
                &self.failures,
                client,
                &facts.headers,
            )
            .map(|()| Caller::Token);
        }
        let https = facts.https(&self.proxies);
        if !facts.method.is_safe() && !from_the_site(&facts.headers, https) {
            return Err(ApiError::CrossSite);
        }
        let Some(password_hash) = &self.password_hash else {
            return Err(refused);
        };
        let Some(id) = session_cookie::read(&facts.headers, https) else {
            return Err(refused);
        };
        let id_hash = session_cookie::id_hash(&id, password_hash);
        let now = OffsetDateTime::now_utc();
        let live = self
            .sessions
            .touch_session(
                id_hash.clone(),
                now,
                session_cutoffs(now, self.session_lifetime),
            )
            .await
            .map_err(store_failed("reading the session failed"))?;
        if live {
            Ok(Caller::Session { id_hash })
        } else {
            Err(refused)
        }
    }
}
