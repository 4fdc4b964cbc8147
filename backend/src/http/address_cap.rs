//! How many connections one client address may hold open at once, so a single address cannot take
//! every connection the server has. Trusted proxies (`TRUSTED_PROXIES`) are exempt: every visitor
//! behind them arrives from their address.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::{Arc, Mutex};

use crate::http::client_ip::rate_key;
use crate::settings::trusted_proxies::TrustedProxies;

/// The most connections one address may hold: a browser opens about six per site, so this leaves
/// room for a few dozen visitors behind one NAT address.
pub const MAX_PER_ADDRESS: usize = 64;

#[derive(Clone)]
pub struct AddressCap {
    max: usize,
    proxies: TrustedProxies,
    /// Open connections per address (IPv6 per /64, as the rate limit counts them); an address
    /// leaves the map when its last connection closes, so its size is bounded by the open
    /// connections.
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

/// One admitted connection; dropping it frees its place.
pub struct AddressSlot {
    key: Option<IpAddr>,
    open: Arc<Mutex<HashMap<IpAddr, usize>>>,
}

impl AddressCap {
    /// At most `max` connections per address (at least one).
    pub fn new(max: usize, proxies: TrustedProxies) -> AddressCap {
        AddressCap {
            max: max.max(1),
            proxies,
            open: Arc::default(),
        }
    }

    pub fn max(&self) -> usize {
        self.max
    }

    /// A slot for a new connection from `peer`, or `None` when that address holds `max` already.
    pub fn admit(&self, peer: IpAddr) -> Option<AddressSlot> {
        let peer = peer.to_canonical();
        let proxy = self.proxies.ranges().iter().any(|net| net.contains(&peer));
        if proxy {
            return Some(AddressSlot {
                key: None,
                open: Arc::clone(&self.open),
            });
        }
        let key = rate_key(peer);
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        let count = open.entry(key).or_insert(0);
        if *count >= self.max {
            return None;
        }
        *count += 1;
        Some(AddressSlot {
            key: Some(key),
            open: Arc::clone(&self.open),
        })
    }
}

impl Drop for AddressSlot {
    fn drop(&mut self) {
        let Some(key) = self.key else { return };
        let mut open = self.open.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(count) = open.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    fn cap(max: usize) -> AddressCap {
        AddressCap::new(max, TrustedProxies::parse("10.0.0.1").unwrap())
    }

    #[test]
    fn one_address_gets_its_share_and_no_more() {
        let cap = cap(2);
        let a = cap.admit(ip("203.0.113.7")).unwrap();
        let _b = cap.admit(ip("203.0.113.7")).unwrap();
        assert!(cap.admit(ip("203.0.113.7")).is_none());
        assert!(
            cap.admit(ip("::ffff:203.0.113.7")).is_none(),
            "the same address over IPv6"
        );
        assert!(cap.admit(ip("203.0.113.8")).is_some(), "another address");
        drop(a);
        assert!(
            cap.admit(ip("203.0.113.7")).is_some(),
            "a closed one frees its place"
        );
    }

    #[test]
    fn an_ipv6_client_is_its_64() {
        let cap = cap(1);
        let _a = cap.admit(ip("2001:db8:1:2::1")).unwrap();
        assert!(cap.admit(ip("2001:db8:1:2::ffff")).is_none());
        assert!(cap.admit(ip("2001:db8:1:3::1")).is_some());
    }

    #[test]
    fn trusted_proxies_are_not_capped_and_closed_addresses_are_forgotten() {
        let cap = cap(1);
        let through_proxy: Vec<_> = (0..10)
            .map(|_| cap.admit(ip("10.0.0.1")).unwrap())
            .collect();
        let direct = cap.admit(ip("198.51.100.1")).unwrap();
        assert_eq!(cap.open.lock().unwrap().len(), 1);
        drop((through_proxy, direct));
        assert!(cap.open.lock().unwrap().is_empty());
    }
}
