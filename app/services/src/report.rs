//! The compliance report and the exports: the report's model read from the
//! store in one snapshot, restricted to the chosen services; the PDF (laid
//! out by the engine the server plugs in), the CSV of services and of
//! answers, and the JSON export of the whole organisation. Every download
//! is recorded in the audit log with the SHA-256 of its data and who made
//! it. Any member may export: it shows nothing a viewer cannot read.

use crate::inventory_csv::{csv_line, defuse};
use crate::{Auth, ServiceError, Services};
use aivet_domain::report::{
    AdvisoryHit, Attachment, AuditItem, ClearanceRecord, Contact, DataClass, Finding, FollowUp,
    ImportedAdvisory, Incident, IncidentEntry, Inventory, Item, Mail, Member, Organisation, Person,
    Questions, Report, ReportData, ReportFormat, Request, Scope, Service, TimelineEntry, Vendor,
    SCHEMA_VERSION,
};
use aivet_domain::{Audit, IncidentId, Lang, Msg, RequestId, ServiceId};
use aivet_store::report::{IncidentRecords, ReportRows};
use aivet_store::Tenant;
use base64::Engine;
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, OnceLock};

type Result<T> = std::result::Result<T, ServiceError>;

/// Lays out a prepared report (`aivet_domain::report_view::View` as JSON)
/// as a PDF. The server plugs in the embedded engine (`aivet-report`), so
/// that the use cases do not compile with it.
pub trait PdfEngine: Send + Sync {
    fn render(
        &self,
        view_json: Vec<u8>,
        created: DateTime<Utc>,
    ) -> std::result::Result<Vec<u8>, String>;
}

/// For setups without a PDF engine: every PDF fails (as an internal error).
pub struct NoPdf;

impl PdfEngine for NoPdf {
    fn render(&self, _: Vec<u8>, _: DateTime<Utc>) -> std::result::Result<Vec<u8>, String> {
        Err("no PDF engine configured".into())
    }
}

/// PDFs laid out at the same time, at most: each takes a core (and a
/// little of a second one) and, while it runs, up to about 50 MB (500
/// services, BENCHMARKS.md); more at once would not finish sooner.
const PDF_SLOTS: usize = 2;

fn pdf_slots() -> &'static Arc<tokio::sync::Semaphore> {
    static SLOTS: OnceLock<Arc<tokio::sync::Semaphore>> = OnceLock::new();
    SLOTS.get_or_init(|| Arc::new(tokio::sync::Semaphore::new(PDF_SLOTS)))
}

/// A file to download.
#[derive(Clone, Debug)]
pub struct Download {
    pub filename: String,
    pub media_type: &'static str,
    pub body: Vec<u8>,
    /// The SHA-256 of the data (printed in the PDF, in the audit log).
    pub sha256: String,
}

/// An earlier export, as the Reports page lists it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportRecord {
    pub at: DateTime<Utc>,
    pub by: String,
    pub format: ReportFormat,
    pub lang: Lang,
    /// How many services were chosen (`None`: all).
    pub services: Option<usize>,
    pub sha256: String,
}

/// The JSON export of one organisation: `docs/EXPORT.md` describes it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Export {
    /// Always `aivet-export`.
    pub schema: String,
    pub version: u32,
    pub exported_at: DateTime<Utc>,
    pub exported_by: Person,
    /// The SHA-256 of `data` (its canonical JSON).
    pub data_sha256: String,
    pub data: ReportData,
    /// The attached documents' contents, by attachment.
    pub files: Vec<ExportFile>,
}

pub const EXPORT_SCHEMA: &str = "aivet-export";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportFile {
    pub attachment: aivet_domain::AttachmentId,
    pub sha256: String,
    /// The content, base64 (standard alphabet, with padding).
    pub base64: String,
}

pub(crate) fn sha256_hex(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    hex::encode(Sha256::digest(bytes))
}

