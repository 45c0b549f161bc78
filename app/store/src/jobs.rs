//! What the store keeps of jobs (work that runs later or on a schedule)
//! and the interface to it. The SQL is in `jobs_sql.rs`, shared by both
//! databases.
//!
//! Jobs are claimed like the outbox's mails: an `UPDATE … RETURNING` with
//! a lease, no transaction held while a job runs. A job's own writes and
//! its completion commit together and only while its lease still holds
//! ([`JobLease`]), so a job that two workers ended up running (a lease that
//! ran out, a process killed mid-job) has its effect once.

use crate::{OptTs, OptUuid, Result, Tenant, Ts};
use aivet_domain::jobs::{Job, JobStatus};
use aivet_domain::{JobId, OrgId, RequestId};
use async_trait::async_trait;
use chrono::{DateTime, Utc};

/// A job to schedule.
#[derive(Clone, Debug)]
pub struct NewJob {
    pub job: Job,
    /// The organisation the job works for; `None` for housekeeping.
    pub org_id: Option<OrgId>,
    pub run_at: DateTime<Utc>,
}

/// A job a change schedules for its own organisation, in the change's
/// transaction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Later {
    pub job: Job,
    pub run_at: DateTime<Utc>,
}

/// What one reminder job does.
#[derive(Clone, Debug)]
pub enum ReminderStep {
    /// Nothing (the request was answered, withdrawn or is gone).
    Finish,
    /// Marks the request "no answer" if it still waits.
    NoAnswer,
    /// Sends nothing now (reminders are off) but schedules the next job.
    Schedule(Later),
    /// Queues the reminder, counts it and notes it on the timeline if the
    /// request still waits, and schedules the next job.
    Send {
        mail: crate::NewMail,
        next: Option<Later>,
    },
}

/// A claimed reminder job and what it does.
#[derive(Clone, Debug)]
pub struct ReminderRun {
    pub lease: JobLease,
    pub request: RequestId,
    pub step: ReminderStep,
}

/// A job a worker has claimed and owns until its lease runs out.
#[derive(Clone, Debug)]
pub struct ClaimedJob {
    pub lease: JobLease,
    pub org_id: Option<OrgId>,
    /// The job; `None` when this version cannot read it (it then fails
    /// visibly).
    pub job: Option<Job>,
    pub kind: String,
    pub attempts: i32,
    pub run_at: DateTime<Utc>,
}

/// The right to finish one claimed job: its id and the worker that holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JobLease {
    pub id: JobId,
    pub owner: String,
}

#[derive(sqlx::FromRow)]
pub(crate) struct ClaimedRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: JobId,
    #[sqlx(try_from = "OptUuid")]
    pub org_id: Option<OrgId>,
    pub kind: String,
    pub payload: String,
    pub attempts: i32,
    #[sqlx(try_from = "Ts")]
    pub run_at: DateTime<Utc>,
}

impl ClaimedRow {
    pub(crate) fn claimed(self, owner: &str) -> ClaimedJob {
        ClaimedJob {
            lease: JobLease {
                id: self.id,
                owner: owner.to_owned(),
            },
            org_id: self.org_id,
            job: Job::from_stored(&self.kind, &self.payload),
            kind: self.kind,
            attempts: self.attempts,
            run_at: self.run_at,
        }
    }
}

/// A job as the settings page lists it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct JobRecord {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: JobId,
    pub kind: String,
    pub payload: String,
    #[sqlx(try_from = "String")]
    pub status: JobStatus,
    pub attempts: i32,
    #[sqlx(try_from = "Ts")]
    pub run_at: DateTime<Utc>,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub finished_at: Option<DateTime<Utc>>,
    pub last_error: Option<String>,
}

impl JobRecord {
    pub fn job(&self) -> Option<Job> {
        Job::from_stored(&self.kind, &self.payload)
    }
}

