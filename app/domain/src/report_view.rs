//! The compliance report prepared for one reader: every label and value
//! as text in their language, every date written by [`Fmt`] in the
//! organisation's time zone. The PDF layout only arranges these texts; it
//! decides nothing and translates nothing.
//!
//! The view is pure (the report and a language in, texts out), so it is
//! tested here, without any renderer.

use crate::clearance::{verdict, Case, Decision, Verdict};
use crate::follow_ups::{FollowUpStatus, Section};
use crate::i18n::Msg;
use crate::incident::{disclosure_lag, exposure, Clock, Entry, IncidentState};
use crate::inventory::{FindingStatus, FindingTopic, ServiceStatus};
use crate::questions::Assessment;
use crate::report::{
    AdvisoryHit, ClearanceRecord, DataClass, Incident, Report, ReportData, Request, Scope, Service,
};
use crate::timeline::Event;
use crate::{msg, Audit, Fmt, Lang};
use chrono::{DateTime, NaiveDate, Utc};
use serde::Serialize;

/// A label and its value.
pub type Row = [String; 2];

/// A table: its column heads, its rows, and what it says when empty.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Table {
    pub head: Vec<String>,
    pub rows: Vec<Vec<String>>,
    pub empty: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct View {
    pub title: String,
    /// The language tag (`en`, `de`, `nb`), for the PDF's metadata.
    pub lang: &'static str,
    pub labels: Labels,
    pub cover: Vec<Row>,
    pub hash: String,
    pub hash_note: String,
    /// "Generated on …", for every page's footer.
    pub generated: String,
    pub summary: Summary,
    pub services: Vec<ServiceView>,
    /// The incident register, after the services.
    pub incidents: Vec<IncidentView>,
    pub vendors: Table,
    pub mails: Table,
    pub answers: Table,
    pub audit: Table,
}

/// The headings of the document.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Labels {
    pub contents: String,
    pub summary: String,
    pub services: String,
    pub vendors: String,
    pub appendix: String,
    pub mails: String,
    pub answers: String,
    pub audit: String,
    pub by_status: String,
    pub by_assessment: String,
    pub attention: String,
    pub no_answer: String,
    pub open_requests: String,
    pub overdue: String,
    pub facts: String,
    pub supply_chain: String,
    pub findings: String,
    pub clearance: String,
    pub questions: String,
    pub decision: String,
    pub follow_ups: String,
    pub timeline: String,
    pub incidents: String,
    pub incidents_lead: String,
    pub open_incidents: String,
    pub linked_incidents: String,
    pub advisories: String,
    pub art33: String,
    pub art34: String,
    pub incident_timeline: String,
    pub attachments: String,
    pub why: String,
    pub answer: String,
    pub earlier_answer: String,
    pub review: String,
    pub page: String,
    pub none: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Summary {
    pub figures: Vec<Row>,
    pub by_status: Table,
    pub by_assessment: Table,
    pub open_requests: Table,
    pub overdue: Table,
    pub no_answer: Table,
    /// Each open incident with its 72-hour clock.
    pub open_incidents: Table,
    /// The engine advisories that hit a service.
    pub advisory_hits: Table,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ServiceView {
    pub name: String,
    pub facts: Vec<Row>,
    pub supply_chain: Table,
    pub findings: Table,
    pub decision: Vec<Row>,
    /// Which data may go in: one row per data class.
    pub clearance: Table,
    pub requests: Vec<RequestView>,
    pub follow_ups: Table,
    pub timeline: Table,
    /// The incidents linked to it.
    pub incidents: Table,
    /// The engine advisories that hit it.
    pub advisories: Table,
}

/// One incident of the register.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct IncidentView {
    pub title: String,
    pub facts: Vec<Row>,
    /// The clock and the decision.
    pub art33: Vec<Row>,
    pub art34: Vec<Row>,
    pub timeline: Table,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RequestView {
    pub title: String,
    pub facts: Vec<Row>,
    pub items: Vec<ItemView>,
    pub attachments: Table,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ItemView {
    pub number: String,
    pub question: String,
    pub why: String,
    pub earlier_answer: String,
    pub answer: String,
    pub review: String,
}

const DASH: &str = "—";

struct Ctx<'a> {
    lang: Lang,
    fmt: Fmt,
    data: &'a ReportData,
    today: NaiveDate,
    /// When the report was made: the incidents' clocks stand as of then.
    now: DateTime<Utc>,
}

impl Ctx<'_> {
    fn t(&self, m: Msg) -> String {
        m.text(self.lang).to_owned()
    }
    fn opt(&self, s: &Option<String>) -> String {
        s.as_deref()
            .filter(|s| !s.is_empty())
            .unwrap_or(DASH)
            .to_owned()
    }
    fn date(&self, d: Option<NaiveDate>) -> String {
        d.map_or_else(|| DASH.to_owned(), |d| self.fmt.date_short(d))
    }
    fn at(&self, at: Option<DateTime<Utc>>) -> String {
        at.map_or_else(|| DASH.to_owned(), |a| self.fmt.date_time_short(a))
    }
    fn row(&self, m: Msg, value: String) -> Row {
        [self.t(m), value]
    }
    fn table(&self, head: &[Msg], rows: Vec<Vec<String>>, empty: Msg) -> Table {
        Table {
            head: head.iter().map(|m| self.t(*m)).collect(),
            rows,
            empty: self.t(empty),
        }
    }
    fn service_name(&self, id: crate::ServiceId) -> String {
        self.data
            .service(id)
            .map_or_else(|| DASH.to_owned(), |s| s.name.clone())
    }
    fn who(&self, actor: &str) -> String {
        if actor.is_empty() { DASH } else { actor }.to_owned()
    }
    /// Names, comma-separated, or a dash for none.
    fn names(&self, names: Vec<String>) -> String {
        if names.is_empty() {
            DASH.to_owned()
        } else {
            names.join(", ")
        }
    }
    fn clock(&self, i: &Incident) -> Clock {
        i.clock(self.now)
    }
}