/// What an audit entry is about (from its fields).
#[derive(Default)]
struct Mentions {
    services: Vec<String>,
    requests: Vec<String>,
    incidents: Vec<String>,
}

fn mentions(item: &AuditItem) -> Mentions {
    let Ok(serde_json::Value::Object(detail)) = serde_json::from_str(&item.detail) else {
        return Mentions::default();
    };
    let strings = |key: &str| -> Vec<String> {
        match detail.get(key) {
            Some(serde_json::Value::String(s)) => vec![s.clone()],
            Some(serde_json::Value::Array(a)) => a
                .iter()
                .filter_map(|v| v.as_str().map(str::to_owned))
                .collect(),
            _ => Vec::new(),
        }
    };
    let mut services = strings("service");
    services.extend(strings("services"));
    Mentions {
        services,
        requests: strings("request"),
        incidents: strings("incident"),
    }
}

/// The incidents of `records` in `scope`: for a selection, those linked to
/// one of its services or naming one of `vendors`, with only its services.
fn incidents(
    records: IncidentRecords,
    scope: &Scope,
    in_scope: &HashSet<ServiceId>,
    vendors: &HashSet<aivet_domain::VendorId>,
) -> Vec<Incident> {
    fn by_incident<T>(links: Vec<(IncidentId, T)>) -> HashMap<IncidentId, Vec<T>> {
        let mut out: HashMap<IncidentId, Vec<T>> = HashMap::new();
        for (i, x) in links {
            out.entry(i).or_default().push(x);
        }
        out
    }
    let mut linked_vendors = by_incident(records.vendors);
    let mut linked_services = by_incident(records.services);
    let mut classes = by_incident(records.data_classes);
    let mut entries = by_incident(
        records
            .entries
            .into_iter()
            .map(|e| {
                (
                    e.incident_id,
                    IncidentEntry {
                        at: e.at,
                        actor: e.actor,
                        kind: e.kind,
                        detail: e.detail,
                    },
                )
            })
            .collect(),
    );
    records
        .rows
        .into_iter()
        .filter_map(|i| {
            let source_links = i.source_links();
            let vendors_of = linked_vendors.remove(&i.id).unwrap_or_default();
            let mut links = linked_services.remove(&i.id).unwrap_or_default();
            if *scope != Scope::All {
                let concerns = links.iter().any(|(s, _)| in_scope.contains(s))
                    || vendors_of.iter().any(|v| vendors.contains(v));
                if !concerns {
                    return None;
                }
                links.retain(|(s, _)| in_scope.contains(s));
            }
            let (services, linked_at) = links.into_iter().unzip();
            Some(Incident {
                art33: i.art33_record(),
                art34: i.art34_record(),
                title: i.title,
                description: i.description,
                source_links,
                vendors: vendors_of,
                services,
                linked_at,
                data_classes: classes.remove(&i.id).unwrap_or_default(),
                exposure_start: i.exposure_start,
                exposure_end: i.exposure_end,
                vendor_aware_at: i.vendor_aware_at,
                vendor_fixed_at: i.vendor_fixed_at,
                vendor_notified_at: i.vendor_notified_at,
                vendor_notified_how: i.vendor_notified_how,
                disclosed_at: i.disclosed_at,
                we_aware_at: i.we_aware_at,
                affected: i.affected,
                affected_evidence: i.affected_evidence,
                personal_data: i.personal_data,
                risk: i.risk,
                state: i.state,
                closed_at: i.closed_at,
                created_by: i.created_by,
                created_at: i.created_at,
                updated_at: i.updated_at,
                timeline: entries.remove(&i.id).unwrap_or_default(),
                id: i.id,
            })
        })
        .collect()
}

