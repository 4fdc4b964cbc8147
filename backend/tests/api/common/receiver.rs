//! A stand-in for the broker's system: records every lead delivery it is sent, and can be told
//! to fail (answer 503) so the tests can watch the forwarder retry.

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use super::eventually::eventually;

use bytes::Bytes;
use warp::http::{HeaderMap, StatusCode};
use warp::Filter;

#[derive(Clone, Debug)]
pub struct Delivery {
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Delivery {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body).expect("a JSON lead")
    }

    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|v| v.to_str().ok())
    }
}

#[derive(Default)]
struct State {
    up: AtomicBool,
    /// When set, every `flap`-th request succeeds and the rest fail, even while "up".
    flap: AtomicUsize,
    seen: AtomicUsize,
    accepted: Mutex<Vec<Delivery>>,
    refused: AtomicUsize,
}

pub struct Receiver {
    pub url: reqwest::Url,
    state: Arc<State>,
    stop: Option<tokio::sync::oneshot::Sender<()>>,
}

impl Receiver {
    pub async fn start(up: bool) -> Receiver {
        let state = Arc::new(State {
            up: AtomicBool::new(up),
            ..State::default()
        });
        let shared = Arc::clone(&state);
        let route = warp::post()
            .and(warp::header::headers_cloned())
            .and(warp::body::bytes())
            .map(move |headers: HeaderMap, body: Bytes| {
                let n = shared.seen.fetch_add(1, Ordering::SeqCst);
                let flap = shared.flap.load(Ordering::SeqCst);
                let ok = shared.up.load(Ordering::SeqCst) && (flap == 0 || n % flap == 0);
                if ok {
                    shared
                        .accepted
                        .lock()
                        .unwrap()
                        .push(Delivery { headers, body });
                    StatusCode::NO_CONTENT
                } else {
                    shared.refused.fetch_add(1, Ordering::SeqCst);
                    StatusCode::SERVICE_UNAVAILABLE
                }
            });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = warp::serve(route).incoming(listener).graceful(async {
            let _ = stopped.await;
        });
        tokio::spawn(server.run());
        Receiver {
            url: format!("http://{addr}/leads").parse().unwrap(),
            state,
            stop: Some(stop),
        }
    }

    pub fn set_up(&self, up: bool) {
        self.state.up.store(up, Ordering::SeqCst);
    }

    /// Accept only one request in `every` (0 turns flapping off).
    pub fn set_flapping(&self, every: usize) {
        self.state.flap.store(every, Ordering::SeqCst);
    }

    pub fn accepted(&self) -> Vec<Delivery> {
        self.state.accepted.lock().unwrap().clone()
    }

    pub fn refused(&self) -> usize {
        self.state.refused.load(Ordering::SeqCst)
    }

    /// The accepted deliveries once `done` holds for them.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[Delivery]) -> bool) -> Vec<Delivery> {
        eventually(what, || async {
            let accepted = self.accepted();
            if done(&accepted) {
                Ok(accepted)
            } else {
                Err(format!("{} accepted", accepted.len()))
            }
        })
        .await
    }
}

impl Drop for Receiver {
    fn drop(&mut self) {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
    }
}
