//! What the store keeps of the questions sent to vendors, and the interface
//! to it. The SQL is in `questions_sql.rs`, shared by both databases.

use crate::{AuditEvent, NewMail, OptTs, OptUuid, Result, Tenant, Ts};
use aivet_domain::mail::MailStatus;
use aivet_domain::questions::{
    AnswerDraft, AnsweredVia, Assessment, DecisionDraft, QuestionSet, RequestStatus, Review,
    ReviewDraft,
};
use aivet_domain::timeline::Event;
use aivet_domain::{AttachmentId, Lang, MailId, RequestId, ServiceId};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

/// One question of a request about to be sent.
#[derive(Clone, Debug)]
pub struct NewItem {
    pub code: String,
    pub question: String,
    pub why: String,
    pub earlier_answer: Option<String>,
    /// When asked again: why the earlier answer was not enough.
    pub earlier_note: Option<String>,
}

/// A request about to be sent, with its mail.
#[derive(Clone, Debug)]
pub struct NewRequest {
    pub id: RequestId,
    pub vendor_name: String,
    pub recipient_name: String,
    pub recipient_email: String,
    pub lang: Lang,
    pub deadline: NaiveDate,
    pub set_version: i32,
    pub previous: Option<RequestId>,
    pub token_hash: Vec<u8>,
    /// The answer link's token, sealed: reminders carry the same link.
    pub token_sealed: Vec<u8>,
    pub expires_at: DateTime<Utc>,
    pub items: Vec<NewItem>,
    pub mail: NewMail,
    /// What the request schedules (the note when its deadline passes).
    pub later: Vec<crate::jobs::Later>,
}

/// What became of a send.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SendOutcome {
    pub requests: Vec<RequestId>,
    /// The send key had been used before: nothing new was sent.
    pub repeated: bool,
}

/// A request as lists and the review page show it, with its mail's state.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct RequestRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: RequestId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    pub vendor_name: String,
    pub recipient_name: String,
    pub recipient_email: String,
    #[sqlx(try_from = "String")]
    pub lang: Lang,
    pub deadline: NaiveDate,
    pub set_version: i32,
    #[sqlx(try_from = "OptUuid")]
    pub previous_id: Option<RequestId>,
    #[sqlx(try_from = "Ts")]
    pub expires_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub revoked_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptUuid")]
    pub mail_id: Option<MailId>,
    pub sent_by: String,
    #[sqlx(try_from = "Ts")]
    pub sent_at: DateTime<Utc>,
    #[sqlx(try_from = "String")]
    pub status: RequestStatus,
    #[sqlx(try_from = "OptTs")]
    pub saved_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub submitted_at: Option<DateTime<Utc>>,
    pub responder_name: Option<String>,
    pub responder_role: Option<String>,
    pub responder_email: Option<String>,
    #[sqlx(try_from = "OptChoice")]
    pub answered_via: Option<AnsweredVia>,
    pub received_on: Option<NaiveDate>,
    pub received_source: Option<String>,
    /// Whether reminders go out for this request.
    pub reminders: bool,
    pub reminders_sent: i32,
    /// When the reminders were used up without an answer.
    #[sqlx(try_from = "OptTs")]
    pub no_answer_at: Option<DateTime<Utc>>,
    /// The outbox state of the request's mail.
    #[sqlx(try_from = "OptChoice")]
    pub mail_status: Option<MailStatus>,
    pub mail_error: Option<String>,
    /// Questions whose answer is not (yet) judged satisfactory.
    pub open_items: i64,
    pub items: i64,
}

/// What the jobs about a waiting request (reminders, the passed deadline,
/// "no answer") read of it: whom they concern, whether it still waits, and
/// its answer link (sealed). Narrower than [`RequestRow`], whose mail
/// state and counts of the questions they do not need.
#[derive(Clone, Debug, sqlx::FromRow)]
pub struct WaitingRequest {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: RequestId,
    pub recipient_name: String,
    pub recipient_email: String,
    #[sqlx(try_from = "String")]
    pub lang: Lang,
    pub deadline: NaiveDate,
    #[sqlx(try_from = "String")]
    pub status: RequestStatus,
    #[sqlx(try_from = "OptTs")]
    pub revoked_at: Option<DateTime<Utc>>,
    #[sqlx(try_from = "OptTs")]
    pub no_answer_at: Option<DateTime<Utc>>,
    /// Whether reminders go out for this request.
    pub reminders: bool,
    pub reminders_sent: i32,
    pub token_sealed: Option<Vec<u8>>,
}