/// The report's model of `rows`, restricted to `scope`.
pub fn model(rows: ReportRows, scope: &Scope) -> ReportData {
    let members: HashMap<_, _> = rows
        .members
        .iter()
        .map(|m| (m.id, m.email.clone()))
        .collect();
    let assessments: HashMap<_, _> = rows
        .assessments
        .into_iter()
        .map(|a| (a.service_id, (a.assessment, a.assessment_note)))
        .collect();
    let mut services: Vec<Service> = rows
        .services
        .into_iter()
        .filter(|d| scope.covers(d.service.id))
        .map(|d| {
            let s = d.service;
            let (assessment, assessment_note) = assessments
                .get(&s.id)
                .cloned()
                .unwrap_or((aivet_domain::questions::Assessment::NotAsked, None));
            Service {
                id: s.id,
                name: s.name,
                purpose: s.purpose,
                status: s.status,
                vendor: s.vendor_id,
                integrator: s.integrator_id,
                model_provider: s.model_provider_id,
                inference_host: s.inference_host_id,
                model: s.model,
                engine: s.engine,
                engine_kind: s.engine_kind,
                engine_version: s.engine_version,
                engine_source: s.engine_source,
                deployment: s.deployment,
                owner: s.owner_id.and_then(|o| members.get(&o).cloned()),
                data_classes: d.data_classes,
                dpa_signed_on: s.dpa_signed_on,
                dpa_url: s.dpa_url,
                notice_hours: s.notice_hours,
                notice_channel: s.notice_channel,
                authority_notifier: s.authority_notifier,
                assessment,
                assessment_note,
                clearances: rows
                    .clearances
                    .iter()
                    .filter(|k| k.service_id == s.id)
                    .map(|k| ClearanceRecord {
                        data_class: k.data_class_id,
                        clearance: k.clearance,
                        condition: k.condition.clone(),
                        expires_on: k.expires_on,
                        evidence: aivet_domain::clearance::evidence_from_json(&k.evidence)
                            .iter()
                            .map(ToString::to_string)
                            .collect(),
                        decided_by: k.decided_by.clone(),
                        decided_at: k.decided_at,
                    })
                    .collect(),
                findings: d
                    .findings
                    .into_iter()
                    .map(|f| Finding {
                        topic: f.topic,
                        status: f.status,
                        summary: f.summary,
                        source_url: f.source_url,
                        checked_on: f.checked_on,
                        updated_at: f.updated_at,
                    })
                    .collect(),
                created_at: s.created_at,
                updated_at: s.updated_at,
                archived_at: s.archived_at,
            }
        })
        .collect();
    if let Scope::Selection(ids) = scope {
        services.sort_by_key(|s| ids.iter().position(|i| *i == s.id));
    }
    let in_scope: HashSet<ServiceId> = services.iter().map(|s| s.id).collect();
    let named: HashSet<_> = services
        .iter()
        .flat_map(|s| {
            [
                Some(s.vendor),
                s.integrator,
                s.model_provider,
                s.inference_host,
            ]
        })
        .flatten()
        .collect();
    let incidents = incidents(rows.incidents, scope, &in_scope, &named);
    // The incidents' vendors are described too.
    let named: HashSet<_> = named
        .into_iter()
        .chain(incidents.iter().flat_map(|i| i.vendors.iter().copied()))
        .collect();
    let mut contacts: HashMap<_, Vec<Contact>> = HashMap::new();
    for c in rows.contacts {
        contacts.entry(c.vendor_id).or_default().push(Contact {
            name: c.name,
            email: c.email,
            lang: c.lang,
            role: c.role,
            primary: c.is_primary,
        });
    }
    let vendors = rows
        .vendors
        .into_iter()
        .filter(|v| *scope == Scope::All || named.contains(&v.id))
        .map(|v| Vendor {
            contacts: contacts.remove(&v.id).unwrap_or_default(),
            id: v.id,
            name: v.name,
            role: v.role,
            website: v.website,
            dpa_url: v.dpa_url,
            privacy_url: v.privacy_url,
            subprocessors_url: v.subprocessors_url,
            status_url: v.status_url,
            trust_url: v.trust_url,
            notes: v.notes,
            created_at: v.created_at,
            updated_at: v.updated_at,
            archived_at: v.archived_at,
        })
        .collect();
    let mut covered: HashMap<RequestId, Vec<ServiceId>> = HashMap::new();
    for (r, s) in rows.request_services {
        if in_scope.contains(&s) {
            covered.entry(r).or_default().push(s);
        }
    }
    let message_ids: HashMap<_, _> = rows.request_message_ids.into_iter().collect();
    let mut items: HashMap<RequestId, Vec<Item>> = HashMap::new();
    for (r, i) in rows.items {
        items.entry(r).or_default().push(Item {
            position: i.position,
            code: i.code,
            question: i.question,
            why: i.why,
            earlier_answer: i.earlier_answer,
            earlier_note: i.earlier_note,
            answer: i.answer,
            review: i.review,
            review_note: i.review_note,
            reviewed_by: i.reviewed_by,
            reviewed_at: i.reviewed_at,
        });
    }
    let mut attachments: HashMap<RequestId, Vec<Attachment>> = HashMap::new();
    for (r, a) in rows.attachments {
        attachments.entry(r).or_default().push(Attachment {
            id: a.id,
            filename: a.filename,
            media_type: a.media_type,
            size: a.size,
            uploaded_at: a.uploaded_at,
            uploaded_by: a.uploaded_by,
        });
    }
    let requests: Vec<Request> = rows
        .requests
        .into_iter()
        .filter_map(|r| {
            let services = covered.remove(&r.id)?;
            Some(Request {
                services,
                vendor_name: r.vendor_name,
                recipient_name: r.recipient_name,
                recipient_email: r.recipient_email,
                lang: r.lang,
                deadline: r.deadline,
                set_version: r.set_version,
                previous: r.previous_id,
                sent_by: r.sent_by,
                sent_at: r.sent_at,
                message_id: message_ids.get(&r.id).cloned(),
                status: r.status,
                revoked_at: r.revoked_at,
                saved_at: r.saved_at,
                submitted_at: r.submitted_at,
                responder_name: r.responder_name,
                responder_role: r.responder_role,
                responder_email: r.responder_email,
                answered_via: r.answered_via,
                received_on: r.received_on,
                received_source: r.received_source,
                reminders: r.reminders,
                reminders_sent: r.reminders_sent,
                no_answer_at: r.no_answer_at,
                items: items.remove(&r.id).unwrap_or_default(),
                attachments: attachments.remove(&r.id).unwrap_or_default(),
                id: r.id,
            })
        })
        .collect();
    let request_ids: HashSet<String> = requests.iter().map(|r| r.id.to_string()).collect();
    let request_mails: HashSet<&str> = requests
        .iter()
        .filter_map(|r| r.message_id.as_deref())
        .collect();
    let recipients: HashSet<&str> = requests
        .iter()
        .map(|r| r.recipient_email.as_str())
        .collect();
    let mail_trail = rows
        .mails
        .into_iter()
        .filter(|m| {
            *scope == Scope::All
                || request_mails.contains(m.message_id.as_str())
                || (m.kind == "reminder" && recipients.contains(m.recipient.as_str()))
        })
        .map(|m| Mail {
            kind: m.kind,
            recipient: m.recipient,
            subject: m.subject,
            message_id: m.message_id,
            status: m.status,
            created_at: m.created_at,
            sent_at: m.sent_at,
        })
        .collect();
    let scope_ids: HashSet<String> = in_scope.iter().map(|s| s.to_string()).collect();
    let incident_ids: HashSet<String> = incidents.iter().map(|i| i.id.to_string()).collect();
    let audit = rows
        .audit
        .into_iter()
        .map(|a| AuditItem {
            at: a.at,
            actor: a.actor_label,
            action: a.action,
            detail: a.detail,
        })
        .filter(|a| {
            *scope == Scope::All || {
                let m = mentions(a);
                m.services.iter().any(|s| scope_ids.contains(s))
                    || m.requests.iter().any(|r| request_ids.contains(r))
                    || m.incidents.iter().any(|i| incident_ids.contains(i))
            }
        })
        .collect();
    // The advisories' summaries: the organisation's own records replace
    // shipped ones of the same id.
    let summaries: HashMap<String, Option<String>> = crate::advisories::builtin()
        .iter()
        .map(|a| (a.id.clone(), a.summary.clone()))
        .chain(
            rows.advisories
                .iter()
                .filter_map(|s| aivet_domain::advisory::parse_osv(&s.osv).ok())
                .map(|a| (a.id, a.summary)),
        )
        .collect();
    let advisory_hits = rows
        .advisory_hits
        .into_iter()
        .filter(|h| in_scope.contains(&h.service_id))
        .map(|h| AdvisoryHit {
            service: h.service_id,
            summary: summaries.get(&h.advisory_id).cloned().flatten(),
            affected: h.exposure == "affected",
            fixed: h.fixed,
            advisory: h.advisory_id,
        })
        .collect();
    ReportData {
        organisation: Organisation {
            id: rows.org.id,
            name: rows.org.name,
            slug: rows.org.slug,
            time_zone: rows.org.time_zone,
            created_at: rows.org.created_at,
            members: rows
                .members
                .into_iter()
                .map(|m| Member {
                    name: m.name,
                    email: m.email,
                    role: m.role,
                    lang: m.lang,
                    joined_at: m.created_at,
                })
                .collect(),
            follow_up_policy: rows.policy,
            question_set: rows.question_set,
            policy_reviewed_at: rows.policy_reviewed.as_ref().map(|(at, _)| *at),
            policy_reviewed_by: rows.policy_reviewed.map(|(_, by)| by),
        },
        scope: scope.clone(),
        inventory: Inventory {
            data_classes: rows
                .data_classes
                .into_iter()
                .map(|d| DataClass {
                    id: d.id,
                    name: d.name,
                    personal: d.personal,
                    needs_clearance: d.needs_clearance,
                    archived_at: d.archived_at,
                })
                .collect(),
            vendors,
            services,
        },
        questions: Questions {
            requests,
            timeline: rows
                .events
                .into_iter()
                .filter(|e| in_scope.contains(&e.service_id))
                .map(|e| TimelineEntry {
                    at: e.at,
                    service: e.service_id,
                    request: e.request_id,
                    actor: e.actor,
                    kind: e.kind,
                    detail: e.detail,
                })
                .collect(),
        },
        follow_ups: rows
            .follow_ups
            .into_iter()
            .filter(|f| in_scope.contains(&f.service_id))
            .map(|f| FollowUp {
                id: f.id,
                service: f.service_id,
                request: f.request_id,
                reason: f.reason,
                status: f.status,
                due_on: f.due_on,
                note: f.note,
                moved: f.sequence,
                created_at: f.created_at,
                closed_at: f.closed_at,
                closed_by: f.closed_by,
            })
            .collect(),
        mail_trail,
        audit,
        incidents,
        advisories: rows
            .advisories
            .into_iter()
            .map(|a| ImportedAdvisory {
                id: a.id,
                osv: a.osv,
                imported_by: a.imported_by,
                imported_at: a.imported_at,
            })
            .collect(),
        advisory_hits,
    }
}

