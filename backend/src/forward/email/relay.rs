//! Connections to the relay, opened and kept by us rather than by lettre's pool so they can have
//! TCP_NODELAY: lettre writes a message's body and its closing `.` in two writes, and without it
//! the second waits for the relay's delayed ACK (40 ms on Linux) on every message. lettre still
//! speaks SMTP on them (greeting, EHLO, STARTTLS, AUTH, each message).

use std::io;
use std::time::Duration;

use deadpool::managed::{self, Metrics, RecycleError, RecycleResult};
use lettre::transport::smtp::authentication::DEFAULT_MECHANISMS;
use lettre::transport::smtp::client::{AsyncSmtpConnection, Certificate, TlsParameters};
use lettre::transport::smtp::extension::ClientId;
use lettre::transport::smtp::response::Response;
use tokio::net::TcpStream;

use crate::settings::email::{SmtpTls, SmtpUrl};

/// A connection unused for longer than this is asked `NOOP` before its next message: relays close
/// idle connections (Postfix after 300 s), and a dead one would cost the message a retry.
const IDLE_CHECK_AFTER: Duration = Duration::from_secs(5);

#[derive(Debug, thiserror::Error)]
pub enum ConnectError {
    #[error("cannot connect to the relay: {0}")]
    Io(#[from] io::Error),
    #[error(transparent)]
    Smtp(#[from] lettre::transport::smtp::Error),
}

/// One connection and whether it is between messages: one dropped mid-message (its delivery
/// timed out) is never handed out again.
pub struct Connection {
    smtp: AsyncSmtpConnection,
    idle: bool,
}

impl Connection {
    pub async fn send(
        &mut self,
        envelope: &lettre::address::Envelope,
        message: &[u8],
    ) -> Result<Response, lettre::transport::smtp::Error> {
        self.idle = false;
        let reply = self.smtp.send(envelope, message).await?;
        self.idle = true;
        Ok(reply)
    }
}

/// How to reach the relay: what `SMTP_URL` and `SMTP_CA_FILE` say.
pub struct Relay {
    url: SmtpUrl,
    tls: Option<TlsParameters>,
    hello_name: ClientId,
    connect_timeout: Duration,
}

impl Relay {
    pub fn new(
        url: SmtpUrl,
        extra_roots: Option<&[u8]>,
        connect_timeout: Duration,
    ) -> Result<Relay, lettre::transport::smtp::Error> {
        let tls = match url.tls {
            SmtpTls::None => None,
            _ => {
                let mut parameters = TlsParameters::builder(url.host.clone());
                if let Some(pem) = extra_roots {
                    parameters = parameters.add_root_certificate(Certificate::from_pem(pem)?);
                }
                Some(parameters.build_rustls()?)
            }
        };
        let hello_name = url
            .hello_name
            .as_deref()
            .map_or_else(ClientId::default, |name| ClientId::Domain(name.to_owned()));
        Ok(Relay {
            url,
            tls,
            hello_name,
            connect_timeout,
        })
    }

    async fn open(&self) -> Result<AsyncSmtpConnection, ConnectError> {
        let address = (self.url.host.as_str(), self.url.port);
        let mut smtp = match (self.url.tls, &self.tls) {
            // lettre's TLS stream type is not public, so it opens TLS-from-the-first-byte
            // connections itself, without TCP_NODELAY.
            (SmtpTls::Wrapper, Some(tls)) => {
                AsyncSmtpConnection::connect_tokio1(
                    address,
                    Some(self.connect_timeout),
                    &self.hello_name,
                    Some(tls.clone()),
                    None,
                )
                .await?
            }
            _ => {
                let tcp = tokio::time::timeout(self.connect_timeout, TcpStream::connect(address))
                    .await
                    .map_err(|_| {
                        io::Error::new(io::ErrorKind::TimedOut, "connection timed out")
                    })??;
                tcp.set_nodelay(true)?;
                AsyncSmtpConnection::connect_with_transport(Box::new(tcp), &self.hello_name).await?
            }
        };
        match (self.url.tls, &self.tls) {
            (SmtpTls::Required, Some(tls)) => smtp.starttls(tls.clone(), &self.hello_name).await?,
            (SmtpTls::Opportunistic, Some(tls)) if smtp.can_starttls() => {
                smtp.starttls(tls.clone(), &self.hello_name).await?
            }
            _ => {}
        }
        if let Some(credentials) = &self.url.credentials {
            smtp.auth(DEFAULT_MECHANISMS, credentials).await?;
        }
        Ok(smtp)
    }
}

impl managed::Manager for Relay {
    type Type = Connection;
    type Error = ConnectError;

    async fn create(&self) -> Result<Connection, ConnectError> {
        Ok(Connection {
            smtp: self.open().await?,
            idle: true,
        })
    }

    async fn recycle(
        &self,
        connection: &mut Connection,
        metrics: &Metrics,
    ) -> RecycleResult<ConnectError> {
        let usable = connection.idle
            && !connection.smtp.has_broken()
            && (metrics.last_used() < IDLE_CHECK_AFTER || connection.smtp.test_connected().await);
        if usable {
            Ok(())
        } else {
            Err(RecycleError::message(
                "the connection is closed or mid-message",
            ))
        }
    }
}
