//! Small in-process limiters against guessing. In a multi-process
//! deployment each process limits on its own, which still bounds guessing
//! to N × the limit.
//!
//! [`RateLimiter`]: at most `limit` events per key in a sliding window (per
//! client address, per account and address, per known browser).
//! [`Backoff`]: a slower limit per account, from any address: a few failures
//! free, then one attempt per pause that doubles with each further failure.

use chrono::{DateTime, Duration, Utc};
use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;

/// Above this many keys, keys without recent events are forgotten.
const PRUNE_AT: usize = 100_000;

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
        if hits.len() > PRUNE_AT {
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

    /// Takes back the event recorded for `key` at `at` (a sign-in that
    /// turned out right does not count as a guess).
    pub fn forgive(&self, key: &str, at: DateTime<Utc>) {
        let mut hits = self.hits.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(q) = hits.get_mut(key) {
            if let Some(i) = q.iter().rposition(|t| *t == at) {
                q.remove(i);
            }
        }
    }
}

/// Failures per key (an account) from anywhere, with a growing pause once
/// `free` failures have been made within `forget_after` of each other.
/// An attempt counts as a failure from the moment it is let through, so
/// that many attempts at once cannot all pass before the first has failed;
/// one that succeeds is taken back with [`Backoff::succeeded`].
pub struct Backoff {
    free: u32,
    base: Duration,
    max: Duration,
    forget_after: Duration,
    state: Mutex<HashMap<String, Strikes>>,
}

#[derive(Clone, Copy, Debug)]
struct Strikes {
    failures: u32,
    last: DateTime<Utc>,
    blocked_until: Option<DateTime<Utc>>,
}

impl Backoff {
    pub fn new(free: u32, base: Duration, max: Duration, forget_after: Duration) -> Backoff {
        Backoff {
            free,
            base,
            max,
            forget_after,
            state: Mutex::new(HashMap::new()),
        }
    }

    /// The pause after the `k`-th failure past the free ones (from 0).
    fn pause(&self, k: u32) -> Duration {
        let factor = 1i32.checked_shl(k.min(30)).unwrap_or(i32::MAX);
        self.base
            .checked_mul(factor)
            .map_or(self.max, |d| d.min(self.max))
    }

    /// Whether an attempt for `key` may go ahead now; if so, it counts as a
    /// failure until [`Backoff::succeeded`] says otherwise.
    pub fn attempt(&self, key: &str, now: DateTime<Utc>) -> bool {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if state.len() > PRUNE_AT {
            let forget = self.forget_after;
            state.retain(|_, s| s.last > now - forget || s.blocked_until.is_some_and(|b| b > now));
        }
        let s = state.entry(key.to_owned()).or_insert(Strikes {
            failures: 0,
            last: now,
            blocked_until: None,
        });
        if s.blocked_until.is_some_and(|b| now < b) {
            return false;
        }
        if now - s.last > self.forget_after {
            s.failures = 0;
        }
        s.failures += 1;
        s.last = now;
        if s.failures >= self.free {
            s.blocked_until = Some(now + self.pause(s.failures - self.free));
        }
        true
    }

    /// The attempt let through for `key` was right: it is no failure. A
    /// pause that only it caused is lifted; one that earlier failures
    /// earned stays.
    pub fn succeeded(&self, key: &str) {
        let mut state = self.state.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = state.get_mut(key) {
            s.failures = s.failures.saturating_sub(1);
            if s.failures < self.free {
                s.blocked_until = None;
            }
        }
    }

    /// Forgets every failure for `key` (its owner proved who they are).
    pub fn clear(&self, key: &str) {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
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
        rl.forgive("b", t);
        assert!(rl.check("b", t) && rl.check("b", t) && rl.check("b", t));
        assert!(!rl.check("b", t));
    }

    #[test]
    fn backoff_gives_a_few_free_then_doubling_pauses() {
        let b = Backoff::new(
            3,
            Duration::seconds(30),
            Duration::minutes(15),
            Duration::hours(24),
        );
        let t0 = Utc::now();
        // Three at once, then a pause of 30 s.
        assert!(b.attempt("a", t0) && b.attempt("a", t0) && b.attempt("a", t0));
        assert!(!b.attempt("a", t0));
        assert!(!b.attempt("a", t0 + Duration::seconds(29)));
        assert!(b.attempt("b", t0), "other keys are not affected");
        let mut t = t0 + Duration::seconds(30);
        assert!(b.attempt("a", t));
        // Then 60 s, 120 s, … up to 15 minutes.
        for pause in [60, 120, 240, 480, 900, 900, 900] {
            assert!(!b.attempt("a", t + Duration::seconds(pause - 1)), "{pause}");
            t += Duration::seconds(pause);
            assert!(b.attempt("a", t), "{pause}");
        }
        // A day without attempts forgets.
        let later = t + Duration::hours(25);
        assert!(b.attempt("a", later) && b.attempt("a", later));
    }

    #[test]
    fn a_right_attempt_is_no_failure() {
        let b = Backoff::new(
            2,
            Duration::seconds(30),
            Duration::minutes(15),
            Duration::hours(24),
        );
        let t = Utc::now();
        assert!(b.attempt("a", t));
        assert!(b.attempt("a", t));
        b.succeeded("a");
        assert!(b.attempt("a", t), "the pause was only the right one's");
        assert!(!b.attempt("a", t));
        b.clear("a");
        assert!(b.attempt("a", t));
    }
}
