//! `TRUSTED_PROXIES`: the peers whose forwarded-for entries are believed, and the client they
//! vouch for.
//!
//! The peer address is the client unless the peer is a trusted proxy. Then the forwarded chain
//! (`X-Forwarded-For`, or `Forwarded` when that is absent) is walked from the right, where each
//! proxy appends what it saw, past every trusted hop: the first untrusted one is the client.
//! Entries further left are whatever the client chose to send, so they are never reached unless
//! every hop after them is trusted.

use std::net::{IpAddr, Ipv6Addr};

use ipnet::IpNet;
use warp::http::HeaderMap;

use super::env::Env;
use super::error::ConfigError;

/// The loopback ranges: a proxy on the same host, the usual deployment (docs/operating.md, "Put it online").
pub const DEFAULT_TRUSTED_PROXIES: &str = "127.0.0.0/8,::1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Blank trusts no proxy, as the README documents; unset is the default.
    pub fn from_env(env: &Env) -> Result<TrustedProxies, ConfigError> {
        const VARIABLE: &str = "TRUSTED_PROXIES";
        let list = env
            .raw(VARIABLE)
            .unwrap_or_else(|| DEFAULT_TRUSTED_PROXIES.into());
        TrustedProxies::parse(&list).map_err(|problem| {
            ConfigError::new(
                VARIABLE,
                list.clone(),
                problem,
                "a comma-separated list of addresses and CIDR ranges such as 127.0.0.0/8,::1,10.0.0.0/8",
            )
        })
    }

    /// A comma-separated list of addresses and CIDR ranges; empty trusts no proxy.
    pub fn parse(list: &str) -> Result<TrustedProxies, String> {
        let entries = list
            .split(',')
            .map(str::trim)
            .filter(|entry| !entry.is_empty());
        entries
            .map(|entry| {
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| format!("names {entry:?}, neither an IP address nor a CIDR range"))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    pub fn ranges(&self) -> &[IpNet] {
        &self.0
    }
    pub fn trusts(&self, ip: IpAddr) -> bool {
        let ip = canonical(ip);
        self.ranges().iter().any(|net| net.contains(&ip))
    }

    /// The client's address as far as trusted proxies vouch for it.
    pub fn client(&self, peer: IpAddr, headers: &HeaderMap) -> IpAddr {
        let mut client = canonical(peer);
        if !self.trusts(client) {
            return client;
        }
        for hop in forwarded_chain(headers).iter().rev() {
            // An entry a trusted proxy wrote but we cannot read ("unknown", a garbled value)
            // ends the walk at the last address we know.
            let Some(ip) = parse_hop(hop) else { break };
            client = canonical(ip);
            if !self.trusts(client) {
                break;
            }
        }
        client
    }
}

/// The forwarded hops, leftmost first, over every header line in order. `X-Forwarded-For` wins
/// whenever it is present, readable or not: falling back to `Forwarded` on a line we cannot read
/// would let a client pick its own address by sending one non-ASCII byte. A line we cannot read
/// is one unreadable hop (`""`), so the walk ends there.
fn forwarded_chain(headers: &HeaderMap) -> Vec<String> {
    let lines = |name: &str| -> Vec<Option<&str>> {
        headers
            .get_all(name)
            .iter()
            .map(|v| v.to_str().ok())
            .collect()
    };
    let hops = |lines: Vec<Option<&str>>, hop: fn(&str) -> String| -> Vec<String> {
        lines
            .into_iter()
            .flat_map(|line| match line {
                Some(line) => line.split(',').map(hop).collect(),
                None => vec![String::new()],
            })
            .collect()
    };
    let xff = lines("x-forwarded-for");
    if !xff.is_empty() {
        return hops(xff, |hop| hop.trim().to_owned());
    }
    // RFC 7239: `for=` of each comma-separated element; other parameters are ignored.
    hops(lines("forwarded"), |element| {
        element
            .split(';')
            .filter_map(|pair| pair.split_once('='))
            .find(|(name, _)| name.trim().eq_ignore_ascii_case("for"))
            .map(|(_, value)| value.trim().trim_matches('"').to_owned())
            .unwrap_or_default()
    })
}

/// `1.2.3.4`, `1.2.3.4:5678`, `2001:db8::1`, `[2001:db8::1]` or `[2001:db8::1]:443`.
fn parse_hop(hop: &str) -> Option<IpAddr> {
    if let Ok(ip) = hop.parse() {
        return Some(ip);
    }
    if let Some(rest) = hop.strip_prefix('[') {
        let (inside, after) = rest.split_once(']')?;
        let port_ok = after.is_empty()
            || after
                .strip_prefix(':')
                .is_some_and(|p| p.parse::<u16>().is_ok());
        return port_ok
            .then(|| inside.parse::<Ipv6Addr>().ok().map(IpAddr::V6))
            .flatten();
    }
    let (ip, port) = hop.rsplit_once(':')?;
    port.parse::<u16>().ok()?;
    ip.parse::<std::net::Ipv4Addr>().ok().map(IpAddr::V4)
}

/// An IPv4 address written as IPv6 (`::ffff:1.2.3.4`, from a dual-stack socket) is that IPv4
/// address, so it matches IPv4 ranges and shares its bucket.
pub fn canonical(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V6(v6) => v6.to_ipv4_mapped().map_or(ip, IpAddr::V4),
        v4 => v4,
    }
}