/// A file name's date and organisation part: `aivet-report-<slug>-<date>`.
fn file_stem(kind: &str, data: &ReportData, now: DateTime<Utc>) -> String {
    let date = data.organisation.time_zone.today(now);
    format!("aivet-{kind}-{}-{date}", data.organisation.slug)
}

impl Services {
    /// The report's model: the organisation's records in one snapshot,
    /// restricted to `scope`. A chosen service the organisation does not
    /// have is as unknown as any other id.
    pub async fn report(&self, auth: &Auth, scope: &Scope, lang: Lang) -> Result<Report> {
        let t = auth.tenant()?;
        if let Scope::Selection(ids) = scope {
            if ids.is_empty() {
                return Err(ServiceError::Invalid(vec![(
                    "services",
                    Msg::ErrReportChooseServices,
                )]));
            }
        }
        let rows = self.store.report_rows(t).await?;
        if let Scope::Selection(ids) = scope {
            let known: HashSet<ServiceId> = rows.services.iter().map(|d| d.service.id).collect();
            if ids.iter().any(|id| !known.contains(id)) {
                return Err(ServiceError::NotFound);
            }
        }
        Ok(Report {
            generated_at: self.clock.now(),
            prepared_by: Person {
                name: auth.user.name.clone(),
                email: auth.user.email.clone(),
            },
            lang,
            data: model(rows, scope),
        })
    }

