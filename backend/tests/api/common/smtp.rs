//! A real SMTP server for the e-mail tests: Debian's python3-aiosmtpd running `smtp_server.py`
//! on a free loopback port, keeping every message it accepts so a test reads what went over the
//! wire. It can require STARTTLS or TLS from the first byte (a self-signed certificate made with
//! `openssl` that the backend is told to trust) and AUTH, answer DATA with a reply of the test's choosing (451, 550), and be
//! stopped and started again on the same port.

use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use serde::Deserialize;
use tempfile::TempDir;

use super::eventually::eventually;

const PYTHON: &str = "/usr/bin/python3";
const SCRIPT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/api/common/smtp_server.py"
);
/// The recipients and sender every e-mail test configures.
pub const TO: &str = "broker@example.com, Ana Agent <agent@example.com>";
pub const TO_ADDRESSES: [&str; 2] = ["broker@example.com", "agent@example.com"];
pub const FROM: &str = "Quotes <quotes@broker.example>";
pub const FROM_DOMAIN: &str = "broker.example";

#[derive(Clone, Debug, Default)]
pub struct SmtpOptions {
    /// STARTTLS offered and required, with a self-signed certificate for 127.0.0.1.
    pub tls: bool,
    /// With `tls`: TLS from the first byte (`smtps://`) instead of STARTTLS.
    pub implicit_tls: bool,
    /// AUTH required with this user and password.
    pub auth: Option<(String, String)>,
}

/// One accepted message, as the server received and parsed it.
#[derive(Clone, Debug, Deserialize)]
pub struct Mail {
    pub mail_from: String,
    pub rcpt_tos: Vec<String>,
    pub raw: String,
    pub headers: Vec<(String, String)>,
    pub text: Option<String>,
    pub html: Option<String>,
    /// Its `text/calendar` parts (a booking's `.ics`), decoded.
    #[serde(default)]
    pub calendars: Vec<CalendarPart>,
}

/// A `text/calendar` part: the `method` of its content type, its file name and its text.
#[derive(Clone, Debug, Deserialize)]
pub struct CalendarPart {
    pub method: Option<String>,
    pub filename: String,
    pub content: String,
}