/// The address a test writes.
#[cfg(test)]
pub(crate) fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

/// The headers a test names, in order (a name given twice is sent twice).
#[cfg(test)]
pub(crate) fn headers(pairs: &[(&'static str, &str)]) -> HeaderMap {
    let mut h = HeaderMap::new();
    for (name, value) in pairs {
        h.append(*name, value.parse().unwrap());
    }
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    fn loopback() -> TrustedProxies {
        TrustedProxies::parse(DEFAULT_TRUSTED_PROXIES).unwrap()
    }

    #[test]
    fn an_untrusted_peer_is_the_client_whatever_it_forwards() {
        let h = headers(&[("x-forwarded-for", "203.0.113.7")]);
        let peer = ip("198.51.100.1");
        assert_eq!(loopback().client(peer, &h), peer);
        let none = TrustedProxies::parse("").unwrap();
        assert_eq!(none.client(ip("127.0.0.1"), &h), ip("127.0.0.1"));
    }

    #[test]
    fn the_walk_goes_right_to_left_past_trusted_hops() {
        let proxies = TrustedProxies::parse("127.0.0.1, 10.0.0.0/8").unwrap();
        for (forwarded, client, why) in [
            (
                &["6.6.6.6, 203.0.113.7, 10.1.2.3"][..],
                "203.0.113.7",
                "spoofed left entry ignored",
            ),
            (
                &["6.6.6.6", "10.0.0.9"],
                "6.6.6.6",
                "header lines are one list",
            ),
            (&["10.0.0.1, 10.0.0.2"], "10.0.0.1", "all trusted"),
            (
                &["203.0.113.7, unknown"],
                "127.0.0.1",
                "garbage ends the walk",
            ),
            (&[], "127.0.0.1", "no header"),
        ] {
            let lines: Vec<_> = forwarded
                .iter()
                .map(|line| ("x-forwarded-for", *line))
                .collect();
            assert_eq!(
                proxies.client(ip("127.0.0.1"), &headers(&lines)),
                ip(client),
                "{why}"
            );
        }
    }

    #[test]
    fn entries_with_ports_and_brackets_are_read() {
        for (hop, expected) in [
            ("1.2.3.4:5678", "1.2.3.4"),
            ("[2001:db8::1]:443", "2001:db8::1"),
            ("[2001:db8::1]", "2001:db8::1"),
            ("2001:db8::1", "2001:db8::1"),
            ("::ffff:1.2.3.4", "1.2.3.4"),
        ] {
            let h = headers(&[("x-forwarded-for", hop)]);
            assert_eq!(
                loopback().client(ip("127.0.0.1"), &h),
                ip(expected),
                "{hop}"
            );
        }
        for bad in [
            "1.2.3.4:port",
            "[2001:db8::1]:99999",
            "[2001:db8::1",
            "1.2.3",
        ] {
            assert_eq!(parse_hop(bad), None, "{bad}");
        }
    }

    #[test]
    fn forwarded_is_read_when_x_forwarded_for_is_absent() {
        let h = headers(&[(
            "forwarded",
            r#"for=6.6.6.6, for="[2001:db8::7]:4711";proto=https"#,
        )]);
        assert_eq!(loopback().client(ip("::1"), &h), ip("2001:db8::7"));
        let both = headers(&[
            ("forwarded", "for=6.6.6.6"),
            ("x-forwarded-for", "203.0.113.7"),
        ]);
        assert_eq!(loopback().client(ip("::1"), &both), ip("203.0.113.7"));
    }

    #[test]
    fn an_unreadable_x_forwarded_for_ends_the_walk_and_forwarded_is_not_read() {
        let mut h = HeaderMap::new();
        h.append(
            "x-forwarded-for",
            warp::http::HeaderValue::from_bytes(b"203.0.113.7, caf\xc3\xa9").unwrap(),
        );
        h.append("forwarded", "for=6.6.6.6".parse().unwrap());
        assert_eq!(loopback().client(ip("127.0.0.1"), &h), ip("127.0.0.1"));
        // Proxies append lines too: a readable line after it is walked first.
        h.append("x-forwarded-for", "198.51.100.4".parse().unwrap());
        assert_eq!(loopback().client(ip("127.0.0.1"), &h), ip("198.51.100.4"));
        let mut forwarded = HeaderMap::new();
        forwarded.append(
            "forwarded",
            warp::http::HeaderValue::from_bytes(b"for=\xff").unwrap(),
        );
        forwarded.append("forwarded", "for=127.0.0.2".parse().unwrap());
        assert_eq!(loopback().client(ip("::1"), &forwarded), ip("127.0.0.2"));
    }

    #[test]
    fn settings_errors_name_the_entry() {
        let two = TrustedProxies::parse("10.0.0.0/8, ::1").unwrap();
        assert_eq!(two.ranges().len(), 2);
        let error = TrustedProxies::parse("10.0.0.0/8, proxy.local").unwrap_err();
        assert!(error.contains("\"proxy.local\""), "{error}");
        assert!(TrustedProxies::parse("10.0.0.0/33").is_err());
        let blank = crate::settings::env::lookup(&[("TRUSTED_PROXIES", " ")]);
        let none = TrustedProxies::from_env(&Env::new(&blank)).unwrap();
        assert!(none.ranges().is_empty(), "blank trusts none");
    }
}
