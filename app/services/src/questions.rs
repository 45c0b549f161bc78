//! The questions to vendors: sending them (by mail, through the outbox),
//! the vendor's answer page behind a personal link, answers entered from a
//! mail or letter, the review of each answer, asking again, and the decision
//! on the service. Editors and owners act; viewers read. Everything is
//! recorded in the audit log in the same transaction as the change.

use crate::inventory::require_editor;
use crate::secrets::{looks_like_token, new_token};
use crate::{Auth, ServiceError, Services};
use aivet_domain::inventory::ServicePart;
use aivet_domain::jobs::Job;
use aivet_domain::questions::{
    parse_key_and_deadline, AnswerForm, DecisionForm, QuestionSet, QuestionSetForm, ReviewForm,
    SendDraft, SendForm, LINK_DAYS_AFTER_DEADLINE,
};
use aivet_domain::{AttachmentId, Fmt, Lang, Msg, RequestId, ServiceId, VendorId};
use aivet_mail::{MailQuestion, QuestionsMail, Recipient};
use aivet_store::inventory::{Contact, ServiceDetail};
use aivet_store::jobs::Later;
use aivet_store::questions::{
    AssessmentState, AttachmentInfo, NewAttachment, NewItem, NewRequest, PortalView, QuestionEvent,
    RequestDetail, RequestRow, SendOutcome,
};
use aivet_store::{AuditEvent, StoreError, Tenant};
use chrono::{Duration, NaiveDate};

type Result<T> = std::result::Result<T, ServiceError>;

/// The purpose under which answer-link tokens are hashed.
pub(crate) const ANSWER: &str = "answer";

pub fn answer_link(base_url: &str, token: &str) -> String {
    format!("{base_url}/answer/{token}")
}

/// A contact the questions can go to, with the vendor's place in the service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecipientOption {
    pub contact: Contact,
    pub vendor_name: String,
    pub part: ServicePart,
}

/// What the send form needs.
#[derive(Clone, Debug)]
pub struct AskData {
    pub service_name: String,
    pub set: QuestionSet,
    pub recipients: Vec<RecipientOption>,
    pub default_deadline: NaiveDate,
}

/// A mail as the preview shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MailPreview {
    pub to: String,
    pub subject: String,
    pub text: String,
}

/// The questions part of a service's page.
#[derive(Clone, Debug)]
pub struct QuestionsOverview {
    pub assessment: AssessmentState,
    pub requests: Vec<RequestRow>,
    pub events: Vec<QuestionEvent>,
}

/// One request about to be written, before the token is hashed.
struct Outgoing {
    request: NewRequest,
    text: String,
}

/// The parts of a service whose vendors can be asked, in the order offered.
fn parts(s: &ServiceDetail) -> Vec<(VendorId, ServicePart)> {
    let mut out: Vec<(VendorId, ServicePart)> = vec![(s.service.vendor_id, ServicePart::Vendor)];
    for (id, part) in [
        (s.service.integrator_id, ServicePart::Integrator),
        (s.service.model_provider_id, ServicePart::ModelProvider),
        (s.service.inference_host_id, ServicePart::InferenceHost),
    ] {
        if let Some(id) = id.filter(|id| !out.iter().any(|(v, _)| v == id)) {
            out.push((id, part));
        }
    }
    out
}

impl Services {
    /// Today in the organisation's time zone.
    pub fn today(&self, t: &Tenant) -> NaiveDate {
        t.zone().today(self.clock.now())
    }

    /// The deadline a send form suggests.
    pub fn default_deadline(&self, t: &Tenant) -> NaiveDate {
        self.today(t) + Duration::days(aivet_domain::questions::DEFAULT_DEADLINE_DAYS)
    }

    pub async fn ask_data(&self, auth: &Auth, service: ServiceId) -> Result<AskData> {
        let t = auth.tenant()?;
        let detail = self.store.service(t, service).await?;
        let mut recipients = Vec::new();
        for (vendor, part) in parts(&detail) {
            let v = self.store.vendor(t, vendor).await?;
            for contact in self.store.contacts(t, vendor).await? {
                recipients.push(RecipientOption {
                    contact,
                    vendor_name: v.name.clone(),
                    part,
                });
            }
        }
        Ok(AskData {
            set: self.store.question_set(t).await?,
            service_name: detail.service.name,
            recipients,
            default_deadline: self.default_deadline(t),
        })
    }

