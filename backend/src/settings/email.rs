//! An e-mail to the broker per lead: the SMTP relay, the recipients and the sender. Off while
//! `SMTP_URL` is unset; `LEAD_EMAIL_TO` and `LEAD_EMAIL_FROM` are required with it.

use std::fmt;

use lettre::message::{Mailbox, Mailboxes};
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::{SMTP_PORT, SUBMISSIONS_PORT, SUBMISSION_PORT};
use percent_encoding::percent_decode_str;
use url::Url;

use super::env::Env;
use super::error::ConfigError;

const SMTP_URL: &str = "SMTP_URL";
const TO: &str = "LEAD_EMAIL_TO";
const FROM: &str = "LEAD_EMAIL_FROM";
const ALERT_TO: &str = "ALERT_EMAIL_TO";
const CA_FILE: &str = "SMTP_CA_FILE";
const MAX_CONNECTIONS: &str = "SMTP_MAX_CONNECTIONS";
const MAX_PER_HOUR: &str = "LEAD_EMAIL_MAX_PER_HOUR";
/// Lead e-mails the whole site sends in a clock hour; the leads beyond go in one digest an hour.
pub const DEFAULT_MAX_PER_HOUR: u32 = 60;
const MAX_PER_HOUR_FORM: &str = "a whole number of e-mails, 1 or more";
/// Messages in flight to the relay at once (each on its own connection), unless set.
pub const DEFAULT_MAX_CONNECTIONS: usize = 16;
const MAX_CONNECTIONS_FORM: &str = "a whole number from 1 to 256";
const SMTP_URL_FORM: &str = "smtp://host:25 (plain), smtp://user:pass@host:587?tls=required (STARTTLS) or smtps://user:pass@host:465 (TLS), with @ : / in the user or password percent-encoded";

#[derive(Clone, Debug)]
pub struct EmailSettings {
    /// `SMTP_URL`: the relay, as `lettre` reads it.
    pub relay: SmtpUrl,
    /// `LEAD_EMAIL_TO`: every lead goes to each of these.
    pub to: Vec<Mailbox>,
    /// `ALERT_EMAIL_TO`: who is told when deliveries fail for long (`LEAD_EMAIL_TO` unless set).
    pub alert_to: Vec<Mailbox>,
    /// `LEAD_EMAIL_FROM`: the sender, whose domain also names the messages' ids.
    pub from: Mailbox,
    /// `SMTP_CA_FILE`: PEM certificates trusted for the relay besides the public roots (a relay
    /// with a certificate of its own CA).
    pub extra_roots: Option<Vec<u8>>,
    /// `SMTP_MAX_CONNECTIONS`: most messages in flight at once, each on a connection of its own
    /// (providers limit how many one account may open; some to 3).
    pub max_connections: usize,
    /// `LEAD_EMAIL_MAX_PER_HOUR`: lead e-mails the whole site (every instance together) sends in
    /// a clock hour; the leads beyond it go out in one digest an hour.
    pub max_per_hour: u32,
}

/// How the connection to the relay is secured, from the URL's scheme and `tls` parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SmtpTls {
    None,
    /// `?tls=opportunistic`: STARTTLS when the relay offers it.
    Opportunistic,
    /// `?tls=required`: STARTTLS or no delivery.
    Required,
    /// `smtps://`: TLS from the first byte.
    Wrapper,
}

/// The relay's URL, read as lettre's `from_url` reads it (the same default ports, the path as the
/// EHLO name, a percent-encoded user and password). It may hold a password, so `Debug` and
/// `Display` show it with the password replaced; lettre's `Credentials` never print it either.
#[derive(Clone)]
pub struct SmtpUrl {
    shown: String,
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    /// The name to greet the relay with (the URL's path), if not this machine's.
    pub hello_name: Option<String>,
    pub credentials: Option<Credentials>,
}

