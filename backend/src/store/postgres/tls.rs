//! TLS to PostgreSQL as libpq does it: `sslmode` (`disable`, `prefer`, `require`, `verify-ca`,
//! `verify-full`) and `sslrootcert` in `DATABASE_URL`. tokio-postgres knows only the first three
//! modes and no `sslrootcert`, so both are taken out of the URL here and turned into its
//! `SslMode` and a rustls configuration.
//!
//! As in libpq, `prefer` and `require` encrypt without checking the certificate unless
//! `sslrootcert` names a file (then the chain is checked, as `verify-ca` does); `verify-ca` checks
//! the chain only, `verify-full` the chain and that the certificate names the host. The roots are
//! the platform's (`sslrootcert=system`, or no `sslrootcert`) or the PEM file `sslrootcert` names.

use std::fmt;
use std::sync::Arc;

use rustls::client::danger::{HandshakeSignatureValid, ServerCertVerified, ServerCertVerifier};
use rustls::client::WebPkiServerVerifier;
use rustls::crypto::{CryptoProvider, WebPkiSupportedAlgorithms};
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, ServerName, UnixTime};
use rustls::{
    CertificateError, ClientConfig, DigitallySignedStruct, RootCertStore, SignatureScheme,
};
use tokio_postgres::config::{Host, SslMode};
use tokio_postgres_rustls::MakeRustlsConnect;

use super::super::{Cause, StoreError};

/// libpq's `sslmode` values (its default is `prefer`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Disable,
    Prefer,
    Require,
    VerifyCa,
    VerifyFull,
}

impl Mode {
    fn parse(value: &str) -> Result<Mode, StoreError> {
        Ok(match value {
            "disable" => Mode::Disable,
            "prefer" => Mode::Prefer,
            "require" => Mode::Require,
            "verify-ca" => Mode::VerifyCa,
            "verify-full" => Mode::VerifyFull,
            // libpq's `allow` tries without TLS first: nothing a server worth protecting wants.
            other => {
                return Err(setting_error(format!(
                "sslmode={other:?} is not one of disable, prefer, require, verify-ca, verify-full"
            )))
            }
        })
    }
}

/// How much of the server's certificate is checked.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Check {
    /// Encrypted, but any certificate is taken (libpq's `require` without `sslrootcert`).
    Nothing,
    /// Signed by a trusted root; any host name.
    Chain,
    /// Signed by a trusted root and naming the host connected to.
    ChainAndHost,
}

/// `DATABASE_URL` with `sslmode` and `sslrootcert` read: the client's settings and its TLS.
pub(super) struct Connection {
    pub config: tokio_postgres::Config,
    pub tls: MakeRustlsConnect,
    /// What the log says about the connection's encryption (`sslmode=...`).
    pub sslmode: &'static str,
}

impl fmt::Debug for Connection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Connection")
            .field("sslmode", &self.sslmode)
            .finish_non_exhaustive()
    }
}

/// A setting that must change: retrying will not help.
fn setting_error(message: String) -> StoreError {
    StoreError::Unusable(Cause::from(format!("DATABASE_URL: {message}")))
}

