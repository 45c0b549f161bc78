//! The compliance report as data: everything an auditor reads about one
//! organisation's AI services, language-neutral, as the store holds it.
//!
//! The use case in `aivet_services::report` reads it from the store in one
//! snapshot; [`crate::report_view`] prepares it for one reader (texts in
//! their language, dates in the organisation's zone), and the renderers
//! (PDF, CSV) lay that out. Nothing here formats anything for people.
//!
//! Each feature has its own section ([`ReportData`]'s fields); a feature
//! that arrives later (clearance, incidents) adds a section with
//! `#[serde(default)]`, so that exports of this version still read.
//!
//! The report's data has a SHA-256 ([`ReportData::sha256`]): of its
//! canonical JSON (object keys sorted, no whitespace, UTF-8). It leaves out
//! when the report was made, by whom and in which language, so two reports
//! of unchanged data have the same hash whatever their language.

use crate::clearance::Clearance;
use crate::follow_ups::{FollowUpReason, FollowUpStatus, Policy};
use crate::i18n::Msg;
use crate::incident::{Affected, Art33Record, Art34Record, IncidentState, Risk};
use crate::inventory::{
    AuthorityNotifier, ContactRole, Deployment, FindingStatus, FindingTopic, ServiceStatus,
    VendorRole,
};
use crate::mail::MailStatus;
use crate::questions::{AnsweredVia, Assessment, QuestionSet, RequestStatus, Review};
use crate::{
    AttachmentId, DataClassId, FollowUpId, IncidentId, Lang, OrgId, RequestId, Role, ServiceId,
    VendorId, Zone,
};
use chrono::{DateTime, NaiveDate, Utc};
use serde::{Deserialize, Serialize};
use std::fmt;
use std::str::FromStr;

crate::inventory::choice!(
    /// What a report is downloaded as.
    ReportFormat {
        Pdf = "pdf" => ReportFormatPdf,
        ServicesCsv = "services_csv" => ReportFormatServicesCsv,
        AnswersCsv = "answers_csv" => ReportFormatAnswersCsv,
        Json = "json" => ReportFormatJson,
    }
);

/// The version of the report's and the export's schema (`docs/EXPORT.md`).
pub const SCHEMA_VERSION: u32 = 1;

/// The report: its data, and when, by whom and in which language it was made.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    pub generated_at: DateTime<Utc>,
    pub prepared_by: Person,
    pub lang: Lang,
    pub data: ReportData,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Person {
    pub name: String,
    pub email: String,
}

/// Which services a report covers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "services", rename_all = "snake_case")]
pub enum Scope {
    All,
    /// These services (and what concerns them), in the order given.
    Selection(Vec<ServiceId>),
}

impl Scope {
    pub fn covers(&self, id: ServiceId) -> bool {
        match self {
            Scope::All => true,
            Scope::Selection(ids) => ids.contains(&id),
        }
    }
}

/// What the report is about, one section per feature.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ReportData {
    pub organisation: Organisation,
    pub scope: Scope,
    pub inventory: Inventory,
    pub questions: Questions,
    pub follow_ups: Vec<FollowUp>,
    /// Mails to vendors (questions and reminders), oldest first.
    pub mail_trail: Vec<Mail>,
    /// The organisation's audit log (for a selection: the entries about
    /// its services, their requests and incidents), oldest first.
    pub audit: Vec<AuditItem>,
    /// The incident register (Art. 33(5) GDPR: every breach, notified or
    /// not), by when we became aware, oldest first. For a selection: the
    /// incidents linked to one of its services or naming a vendor of their
    /// supply chain.
    #[serde(default)]
    pub incidents: Vec<Incident>,
    /// The engine advisories the organisation imported (OSV records as
    /// imported; the shipped ones are not repeated here), by id.
    #[serde(default)]
    pub advisories: Vec<ImportedAdvisory>,
    /// The engine advisories that hit the services in scope, by service
    /// and advisory (matched when an advisory or an engine changes).
    #[serde(default)]
    pub advisory_hits: Vec<AdvisoryHit>,
}

