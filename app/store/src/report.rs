//! What the report reads: every record of one organisation in one read
//! transaction, as the other areas' rows. The SQL is in `report_sql.rs`;
//! the services turn these rows into the report's model.

use crate::inventory::{Contact, DataClass, ServiceDetail, Vendor};
use crate::questions::{AttachmentInfo, Item, RequestRow};
use crate::{AuditEntry, MailRecord, OptTs, OptUuid, Org, Result, Tenant, Ts};
use aivet_domain::follow_ups::{FollowUpReason, FollowUpStatus, Policy};
use aivet_domain::questions::{Assessment, QuestionSet};
use aivet_domain::{
    DataClassId, FollowUpId, IncidentId, Lang, MembershipId, RequestId, Role, ServiceId, VendorId,
};
use async_trait::async_trait;
use chrono::{DateTime, NaiveDate, Utc};

/// A member as the report names them.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct MemberRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: MembershipId,
    pub name: String,
    pub email: String,
    #[sqlx(try_from = "String")]
    pub role: Role,
    #[sqlx(try_from = "String")]
    pub lang: Lang,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
}

/// A service's assessment.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct AssessmentRow {
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    #[sqlx(try_from = "String")]
    pub assessment: Assessment,
    pub assessment_note: Option<String>,
}

/// A follow-up with its history (open or not).
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct FollowUpRecord {
    #[sqlx(try_from = "uuid::Uuid")]
    pub id: FollowUpId,
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    #[sqlx(try_from = "OptUuid")]
    pub request_id: Option<RequestId>,
    #[sqlx(try_from = "String")]
    pub reason: FollowUpReason,
    #[sqlx(try_from = "String")]
    pub status: FollowUpStatus,
    pub due_on: NaiveDate,
    pub note: Option<String>,
    pub sequence: i32,
    #[sqlx(try_from = "Ts")]
    pub created_at: DateTime<Utc>,
    #[sqlx(try_from = "OptTs")]
    pub closed_at: Option<DateTime<Utc>>,
    pub closed_by: Option<String>,
}

/// A timeline entry as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct EventRecord {
    #[sqlx(try_from = "Ts")]
    pub at: DateTime<Utc>,
    #[sqlx(try_from = "uuid::Uuid")]
    pub service_id: ServiceId,
    #[sqlx(try_from = "OptUuid")]
    pub request_id: Option<RequestId>,
    pub kind: String,
    pub actor: String,
    pub detail: String,
}

/// An incident's timeline entry as stored.
#[derive(Clone, Debug, PartialEq, Eq, sqlx::FromRow)]
pub struct IncidentEntryRecord {
    #[sqlx(try_from = "uuid::Uuid")]
    pub incident_id: IncidentId,
    pub kind: String,
    pub detail: String,
    pub actor: String,
    #[sqlx(try_from = "Ts")]
    pub at: DateTime<Utc>,
}

/// Every record of one organisation that the report shows, read in one
/// transaction. Lists are in the order the report shows them: names by
/// name, events by time (oldest first).
#[derive(Clone, Debug)]
pub struct ReportRows {
    pub org: Org,
    pub members: Vec<MemberRow>,
    pub policy: Policy,
    pub question_set: QuestionSet,
    pub data_classes: Vec<DataClass>,
    pub vendors: Vec<Vendor>,
    pub contacts: Vec<Contact>,
    pub services: Vec<ServiceDetail>,
    pub assessments: Vec<AssessmentRow>,
    pub requests: Vec<RequestRow>,
    /// (request, service), in each request's order.
    pub request_services: Vec<(RequestId, ServiceId)>,
    /// The Message-ID of each request's mail.
    pub request_message_ids: Vec<(RequestId, String)>,
    pub items: Vec<(RequestId, Item)>,
    pub attachments: Vec<(RequestId, AttachmentInfo)>,
    pub events: Vec<EventRecord>,
    pub follow_ups: Vec<FollowUpRecord>,
    /// Mails to vendors (questions and reminders).
    pub mails: Vec<MailRecord>,
    /// Oldest first.
    pub audit: Vec<AuditEntry>,
    /// The data-clearance decisions of every service.
    pub clearances: Vec<crate::clearance::ClearanceRow>,
    /// The incident register.
    pub incidents: IncidentRecords,
    /// When the data-clearance policy was last checked, and by whom.
    pub policy_reviewed: Option<(DateTime<Utc>, String)>,
    /// The OSV records the organisation imported, by id.
    pub advisories: Vec<crate::advisory::StoredAdvisory>,
    /// Which advisories hit which services, by service and advisory.
    pub advisory_hits: Vec<crate::advisory::HitRow>,
}

/// The incident register with each incident's links and timeline.
#[derive(Clone, Debug, Default)]
pub struct IncidentRecords {
    /// By when we became aware, oldest first.
    pub rows: Vec<crate::incident::IncidentRow>,
    /// Each incident's vendors, by name.
    pub vendors: Vec<(IncidentId, VendorId)>,
    /// Each incident's services, by name, with when each was linked.
    pub services: Vec<(IncidentId, (ServiceId, DateTime<Utc>))>,
    /// Each incident's data classes, in the classes' order.
    pub data_classes: Vec<(IncidentId, DataClassId)>,
    /// Every incident's timeline, in each incident's order.
    pub entries: Vec<IncidentEntryRecord>,
}

#[async_trait]
pub trait ReportStore {
    /// Everything the report of the tenant's organisation shows.
    async fn report_rows(&self, t: &Tenant) -> Result<ReportRows>;
    /// The organisation's report exports, newest first (from the audit log).
    async fn report_exports(&self, t: &Tenant, limit: i64) -> Result<Vec<AuditEntry>>;
}