/// Parses `url` (a `postgres://` URL) with libpq's TLS parameters.
pub(super) fn connection(url: &str) -> Result<Connection, StoreError> {
    let (rest, mode, root_cert) = take_tls_parameters(url)?;
    let mut config: tokio_postgres::Config = rest.parse().map_err(|e: tokio_postgres::Error| {
        StoreError::Database(Cause::new(format!("DATABASE_URL: {e}"), e))
    })?;
    let mode = mode.unwrap_or(Mode::Prefer);
    // As libpq: no TLS over Unix sockets (the server offers none there), whatever sslmode says.
    let only_sockets = config
        .get_hosts()
        .iter()
        .all(|host| !matches!(host, Host::Tcp(_)));
    config.ssl_mode(match mode {
        _ if only_sockets && !config.get_hosts().is_empty() => SslMode::Disable,
        Mode::Disable => SslMode::Disable,
        Mode::Prefer => SslMode::Prefer,
        Mode::Require | Mode::VerifyCa | Mode::VerifyFull => SslMode::Require,
    });
    let check = match (mode, &root_cert) {
        (Mode::VerifyFull, _) => Check::ChainAndHost,
        (Mode::VerifyCa, _) => Check::Chain,
        // libpq checks the chain whenever it has a root certificate to check it against.
        (_, Some(_)) => Check::Chain,
        (_, None) => Check::Nothing,
    };
    let tls = match mode {
        // Never used: tokio-postgres does not start TLS with `SslMode::Disable`.
        Mode::Disable => client_config(Check::Nothing, None)?,
        _ => client_config(check, root_cert.as_deref())?,
    };
    let sslmode = match mode {
        Mode::Disable => "disable",
        Mode::Prefer => "prefer",
        Mode::Require => "require",
        Mode::VerifyCa => "verify-ca",
        Mode::VerifyFull => "verify-full",
    };
    Ok(Connection {
        config,
        tls: MakeRustlsConnect::new(tls),
        sslmode,
    })
}

/// `url` without its `sslmode` and `sslrootcert` parameters, and their values. The other
/// parameters are kept as written (tokio-postgres reads them).
fn take_tls_parameters(url: &str) -> Result<(String, Option<Mode>, Option<String>), StoreError> {
    let Some((base, query)) = url.split_once('?') else {
        return Ok((url.to_owned(), None, None));
    };
    let mut mode = None;
    let mut root_cert = None;
    let mut kept = Vec::new();
    for pair in query.split('&').filter(|pair| !pair.is_empty()) {
        let (name, value) = form_urlencoded::parse(pair.as_bytes())
            .next()
            .unwrap_or_default();
        match &*name {
            "sslmode" => mode = Some(Mode::parse(&value)?),
            "sslrootcert" => root_cert = Some(value.into_owned()),
            _ => kept.push(pair),
        }
    }
    let rest = match kept.is_empty() {
        true => base.to_owned(),
        false => format!("{base}?{}", kept.join("&")),
    };
    Ok((rest, mode, root_cert))
}

/// ring, as reqwest and lettre use: named here so no process-wide default is needed.
fn provider() -> Arc<CryptoProvider> {
    Arc::new(rustls::crypto::ring::default_provider())
}

fn client_config(check: Check, root_cert: Option<&str>) -> Result<ClientConfig, StoreError> {
    let provider = provider();
    let builder = ClientConfig::builder_with_provider(Arc::clone(&provider))
        .with_safe_default_protocol_versions()
        .map_err(|e| StoreError::Database(Cause::of(e)))?;
    let algorithms = provider.signature_verification_algorithms;
    let verifier: Arc<dyn ServerCertVerifier> = match check {
        Check::Nothing => Arc::new(LibpqVerifier {
            chain: None,
            algorithms,
        }),
        Check::Chain | Check::ChainAndHost => {
            let roots = Arc::new(roots(root_cert)?);
            let webpki = WebPkiServerVerifier::builder_with_provider(roots, provider)
                .build()
                .map_err(|e| setting_error(format!("the root certificates: {e}")))?;
            match check {
                Check::ChainAndHost => webpki,
                _ => Arc::new(LibpqVerifier {
                    chain: Some(webpki),
                    algorithms,
                }),
            }
        }
    };
    Ok(builder
        .dangerous()
        .with_custom_certificate_verifier(verifier)
        .with_no_client_auth())
}