    async fn record_export(
        &self,
        t: &Tenant,
        format: ReportFormat,
        report: &Report,
        sha256: &str,
    ) -> Result<()> {
        let services = match &report.data.scope {
            Scope::All => None,
            Scope::Selection(ids) => Some(ids.clone()),
        };
        self.store
            .audit(
                t,
                Audit::ReportExported {
                    format,
                    lang: report.lang,
                    services,
                    sha256: sha256.to_owned(),
                },
                self.clock.now(),
            )
            .await?;
        Ok(())
    }

    /// The report as PDF, laid out on the blocking pool (at most a few at
    /// once), then recorded in the audit log.
    pub async fn report_pdf(
        &self,
        auth: &Auth,
        scope: &Scope,
        lang: Lang,
        engine: Arc<dyn PdfEngine>,
    ) -> Result<Download> {
        let report = self.report(auth, scope, lang).await?;
        let view = aivet_domain::report_view::view(&report, lang);
        let sha256 = view.hash.clone();
        let json = serde_json::to_vec(&view)
            .map_err(|e| crate::error::InternalError::Export(e.to_string()))?;
        let slot = Arc::clone(pdf_slots())
            .acquire_owned()
            .await
            .map_err(|e| crate::error::InternalError::Export(e.to_string()))?;
        let created = report.generated_at;
        let pdf = tokio::task::spawn_blocking(move || {
            let pdf = engine.render(json, created);
            drop(slot);
            pdf
        })
        .await
        .map_err(crate::error::InternalError::Join)?
        .map_err(crate::error::InternalError::Export)?;
        self.record_export(auth.tenant()?, ReportFormat::Pdf, &report, &sha256)
            .await?;
        Ok(Download {
            filename: format!(
                "{}.pdf",
                file_stem("report", &report.data, report.generated_at)
            ),
            media_type: "application/pdf",
            body: pdf,
            sha256,
        })
    }