impl WaitingRequest {
    /// Still waiting for the vendor: not answered, not withdrawn, not given up.
    pub fn waiting(&self) -> bool {
        self.status
            .waiting(self.revoked_at.is_some(), self.no_answer_at.is_some())
    }
}

/// What a reminder needs to know of its request.
#[derive(Clone, Debug)]
pub struct ReminderTarget {
    pub org_id: aivet_domain::OrgId,
    pub request: WaitingRequest,
    pub org_name: String,
    pub zone: aivet_domain::Zone,
    pub policy: aivet_domain::follow_ups::Policy,
    /// The services asked about, the request's own first.
    pub services: Vec<String>,
    /// The questions still without an answer: (number from 1, text).
    pub open_questions: Vec<(usize, String)>,
}

/// Someone to tell by mail, in their language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Person {
    pub email: String,
    pub name: String,
    pub lang: Lang,
}

/// Who hears that a vendor answered a request, and about what.
#[derive(Clone, Debug)]
pub struct ArrivedTarget {
    pub request: RequestRow,
    pub org_name: String,
    /// The services asked about, the request's own first.
    pub services: Vec<String>,
    /// The member who sent the request and the services' owners, once
    /// each; the organisation's owners when none of them is a member any
    /// more.
    pub people: Vec<Person>,
}

impl RequestRow {
    /// Still waiting for the vendor: not answered, not withdrawn, not given up.
    pub fn waiting(&self) -> bool {
        self.status
            .waiting(self.revoked_at.is_some(), self.no_answer_at.is_some())
    }

    /// Whether the vendor's link still works at `now`.
    pub fn link_open(&self, now: DateTime<Utc>) -> bool {
        self.revoked_at.is_none() && self.expires_at > now
    }
}

/// One question of a sent request, with its answer and review.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct Item {
    pub position: i32,
    pub code: String,
    pub question: String,
    pub why: String,
    pub earlier_answer: Option<String>,
    pub earlier_note: Option<String>,
    pub answer: Option<String>,
    #[sqlx(try_from = "OptChoice")]
    pub review: Option<Review>,
    pub review_note: Option<String>,
    pub reviewed_by: Option<String>,
    #[sqlx(try_from = "OptTs")]
    pub reviewed_at: Option<DateTime<Utc>>,
}

/// A nullable column of a closed choice (a review, a mail's state, …).
#[derive(Clone, Debug, sqlx::Type)]
#[sqlx(transparent)]
pub struct OptChoice(pub Option<String>);
impl<T: TryFrom<String, Error = String>> TryFrom<OptChoice> for Option<T> {
    type Error = String;
    fn try_from(r: OptChoice) -> std::result::Result<Self, String> {
        r.0.map(T::try_from).transpose()
    }
}

/// A file to attach.
#[derive(Clone, Debug)]
pub struct NewAttachment {
    pub filename: String,
    pub media_type: String,
    pub data: Vec<u8>,
    /// Who attached it, as the page shows it.
    pub by: String,
}

/// An attached file, without its content.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AttachmentInfo {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: AttachmentId,
    pub filename: String,
    pub media_type: String,
    pub size: i64,
    #[sqlx(try_from = "Ts")]
    pub uploaded_at: DateTime<Utc>,
    pub uploaded_by: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RequestDetail {
    pub request: RequestRow,
    /// The names of the services asked about, joined for display.
    pub service_name: String,
    /// The services asked about, the request's own service first.
    pub services: Vec<(ServiceId, String)>,
    pub items: Vec<Item>,
    pub attachments: Vec<AttachmentInfo>,
}

/// What the vendor's answer page shows.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PortalView {
    pub org_name: String,
    /// The asking organisation's time zone: the deadline is its day.
    pub zone: aivet_domain::Zone,
    /// The services asked about, the request's own first.
    pub services: Vec<String>,
    pub request: RequestRow,
    pub items: Vec<Item>,
    pub attachments: Vec<AttachmentInfo>,
}

/// One step of a service's exchange with its vendors.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QuestionEvent {
    pub at: DateTime<Utc>,
    pub request_id: Option<RequestId>,
    pub actor: String,
    pub event: Event,
}

