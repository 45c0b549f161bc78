//! Stories of jobs: scheduled once by key, claimed with a lease, finished
//! only while the lease holds, retried and given up visibly; and of the
//! organisation's time zone.

use super::{open, org_with_owner, t0, Backend, TestDb};
use aivet_domain::jobs::{Job, JobStatus};
use aivet_domain::{JobId, RequestId, Zone};
use aivet_store::jobs::{JobSetback, Later, NewJob, ReminderRun, ReminderStep};
use aivet_store::{AuditEvent, DynStore, StoreError, Tenant};
use chrono::Duration;
use std::collections::HashMap;

fn deadline_job(org: &Tenant, n: u128, run_at: chrono::DateTime<chrono::Utc>) -> NewJob {
    NewJob {
        job: Job::DeadlinePassed {
            request: RequestId(uuid::Uuid::from_u128(n)),
        },
        org_id: Some(org.org_id()),
        run_at,
    }
}

async fn status_of(store: &DynStore, key: &str) -> (JobStatus, i32) {
    let j = store
        .job_by_key(key)
        .await
        .unwrap()
        .expect("the job exists");
    (j.status, j.attempts)
}

pub async fn jobs_are_scheduled_once_and_leased(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    let at = t0() + Duration::hours(1);
    // The same key twice is one job, whoever schedules it.
    assert!(store
        .schedule_job(deadline_job(&t, 1, at), t0())
        .await
        .unwrap());
    assert!(!store
        .schedule_job(deadline_job(&t, 1, at), t0())
        .await
        .unwrap());
    let sweep = NewJob {
        job: Job::Sweep,
        org_id: None,
        run_at: t0(),
    };
    assert!(store.schedule_job(sweep.clone(), t0()).await.unwrap());
    assert!(!store.schedule_job(sweep, t0()).await.unwrap());
    assert_eq!(store.next_job_due().await.unwrap(), Some(t0()));

    // Only what is due is claimed; the lease keeps others off it.
    let claimed = store
        .claim_jobs("w1", t0(), t0() + Duration::minutes(5), 10)
        .await
        .unwrap();
    assert_eq!(claimed.len(), 1);
    assert_eq!(claimed[0].job, Some(Job::Sweep));
    assert_eq!(claimed[0].org_id, None);
    assert_eq!(claimed[0].attempts, 1);
    let sweep_key = Job::Sweep.key(t0());
    assert_eq!(status_of(&store, &sweep_key).await, (JobStatus::Running, 1));
    assert!(store
        .claim_jobs(
            "w2",
            t0() + Duration::minutes(4),
            t0() + Duration::minutes(9),
            10
        )
        .await
        .unwrap()
        .is_empty());
    // The lease runs out (the worker died): another worker takes it over,
    // and the first one can no longer finish it.
    let later = t0() + Duration::hours(2);
    let again = store
        .claim_jobs("w2", later, later + Duration::minutes(5), 10)
        .await
        .unwrap();
    assert_eq!(again.len(), 2, "the expired lease and the job now due");
    let sweep_again = again.iter().find(|c| c.job == Some(Job::Sweep)).unwrap();
    assert_eq!(sweep_again.attempts, 2);
    assert!(!store.finish_job(&claimed[0].lease, later).await.unwrap());
    assert!(store.finish_job(&sweep_again.lease, later).await.unwrap());
    assert_eq!(status_of(&store, &sweep_key).await, (JobStatus::Done, 2));
    assert!(
        !store.finish_job(&sweep_again.lease, later).await.unwrap(),
        "once"
    );

    // A run that fails comes back later, or is given up and stays.
    let deadline = again.iter().find(|c| c.job != Some(Job::Sweep)).unwrap();
    let key = deadline.job.as_ref().unwrap().key(deadline.run_at);
    assert!(store
        .set_back_job(
            &deadline.lease,
            JobSetback::Retry {
                at: later + Duration::minutes(1),
                error: "database busy".into()
            }
        )
        .await
        .unwrap());
    assert_eq!(status_of(&store, &key).await.0, JobStatus::Retrying);
    assert_eq!(
        store.next_job_due().await.unwrap(),
        Some(later + Duration::minutes(1))
    );
    assert!(store
        .claim_jobs("w3", later, later + Duration::minutes(5), 10)
        .await
        .unwrap()
        .is_empty());
    let third = store
        .claim_jobs(
            "w3",
            later + Duration::minutes(1),
            later + Duration::minutes(6),
            10,
        )
        .await
        .unwrap();
    assert_eq!(third.len(), 1);
    assert!(store
        .set_back_job(
            &third[0].lease,
            JobSetback::Fail {
                error: "cannot".into()
            }
        )
        .await
        .unwrap());
    let failed = store.job_by_key(&key).await.unwrap().unwrap();
    assert_eq!(failed.status, JobStatus::Failed);
    assert_eq!(failed.last_error.as_deref(), Some("cannot"));
    assert_eq!(
        store.next_job_due().await.unwrap(),
        None,
        "failed jobs wait for a person"
    );
}

