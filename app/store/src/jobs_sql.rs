// The queries of jobs, shared by SQLite and PostgreSQL like `shared.rs`
// (included after it).

use crate::jobs::{ClaimedJob, ClaimedRow, JobLease, JobRecord, JobSetback, JobStore, NewJob, ReminderRun, ReminderStep};
use aivet_domain::JobId;

const JOB_COLUMNS: &str =
    "SELECT id, kind, payload, status, attempts, run_at, created_at, finished_at, last_error FROM jobs";

/// Schedules a job inside `tx` (with the change that causes it) unless
/// one with its key exists; true if it is new.
async fn insert_job(tx: &mut Tx, job: &NewJob, now: DateTime<Utc>) -> Result<bool> {
    Ok(insert_jobs(tx, std::slice::from_ref(job), now).await? == 1)
}

/// Schedules jobs inside `tx`, many rows per statement, leaving out those
/// whose key exists; how many are new.
async fn insert_jobs(tx: &mut Tx, jobs: &[NewJob], now: DateTime<Utc>) -> Result<u64> {
    let rows: Vec<(Uuid, Option<Uuid>, String, String, String, Ts)> = jobs
        .iter()
        .map(|job| {
            let (kind, payload) = job.job.to_stored();
            (Uuid::new_v4(), job.org_id.map(|o| o.0), kind, job.job.key(job.run_at), payload, Ts::from(job.run_at))
        })
        .collect();
    let mut new = 0;
    for chunk in statement_chunks(&rows) {
        // `WHERE true` keeps SQLite from reading `ON CONFLICT` as a join's `ON`.
        let sql = many_params(format!(
            "INSERT INTO jobs (id, org_id, kind, key, payload, status, run_at, attempts, created_at)
             SELECT column1, column2, column3, column4, column5, 'queued', column6, 0, $1 FROM {} WHERE true
             ON CONFLICT (key) DO NOTHING",
            rows_table(chunk.len(), 6, 2)
        ));
        let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(Ts::from(now));
        new += bind_rows!(q, chunk, |r| r.0, r.1, r.2.as_str(), r.3.as_str(), r.4.as_str(), r.5)
            .execute(&mut **tx)
            .await?
            .rows_affected();
    }
    Ok(new)
}

/// Marks a claimed job done inside `tx`, if its lease still holds.
async fn finish_job_in(tx: &mut Tx, lease: &JobLease, now: DateTime<Utc>) -> Result<bool> {
    Ok(finish_jobs_in(tx, &[lease], now).await?[0])
}

/// Marks claimed jobs done inside `tx`, those whose lease still holds;
/// for each lease, whether it held.
async fn finish_jobs_in(tx: &mut Tx, leases: &[&JobLease], now: DateTime<Utc>) -> Result<Vec<bool>> {
    let mut by_owner: std::collections::BTreeMap<&str, Vec<Uuid>> = Default::default();
    for lease in leases {
        by_owner.entry(lease.owner.as_str()).or_default().push(lease.id.0);
    }
    let mut finished = std::collections::HashSet::new();
    for (owner, ids) in by_owner {
        for chunk in statement_chunks(&ids) {
            let sql = many_params(format!(
                "UPDATE jobs SET status = 'done', finished_at = $1, last_error = NULL, lease_owner = NULL, lease_expires_at = NULL
                 WHERE status = 'running' AND lease_owner = $2 AND id {} RETURNING id",
                ids_in(chunk.len(), 3)
            ));
            let q = sqlx::query_as::<_, (Uuid,)>(&sql).persistent(chunk_cached(chunk.len())).bind(Ts::from(now)).bind(owner);
            let q = bind_ids!(q, chunk);
            finished.extend(q.fetch_all(&mut **tx).await?.into_iter().map(|(id,)| (owner, JobId(id))));
        }
    }
    Ok(leases.iter().map(|l| finished.contains(&(l.owner.as_str(), l.id))).collect())
}

/// Finishes jobs about one request each, inside `tx`, first of all in a
/// batch: a job another worker took over is its worker's to do. For each
/// job whether its lease held, and the requests of those that did.
async fn finish_request_jobs_in(
    tx: &mut Tx,
    jobs: &[(&JobLease, RequestId)],
    now: DateTime<Utc>,
) -> Result<(Vec<bool>, Vec<RequestId>)> {
    let leases: Vec<&JobLease> = jobs.iter().map(|(lease, _)| *lease).collect();
    let done = finish_jobs_in(tx, &leases, now).await?;
    let mine = jobs.iter().zip(&done).filter(|(_, done)| **done).map(|((_, r), _)| *r).collect();
    Ok((done, mine))
}

