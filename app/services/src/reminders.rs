//! Reminders to the vendor contact while no answer has arrived: three days
//! before the deadline, on it, then a week and two weeks after (as many as
//! the organisation allows), in the contact's language, with the open
//! questions and the same answer link. After the last one the request is
//! marked "no answer". Each reminder is a job that schedules the next; a
//! member can also send one at once.

use crate::inventory::require_editor;
use crate::questions::answer_link;
use crate::{Auth, ServiceError, Services};
use aivet_domain::follow_ups::{reminder_day, MAX_REMINDERS, REMINDER_HOUR};
use aivet_domain::jobs::Job;
use aivet_domain::{Fmt, RequestId, Zone};
use aivet_mail::{Recipient, ReminderMail, ReminderQuestion};
use aivet_store::jobs::{Later, ReminderStep};
use aivet_store::questions::ReminderTarget;
use aivet_store::{AuditEvent, NewMail, StoreError};
use chrono::{DateTime, Duration, NaiveDate, NaiveTime, Utc};

/// When reminder `n` goes out: its day at nine in the organisation's zone.
fn reminder_at(deadline: NaiveDate, n: u8, zone: Zone) -> DateTime<Utc> {
    zone.at(
        reminder_day(deadline, n),
        NaiveTime::from_hms_opt(REMINDER_HOUR, 0, 0).expect("a time"),
    )
}

/// The first reminder of a request sent `today`: the first whose day is
/// still ahead (a deadline three days off starts with the one on the day).
pub fn first_reminder(
    request: RequestId,
    deadline: NaiveDate,
    zone: Zone,
    today: NaiveDate,
) -> Option<Later> {
    (0..MAX_REMINDERS)
        .find(|n| reminder_day(deadline, *n) > today)
        .map(|n| Later {
            job: Job::Reminder { request, n },
            run_at: reminder_at(deadline, n, zone),
        })
}

impl Services {
    /// The reminder mail for a request, in its contact's language.
    fn reminder_mail(
        &self,
        target: &ReminderTarget,
        now: DateTime<Utc>,
    ) -> Result<NewMail, ServiceError> {
        let r = &target.request;
        let fmt = Fmt::new(r.lang, target.zone);
        let link = r
            .token_sealed
            .as_deref()
            .and_then(|s| self.link_sealer().open(s))
            .and_then(|t| String::from_utf8(t).ok())
            .map(|token| answer_link(&self.base_url, &token));
        let mail = ReminderMail {
            org_name: target.org_name.clone(),
            contact_name: r.recipient_name.clone(),
            service_name: r.lang.list(&target.services),
            questions: target
                .open_questions
                .iter()
                .map(|(number, text)| ReminderQuestion {
                    number: *number,
                    text: text.clone(),
                })
                .collect(),
            link,
            deadline: fmt.date(r.deadline),
            overdue: target.zone.today(now) > r.deadline,
        };
        self.mail
            .mailer
            .compose(
                &Recipient {
                    name: Some(r.recipient_name.clone()),
                    email: r.recipient_email.clone(),
                    lang: r.lang,
                },
                None,
                Some(target.org_id),
                &mail,
                now,
            )
            .map_err(Self::mail_error)
    }

    /// What reminder job `n` of `request` does, given what the request is
    /// now (`None`: it is gone): send the reminder while the request waits
    /// and reminders are on, then schedule the next one or, after the
    /// last, the "no answer".
    pub(crate) fn reminder_step(
        &self,
        target: Option<&ReminderTarget>,
        request: RequestId,
        n: u8,
        now: DateTime<Utc>,
    ) -> Result<ReminderStep, ServiceError> {
        let Some(target) = target else {
            return Ok(ReminderStep::Finish);
        };
        let r = &target.request;
        if !r.waiting() {
            return Ok(ReminderStep::Finish);
        }
        let max = target.policy.max_reminders;
        let on = target.policy.reminders && r.reminders;
        if n >= max {
            // The organisation allows fewer reminders now: they are used up.
            return Ok(ReminderStep::NoAnswer);
        }
        let next = if n + 1 < max {
            Some(Later {
                job: Job::Reminder { request, n: n + 1 },
                run_at: reminder_at(r.deadline, n + 1, target.zone),
            })
        } else if on {
            // A week after the last reminder, the request counts as unanswered.
            Some(Later {
                job: Job::NoAnswer { request },
                run_at: reminder_at(r.deadline, n, target.zone) + Duration::days(7),
            })
        } else {
            None
        };
        if !on {
            // Switched off: nothing goes out, but the chain goes on, so
            // that switching them on again resumes with the next one.
            return Ok(match next {
                Some(next) => ReminderStep::Schedule(next),
                None => ReminderStep::Finish,
            });
        }
        Ok(ReminderStep::Send {
            mail: self.reminder_mail(target, now)?,
            next,
        })
    }

    /// A member sends a reminder at once (editors and owners).
    pub async fn remind_now(&self, auth: &Auth, request: RequestId) -> Result<(), ServiceError> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let target = self.store.reminder_target_of(t, request).await?;
        if !target.request.waiting() {
            return Err(ServiceError::Refused(aivet_domain::Msg::ErrNotWaiting));
        }
        let now = self.clock.now();
        let mail = self.reminder_mail(&target, now)?;
        self.store
            .remind_now(t, request, mail, now)
            .await
            .map_err(|e| match e {
                StoreError::Closed => ServiceError::Refused(aivet_domain::Msg::ErrNotWaiting),
                other => other.into(),
            })?;
        self.mail.wake.notify_one();
        Ok(())
    }

    /// Switches one request's reminders on or off (editors and owners).
    pub async fn set_request_reminders(
        &self,
        auth: &Auth,
        request: RequestId,
        on: bool,
    ) -> Result<(), ServiceError> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::RemindersSwitched { request, on };
        Ok(self
            .store
            .set_request_reminders(t, request, on, event, self.clock.now())
            .await?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(y: i32, m: u32, day: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, day).unwrap()
    }

    #[test]
    fn the_first_reminder_is_the_first_still_ahead() {
        let r = RequestId(uuid::Uuid::nil());
        let berlin = Zone::parse("Europe/Berlin").unwrap();
        let first = first_reminder(r, d(2026, 12, 14), berlin, d(2026, 11, 30)).unwrap();
        assert_eq!(first.job, Job::Reminder { request: r, n: 0 });
        // 11 December, 09:00 in Berlin.
        assert_eq!(first.run_at.to_rfc3339(), "2026-12-11T08:00:00+00:00");
        let first = first_reminder(r, d(2026, 12, 2), berlin, d(2026, 11, 30)).unwrap();
        assert_eq!(first.job, Job::Reminder { request: r, n: 1 }, "on the day");
        // Summer time: 9:00 in Oslo is 7:00 UTC.
        let oslo = Zone::parse("Europe/Oslo").unwrap();
        let first = first_reminder(r, d(2027, 6, 10), oslo, d(2027, 5, 1)).unwrap();
        assert_eq!(first.run_at.to_rfc3339(), "2027-06-07T07:00:00+00:00");
    }
}
