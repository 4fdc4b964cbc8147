//! A blocking HTTP/1.1 client on one keep-alive connection: the same few instructions a request
//! whichever stack answers, and on its own thread, so callgrind counts it apart from the server.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};

pub struct Client {
    stream: TcpStream,
    buffer: Vec<u8>,
}

/// A response's status line and headers as sent, and its body.
pub struct Answer {
    pub head: String,
    pub body: Vec<u8>,
}

impl Answer {
    pub fn status(&self) -> u16 {
        self.head
            .split(' ')
            .nth(1)
            .and_then(|code| code.parse().ok())
            .unwrap_or(0)
    }

    /// The first value of the header `name` (any case).
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|line| {
            let (key, value) = line.split_once(':')?;
            key.eq_ignore_ascii_case(name).then(|| value.trim())
        })
    }
}

impl Client {
    pub fn connect(addr: SocketAddr) -> Client {
        let stream = TcpStream::connect(addr).expect("the server accepts");
        stream.set_nodelay(true).expect("TCP_NODELAY");
        Client {
            stream,
            buffer: Vec::with_capacity(256 * 1024),
        }
    }

    /// Sends `request` (a whole HTTP/1.1 request) and reads its answer, which must have a
    /// `Content-Length` (both stacks send one for every response the bench asks for).
    pub fn send(&mut self, request: &[u8]) -> Answer {
        self.stream.write_all(request).expect("request sent");
        self.buffer.clear();
        let head_end = loop {
            if let Some(at) = self.buffer.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            self.fill();
        };
        let head = String::from_utf8_lossy(&self.buffer[..head_end]).into_owned();
        let mut answer = Answer {
            head,
            body: Vec::new(),
        };
        let length: usize = answer
            .header("content-length")
            .and_then(|value| value.parse().ok())
            .unwrap_or_else(|| panic!("no Content-Length in {}", answer.head));
        while self.buffer.len() < head_end + length {
            self.fill();
        }
        answer.body = self.buffer[head_end..head_end + length].to_vec();
        answer
    }

    fn fill(&mut self) {
        let mut chunk = [0u8; 64 * 1024];
        let read = self.stream.read(&mut chunk).expect("response read");
        assert!(read > 0, "the server closed the connection");
        self.buffer.extend_from_slice(&chunk[..read]);
    }
}