/// The report prepared for a reader of `lang`.
pub fn view(report: &Report, lang: Lang) -> View {
    let data = &report.data;
    let zone = data.organisation.time_zone;
    let c = Ctx {
        lang,
        fmt: Fmt::new(lang, zone),
        data,
        today: zone.today(report.generated_at),
        now: report.generated_at,
    };
    let scope = match &data.scope {
        Scope::All => c.t(Msg::ReportScopeAll),
        Scope::Selection(ids) => msg!(lang, Msg::ReportScopeSelection, n = ids.len()),
    };
    let generated = c.fmt.date_time_zone(report.generated_at);
    View {
        title: c.t(Msg::ReportTitle),
        lang: lang.code(),
        labels: labels(&c),
        cover: vec![
            c.row(Msg::Organisation, data.organisation.name.clone()),
            c.row(Msg::ReportGeneratedAt, generated.clone()),
            c.row(Msg::ReportTimeZone, zone.name().to_owned()),
            c.row(Msg::ReportScope, scope),
            c.row(
                Msg::ReportPreparedBy,
                format!("{} <{}>", report.prepared_by.name, report.prepared_by.email),
            ),
            c.row(Msg::Language, lang.native_name().to_owned()),
        ],
        hash: data.sha256(),
        hash_note: c.t(Msg::ReportHashNote),
        generated: msg!(lang, Msg::ReportGeneratedOn, at = &generated),
        summary: summary(&c),
        services: data
            .inventory
            .services
            .iter()
            .map(|s| service(&c, s))
            .collect(),
        incidents: data.incidents.iter().map(|i| incident(&c, i)).collect(),
        vendors: vendors(&c),
        mails: mails(&c),
        answers: answers(&c),
        audit: audit(&c),
    }
}

fn labels(c: &Ctx) -> Labels {
    Labels {
        contents: c.t(Msg::ReportContents),
        summary: c.t(Msg::ReportSummary),
        services: c.t(Msg::NavServices),
        vendors: c.t(Msg::ReportVendors),
        appendix: c.t(Msg::ReportAppendix),
        mails: c.t(Msg::ReportMailTrail),
        answers: c.t(Msg::ReportAnswersReceived),
        audit: c.t(Msg::ReportAuditLog),
        by_status: c.t(Msg::ReportByStatus),
        by_assessment: c.t(Msg::ReportByAssessment),
        attention: c.t(Msg::ReportAttention),
        no_answer: c.t(Msg::ReportNoAnswer),
        open_requests: c.t(Msg::ReportOpenRequests),
        overdue: c.t(Msg::DashOverdue),
        facts: c.t(Msg::ReportFacts),
        supply_chain: c.t(Msg::ReportSupplyChain),
        findings: c.t(Msg::FindingsTitle),
        clearance: c.t(Msg::ClearanceTitle),
        questions: c.t(Msg::ReportQuestionsAsked),
        decision: c.t(Msg::DecisionLabel),
        follow_ups: c.t(Msg::NavFollowUps),
        timeline: c.t(Msg::TimelineTitle),
        incidents: c.t(Msg::NavIncidents),
        incidents_lead: c.t(Msg::IncidentRegisterLead),
        open_incidents: c.t(Msg::ReportOpenIncidents),
        linked_incidents: c.t(Msg::ReportLinkedIncidents),
        advisories: c.t(Msg::AdvisoriesTitle),
        art33: c.t(Msg::Art33Heading),
        art34: c.t(Msg::Art34Heading),
        incident_timeline: c.t(Msg::IncidentTimeline),
        attachments: c.t(Msg::AttachmentsTitle),
        why: c.t(Msg::ReportWhyAsked),
        answer: c.t(Msg::AnswerLabel),
        earlier_answer: c.t(Msg::ReportEarlierAnswer),
        review: c.t(Msg::ReviewLabel),
        page: c.t(Msg::ReportPage),
        none: c.t(Msg::ReportNone),
    }
}

fn count_row(label: String, n: usize) -> Vec<String> {
    vec![label, n.to_string()]
}