pub async fn a_lost_lease_writes_nothing(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    store
        .schedule_job(deadline_job(&t, 9, t0()), t0())
        .await
        .unwrap();
    let first = store
        .claim_jobs("w1", t0(), t0() + Duration::minutes(1), 1)
        .await
        .unwrap()
        .remove(0);
    let later = t0() + Duration::minutes(2);
    let second = store
        .claim_jobs("w2", later, later + Duration::minutes(1), 1)
        .await
        .unwrap()
        .remove(0);
    let request = RequestId(uuid::Uuid::from_u128(9));
    // The request does not exist: the job finishes without a note, but
    // only for the worker that holds it, also when both leases come in
    // one batch.
    let batch = [(&first.lease, request), (&second.lease, request)];
    assert_eq!(
        store
            .note_deadlines_passed(t.org_id(), &batch, later)
            .await
            .unwrap(),
        [false, true]
    );
    let job = store
        .job_by_key(&format!("deadline_passed:{request}"))
        .await
        .unwrap()
        .unwrap();
    assert_eq!((job.status, job.attempts), (JobStatus::Done, 2));
}

/// Reminders of a batch commit together, but each only while its own lease
/// holds: a job another worker took over in the meantime does nothing.
pub async fn a_batch_of_reminders_skips_the_job_whose_lease_was_lost(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    let request = |n: u128| RequestId(uuid::Uuid::from_u128(n));
    for n in [1, 2] {
        let job = NewJob {
            job: Job::Reminder {
                request: request(n),
                n: 0,
            },
            org_id: Some(t.org_id()),
            run_at: t0(),
        };
        store.schedule_job(job, t0()).await.unwrap();
    }
    let mine = store
        .claim_jobs("w1", t0(), t0() + Duration::minutes(1), 10)
        .await
        .unwrap();
    assert_eq!(mine.len(), 2);
    // The leases run out; another worker takes one of the two over.
    let later = t0() + Duration::minutes(2);
    let theirs = store
        .claim_jobs("w2", later, later + Duration::minutes(1), 1)
        .await
        .unwrap()
        .remove(0);
    let next = |r: RequestId| Later {
        job: Job::Reminder { request: r, n: 1 },
        run_at: later + Duration::days(3),
    };
    let runs: Vec<ReminderRun> = mine
        .iter()
        .map(|c| {
            let Some(Job::Reminder { request, .. }) = c.job else {
                panic!("a reminder: {c:?}");
            };
            ReminderRun {
                lease: c.lease.clone(),
                request,
                step: ReminderStep::Schedule(next(request)),
            }
        })
        .collect();
    let done = store
        .record_reminders(t.org_id(), &runs, later)
        .await
        .unwrap();
    for (run, done) in runs.iter().zip(done) {
        let lost = run.lease.id == theirs.lease.id;
        assert_eq!(done, !lost, "{run:?}");
        let scheduled = store
            .job_by_key(&next(run.request).job.key(next(run.request).run_at))
            .await
            .unwrap();
        assert_eq!(scheduled.is_some(), !lost, "the next reminder only once");
        let (status, _) = status_of(
            &store,
            &Job::Reminder {
                request: run.request,
                n: 0,
            }
            .key(t0()),
        )
        .await;
        let expected = if lost {
            JobStatus::Running
        } else {
            JobStatus::Done
        };
        assert_eq!(status, expected);
    }
}

