//! The digest: each member who wants it (daily or on Mondays, set per
//! organisation) gets their overdue and due follow-ups by mail, in their
//! language, from seven in the morning in the organisation's zone. Nothing
//! is sent when there is nothing to say. The hourly sweep schedules one
//! job per member and day; the job's key makes it one mail however many
//! processes sweep.

use crate::{Auth, ServiceError, Services};
use aivet_domain::follow_ups::Digest;
use aivet_domain::jobs::Job;
use aivet_domain::{msg, Fmt, MembershipId, Msg};
use aivet_mail::{DigestItem, DigestMail, Recipient};
use aivet_store::jobs::{JobLease, NewJob};
use aivet_store::StoreError;
use chrono::{NaiveDate, Timelike};

impl Services {
    /// Schedules today's digests of the members whose morning has come.
    pub(crate) async fn schedule_digests(&self) -> Result<usize, StoreError> {
        let now = self.clock.now();
        let mut n = 0;
        for c in self.store.digest_candidates().await? {
            let local = c.zone.local(now);
            let day = local.date_naive();
            if c.digest.due(day, local.hour()) {
                let job = NewJob {
                    job: Job::Digest {
                        membership: c.membership,
                        day,
                    },
                    org_id: Some(c.org_id),
                    run_at: now,
                };
                if self.store.schedule_job(job, now).await? {
                    n += 1;
                }
            }
        }
        Ok(n)
    }

    /// Runs a member's digest for `day`.
    pub(crate) async fn run_digest(
        &self,
        lease: &JobLease,
        org: aivet_domain::OrgId,
        membership: MembershipId,
        day: NaiveDate,
    ) -> Result<bool, StoreError> {
        let now = self.clock.now();
        let Some(target) = self.store.digest_target(org, membership, day).await? else {
            return self.store.finish_job_mailing(lease, &[], now).await;
        };
        if target.items.is_empty() || target.digest == Digest::Off {
            return self.store.finish_job_mailing(lease, &[], now).await;
        }
        let lang = target.lang;
        let fmt = Fmt::new(lang, target.zone);
        let overdue = target.items.iter().filter(|i| i.due_on < day).count();
        let total = msg!(lang, Msg::DigestSummary, n = target.items.len());
        let summary = if overdue > 0 {
            format!("{total}, {}", msg!(lang, Msg::DigestOverdue, n = overdue))
        } else {
            total
        };
        let mail = DigestMail {
            org_name: target.org_name.clone(),
            name: target.name.clone(),
            summary,
            items: target
                .items
                .iter()
                .map(|i| DigestItem {
                    service: i.service_name.clone(),
                    vendor: i.vendor_name.clone(),
                    reason: i.reason.label().text(lang).to_owned(),
                    due: fmt.date(i.due_on),
                    overdue: i.due_on < day,
                    link: match i.request_id {
                        Some(r) => format!("{}/requests/{r}", self.base_url),
                        None => format!("{}/services/{}", self.base_url, i.service_id),
                    },
                })
                .collect(),
            board_link: format!("{}/follow-ups", self.base_url),
            weekly: target.digest == Digest::Weekly,
        };
        let mail = self
            .mail
            .mailer
            .compose(
                &Recipient {
                    name: Some(target.name.clone()),
                    email: target.email.clone(),
                    lang,
                },
                None,
                Some(org),
                &mail,
                now,
            )
            .map_err(|e| StoreError::Config(format!("digest mail: {e}")))?;
        let done = self.store.finish_job_mailing(lease, &[mail], now).await?;
        if done {
            self.mail.wake.notify_one();
        }
        Ok(done)
    }

    /// The member's own digest choice for this organisation.
    pub async fn set_digest(&self, auth: &Auth, choice: &str) -> Result<Digest, ServiceError> {
        let t = auth.tenant()?;
        let digest: Digest = choice
            .parse()
            .map_err(|m| ServiceError::Invalid(vec![("digest", m)]))?;
        self.store.set_digest(t, digest).await?;
        Ok(digest)
    }
}