/// The certificates in the PEM file `sslrootcert` names, or the platform's roots (for no
/// `sslrootcert`, or libpq's `sslrootcert=system`).
fn roots(root_cert: Option<&str>) -> Result<RootCertStore, StoreError> {
    let mut roots = RootCertStore::empty();
    match root_cert {
        Some(path) if path != "system" => {
            let certs = CertificateDer::pem_file_iter(path)
                .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
                .map_err(|e| setting_error(format!("sslrootcert={path}: {e}")))?;
            let (added, _) = roots.add_parsable_certificates(certs);
            if added == 0 {
                return Err(setting_error(format!(
                    "sslrootcert={path} holds no certificate (a PEM file is expected)"
                )));
            }
        }
        _ => {
            let found = rustls_native_certs::load_native_certs();
            roots.add_parsable_certificates(found.certs);
            if roots.is_empty() {
                return Err(setting_error(
                    "no platform root certificates to check the server's against (Debian: \
                     apt-get install ca-certificates), or name its CA with sslrootcert=PATH"
                        .into(),
                ));
            }
        }
    }
    Ok(roots)
}

/// libpq's checks short of `verify-full`: the chain only (`chain`), or nothing. The handshake's
/// signatures are always checked, so the server holds the key of the certificate it sent.
#[derive(Debug)]
struct LibpqVerifier {
    chain: Option<Arc<WebPkiServerVerifier>>,
    algorithms: WebPkiSupportedAlgorithms,
}

impl ServerCertVerifier for LibpqVerifier {
    fn verify_server_cert(
        &self,
        end_entity: &CertificateDer<'_>,
        intermediates: &[CertificateDer<'_>],
        server_name: &ServerName<'_>,
        ocsp_response: &[u8],
        now: UnixTime,
    ) -> Result<ServerCertVerified, rustls::Error> {
        let Some(chain) = &self.chain else {
            return Ok(ServerCertVerified::assertion());
        };
        // webpki checks the name last, so a wrong name means the chain was good.
        match chain.verify_server_cert(end_entity, intermediates, server_name, ocsp_response, now) {
            Err(rustls::Error::InvalidCertificate(
                CertificateError::NotValidForName | CertificateError::NotValidForNameContext { .. },
            )) => Ok(ServerCertVerified::assertion()),
            other => other,
        }
    }

    fn verify_tls12_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls12_signature(message, cert, dss, &self.algorithms)
    }

    fn verify_tls13_signature(
        &self,
        message: &[u8],
        cert: &CertificateDer<'_>,
        dss: &DigitallySignedStruct,
    ) -> Result<HandshakeSignatureValid, rustls::Error> {
        rustls::crypto::verify_tls13_signature(message, cert, dss, &self.algorithms)
    }

    fn supported_verify_schemes(&self) -> Vec<SignatureScheme> {
        self.algorithms.supported_schemes()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tls_parameters_are_taken_out_and_the_rest_kept() {
        let (rest, mode, root) = take_tls_parameters(
            "postgres://q:p%40ss@db/quotes?sslmode=verify-full&application_name=a%20b&sslrootcert=%2Fetc%2Fca.pem",
        )
        .unwrap();
        assert_eq!(rest, "postgres://q:p%40ss@db/quotes?application_name=a%20b");
        assert_eq!(mode, Some(Mode::VerifyFull));
        assert_eq!(root.as_deref(), Some("/etc/ca.pem"));
        let (rest, mode, root) =
            take_tls_parameters("postgres://db/quotes?sslmode=disable").unwrap();
        assert_eq!(
            (rest.as_str(), mode, root),
            ("postgres://db/quotes", Some(Mode::Disable), None)
        );
    }

    #[test]
    fn every_libpq_mode_is_understood_and_others_named() {
        for mode in ["disable", "prefer", "require", "verify-ca", "verify-full"] {
            let url = format!("postgres://db/quotes?sslmode={mode}&sslrootcert=system");
            let connection = connection(&url).unwrap();
            assert_eq!(connection.sslmode, mode);
        }
        let error = connection("postgres://db/quotes?sslmode=allow").unwrap_err();
        assert!(
            error
                .to_string()
                .contains("not one of disable, prefer, require"),
            "{error}"
        );
        assert_eq!(
            connection("postgres://db/quotes").unwrap().sslmode,
            "prefer",
            "libpq's default"
        );
    }

    #[test]
    fn unix_sockets_go_without_tls_as_in_libpq() {
        let socket = connection("postgres://%2Frun%2Fpostgresql/quotes?sslmode=require").unwrap();
        assert_eq!(socket.config.get_ssl_mode(), SslMode::Disable);
        let tcp =
            connection("postgres://db:5432/quotes?sslmode=verify-ca&sslrootcert=system").unwrap();
        assert_eq!(tcp.config.get_ssl_mode(), SslMode::Require);
    }

    #[test]
    fn a_missing_root_certificate_file_is_named() {
        let error =
            connection("postgres://db/quotes?sslmode=verify-full&sslrootcert=/nonexistent/ca.pem")
                .unwrap_err();
        assert!(error.to_string().contains("/nonexistent/ca.pem"), "{error}");
    }
}

/// Against the cluster `scripts/test-postgres-tls.sh` starts: TLS on, a certificate for
/// `localhost` only, signed by the test CA in `TEST_TLS_CA`; connections without TLS refused.
#[cfg(test)]
mod cluster_tests {
    use super::super::PostgresStore;
    use crate::store::{QuoteStore, StoreOptions};