/// E7 for jobs: four workers claiming at once run every job exactly once.
pub async fn concurrent_workers_run_each_job_once(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, t) = org_with_owner(&store, "a@example.com", "A").await;
    const JOBS: u128 = 400;
    for n in 0..JOBS {
        store
            .schedule_job(deadline_job(&t, n, t0()), t0())
            .await
            .unwrap();
    }
    let mut workers = Vec::new();
    for w in 0..4 {
        let store = store.clone();
        let org = t.org_id();
        workers.push(tokio::spawn(async move {
            let owner = format!("worker-{w}");
            let mut ran: Vec<JobId> = Vec::new();
            loop {
                let claimed = store
                    .claim_jobs(&owner, t0(), t0() + Duration::minutes(5), 8)
                    .await
                    .unwrap();
                if claimed.is_empty() {
                    return ran;
                }
                for c in claimed {
                    let Some(Job::DeadlinePassed { request }) = c.job else {
                        panic!("unexpected job {:?}", c.job)
                    };
                    assert_eq!(
                        store
                            .note_deadlines_passed(org, &[(&c.lease, request)], t0())
                            .await
                            .unwrap(),
                        [true]
                    );
                    ran.push(c.lease.id);
                }
            }
        }));
    }
    let mut runs: HashMap<JobId, usize> = HashMap::new();
    for w in workers {
        for id in w.await.unwrap() {
            *runs.entry(id).or_default() += 1;
        }
    }
    assert_eq!(runs.len(), JOBS as usize, "every job ran");
    assert!(runs.values().all(|n| *n == 1), "no job ran twice");
    for n in [0, 199, 399] {
        let key = format!("deadline_passed:{}", uuid::Uuid::from_u128(n));
        assert_eq!(status_of(&store, &key).await, (JobStatus::Done, 1));
    }
}

pub async fn job_problems_are_scoped_and_retried(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    let (_, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, b_) = org_with_owner(&store, "b@example.com", "B").await;
    for (t, n) in [(&a, 1), (&b_, 2)] {
        store
            .schedule_job(deadline_job(t, n, t0()), t0())
            .await
            .unwrap();
    }
    for c in store
        .claim_jobs("w", t0(), t0() + Duration::minutes(5), 10)
        .await
        .unwrap()
    {
        store
            .set_back_job(
                &c.lease,
                JobSetback::Fail {
                    error: "boom".into(),
                },
            )
            .await
            .unwrap();
    }
    let a_problems = store.org_job_problems(&a, 10).await.unwrap();
    assert_eq!(a_problems.len(), 1);
    assert_eq!(
        a_problems[0].job(),
        Some(Job::DeadlinePassed {
            request: RequestId(uuid::Uuid::from_u128(1))
        })
    );
    let b_problem = store.org_job_problems(&b_, 10).await.unwrap().remove(0);
    // B's job is not A's to retry: the same answer as a job that does not exist.
    assert!(matches!(
        store.retry_job(&a, b_problem.id, t0()).await,
        Err(StoreError::NotFound)
    ));
    assert!(matches!(
        store.retry_job(&a, JobId(uuid::Uuid::new_v4()), t0()).await,
        Err(StoreError::NotFound)
    ));
    let later = t0() + Duration::hours(1);
    store.retry_job(&a, a_problems[0].id, later).await.unwrap();
    assert!(store.org_job_problems(&a, 10).await.unwrap().is_empty());
    assert_eq!(store.next_job_due().await.unwrap(), Some(later));
    let audit = store.audit_entries(&a, 10).await.unwrap();
    assert!(matches!(
        audit[0].event(),
        Some(AuditEvent::JobRetried { .. })
    ));
    // Only a failed job can be retried.
    assert!(matches!(
        store.retry_job(&a, a_problems[0].id, later).await,
        Err(StoreError::NotFound)
    ));
}

pub async fn time_zones_are_kept_per_organisation(b: Backend) {
    let Some(db) = TestDb::new(b).await else {
        return;
    };
    let store = open(&db).await;
    // The owners of the story sign up in German: Berlin, until changed.
    let (user, a) = org_with_owner(&store, "a@example.com", "A").await;
    let (_, b_) = org_with_owner(&store, "b@example.com", "B").await;
    assert_eq!(a.zone().name(), "Europe/Berlin");
    assert_eq!(
        store.org(&a).await.unwrap().time_zone.name(),
        "Europe/Berlin"
    );
    let oslo = Zone::parse("Europe/Oslo").unwrap();
    store
        .set_time_zone(
            &a,
            oslo,
            AuditEvent::TimeZoneChanged {
                zone: oslo.name().into(),
            },
            t0(),
        )
        .await
        .unwrap();
    let a_again = store.tenant_for(user.id, a.org_id()).await.unwrap();
    assert_eq!(
        a_again.zone(),
        oslo,
        "the next request works in the new zone"
    );
    assert_eq!(
        store.first_tenant(user.id).await.unwrap().unwrap().zone(),
        oslo
    );
    assert_eq!(
        store.org(&b_).await.unwrap().time_zone.name(),
        "Europe/Berlin"
    );
}