fn summary(c: &Ctx) -> Summary {
    let services = &c.data.inventory.services;
    let live = || services.iter().filter(|s| s.archived_at.is_none());
    let by_status = ServiceStatus::ALL
        .iter()
        .map(|st| count_row(c.t(st.label()), live().filter(|s| s.status == *st).count()))
        .collect();
    let by_assessment = Assessment::ALL
        .iter()
        .map(|a| {
            count_row(
                c.t(a.label()),
                live().filter(|s| s.assessment == *a).count(),
            )
        })
        .collect();
    let personal: Vec<_> = c
        .data
        .inventory
        .data_classes
        .iter()
        .filter(|d| d.personal)
        .map(|d| d.id)
        .collect();
    let requests = &c.data.questions.requests;
    let request_row = |r: &Request, when: String| {
        vec![
            r.services
                .iter()
                .map(|s| c.service_name(*s))
                .collect::<Vec<_>>()
                .join(", "),
            format!("{} <{}>", r.recipient_name, r.recipient_email),
            when,
        ]
    };
    let open: Vec<Vec<String>> = requests
        .iter()
        .filter(|r| r.waiting())
        .map(|r| request_row(r, c.date(Some(r.deadline))))
        .collect();
    let no_answer: Vec<Vec<String>> = requests
        .iter()
        .filter(|r| r.no_answer())
        .map(|r| request_row(r, c.at(r.no_answer_at)))
        .collect();
    let overdue: Vec<Vec<String>> = c
        .data
        .follow_ups
        .iter()
        .filter(|f| {
            f.status == FollowUpStatus::Open && Section::of(f.due_on, c.today) == Section::Overdue
        })
        .map(|f| {
            vec![
                c.service_name(f.service),
                c.t(f.reason.label()),
                c.date(Some(f.due_on)),
            ]
        })
        .collect();
    let open_incidents: Vec<(&Incident, Clock)> = c
        .data
        .incidents
        .iter()
        .filter(|i| i.state == IncidentState::Open)
        .map(|i| (i, c.clock(i)))
        .collect();
    let pending = open_incidents.iter().filter(|(_, k)| k.pending()).count();
    let missed = open_incidents
        .iter()
        .filter(|(_, k)| matches!(k, Clock::Missed { .. }))
        .count();
    Summary {
        figures: vec![
            c.row(Msg::NavServices, live().count().to_string()),
            c.row(
                Msg::DashPersonal,
                live()
                    .filter(|s| s.data_classes.iter().any(|d| personal.contains(d)))
                    .count()
                    .to_string(),
            ),
            c.row(
                Msg::DashOpenFindings,
                live()
                    .filter(|s| {
                        FindingTopic::ALL.iter().any(|t| {
                            !s.findings
                                .iter()
                                .any(|f| f.topic == *t && f.status != FindingStatus::Unknown)
                        })
                    })
                    .count()
                    .to_string(),
            ),
            c.row(Msg::ReportOpenRequests, open.len().to_string()),
            c.row(Msg::DashOverdue, overdue.len().to_string()),
            c.row(Msg::ReportNoAnswer, no_answer.len().to_string()),
            c.row(
                Msg::DashConflicts,
                live()
                    .filter(|s| s.status != ServiceStatus::Retired)
                    .filter(|s| {
                        standings(c.data, s, c.today)
                            .iter()
                            .any(|(class, _, v)| v.conflict(s.data_classes.contains(&class.id)))
                    })
                    .count()
                    .to_string(),
            ),
            c.row(
                Msg::DashAdvisories,
                live()
                    .filter(|s| c.data.advisory_hits.iter().any(|h| h.service == s.id))
                    .count()
                    .to_string(),
            ),
            c.row(Msg::ReportOpenIncidents, open_incidents.len().to_string()),
            c.row(Msg::ReportClocksPending, pending.to_string()),
            c.row(Msg::ReportClocksMissed, missed.to_string()),
        ],
        by_status: c.table(
            &[Msg::FieldStatus, Msg::NavServices],
            by_status,
            Msg::ReportNone,
        ),
        by_assessment: c.table(
            &[Msg::AssessmentLabel, Msg::NavServices],
            by_assessment,
            Msg::ReportNone,
        ),
        open_requests: c.table(
            &[Msg::NavServices, Msg::RequestTo, Msg::RequestDeadline],
            open,
            Msg::ReportNone,
        ),
        overdue: c.table(
            &[
                Msg::NavServices,
                Msg::FollowUpReasonLabel,
                Msg::RequestDeadline,
            ],
            overdue,
            Msg::ReportNone,
        ),
        no_answer: c.table(
            &[Msg::NavServices, Msg::RequestTo, Msg::ReportGivenUpOn],
            no_answer,
            Msg::ReportNone,
        ),
        open_incidents: c.table(
            &[Msg::FieldIncidentTitle, Msg::FieldWeAware, Msg::ColClock],
            open_incidents
                .iter()
                .map(|(i, k)| {
                    vec![
                        i.title.clone(),
                        c.at(Some(i.we_aware_at)),
                        k.describe(&c.fmt, c.lang),
                    ]
                })
                .collect(),
            Msg::ReportNone,
        ),
        advisory_hits: c.table(
            &[
                Msg::NavServices,
                Msg::ColAdvisory,
                Msg::FieldEngine,
                Msg::ColExposure,
            ],
            c.data
                .inventory
                .services
                .iter()
                .flat_map(|s| {
                    c.data
                        .advisory_hits
                        .iter()
                        .filter(move |h| h.service == s.id)
                        .map(move |h| {
                            vec![
                                s.name.clone(),
                                advisory_name(h),
                                engine_of(c, s),
                                hit_exposure(c, h),
                            ]
                        })
                })
                .collect(),
            Msg::ReportNone,
        ),
    }
}

fn advisory_name(h: &AdvisoryHit) -> String {
    match &h.summary {
        Some(summary) => format!("{}: {summary}", h.advisory),
        None => h.advisory.clone(),
    }
}

/// The structured engine and its version ("SGLang 0.5.20").
fn engine_of(c: &Ctx, s: &Service) -> String {
    match (s.engine_kind, &s.engine_version) {
        (Some(kind), Some(version)) => format!("{} {version}", c.t(kind.label())),
        (Some(kind), None) => c.t(kind.label()),
        (None, _) => DASH.to_owned(),
    }
}

/// "Affected · Fixed in 0.5.22", or that the version is not known.
fn hit_exposure(c: &Ctx, h: &AdvisoryHit) -> String {
    if !h.affected {
        return c.t(Msg::ExposureUnknown);
    }
    match &h.fixed {
        Some(version) => format!(
            "{} · {}",
            c.t(Msg::ExposureAffected),
            msg!(c.lang, Msg::ExposureFixedIn, version = version)
        ),
        None => c.t(Msg::ExposureAffected),
    }
}