    /// `TEST_TLS_NAME`, or a panic saying how to run these tests.
    fn var(name: &str) -> String {
        std::env::var(name).unwrap_or_else(|_| {
            panic!("{name} is not set: these tests need the TLS cluster scripts/test-postgres-tls.sh starts (it runs them)")
        })
    }

    fn url(host: &str, parameters: &str) -> String {
        let port = var("TEST_TLS_POSTGRES_PORT");
        format!("postgres://postgres@{host}:{port}/postgres?{parameters}")
    }

    /// Opens the store (which migrates and logs) and says whether its connection is encrypted.
    async fn open(url: &str) -> Result<bool, String> {
        let store = PostgresStore::open(url, StoreOptions::default())
            .await
            .map_err(|e| e.to_string())?;
        let encrypted = store.encrypted().await.expect("pg_stat_ssl answers");
        store.close().await;
        Ok(encrypted)
    }

    async fn refused(url: &str, because: &str) {
        let error = open(url).await.expect_err(url);
        assert!(error.contains(because), "{url}: {error}");
    }

    #[tokio::test]
    #[ignore = "needs the TLS cluster of scripts/test-postgres-tls.sh (scripts/test.sh runs it)"]
    async fn libpq_sslmodes_against_a_server_with_a_test_ca() {
        let (ca, wrong_ca) = (var("TEST_TLS_CA"), var("TEST_TLS_WRONG_CA"));
        // Encrypted without checking the certificate, as libpq's require and prefer.
        assert_eq!(open(&url("127.0.0.1", "sslmode=require")).await, Ok(true));
        assert_eq!(open(&url("127.0.0.1", "")).await, Ok(true), "prefer");
        // The chain and the name, against the CA given.
        let full = format!("sslmode=verify-full&sslrootcert={ca}");
        assert_eq!(open(&url("localhost", &full)).await, Ok(true));
        // The chain only: 127.0.0.1 is not a name the certificate holds.
        let chain = format!("sslmode=verify-ca&sslrootcert={ca}");
        assert_eq!(open(&url("127.0.0.1", &chain)).await, Ok(true));

        refused(&url("127.0.0.1", &full), "certificate").await;
        let wrong = format!("sslmode=verify-full&sslrootcert={wrong_ca}");
        refused(&url("localhost", &wrong), "certificate").await;
        let wrong = format!("sslmode=verify-ca&sslrootcert={wrong_ca}");
        refused(&url("localhost", &wrong), "certificate").await;
        // require with a root certificate checks the chain, as in libpq.
        let wrong = format!("sslmode=require&sslrootcert={wrong_ca}");
        refused(&url("localhost", &wrong), "certificate").await;
        // The test CA is none of the platform's roots.
        refused(&url("localhost", "sslmode=verify-full"), "certificate").await;
        // The server takes no connection without TLS (pg_hba.conf: hostnossl ... reject).
        refused(&url("127.0.0.1", "sslmode=disable"), "no encryption").await;
    }
}
