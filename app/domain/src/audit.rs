//! What the audit log records: one variant per kind of event, with what a
//! reader needs to understand the entry later, and the sentence that shows
//! it in the reader's language.
//!
//! The store keeps an entry as its action code (`vendor.created`) and its
//! fields as JSON. Entries written before the log was typed have free text
//! instead; they are shown as they were written, never as something else.

use crate::clearance::Clearance;
use crate::follow_ups::Policy;
use crate::i18n::Msg;
use crate::incident::{Art33Choice, Art34Choice};
use crate::inventory::{FindingStatus, FindingTopic};
use crate::questions::{Assessment, Review};
use crate::report::ReportFormat;
use crate::IncidentId;
use crate::{
    ContactId, DataClassId, FollowUpId, JobId, Lang, MailId, MembershipId, RequestId, Role,
    ServiceId, VendorId,
};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};

/// One event of an organisation's audit log.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "action", content = "detail")]
pub enum Audit {
    #[serde(rename = "account.signed_up")]
    SignedUp { role: Role },
    #[serde(rename = "account.signed_in")]
    SignedIn,
    #[serde(rename = "account.password_changed")]
    PasswordChanged,
    #[serde(rename = "account.password_reset")]
    PasswordReset,
    #[serde(rename = "org.created")]
    OrgCreated { name: String },
    #[serde(rename = "org.retired")]
    OrgRetired { suffix: String },
    /// Loaded into this database from a JSON export (`aivet import`);
    /// `sha256` is the export's data hash.
    #[serde(rename = "org.imported")]
    OrgImported { sha256: String },
    #[serde(rename = "org.time_zone_changed")]
    TimeZoneChanged { zone: String },
    #[serde(rename = "member.joined")]
    MemberJoined { role: Role },
    #[serde(rename = "member.removed")]
    MemberRemoved { membership: MembershipId },
    #[serde(rename = "member.role_changed")]
    MemberRoleChanged {
        membership: MembershipId,
        role: Role,
    },
    #[serde(rename = "invite.created")]
    InviteCreated { email: String, role: Role },
    #[serde(rename = "invite.revoked")]
    InviteRevoked { email: String },
    #[serde(rename = "mail.queued")]
    MailQueued { kind: String, to: String },
    #[serde(rename = "mail.retried")]
    MailRetried { mail: MailId },
    #[serde(rename = "data_class.created")]
    DataClassCreated {
        name: String,
        personal: bool,
        #[serde(default)]
        needs_clearance: bool,
    },
    #[serde(rename = "data_class.updated")]
    DataClassUpdated {
        data_class: DataClassId,
        name: String,
        personal: bool,
        archived: bool,
        #[serde(default)]
        needs_clearance: bool,
    },
    #[serde(rename = "data_class.deleted")]
    DataClassDeleted { data_class: DataClassId },
    #[serde(rename = "vendor.created")]
    VendorCreated { name: String },
    #[serde(rename = "vendor.updated")]
    VendorUpdated { vendor: VendorId, name: String },
    #[serde(rename = "vendor.archived")]
    VendorArchived { vendor: VendorId },
    #[serde(rename = "vendor.restored")]
    VendorRestored { vendor: VendorId },
    #[serde(rename = "vendor.deleted")]
    VendorDeleted { vendor: VendorId },
    #[serde(rename = "vendor.contact_added")]
    ContactAdded { vendor: VendorId, email: String },
    #[serde(rename = "vendor.contact_primary")]
    ContactMadePrimary { contact: ContactId },
    #[serde(rename = "vendor.contact_removed")]
    ContactRemoved { contact: ContactId },
    #[serde(rename = "service.created")]
    ServiceCreated { name: String },
    #[serde(rename = "service.updated")]
    ServiceUpdated { service: ServiceId, name: String },
    #[serde(rename = "service.archived")]
    ServiceArchived { service: ServiceId },
    #[serde(rename = "service.restored")]
    ServiceRestored { service: ServiceId },
    #[serde(rename = "service.deleted")]
    ServiceDeleted { service: ServiceId },
    #[serde(rename = "service.finding_saved")]
    FindingSaved {
        service: ServiceId,
        topic: FindingTopic,
        status: FindingStatus,
    },
    #[serde(rename = "service.imported")]
    ServicesImported { services: usize, new_vendors: usize },
    #[serde(rename = "service.added")]
    ServicesAdded { services: usize, new_vendors: usize },
    #[serde(rename = "questions.sent")]
    QuestionsSent {
        services: Vec<ServiceId>,
        to: Vec<String>,
    },
    #[serde(rename = "questions.asked_again")]
    AskedAgain {
        request: RequestId,
        to: String,
        questions: usize,
    },
    #[serde(rename = "questions.answered")]
    Answered {
        request: RequestId,
        by: Option<String>,
    },
    #[serde(rename = "questions.reviewed")]
    Reviewed {
        request: RequestId,
        question: i32,
        review: Review,
    },
    #[serde(rename = "questions.decided")]
    Decided {
        service: ServiceId,
        decision: Assessment,
    },
    #[serde(rename = "questions.link_revoked")]
    LinkRevoked { request: RequestId },
    #[serde(rename = "questions.reopened")]
    Reopened { request: RequestId },
    #[serde(rename = "questions.entered")]
    AnswersEntered {
        request: RequestId,
        received_on: Option<NaiveDate>,
    },
    #[serde(rename = "questions.file_attached")]
    FileAttached {
        request: RequestId,
        file: String,
        by_vendor: bool,
    },
    #[serde(rename = "questions.set_saved")]
    QuestionSetSaved {
        version: i32,
        questions: Vec<String>,
    },
    #[serde(rename = "job.retried")]
    JobRetried { job: JobId },
    #[serde(rename = "questions.reminded")]
    Reminded { request: RequestId, number: i32 },
    #[serde(rename = "questions.no_answer")]
    NoAnswer { request: RequestId },
    #[serde(rename = "questions.reminders_switched")]
    RemindersSwitched { request: RequestId, on: bool },
    #[serde(rename = "follow_up.calendar")]
    CalendarFeed { on: bool },
    #[serde(rename = "follow_up.moved")]
    FollowUpMoved {
        follow_up: FollowUpId,
        due_on: NaiveDate,
    },
    #[serde(rename = "follow_up.done")]
    FollowUpDone { follow_up: FollowUpId },
    #[serde(rename = "follow_up.policy_changed")]
    FollowUpPolicyChanged { policy: Policy },
    /// A report or export was downloaded: which, of what, and the SHA-256
    /// of its data (printed in the document), so a copy can be checked.
    #[serde(rename = "report.exported")]
    ReportExported {
        format: ReportFormat,
        lang: Lang,
        /// The services chosen; `None` for all of them.
        services: Option<Vec<ServiceId>>,
        sha256: String,
    },
    /// A data class was decided for a service.
    #[serde(rename = "clearance.decided")]
    ClearanceDecided {
        service: ServiceId,
        data_class: DataClassId,
        class: String,
        clearance: Clearance,
    },
    /// An owner confirmed which data classes need clearance.
    #[serde(rename = "clearance.policy_reviewed")]
    PolicyReviewed,
    #[serde(rename = "incident.recorded")]
    IncidentRecorded { incident: IncidentId, title: String },
    #[serde(rename = "incident.updated")]
    IncidentUpdated {
        incident: IncidentId,
        title: String,
        fields: Vec<String>,
    },
    /// "We became aware" was moved, and the 72-hour clock with it.
    #[serde(rename = "incident.aware_moved")]
    IncidentAwareMoved {
        incident: IncidentId,
        title: String,
        from: DateTime<Utc>,
        to: DateTime<Utc>,
    },
    #[serde(rename = "incident.art33_decided")]
    Art33Decided {
        incident: IncidentId,
        title: String,
        decision: Art33Choice,
    },
    #[serde(rename = "incident.art34_decided")]
    Art34Decided {
        incident: IncidentId,
        title: String,
        decision: Art34Choice,
    },
    #[serde(rename = "incident.closed")]
    IncidentClosed { incident: IncidentId, title: String },
    #[serde(rename = "incident.reopened")]
    IncidentReopened { incident: IncidentId, title: String },
    /// OSV records an owner imported.
    #[serde(rename = "advisories.imported")]
    AdvisoriesImported { ids: Vec<String> },
}

