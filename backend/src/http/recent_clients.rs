//! Per-client state for the clients seen most recently, in bounded memory and at a constant
//! cost per request, for the limits that count what each client does (`rate_limit`,
//! `failure_limit`), and per-key state of the same kind for other keys (the form posts of
//! `routes::quotes::double_submit`).
//!
//! Two generations: a new client goes into the current one, and one found only in the previous
//! one moves into the current one. Once the current generation holds half the capacity it
//! becomes the previous one, and the old previous one is dropped whole: the clients not seen
//! during a whole generation. So at most `capacity` clients are held, no request ever scans the
//! map (a sweep per request was a full scan once 100,000 clients were tracked), and a client is
//! forgotten only after `capacity / 2` other clients have come since it last did.

use std::collections::HashMap;
use std::hash::Hash;
use std::net::IpAddr;
use std::sync::{Mutex, PoisonError};

pub struct RecentClients<V, K = IpAddr> {
    generations: Mutex<Generations<K, V>>,
    half: usize,
}

struct Generations<K, V> {
    current: HashMap<K, V>,
    previous: HashMap<K, V>,
}

impl<V: Clone, K: Hash + Eq> RecentClients<V, K> {
    pub fn new(capacity: usize) -> RecentClients<V, K> {
        RecentClients {
            generations: Mutex::new(Generations {
                current: HashMap::new(),
                previous: HashMap::new(),
            }),
            half: (capacity / 2).max(1),
        }
    }

    /// Hands `update` the client's state (`None` for a client not held) and keeps the state it
    /// returns; when it fails, the state stays as it was. Clients are updated one at a time.
    pub fn update<T, E>(
        &self,
        client: K,
        update: impl FnOnce(Option<V>) -> Result<(T, V), E>,
    ) -> Result<T, E> {
        let mut generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let held = match generations.current.get(&client) {
            Some(state) => Some(state.clone()),
            None => generations.previous.remove(&client),
        };
        let (outcome, state) = match update(held.clone()) {
            Ok((outcome, state)) => (Ok(outcome), Some(state)),
            Err(error) => (Err(error), held),
        };
        if let Some(state) = state {
            generations.current.insert(client, state);
            if generations.current.len() >= self.half {
                generations.previous = std::mem::take(&mut generations.current);
            }
        }
        outcome
    }

    /// How many clients are held.
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        let generations = self
            .generations
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        generations.current.len() + generations.previous.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(n: u32) -> IpAddr {
        IpAddr::from(n.to_be_bytes())
    }

    fn count(clients: &RecentClients<u32>, n: u32) -> u32 {
        clients
            .update(ip(n), |held| {
                let seen = held.unwrap_or(0) + 1;
                Ok::<_, ()>((seen, seen))
            })
            .unwrap()
    }

    #[test]
    fn memory_is_bounded_and_a_client_seen_within_a_generation_is_kept() {
        let clients = RecentClients::new(1_000);
        for _ in 0..3 {
            count(&clients, 0);
        }
        for n in 1..=5_000 {
            count(&clients, n);
            if n % 400 == 0 {
                count(&clients, 0);
            }
            assert!(clients.len() <= 1_000);
        }
        assert_eq!(
            count(&clients, 0),
            16,
            "seen every 400 clients, never forgotten"
        );
        assert_eq!(
            count(&clients, 1),
            1,
            "not seen for 5,000 clients: forgotten"
        );
    }

    #[test]
    fn a_failed_update_keeps_the_state() {
        let clients = RecentClients::new(4);
        count(&clients, 7);
        count(&clients, 1);
        count(&clients, 2);
        // 7 is in the previous generation now; a failed update must not lose it.
        assert_eq!(
            clients.update(ip(7), |_| Err::<((), u32), _>("no")),
            Err("no")
        );
        assert_eq!(count(&clients, 7), 2);
        assert_eq!(
            clients.update(ip(9), |_| Err::<((), u32), _>("no")),
            Err("no")
        );
        assert_eq!(
            count(&clients, 9),
            1,
            "nothing stored for an unknown client"
        );
    }
}
