//! A small in-process limiter: at most `limit` events per key in a sliding
//! window. Used for sign-in (per client address and per account) and, later,
//! password resets and vendor links. In a multi-process deployment each process
//! limits on its own, which still bounds guessing to N × limit.

use chrono::{DateTime, Duration, Utc};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

pub struct RateLimiter {
    limit: usize,
    window: Duration,
    hits: Mutex<HashMap<String, VecDeque<DateTime<Utc>>>>,
}

impl RateLimiter {
    pub fn new(limit: usize, window: Duration) -> RateLimiter {
        RateLimiter {
            limit,
            window,
            hits: Mutex::new(HashMap::new()),
        }
    }

    /// Records an event for `key`; false when the key is over its limit (the
    /// event is then not recorded, so waiting always helps).
    pub fn check(&self, key: &str, now: DateTime<Utc>) -> bool {
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if hits.len() > 100_000 {
            let window = self.window;
            hits.retain(|_, q| q.back().is_some_and(|t| *t > now - window));
        }
        let q = hits.entry(key.to_owned()).or_default();
        while q.front().is_some_and(|t| *t <= now - self.window) {
            q.pop_front();
        }
        if q.len() >= self.limit {
            return false;
        }
        q.push_back(now);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limits_per_key_within_window() {
        let rl = RateLimiter::new(3, Duration::minutes(1));
        let t = Utc::now();
        assert!(rl.check("a", t) && rl.check("a", t) && rl.check("a", t));
        assert!(!rl.check("a", t));
        assert!(rl.check("b", t));
        assert!(rl.check("a", t + Duration::seconds(61)));
    }
}