fn service(c: &Ctx, s: &Service) -> ServiceView {
    let classes: Vec<String> = s
        .data_classes
        .iter()
        .filter_map(|id| c.data.inventory.data_classes.iter().find(|d| d.id == *id))
        .map(|d| {
            if d.personal {
                format!("{} ({})", d.name, c.t(Msg::ReportPersonal))
            } else {
                d.name.clone()
            }
        })
        .collect();
    let mut facts = vec![
        c.row(Msg::FieldPurpose, c.opt(&s.purpose)),
        c.row(Msg::FieldStatus, c.t(s.status.label())),
        c.row(Msg::FieldOwner, c.opt(&s.owner)),
        c.row(Msg::FieldModel, c.opt(&s.model)),
        c.row(Msg::FieldEngine, c.opt(&s.engine)),
        c.row(Msg::FieldDeployment, c.t(s.deployment.label())),
        c.row(
            Msg::FieldDataClasses,
            if classes.is_empty() {
                DASH.to_owned()
            } else {
                classes.join(", ")
            },
        ),
        c.row(Msg::FieldDpaSignedOn, c.date(s.dpa_signed_on)),
        c.row(Msg::FieldDpaUrl, c.opt(&s.dpa_url)),
        c.row(
            Msg::FieldNoticeHours,
            s.notice_hours
                .map_or_else(|| DASH.to_owned(), |h| h.to_string()),
        ),
        c.row(Msg::FieldNoticeChannel, c.opt(&s.notice_channel)),
        c.row(
            Msg::ReportAuthorityNotifier,
            c.t(s.authority_notifier.label()),
        ),
    ];
    if let Some(at) = s.archived_at {
        facts.push(c.row(Msg::FieldArchived, c.at(Some(at))));
    }
    let chain: Vec<Vec<String>> = [
        (Msg::FieldVendor, Some(s.vendor)),
        (Msg::FieldIntegrator, s.integrator),
        (Msg::FieldModelProvider, s.model_provider),
        (Msg::FieldInferenceHost, s.inference_host),
    ]
    .into_iter()
    .filter_map(|(part, id)| {
        let v = c.data.vendor(id?)?;
        Some(vec![c.t(part), v.name.clone(), c.t(v.role.label())])
    })
    .collect();
    let findings = FindingTopic::ALL
        .iter()
        .map(
            |topic| match s.findings.iter().find(|f| f.topic == *topic) {
                Some(f) => vec![
                    c.t(topic.label()),
                    c.t(f.status.label()),
                    c.opt(&f.summary),
                    c.opt(&f.source_url),
                    c.date(f.checked_on),
                ],
                None => vec![
                    c.t(topic.label()),
                    c.t(FindingStatus::Unknown.label()),
                    DASH.to_owned(),
                    DASH.to_owned(),
                    DASH.to_owned(),
                ],
            },
        )
        .collect();
    let requests = c
        .data
        .questions
        .requests
        .iter()
        .filter(|r| r.services.contains(&s.id))
        .map(|r| request(c, r))
        .collect();
    let follow_ups = c
        .data
        .follow_ups
        .iter()
        .filter(|f| f.service == s.id)
        .map(|f| {
            let state = if f.status == FollowUpStatus::Open
                && Section::of(f.due_on, c.today) == Section::Overdue
            {
                format!("{} ({})", c.t(f.status.label()), c.t(Msg::FollowUpsOverdue))
            } else {
                c.t(f.status.label())
            };
            vec![
                c.t(f.reason.label()),
                c.date(Some(f.due_on)),
                state,
                f.moved.to_string(),
                c.opt(&f.note),
                c.at(f.closed_at),
            ]
        })
        .collect();
    let timeline = c
        .data
        .questions
        .timeline
        .iter()
        .filter(|e| e.service == s.id)
        .map(|e| {
            let event = Event::from_stored(&e.kind, &e.detail);
            let detail = event.detail(c.lang);
            vec![
                c.at(Some(e.at)),
                c.who(&e.actor),
                if detail.is_empty() {
                    event.title(c.lang)
                } else {
                    format!("{}: {detail}", event.title(c.lang))
                },
            ]
        })
        .collect();
    ServiceView {
        name: s.name.clone(),
        facts,
        supply_chain: c.table(
            &[Msg::ReportPart, Msg::FieldName, Msg::FieldVendorRole],
            chain,
            Msg::ReportNone,
        ),
        findings: c.table(
            &[
                Msg::ReportTopic,
                Msg::ReportHowSure,
                Msg::FieldSummary,
                Msg::FieldSourceUrl,
                Msg::FieldCheckedOn,
            ],
            findings,
            Msg::ReportNone,
        ),
        decision: vec![
            c.row(Msg::AssessmentLabel, c.t(s.assessment.label())),
            c.row(Msg::DecisionNote, c.opt(&s.assessment_note)),
        ],
        clearance: c.table(
            &[
                Msg::ClearanceClass,
                Msg::ClearanceStanding,
                Msg::ClearanceCondition,
                Msg::ClearanceLastDay,
                Msg::ClearanceDecidedLabel,
            ],
            standings(c.data, s, c.today)
                .into_iter()
                .map(|(class, k, v)| {
                    let mut name = class.name.clone();
                    if s.data_classes.contains(&class.id) {
                        name = format!("{name} ({})", c.t(Msg::ClearanceReceives));
                    }
                    vec![
                        name,
                        format!("{}: {}", c.t(v.standing.label()), c.t(v.ground.msg())),
                        k.and_then(|k| k.condition.clone())
                            .unwrap_or_else(|| DASH.to_owned()),
                        c.date(k.and_then(|k| k.expires_on)),
                        k.map(|k| format!("{}, {}", k.decided_by, c.at(Some(k.decided_at))))
                            .unwrap_or_else(|| DASH.to_owned()),
                    ]
                })
                .collect(),
            Msg::ReportNone,
        ),
        requests,
        follow_ups: c.table(
            &[
                Msg::FollowUpReasonLabel,
                Msg::RequestDeadline,
                Msg::RequestStatusLabel,
                Msg::ReportMoved,
                Msg::FieldNotes,
                Msg::ReportClosedAt,
            ],
            follow_ups,
            Msg::ReportNone,
        ),
        timeline: c.table(
            &[Msg::ReportWhen, Msg::ReportWho, Msg::ReportWhat],
            timeline,
            Msg::ReportNone,
        ),
        incidents: c.table(
            &[Msg::FieldIncidentTitle, Msg::FieldStatus, Msg::FieldWeAware],
            c.data
                .incidents
                .iter()
                .filter(|i| i.services.contains(&s.id))
                .map(|i| {
                    vec![
                        i.title.clone(),
                        c.t(i.state.label()),
                        c.at(Some(i.we_aware_at)),
                    ]
                })
                .collect(),
            Msg::ReportNone,
        ),
        advisories: c.table(
            &[Msg::ColAdvisory, Msg::ColExposure],
            c.data
                .advisory_hits
                .iter()
                .filter(|h| h.service == s.id)
                .map(|h| vec![advisory_name(h), hit_exposure(c, h)])
                .collect(),
            Msg::ReportNone,
        ),
    }
}

