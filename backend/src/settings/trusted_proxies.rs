//! `TRUSTED_PROXIES`: the peers whose forwarded-for entries are believed (how they are walked is
//! `http::client_ip`).

use std::net::IpAddr;

use ipnet::IpNet;

/// The loopback ranges: a proxy on the same host, the usual deployment (docs/operating.md, "Put it online").
pub const DEFAULT_TRUSTED_PROXIES: &str = "127.0.0.0/8,::1";

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
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
                    .map_err(|_| format!("{entry:?} is neither an IP address nor a CIDR range"))
            })
            .collect::<Result<_, _>>()
            .map(TrustedProxies)
    }

    pub fn ranges(&self) -> &[IpNet] {
        &self.0
    }
}
