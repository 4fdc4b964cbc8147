//! A stand-in for the voice provider's recording storage (`storage.vapi.ai`): serves one
//! recording at its URL as WAV, and can be told to fail (503) or to have lost it (404).

use std::net::SocketAddr;
use std::sync::atomic::{AtomicU16, AtomicUsize, Ordering};
use std::sync::Arc;

use warp::http::{Response, StatusCode};
use warp::Filter;

pub struct RecordingHost {
    /// Where the recording is, as an end-of-call report names it.
    pub url: String,
    /// What it serves: a WAV header and noise, a few hundred kilobytes.
    pub audio: Vec<u8>,
    /// 200 serves the recording; anything else is answered with that status.
    status: Arc<AtomicU16>,
    served: Arc<AtomicUsize>,
}

impl RecordingHost {
    pub async fn start() -> RecordingHost {
        let audio = wav(300_000);
        let status = Arc::new(AtomicU16::new(200));
        let served = Arc::new(AtomicUsize::new(0));
        let (body, answer, count) = (audio.clone(), Arc::clone(&status), Arc::clone(&served));
        let route =
            warp::get()
                .and(warp::path!("recordings" / String))
                .map(move |_name: String| {
                    count.fetch_add(1, Ordering::SeqCst);
                    let status = StatusCode::from_u16(answer.load(Ordering::SeqCst)).unwrap();
                    let builder = Response::builder().status(status);
                    if status == StatusCode::OK {
                        builder
                            .header("content-type", "audio/wav")
                            .body(body.clone())
                            .unwrap()
                    } else {
                        builder.body(Vec::new()).unwrap()
                    }
                });
        let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
        let addr: SocketAddr = listener.local_addr().unwrap();
        tokio::spawn(warp::serve(route).incoming(listener).run());
        RecordingHost {
            url: format!("http://{addr}/recordings/0c5f-mono.wav"),
            audio,
            status,
            served,
        }
    }

    /// Answers every request with `status` from now on (200 serves the recording again).
    pub fn answer(&self, status: u16) {
        self.status.store(status, Ordering::SeqCst);
    }

    pub fn requests(&self) -> usize {
        self.served.load(Ordering::SeqCst)
    }
}

/// A 16-bit mono WAV of `bytes` bytes of noise.
fn wav(bytes: u32) -> Vec<u8> {
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