impl Audit {
    /// Reads an entry as stored (its action code and its fields as JSON);
    /// `None` for entries written before the log was typed, whose action
    /// and detail are free text.
    pub fn from_stored(action: &str, detail: &str) -> Option<Audit> {
        let detail: serde_json::Value = serde_json::from_str(detail).ok()?;
        let mut entry = serde_json::Map::new();
        entry.insert(
            "action".into(),
            serde_json::Value::String(action.to_owned()),
        );
        if !detail.is_null() {
            entry.insert("detail".into(), detail);
        }
        serde_json::from_value(serde_json::Value::Object(entry)).ok()
    }

    /// The entry as a sentence in `lang` (the actor is shown next to it).
    pub fn describe(&self, lang: Lang) -> String {
        use crate::msg;
        let t = |m: Msg| m.text(lang).to_owned();
        match self {
            Audit::SignedUp { .. } => t(Msg::AuditSignedUp),
            Audit::SignedIn => t(Msg::AuditSignedIn),
            Audit::PasswordChanged => t(Msg::AuditPasswordChanged),
            Audit::PasswordReset => t(Msg::AuditPasswordReset),
            Audit::OrgCreated { name } => msg!(lang, Msg::AuditOrgCreated, name = name),
            Audit::OrgRetired { suffix } => msg!(lang, Msg::AuditOrgRetired, suffix = suffix),
            Audit::OrgImported { sha256 } => msg!(lang, Msg::AuditOrgImported, sha256 = sha256),
            Audit::TimeZoneChanged { zone } => msg!(lang, Msg::AuditTimeZoneChanged, zone = zone),
            Audit::MemberJoined { role } => {
                msg!(lang, Msg::AuditMemberJoined, role = role.label().text(lang))
            }
            Audit::MemberRemoved { .. } => t(Msg::AuditMemberRemoved),
            Audit::MemberRoleChanged { role, .. } => {
                msg!(
                    lang,
                    Msg::AuditMemberRoleChanged,
                    role = role.label().text(lang)
                )
            }
            Audit::InviteCreated { email, role } => msg!(
                lang,
                Msg::AuditInviteCreated,
                email = email,
                role = role.label().text(lang)
            ),
            Audit::InviteRevoked { email } => msg!(lang, Msg::AuditInviteRevoked, email = email),
            Audit::MailQueued { to, .. } => msg!(lang, Msg::AuditMailQueued, to = to),
            Audit::MailRetried { .. } => t(Msg::AuditMailRetried),
            Audit::DataClassCreated { name, .. } => {
                msg!(lang, Msg::AuditDataClassCreated, name = name)
            }
            Audit::DataClassUpdated { name, .. } => {
                msg!(lang, Msg::AuditDataClassUpdated, name = name)
            }
            Audit::DataClassDeleted { .. } => t(Msg::AuditDataClassDeleted),
            Audit::VendorCreated { name } => msg!(lang, Msg::AuditVendorCreated, name = name),
            Audit::VendorUpdated { name, .. } => msg!(lang, Msg::AuditVendorUpdated, name = name),
            Audit::VendorArchived { .. } => t(Msg::AuditVendorArchived),
            Audit::VendorRestored { .. } => t(Msg::AuditVendorRestored),
            Audit::VendorDeleted { .. } => t(Msg::AuditVendorDeleted),
            Audit::ContactAdded { email, .. } => {
                msg!(lang, Msg::AuditContactAdded, email = email)
            }
            Audit::ContactMadePrimary { .. } => t(Msg::AuditContactMadePrimary),
            Audit::ContactRemoved { .. } => t(Msg::AuditContactRemoved),
            Audit::ServiceCreated { name } => msg!(lang, Msg::AuditServiceCreated, name = name),
            Audit::ServiceUpdated { name, .. } => {
                msg!(lang, Msg::AuditServiceUpdated, name = name)
            }
            Audit::ServiceArchived { .. } => t(Msg::AuditServiceArchived),
            Audit::ServiceRestored { .. } => t(Msg::AuditServiceRestored),
            Audit::ServiceDeleted { .. } => t(Msg::AuditServiceDeleted),
            Audit::FindingSaved { topic, status, .. } => msg!(
                lang,
                Msg::AuditFindingSaved,
                topic = topic.label().text(lang),
                status = status.label().text(lang)
            ),
            Audit::ServicesImported {
                services,
                new_vendors,
            } => format!(
                "{} {}",
                msg!(lang, Msg::AuditServicesImported, n = *services),
                msg!(lang, Msg::AuditVendorsCreated, n = *new_vendors)
            ),
            Audit::ServicesAdded {
                services,
                new_vendors,
            } => format!(
                "{} {}",
                msg!(lang, Msg::AuditServicesAdded, n = *services),
                msg!(lang, Msg::AuditVendorsCreated, n = *new_vendors)
            ),
            Audit::QuestionsSent { services, to } => msg!(
                lang,
                Msg::AuditQuestionsSent,
                n = services.len(),
                to = &lang.list(to)
            ),
            Audit::AskedAgain { to, questions, .. } => {
                msg!(lang, Msg::AuditAskedAgain, n = *questions, to = to)
            }
            Audit::Answered { by, .. } => match by {
                Some(by) => msg!(lang, Msg::AuditAnsweredBy, by = by),
                None => t(Msg::AuditAnswered),
            },
            Audit::Reviewed {
                question, review, ..
            } => msg!(
                lang,
                Msg::AuditReviewed,
                question = *question,
                review = review.label().text(lang)
            ),
            Audit::Decided { decision, .. } => {
                msg!(
                    lang,
                    Msg::AuditDecided,
                    decision = decision.label().text(lang)
                )
            }
            Audit::LinkRevoked { .. } => t(Msg::AuditLinkRevoked),
            Audit::Reopened { .. } => t(Msg::AuditReopened),
            Audit::AnswersEntered { .. } => t(Msg::AuditAnswersEntered),
            Audit::FileAttached {
                file, by_vendor, ..
            } => {
                if *by_vendor {
                    msg!(lang, Msg::AuditFileAttachedByVendor, file = file)
                } else {
                    msg!(lang, Msg::AuditFileAttached, file = file)
                }
            }
            Audit::QuestionSetSaved { version, .. } => {
                msg!(lang, Msg::AuditQuestionSetSaved, version = *version)
            }
            Audit::JobRetried { .. } => t(Msg::AuditJobRetried),
            Audit::FollowUpMoved { due_on, .. } => msg!(
                lang,
                Msg::AuditFollowUpMoved,
                due_on = &crate::Fmt::new(lang, crate::Zone::UTC).date(*due_on)
            ),
            Audit::FollowUpDone { .. } => t(Msg::AuditFollowUpDone),
            Audit::CalendarFeed { on } => t(if *on {
                Msg::AuditCalendarOn
            } else {
                Msg::AuditCalendarOff
            }),
            Audit::Reminded { number, .. } => msg!(lang, Msg::AuditReminded, number = *number),
            Audit::NoAnswer { .. } => t(Msg::AuditNoAnswer),
            Audit::RemindersSwitched { on, .. } => t(if *on {
                Msg::AuditRemindersOn
            } else {
                Msg::AuditRemindersOff
            }),
            Audit::ClearanceDecided {
                class, clearance, ..
            } => msg!(
                lang,
                Msg::AuditClearanceDecided,
                class = class,
                clearance = clearance.label().text(lang)
            ),
            Audit::PolicyReviewed => t(Msg::AuditPolicyReviewed),
            Audit::IncidentRecorded { title, .. } => {
                msg!(lang, Msg::AuditIncidentRecorded, title = title)
            }
            Audit::IncidentUpdated { title, .. } => {
                msg!(lang, Msg::AuditIncidentUpdated, title = title)
            }
            Audit::IncidentAwareMoved { title, .. } => {
                msg!(lang, Msg::AuditIncidentAwareMoved, title = title)
            }
            Audit::Art33Decided {
                title, decision, ..
            } => msg!(
                lang,
                Msg::AuditArt33Decided,
                title = title,
                decision = decision.label().text(lang)
            ),
            Audit::Art34Decided {
                title, decision, ..
            } => msg!(
                lang,
                Msg::AuditArt34Decided,
                title = title,
                decision = decision.label().text(lang)
            ),
            Audit::IncidentClosed { title, .. } => {
                msg!(lang, Msg::AuditIncidentClosed, title = title)
            }
            Audit::IncidentReopened { title, .. } => {
                msg!(lang, Msg::AuditIncidentReopened, title = title)
            }
            Audit::AdvisoriesImported { ids } => msg!(
                lang,
                Msg::AuditAdvisoriesImported,
                n = ids.len(),
                ids = &ids.join(", ")
            ),
            Audit::ReportExported {
                format,
                services,
                sha256,
                ..
            } => msg!(
                lang,
                Msg::AuditReportExported,
                format = format.label().text(lang),
                scope = &match services {
                    None => Msg::ReportScopeAll.text(lang).to_owned(),
                    Some(ids) => msg!(lang, Msg::ReportScopeSelection, n = ids.len()),
                },
                sha256 = sha256
            ),
            Audit::FollowUpPolicyChanged { policy } => {
                if policy.reminders {
                    msg!(
                        lang,
                        Msg::AuditFollowUpPolicy,
                        n = policy.max_reminders,
                        days = policy.review_days,
                        months = policy.reassess_months
                    )
                } else {
                    msg!(
                        lang,
                        Msg::AuditFollowUpPolicyNoReminders,
                        days = policy.review_days,
                        months = policy.reassess_months
                    )
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_read_in_every_language() {
        let e = Audit::Reviewed {
            request: RequestId(uuid::Uuid::nil()),
            question: 3,
            review: Review::Missing,
        };
        assert_eq!(
            e.describe(Lang::En),
            "Reviewed the answer to question 3: Missing"
        );
        assert_eq!(e.describe(Lang::De), "Antwort auf Frage 3 bewertet: Fehlt");
        assert_eq!(
            e.describe(Lang::Nb),
            "Vurderte svaret på spørsmål 3: Mangler"
        );
        let sent = Audit::QuestionsSent {
            services: vec![ServiceId(uuid::Uuid::nil())],
            to: vec!["a@x.example".into(), "b@x.example".into()],
        };
        assert_eq!(
            sent.describe(Lang::De),
            "Fragen zu 1 Dienst an a@x.example und b@x.example gesendet"
        );
    }
}
