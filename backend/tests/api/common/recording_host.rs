//! Stand-ins for the voice provider's recording storage (`storage.vapi.ai`), each on loopback,
//! listed in `RECORDING_ORIGINS` by address as a test lists them: `RecordingHost` serves one
//! recording at its URL (WAV, or whatever type and bytes a test gives it), can be told to fail
//! (503) or to have lost it (404), and redirects `/redirect` where it is told; `SilentHost`
//! answers with a head of its choosing, or nothing, and never sends a body; `UnreachedHost`
//! takes no connection, so a test can tell that none was made.

use std::io::ErrorKind;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use tokio::io::{AsyncReadExt, AsyncWriteExt};
use warp::http::{Response, StatusCode};
use warp::Filter;

pub struct RecordingHost {
    /// Where the recording is, as an end-of-call report names it.
    pub url: String,
    /// What it serves: a WAV header and noise, a few hundred kilobytes, unless a test chose.
    pub audio: Vec<u8>,
    addr: SocketAddr,
    /// 200 serves the recording; anything else is answered with that status.
    status: Arc<AtomicU16>,
    served: Arc<AtomicUsize>,
    redirect: Arc<Mutex<String>>,
}

impl RecordingHost {
    pub async fn start() -> RecordingHost {
        RecordingHost::serving("audio/wav", wav(300_000)).await
    }

    /// Serves `body` as `content_type`.
    pub async fn serving(content_type: &'static str, body: Vec<u8>) -> RecordingHost {
        let status = Arc::new(AtomicU16::new(200));
        let served = Arc::new(AtomicUsize::new(0));
        let redirect = Arc::new(Mutex::new(String::new()));
        let (audio, answer, count) = (body.clone(), Arc::clone(&status), Arc::clone(&served));
        let recording =
            warp::get()
                .and(warp::path!("recordings" / String))
                .map(move |_name: String| {
                    count.fetch_add(1, Ordering::SeqCst);
                    let status = StatusCode::from_u16(answer.load(Ordering::SeqCst)).unwrap();
                    let builder = Response::builder().status(status);
                    if status == StatusCode::OK {
                        builder
                            .header("content-type", content_type)
                            .body(audio.clone())
                            .unwrap()
                    } else {
                        builder.body(Vec::new()).unwrap()
                    }
                });
        let to = Arc::clone(&redirect);
        let redirect_route = warp::get().and(warp::path!("redirect")).map(move || {
            Response::builder()
                .status(StatusCode::FOUND)
                .header("location", to.lock().unwrap().as_str())
                .body(Vec::new())
                .unwrap()
        });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        tokio::spawn(
            warp::serve(recording.or(redirect_route))
                .incoming(listener)
                .run(),
        );
        RecordingHost {
            url: format!("http://{addr}/recordings/0c5f-mono.wav"),
            audio: body,
            addr,
            status,
            served,
            redirect,
        }
    }

    /// Its origin, as `RECORDING_ORIGINS` lists it.
    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    /// `/redirect`'s URL, which answers 302 to `to`.
    pub fn redirecting_to(&self, to: &str) -> String {
        *self.redirect.lock().unwrap() = to.to_owned();
        format!("http://{}/redirect", self.addr)
    }

    /// Answers every request with `status` from now on (200 serves the recording again).
    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    pub fn requests(&self) -> usize {
        self.served.load(Ordering::SeqCst)
    }
}

/// A host that reads each request and answers `head` (nothing when empty), then holds the
/// connection without a byte more, as a stalled storage host does.
pub struct SilentHost {
    pub url: String,
    addr: SocketAddr,
    connections: Arc<AtomicUsize>,
}

impl SilentHost {
    pub async fn start(head: &'static str) -> SilentHost {
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr = listener.local_addr().unwrap();
        let connections = Arc::new(AtomicUsize::new(0));
        let count = Arc::clone(&connections);
        tokio::spawn(async move {
            while let Ok((mut socket, _)) = listener.accept().await {
                count.fetch_add(1, Ordering::SeqCst);
                tokio::spawn(async move {
                    let mut request = Vec::new();
                    let mut buffer = [0u8; 1024];
                    while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                        match socket.read(&mut buffer).await {
                            Ok(0) | Err(_) => return,
                            Ok(n) => request.extend_from_slice(&buffer[..n]),
                        }
                    }
                    let _ = socket.write_all(head.as_bytes()).await;
                    // Held until the client gives up.
                    let _ = socket.read(&mut buffer).await;
                });
            }
        });
        SilentHost {
            url: format!("http://{addr}/recordings/stalled.wav"),
            addr,
            connections,
        }
    }

    pub fn origin(&self) -> String {
        format!("http://{}", self.addr)
    }

    pub fn connections(&self) -> usize {
        self.connections.load(Ordering::SeqCst)
    }
}

/// A port that is listened on but never accepted from: a connection made to it waits in the
/// backlog, so `assert_never_connected` after the copy was recorded tells whether one was tried.
pub struct UnreachedHost {
    listener: std::net::TcpListener,
}

impl UnreachedHost {
    pub fn start() -> UnreachedHost {
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        listener.set_nonblocking(true).unwrap();
        UnreachedHost { listener }
    }

    pub fn port(&self) -> u16 {
        self.listener.local_addr().unwrap().port()
    }

    pub fn url(&self) -> String {
        format!("http://127.0.0.1:{}/recordings/inside.wav", self.port())
    }

    pub fn assert_never_connected(&self) {
        match self.listener.accept() {
            Err(error) if error.kind() == ErrorKind::WouldBlock => {}
            other => panic!("a connection was made: {other:?}"),
        }
    }
}

/// A 16-bit mono WAV of `bytes` bytes of noise.
pub fn wav(bytes: u32) -> Vec<u8> {
    let mut audio = Vec::with_capacity(bytes as usize + 44);
    audio.extend_from_slice(b"RIFF");
    audio.extend_from_slice(&(bytes + 36).to_le_bytes());
    audio.extend_from_slice(b"WAVEfmt ");
    audio.extend_from_slice(&16u32.to_le_bytes());
    audio.extend_from_slice(&1u16.to_le_bytes());
    audio.extend_from_slice(&1u16.to_le_bytes());
    audio.extend_from_slice(&16_000u32.to_le_bytes());
    audio.extend_from_slice(&32_000u32.to_le_bytes());
    audio.extend_from_slice(&2u16.to_le_bytes());
    audio.extend_from_slice(&16u16.to_le_bytes());
    audio.extend_from_slice(b"data");
    audio.extend_from_slice(&bytes.to_le_bytes());
    let mut seed = 0x2545_f491u32;
    audio.extend((0..bytes).map(|_| {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed as u8
    }));
    audio
}
