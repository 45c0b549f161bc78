//! Server functions of the questions to vendors: sending, the review page,
//! reviews, decisions, withdrawing and reopening links, asking again and
//! answers entered by hand. The vendor's own page is a plain route of the
//! server (it must work without JavaScript and without an account).

use crate::error::AppError;
use aivet_domain::inventory::ServicePart;
use aivet_domain::mail::MailStatus;
use aivet_domain::questions::{
    AnswerForm, AnsweredVia, Assessment, DecisionForm, QuestionSetForm, RequestStatus, Review,
    ReviewForm, SendForm,
};
use aivet_domain::{ContactId, Lang, RequestId, ServiceId};
use chrono::{DateTime, NaiveDate, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::parse_id;
#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestRowView {
    pub id: RequestId,
    pub vendor_name: String,
    pub recipient: String,
    pub lang: Lang,
    pub sent_at: DateTime<Utc>,
    pub deadline: NaiveDate,
    pub status: RequestStatus,
    pub mail_status: Option<MailStatus>,
    /// The mail server's last answer, while the mail is not delivered.
    pub mail_error: Option<String>,
    pub open_items: i64,
    pub items: i64,
    pub reviewed: bool,
    pub revoked: bool,
    pub expired: bool,
    pub again: bool,
    /// Still waiting for the vendor (not answered, withdrawn or given up).
    pub waiting: bool,
    pub reminders: bool,
    pub reminders_sent: i32,
    /// The reminders were used up without an answer.
    pub no_answer: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EventView {
    pub at: DateTime<Utc>,
    /// The entry's stored kind (`sent`, `reviewed`, …).
    pub kind: String,
    /// What happened and its particulars, in the page's language.
    pub title: String,
    pub detail: String,
    pub actor: String,
    pub request_id: Option<RequestId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionsView {
    pub service_id: ServiceId,
    pub assessment: Assessment,
    pub note: Option<String>,
    pub follow_up_on: Option<NaiveDate>,
    pub requests: Vec<RequestRowView>,
    pub events: Vec<EventView>,
    pub can_edit: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RecipientView {
    pub id: ContactId,
    pub name: String,
    pub email: String,
    pub lang: Lang,
    pub vendor_name: String,
    pub part: ServicePart,
    pub primary: bool,
}

/// A question of the set that is not one of the five, for the send form.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FurtherView {
    pub code: String,
    pub text: String,
    pub enabled: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AskView {
    /// Asked from a service's page: that service.
    pub service_id: Option<ServiceId>,
    /// Asked from a vendor's page: the vendor, and its services to choose from.
    pub vendor_id: Option<aivet_domain::VendorId>,
    pub services: Vec<(ServiceId, String)>,
    /// The service's name, or the vendor's.
    pub service_name: String,
    /// The five core questions in the reader's language, as the set words them.
    pub core: Vec<(String, String)>,
    pub further: Vec<FurtherView>,
    pub recipients: Vec<RecipientView>,
    pub default_deadline: NaiveDate,
    /// A fresh key for this showing of the form.
    pub send_key: String,
    /// Asked from an incident's page: the incident (id, title), whose own
    /// question comes first.
    pub incident: Option<(String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MailPreviewView {
    pub to: String,
    pub subject: String,
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ItemView {
    pub position: i32,
    pub question: String,
    pub why: String,
    pub earlier_answer: Option<String>,
    pub earlier_note: Option<String>,
    pub answer: Option<String>,
    pub review: Option<Review>,
    pub review_note: Option<String>,
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AttachmentView {
    pub id: aivet_domain::AttachmentId,
    pub filename: String,
    pub size: i64,
    pub uploaded_by: String,
    pub uploaded_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RequestView {
    pub attachments: Vec<AttachmentView>,
    pub row: RequestRowView,
    pub service_id: ServiceId,
    pub service_name: String,
    pub sent_by: String,
    pub expires_at: DateTime<Utc>,
    pub responder: Option<String>,
    pub answered_via: Option<AnsweredVia>,
    pub received: Option<String>,
    pub submitted_at: Option<DateTime<Utc>>,
    pub items: Vec<ItemView>,
    pub can_edit: bool,
    /// A fresh key for the "ask again" form.
    pub send_key: String,
    pub default_deadline: NaiveDate,
}

#[cfg(feature = "ssr")]
fn row_view(r: &aivet_store::questions::RequestRow, now: DateTime<Utc>) -> RequestRowView {
    RequestRowView {
        id: r.id,
        vendor_name: r.vendor_name.clone(),
        recipient: format!("{} <{}>", r.recipient_name, r.recipient_email),
        lang: r.lang,
        sent_at: r.sent_at,
        deadline: r.deadline,
        status: r.status,
        mail_status: r.mail_status,
        mail_error: r
            .mail_error
            .clone()
            .filter(|_| r.mail_status != Some(MailStatus::Sent)),
        open_items: r.open_items,
        items: r.items,
        reviewed: r.status == RequestStatus::Submitted && r.open_items == 0,
        revoked: r.revoked_at.is_some(),
        expired: r.revoked_at.is_none() && r.expires_at <= now,
        again: r.previous_id.is_some(),
        waiting: r.waiting(),
        reminders: r.reminders,
        reminders_sent: r.reminders_sent,
        no_answer: r.no_answer_at.is_some(),
    }
}

#[cfg(feature = "ssr")]
fn can_edit(a: &aivet_services::Auth) -> bool {
    a.tenant.as_ref().is_some_and(|t| t.role().can_edit())
}

#[server(endpoint = "questions_overview")]
pub async fn questions_overview(service_id: String) -> Result<QuestionsView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    let o = c
        .services
        .questions_overview(a, id)
        .await
        .map_err(service_error)?;
    Ok(questions_view(a, id, o, c.services.clock.now(), c.lang))
}

/// The questions part of a service's page.
#[cfg(feature = "ssr")]
pub(crate) fn questions_view(
    a: &aivet_services::Auth,
    id: ServiceId,
    o: aivet_services::questions::QuestionsOverview,
    now: DateTime<Utc>,
    lang: aivet_domain::Lang,
) -> QuestionsView {
    QuestionsView {
        service_id: id,
        assessment: o.assessment.assessment,
        note: o.assessment.assessment_note,
        follow_up_on: o.assessment.follow_up_on,
        requests: o.requests.iter().map(|r| row_view(r, now)).collect(),
        events: o
            .events
            .into_iter()
            .map(|e| EventView {
                at: e.at,
                kind: e.event.to_stored().0,
                title: e.event.title(lang),
                detail: e.event.detail(lang),
                actor: e.actor,
                request_id: e.request_id,
            })
            .collect(),
        can_edit: can_edit(a),
    }
}

#[server(endpoint = "ask_data")]
pub async fn ask_data(
    service_id: String,
    /// Asked from an incident: its id (another organisation's is "not found").
    #[server(default)]
    incident_id: String,
) -> Result<AskView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    let d = c.services.ask_data(a, id).await.map_err(service_error)?;
    let mut view = ask_view(c.lang, d, Some(id), None, Vec::new());
    if !incident_id.is_empty() {
        let incident: aivet_domain::IncidentId = parse_id(&incident_id)?;
        let case = c
            .services
            .incident(a, incident)
            .await
            .map_err(service_error)?;
        view.incident = Some((incident_id, case.detail.incident.title));
        // What ran where matters after an incident: the engine question too.
        for q in &mut view.further {
            if q.code == aivet_domain::questions::StandardQuestion::Engines.code() {
                q.enabled = true;
            }
        }
    }
    Ok(view)
}

#[server(endpoint = "ask_vendor_data")]
pub async fn ask_vendor_data(vendor_id: String) -> Result<AskView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: aivet_domain::VendorId = parse_id(&vendor_id)?;
    let (d, services) = c
        .services
        .ask_vendor_data(a, id)
        .await
        .map_err(service_error)?;
    Ok(ask_view(c.lang, d, None, Some(id), services))
}

#[cfg(feature = "ssr")]
fn ask_view(
    lang: Lang,
    d: aivet_services::questions::AskData,
    service_id: Option<ServiceId>,
    vendor_id: Option<aivet_domain::VendorId>,
    services: Vec<(ServiceId, String)>,
) -> AskView {
    AskView {
        service_id,
        vendor_id,
        services,
        service_name: d.service_name,
        core: d
            .set
            .texts(lang, &[])
            .into_iter()
            .map(|q| (q.text, q.why))
            .collect(),
        further: d
            .set
            .further()
            .map(|i| FurtherView {
                code: i.code.clone(),
                text: d.set.wording(i, lang).text,
                enabled: i.enabled,
            })
            .collect(),
        recipients: d
            .recipients
            .into_iter()
            .map(|r| RecipientView {
                id: r.contact.id,
                name: r.contact.name,
                email: r.contact.email,
                lang: r.contact.lang,
                vendor_name: r.vendor_name,
                part: r.part,
                primary: r.contact.is_primary,
            })
            .collect(),
        default_deadline: d.default_deadline,
        send_key: aivet_services::secrets::new_token(),
        incident: None,
    }
}

/// The page's own service, if the form came from a service's page.
#[cfg(feature = "ssr")]
fn own_service(service_id: &str) -> Result<Option<ServiceId>, AppError> {
    match service_id.trim() {
        "" => Ok(None),
        s => parse_id(s).map(Some),
    }
}

#[server(endpoint = "preview_questions")]
pub async fn preview_questions(
    #[server(default)] service_id: String,
    form: SendForm,
) -> Result<Vec<MailPreviewView>, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id = own_service(&service_id)?;
    Ok(c.services
        .preview_questions(a, id, &form)
        .await
        .map_err(service_error)?
        .into_iter()
        .map(|m| MailPreviewView {
            to: m.to,
            subject: m.subject,
            text: m.text,
        })
        .collect())
}

#[server(endpoint = "send_questions")]
pub async fn send_questions(
    #[server(default)] service_id: String,
    form: SendForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id = own_service(&service_id)?;
    let outcome = c
        .services
        .send_questions(a, id, &form)
        .await
        .map_err(service_error)?;
    match (id, outcome.requests.first()) {
        (Some(id), _) => done(&format!("/services/{id}#questions")),
        (None, Some(r)) => done(&format!("/requests/{}", r.0)),
        (None, None) => done("/services"),
    }
}

#[server(endpoint = "request_detail")]
pub async fn request_detail(request_id: String) -> Result<RequestView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let d = c
        .services
        .request_detail(a, parse_id(&request_id)?)
        .await
        .map_err(service_error)?;
    let now = c.services.clock.now();
    let r = &d.request;
    Ok(RequestView {
        attachments: d
            .attachments
            .iter()
            .map(|a| AttachmentView {
                id: a.id,
                filename: a.filename.clone(),
                size: a.size,
                uploaded_by: a.uploaded_by.clone(),
                uploaded_at: a.uploaded_at,
            })
            .collect(),
        row: row_view(r, now),
        service_id: r.service_id,
        service_name: d.service_name.clone(),
        sent_by: r.sent_by.clone(),
        expires_at: r.expires_at,
        responder: r.responder_name.as_ref().map(|n| {
            [
                Some(n.as_str()),
                r.responder_role.as_deref(),
                r.responder_email.as_deref(),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(", ")
        }),
        answered_via: r.answered_via,
        received: r.received_on.map(|d| {
            [Some(c.fmt().date(d)), r.received_source.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(", ")
        }),
        submitted_at: r.submitted_at,
        items: d
            .items
            .into_iter()
            .map(|i| ItemView {
                position: i.position,
                question: i.question,
                why: i.why,
                earlier_answer: i.earlier_answer,
                earlier_note: i.earlier_note,
                answer: i.answer,
                review: i.review,
                review_note: i.review_note,
                reviewed_by: i.reviewed_by,
                reviewed_at: i.reviewed_at,
            })
            .collect(),
        can_edit: can_edit(a),
        send_key: aivet_services::secrets::new_token(),
        default_deadline: c
            .services
            .default_deadline(a.tenant().map_err(service_error)?),
    })
}

#[server(endpoint = "review_answer")]
pub async fn review_answer(
    request_id: String,
    position: i32,
    review: ReviewForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services
        .review_answer(a, id, position, &review)
        .await
        .map_err(service_error)?;
    done(&format!("/requests/{}#q{}", id.0, position + 1))
}

#[server(endpoint = "decide_assessment")]
pub async fn decide_assessment(service_id: String, decision: DecisionForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    c.services
        .decide(a, id, &decision)
        .await
        .map_err(service_error)?;
    done(&format!("/services/{id}#questions"))
}

#[server(endpoint = "revoke_request")]
pub async fn revoke_request(request_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services
        .revoke_request(a, id)
        .await
        .map_err(service_error)?;
    done(&format!("/requests/{}", id.0))
}

#[server(endpoint = "reopen_request")]
pub async fn reopen_request(request_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services
        .reopen_request(a, id)
        .await
        .map_err(service_error)?;
    done(&format!("/requests/{}", id.0))
}

#[server(endpoint = "ask_again")]
pub async fn ask_again(
    request_id: String,
    send_key: String,
    deadline: String,
    /// The note sent with each question asked again, in their order.
    #[server(default)]
    notes: Vec<String>,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    let outcome = c
        .services
        .ask_again(a, id, &send_key, &deadline, &notes)
        .await
        .map_err(service_error)?;
    match outcome.requests.first() {
        Some(new) => done(&format!("/requests/{}", new.0)),
        None => done(&format!("/requests/{}", id.0)),
    }
}

#[server(endpoint = "enter_answers")]
pub async fn enter_answers(request_id: String, answers: AnswerForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services
        .enter_answers(a, id, &answers)
        .await
        .map_err(service_error)?;
    done(&format!("/requests/{}", id.0))
}

/// One question in the set editor, with its wording in every language (the
/// organisation's, or the catalogue's).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SetItemView {
    pub code: String,
    pub core: bool,
    pub own: bool,
    pub enabled: bool,
    /// (language, text, why) for en, de, nb.
    pub wordings: Vec<(Lang, String, String)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuestionSetView {
    pub version: i32,
    pub items: Vec<SetItemView>,
    pub can_edit: bool,
}

#[server(endpoint = "question_set_data")]
pub async fn question_set_data() -> Result<QuestionSetView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let set = c.services.question_set(a).await.map_err(service_error)?;
    Ok(QuestionSetView {
        version: set.version,
        items: set
            .items
            .iter()
            .map(|i| SetItemView {
                code: i.code.clone(),
                core: aivet_domain::questions::QuestionSet::is_core(&i.code),
                own: aivet_domain::questions::StandardQuestion::from_code(&i.code).is_none(),
                enabled: i.enabled,
                wordings: Lang::ALL
                    .iter()
                    .map(|l| {
                        let w = set.wording(i, *l);
                        (*l, w.text, w.why)
                    })
                    .collect(),
            })
            .collect(),
        can_edit: a
            .tenant
            .as_ref()
            .is_some_and(|t| t.role().can_manage_members()),
    })
}

#[server(endpoint = "save_question_set")]
pub async fn save_question_set(base_version: i32, set: QuestionSetForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .save_question_set(a, base_version, &set)
        .await
        .map_err(service_error)?;
    done("/settings#questions")
}

#[server(endpoint = "remind_now")]
pub async fn remind_now(request_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services.remind_now(a, id).await.map_err(service_error)?;
    c.back()
}

#[server(endpoint = "set_request_reminders")]
pub async fn set_request_reminders(
    request_id: String,
    #[server(default)] on: String,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: RequestId = parse_id(&request_id)?;
    c.services
        .set_request_reminders(a, id, matches!(on.as_str(), "on" | "true" | "1"))
        .await
        .map_err(service_error)?;
    c.back()
}