/// What became of a run that did not finish its job.
#[derive(Clone, Debug)]
pub enum JobSetback {
    /// Try again at this time.
    Retry { at: DateTime<Utc>, error: String },
    /// Give up: the job stays as failed, with its error, until a member
    /// retries it.
    Fail { error: String },
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait JobStore {
    /// Schedules a job unless one with its key exists; true if it is new.
    async fn schedule_job(&self, job: NewJob, now: DateTime<Utc>) -> Result<bool>;
    /// Claims up to `limit` due jobs (queued or retrying and due, or
    /// running with an expired lease) for `owner` until `lease_until`.
    async fn claim_jobs(
        &self,
        owner: &str,
        now: DateTime<Utc>,
        lease_until: DateTime<Utc>,
        limit: i64,
    ) -> Result<Vec<ClaimedJob>>;
    /// Marks a claimed job done. False if its lease was lost meanwhile.
    async fn finish_job(&self, lease: &JobLease, now: DateTime<Utc>) -> Result<bool>;
    /// Records a run that did not finish the job. False if its lease was
    /// lost meanwhile.
    async fn set_back_job(&self, lease: &JobLease, setback: JobSetback) -> Result<bool>;
    /// When the next job is due, if any.
    async fn next_job_due(&self) -> Result<Option<DateTime<Utc>>>;
    /// The organisation's jobs that failed or wait for another attempt,
    /// most recent first.
    async fn org_job_problems(&self, t: &Tenant, limit: i64) -> Result<Vec<JobRecord>>;
    /// Queues a failed job of the organisation again, due at once.
    async fn retry_job(&self, t: &Tenant, id: JobId, now: DateTime<Utc>) -> Result<()>;
    /// A job by its key (for tests and the command line).
    async fn job_by_key(&self, key: &str) -> Result<Option<JobRecord>>;

    // --- what the jobs do: each commits with the job's completion ---

    /// Notes on the timelines of a request's services that its deadline
    /// passed without an answer (nothing when the vendor answered or the
    /// link was withdrawn), and finishes the job, in one transaction.
    /// False (nothing written) when the lease was lost.
    /// What reminders about these requests of one organisation need, in
    /// one read; `None` for a request that is gone.
    async fn reminder_targets(
        &self,
        org: OrgId,
        requests: &[RequestId],
    ) -> Result<Vec<Option<crate::questions::ReminderTarget>>>;
    /// Does the step of each reminder job and finishes it, all in one
    /// transaction (one commit for a whole batch of reminders). For each
    /// job, false when its lease was lost: its step is then not done.
    async fn record_reminders(
        &self,
        org: OrgId,
        runs: &[ReminderRun],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>>;
    /// Marks each job's request "no answer" if it is still waiting, and
    /// finishes the jobs, all in one transaction. For each job, false when
    /// its lease was lost: its request is then not marked.
    async fn mark_no_answers(
        &self,
        org: OrgId,
        jobs: &[(&JobLease, RequestId)],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>>;
    /// Notes on the timeline of each request still open that its deadline
    /// passed, and finishes the jobs, all in one transaction (one commit for
    /// a whole batch of deadlines). For each job, false when its lease was
    /// lost: its note is then not written.
    async fn note_deadlines_passed(
        &self,
        org: OrgId,
        jobs: &[(&JobLease, RequestId)],
        now: DateTime<Utc>,
    ) -> Result<Vec<bool>>;

    /// Who hears that the vendor answered `request`; `None` when the
    /// request is gone.
    async fn arrived_target(
        &self,
        org: OrgId,
        request: RequestId,
    ) -> Result<Option<crate::questions::ArrivedTarget>>;
    /// Queues these mails and finishes the job, in one transaction. False
    /// (nothing written) when the lease was lost.
    async fn finish_job_mailing(
        &self,
        lease: &JobLease,
        mails: &[crate::NewMail],
        now: DateTime<Utc>,
    ) -> Result<bool>;
}