impl SmtpUrl {
    /// `Err` holds what is wrong, never the URL (it may hold a password).
    pub fn parse(raw: &str) -> Result<SmtpUrl, String> {
        let mut url = Url::parse(raw).map_err(|e| format!("cannot be read ({e})"))?;
        let host = url
            .host_str()
            .filter(|h| !h.is_empty())
            .ok_or("has no host")?
            .to_owned();
        let tls_parameter = url
            .query_pairs()
            .find(|(key, _)| key == "tls")
            .map(|(_, value)| value.into_owned());
        let tls = match (url.scheme(), tls_parameter.as_deref()) {
            ("smtp", None) => SmtpTls::None,
            ("smtp", Some("opportunistic")) => SmtpTls::Opportunistic,
            ("smtp", Some("required")) => SmtpTls::Required,
            ("smtps", None) => SmtpTls::Wrapper,
            ("smtp" | "smtps", Some(other)) => {
                return Err(format!("has tls={other:?}, not required or opportunistic"))
            }
            (scheme, _) => return Err(format!("has the scheme {scheme:?}, not smtp or smtps")),
        };
        let port = url.port().unwrap_or(match tls {
            SmtpTls::None => SMTP_PORT,
            SmtpTls::Opportunistic | SmtpTls::Required => SUBMISSION_PORT,
            SmtpTls::Wrapper => SUBMISSIONS_PORT,
        });
        let hello_name = Some(url.path().trim_matches('/').to_owned()).filter(|n| !n.is_empty());
        let decode = |part: &str, what: &str| {
            percent_decode_str(part)
                .decode_utf8()
                .map(|text| text.into_owned())
                .map_err(|_| format!("has a {what} that is not UTF-8 once percent-decoded"))
        };
        let credentials = match url.password() {
            None => None,
            Some(password) => Some(Credentials::new(
                decode(url.username(), "user")?,
                decode(password, "password")?,
            )),
        };
        if credentials.is_some() {
            let _ = url.set_password(Some("***"));
        }
        Ok(SmtpUrl {
            shown: url.to_string(),
            host,
            port,
            tls,
            hello_name,
            credentials,
        })
    }
}

impl fmt::Display for SmtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

impl fmt::Debug for SmtpUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "SmtpUrl({})", self.shown)
    }
}

impl EmailSettings {
    pub fn from_env(env: &Env) -> Result<Option<EmailSettings>, ConfigError> {
        let Some(raw) = env.value(SMTP_URL) else {
            return Ok(None);
        };
        // Never the value itself: it may hold the password.
        let relay = SmtpUrl::parse(&raw)
            .map_err(|problem| ConfigError::hidden(SMTP_URL, problem, SMTP_URL_FORM))?;
        let required = |variable: &'static str, example: &str| {
            env.value(variable)
                .ok_or_else(|| ConfigError::new(variable, "", "is required with SMTP_URL", example))
        };
        let to_raw = required(
            TO,
            "one or more addresses such as broker@example.com, Ana <ana@example.com>",
        )?;
        let to = addresses(TO, to_raw)?;
        let alert_to = match env.value(ALERT_TO) {
            Some(raw) => addresses(ALERT_TO, raw)?,
            None => to.clone(),
        };
        let from_form = "an address such as Quotes <quotes@example.com>";
        let from_raw = required(FROM, from_form)?;
        let from = from_raw.parse::<Mailbox>().map_err(|e| {
            ConfigError::new(
                FROM,
                from_raw.clone(),
                format!("cannot be read ({e})"),
                from_form,
            )
        })?;
        let extra_roots = env
            .value(CA_FILE)
            .map(|path| {
                std::fs::read(&path).map_err(|e| {
                    ConfigError::new(
                        CA_FILE,
                        path.clone(),
                        format!("cannot be read ({e})"),
                        "the path of a PEM file of CA certificates",
                    )
                })
            })
            .transpose()?;
        let max_connections = env
            .parse_within(
                MAX_CONNECTIONS,
                MAX_CONNECTIONS_FORM,
                "is not a number from 1 to 256",
                |n: &usize| (1..=256).contains(n),
            )?
            .unwrap_or(DEFAULT_MAX_CONNECTIONS);
        let max_per_hour = env
            .parse_within(
                MAX_PER_HOUR,
                MAX_PER_HOUR_FORM,
                "allows no e-mail",
                |n: &u32| *n >= 1,
            )?
            .unwrap_or(DEFAULT_MAX_PER_HOUR);
        Ok(Some(EmailSettings {
            relay,
            to,
            alert_to,
            from,
            extra_roots,
            max_connections,
            max_per_hour,
        }))
    }
}