/// Schedules the jobs a change of the tenant's organisation causes.
async fn insert_later(tx: &mut Tx, t: &Tenant, later: &[crate::jobs::Later], now: DateTime<Utc>) -> Result<()> {
    let jobs: Vec<NewJob> =
        later.iter().map(|l| NewJob { job: l.job.clone(), org_id: Some(t.org_id()), run_at: l.run_at }).collect();
    insert_jobs(tx, &jobs, now).await?;
    Ok(())
}

/// Marks the requests "no answer" inside `tx`, those that still wait.
async fn mark_no_answers_in(tx: &mut Tx, org: OrgId, requests: &[RequestId], now: DateTime<Utc>) -> Result<()> {
    let rows = waiting_requests(tx, org, requests).await?;
    let waiting: Vec<&crate::questions::WaitingRequest> = rows.values().filter(|r| r.waiting()).collect();
    let keys: Vec<Uuid> = waiting.iter().map(|r| r.id.0).collect();
    for chunk in statement_chunks(&keys) {
        let sql = many_params(format!(
            "UPDATE question_requests SET no_answer_at = $2 WHERE org_id = $1 AND id {}",
            ids_in(chunk.len(), 3)
        ));
        let q = sqlx::query(&sql).persistent(chunk_cached(chunk.len())).bind(org.0).bind(Ts::from(now));
        bind_ids!(q, chunk).execute(&mut **tx).await?;
    }
    let entries: Vec<(RequestId, Event)> = waiting
        .iter()
        .map(|r| (r.id, Event::NoAnswer { to: r.recipient_email.clone(), reminders: r.reminders_sent }))
        .collect();
    request_events(tx, org, &entries, "", now).await?;
    let audits: Vec<AuditEvent> = waiting.iter().map(|r| AuditEvent::NoAnswer { request: r.id }).collect();
    insert_audits(tx, org, None, &audits, now).await
}

fn job_scope(org: Option<OrgId>) -> Scope<'static> {
    match org {
        Some(org) => Scope::Org(org, None),
        None => Scope::System,
    }
}

#[async_trait::async_trait]
impl JobStore for ThisStore {
    async fn schedule_job(&self, job: NewJob, now: DateTime<Utc>) -> Result<bool> {
        let mut tx = self.write(job_scope(job.org_id)).await?;
        let new = insert_job(&mut tx, &job, now).await?;
        tx.commit().await?;
        Ok(new)
    }

