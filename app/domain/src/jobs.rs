//! Work that runs later or on a schedule: the kinds of job, what each
//! carries, where a job stands, and the rules for retrying and for the
//! recurring sweep. Pure: the store keeps jobs, the services run them.

use crate::i18n::Msg;
use crate::inventory::choice;
use crate::{IncidentId, MembershipId, RequestId};
use chrono::{DateTime, Duration, DurationRound, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

choice!(
    /// Where a job stands. A job is never deleted: done and failed jobs
    /// stay as the record of what ran.
    JobStatus {
        Queued = "queued" => JobQueued,
        Running = "running" => JobRunning,
        Done = "done" => JobDone,
        Retrying = "retrying" => JobRetrying,
        Failed = "failed" => JobFailed,
    }
);

/// What a job does, with what it needs. Stored as its kind code and its
/// fields as JSON.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "payload")]
pub enum Job {
    /// The hourly sweep: removes expired sessions and links, and schedules
    /// what earlier versions did not (a deadline's job for a request sent
    /// before jobs existed).
    #[serde(rename = "sweep")]
    Sweep,
    /// A request's deadline has passed: its services' timelines say so,
    /// unless the vendor answered or the link was withdrawn meanwhile.
    #[serde(rename = "deadline_passed")]
    DeadlinePassed { request: RequestId },
    /// Reminder `n` (from 0) to the vendor contact of a request still
    /// waiting for an answer; it schedules the next one, or after the
    /// last one the request's "no answer".
    #[serde(rename = "reminder")]
    Reminder { request: RequestId, n: u8 },
    /// The reminders are used up and no answer came: the request is
    /// marked "no answer", a finding of its own.
    #[serde(rename = "no_answer")]
    NoAnswer { request: RequestId },
    /// A member's digest of their follow-ups for one day (their own
    /// morning), if there is anything to say.
    #[serde(rename = "digest")]
    Digest {
        membership: MembershipId,
        day: NaiveDate,
    },
    /// The vendor submitted answers: the member who asked and the
    /// services' owners are told by mail, with a link to the review.
    #[serde(rename = "answers_arrived")]
    AnswersArrived { request: RequestId },
    /// `hours` since we became aware of an incident with personal data
    /// and no Art. 33 decision yet: the owners are alerted (at 72, that
    /// the deadline was missed). `aware` is the awareness the alert was
    /// scheduled for: once it is moved, the alert is stale and does
    /// nothing, and the new times have jobs of their own.
    #[serde(rename = "art33_alert")]
    Art33Alert {
        incident: IncidentId,
        hours: u8,
        aware: DateTime<Utc>,
    },
}

impl Job {
    /// The job's idempotency key: a second job with the same key is the
    /// same job, however many processes schedule it.
    pub fn key(&self, run_at: DateTime<Utc>) -> String {
        match self {
            Job::Sweep => format!("sweep:{}", run_at.format("%Y-%m-%dT%H")),
            Job::DeadlinePassed { request } => format!("deadline_passed:{request}"),
            Job::Reminder { request, n } => format!("reminder:{request}:{n}"),
            Job::NoAnswer { request } => format!("no_answer:{request}"),
            Job::Digest { membership, day } => format!("digest:{membership}:{day}"),
            Job::AnswersArrived { request } => format!("answers_arrived:{request}"),
            Job::Art33Alert {
                incident,
                hours,
                aware,
            } => format!("art33:{incident}:{}:{hours}", aware.timestamp()),
        }
    }

    /// The kind code, as stored.
    pub fn kind(&self) -> &'static str {
        match self {
            Job::Sweep => "sweep",
            Job::DeadlinePassed { .. } => "deadline_passed",
            Job::Reminder { .. } => "reminder",
            Job::NoAnswer { .. } => "no_answer",
            Job::Digest { .. } => "digest",
            Job::AnswersArrived { .. } => "answers_arrived",
            Job::Art33Alert { .. } => "art33_alert",
        }
    }

    /// What the job is, for the list of failed jobs.
    pub fn label(&self) -> Msg {
        match self {
            Job::Sweep => Msg::JobSweep,
            Job::DeadlinePassed { .. } => Msg::JobDeadlinePassed,
            Job::Reminder { .. } => Msg::JobReminder,
            Job::NoAnswer { .. } => Msg::JobNoAnswer,
            Job::Digest { .. } => Msg::JobDigest,
            Job::AnswersArrived { .. } => Msg::JobAnswersArrived,
            Job::Art33Alert { .. } => Msg::JobArt33Alert,
        }
    }

    /// The stored form: kind code and payload JSON.
    pub fn to_stored(&self) -> (String, String) {
        let mut v = serde_json::to_value(self).unwrap_or_default();
        let payload = v
            .get_mut("payload")
            .map(serde_json::Value::take)
            .unwrap_or(serde_json::Value::Null);
        (self.kind().to_owned(), payload.to_string())
    }

    /// Reads a stored job; `None` for a kind or payload this version
    /// cannot run (the job then fails visibly instead of doing something else).
    pub fn from_stored(kind: &str, payload: &str) -> Option<Job> {
        let mut entry = serde_json::Map::new();
        entry.insert("kind".into(), serde_json::Value::String(kind.to_owned()));
        let payload: serde_json::Value = serde_json::from_str(payload).ok()?;
        if !payload.is_null() {
            entry.insert("payload".into(), payload);
        }
        serde_json::from_value(serde_json::Value::Object(entry)).ok()
    }
}

