//! Running jobs: the worker that claims due jobs with a lease and runs each
//! with its handler, and the schedule of the recurring ones (the hourly
//! sweep).
//!
//! Several processes may run workers on one database: scheduling is
//! idempotent (a job's key), claiming takes a lease, and a job's effect
//! commits together with its completion while the lease holds, so each
//! job has its effect once. A process killed mid-job leaves the job
//! leased; once the lease has run out another worker runs it again.
//! Every rule takes "now" from the injected clock: tests move the clock
//! and call [`Services::run_due_jobs`]; they never sleep.

use crate::Services;
use aivet_domain::jobs::{retry_delay, sweep_period, Job, MAX_ATTEMPTS, SWEEP_EVERY};
use aivet_domain::{OrgId, RequestId};
use aivet_store::jobs::{ClaimedJob, JobSetback, NewJob, ReminderRun, ReminderStep};
use aivet_store::StoreError;
use chrono::{DateTime, Duration, Utc};
use rand::Rng;
use std::collections::BTreeMap;
use std::sync::Arc;
use tokio::sync::Notify;

#[derive(Clone, Debug)]
pub struct JobSettings {
    /// How long a claimed job belongs to its worker.
    pub lease: Duration,
    /// Jobs claimed at once. Each claim and each batch's commit has a
    /// cost of its own, whatever the batch holds: 5,000 reminders due at
    /// once took 3.0–3.3 s on SQLite in batches of 64 and 2.2–2.35 s in
    /// batches of 256; 512 was no faster (BENCHMARKS.md).
    pub batch: i64,
    /// Longest idle sleep: a job scheduled by another process for soon is
    /// seen at the latest after this.
    pub idle_max: std::time::Duration,
}

impl Default for JobSettings {
    fn default() -> Self {
        JobSettings {
            lease: Duration::minutes(5),
            batch: 256,
            idle_max: std::time::Duration::from_secs(60),
        }
    }
}

/// What one pass over the due jobs did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct JobPass {
    pub done: usize,
    pub retrying: usize,
    pub failed: usize,
    /// Jobs another worker finished first (their lease ran out here).
    pub lost: usize,
}

/// Why a job's run did not finish it.
#[derive(Debug, thiserror::Error)]
enum RunError {
    #[error("{0}")]
    Store(#[from] StoreError),
    /// The job cannot run, however often it is tried.
    #[error("{0}")]
    Permanent(String),
    /// The job did not run this time (a failure of a batch it ran in).
    #[error("{0}")]
    Again(String),
}

/// A claimed reminder job with its request and number.
type ClaimedReminder = (ClaimedJob, RequestId, u8);

/// Jobs about one request each that run in batches, like reminders.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum RequestBatch {
    DeadlinePassed,
    NoAnswer,
}

impl RequestBatch {
    fn of(job: &Job) -> Option<(RequestBatch, RequestId)> {
        match job {
            Job::DeadlinePassed { request } => Some((RequestBatch::DeadlinePassed, *request)),
            Job::NoAnswer { request } => Some((RequestBatch::NoAnswer, *request)),
            _ => None,
        }
    }
}

impl Services {
    /// Schedules the recurring jobs of the current period. Every process
    /// does this; the job's key makes it one job.
    pub async fn schedule_recurring(&self) -> Result<(), StoreError> {
        let now = self.clock.now();
        self.store
            .schedule_job(
                NewJob {
                    job: Job::Sweep,
                    org_id: None,
                    run_at: sweep_period(now),
                },
                now,
            )
            .await?;
        Ok(())
    }

