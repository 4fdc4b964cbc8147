//! Fetching one call recording from the provider's storage, and nothing else.
//!
//! The URL comes in a webhook post, so the copier must not become a way into the server's own
//! network: a URL, and every redirect on the way, must be on `RECORDING_ORIGINS` (checked before
//! any connection), and a listed host name must resolve to public addresses only, checked by the
//! client's own resolver on the very addresses it then connects to (a name that resolved to a
//! public address when checked and to a private one when used would pass a check made apart).
//! An origin listed by address is taken as listed: that is how a test lists its stand-in.
//!
//! A copy is bounded in size (`limit`, the per-copy cap or what is left of `RECORDINGS_MAX_MB`)
//! and in pace: a host that sends nothing for `Pace::idle`, or less than `Pace::min_rate` on
//! average once `Pace::grace` has passed, is left for a later try.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect::Policy;
use sha2::{Digest, Sha256};
use tokio::time::{timeout, Instant};
use url::Url;

use crate::leads::recording_type::audio_type;
use crate::settings::recordings::RecordingOrigins;
use crate::store::{error_chain, StoredRecording};

/// More hops than a storage service's signed-URL redirect takes.
const MAX_REDIRECTS: usize = 5;
const CONNECT_TIMEOUT: Duration = Duration::from_secs(10);

/// How slow a host may be before the copy is left for a later try.
#[derive(Clone, Copy, Debug)]
pub struct Pace {
    /// The longest wait for the answer's head, or for the next piece of its body.
    pub idle: Duration,
    /// How long a download may take before its average rate is held to `min_rate`.
    pub grace: Duration,
    /// Bytes a second, on average: 256 KiB/s takes an hour's WAV (115 MB) in under 8 minutes.
    pub min_rate: u64,
}

impl Pace {
    pub const STANDARD: Pace = Pace {
        idle: Duration::from_secs(30),
        grace: Duration::from_secs(30),
        min_rate: 256 * 1024,
    };

    /// The longest a download of at most `bytes` can take at this pace.
    pub const fn longest(&self, bytes: u64) -> Duration {
        Duration::from_secs(self.grace.as_secs() + bytes / self.min_rate + self.idle.as_secs())
    }

    /// Whether `received` bytes after `elapsed` is too slow.
    fn too_slow(&self, received: u64, elapsed: Duration) -> bool {
        let Some(held) = elapsed.checked_sub(self.grace) else {
            return false;
        };
        (received as f64) < self.min_rate as f64 * held.as_secs_f64()
    }
}

/// Why a copy was not made.
#[derive(Debug, PartialEq, Eq)]
pub enum Failure {
    /// Worth another try: the host failed, was slow, or answered an error.
    Retry(String),
    /// Never worth another try: the URL, a redirect or an address is not allowed.
    Refused(String),
    /// Larger than the limit the download was given.
    TooLarge,
}

/// Why the client refused a URL, a redirect or the addresses of a name; the download finds it
/// in the request's error.
#[derive(Debug, thiserror::Error)]
enum Refused {
    #[error("{0} is not in RECORDING_ORIGINS")]
    Origin(String),
    #[error("a redirect went to {0}, which is not in RECORDING_ORIGINS")]
    Redirect(String),
    #[error("more than {MAX_REDIRECTS} redirects")]
    Redirects,
    #[error("{0} resolves to no public address (loopback, private and link-local ones are refused unless listed by address)")]
    Address(String),
}

/// The recordings' HTTP client, held to `RECORDING_ORIGINS`.
pub struct RecordingClient {
    client: reqwest::Client,
    origins: RecordingOrigins,
}

impl RecordingClient {
    pub fn new(origins: RecordingOrigins) -> Result<RecordingClient, reqwest::Error> {
        let listed = origins.clone();
        let redirects = Policy::custom(move |attempt| {
            if attempt.previous().len() >= MAX_REDIRECTS {
                attempt.error(Refused::Redirects)
            } else if listed.allows(attempt.url()) {
                attempt.follow()
            } else {
                let origin = attempt.url().origin().ascii_serialization();
                attempt.error(Refused::Redirect(origin))
            }
        });
        let client = reqwest::Client::builder()
            .redirect(redirects)
            .dns_resolver(Arc::new(PublicOnly))
            // A proxy would resolve the name itself, past the resolver's rule.
            .no_proxy()
            .connect_timeout(CONNECT_TIMEOUT)
            .user_agent(concat!("recording-copier/", env!("CARGO_PKG_VERSION")))
            .build()?;
        Ok(RecordingClient { client, origins })
    }