    /// The services in scope as CSV (spreadsheet-safe), in `lang`.
    pub async fn report_services_csv(
        &self,
        auth: &Auth,
        scope: &Scope,
        lang: Lang,
    ) -> Result<Download> {
        self.report_csv(auth, scope, lang, ReportFormat::ServicesCsv)
            .await
    }

    /// Every question asked about the services in scope, with its answer
    /// and review, as CSV (spreadsheet-safe), in `lang`.
    pub async fn report_answers_csv(
        &self,
        auth: &Auth,
        scope: &Scope,
        lang: Lang,
    ) -> Result<Download> {
        self.report_csv(auth, scope, lang, ReportFormat::AnswersCsv)
            .await
    }

    async fn report_csv(
        &self,
        auth: &Auth,
        scope: &Scope,
        lang: Lang,
        format: ReportFormat,
    ) -> Result<Download> {
        let report = self.report(auth, scope, lang).await?;
        let (stem, body) = if format == ReportFormat::AnswersCsv {
            ("answers", answers_csv(&report.data, lang))
        } else {
            ("services", services_csv(&report.data, lang))
        };
        let sha256 = report.data.sha256();
        self.record_export(auth.tenant()?, format, &report, &sha256)
            .await?;
        Ok(Download {
            filename: format!("{}.csv", file_stem(stem, &report.data, report.generated_at)),
            media_type: "text/csv; charset=utf-8",
            body: body.into_bytes(),
            sha256,
        })
    }

