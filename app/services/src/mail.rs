//! Mail as a member sees it: the test mail, the organisation's recent mails
//! with their delivery state, and sending a failed one again.

use crate::{Auth, ServiceError, Services};
use aivet_domain::{Email, MailId, Msg};
use aivet_mail::{Recipient, TestMail};
use aivet_store::MailRecord;

type Result<T> = std::result::Result<T, ServiceError>;

impl Services {
    /// `email`, if the configured mail server can deliver to it (see
    /// [`Email::needs_smtputf8`]).
    pub(crate) fn deliverable(&self, email: Email) -> std::result::Result<Email, Msg> {
        if email.needs_smtputf8() && !self.mail.smtputf8 {
            Err(Msg::ErrEmailUtf8)
        } else {
            Ok(email)
        }
    }

    /// The message for a typed address that parses but cannot be delivered.
    pub(crate) fn undeliverable(&self, raw: &str) -> Option<Msg> {
        Email::parse(raw)
            .ok()
            .and_then(|e| self.deliverable(e).err())
    }

    pub(crate) fn mail_error(e: aivet_mail::MailError) -> ServiceError {
        ServiceError::Internal(crate::error::InternalError::Mail(e.to_string()))
    }

    /// Queues a test mail to the signed-in member.
    pub async fn send_test_mail(&self, auth: &Auth) -> Result<()> {
        let t = auth.tenant()?;
        if !t.role().can_edit() {
            return Err(ServiceError::Forbidden);
        }
        let org = self.store.org(t).await?;
        let to = Recipient {
            name: Some(auth.user.name.clone()),
            email: auth.user.email.clone(),
            lang: auth.user.lang,
        };
        let mail = self
            .mail
            .mailer
            .compose(
                &to,
                None,
                Some(t.org_id()),
                &TestMail {
                    org_name: org.name,
                    sender: auth.user.name.clone(),
                },
                self.clock.now(),
            )
            .map_err(Self::mail_error)?;
        self.store.enqueue_mail(t, mail).await?;
        self.mail.wake.notify_one();
        Ok(())
    }

    pub async fn mails(&self, auth: &Auth) -> Result<Vec<MailRecord>> {
        Ok(self.store.org_mails(auth.tenant()?, 50).await?)
    }

    pub async fn retry_mail(&self, auth: &Auth, id: MailId) -> Result<()> {
        let t = auth.tenant()?;
        if !t.role().can_edit() {
            return Err(ServiceError::Forbidden);
        }
        self.store.retry_mail(t, id, self.clock.now()).await?;
        self.mail.wake.notify_one();
        Ok(())
    }
}