    /// The recording at `url`, whole, with its SHA-256, if it is at most `limit` bytes.
    pub async fn download(
        &self,
        url: &str,
        limit: u64,
        pace: Pace,
    ) -> Result<StoredRecording, Failure> {
        let parsed = Url::parse(url)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https"))
            .ok_or_else(|| Failure::Refused("not an http(s) URL".to_owned()))?;
        if !self.origins.allows(&parsed) {
            let origin = parsed.origin().ascii_serialization();
            return Err(Failure::Refused(Refused::Origin(origin).to_string()));
        }
        let started = Instant::now();
        let mut response = timeout(pace.idle, self.client.get(parsed.clone()).send())
            .await
            .map_err(|_| idle(pace))?
            .map_err(failure)?;
        let status = response.status();
        if !status.is_success() {
            return Err(Failure::Retry(format!(
                "the provider answered HTTP {}",
                status.as_u16()
            )));
        }
        if response
            .content_length()
            .is_some_and(|length| length > limit)
        {
            return Err(Failure::TooLarge);
        }
        let content_type = content_type(&response, &parsed);
        let mut audio = Vec::new();
        let mut hash = Sha256::new();
        while let Some(chunk) = timeout(pace.idle, response.chunk())
            .await
            .map_err(|_| idle(pace))?
            .map_err(failure)?
        {
            if (audio.len() + chunk.len()) as u64 > limit {
                return Err(Failure::TooLarge);
            }
            hash.update(&chunk);
            audio.extend_from_slice(&chunk);
            if pace.too_slow(audio.len() as u64, started.elapsed()) {
                return Err(Failure::Retry(format!(
                    "the provider sent less than {} bytes a second",
                    pace.min_rate
                )));
            }
        }
        if audio.is_empty() {
            return Err(Failure::Retry(
                "the provider sent an empty recording".to_owned(),
            ));
        }
        Ok(StoredRecording {
            content_type,
            sha256: hex::encode(hash.finalize()),
            audio,
        })
    }
}

fn idle(pace: Pace) -> Failure {
    Failure::Retry(format!(
        "the provider sent nothing for {} s",
        pace.idle.as_secs_f64()
    ))
}

/// A request's error: refused by the client's rules, or a failure worth another try.
fn failure(error: reqwest::Error) -> Failure {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&error);
    while let Some(cause) = source {
        if let Some(refused) = cause.downcast_ref::<Refused>() {
            return Failure::Refused(refused.to_string());
        }
        source = cause.source();
    }
    Failure::Retry(error_chain::describe(&error.without_url()))
}

/// The type the provider gave, or the one its name says when it gave only a generic one; kept
/// only if it is an audio type (`recording_type`).
fn content_type(response: &reqwest::Response, url: &Url) -> String {
    let given = response
        .headers()
        .get(reqwest::header::CONTENT_TYPE)
        .and_then(|value| value.to_str().ok())
        .filter(|value| !value.starts_with("application/octet-stream"))
        .map(str::to_owned);
    let named = || {
        mime_guess::from_path(url.path())
            .first_or_octet_stream()
            .to_string()
    };
    audio_type(&given.unwrap_or_else(named)).to_owned()
}

/// The system's resolver, less every address that is not public: a listed name that resolves
/// only to such addresses is refused.
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_owned();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let public: Vec<SocketAddr> = found
                .into_iter()
                .filter(|address| is_public(address.ip()))
                .collect();
            if public.is_empty() {
                return Err(Box::new(Refused::Address(host)) as _);
            }
            Ok(Box::new(public.into_iter()) as Addrs)
        })
    }
}