    /// What the send form needs on a vendor's page: the vendor's contacts
    /// and every service it has a part in.
    pub async fn ask_vendor_data(
        &self,
        auth: &Auth,
        vendor: VendorId,
    ) -> Result<(AskData, Vec<(ServiceId, String)>)> {
        let t = auth.tenant()?;
        let v = self.store.vendor(t, vendor).await?;
        let recipients = self
            .store
            .contacts(t, vendor)
            .await?
            .into_iter()
            .map(|contact| RecipientOption {
                contact,
                vendor_name: v.name.clone(),
                part: ServicePart::Vendor,
            })
            .collect();
        let services = self
            .store
            .services_of_vendor(t, vendor)
            .await?
            .into_iter()
            .map(|s| (s.id, s.name))
            .collect();
        Ok((
            AskData {
                set: self.store.question_set(t).await?,
                service_name: v.name,
                recipients,
                default_deadline: self.default_deadline(t),
            },
            services,
        ))
    }

    /// Renders the mails a send would queue, without sending anything.
    pub async fn preview_questions(
        &self,
        auth: &Auth,
        service: Option<ServiceId>,
        form: &SendForm,
    ) -> Result<Vec<MailPreview>> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let (_, out) = self.outgoing(auth, t, service, form).await?;
        Ok(out
            .into_iter()
            .map(|o| MailPreview {
                to: format!(
                    "{} <{}>",
                    o.request.recipient_name, o.request.recipient_email
                ),
                subject: o.request.mail.subject.clone(),
                text: o.text,
            })
            .collect())
    }

    /// Sends the questions to the chosen contacts. The form's key makes a
    /// repeated submission (a double click, a retried request) send once.
    pub async fn send_questions(
        &self,
        auth: &Auth,
        service: Option<ServiceId>,
        form: &SendForm,
    ) -> Result<SendOutcome> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let (services, out) = self.outgoing(auth, t, service, form).await?;
        let count = out.len();
        let event = AuditEvent::QuestionsSent {
            services: services.clone(),
            to: out
                .iter()
                .map(|o| o.request.recipient_email.clone())
                .collect(),
        };
        let outcome = self
            .store
            .send_requests(
                t,
                &services,
                &form.send_key,
                out.into_iter().map(|o| o.request).collect(),
                event,
                self.clock.now(),
            )
            .await?;
        if !outcome.repeated && count > 0 {
            self.mail.wake.notify_one();
        }
        Ok(outcome)
    }

    /// The services a send asks about: `primary` (from a service's page)
    /// and the form's further ones, in that order, without repeats.
    fn send_services(primary: Option<ServiceId>, draft: &SendDraft) -> Vec<ServiceId> {
        let mut out: Vec<ServiceId> = primary.into_iter().collect();
        for s in &draft.services {
            if !out.contains(s) {
                out.push(*s);
            }
        }
        out
    }

    /// Builds the requests and mails of a send form. Every chosen contact
    /// must work for a vendor that has a part in every chosen service.
    async fn outgoing(
        &self,
        auth: &Auth,
        t: &Tenant,
        primary: Option<ServiceId>,
        form: &SendForm,
    ) -> Result<(Vec<ServiceId>, Vec<Outgoing>)> {
        let draft = form.parse(self.today(t)).map_err(ServiceError::Invalid)?;
        let services = Self::send_services(primary, &draft);
        if services.is_empty() {
            return Err(ServiceError::Invalid(vec![(
                "services",
                Msg::ErrChooseService,
            )]));
        }
        let mut names = Vec::with_capacity(services.len());
        let mut vendors: Option<Vec<VendorId>> = None;
        for (i, id) in services.iter().enumerate() {
            let detail = match self.store.service(t, *id).await {
                Ok(d) => d,
                // The page's own service is "not found"; a further one is a field error.
                Err(StoreError::NotFound) if i > 0 || primary.is_none() => {
                    return Err(ServiceError::Invalid(vec![(
                        "services",
                        Msg::ErrChoiceInvalid,
                    )]))
                }
                Err(e) => return Err(e.into()),
            };
            let here: Vec<VendorId> = parts(&detail).into_iter().map(|(v, _)| v).collect();
            vendors = Some(match vendors {
                None => here,
                Some(before) => before.into_iter().filter(|v| here.contains(v)).collect(),
            });
            names.push(detail.service.name);
        }
        let mut chosen: Vec<(Contact, String)> = Vec::new();
        for vendor in vendors.unwrap_or_default() {
            let v = self.store.vendor(t, vendor).await?;
            for c in self.store.contacts(t, vendor).await? {
                if draft.contacts.contains(&c.id) {
                    chosen.push((c, v.name.clone()));
                }
            }
        }
        if chosen.len() != draft.contacts.len() {
            // A contact of another vendor, or of another organisation.
            return Err(ServiceError::Invalid(vec![(
                "contacts",
                Msg::ErrChoiceInvalid,
            )]));
        }
        // Keep the order the form listed them in.
        chosen.sort_by_key(|(c, _)| draft.contacts.iter().position(|id| *id == c.id));
        let set = self.store.question_set(t).await?;
        if draft
            .optional
            .iter()
            .any(|code| !set.further().any(|i| i.code == *code))
        {
            return Err(ServiceError::Invalid(vec![(
                "optional",
                Msg::ErrChoiceInvalid,
            )]));
        }
        // An incident of another organisation is as unknown as a random id.
        let incident = match draft.incident {
            None => None,
            Some(id) => match self.store.incident(t, id).await {
                Ok(d) => Some(d.incident),
                Err(StoreError::NotFound) => {
                    return Err(ServiceError::Invalid(vec![(
                        "incident",
                        Msg::ErrChoiceInvalid,
                    )]))
                }
                Err(e) => return Err(e.into()),
            },
        };
        let org = self.store.org(t).await?;
        let mut out = Vec::with_capacity(chosen.len());
        for (contact, vendor_name) in chosen {
            let lang = draft.lang.unwrap_or(contact.lang);
            let about_incident = incident.as_ref().map(|i| NewItem {
                code: aivet_domain::questions::INCIDENT_QUESTION.to_owned(),
                question: aivet_domain::msg!(
                    lang,
                    Msg::QIncident,
                    title = &i.title,
                    aware = &Fmt::new(lang, t.zone()).date(t.zone().today(i.we_aware_at))
                ),
                why: Msg::QIncidentWhy.text(lang).to_owned(),
                earlier_answer: None,
                earlier_note: None,
            });
            let items = about_incident
                .into_iter()
                .chain(
                    set.texts(lang, &draft.optional)
                        .into_iter()
                        .map(|q| NewItem {
                            code: q.code,
                            question: q.text,
                            why: q.why,
                            earlier_answer: None,
                            earlier_note: None,
                        }),
                )
                .collect();
            out.push(self.compose_request(
                auth,
                t,
                &org.name,
                &lang.list(&names),
                Target {
                    vendor_name,
                    name: contact.name,
                    email: contact.email,
                    lang,
                },
                (draft.deadline, set.version),
                None,
                items,
            )?);
        }
        Ok((services, out))
    }

    #[allow(clippy::too_many_arguments)]
    fn compose_request(
        &self,
        auth: &Auth,
        t: &Tenant,
        org_name: &str,
        service_name: &str,
        to: Target,
        (deadline, set_version): (NaiveDate, i32),
        previous: Option<RequestId>,
        items: Vec<NewItem>,
    ) -> Result<Outgoing> {
        let now = self.clock.now();
        let token = new_token();
        // The link works until the end of the deadline's day where the
        // organisation is, and for some weeks after.
        let last_day = deadline + Duration::days(LINK_DAYS_AFTER_DEADLINE);
        let expires_at = t.zone().end_of(last_day);
        let fmt = Fmt::new(to.lang, t.zone());
        let mail = QuestionsMail {
            org_name: org_name.to_owned(),
            sender: auth.user.name.clone(),
            contact_name: to.name.clone(),
            vendor_name: to.vendor_name.clone(),
            service_name: service_name.to_owned(),
            questions: items
                .iter()
                .map(|i| MailQuestion {
                    text: i.question.clone(),
                    why: i.why.clone(),
                    earlier: i.earlier_answer.clone(),
                    note: i.earlier_note.clone(),
                })
                .collect(),
            link: answer_link(&self.base_url, &token),
            deadline: fmt.date(deadline),
            expires: fmt.date(last_day),
            again: previous.is_some(),
        };
        let (queued, text) = self
            .mail
            .mailer
            .compose_with_text(
                &Recipient {
                    name: Some(to.name.clone()),
                    email: to.email.clone(),
                    lang: to.lang,
                },
                Some(&auth.user.email),
                Some(t.org_id()),
                &mail,
                now,
            )
            .map_err(Self::mail_error)?;
        let id = RequestId(uuid::Uuid::new_v4());
        Ok(Outgoing {
            request: NewRequest {
                id,
                vendor_name: to.vendor_name,
                recipient_name: to.name,
                recipient_email: to.email,
                lang: to.lang,
                deadline,
                set_version,
                previous,
                token_hash: self.key.hash(ANSWER, &token),
                token_sealed: self.link_sealer().seal(token.as_bytes()),
                expires_at,
                items,
                mail: queued,
                // The timeline notes the deadline once its day has ended
                // where the organisation is; the first reminder still
                // ahead starts the chain of reminders.
                later: std::iter::once(Later {
                    job: Job::DeadlinePassed { request: id },
                    run_at: t.zone().end_of(deadline),
                })
                .chain(crate::reminders::first_reminder(
                    id,
                    deadline,
                    t.zone(),
                    t.zone().today(now),
                ))
                .collect(),
            },
            text,
        })
    }

    /// Sends the questions of `request` that are not answered satisfactorily
    /// once more to the same person, quoting the earlier answers and, with
    /// each, the note on why it was not enough: `notes[j]` for the j-th
    /// question asked again (as the preview showed it, edited or emptied),
    /// the reviewer's note where the form sent none.
    pub async fn ask_again(
        &self,
        auth: &Auth,
        request: RequestId,
        send_key: &str,
        deadline: &str,
        notes: &[String],
    ) -> Result<SendOutcome> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let detail = self.store.request(t, request).await?;
        let (send_key, deadline) = parse_key_and_deadline(send_key, deadline, self.today(t))
            .map_err(ServiceError::Invalid)?;
        if detail.request.status != aivet_domain::questions::RequestStatus::Submitted {
            return Err(ServiceError::Refused(Msg::ErrNotAnsweredYet));
        }
        let mut errors = Vec::new();
        let items: Vec<NewItem> = detail
            .items
            .iter()
            .filter(|i| i.review != Some(aivet_domain::questions::Review::Satisfactory))
            .enumerate()
            .map(|(j, i)| NewItem {
                code: i.code.clone(),
                question: i.question.clone(),
                why: i.why.clone(),
                earlier_answer: i.answer.clone(),
                earlier_note: match notes.get(j) {
                    Some(typed) => aivet_domain::inventory::long_text(typed).unwrap_or_else(|m| {
                        errors.push(("notes", m));
                        None
                    }),
                    None => i.review_note.clone(),
                },
            })
            .collect();
        if !errors.is_empty() {
            return Err(ServiceError::Invalid(errors));
        }
        if items.is_empty() {
            return Err(ServiceError::Refused(Msg::ErrNothingToAskAgain));
        }
        let org = self.store.org(t).await?;
        let r = &detail.request;
        let names: Vec<String> = detail.services.iter().map(|(_, n)| n.clone()).collect();
        let out = self.compose_request(
            auth,
            t,
            &org.name,
            &r.lang.list(&names),
            Target {
                vendor_name: r.vendor_name.clone(),
                name: r.recipient_name.clone(),
                email: r.recipient_email.clone(),
                lang: r.lang,
            },
            (deadline, r.set_version),
            Some(request),
            items,
        )?;
        let event = AuditEvent::AskedAgain {
            request,
            to: r.recipient_email.clone(),
            questions: out.request.items.len(),
        };
        let outcome = self
            .store
            .send_requests(
                t,
                &detail.services.iter().map(|(s, _)| *s).collect::<Vec<_>>(),
                &send_key,
                vec![out.request],
                event,
                self.clock.now(),
            )
            .await?;
        if !outcome.repeated {
            self.mail.wake.notify_one();
        }
        Ok(outcome)
    }

    pub async fn questions_overview(
        &self,
        auth: &Auth,
        service: ServiceId,
    ) -> Result<QuestionsOverview> {
        let t = auth.tenant()?;
        Ok(QuestionsOverview {
            assessment: self.store.assessment(t, service).await?,
            requests: self.store.service_requests(t, service).await?,
            events: self.store.question_events(t, service).await?,
        })
    }

    pub async fn request_detail(&self, auth: &Auth, id: RequestId) -> Result<RequestDetail> {
        Ok(self.store.request(auth.tenant()?, id).await?)
    }

    pub async fn review_answer(
        &self,
        auth: &Auth,
        id: RequestId,
        position: i32,
        form: &ReviewForm,
    ) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(ServiceError::Invalid)?;
        let event = AuditEvent::Reviewed {
            request: id,
            question: position + 1,
            review: draft.review,
        };
        Ok(self
            .store
            .review_item(t, id, position, &draft, event, self.clock.now())
            .await?)
    }

    pub async fn decide(&self, auth: &Auth, service: ServiceId, form: &DecisionForm) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let draft = form.parse().map_err(ServiceError::Invalid)?;
        let event = AuditEvent::Decided {
            service,
            decision: draft.decision,
        };
        Ok(self
            .store
            .decide(t, service, &draft, event, self.clock.now())
            .await?)
    }

    pub async fn revoke_request(&self, auth: &Auth, id: RequestId) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let event = AuditEvent::LinkRevoked { request: id };
        Ok(self
            .store
            .revoke_request(t, id, event, self.clock.now())
            .await?)
    }

    pub async fn reopen_request(&self, auth: &Auth, id: RequestId) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let now = self.clock.now();
        let event = AuditEvent::Reopened { request: id };
        self.store
            .reopen_request(
                t,
                id,
                now + Duration::days(LINK_DAYS_AFTER_DEADLINE),
                event,
                now,
            )
            .await
            .map_err(closed)
    }

    /// A member enters the answers the vendor sent by mail or letter.
    pub async fn enter_answers(&self, auth: &Auth, id: RequestId, form: &AnswerForm) -> Result<()> {
        let t = auth.tenant()?;
        require_editor(t)?;
        let detail = self.store.request(t, id).await?;
        let mut draft = form
            .parse(detail.items.len(), false)
            .map_err(ServiceError::Invalid)?;
        if draft.received_on.is_none() {
            return Err(ServiceError::Invalid(vec![(
                "received_on",
                Msg::ErrDateInvalid,
            )]));
        }
        if draft.name.is_none() {
            draft.name = Some(detail.request.recipient_name.clone());
        }
        let event = AuditEvent::AnswersEntered {
            request: id,
            received_on: draft.received_on,
        };
        self.store
            .enter_answers(t, id, &draft, event, self.clock.now())
            .await
            .map_err(closed)
    }

    // --- attached documents ---

    /// A member attaches the original mail or a document to a request.
    pub async fn attach_file(
        &self,
        auth: &Auth,
        id: RequestId,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Result<AttachmentInfo> {
        let t = auth.tenant()?;
        require_editor(t)?;
        // The request first: a foreign id is "not found" whatever the file.
        self.store.request(t, id).await?;
        let file = aivet_domain::attachments::check(filename, &bytes)
            .map_err(|m| ServiceError::Invalid(vec![("attachment", m)]))?;
        let event = AuditEvent::FileAttached {
            request: id,
            file: file.filename.clone(),
            by_vendor: false,
        };
        self.store
            .attach(
                t,
                id,
                &NewAttachment {
                    filename: file.filename,
                    media_type: file.media_type.to_owned(),
                    data: bytes,
                    by: auth.user.name.clone(),
                },
                event,
                self.clock.now(),
            )
            .await
            .map_err(closed)
    }

    pub async fn attachment(
        &self,
        auth: &Auth,
        id: AttachmentId,
    ) -> Result<(AttachmentInfo, Vec<u8>)> {
        Ok(self.store.attachment(auth.tenant()?, id).await?)
    }

    /// The vendor attaches a document through the answer link.
    /// `view` is what [`Services::portal_view`] showed for the same token;
    /// the store checks the link again as it writes.
    pub async fn portal_attach(
        &self,
        token: &str,
        view: &PortalView,
        filename: &str,
        bytes: Vec<u8>,
    ) -> Result<AttachmentInfo> {
        let file = aivet_domain::attachments::check(filename, &bytes)
            .map_err(|m| ServiceError::Invalid(vec![("attachment", m)]))?;
        self.store
            .portal_attach(
                &self.key.hash(ANSWER, token),
                &NewAttachment {
                    filename: file.filename,
                    media_type: file.media_type.to_owned(),
                    data: bytes,
                    by: view.request.vendor_name.clone(),
                },
                self.clock.now(),
            )
            .await
            .map_err(closed)
    }

    // --- the question set ---

    pub async fn question_set(&self, auth: &Auth) -> Result<QuestionSet> {
        Ok(self.store.question_set(auth.tenant()?).await?)
    }

    /// Saves the set editor's form as the next version. `base_version` is
    /// the version the editor showed: if another was saved meanwhile,
    /// nothing is saved (no change is silently overwritten).
    pub async fn save_question_set(
        &self,
        auth: &Auth,
        base_version: i32,
        form: &QuestionSetForm,
    ) -> Result<i32> {
        let t = auth.tenant()?;
        if !t.role().can_manage_members() {
            return Err(ServiceError::Forbidden);
        }
        let current = self.store.question_set(t).await?;
        if current.version != base_version {
            return Err(ServiceError::Refused(Msg::ErrSetChanged));
        }
        let set = form.parse(&current).map_err(ServiceError::Invalid)?;
        let event = AuditEvent::QuestionSetSaved {
            version: set.version,
            questions: set
                .items
                .iter()
                .filter(|i| i.enabled)
                .map(|i| i.code.clone())
                .collect(),
        };
        self.store
            .save_question_set(t, &set, event, self.clock.now())
            .await
            .map_err(|e| match e {
                StoreError::Closed => ServiceError::Refused(Msg::ErrSetChanged),
                other => other.into(),
            })?;
        Ok(set.version)
    }

    // --- the vendor's side: no account, only the link ---

    /// Whether `client` may use answer links now (rate limit against guessing).
    pub fn answer_link_allowed(&self, client: &str) -> bool {
        self.limits
            .answer_links_per_client
            .check(client, self.clock.now())
    }

    /// The request behind a link; `None` for a wrong, expired or revoked link.
    pub async fn portal_view(&self, token: &str) -> Result<Option<PortalView>> {
        if !looks_like_token(token) {
            return Ok(None);
        }
        Ok(self
            .store
            .portal_request(&self.key.hash(ANSWER, token), self.clock.now())
            .await?)
    }

    /// Saves (or submits) the vendor's answers. `NotFound` for a dead link;
    /// field errors leave everything as it was.
    /// `view` is what [`Services::portal_view`] showed for the same token
    /// (for the number of questions); the store checks the link again as it
    /// writes.
    pub async fn portal_save(
        &self,
        token: &str,
        view: &PortalView,
        form: &AnswerForm,
        submit: bool,
    ) -> Result<PortalView> {
        let mut draft = form
            .parse(view.items.len(), submit)
            .map_err(ServiceError::Invalid)?;
        // The vendor page has no such fields.
        draft.received_on = None;
        draft.source = None;
        self.store
            .portal_save(
                &self.key.hash(ANSWER, token),
                &draft,
                submit,
                self.clock.now(),
            )
            .await
            .map_err(closed)
    }
}

struct Target {
    vendor_name: String,
    name: String,
    email: String,
    lang: Lang,
}

fn closed(e: StoreError) -> ServiceError {
    match e {
        StoreError::Closed => ServiceError::Refused(Msg::ErrRequestClosed),
        StoreError::TooMany => ServiceError::Invalid(vec![("attachment", Msg::ErrTooManyFiles)]),
        other => other.into(),
    }
}