    /// The whole organisation as JSON (`docs/EXPORT.md`), with the
    /// attached documents' contents.
    pub async fn report_json(&self, auth: &Auth) -> Result<Download> {
        let t = auth.tenant()?;
        let report = self.report(auth, &Scope::All, auth.user.lang).await?;
        let mut files = Vec::new();
        for r in &report.data.questions.requests {
            for a in &r.attachments {
                let (_, data) = self.store.attachment(t, a.id).await?;
                files.push(ExportFile {
                    attachment: a.id,
                    sha256: sha256_hex(&data),
                    base64: base64::engine::general_purpose::STANDARD.encode(&data),
                });
            }
        }
        let sha256 = report.data.sha256();
        let export = Export {
            schema: EXPORT_SCHEMA.to_owned(),
            version: SCHEMA_VERSION,
            exported_at: report.generated_at,
            exported_by: report.prepared_by.clone(),
            data_sha256: sha256.clone(),
            data: report.data.clone(),
            files,
        };
        let body = serde_json::to_vec_pretty(&export)
            .map_err(|e| crate::error::InternalError::Export(e.to_string()))?;
        self.record_export(t, ReportFormat::Json, &report, &sha256)
            .await?;
        Ok(Download {
            filename: format!(
                "{}.json",
                file_stem("export", &report.data, report.generated_at)
            ),
            media_type: "application/json",
            body,
            sha256,
        })
    }

    /// The organisation's earlier exports, newest first.
    pub async fn report_exports(&self, auth: &Auth) -> Result<Vec<ExportRecord>> {
        let entries = self.store.report_exports(auth.tenant()?, 50).await?;
        Ok(entries
            .into_iter()
            .filter_map(|e| match e.event()? {
                Audit::ReportExported {
                    format,
                    lang,
                    services,
                    sha256,
                } => Some(ExportRecord {
                    at: e.at,
                    by: e.actor_label,
                    format,
                    lang,
                    services: services.map(|s| s.len()),
                    sha256,
                }),
                _ => None,
            })
            .collect())
    }
}

/// A date for spreadsheets: `YYYY-MM-DD` in the organisation's zone.
fn iso_day(data: &ReportData, at: Option<DateTime<Utc>>) -> String {
    at.map(|a| data.organisation.time_zone.today(a).to_string())
        .unwrap_or_default()
}

fn csv_of(rows: Vec<Vec<String>>) -> String {
    let mut out = String::from("\u{feff}");
    for row in rows {
        csv_line(&mut out, row.iter().map(|c| defuse(c)));
    }
    out
}

/// One row per service in scope: its facts, findings and assessment.
pub fn services_csv(data: &ReportData, lang: Lang) -> String {
    use aivet_domain::inventory::FindingTopic;
    let t = |m: Msg| m.text(lang).to_owned();
    let vendor = |id: Option<aivet_domain::VendorId>| {
        id.and_then(|id| data.vendor(id))
            .map(|v| v.name.clone())
            .unwrap_or_default()
    };
    let opt = |s: &Option<String>| s.clone().unwrap_or_default();
    let mut head = vec![
        t(Msg::FieldName),
        t(Msg::FieldPurpose),
        t(Msg::FieldStatus),
        t(Msg::FieldVendor),
        t(Msg::FieldIntegrator),
        t(Msg::FieldModelProvider),
        t(Msg::FieldInferenceHost),
        t(Msg::FieldModel),
        t(Msg::FieldEngine),
        t(Msg::FieldDeployment),
        t(Msg::FieldOwner),
        t(Msg::FieldDataClasses),
        t(Msg::FieldDpaSignedOn),
        t(Msg::FieldNoticeHours),
        t(Msg::ReportAuthorityNotifier),
    ];
    head.extend(FindingTopic::ALL.iter().map(|topic| t(topic.label())));
    head.extend([
        t(Msg::AssessmentLabel),
        t(Msg::DecisionNote),
        t(Msg::FieldArchived),
    ]);
    let mut rows = vec![head];
    for s in &data.inventory.services {
        let classes: Vec<String> = s
            .data_classes
            .iter()
            .filter_map(|id| data.inventory.data_classes.iter().find(|d| d.id == *id))
            .map(|d| d.name.clone())
            .collect();
        let mut row = vec![
            s.name.clone(),
            opt(&s.purpose),
            t(s.status.label()),
            vendor(Some(s.vendor)),
            vendor(s.integrator),
            vendor(s.model_provider),
            vendor(s.inference_host),
            opt(&s.model),
            opt(&s.engine),
            t(s.deployment.label()),
            opt(&s.owner),
            classes.join(" | "),
            s.dpa_signed_on.map(|d| d.to_string()).unwrap_or_default(),
            s.notice_hours.map(|h| h.to_string()).unwrap_or_default(),
            t(s.authority_notifier.label()),
        ];
        row.extend(FindingTopic::ALL.iter().map(|topic| {
            s.findings
                .iter()
                .find(|f| f.topic == *topic)
                .map(|f| t(f.status.label()))
                .unwrap_or_else(|| t(Msg::FindingUnknown))
        }));
        row.extend([
            t(s.assessment.label()),
            opt(&s.assessment_note),
            iso_day(data, s.archived_at),
        ]);
        rows.push(row);
    }
    csv_of(rows)
}