impl Mail {
    /// Every value of the header `name` (case-insensitive), decoded.
    pub fn header(&self, name: &str) -> Vec<&str> {
        self.headers
            .iter()
            .filter(|(n, _)| n.eq_ignore_ascii_case(name))
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// The one value of the header `name`; panics when it is missing or repeated.
    pub fn one(&self, name: &str) -> &str {
        match self.header(name)[..] {
            [value] => value,
            ref other => panic!("{name}: {other:?} in\n{}", self.raw),
        }
    }

    pub fn text(&self) -> &str {
        self.text.as_deref().expect("a text/plain part")
    }

    pub fn html(&self) -> &str {
        self.html.as_deref().expect("a text/html part")
    }

    /// The text part's first line holding `part` (a link's path).
    pub fn line_with(&self, part: &str) -> &str {
        let text = self.text();
        text.lines()
            .find(|line| line.contains(part))
            .unwrap_or_else(|| panic!("{part} in {text}"))
    }
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
pub struct Stats {
    pub connections: usize,
    pub most_open: usize,
}

pub struct SmtpServer {
    pub port: u16,
    options: SmtpOptions,
    dir: TempDir,
    child: Option<Child>,
}

impl SmtpServer {
    pub fn start(options: SmtpOptions) -> SmtpServer {
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let dir = tempfile::tempdir().expect("temp dir");
        if options.tls {
            self_signed_certificate(dir.path());
        }
        let mut server = SmtpServer {
            port,
            options,
            dir,
            child: None,
        };
        server.run();
        server
    }

    pub fn plain() -> SmtpServer {
        SmtpServer::start(SmtpOptions::default())
    }

    fn run(&mut self) {
        let mut command = Command::new(PYTHON);
        command
            .arg(SCRIPT)
            .arg("--port")
            .arg(self.port.to_string())
            .arg("--dir")
            .arg(self.dir.path())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit());
        if self.options.tls {
            command
                .arg("--cert")
                .arg(self.dir.path().join("cert.pem"))
                .arg("--key")
                .arg(self.dir.path().join("key.pem"));
            if self.options.implicit_tls {
                command.arg("--implicit-tls");
            }
        }
        if let Some((user, password)) = &self.options.auth {
            command.arg("--auth").arg(format!("{user}:{password}"));
        }
        let mut child = command.spawn().unwrap_or_else(|e| {
            panic!("cannot start {PYTHON} {SCRIPT} ({e}); scripts/setup.sh --test installs python3-aiosmtpd")
        });
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(
            line.trim(),
            "ready",
            "the SMTP server did not start (is python3-aiosmtpd installed? scripts/setup.sh --test)"
        );
        self.child = Some(child);
    }

    /// The relay's `SMTP_URL`: plain, STARTTLS or TLS, with AUTH, as the options say.
    pub fn url(&self) -> String {
        let credentials = match &self.options.auth {
            Some((user, password)) => format!("{user}:{password}@"),
            None => String::new(),
        };
        let (scheme, tls) = match (self.options.tls, self.options.implicit_tls) {
            (true, true) => ("smtps", ""),
            (true, false) => ("smtp", "?tls=required"),
            (false, _) => ("smtp", ""),
        };
        format!("{scheme}://{credentials}127.0.0.1:{}{tls}", self.port)
    }

    /// The settings that send every lead through this server (with the certificate trusted).
    pub fn env(&self) -> Vec<(String, String)> {
        let mut env = vec![
            ("SMTP_URL".to_owned(), self.url()),
            ("LEAD_EMAIL_TO".to_owned(), TO.to_owned()),
            ("LEAD_EMAIL_FROM".to_owned(), FROM.to_owned()),
        ];
        if self.options.tls {
            let ca = self.dir.path().join("cert.pem");
            env.push(("SMTP_CA_FILE".to_owned(), ca.to_string_lossy().into()));
        }
        env
    }

    /// Stops the server (connections refused from now on); `resume` starts it on the same port.
    pub fn stop(&mut self) {
        if let Some(mut child) = self.child.take() {
            let _ = child.kill();
            let _ = child.wait();
        }
    }

    pub fn resume(&mut self) {
        assert!(self.child.is_none(), "already running");
        self.run();
    }

    /// What DATA is answered from now on (`None`: accepted).
    pub fn reply_with(&self, reply: Option<&str>) {
        let path = self.dir.path().join("reply");
        match reply {
            Some(reply) => std::fs::write(path, reply).unwrap(),
            None => {
                let _ = std::fs::remove_file(path);
            }
        }
    }

    fn messages_dir(&self) -> PathBuf {
        self.dir.path().join("messages")
    }

    /// Every accepted message, in the order accepted.
    pub fn messages(&self) -> Vec<Mail> {
        let mut names: Vec<_> = std::fs::read_dir(self.messages_dir())
            .map(|entries| {
                entries
                    .filter_map(|e| e.ok().map(|e| e.path()))
                    .filter(|p| p.extension().is_some_and(|x| x == "json"))
                    .collect()
            })
            .unwrap_or_default();
        names.sort();
        names
            .iter()
            .map(|path| serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap())
            .collect()
    }

    pub fn stats(&self) -> Stats {
        std::fs::read(self.dir.path().join("stats.json"))
            .map(|bytes| serde_json::from_slice(&bytes).unwrap())
            .unwrap_or_default()
    }

    /// The accepted messages once `done` holds for them.
    pub async fn wait_for(&self, what: &str, done: impl Fn(&[Mail]) -> bool) -> Vec<Mail> {
        eventually(what, || async {
            let messages = self.messages();
            if done(&messages) {
                Ok(messages)
            } else {
                Err(format!("{} messages", messages.len()))
            }
        })
        .await
    }
}

impl Drop for SmtpServer {
    fn drop(&mut self) {
        self.stop();
    }
}

/// A certificate for 127.0.0.1 and localhost, its own issuer (not a CA, as rustls wants of a
/// server's certificate).
fn self_signed_certificate(dir: &Path) {
    let status = Command::new("openssl")
        .args([
            "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
        ])
        .args(["-subj", "/CN=localhost"])
        .args(["-addext", "subjectAltName=DNS:localhost,IP:127.0.0.1"])
        .args(["-addext", "basicConstraints=critical,CA:FALSE"])
        .arg("-keyout")
        .arg(dir.join("key.pem"))
        .arg("-out")
        .arg(dir.join("cert.pem"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("openssl runs");
    assert!(status.success(), "openssl made the certificate");
}
