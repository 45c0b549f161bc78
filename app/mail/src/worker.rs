//! The outbox worker. It claims due mails with a lease (an `UPDATE …
//! RETURNING`, no transaction held while talking to the mail server), sends
//! them, and records the outcome. Transient failures come back with
//! exponential backoff and jitter, capped, until the mail's give-up time; a
//! permanent refusal fails at once. A process that dies mid-send leaves the
//! mail leased; after the lease it is sent again, with the same Message-ID.
//! Idle, the worker sleeps until the next mail is due or one is queued.

use crate::transport::{SendError, Transport};
use crate::Mailer;
use aivet_store::DynStore;
use aivet_store::MailOutcome;
use chrono::{DateTime, Duration, Utc};
use futures_util::StreamExt;
use rand::Rng;
use std::sync::Arc;
use tokio::sync::Notify;

pub type Now = Arc<dyn Fn() -> DateTime<Utc> + Send + Sync>;

#[derive(Clone, Debug)]
pub struct WorkerSettings {
    /// How long a claimed mail belongs to this worker.
    pub lease: Duration,
    /// Mails claimed at once.
    pub batch: i64,
    /// SMTP conversations at once.
    pub concurrency: usize,
    /// First retry delay; doubles per attempt.
    pub backoff_base: Duration,
    pub backoff_cap: Duration,
    /// Longest idle sleep (a safety net; wake-ups come from `Notify`).
    pub idle_max: std::time::Duration,
}

impl Default for WorkerSettings {
    fn default() -> Self {
        WorkerSettings {
            lease: Duration::minutes(2),
            batch: 32,
            concurrency: 16,
            backoff_base: Duration::seconds(30),
            backoff_cap: Duration::hours(1),
            idle_max: std::time::Duration::from_secs(300),
        }
    }
}

#[derive(Clone)]
pub struct Worker {
    store: DynStore,
    transport: Arc<dyn Transport>,
    mailer: Mailer,
    now: Now,
    wake: Arc<Notify>,
    owner: String,
    settings: WorkerSettings,
}

/// What one pass over the due mails did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pass {
    pub sent: usize,
    pub retrying: usize,
    pub failed: usize,
}

impl Pass {
    pub fn handled(&self) -> usize {
        self.sent + self.retrying + self.failed
    }
}

impl Worker {
    pub fn new(
        store: DynStore,
        transport: Arc<dyn Transport>,
        mailer: Mailer,
        now: Now,
        wake: Arc<Notify>,
        settings: WorkerSettings,
    ) -> Worker {
        let owner = format!("{}-{}", std::process::id(), uuid::Uuid::new_v4().simple());
        Worker {
            store,
            transport,
            mailer,
            now,
            wake,
            owner,
            settings,
        }
    }

    /// The delay before attempt `attempts + 1`: base × 2^(attempts−1), capped,
    /// with ±20 % jitter so that many failed mails do not retry in lockstep.
    pub fn backoff(&self, attempts: i32) -> Duration {
        let exp = (attempts.max(1) - 1).min(20) as u32;
        let raw = self
            .settings
            .backoff_base
            .num_milliseconds()
            .saturating_mul(1i64 << exp);
        let capped = raw.min(self.settings.backoff_cap.num_milliseconds());
        let jitter = rand::thread_rng().gen_range(0.8..=1.2);
        Duration::milliseconds((capped as f64 * jitter) as i64)
    }

    /// Sends what is due now; returns what happened.
    pub async fn pass(&self) -> Result<Pass, aivet_store::StoreError> {
        let mut pass = Pass::default();
        loop {
            let now = (self.now)();
            let claimed = self
                .store
                .claim_mails(
                    &self.owner,
                    now,
                    now + self.settings.lease,
                    self.settings.batch,
                )
                .await?;
            if claimed.is_empty() {
                return Ok(pass);
            }
            // Several mails at once: each SMTP conversation waits on round
            // trips, not on this machine. Outcomes are recorded as they come,
            // those that are ready together in one commit; a slow server holds
            // back only its own mail. A crash before the commit re-sends at
            // most the mails in flight, with the same Message-IDs.
            let mut outcomes = futures_util::stream::iter(claimed)
                .map(|mail| self.deliver(mail))
                .buffer_unordered(self.settings.concurrency)
                .ready_chunks(self.settings.concurrency);
            while let Some(chunk) = outcomes.next().await {
                self.store.record_mail_outcomes(&self.owner, &chunk).await?;
                for outcome in &chunk {
                    match outcome {
                        MailOutcome::Sent { .. } => pass.sent += 1,
                        MailOutcome::Retry { .. } => pass.retrying += 1,
                        MailOutcome::Failed { .. } => pass.failed += 1,
                    }
                }
            }
        }
    }