/// One incident: what is known, the lags, the clock as of the report, the
/// two decisions and the timeline.
fn incident(c: &Ctx, i: &Incident) -> IncidentView {
    let duration =
        |d: Option<chrono::Duration>| d.map_or_else(|| DASH.to_owned(), |d| c.fmt.duration(d));
    let yes_no = |b: bool| c.t(if b { Msg::Yes } else { Msg::No });
    let mut state = c.t(i.state.label());
    if let Some(at) = i.closed_at.filter(|_| i.state == IncidentState::Closed) {
        state = format!("{state} · {}", c.at(Some(at)));
    }
    let facts = vec![
        c.row(Msg::FieldStatus, state),
        c.row(
            Msg::FieldIncidentVendors,
            c.names(
                i.vendors
                    .iter()
                    .filter_map(|v| c.data.vendor(*v).map(|v| v.name.clone()))
                    .collect(),
            ),
        ),
        c.row(
            Msg::FieldIncidentServices,
            c.names(i.services.iter().map(|s| c.service_name(*s)).collect()),
        ),
        c.row(
            Msg::FieldIncidentDataClasses,
            c.names(
                i.data_classes
                    .iter()
                    .filter_map(|id| c.data.inventory.data_classes.iter().find(|d| d.id == *id))
                    .map(|d| d.name.clone())
                    .collect(),
            ),
        ),
        c.row(Msg::FieldIncidentDescription, c.opt(&i.description)),
        c.row(
            Msg::ReportSources,
            if i.source_links.is_empty() {
                DASH.to_owned()
            } else {
                i.source_links.join("\n")
            },
        ),
        c.row(Msg::FieldExposureStart, c.at(i.exposure_start)),
        c.row(Msg::FieldExposureEnd, c.at(i.exposure_end)),
        c.row(
            Msg::LabelExposure,
            duration(exposure(i.exposure_start, i.exposure_end)),
        ),
        c.row(Msg::FieldVendorAware, c.at(i.vendor_aware_at)),
        c.row(Msg::FieldVendorFixed, c.at(i.vendor_fixed_at)),
        c.row(Msg::FieldVendorNotified, c.at(i.vendor_notified_at)),
        c.row(Msg::FieldVendorNotifiedHow, c.opt(&i.vendor_notified_how)),
        c.row(Msg::FieldDisclosed, c.at(i.disclosed_at)),
        c.row(
            Msg::LabelDisclosureLag,
            duration(disclosure_lag(i.vendor_fixed_at, i.disclosed_at)),
        ),
        c.row(Msg::FieldWeAware, c.at(Some(i.we_aware_at))),
        c.row(Msg::FieldAffected, c.t(i.affected.label())),
        c.row(Msg::FieldAffectedEvidence, c.opt(&i.affected_evidence)),
        c.row(Msg::FieldPersonalDataInvolved, yes_no(i.personal_data)),
        c.row(Msg::FieldRisk, c.t(i.risk.label())),
        c.row(
            Msg::ReportRecordedBy,
            format!("{}, {}", i.created_by, c.at(Some(i.created_at))),
        ),
    ];
    let decided = |by: &str, at: DateTime<Utc>| {
        c.row(
            Msg::ClearanceDecidedLabel,
            format!("{by}, {}", c.at(Some(at))),
        )
    };
    let mut art33 = vec![c.row(Msg::ColClock, c.clock(i).describe(&c.fmt, c.lang))];
    match &i.art33 {
        Some(d) => art33.extend([
            c.row(Msg::FieldArt33Decision, c.t(d.decision.label())),
            c.row(Msg::FieldRationale, d.rationale.clone()),
            c.row(Msg::FieldNotifiedAt, c.at(d.notified_at)),
            c.row(Msg::FieldAuthority, c.opt(&d.authority)),
            c.row(Msg::FieldAuthorityReference, c.opt(&d.reference)),
            c.row(Msg::FieldDelayReason, c.opt(&d.delay_reason)),
            decided(&d.decided_by, d.decided_at),
        ]),
        None => art33.push(c.row(Msg::FieldArt33Decision, c.t(Msg::StandingNotDecided))),
    }
    let art34 = match &i.art34 {
        Some(d) => vec![
            c.row(Msg::FieldArt33Decision, c.t(d.decision.label())),
            c.row(Msg::FieldRationale, d.rationale.clone()),
            c.row(Msg::FieldInformedOn, c.date(d.informed_on)),
            decided(&d.decided_by, d.decided_at),
        ],
        None => vec![c.row(Msg::FieldArt33Decision, c.t(Msg::StandingNotDecided))],
    };
    let timeline = i
        .timeline
        .iter()
        .map(|e| {
            vec![
                c.at(Some(e.at)),
                c.who(&e.actor),
                Entry::from_stored(&e.kind, &e.detail).describe(&c.fmt, c.lang),
            ]
        })
        .collect();
    IncidentView {
        title: i.title.clone(),
        facts,
        art33,
        art34,
        timeline: c.table(
            &[Msg::ReportWhen, Msg::ReportWho, Msg::ReportWhat],
            timeline,
            Msg::ReportNone,
        ),
    }
}

fn request(c: &Ctx, r: &Request) -> RequestView {
    let state = if r.no_answer() {
        c.t(Msg::EventNoAnswer)
    } else if r.revoked_at.is_some() && r.status != crate::questions::RequestStatus::Submitted {
        c.t(Msg::EventRevoked)
    } else {
        c.t(r.status.label())
    };
    let mut facts = vec![
        c.row(
            Msg::RequestTo,
            format!("{} <{}>", r.recipient_name, r.recipient_email),
        ),
        c.row(Msg::RequestSentBy, r.sent_by.clone()),
        c.row(Msg::RequestSentAt, c.at(Some(r.sent_at))),
        c.row(Msg::ReportMessageId, c.opt(&r.message_id)),
        c.row(Msg::RequestDeadline, c.date(Some(r.deadline))),
        c.row(Msg::RequestStatusLabel, state),
        c.row(Msg::RemindersLabel, r.reminders_sent.to_string()),
    ];
    if r.submitted_at.is_some() || r.received_on.is_some() {
        let by = [&r.responder_name, &r.responder_role, &r.responder_email]
            .into_iter()
            .filter_map(|s| s.as_deref().filter(|s| !s.is_empty()))
            .collect::<Vec<_>>()
            .join(", ");
        facts.push(c.row(
            Msg::RequestResponder,
            if by.is_empty() { DASH.to_owned() } else { by },
        ));
        facts.push(c.row(Msg::ReportAnsweredAt, c.at(r.submitted_at)));
        if let Some(via) = r.answered_via {
            facts.push(c.row(Msg::ReportAnsweredVia, c.t(via.label())));
        }
        if r.received_on.is_some() {
            facts.push(c.row(Msg::ReportReceivedOn, c.date(r.received_on)));
            facts.push(c.row(Msg::ReportReceivedSource, c.opt(&r.received_source)));
        }
    }
    let items = r
        .items
        .iter()
        .map(|i| {
            let review = match (i.review, &i.reviewed_by, i.reviewed_at) {
                (Some(rv), by, at) => {
                    let mut s = c.t(rv.label());
                    if let (Some(by), Some(at)) = (by, at) {
                        s = format!(
                            "{s} · {}",
                            msg!(
                                c.lang,
                                Msg::ReviewedBy,
                                name = by,
                                date = &c.fmt.date_time_short(at)
                            )
                        );
                    }
                    if let Some(note) = i.review_note.as_deref().filter(|n| !n.is_empty()) {
                        s = format!("{s} · {note}");
                    }
                    s
                }
                (None, _, _) => c.t(Msg::ReportNotReviewed),
            };
            ItemView {
                number: (i.position + 1).to_string(),
                question: i.question.clone(),
                why: i.why.clone(),
                earlier_answer: i.earlier_answer.clone().unwrap_or_default(),
                answer: i
                    .answer
                    .clone()
                    .filter(|a| !a.trim().is_empty())
                    .unwrap_or_else(|| c.t(Msg::ReportNoAnswerYet)),
                review,
            }
        })
        .collect();
    let attachments = r
        .attachments
        .iter()
        .map(|a| {
            vec![
                a.filename.clone(),
                a.media_type.clone(),
                msg!(c.lang, Msg::ReportBytes, n = a.size),
                c.at(Some(a.uploaded_at)),
                a.uploaded_by.clone(),
            ]
        })
        .collect();
    RequestView {
        title: msg!(c.lang, Msg::RequestTitle, vendor = &r.vendor_name),
        facts,
        items,
        attachments: c.table(
            &[
                Msg::FieldName,
                Msg::ReportMediaType,
                Msg::ReportSize,
                Msg::ReportWhen,
                Msg::ReportWho,
            ],
            attachments,
            Msg::ReportNone,
        ),
    }
}