/// How often the sweep runs.
pub const SWEEP_EVERY: Duration = Duration::hours(1);

/// The start of the sweep period `now` falls in: every process that
/// schedules the sweep for this period schedules the same job.
pub fn sweep_period(now: DateTime<Utc>) -> DateTime<Utc> {
    now.duration_trunc(SWEEP_EVERY).unwrap_or(now)
}

/// How many times a job is tried before it is given up as failed.
pub const MAX_ATTEMPTS: i32 = 8;

/// The delay before attempt `attempts + 1`: one minute, doubling, at most
/// six hours (about a day and a half for all eight attempts).
pub fn retry_delay(attempts: i32) -> Duration {
    let exp = (attempts.max(1) - 1).min(20) as u32;
    Duration::minutes((1i64 << exp).min(6 * 60))
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    #[test]
    fn jobs_round_trip_through_their_stored_form() {
        let request = RequestId(uuid::Uuid::from_u128(7));
        for job in [
            Job::Sweep,
            Job::DeadlinePassed { request },
            Job::Reminder { request, n: 3 },
            Job::NoAnswer { request },
            Job::Digest {
                membership: MembershipId(uuid::Uuid::from_u128(8)),
                day: NaiveDate::from_ymd_opt(2026, 12, 7).unwrap(),
            },
            Job::AnswersArrived { request },
            Job::Art33Alert {
                incident: IncidentId(uuid::Uuid::from_u128(9)),
                hours: 48,
                aware: Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap(),
            },
        ] {
            let (kind, payload) = job.to_stored();
            assert_eq!(kind, job.kind());
            assert_eq!(Job::from_stored(&kind, &payload), Some(job));
        }
        assert_eq!(Job::from_stored("launch_rockets", "null"), None);
        assert_eq!(Job::from_stored("deadline_passed", "{}"), None);
    }

    #[test]
    fn one_sweep_per_hour_whoever_schedules_it() {
        let a = Utc.with_ymd_and_hms(2026, 12, 1, 14, 0, 5).unwrap();
        let b = Utc.with_ymd_and_hms(2026, 12, 1, 14, 59, 59).unwrap();
        let c = Utc.with_ymd_and_hms(2026, 12, 1, 15, 0, 0).unwrap();
        assert_eq!(sweep_period(a), sweep_period(b));
        assert_eq!(Job::Sweep.key(sweep_period(a)), "sweep:2026-12-01T14");
        assert_eq!(Job::Sweep.key(sweep_period(c)), "sweep:2026-12-01T15");
    }

    #[test]
    fn retries_back_off_and_are_capped() {
        assert_eq!(retry_delay(1), Duration::minutes(1));
        assert_eq!(retry_delay(2), Duration::minutes(2));
        assert_eq!(retry_delay(4), Duration::minutes(8));
        assert_eq!(retry_delay(30), Duration::hours(6));
        let total: i64 = (1..MAX_ATTEMPTS)
            .map(|a| retry_delay(a).num_minutes())
            .sum();
        assert!(total < 48 * 60, "{total} minutes");
    }
}
