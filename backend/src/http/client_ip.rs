//! Which address a request comes from (the peer, or the client a trusted proxy vouches for:
//! `TrustedProxies::client`), and the keys a client is counted under.

use std::convert::Infallible;
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};

use warp::filters::BoxedFilter;
use warp::http::HeaderMap;
use warp::Filter;

use crate::settings::trusted_proxies::{canonical, TrustedProxies};

/// The TCP peer of a request's connection, put in the request's extensions by the accept loop
/// (`connections`).
#[derive(Clone, Copy, Debug)]
pub struct Peer(pub SocketAddr);

/// The peer address of the request's connection (`None` outside a real connection, as in
/// `warp::test`).
pub fn peer() -> impl Filter<Extract = (Option<SocketAddr>,), Error = Infallible> + Copy {
    warp::ext::optional::<Peer>().map(|peer: Option<Peer>| peer.map(|Peer(addr)| addr))
}

/// Each request's client address behind `proxies` (`None` outside a real connection, as in
/// `warp::test`).
pub fn client(proxies: TrustedProxies) -> BoxedFilter<(Option<IpAddr>,)> {
    peer()
        .and(warp::header::headers_cloned())
        .map(move |peer: Option<SocketAddr>, headers: HeaderMap| {
            peer.map(|peer| proxies.client(peer.ip(), &headers))
        })
        .boxed()
}

/// The key a client is counted under: its IPv4 address, or its IPv6 /64 (one subscriber's
/// network gets a /64 or more, so its addresses are one client).
pub fn rate_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(prefix(v6, 64)),
        v4 => v4,
    }
}

/// The coarser key a client is counted under as well, its network: an IPv6 /48, the most one
/// site is usually given, which holds 65,536 /64s and so as many fresh `rate_key`s; an IPv4
/// /24, the smallest block routed on the internet, whose 256 addresses one holder often has.
pub fn network_key(ip: IpAddr) -> IpAddr {
    match canonical(ip) {
        IpAddr::V6(v6) => IpAddr::V6(prefix(v6, 48)),
        IpAddr::V4(v4) => IpAddr::V4(Ipv4Addr::from(u32::from(v4) & !(u32::MAX >> 24))),
    }
}

fn prefix(ip: Ipv6Addr, bits: u32) -> Ipv6Addr {
    Ipv6Addr::from(u128::from(ip) & !(u128::MAX >> bits))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn clients_are_also_counted_by_their_ipv6_48_or_ipv4_24() {
        for (client, network) in [
            ("2001:db8:1:2:aaaa::1", "2001:db8:1::"),
            ("2001:db8:1:ffff::9", "2001:db8:1::"),
            ("2001:db8:1:2::1", "2001:db8:1::"),
            ("2001:db8:1::1", "2001:db8:1::"),
            ("2001:db8:2::1", "2001:db8:2::"),
            ("203.0.113.7", "203.0.113.0"),
            ("203.0.113.254", "203.0.113.0"),
            ("::ffff:203.0.113.7", "203.0.113.0"),
            ("203.0.114.7", "203.0.114.0"),
        ] {
            assert_eq!(network_key(ip(client)), ip(network), "{client}");
        }
    }

    #[test]
    fn ipv6_clients_are_counted_by_their_64() {
        for (client, key) in [
            ("2001:db8:1:2:aaaa::1", "2001:db8:1:2::"),
            ("2001:db8:1:2:bbbb::9", "2001:db8:1:2::"),
            ("2001:db8:1:2::1", "2001:db8:1:2::"),
            ("2001:db8:1:3::1", "2001:db8:1:3::"),
            ("203.0.113.7", "203.0.113.7"),
            ("::ffff:203.0.113.7", "203.0.113.7"),
        ] {
            assert_eq!(rate_key(ip(client)), ip(key), "{client}");
        }
    }
}