    /// Runs every job that is due now, as worker `owner`.
    pub async fn run_due_jobs(
        &self,
        owner: &str,
        settings: &JobSettings,
    ) -> Result<JobPass, StoreError> {
        let mut pass = JobPass::default();
        loop {
            let now = self.clock.now();
            let claimed = self
                .store
                .claim_jobs(owner, now, now + settings.lease, settings.batch)
                .await?;
            if claimed.is_empty() {
                return Ok(pass);
            }
            // Reminders, passed deadlines and "no answer" jobs of one
            // organisation run together: one read of what they need and one
            // commit of what they did, however many.
            let mut reminders: BTreeMap<OrgId, Vec<ClaimedReminder>> = BTreeMap::new();
            let mut about_requests: BTreeMap<(RequestBatch, OrgId), Vec<(ClaimedJob, RequestId)>> =
                BTreeMap::new();
            for job in claimed {
                let about_request = job.job.as_ref().and_then(RequestBatch::of);
                match (&job.job, about_request, job.org_id) {
                    (Some(Job::Reminder { request, n }), _, Some(org)) => {
                        let (request, n) = (*request, *n);
                        reminders.entry(org).or_default().push((job, request, n));
                    }
                    (_, Some((batch, request)), Some(org)) => {
                        about_requests
                            .entry((batch, org))
                            .or_default()
                            .push((job, request));
                    }
                    _ => {
                        let result = self.run_job(&job).await;
                        self.settle(&job, result, &mut pass).await?;
                    }
                }
            }
            for (org, jobs) in reminders {
                let results = self.run_reminders(org, &jobs).await;
                for ((job, _, _), result) in jobs.iter().zip(results) {
                    self.settle(job, result, &mut pass).await?;
                }
            }
            for ((batch, org), jobs) in about_requests {
                let results = self.run_request_jobs(batch, org, &jobs).await;
                for ((job, _), result) in jobs.iter().zip(results) {
                    self.settle(job, result, &mut pass).await?;
                }
            }
        }
    }

    /// Runs jobs of one kind about one organisation's requests, in one
    /// transaction; each job's result, in order.
    async fn run_request_jobs(
        &self,
        batch: RequestBatch,
        org: OrgId,
        jobs: &[(ClaimedJob, RequestId)],
    ) -> Vec<Result<bool, RunError>> {
        let pairs: Vec<_> = jobs.iter().map(|(job, r)| (&job.lease, *r)).collect();
        let now = self.clock.now();
        let done = match batch {
            RequestBatch::DeadlinePassed => {
                self.store.note_deadlines_passed(org, &pairs, now).await
            }
            RequestBatch::NoAnswer => self.store.mark_no_answers(org, &pairs, now).await,
        };
        match done {
            Ok(done) => done.into_iter().map(Ok).collect(),
            Err(e) => {
                let e = e.to_string();
                jobs.iter()
                    .map(|_| Err(RunError::Again(e.clone())))
                    .collect()
            }
        }
    }

    /// Runs reminder jobs of one organisation; each job's result, in order.
    async fn run_reminders(
        &self,
        org: OrgId,
        jobs: &[ClaimedReminder],
    ) -> Vec<Result<bool, RunError>> {
        let requests: Vec<RequestId> = jobs.iter().map(|(_, r, _)| *r).collect();
        let targets = match self.store.reminder_targets(org, &requests).await {
            Ok(t) => t,
            Err(e) => {
                let e = e.to_string();
                return jobs
                    .iter()
                    .map(|_| Err(RunError::Again(e.clone())))
                    .collect();
            }
        };
        let now = self.clock.now();
        let mut results = Vec::with_capacity(jobs.len());
        // Which result each run's outcome goes to.
        let (mut runs, mut slots) = (Vec::new(), Vec::new());
        for ((claimed, request, n), target) in jobs.iter().zip(&targets) {
            match self.reminder_step(target.as_ref(), *request, *n, now) {
                Ok(step) => {
                    slots.push(results.len());
                    results.push(Ok(false));
                    runs.push(ReminderRun {
                        lease: claimed.lease.clone(),
                        request: *request,
                        step,
                    });
                }
                Err(e) => results.push(Err(RunError::Again(format!("{e:?}")))),
            }
        }
        if runs.is_empty() {
            return results;
        }
        match self.store.record_reminders(org, &runs, now).await {
            Ok(done) => {
                let mut sent = false;
                for ((slot, run), done) in slots.into_iter().zip(&runs).zip(done) {
                    sent |= done && matches!(run.step, ReminderStep::Send { .. });
                    results[slot] = Ok(done);
                }
                if sent {
                    self.mail.wake.notify_one();
                }
            }
            Err(e) => {
                let e = e.to_string();
                for slot in slots {
                    results[slot] = Err(RunError::Again(e.clone()));
                }
            }
        }
        results
    }