    /// Sends one claimed mail; says what became of it.
    async fn deliver(&self, mail: aivet_store::ClaimedMail) -> MailOutcome {
        let sent = match self.mailer.unseal(&mail.message) {
            Some(message) => {
                self.transport
                    .send(self.mailer.envelope_from(), &mail.recipient, &message)
                    .await
            }
            None => Err(SendError::Permanent(
                "the stored mail cannot be opened: was AIVET_SESSION_SECRET changed?".into(),
            )),
        };
        match sent {
            Ok(()) => {
                tracing::info!(mail = %mail.id, message_id = %mail.message_id, attempts = mail.attempts, "mail sent");
                MailOutcome::Sent {
                    id: mail.id,
                    at: (self.now)(),
                }
            }
            Err(SendError::Permanent(error)) => {
                tracing::warn!(mail = %mail.id, error = %error, "mail refused permanently");
                MailOutcome::Failed { id: mail.id, error }
            }
            Err(SendError::Transient(e)) => {
                let next = (self.now)() + self.backoff(mail.attempts);
                if next > mail.give_up_at {
                    tracing::warn!(mail = %mail.id, error = %e, "mail given up");
                    MailOutcome::Failed {
                        id: mail.id,
                        error: format!("gave up after {} attempts: {e}", mail.attempts),
                    }
                } else {
                    tracing::info!(mail = %mail.id, error = %e, next = %next, "mail will be retried");
                    MailOutcome::Retry {
                        id: mail.id,
                        next_attempt_at: next,
                        error: e,
                    }
                }
            }
        }
    }

    /// Runs until the task is dropped: a pass, then sleep until the next mail
    /// is due or one is queued.
    pub async fn run(self) {
        loop {
            if let Err(e) = self.pass().await {
                tracing::error!(error = %e, "mail worker: database error; trying again shortly");
                tokio::select! {
                    _ = self.wake.notified() => {}
                    _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
                }
                continue;
            }
            let wait = match self.store.next_mail_due().await {
                Ok(Some(due)) => (due - (self.now)())
                    .to_std()
                    .unwrap_or_default()
                    .min(self.settings.idle_max),
                Ok(None) => self.settings.idle_max,
                Err(_) => std::time::Duration::from_secs(5),
            };
            if wait.is_zero() {
                tokio::task::yield_now().await;
                continue;
            }
            tokio::select! {
                _ = self.wake.notified() => {}
                _ = tokio::time::sleep(wait) => {}
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transport::MemoryTransport;

    #[tokio::test]
    async fn backoff_doubles_with_jitter_and_a_cap() {
        let db = aivet_store::testing::TestDb::sqlite();
        let store = aivet_store::open(db.url(), None).await.unwrap();
        let w = Worker::new(
            store,
            Arc::new(MemoryTransport::default()),
            Mailer::new(
                "a@example.com",
                "example.com",
                Duration::hours(1),
                crate::Sealer::new(&[0; 32]),
            )
            .unwrap(),
            Arc::new(Utc::now),
            Arc::new(Notify::new()),
            WorkerSettings::default(),
        );
        for (attempt, base_secs) in [(1, 30), (2, 60), (3, 120), (4, 240)] {
            let b = w.backoff(attempt).num_milliseconds() as f64 / 1000.0;
            assert!(
                b >= base_secs as f64 * 0.8 && b <= base_secs as f64 * 1.2,
                "attempt {attempt}: {b}"
            );
        }
        assert!(w.backoff(30) <= Duration::minutes(72));
        let distinct: std::collections::HashSet<i64> =
            (0..20).map(|_| w.backoff(3).num_milliseconds()).collect();
        assert!(distinct.len() > 1, "jitter");
    }
}