/// A timeline row as stored.
#[derive(sqlx::FromRow)]
pub(crate) struct EventRow {
    #[sqlx(try_from = "Ts")]
    pub at: DateTime<Utc>,
    #[sqlx(try_from = "OptUuid")]
    pub request_id: Option<RequestId>,
    pub kind: String,
    pub actor: String,
    pub detail: String,
}

impl From<EventRow> for QuestionEvent {
    fn from(r: EventRow) -> QuestionEvent {
        QuestionEvent {
            at: r.at,
            request_id: r.request_id,
            actor: r.actor,
            event: Event::from_stored(&r.kind, &r.detail),
        }
    }
}

/// A service's assessment as its page shows it.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AssessmentState {
    #[sqlx(try_from = "String")]
    pub assessment: Assessment,
    pub assessment_note: Option<String>,
    pub follow_up_on: Option<NaiveDate>,
}

#[async_trait]
#[allow(clippy::too_many_arguments)]
pub trait QuestionStore {
    /// What a reminder about one of the tenant's requests needs.
    async fn reminder_target_of(&self, t: &Tenant, request: RequestId) -> Result<ReminderTarget>;
    /// A member sends a reminder now. `Closed` when the request is no
    /// longer waiting for an answer.
    async fn remind_now(
        &self,
        t: &Tenant,
        request: RequestId,
        mail: NewMail,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Switches the reminders of one request on or off.
    async fn set_request_reminders(
        &self,
        t: &Tenant,
        request: RequestId,
        on: bool,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// The organisation's current question set (the catalogue until it
    /// saves its own).
    async fn question_set(&self, t: &Tenant) -> Result<QuestionSet>;
    /// Saves `set` as the next version. `Closed` when another version was
    /// saved meanwhile (the editor showed an older one).
    async fn save_question_set(
        &self,
        t: &Tenant,
        set: &QuestionSet,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Writes the requests of one send with their mails, sets the services'
    /// follow-up date and state, in one transaction. Every request asks
    /// about all of `services` (the first is its own). A send key used
    /// before sends nothing and returns the earlier requests.
    async fn send_requests(
        &self,
        t: &Tenant,
        services: &[ServiceId],
        send_key: &str,
        requests: Vec<NewRequest>,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<SendOutcome>;
    async fn service_requests(&self, t: &Tenant, service: ServiceId) -> Result<Vec<RequestRow>>;
    async fn request(&self, t: &Tenant, id: RequestId) -> Result<RequestDetail>;
    async fn question_events(&self, t: &Tenant, service: ServiceId) -> Result<Vec<QuestionEvent>>;
    async fn assessment(&self, t: &Tenant, service: ServiceId) -> Result<AssessmentState>;

    /// The request behind an answer link, if the link still works.
    async fn portal_request(
        &self,
        token_hash: &[u8],
        now: DateTime<Utc>,
    ) -> Result<Option<PortalView>>;
    /// Saves the vendor's answers (as a draft, or submitted). `NotFound` for
    /// a dead link, `Closed` once submitted.
    async fn portal_save(
        &self,
        token_hash: &[u8],
        answers: &AnswerDraft,
        submit: bool,
        now: DateTime<Utc>,
    ) -> Result<PortalView>;
    /// A member enters an answer that arrived by mail or letter.
    async fn enter_answers(
        &self,
        t: &Tenant,
        id: RequestId,
        answers: &AnswerDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn review_item(
        &self,
        t: &Tenant,
        id: RequestId,
        position: i32,
        review: &ReviewDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    async fn decide(
        &self,
        t: &Tenant,
        service: ServiceId,
        decision: &DecisionDraft,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Attaches a file through the answer link (until submitted).
    async fn portal_attach(
        &self,
        token_hash: &[u8],
        file: &NewAttachment,
        now: DateTime<Utc>,
    ) -> Result<AttachmentInfo>;
    /// A member attaches a file (the original mail or document).
    async fn attach(
        &self,
        t: &Tenant,
        id: RequestId,
        file: &NewAttachment,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<AttachmentInfo>;
    /// An attached file with its content.
    async fn attachment(&self, t: &Tenant, id: AttachmentId) -> Result<(AttachmentInfo, Vec<u8>)>;
    async fn revoke_request(
        &self,
        t: &Tenant,
        id: RequestId,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
    /// Opens a submitted request for changes again; the link works for at
    /// least `until`.
    async fn reopen_request(
        &self,
        t: &Tenant,
        id: RequestId,
        until: DateTime<Utc>,
        event: AuditEvent,
        now: DateTime<Utc>,
    ) -> Result<()>;
}