    /// Counts a job's run and, when it did not finish the job, sets the
    /// job back: for another attempt later, or failed for good.
    async fn settle(
        &self,
        claimed: &ClaimedJob,
        result: Result<bool, RunError>,
        pass: &mut JobPass,
    ) -> Result<(), StoreError> {
        let now = self.clock.now();
        match result {
            Ok(true) => pass.done += 1,
            Ok(false) => pass.lost += 1,
            Err(e) => {
                let permanent = matches!(e, RunError::Permanent(_));
                let error = e.to_string();
                let setback = if permanent || claimed.attempts >= MAX_ATTEMPTS {
                    tracing::warn!(job = %claimed.lease.id, kind = %claimed.kind, attempts = claimed.attempts, %error, "job failed");
                    pass.failed += 1;
                    JobSetback::Fail { error }
                } else {
                    let jitter = rand::thread_rng().gen_range(0.8..=1.2);
                    let delay = retry_delay(claimed.attempts);
                    let at = now
                        + Duration::milliseconds((delay.num_milliseconds() as f64 * jitter) as i64);
                    tracing::info!(job = %claimed.lease.id, kind = %claimed.kind, %error, next = %at, "job will be retried");
                    pass.retrying += 1;
                    JobSetback::Retry { at, error }
                };
                self.store.set_back_job(&claimed.lease, setback).await?;
            }
        }
        Ok(())
    }

    /// Runs one claimed job; true when it finished, false when another
    /// worker holds it now.
    async fn run_job(&self, claimed: &ClaimedJob) -> Result<bool, RunError> {
        let now = self.clock.now();
        let Some(job) = &claimed.job else {
            return Err(RunError::Permanent(format!(
                "this version of aivet cannot run a job of kind {:?}",
                claimed.kind
            )));
        };
        match job {
            Job::Sweep => {
                let sessions = self.store.delete_expired_sessions(now).await?;
                if sessions > 0 {
                    tracing::info!(sessions, "removed expired sessions");
                }
                let digests = self.schedule_digests().await?;
                if digests > 0 {
                    tracing::info!(digests, "scheduled digests");
                }
                let rematched = self.rematch_stale().await.map_err(|e| match e {
                    crate::ServiceError::Internal(crate::error::InternalError::Store(s)) => {
                        RunError::Store(s)
                    }
                    other => RunError::Permanent(format!("advisory matching: {other}")),
                })?;
                if rematched > 0 {
                    tracing::info!(rematched, "matched engine advisories again");
                }
                Ok(self.store.finish_job(&claimed.lease, now).await?)
            }
            Job::Digest { membership, day } => {
                let org = claimed.org_id.ok_or_else(|| {
                    RunError::Permanent("a digest without an organisation".into())
                })?;
                Ok(self
                    .run_digest(&claimed.lease, org, *membership, *day)
                    .await?)
            }
            Job::Reminder { request, n } => {
                let org = claimed.org_id.ok_or_else(|| {
                    RunError::Permanent("a reminder without an organisation".into())
                })?;
                let job = (claimed.clone(), *request, *n);
                let mut result = self.run_reminders(org, &[job]).await;
                result.pop().unwrap_or(Ok(false))
            }
            Job::AnswersArrived { request } => {
                let org = claimed.org_id.ok_or_else(|| {
                    RunError::Permanent("a notice without an organisation".into())
                })?;
                Ok(self
                    .run_answers_arrived(&claimed.lease, org, *request)
                    .await?)
            }
            Job::Art33Alert {
                incident,
                hours,
                aware,
            } => {
                let org = claimed.org_id.ok_or_else(|| {
                    RunError::Permanent("an alert without an organisation".into())
                })?;
                Ok(self
                    .run_art33_alert(&claimed.lease, org, *incident, *hours, *aware)
                    .await?)
            }
            Job::NoAnswer { .. } | Job::DeadlinePassed { .. } => {
                let org = claimed.org_id.ok_or_else(|| {
                    RunError::Permanent("a request's job without an organisation".into())
                })?;
                let (batch, request) = RequestBatch::of(job).expect("a job about a request");
                let jobs = [(claimed.clone(), request)];
                let mut result = self.run_request_jobs(batch, org, &jobs).await;
                result.pop().unwrap_or(Ok(false))
            }
        }
    }
}

