//! Telling the business that a vendor answered: the member who sent the
//! questions and the owners of the services asked about get a mail in
//! their language with a link to the review. A job scheduled with the
//! submission, so it goes out once, even across a crash.

use crate::Services;
use aivet_domain::{OrgId, RequestId};
use aivet_mail::{AnswersArrivedMail, Recipient};
use aivet_store::jobs::JobLease;
use aivet_store::StoreError;

impl Services {
    pub(crate) async fn run_answers_arrived(
        &self,
        lease: &JobLease,
        org: OrgId,
        request: RequestId,
    ) -> Result<bool, StoreError> {
        let now = self.clock.now();
        let Some(target) = self.store.arrived_target(org, request).await? else {
            return self.store.finish_job_mailing(lease, &[], now).await;
        };
        let r = &target.request;
        let responder = r
            .responder_name
            .clone()
            .unwrap_or_else(|| r.recipient_name.clone());
        let mut mails = Vec::with_capacity(target.people.len());
        for p in &target.people {
            let mail = AnswersArrivedMail {
                org_name: target.org_name.clone(),
                name: p.name.clone(),
                vendor_name: r.vendor_name.clone(),
                responder: responder.clone(),
                service_name: p.lang.list(&target.services),
                link: format!("{}/requests/{}", self.base_url, r.id),
            };
            let to = Recipient {
                name: Some(p.name.clone()),
                email: p.email.clone(),
                lang: p.lang,
            };
            mails.push(
                self.mail
                    .mailer
                    .compose(&to, None, Some(org), &mail, now)
                    .map_err(|e| StoreError::Config(format!("answers mail: {e}")))?,
            );
        }
        let done = self.store.finish_job_mailing(lease, &mails, now).await?;
        if done && !mails.is_empty() {
            self.mail.wake.notify_one();
        }
        Ok(done)
    }
}