/// One row per question asked about a service in scope.
pub fn answers_csv(data: &ReportData, lang: Lang) -> String {
    let t = |m: Msg| m.text(lang).to_owned();
    let opt = |s: &Option<String>| s.clone().unwrap_or_default();
    let mut rows = vec![vec![
        t(Msg::NavServices),
        t(Msg::FieldVendor),
        t(Msg::RequestTo),
        t(Msg::RequestSentAt),
        t(Msg::RequestDeadline),
        t(Msg::RequestStatusLabel),
        "#".to_owned(),
        t(Msg::ReportQuestion),
        t(Msg::AnswerLabel),
        t(Msg::ReportAnsweredAt),
        t(Msg::RequestResponder),
        t(Msg::ReviewLabel),
        t(Msg::ReviewNote),
        t(Msg::ReportReviewer),
    ]];
    for r in &data.questions.requests {
        let services: Vec<String> = r
            .services
            .iter()
            .filter_map(|id| data.service(*id).map(|s| s.name.clone()))
            .collect();
        let state = if r.no_answer() {
            t(Msg::EventNoAnswer)
        } else {
            t(r.status.label())
        };
        for i in &r.items {
            rows.push(vec![
                services.join(" | "),
                r.vendor_name.clone(),
                r.recipient_email.clone(),
                iso_day(data, Some(r.sent_at)),
                r.deadline.to_string(),
                state.clone(),
                (i.position + 1).to_string(),
                i.question.clone(),
                opt(&i.answer),
                iso_day(data, r.submitted_at),
                opt(&r.responder_name),
                i.review.map(|v| t(v.label())).unwrap_or_default(),
                opt(&i.review_note),
                opt(&i.reviewed_by),
            ]);
        }
    }
    csv_of(rows)
}

impl Services {
    /// The services a report can be made of (archived ones too), by name.
    pub async fn report_choices(&self, auth: &Auth) -> Result<Vec<(ServiceId, String, bool)>> {
        let details = self.store.service_details(auth.tenant()?).await?;
        Ok(details
            .into_iter()
            .map(|d| {
                (
                    d.service.id,
                    d.service.name,
                    d.service.archived_at.is_some(),
                )
            })
            .collect())
    }

    /// The organisation `slug` as its first owner sees it, for the
    /// commands that work on the configured database (`aivet report`).
    pub async fn owner_auth(&self, slug: &str) -> Result<Auth> {
        let (user, tenant) = self.store.owner_of_slug(slug).await?;
        Ok(Auth {
            user,
            session_hash: Vec::new(),
            tenant: Some(tenant),
        })
    }
}