/// The job worker of one process: schedules the recurring jobs, runs what
/// is due, then sleeps until the next job is due, the next period begins,
/// or it is woken.
#[derive(Clone)]
pub struct JobWorker {
    services: Services,
    owner: String,
    wake: Arc<Notify>,
    settings: JobSettings,
}

impl JobWorker {
    pub fn new(services: Services, settings: JobSettings) -> JobWorker {
        JobWorker {
            owner: format!(
                "jobs-{}-{}",
                std::process::id(),
                uuid::Uuid::new_v4().simple()
            ),
            wake: services.jobs_wake.clone(),
            services,
            settings,
        }
    }

    pub fn owner(&self) -> &str {
        &self.owner
    }

    /// One round: schedule, then run what is due.
    pub async fn round(&self) -> Result<JobPass, StoreError> {
        self.services.schedule_recurring().await?;
        self.services
            .run_due_jobs(&self.owner, &self.settings)
            .await
    }

    /// Runs until the task is dropped.
    pub async fn run(self) {
        loop {
            if let Err(e) = self.round().await {
                tracing::error!(error = %e, "job worker: database error; trying again shortly");
                tokio::select! {
                    _ = self.wake.notified() => {}
                    _ = tokio::time::sleep(std::time::Duration::from_secs(5)) => {}
                }
                continue;
            }
            let now = self.services.clock.now();
            let next_period = sweep_period(now) + SWEEP_EVERY;
            let next = match self.services.store.next_job_due().await {
                Ok(Some(due)) => due.min(next_period),
                Ok(None) => next_period,
                Err(_) => now + Duration::seconds(5),
            };
            let wait = until(next, now).min(self.settings.idle_max);
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

fn until(at: DateTime<Utc>, now: DateTime<Utc>) -> std::time::Duration {
    (at - now).to_std().unwrap_or_default()
}

impl Services {
    /// The organisation's jobs that failed or wait for another attempt
    /// (owners only).
    pub async fn job_problems(
        &self,
        auth: &crate::Auth,
    ) -> Result<Vec<aivet_store::jobs::JobRecord>, crate::ServiceError> {
        let t = auth.tenant()?;
        if !t.role().can_manage_members() {
            return Err(crate::ServiceError::Forbidden);
        }
        Ok(self.store.org_job_problems(t, 50).await?)
    }

    /// Queues a failed job of the organisation again (owners only).
    pub async fn retry_job(
        &self,
        auth: &crate::Auth,
        id: aivet_domain::JobId,
    ) -> Result<(), crate::ServiceError> {
        let t = auth.tenant()?;
        if !t.role().can_manage_members() {
            return Err(crate::ServiceError::Forbidden);
        }
        self.store.retry_job(t, id, self.clock.now()).await?;
        self.jobs_wake.notify_one();
        Ok(())
    }
}