    async fn claim_jobs(&self, owner: &str, now: DateTime<Utc>, lease_until: DateTime<Utc>, limit: i64) -> Result<Vec<ClaimedJob>> {
        // As with the outbox: the due condition stands in the outer WHERE
        // too, so that of two workers picking the same row one skips it.
        const DUE: &str = "((status IN ('queued', 'retrying') AND run_at <= $3)
                            OR (status = 'running' AND lease_expires_at <= $3))";
        let mut tx = self.write(Scope::System).await?;
        let rows = sqlx::query_as::<_, ClaimedRow>(&format!(
            "UPDATE jobs SET status = 'running', lease_owner = $1, lease_expires_at = $2, attempts = attempts + 1
             WHERE id IN (SELECT id FROM jobs WHERE {DUE} ORDER BY run_at LIMIT $4 {lock}) AND {DUE}
             RETURNING id, org_id, kind, payload, attempts, run_at",
            lock = ThisStore::SKIP_LOCKED
        ))
        .bind(owner)
        .bind(Ts::from(lease_until))
        .bind(Ts::from(now))
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows.into_iter().map(|r| r.claimed(owner)).collect())
    }

    async fn finish_job(&self, lease: &JobLease, now: DateTime<Utc>) -> Result<bool> {
        let mut tx = self.write(Scope::System).await?;
        let done = finish_job_in(&mut tx, lease, now).await?;
        tx.commit().await?;
        Ok(done)
    }

    async fn set_back_job(&self, lease: &JobLease, setback: JobSetback) -> Result<bool> {
        let mut tx = self.write(Scope::System).await?;
        let q = match &setback {
            JobSetback::Retry { at, error } => sqlx::query(
                "UPDATE jobs SET status = 'retrying', run_at = $1, last_error = $2, lease_owner = NULL, lease_expires_at = NULL
                 WHERE id = $3 AND status = 'running' AND lease_owner = $4",
            )
            .bind(Ts::from(*at))
            .bind(error.as_str()),
            JobSetback::Fail { error } => sqlx::query(
                "UPDATE jobs SET status = 'failed', last_error = $1, lease_owner = NULL, lease_expires_at = NULL
                 WHERE id = $2 AND status = 'running' AND lease_owner = $3",
            )
            .bind(error.as_str()),
        };
        let r = q.bind(lease.id.0).bind(&lease.owner).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(r.rows_affected() == 1)
    }

    async fn next_job_due(&self) -> Result<Option<DateTime<Utc>>> {
        let mut tx = self.read(Scope::System).await?;
        let row: Option<(Ts,)> = sqlx::query_as(
            "SELECT min(t) FROM (SELECT min(run_at) AS t FROM jobs WHERE status IN ('queued', 'retrying')
                                 UNION ALL SELECT min(lease_expires_at) FROM jobs WHERE status = 'running') AS due
             HAVING min(t) IS NOT NULL",
        )
        .fetch_optional(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(row.map(|r| r.0 .0))
    }

    async fn org_job_problems(&self, t: &Tenant, limit: i64) -> Result<Vec<JobRecord>> {
        let mut tx = self.read(Scope::Tenant(t)).await?;
        let rows = sqlx::query_as::<_, JobRecord>(&format!(
            "{JOB_COLUMNS} WHERE org_id = $1 AND status IN ('failed', 'retrying') ORDER BY created_at DESC, id LIMIT $2"
        ))
        .bind(t.org_id().0)
        .bind(limit)
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(rows)
    }

    async fn retry_job(&self, t: &Tenant, id: JobId, now: DateTime<Utc>) -> Result<()> {
        let mut tx = self.write(Scope::Tenant(t)).await?;
        let r = sqlx::query(
            "UPDATE jobs SET status = 'queued', run_at = $3, attempts = 0
             WHERE org_id = $1 AND id = $2 AND status = 'failed'",
        )
        .bind(t.org_id().0)
        .bind(id.0)
        .bind(Ts::from(now))
        .execute(&mut *tx)
        .await?;
        if r.rows_affected() != 1 {
            return Err(StoreError::NotFound);
        }
        insert_audit(&mut tx, t.org_id(), Some(t.user_id()), &AuditEvent::JobRetried { job: id }, now).await?;
        tx.commit().await?;
        Ok(())
    }

    async fn job_by_key(&self, key: &str) -> Result<Option<JobRecord>> {
        let mut tx = self.read(Scope::System).await?;
        let row = sqlx::query_as::<_, JobRecord>(&format!("{JOB_COLUMNS} WHERE key = $1"))
            .bind(key)
            .fetch_optional(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(row)
    }

    async fn reminder_targets(&self, org: OrgId, requests: &[RequestId]) -> Result<Vec<Option<crate::questions::ReminderTarget>>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let o = reminder_org_in(&mut tx, org).await?;
        let targets = reminder_targets_in(&mut tx, org, &o, requests).await?;
        tx.commit().await?;
        Ok(targets)
    }

    async fn record_reminders(&self, org: OrgId, runs: &[ReminderRun], now: DateTime<Utc>) -> Result<Vec<bool>> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        // The leases first: a job another worker has taken over does
        // nothing here (its worker does it), and ours commit with it.
        let leases: Vec<&JobLease> = runs.iter().map(|r| &r.lease).collect();
        let done = finish_jobs_in(&mut tx, &leases, now).await?;
        let mine = || runs.iter().zip(&done).filter(|(_, done)| **done).map(|(run, _)| run);
        let mut next: Vec<&crate::jobs::Later> = Vec::new();
        let mut sends = Vec::new();
        for run in mine() {
            match &run.step {
                ReminderStep::Finish | ReminderStep::NoAnswer => {}
                ReminderStep::Schedule(later) => next.push(later),
                ReminderStep::Send { mail, next: later } => sends.push(((run.request, mail), later.as_ref())),
            }
        }
        // Reminders go first, then "no answer" (in a batch they are later).
        let mails: Vec<(RequestId, &crate::NewMail)> = sends.iter().map(|(m, _)| *m).collect();
        let went = add_reminders(&mut tx, org, &mails, None, now).await?;
        next.extend(sends.iter().zip(went).filter(|(_, went)| *went).filter_map(|((_, later), _)| *later));
        let unanswered: Vec<RequestId> =
            mine().filter(|run| matches!(run.step, ReminderStep::NoAnswer)).map(|run| run.request).collect();
        mark_no_answers_in(&mut tx, org, &unanswered, now).await?;
        let jobs: Vec<NewJob> =
            next.iter().map(|l| NewJob { job: l.job.clone(), org_id: Some(org), run_at: l.run_at }).collect();
        insert_jobs(&mut tx, &jobs, now).await?;
        tx.commit().await?;
        Ok(done)
    }

    async fn arrived_target(&self, org: OrgId, request: RequestId) -> Result<Option<crate::questions::ArrivedTarget>> {
        let mut tx = self.read(Scope::Org(org, None)).await?;
        let request = match request_row(&mut tx, org, request).await {
            Ok(r) => r,
            Err(StoreError::NotFound) => return Ok(None),
            Err(e) => return Err(e),
        };
        let (org_name,): (String,) = sqlx::query_as("SELECT name FROM orgs WHERE id = $1").bind(org.0).fetch_one(&mut *tx).await?;
        let services = covered(&mut tx, org, request.id).await?.into_iter().map(|(_, n)| n).collect();
        let person = |(email, name, lang): (String, String, String)| -> Result<crate::questions::Person> {
            Ok(crate::questions::Person { email, name, lang: Lang::try_from(lang).map_err(StoreError::Config)? })
        };
        let asked: Vec<(String, String, String)> = sqlx::query_as(
            "SELECT u.email, u.name, u.lang FROM memberships m JOIN users u ON u.id = m.user_id
             WHERE m.org_id = $1 AND (
                 m.id IN (SELECT r.sent_by_member FROM question_requests r WHERE r.org_id = $1 AND r.id = $2)
                 OR m.id IN (SELECT s.owner_id FROM question_request_services c
                             JOIN services s ON s.org_id = c.org_id AND s.id = c.service_id
                             WHERE c.org_id = $1 AND c.request_id = $2))
             ORDER BY u.email",
        )
        .bind(org.0)
        .bind(request.id.0)
        .fetch_all(&mut *tx)
        .await?;
        let asked = if asked.is_empty() {
            sqlx::query_as(
                "SELECT u.email, u.name, u.lang FROM memberships m JOIN users u ON u.id = m.user_id
                 WHERE m.org_id = $1 AND m.role = 'owner' ORDER BY u.email",
            )
            .bind(org.0)
            .fetch_all(&mut *tx)
            .await?
        } else {
            asked
        };
        let people = asked.into_iter().map(person).collect::<Result<Vec<_>>>()?;
        tx.commit().await?;
        Ok(Some(crate::questions::ArrivedTarget { request, org_name, services, people }))
    }

    async fn finish_job_mailing(&self, lease: &JobLease, mails: &[crate::NewMail], now: DateTime<Utc>) -> Result<bool> {
        let mut tx = self.write(Scope::System).await?;
        for mail in mails {
            insert_mail(&mut tx, mail).await?;
        }
        if !finish_job_in(&mut tx, lease, now).await? {
            return Ok(false);
        }
        tx.commit().await?;
        Ok(true)
    }

    async fn mark_no_answers(&self, org: OrgId, jobs: &[(&JobLease, RequestId)], now: DateTime<Utc>) -> Result<Vec<bool>> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        let (done, mine) = finish_request_jobs_in(&mut tx, jobs, now).await?;
        mark_no_answers_in(&mut tx, org, &mine, now).await?;
        tx.commit().await?;
        Ok(done)
    }

    async fn note_deadlines_passed(&self, org: OrgId, jobs: &[(&JobLease, RequestId)], now: DateTime<Utc>) -> Result<Vec<bool>> {
        let mut tx = self.write(Scope::Org(org, None)).await?;
        let (done, mine) = finish_request_jobs_in(&mut tx, jobs, now).await?;
        // A request that went with its service has nothing to note.
        let rows = waiting_requests(&mut tx, org, &mine).await?;
        let notes: Vec<(RequestId, Event)> = rows
            .values()
            .filter(|r| r.status != aivet_domain::questions::RequestStatus::Submitted && r.revoked_at.is_none())
            .map(|r| (r.id, Event::DeadlinePassed { to: r.recipient_email.clone(), deadline: r.deadline }))
            .collect();
        request_events(&mut tx, org, &notes, "", now).await?;
        tx.commit().await?;
        Ok(done)
    }
}