/// One or more comma-separated addresses.
fn addresses(variable: &'static str, raw: String) -> Result<Vec<Mailbox>, ConfigError> {
    let form = "comma-separated addresses such as broker@example.com, Ana <ana@example.com>";
    let list: Vec<Mailbox> = raw
        .parse::<Mailboxes>()
        .map(|list| list.into_iter().collect())
        .map_err(|e| {
            ConfigError::new(variable, raw.clone(), format!("cannot be read ({e})"), form)
        })?;
    if list.is_empty() {
        return Err(ConfigError::new(variable, raw, "names no address", form));
    }
    Ok(list)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn email(vars: &[(&str, &str)]) -> Result<Option<EmailSettings>, ConfigError> {
        EmailSettings::from_env(&Env::new(&crate::settings::env::lookup(vars)))
    }

    const TO_FROM: [(&str, &str); 2] = [
        (TO, "broker@example.com, Ana Díaz <ana@example.com>"),
        (FROM, "Quotes <quotes@example.com>"),
    ];

    /// The settings read with `SMTP_URL=url`, `TO_FROM` and `more`.
    fn with_relay(url: &str, more: &[(&str, &str)]) -> Result<Option<EmailSettings>, ConfigError> {
        let mut vars = vec![(SMTP_URL, url), TO_FROM[0], TO_FROM[1]];
        vars.extend_from_slice(more);
        email(&vars)
    }

    #[test]
    fn off_without_smtp_url_and_read_with_it() {
        assert!(email(&[]).unwrap().is_none());
        assert!(email(&[(SMTP_URL, " ")]).unwrap().is_none());
        let settings = with_relay("smtp://user:p%40ss@relay.example.com:587?tls=required", &[])
            .unwrap()
            .unwrap();
        assert_eq!(settings.to.len(), 2);
        assert_eq!(settings.to[1].email.to_string(), "ana@example.com");
        assert_eq!(settings.from.email.domain(), "example.com");
        assert_eq!(settings.relay.tls, SmtpTls::Required);
        assert_eq!(settings.relay.host, "relay.example.com");
        assert_eq!(settings.max_connections, DEFAULT_MAX_CONNECTIONS);
        assert_eq!(settings.max_per_hour, 60);
        assert_eq!(settings.relay.port, 587);
        assert_eq!(
            settings.relay.credentials,
            Some(Credentials::new("user".into(), "p@ss".into()))
        );
        assert_eq!(settings.relay.hello_name, None);
        // lettre's default ports when the URL names none.
        for (url, tls, port) in [
            ("smtp://127.0.0.1:2525", SmtpTls::None, 2525),
            ("smtp://h", SmtpTls::None, 25),
            ("smtp://h?tls=opportunistic", SmtpTls::Opportunistic, 587),
            ("smtp://h?tls=required", SmtpTls::Required, 587),
            ("smtps://u:p@h", SmtpTls::Wrapper, 465),
        ] {
            let relay = with_relay(url, &[]).unwrap().unwrap().relay;
            assert_eq!((relay.tls, relay.port), (tls, port), "{url}");
        }
        let relay = with_relay("smtp://relay:25/quotes.example.com", &[])
            .unwrap()
            .unwrap()
            .relay;
        assert_eq!(relay.hello_name.as_deref(), Some("quotes.example.com"));
        assert_eq!(relay.credentials, None);
    }

    #[test]
    fn the_password_never_shows() {
        let settings = with_relay(
            "smtp://user:hunter2@relay.example.com:587?tls=required",
            &[],
        )
        .unwrap()
        .unwrap();
        for shown in [format!("{settings:?}"), settings.relay.to_string()] {
            assert!(!shown.contains("hunter2"), "{shown}");
            assert!(shown.contains("user:***@relay.example.com:587"), "{shown}");
        }
        let message = with_relay("smtp://user:hunter2@relay?tls=maybe", &[])
            .unwrap_err()
            .to_string();
        assert!(!message.contains("hunter2"), "{message}");
        assert!(
            message.starts_with("SMTP_URL=\"…\" has tls=\"maybe\""),
            "{message}"
        );
    }

    #[test]
    fn one_line_errors() {
        let message = |vars: &[(&str, &str)]| email(vars).unwrap_err().to_string();
        let url = (SMTP_URL, "smtp://127.0.0.1:25");
        assert_eq!(
            message(&[url, TO_FROM[1]]),
            "LEAD_EMAIL_TO=\"\" is required with SMTP_URL; expected one or more addresses such as broker@example.com, Ana <ana@example.com>"
        );
        assert!(message(&[url, TO_FROM[0]])
            .starts_with("LEAD_EMAIL_FROM=\"\" is required with SMTP_URL"));
        assert!(message(&[url, (TO, "not an address"), TO_FROM[1]])
            .starts_with("LEAD_EMAIL_TO=\"not an address\" cannot be read"));
        assert!(message(&[url, TO_FROM[0], (FROM, "quotes")])
            .starts_with("LEAD_EMAIL_FROM=\"quotes\" cannot be read"));
        let relay_error =
            |url: &str, more: &[(&str, &str)]| with_relay(url, more).unwrap_err().to_string();
        assert!(
            relay_error("http://relay", &[]).contains("has the scheme \"http\", not smtp or smtps")
        );
        assert!(relay_error("smtp://", &[]).contains("has no host"));
        assert!(relay_error(url.1, &[(CA_FILE, "/nonexistent/ca.pem")])
            .starts_with("SMTP_CA_FILE=\"/nonexistent/ca.pem\" cannot be read"));
        assert_eq!(
            relay_error(url.1, &[(MAX_PER_HOUR, "0")]),
            "LEAD_EMAIL_MAX_PER_HOUR=\"0\" allows no e-mail; expected a whole number of e-mails, 1 or more"
        );
        let budget = with_relay(url.1, &[(MAX_PER_HOUR, "500")]);
        assert_eq!(budget.unwrap().unwrap().max_per_hour, 500);
    }
}