fn vendors(c: &Ctx) -> Table {
    let rows = c
        .data
        .inventory
        .vendors
        .iter()
        .map(|v| {
            let contacts = v
                .contacts
                .iter()
                .map(|k| {
                    let mut s = format!("{} <{}>, {}", k.name, k.email, c.t(k.role.label()));
                    if k.primary {
                        s = format!("{s} ({})", c.t(Msg::FieldPrimary));
                    }
                    s
                })
                .collect::<Vec<_>>();
            let links = [
                (Msg::FieldWebsite, &v.website),
                (Msg::FieldDpaUrl, &v.dpa_url),
                (Msg::FieldPrivacyUrl, &v.privacy_url),
                (Msg::FieldSubprocessorsUrl, &v.subprocessors_url),
                (Msg::FieldStatusUrl, &v.status_url),
                (Msg::FieldTrustUrl, &v.trust_url),
            ]
            .into_iter()
            .filter_map(|(m, u)| u.as_ref().map(|u| format!("{}: {u}", c.t(m))))
            .collect::<Vec<_>>();
            vec![
                v.name.clone(),
                c.t(v.role.label()),
                if contacts.is_empty() {
                    DASH.to_owned()
                } else {
                    contacts.join("\n")
                },
                if links.is_empty() {
                    DASH.to_owned()
                } else {
                    links.join("\n")
                },
            ]
        })
        .collect();
    c.table(
        &[
            Msg::FieldName,
            Msg::FieldVendorRole,
            Msg::ContactsTitle,
            Msg::ReportLinks,
        ],
        rows,
        Msg::ReportNone,
    )
}

fn mails(c: &Ctx) -> Table {
    let rows = c
        .data
        .mail_trail
        .iter()
        .map(|m| {
            vec![
                c.at(Some(m.created_at)),
                c.at(m.sent_at),
                m.recipient.clone(),
                m.subject.clone(),
                m.message_id.clone(),
                c.t(m.status.label()),
            ]
        })
        .collect();
    c.table(
        &[
            Msg::ReportQueuedAt,
            Msg::RequestSentAt,
            Msg::MailTo,
            Msg::MailSubject,
            Msg::ReportMessageId,
            Msg::MailStatusLabel,
        ],
        rows,
        Msg::ReportNone,
    )
}

fn answers(c: &Ctx) -> Table {
    let rows = c
        .data
        .questions
        .requests
        .iter()
        .filter(|r| r.status == crate::questions::RequestStatus::Submitted)
        .map(|r| {
            vec![
                c.at(r.submitted_at),
                r.vendor_name.clone(),
                c.opt(&r.responder_name),
                c.opt(&r.responder_email),
                r.answered_via
                    .map_or_else(|| DASH.to_owned(), |v| c.t(v.label())),
            ]
        })
        .collect();
    c.table(
        &[
            Msg::ReportAnsweredAt,
            Msg::FieldVendor,
            Msg::RequestResponder,
            Msg::FieldEmail,
            Msg::ReportAnsweredVia,
        ],
        rows,
        Msg::ReportNone,
    )
}

fn audit(c: &Ctx) -> Table {
    let rows = c
        .data
        .audit
        .iter()
        .map(|a| {
            let what = match Audit::from_stored(&a.action, &a.detail) {
                Some(e) => e.describe(c.lang),
                None => format!("{} {}", a.action, a.detail),
            };
            vec![c.at(Some(a.at)), a.actor.clone(), what]
        })
        .collect();
    c.table(
        &[Msg::ReportWhen, Msg::ReportWho, Msg::ReportWhat],
        rows,
        Msg::ReportNone,
    )
}