/// Not loopback, private, link-local, unspecified, shared (carrier NAT), multicast or
/// broadcast; an IPv4 address written as IPv6 is judged as IPv4.
fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let shared = v4.octets()[0] == 100 && (v4.octets()[1] & 0xc0) == 64;
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || v4.octets()[0] == 0
                || shared)
        }
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => is_public(IpAddr::V4(v4)),
            None => {
                !(v6.is_loopback()
                    || v6.is_unspecified()
                    || v6.is_unique_local()
                    || v6.is_unicast_link_local()
                    || v6.is_multicast())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::settings::trusted_proxies::ip;
    use std::str::FromStr;

    #[test]
    fn only_public_addresses_pass() {
        for public in ["93.184.215.14", "8.8.8.8", "2606:2800:21f:cb07::1"] {
            assert!(is_public(ip(public)), "{public}");
        }
        for inside in [
            "127.0.0.1",
            "127.1.2.3",
            "10.0.0.1",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "0.1.2.3",
            "100.64.0.1",
            "255.255.255.255",
            "224.0.0.1",
            "::1",
            "::",
            "fc00::1",
            "fd12:3456::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:169.254.169.254",
            "::ffff:10.1.1.1",
        ] {
            assert!(!is_public(ip(inside)), "{inside}");
        }
    }

    #[tokio::test]
    async fn a_name_resolving_to_loopback_is_refused() {
        let error = match PublicOnly
            .resolve(Name::from_str("localhost").unwrap())
            .await
        {
            Ok(addresses) => panic!("resolved: {:?}", addresses.collect::<Vec<_>>()),
            Err(error) => error,
        };
        assert!(error.downcast_ref::<Refused>().is_some(), "{error}");
    }

    /// A host on loopback that answers a head, then sends `byte` every `every`, for ever.
    async fn trickling(every: Option<Duration>) -> String {
        use tokio::io::{AsyncReadExt, AsyncWriteExt};
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        tokio::spawn(async move {
            let (mut socket, _) = listener.accept().await.unwrap();
            let mut request = [0u8; 1024];
            let _ = socket.read(&mut request).await;
            let Some(every) = every else {
                // Never answers: held until the client gives up.
                let _ = socket.read(&mut request).await;
                return;
            };
            let head =
                "HTTP/1.1 200 OK\r\ncontent-type: audio/wav\r\ncontent-length: 1000000\r\n\r\n";
            socket.write_all(head.as_bytes()).await.unwrap();
            while socket.write_all(b"x").await.is_ok() {
                tokio::time::sleep(every).await;
            }
        });
        format!("http://{addr}")
    }

    fn client(origin: &str) -> RecordingClient {
        RecordingClient::new(RecordingOrigins::parse(origin).unwrap()).unwrap()
    }

    const QUICK: Pace = Pace {
        idle: Duration::from_millis(300),
        grace: Duration::from_millis(300),
        min_rate: 1000,
    };

    /// Why a download from a host that trickles a byte `every` (or sends nothing) at the
    /// `QUICK` pace is left, which happens in seconds, not the body's million bytes later.
    async fn left(every: Option<Duration>) -> Failure {
        let origin = trickling(every).await;
        let started = Instant::now();
        let failed = client(&origin)
            .download(&format!("{origin}/r.wav"), 1 << 20, QUICK)
            .await;
        assert!(started.elapsed() < Duration::from_secs(5));
        failed.unwrap_err()
    }

    #[tokio::test]
    async fn a_host_that_answers_nothing_is_left_after_the_idle_time() {
        assert_eq!(
            left(None).await,
            Failure::Retry("the provider sent nothing for 0.3 s".to_owned())
        );
    }

    #[tokio::test]
    async fn a_host_that_trickles_is_left_once_its_average_falls_below_the_rate() {
        // A byte every 50 ms never idles 300 ms: the average is what ends it, soon after the
        // grace.
        assert_eq!(
            left(Some(Duration::from_millis(50))).await,
            Failure::Retry("the provider sent less than 1000 bytes a second".to_owned())
        );
    }

    #[tokio::test]
    async fn a_declared_length_past_the_limit_is_too_large_before_the_body() {
        let origin = trickling(Some(Duration::from_secs(60))).await;
        let failed = client(&origin)
            .download(&format!("{origin}/r.wav"), 999_999, Pace::STANDARD)
            .await;
        assert_eq!(failed, Err(Failure::TooLarge));
    }

    #[test]
    fn the_pace_holds_the_average_rate_after_the_grace() {
        let pace = Pace {
            idle: Duration::from_secs(5),
            grace: Duration::from_secs(10),
            min_rate: 1000,
        };
        assert!(!pace.too_slow(0, Duration::from_secs(10)));
        assert!(!pace.too_slow(5000, Duration::from_secs(15)));
        assert!(pace.too_slow(4999, Duration::from_secs(15)));
        assert_eq!(pace.longest(100_000), Duration::from_secs(115));
    }
}
