//! A response the client does not take within a bounded time is cut off.
//!
//! The clock starts when the socket first refuses bytes (its send buffer is full: the client reads
//! slowly or not at all) and stops only once hyper has handed everything it holds to the kernel
//! (hyper flushes the socket only when its own buffer is empty). Progress does not reset it: a
//! timeout restarted by every write (as `tokio-io-timeout`'s) lets a client that reads a few bytes
//! now and then keep its connection, and a file descriptor, for as long as it likes.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::task::{Context, Poll};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::time::Sleep;

/// A socket whose writes must drain within `timeout` of the first one that had to wait.
pub struct SendDeadline<T> {
    io: T,
    timeout: Duration,
    deadline: Option<Pin<Box<Sleep>>>,
}

impl<T> SendDeadline<T> {
    pub fn new(io: T, timeout: Duration) -> SendDeadline<T> {
        SendDeadline {
            io,
            timeout,
            deadline: None,
        }
    }

    /// Called when the socket cannot take more: starts the clock if it is not running, and fails
    /// once it has run out.
    fn waiting<R>(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<R>> {
        let timeout = self.timeout;
        let deadline = self
            .deadline
            .get_or_insert_with(|| Box::pin(tokio::time::sleep(timeout)));
        match deadline.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(Err(io::Error::new(
                io::ErrorKind::TimedOut,
                "the client did not read the response in time",
            ))),
            Poll::Pending => Poll::Pending,
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for SendDeadline<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for SendDeadline<T> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.io).poll_write(cx, buf) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        match Pin::new(&mut self.io).poll_write_vectored(cx, bufs) {
            Poll::Pending => self.waiting(cx),
            ready => ready,
        }
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match Pin::new(&mut self.io).poll_flush(cx) {
            Poll::Ready(Ok(())) => {
                self.deadline = None;
                Poll::Ready(Ok(()))
            }
            Poll::Pending => self.waiting(cx),
            failed => failed,
        }
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tokio::io::{AsyncReadExt, AsyncWriteExt};

    use super::*;

    const TIMEOUT: Duration = Duration::from_millis(300);

    /// More than the duplex pipe below can hold, so the writer has to wait for the reader.
    fn response() -> Vec<u8> {
        vec![b'x'; 64 * 1024]
    }

    #[tokio::test]
    async fn a_response_nobody_reads_is_cut_off_at_the_deadline() {
        let (server, _client) = tokio::io::duplex(1024);
        let mut socket = SendDeadline::new(server, TIMEOUT);
        let start = Instant::now();
        let error = socket.write_all(&response()).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        assert!(start.elapsed() >= TIMEOUT, "{:?}", start.elapsed());
    }

    #[tokio::test]
    async fn a_client_that_keeps_reading_a_little_is_cut_off_all_the_same() {
        let (server, mut client) = tokio::io::duplex(1024);
        let trickle = tokio::spawn(async move {
            let mut byte = [0u8; 16];
            let mut read = 0;
            while let Ok(n @ 1..) = client.read(&mut byte).await {
                read += n;
                tokio::time::sleep(TIMEOUT / 10).await;
            }
            read
        });
        let mut socket = SendDeadline::new(server, TIMEOUT);
        let error = socket.write_all(&response()).await.unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::TimedOut);
        drop(socket);
        let read = trickle.await.unwrap();
        assert!(read > 0 && read < response().len(), "read {read} bytes");
    }

    #[tokio::test]
    async fn a_reader_that_keeps_up_gets_every_response_however_long_the_connection() {
        let (server, mut client) = tokio::io::duplex(1024);
        let reader = tokio::spawn(async move {
            let mut all = Vec::new();
            client.read_to_end(&mut all).await.map(|_| all.len())
        });
        let mut socket = SendDeadline::new(server, TIMEOUT);
        let start = Instant::now();
        let mut sent = 0;
        // Each response drains in time; the clock stops at each flush, so the connection may
        // outlive the deadline many times over.
        while start.elapsed() < TIMEOUT * 3 {
            socket.write_all(&response()).await.unwrap();
            socket.flush().await.unwrap();
            sent += response().len();
        }
        socket.shutdown().await.unwrap();
        drop(socket);
        assert_eq!(reader.await.unwrap().unwrap(), sent);
    }
}