/// An engine advisory that hits a service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AdvisoryHit {
    pub service: ServiceId,
    /// The advisory's id (OSV).
    pub advisory: String,
    /// The advisory's summary, if the record has one.
    pub summary: Option<String>,
    /// True: the service's version is affected; false: its version is not
    /// known (or not comparable), so it may be.
    pub affected: bool,
    /// The first fixed version above the service's, if the record says.
    pub fixed: Option<String>,
}

/// An OSV record an owner imported.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportedAdvisory {
    pub id: String,
    /// The record's JSON, as imported.
    pub osv: String,
    pub imported_by: String,
    pub imported_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Organisation {
    pub id: OrgId,
    pub name: String,
    pub slug: String,
    pub time_zone: Zone,
    pub created_at: DateTime<Utc>,
    pub members: Vec<Member>,
    pub follow_up_policy: Policy,
    pub question_set: QuestionSet,
    /// When the data-clearance policy was last checked, and by whom.
    #[serde(default)]
    pub policy_reviewed_at: Option<DateTime<Utc>>,
    #[serde(default)]
    pub policy_reviewed_by: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Member {
    pub name: String,
    pub email: String,
    pub role: Role,
    pub lang: Lang,
    pub joined_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Inventory {
    pub data_classes: Vec<DataClass>,
    /// The vendors named by the services in scope (all vendors for all
    /// services), by name.
    pub vendors: Vec<Vendor>,
    /// By name.
    pub services: Vec<Service>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct DataClass {
    pub id: DataClassId,
    pub name: String,
    pub personal: bool,
    /// The policy: it may go into a service only with a decision.
    #[serde(default)]
    pub needs_clearance: bool,
    pub archived_at: Option<DateTime<Utc>>,
}

/// A decision on which data may go into a service.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ClearanceRecord {
    pub data_class: DataClassId,
    pub clearance: Clearance,
    pub condition: Option<String>,
    pub expires_on: Option<NaiveDate>,
    /// What it rests on (`finding:<topic>`, `answer:<request>:<position>`).
    pub evidence: Vec<String>,
    pub decided_by: String,
    pub decided_at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Vendor {
    pub id: VendorId,
    pub name: String,
    pub role: VendorRole,
    pub website: Option<String>,
    pub dpa_url: Option<String>,
    pub privacy_url: Option<String>,
    pub subprocessors_url: Option<String>,
    pub status_url: Option<String>,
    pub trust_url: Option<String>,
    pub notes: Option<String>,
    pub contacts: Vec<Contact>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub archived_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Contact {
    pub name: String,
    pub email: String,
    pub lang: Lang,
    pub role: ContactRole,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Service {
    pub id: ServiceId,
    pub name: String,
    pub purpose: Option<String>,
    pub status: ServiceStatus,
    pub vendor: VendorId,
    pub integrator: Option<VendorId>,
    pub model_provider: Option<VendorId>,
    pub inference_host: Option<VendorId>,
    pub model: Option<String>,
    /// The inference software as first written down (free text).
    pub engine: Option<String>,
    /// The inference software, structured: engine, version and where the
    /// version came from.
    #[serde(default)]
    pub engine_kind: Option<crate::advisory::Engine>,
    #[serde(default)]
    pub engine_version: Option<String>,
    #[serde(default)]
    pub engine_source: Option<crate::advisory::VersionSource>,
    pub deployment: Deployment,
    /// The member who looks after it (their email).
    pub owner: Option<String>,
    pub data_classes: Vec<DataClassId>,
    pub dpa_signed_on: Option<NaiveDate>,
    pub dpa_url: Option<String>,
    pub notice_hours: Option<i32>,
    pub notice_channel: Option<String>,
    pub authority_notifier: AuthorityNotifier,
    pub assessment: Assessment,
    pub assessment_note: Option<String>,
    /// One per topic written down; a topic missing is unknown.
    pub findings: Vec<Finding>,
    /// One per data class decided, by class.
    #[serde(default)]
    pub clearances: Vec<ClearanceRecord>,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    pub archived_at: Option<DateTime<Utc>>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Finding {
    pub topic: FindingTopic,
    pub status: FindingStatus,
    pub summary: Option<String>,
    pub source_url: Option<String>,
    pub checked_on: Option<NaiveDate>,
    pub updated_at: DateTime<Utc>,
}

#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Questions {
    /// The requests about services in scope, oldest first.
    pub requests: Vec<Request>,
    /// Every service's timeline entries, oldest first.
    pub timeline: Vec<TimelineEntry>,
}

/// One request as it was sent, with the answers and their reviews.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Request {
    pub id: RequestId,
    /// The services asked about, the request's own first.
    pub services: Vec<ServiceId>,
    pub vendor_name: String,
    pub recipient_name: String,
    pub recipient_email: String,
    pub lang: Lang,
    pub deadline: NaiveDate,
    pub set_version: i32,
    pub previous: Option<RequestId>,
    pub sent_by: String,
    pub sent_at: DateTime<Utc>,
    /// The Message-ID of the mail that carried the questions.
    pub message_id: Option<String>,
    pub status: RequestStatus,
    pub revoked_at: Option<DateTime<Utc>>,
    pub saved_at: Option<DateTime<Utc>>,
    pub submitted_at: Option<DateTime<Utc>>,
    pub responder_name: Option<String>,
    pub responder_role: Option<String>,
    pub responder_email: Option<String>,
    pub answered_via: Option<AnsweredVia>,
    pub received_on: Option<NaiveDate>,
    pub received_source: Option<String>,
    pub reminders: bool,
    pub reminders_sent: i32,
    /// When the reminders were used up without an answer.
    pub no_answer_at: Option<DateTime<Utc>>,
    /// The questions exactly as sent, with answers and reviews.
    pub items: Vec<Item>,
    pub attachments: Vec<Attachment>,
}

impl Request {
    /// Given up as "no answer" (the reminders were used up).
    pub fn no_answer(&self) -> bool {
        self.no_answer_at.is_some() && self.status != RequestStatus::Submitted
    }
    /// Still waiting for the vendor.
    pub fn waiting(&self) -> bool {
        self.status
            .waiting(self.revoked_at.is_some(), self.no_answer_at.is_some())
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Item {
    pub position: i32,
    pub code: String,
    pub question: String,
    pub why: String,
    pub earlier_answer: Option<String>,
    /// The reviewer's note sent with the question when it was asked again.
    #[serde(default)]
    pub earlier_note: Option<String>,
    pub answer: Option<String>,
    pub review: Option<Review>,
    pub review_note: Option<String>,
    pub reviewed_by: Option<String>,
    pub reviewed_at: Option<DateTime<Utc>>,
}

/// A document attached to a request (its content is not part of the
/// report; the JSON export carries it).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    pub id: AttachmentId,
    pub filename: String,
    pub media_type: String,
    pub size: i64,
    pub uploaded_at: DateTime<Utc>,
    pub uploaded_by: String,
}

/// A timeline entry as stored (read with `timeline::Event::from_stored`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TimelineEntry {
    pub at: DateTime<Utc>,
    pub service: ServiceId,
    pub request: Option<RequestId>,
    pub actor: String,
    pub kind: String,
    pub detail: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FollowUp {
    pub id: FollowUpId,
    pub service: ServiceId,
    pub request: Option<RequestId>,
    pub reason: FollowUpReason,
    pub status: FollowUpStatus,
    pub due_on: NaiveDate,
    pub note: Option<String>,
    /// How often its date was changed.
    pub moved: i32,
    pub created_at: DateTime<Utc>,
    pub closed_at: Option<DateTime<Utc>>,
    pub closed_by: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mail {
    pub kind: String,
    pub recipient: String,
    pub subject: String,
    pub message_id: String,
    pub status: MailStatus,
    pub created_at: DateTime<Utc>,
    pub sent_at: Option<DateTime<Utc>>,
}

/// A vendor incident as the register records it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Incident {
    pub id: IncidentId,
    pub title: String,
    pub description: Option<String>,
    pub source_links: Vec<String>,
    pub vendors: Vec<VendorId>,
    /// The services it affects (for a selection: those in it).
    pub services: Vec<ServiceId>,
    /// When each of `services` was linked to it, in the same order (a
    /// decision made before counts as suspended while it is open).
    #[serde(default)]
    pub linked_at: Vec<DateTime<Utc>>,
    pub data_classes: Vec<DataClassId>,
    pub exposure_start: Option<DateTime<Utc>>,
    pub exposure_end: Option<DateTime<Utc>>,
    pub vendor_aware_at: Option<DateTime<Utc>>,
    pub vendor_fixed_at: Option<DateTime<Utc>>,
    pub vendor_notified_at: Option<DateTime<Utc>>,
    pub vendor_notified_how: Option<String>,
    pub disclosed_at: Option<DateTime<Utc>>,
    /// Starts the Art. 33 clock when personal data may be involved.
    pub we_aware_at: DateTime<Utc>,
    pub affected: Affected,
    pub affected_evidence: Option<String>,
    pub personal_data: bool,
    pub risk: Risk,
    pub state: IncidentState,
    pub closed_at: Option<DateTime<Utc>>,
    pub art33: Option<Art33Record>,
    pub art34: Option<Art34Record>,
    pub created_by: String,
    pub created_at: DateTime<Utc>,
    pub updated_at: DateTime<Utc>,
    /// Its own timeline, oldest first.
    pub timeline: Vec<IncidentEntry>,
}

impl Incident {
    /// The Art. 33 clock at `now`.
    pub fn clock(&self, now: DateTime<Utc>) -> crate::incident::Clock {
        let decided = self.art33.as_ref().map(Art33Record::decided);
        crate::incident::clock(self.personal_data, self.we_aware_at, decided, now)
    }
}

/// An incident's timeline entry as stored (read with
/// `incident::Entry::from_stored`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IncidentEntry {
    pub at: DateTime<Utc>,
    pub actor: String,
    pub kind: String,
    pub detail: String,
}

/// An audit entry as stored (read with [`crate::Audit::from_stored`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditItem {
    pub at: DateTime<Utc>,
    pub actor: String,
    pub action: String,
    pub detail: String,
}

impl ReportData {
    /// The canonical JSON of the data: object keys sorted, no whitespace.
    pub fn canonical_json(&self) -> String {
        let value = serde_json::to_value(self).unwrap_or_default();
        let mut out = String::new();
        write_canonical(&value, &mut out);
        out
    }

    /// The SHA-256 of [`ReportData::canonical_json`], in lower-case hex.
    pub fn sha256(&self) -> String {
        canonical_sha256(&serde_json::to_value(self).unwrap_or_default())
    }

    pub fn service(&self, id: ServiceId) -> Option<&Service> {
        self.inventory.services.iter().find(|s| s.id == id)
    }

    pub fn vendor(&self, id: VendorId) -> Option<&Vendor> {
        self.inventory.vendors.iter().find(|v| v.id == id)
    }
}

/// The SHA-256 of a JSON value's canonical form (object keys sorted, no
/// whitespace), in lower-case hex: what an export's `data_sha256` is of,
/// so that a file can be checked as written, whichever version wrote it.
pub fn canonical_sha256(value: &serde_json::Value) -> String {
    use sha2::{Digest, Sha256};
    let mut out = String::new();
    write_canonical(value, &mut out);
    let digest = Sha256::digest(out.as_bytes());
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

fn write_canonical(v: &serde_json::Value, out: &mut String) {
    use serde_json::Value;
    match v {
        Value::Object(map) => {
            let mut keys: Vec<&String> = map.keys().collect();
            keys.sort();
            out.push('{');
            for (i, k) in keys.into_iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(&Value::String(k.clone()).to_string());
                out.push(':');
                write_canonical(&map[k], out);
            }
            out.push('}');
        }
        Value::Array(items) => {
            out.push('[');
            for (i, item) in items.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                write_canonical(item, out);
            }
            out.push(']');
        }
        other => out.push_str(&other.to_string()),
    }
}

/// A small report with every section filled, for tests of the view and of
/// the renderers. `text` goes into every free-text field (names, notes,
/// answers), so that a test can put hostile strings everywhere.
#[cfg(any(test, feature = "testing"))]
pub fn example(org: &str, text: &str) -> Report {
    use crate::incident::{Art33Choice, Art34Choice, Entry};
    use crate::questions::RequestStatus;
    use chrono::TimeZone;
    let at = |d: u32, h: u32| Utc.with_ymd_and_hms(2026, 11, d, h, 0, 0).unwrap();
    let day = |d: u32| NaiveDate::from_ymd_opt(2026, 11, d).unwrap();
    let id = |n: u128| uuid::Uuid::from_u128(n);
    let (vendor, host, service, other) = (
        VendorId(id(1)),
        VendorId(id(2)),
        ServiceId(id(3)),
        ServiceId(id(4)),
    );
    let (answered, silent) = (RequestId(id(5)), RequestId(id(6)));
    let personal = DataClassId(id(7));
    let request = |rid: RequestId, sid: ServiceId| Request {
        id: rid,
        services: vec![sid],
        vendor_name: format!("Vendor {text}"),
        recipient_name: format!("Contact {text}"),
        recipient_email: "security@vendor.example".into(),
        lang: Lang::En,
        deadline: day(14),
        set_version: 0,
        previous: None,
        sent_by: format!("Owner {text}"),
        sent_at: at(2, 9),
        message_id: Some(format!("<{}@aivet.example>", rid.0)),
        status: RequestStatus::Sent,
        revoked_at: None,
        saved_at: None,
        submitted_at: None,
        responder_name: None,
        responder_role: None,
        responder_email: None,
        answered_via: None,
        received_on: None,
        received_source: None,
        reminders: true,
        reminders_sent: 0,
        no_answer_at: None,
        items: vec![Item {
            position: 0,
            code: "separation".into(),
            question: format!("How do you separate customers' data? {text}"),
            why: "Because we must know.".into(),
            earlier_answer: None,
            earlier_note: None,
            answer: None,
            review: None,
            review_note: None,
            reviewed_by: None,
            reviewed_at: None,
        }],
        attachments: Vec::new(),
    };
    let entry = |at: DateTime<Utc>, e: Entry| {
        let (kind, detail) = e.to_stored();
        IncidentEntry {
            at,
            actor: format!("Owner {text}"),
            kind,
            detail,
        }
    };
    let mut done = request(answered, service);
    done.status = RequestStatus::Submitted;
    done.submitted_at = Some(at(10, 15));
    done.responder_name = Some(format!("Responder {text}"));
    done.responder_email = Some("dpo@vendor.example".into());
    done.answered_via = Some(AnsweredVia::Portal);
    done.items[0].answer = Some(format!("Separate caches per tenant. {text}"));
    done.items[0].review = Some(Review::Satisfactory);
    done.items[0].review_note = Some(format!("Note {text}"));
    done.items[0].reviewed_by = Some("Owner".into());
    done.items[0].reviewed_at = Some(at(11, 10));
    done.attachments.push(Attachment {
        id: AttachmentId(id(8)),
        filename: format!("answers {text}.pdf"),
        media_type: "application/pdf".into(),
        size: 2048,
        uploaded_at: at(10, 15),
        uploaded_by: "Vendor".into(),
    });
    let mut gone = request(silent, other);
    gone.reminders_sent = 4;
    gone.no_answer_at = Some(at(28, 9));
    let service_of = |sid: ServiceId, name: String, assessment: Assessment| Service {
        id: sid,
        name,
        purpose: Some(format!("Purpose {text}")),
        status: ServiceStatus::InUse,
        vendor,
        integrator: None,
        model_provider: Some(vendor),
        inference_host: Some(host),
        model: Some("model-1".into()),
        engine: Some("SGLang 0.5.22".into()),
        engine_kind: Some(crate::advisory::Engine::Sglang),
        engine_version: Some("0.5.22".into()),
        engine_source: Some(crate::advisory::VersionSource::VendorAnswer),
        deployment: Deployment::Shared,
        owner: Some("owner@org.example".into()),
        data_classes: vec![personal],
        dpa_signed_on: Some(day(1)),
        dpa_url: Some("https://vendor.example/dpa".into()),
        notice_hours: Some(72),
        notice_channel: Some(format!("Mail {text}")),
        authority_notifier: AuthorityNotifier::Us,
        assessment,
        assessment_note: Some(format!("Condition {text}")),
        clearances: vec![ClearanceRecord {
            data_class: personal,
            clearance: Clearance::Conditional,
            condition: Some(format!("Only pseudonymised {text}")),
            expires_on: Some(day(20)),
            evidence: vec!["finding:separation".into()],
            decided_by: format!("Owner {text}"),
            decided_at: at(4, 9),
        }],
        findings: vec![Finding {
            topic: FindingTopic::Separation,
            status: FindingStatus::Stated,
            summary: Some(format!("Per-tenant caches {text}")),
            source_url: Some("https://vendor.example/security".into()),
            checked_on: Some(day(3)),
            updated_at: at(3, 12),
        }],
        created_at: at(1, 8),
        updated_at: at(11, 10),
        archived_at: None,
    };
    let vendor_of = |vid: VendorId, name: String, role: VendorRole| Vendor {
        id: vid,
        name,
        role,
        website: Some("https://vendor.example".into()),
        dpa_url: None,
        privacy_url: None,
        subprocessors_url: None,
        status_url: None,
        trust_url: None,
        notes: Some(format!("Notes {text}")),
        contacts: vec![Contact {
            name: format!("Contact {text}"),
            email: "security@vendor.example".into(),
            lang: Lang::En,
            role: ContactRole::Security,
            primary: true,
        }],
        created_at: at(1, 8),
        updated_at: at(1, 8),
        archived_at: None,
    };
    Report {
        generated_at: at(30, 13),
        prepared_by: Person {
            name: format!("Owner {text}"),
            email: "owner@org.example".into(),
        },
        lang: Lang::En,
        data: ReportData {
            organisation: Organisation {
                id: OrgId(id(9)),
                name: org.to_owned(),
                slug: "org".into(),
                time_zone: Zone::parse("Europe/Berlin").unwrap(),
                created_at: at(1, 8),
                members: vec![Member {
                    name: format!("Owner {text}"),
                    email: "owner@org.example".into(),
                    role: Role::Owner,
                    lang: Lang::En,
                    joined_at: at(1, 8),
                }],
                follow_up_policy: Policy::default(),
                question_set: QuestionSet::standard(),
                policy_reviewed_at: None,
                policy_reviewed_by: None,
            },
            scope: Scope::All,
            inventory: Inventory {
                data_classes: vec![DataClass {
                    id: personal,
                    name: format!("Customer data {text}"),
                    personal: true,
                    needs_clearance: true,
                    archived_at: None,
                }],
                vendors: vec![
                    vendor_of(vendor, format!("Vendor {text}"), VendorRole::ModelProvider),
                    vendor_of(host, format!("Host {text}"), VendorRole::InferenceHost),
                ],
                services: vec![
                    service_of(service, format!("Chat {text}"), Assessment::Conditional),
                    service_of(other, format!("Search {text}"), Assessment::Asked),
                ],
            },
            questions: Questions {
                requests: vec![done, gone],
                timeline: vec![TimelineEntry {
                    at: at(2, 9),
                    service,
                    request: Some(answered),
                    actor: format!("Owner {text}"),
                    kind: "sent".into(),
                    detail: r#"{"to_name":"Contact","to_email":"security@vendor.example","questions":5}"#
                        .into(),
                }],
            },
            follow_ups: vec![
                FollowUp {
                    id: FollowUpId(id(10)),
                    service: other,
                    request: Some(silent),
                    reason: FollowUpReason::AnswerDue,
                    status: FollowUpStatus::Open,
                    due_on: day(20),
                    note: Some(format!("Moved {text}")),
                    moved: 1,
                    created_at: at(2, 9),
                    closed_at: None,
                    closed_by: None,
                },
                FollowUp {
                    id: FollowUpId(id(11)),
                    service,
                    request: Some(answered),
                    reason: FollowUpReason::AnswerDue,
                    status: FollowUpStatus::Done,
                    due_on: day(14),
                    note: None,
                    moved: 0,
                    created_at: at(2, 9),
                    closed_at: Some(at(10, 15)),
                    closed_by: None,
                },
            ],
            mail_trail: vec![Mail {
                kind: "questions".into(),
                recipient: "security@vendor.example".into(),
                subject: format!("Questions {text}"),
                message_id: format!("<{}@aivet.example>", answered.0),
                status: MailStatus::Sent,
                created_at: at(2, 9),
                sent_at: Some(at(2, 9)),
            }],
            audit: vec![AuditItem {
                at: at(11, 10),
                actor: "owner@org.example".into(),
                action: "questions.decided".into(),
                detail: format!(r#"{{"service":"{}","decision":"cleared_with_conditions"}}"#, service.0),
            }],
            incidents: vec![
                // Closed: notified in time, the people affected not informed.
                Incident {
                    id: IncidentId(id(13)),
                    title: format!("Outage {text}"),
                    description: None,
                    source_links: Vec::new(),
                    vendors: vec![host],
                    services: vec![other],
                    linked_at: vec![at(20, 9)],
                    data_classes: Vec::new(),
                    exposure_start: None,
                    exposure_end: None,
                    vendor_aware_at: None,
                    vendor_fixed_at: None,
                    vendor_notified_at: Some(at(10, 8)),
                    vendor_notified_how: None,
                    disclosed_at: None,
                    we_aware_at: at(10, 9),
                    affected: Affected::Yes,
                    affected_evidence: None,
                    personal_data: true,
                    risk: Risk::Risk,
                    state: IncidentState::Closed,
                    closed_at: Some(at(20, 9)),
                    art33: Some(Art33Record {
                        decision: Art33Choice::Notify,
                        rationale: format!("Prompts held names {text}"),
                        notified_at: Some(at(12, 9)),
                        authority: Some(format!("Authority {text}")),
                        reference: Some(format!("Ref {text}")),
                        delay_reason: None,
                        decided_by: format!("Owner {text}"),
                        decided_at: at(12, 9),
                    }),
                    art34: Some(Art34Record {
                        decision: Art34Choice::NotRequired,
                        rationale: format!("Low risk {text}"),
                        informed_on: None,
                        decided_by: format!("Owner {text}"),
                        decided_at: at(12, 10),
                    }),
                    created_by: format!("Owner {text}"),
                    created_at: at(10, 9),
                    updated_at: at(20, 9),
                    timeline: vec![
                        entry(at(10, 9), Entry::Recorded { title: format!("Outage {text}") }),
                        entry(
                            at(12, 9),
                            Entry::Art33Decided {
                                decision: Art33Choice::Notify,
                                notified_at: Some(at(12, 9)),
                                late: false,
                            },
                        ),
                        entry(at(20, 9), Entry::Closed),
                    ],
                },
                // Open, with the 72-hour clock running.
                Incident {
                    id: IncidentId(id(12)),
                    title: format!("Cache leak {text}"),
                    description: Some(format!("Other customers' prompts {text}")),
                    source_links: vec!["https://vendor.example/incident".into()],
                    vendors: vec![vendor],
                    services: vec![service],
                    linked_at: vec![at(29, 9)],
                    data_classes: vec![personal],
                    exposure_start: Some(at(1, 0)),
                    exposure_end: Some(at(3, 12)),
                    vendor_aware_at: Some(at(3, 9)),
                    vendor_fixed_at: Some(at(3, 12)),
                    vendor_notified_at: None,
                    vendor_notified_how: Some(format!("Blog {text}")),
                    disclosed_at: Some(at(24, 12)),
                    we_aware_at: at(29, 9),
                    affected: Affected::Unknown,
                    affected_evidence: Some(format!("Evidence {text}")),
                    personal_data: true,
                    risk: Risk::NotAssessed,
                    state: IncidentState::Open,
                    closed_at: None,
                    art33: None,
                    art34: None,
                    created_by: format!("Owner {text}"),
                    created_at: at(29, 9),
                    updated_at: at(29, 10),
                    timeline: vec![
                        entry(at(29, 9), Entry::Recorded { title: format!("Cache leak {text}") }),
                        entry(at(29, 9), Entry::ServiceLinked { service: format!("Chat {text}") }),
                        entry(at(29, 10), Entry::Note { text: format!("Vendor called {text}") }),
                    ],
                },
            ],
            advisories: Vec::new(),
            advisory_hits: vec![
                AdvisoryHit {
                    service,
                    advisory: "AIVET-2026-0001".into(),
                    summary: Some(format!("KV cache shared {text}")),
                    affected: true,
                    fixed: Some("0.5.22".into()),
                },
                AdvisoryHit {
                    service: other,
                    advisory: "AIVET-2026-0001".into(),
                    summary: None,
                    affected: false,
                    fixed: None,
                },
            ],
        },
    }
}

/// The example report grown to `n` services, each with a request of five
/// answered and reviewed questions, a follow-up, a mail and an audit entry
/// (the size of a large report, for measurements).
#[cfg(any(test, feature = "testing"))]
pub fn example_with_services(n: usize) -> Report {
    let mut report = example("Bäckerei Sonnenschein GmbH", "plain");
    let d = &mut report.data;
    let service = d.inventory.services[0].clone();
    let mut request = d.questions.requests[0].clone();
    let item = request.items[0].clone();
    request.items = (0..5)
        .map(|i| {
            let mut it = item.clone();
            it.position = i;
            it
        })
        .collect();
    let follow_up = d.follow_ups[0].clone();
    let mail = d.mail_trail[0].clone();
    let audit = d.audit[0].clone();
    let (mut services, mut requests, mut follow_ups) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..n {
        let id = ServiceId(uuid::Uuid::from_u128(1_000_000 + i as u128));
        let rid = RequestId(uuid::Uuid::from_u128(2_000_000 + i as u128));
        let mut s = service.clone();
        s.id = id;
        s.name = format!("Service {i:04}");
        services.push(s);
        let mut r = request.clone();
        r.id = rid;
        r.services = vec![id];
        requests.push(r);
        let mut f = follow_up.clone();
        f.id = FollowUpId(uuid::Uuid::from_u128(3_000_000 + i as u128));
        f.service = id;
        f.request = Some(rid);
        follow_ups.push(f);
        d.mail_trail.push(mail.clone());
        d.audit.push(audit.clone());
    }
    d.inventory.services = services;
    d.questions.requests = requests;
    d.questions.timeline.clear();
    d.follow_ups = follow_ups;
    report
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::incident::Art33Choice;

    #[test]
    fn canonical_json_sorts_keys_at_every_depth() {
        let v: serde_json::Value =
            serde_json::from_str(r#"{"b":1,"a":{"z":[{"y":2,"x":"é"}],"c":null}}"#).unwrap();
        let mut out = String::new();
        write_canonical(&v, &mut out);
        assert_eq!(out, r#"{"a":{"c":null,"z":[{"x":"é","y":2}]},"b":1}"#);
    }

    #[test]
    fn the_hash_changes_with_an_incident() {
        let data = example("Org", "x").data;
        let hash = data.sha256();
        let changes: [fn(&mut Incident); 4] = [
            |i| i.title.push('!'),
            |i| i.state = IncidentState::Closed,
            |i| {
                i.art33 = Some(Art33Record {
                    decision: Art33Choice::NotRequired,
                    rationale: "No personal data after all.".into(),
                    notified_at: None,
                    authority: None,
                    reference: None,
                    delay_reason: None,
                    decided_by: "Owner".into(),
                    decided_at: i.we_aware_at,
                })
            },
            |i| i.timeline[0].actor.push('!'),
        ];
        for change in changes {
            let mut changed = data.clone();
            change(&mut changed.incidents[1]);
            assert_ne!(changed.sha256(), hash);
        }
        let mut none = data.clone();
        none.incidents.clear();
        assert_ne!(none.sha256(), hash);
    }

    #[test]
    fn incidents_round_trip_and_an_export_without_them_still_reads() {
        let data = example("Org", "x").data;
        let json = serde_json::to_value(&data).unwrap();
        assert_eq!(json["incidents"][1]["title"], "Cache leak x");
        assert_eq!(json["incidents"][0]["art33"]["decision"], "notify");
        assert_eq!(json["incidents"][1]["timeline"][0]["kind"], "recorded");
        let back: ReportData = serde_json::from_value(json.clone()).unwrap();
        assert_eq!(back, data);
        let mut older = json;
        older.as_object_mut().unwrap().remove("incidents");
        let read: ReportData = serde_json::from_value(older).unwrap();
        assert!(read.incidents.is_empty());
    }
}