/// Where each data class stands in a service on `today` (the domain's
/// rule), with its decision: the organisation's classes in use, and
/// archived ones the service still receives.
fn standings<'a>(
    data: &'a ReportData,
    s: &Service,
    today: NaiveDate,
) -> Vec<(&'a DataClass, Option<&'a ClearanceRecord>, Verdict)> {
    let decisions = data
        .inventory
        .services
        .iter()
        .find(|x| x.id == s.id)
        .map(|x| x.clearances.as_slice())
        .unwrap_or_default();
    data.inventory
        .data_classes
        .iter()
        .filter(|d| d.archived_at.is_none() || s.data_classes.contains(&d.id))
        .map(|class| {
            let k = decisions.iter().find(|k| k.data_class == class.id);
            let decision = k.map(|k| Decision {
                clearance: k.clearance,
                expires_on: k.expires_on,
                decided_at: k.decided_at,
            });
            let v = verdict(&Case {
                protected: class.needs_clearance,
                assessment: s.assessment,
                decision: decision.as_ref(),
                suspended_since: None,
                today,
            });
            (class, k, v)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::report::example;

    fn texts(v: &View) -> String {
        serde_json::to_string(v).unwrap()
    }

    #[test]
    fn the_cover_says_who_when_what_in_the_organisations_zone() {
        let r = example("Bäckerei Sonnenschein", "x");
        let v = view(&r, Lang::De);
        assert_eq!(v.title, "Compliance-Bericht: KI-Dienste");
        assert_eq!(v.lang, "de");
        assert_eq!(
            v.cover,
            vec![
                [
                    "Organisation".to_owned(),
                    "Bäckerei Sonnenschein".to_owned()
                ],
                [
                    "Erstellt".to_owned(),
                    "30. November 2026, 14:00 CET".to_owned()
                ],
                [
                    "Zeitzone aller Angaben".to_owned(),
                    "Europe/Berlin".to_owned()
                ],
                ["Umfang".to_owned(), "Alle Dienste".to_owned()],
                [
                    "Erstellt von".to_owned(),
                    "Owner x <owner@org.example>".to_owned()
                ],
                ["Sprache".to_owned(), "Deutsch".to_owned()],
            ]
        );
        assert_eq!(v.hash, r.data.sha256());
        assert_eq!(v.hash.len(), 64);
        assert_eq!(v.generated, "Erstellt am 30. November 2026, 14:00 CET");
    }

    #[test]
    fn the_summary_counts_status_assessment_and_what_needs_attention() {
        let v = view(&example("Org", "x"), Lang::En);
        let s = &v.summary;
        assert_eq!(
            s.by_status.rows,
            vec![
                vec!["In use".to_owned(), "2".to_owned()],
                vec!["Trial".to_owned(), "0".to_owned()],
                vec!["Retired".to_owned(), "0".to_owned()],
            ]
        );
        assert!(s
            .by_assessment
            .rows
            .contains(&vec!["Cleared with conditions".to_owned(), "1".to_owned()]));
        assert!(s
            .by_assessment
            .rows
            .contains(&vec!["Asked".to_owned(), "1".to_owned()]));
        // The silent request was given up after its reminders: "no answer".
        assert_eq!(s.no_answer.rows.len(), 1);
        assert_eq!(s.no_answer.rows[0][0], "Search x");
        assert_eq!(s.no_answer.rows[0][2], "28 Nov 2026, 10:00");
        assert!(s.open_requests.rows.is_empty());
        // Due on 20 November, still open on the 30th: overdue.
        assert_eq!(
            s.overdue.rows,
            vec![vec![
                "Search x".to_owned(),
                "Answer due".to_owned(),
                "20 Nov 2026".to_owned()
            ]]
        );
        assert!(s
            .figures
            .contains(&["Requests with no answer".to_owned(), "1".to_owned()]));
        // Both services receive the protected class: one's decision ran out
        // on 20 November, the other has none.
        assert!(s.figures.contains(&[
            "Services receiving data they may not".to_owned(),
            "2".to_owned()
        ]));
    }

    #[test]
    fn a_service_shows_questions_as_sent_with_answer_review_and_history() {
        let v = view(&example("Org", "x"), Lang::Nb);
        let chat = &v.services[0];
        assert_eq!(chat.name, "Chat x");
        let r = &chat.requests[0];
        assert_eq!(r.title, "Spørsmål til Vendor x");
        let item = &r.items[0];
        assert_eq!(item.number, "1");
        assert_eq!(item.question, "How do you separate customers' data? x");
        assert_eq!(item.answer, "Separate caches per tenant. x");
        assert_eq!(
            item.review,
            "Tilfredsstillende · Vurdert av Owner den 11.11.2026 kl. 11:00 · Note x"
        );
        assert!(r.facts.iter().any(|f| f[1].contains("@aivet.example>")));
        assert_eq!(r.attachments.rows[0][0], "answers x.pdf");
        assert_eq!(chat.decision[0][1], "Godkjent med vilkår");
        assert_eq!(
            chat.supply_chain.rows.len(),
            3,
            "vendor, model provider, host"
        );
        assert_eq!(
            chat.findings.rows.len(),
            3,
            "all three topics, unknown ones too"
        );
        assert_eq!(chat.findings.rows[1][1], "Ukjent");
        // Which data may go in, with the decision it rests on and its last day.
        let k = &chat.clearance.rows[0];
        assert_eq!(k[0], "Customer data x (Sendes til tjenesten)");
        assert!(
            k[1].starts_with("Ikke tillatt: Beslutningen har utløpt"),
            "{k:?}"
        );
        assert_eq!(k[2], "Only pseudonymised x");
        assert_eq!(k[3], "20.11.2026");
        assert_eq!(chat.follow_ups.rows[0][2], "Ferdig");
        assert!(chat.timeline.rows[0][2].starts_with("Spørsmål sendt"));
        let search = &v.services[1];
        assert_eq!(search.follow_ups.rows[0][2], "Åpen (Forfalt)");
        assert_eq!(search.requests[0].items[0].answer, "(ikke besvart)");
    }

    #[test]
    fn advisory_hits_are_in_the_summary_and_on_each_service() {
        let v = view(&example("Org", "x"), Lang::De);
        assert!(
            v.summary
                .figures
                .contains(&["Von Engine-Hinweisen betroffen".to_owned(), "2".to_owned()]),
            "{:?}",
            v.summary.figures
        );
        assert_eq!(
            v.summary.advisory_hits.rows,
            vec![
                vec![
                    "Chat x".to_owned(),
                    "AIVET-2026-0001: KV cache shared x".to_owned(),
                    "SGLang 0.5.22".to_owned(),
                    "Betroffen · Behoben in 0.5.22".to_owned(),
                ],
                vec![
                    "Search x".to_owned(),
                    "AIVET-2026-0001".to_owned(),
                    "SGLang 0.5.22".to_owned(),
                    "Nicht bekannt: Version prüfen".to_owned(),
                ],
            ]
        );
        assert_eq!(v.services[0].advisories.rows.len(), 1);
        assert_eq!(
            v.services[1].advisories.rows[0][1],
            "Nicht bekannt: Version prüfen"
        );
    }

    #[test]
    fn open_incidents_are_summed_up_with_their_clock_as_of_the_report() {
        let r = example("Org", "x");
        let s = view(&r, Lang::En).summary;
        for (label, n) in [
            ("Open incidents", "1"),
            ("Open incidents awaiting the Art. 33 decision", "1"),
            ("Of these, past the 72 hours", "0"),
        ] {
            assert!(
                s.figures.contains(&[label.to_owned(), n.to_owned()]),
                "{label}: {:?}",
                s.figures
            );
        }
        // Aware 29 Nov 10:00 in Berlin, the report made 30 Nov 14:00.
        assert_eq!(
            s.open_incidents.rows,
            vec![vec![
                "Cache leak x".to_owned(),
                "29 Nov 2026, 10:00".to_owned(),
                "1 day and 20 hours left to decide on notifying: deadline 2 December 2026, 10:00 CET"
                    .to_owned()
            ]]
        );
        // Three days later the deadline has passed.
        let mut later = r.clone();
        later.generated_at += chrono::Duration::days(3);
        let s = view(&later, Lang::De).summary;
        assert!(s.figures.contains(&[
            "Davon nach Ablauf der 72 Stunden".to_owned(),
            "1".to_owned()
        ]));
        assert!(
            s.open_incidents.rows[0][2]
                .starts_with("Die 72 Stunden endeten vor 1 Tag und 4 Stunden"),
            "{:?}",
            s.open_incidents.rows
        );
    }

    #[test]
    fn each_service_lists_its_incidents() {
        let v = view(&example("Org", "x"), Lang::Nb);
        assert_eq!(
            v.services[0].incidents.rows,
            vec![vec![
                "Cache leak x".to_owned(),
                "Åpen".to_owned(),
                "29.11.2026 kl. 10:00".to_owned()
            ]]
        );
        assert_eq!(v.services[1].incidents.rows[0][0], "Outage x");
        assert_eq!(v.services[1].incidents.rows[0][1], "Avsluttet");
    }

    #[test]
    fn the_register_has_the_facts_lags_clock_decisions_and_timeline() {
        let v = view(&example("Org", "x"), Lang::De);
        let titles: Vec<&str> = v.incidents.iter().map(|i| i.title.as_str()).collect();
        assert_eq!(titles, ["Outage x", "Cache leak x"], "oldest first");
        let fact = |i: &IncidentView, label: &str| {
            i.facts
                .iter()
                .chain(&i.art33)
                .chain(&i.art34)
                .find(|r| r[0] == label)
                .map(|r| r[1].clone())
                .unwrap_or_else(|| panic!("{label} missing in {i:?}"))
        };
        let leak = &v.incidents[1];
        assert_eq!(fact(leak, "Status"), "Offen");
        assert_eq!(fact(leak, "Anbieter"), "Vendor x");
        assert_eq!(fact(leak, "Betroffene Dienste"), "Chat x");
        assert_eq!(fact(leak, "Betroffene Datenklassen"), "Customer data x");
        assert_eq!(fact(leak, "Quellen"), "https://vendor.example/incident");
        assert_eq!(fact(leak, "Dauer der Offenlegung"), "2 Tage und 12 Stunden");
        assert_eq!(
            fact(leak, "Von der Behebung bis zum öffentlichen Bericht"),
            "21 Tage"
        );
        assert_eq!(fact(leak, "Wir erlangten Kenntnis"), "29.11.2026, 10:00");
        assert_eq!(
            fact(leak, "Personenbezogene Daten könnten betroffen sein"),
            "ja"
        );
        assert_eq!(fact(leak, "Risiko für Personen"), "Noch nicht bewertet");
        assert!(fact(leak, "72 Stunden").starts_with("Noch 1 Tag und 20 Stunden"));
        assert_eq!(
            leak.art33[1],
            ["Entscheidung".to_owned(), "Nicht entschieden".to_owned()]
        );
        assert_eq!(
            leak.art34,
            vec![["Entscheidung".to_owned(), "Nicht entschieden".to_owned()]]
        );
        let what: Vec<&str> = leak.timeline.rows.iter().map(|r| r[2].as_str()).collect();
        assert_eq!(
            what,
            [
                "Vorfall „Cache leak x“ erfasst",
                "Dienst Chat x verknüpft",
                "Vendor called x"
            ]
        );

        let outage = &v.incidents[0];
        assert_eq!(fact(outage, "Status"), "Abgeschlossen · 20.11.2026, 10:00");
        assert_eq!(fact(outage, "Anbieter"), "Host x");
        assert_eq!(fact(outage, "Dauer der Offenlegung"), "—");
        assert_eq!(
            fact(outage, "72 Stunden"),
            "Entschieden: Der Aufsichtsbehörde melden"
        );
        assert_eq!(fact(outage, "Begründung"), "Prompts held names x");
        assert_eq!(fact(outage, "Gemeldet am"), "12.11.2026, 10:00");
        assert_eq!(fact(outage, "Aufsichtsbehörde"), "Authority x");
        assert_eq!(fact(outage, "Aktenzeichen der Behörde"), "Ref x");
        assert_eq!(fact(outage, "Gründe für die Verzögerung"), "—");
        assert_eq!(outage.art34[0][1], "Benachrichtigung nicht erforderlich");
        assert_eq!(outage.art34[3][1], "Owner x, 12.11.2026, 11:00");
        assert_eq!(v.labels.art33, "Meldung an die Aufsichtsbehörde (Art. 33)");
        assert!(outage.timeline.rows[1][2].starts_with("Entscheidung nach Art. 33"));
    }

    #[test]
    fn the_appendix_has_the_mail_trail_answers_and_readable_audit_entries() {
        let v = view(&example("Org", "x"), Lang::En);
        assert_eq!(
            v.mails.rows[0][4],
            format!("<{}@aivet.example>", uuid::Uuid::from_u128(5))
        );
        assert_eq!(v.mails.rows[0][5], "Sent");
        assert_eq!(v.answers.rows[0][2], "Responder x");
        assert_eq!(
            v.audit.rows[0],
            vec![
                "11 Nov 2026, 11:00".to_owned(),
                "owner@org.example".to_owned(),
                "Decided on a service: Cleared with conditions".to_owned()
            ]
        );
    }

    #[test]
    fn every_language_has_its_own_headings() {
        let r = example("Org", "x");
        let [en, de, nb] = Lang::ALL.map(|l| view(&r, l));
        assert_eq!(en.labels.summary, "Summary");
        assert_eq!(de.labels.summary, "Zusammenfassung");
        assert_eq!(nb.labels.summary, "Sammendrag");
        assert_eq!(
            en.hash, de.hash,
            "the data's hash does not depend on the language"
        );
        assert_ne!(texts(&en), texts(&de));
    }

    #[test]
    fn the_hash_changes_with_the_data_and_not_with_the_time_of_generation() {
        let a = example("Org", "x");
        let mut later = a.clone();
        later.generated_at += chrono::Duration::days(3);
        assert_eq!(a.data.sha256(), later.data.sha256());
        let mut changed = a.clone();
        changed.data.inventory.services[0].name.push('!');
        assert_ne!(a.data.sha256(), changed.data.sha256());
    }
}
