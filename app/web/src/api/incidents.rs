//! Server functions of vendor incidents: the register, the form, one
//! incident with its clock, the Art. 33 and Art. 34 decisions, notes, and
//! closing or reopening.

use crate::api::Named;
use crate::error::AppError;
use aivet_domain::incident::{
    Affected, Art33Form, Art33Record, Art34Form, Art34Record, IncidentForm, IncidentState, Risk,
};
use aivet_domain::{DataClassId, IncidentId, ServiceId, VendorId};
use chrono::{DateTime, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use super::parse_id;
#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// The Art. 33 clock as a page shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ClockView {
    /// The sentence, in the page's language and the organisation's zone.
    pub text: String,
    /// Running, or missed: a decision is still needed.
    pub pending: bool,
    pub missed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegisterRowView {
    pub id: IncidentId,
    pub title: String,
    pub vendors: Vec<String>,
    pub services: Vec<String>,
    pub we_aware_at: DateTime<Utc>,
    pub state: IncidentState,
    pub clock: ClockView,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct RegisterFilter {
    pub state: String,
    pub vendor: String,
    pub year: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RegisterView {
    pub rows: Vec<RegisterRowView>,
    pub vendors: Vec<Named<VendorId>>,
    pub years: Vec<i32>,
    pub can_edit: bool,
}

/// A service the form offers, with what it receives.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceChoice {
    pub id: ServiceId,
    pub name: String,
    pub vendor: String,
    pub receives: Vec<DataClassId>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IncidentFormView {
    pub form: IncidentForm,
    pub title: Option<String>,
    pub vendors: Vec<Named<VendorId>>,
    pub services: Vec<ServiceChoice>,
    pub data_classes: Vec<Named<DataClassId>>,
    pub zone: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LinkedServiceView {
    pub id: ServiceId,
    pub name: String,
    /// The vendor's notice to us against the contract, in a sentence.
    pub notice: String,
    /// The vendor's primary contact can be asked.
    pub vendor_id: VendorId,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EntryView {
    pub text: String,
    pub actor: String,
    pub at: DateTime<Utc>,
}

/// A recorded instant: its label and the time.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TimeFact {
    pub label: aivet_domain::Msg,
    pub at: DateTime<Utc>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct IncidentView {
    pub id: IncidentId,
    pub title: String,
    pub description: Option<String>,
    pub source_links: Vec<String>,
    pub vendors: Vec<String>,
    pub services: Vec<LinkedServiceView>,
    pub data_classes: Vec<String>,
    pub times: Vec<TimeFact>,
    pub vendor_notified_how: Option<String>,
    pub we_aware_at: DateTime<Utc>,
    /// "Exposure lasted …", "From the fix to the public report …".
    pub lags: Vec<(aivet_domain::Msg, String)>,
    pub affected: Affected,
    pub affected_evidence: Option<String>,
    pub personal_data: bool,
    pub risk: Risk,
    pub state: IncidentState,
    pub clock: ClockView,
    pub art33: Option<Art33Record>,
    pub art34: Option<Art34Record>,
    pub entries: Vec<EntryView>,
    pub can_edit: bool,
}

#[cfg(feature = "ssr")]
pub(crate) fn clock_view(
    c: aivet_domain::incident::Clock,
    lang: aivet_domain::Lang,
    zone: aivet_domain::Zone,
) -> ClockView {
    use aivet_domain::incident::Clock;
    ClockView {
        text: c.describe(&aivet_domain::Fmt::new(lang, zone), lang),
        pending: c.pending(),
        missed: matches!(c, Clock::Missed { .. }),
    }
}

#[cfg(feature = "ssr")]
fn state_of(s: &str) -> Result<Option<IncidentState>, AppError> {
    if s.trim().is_empty() {
        return Ok(None);
    }
    s.parse()
        .map(Some)
        .map_err(|_| service_error(aivet_services::ServiceError::NotFound))
}

#[cfg(feature = "ssr")]
pub fn register_query(
    f: &RegisterFilter,
) -> Result<aivet_services::incidents::RegisterQuery, AppError> {
    Ok(aivet_services::incidents::RegisterQuery {
        state: state_of(&f.state)?,
        vendor: if f.vendor.trim().is_empty() {
            None
        } else {
            Some(parse_id(&f.vendor)?)
        },
        year: f.year.trim().parse().ok(),
    })
}

#[server(endpoint = "incident_list")]
pub async fn incident_list(
    #[server(default)] filter: RegisterFilter,
) -> Result<RegisterView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let t = a.tenant().map_err(service_error)?;
    let (zone, can_edit) = (t.zone(), t.role().can_edit());
    let q = register_query(&filter)?;
    let rows = c
        .services
        .incident_register(a, &q)
        .await
        .map_err(service_error)?;
    // The years to filter by come from every incident: read them again
    // only when a filter left some out.
    let filtered = !(filter.state.trim().is_empty()
        && filter.vendor.trim().is_empty()
        && filter.year.trim().is_empty());
    let years = if filtered {
        let all = c
            .services
            .incident_register(a, &Default::default())
            .await
            .map_err(service_error)?;
        c.services.incident_years(a, &all)
    } else {
        c.services.incident_years(a, &rows)
    };
    let choices = c
        .services
        .incident_choices(a)
        .await
        .map_err(service_error)?;
    Ok(RegisterView {
        rows: rows
            .into_iter()
            .map(|(r, clock)| RegisterRowView {
                id: r.incident.id,
                title: r.incident.title,
                vendors: r.vendors,
                services: r.services,
                we_aware_at: r.incident.we_aware_at,
                state: r.incident.state,
                clock: clock_view(clock, c.lang, zone),
            })
            .collect(),
        vendors: choices
            .vendors
            .into_iter()
            .map(|v| Named {
                id: VendorId(v.id),
                name: v.name,
            })
            .collect(),
        years,
        can_edit,
    })
}

#[server(endpoint = "incident_form_data")]
pub async fn incident_form_data(
    #[server(default)] incident_id: String,
) -> Result<IncidentFormView, AppError> {
    use aivet_domain::incident::local_input;
    let c = ctx()?;
    let a = auth(&c)?;
    let zone = a.tenant().map_err(service_error)?.zone();
    let choices = c
        .services
        .incident_choices(a)
        .await
        .map_err(service_error)?;
    let (form, title) = if incident_id.trim().is_empty() {
        (
            IncidentForm {
                we_aware_at: local_input(c.services.now(), zone),
                ..Default::default()
            },
            None,
        )
    } else {
        let id: IncidentId = parse_id(&incident_id)?;
        let d = c
            .services
            .incident_draft(a, id)
            .await
            .map_err(service_error)?;
        let t = |at: Option<DateTime<Utc>>| at.map(|a| local_input(a, zone)).unwrap_or_default();
        (
            IncidentForm {
                title: d.title.clone(),
                description: d.description.unwrap_or_default(),
                source_links: d
                    .source_links
                    .iter()
                    .map(|u| u.as_str())
                    .collect::<Vec<_>>()
                    .join("\n"),
                vendors: d.vendors.iter().map(|v| v.to_string()).collect(),
                services: d.services.iter().map(|v| v.to_string()).collect(),
                data_classes: d.data_classes.iter().map(|v| v.to_string()).collect(),
                exposure_start: t(d.times.exposure_start),
                exposure_end: t(d.times.exposure_end),
                vendor_aware_at: t(d.times.vendor_aware_at),
                vendor_fixed_at: t(d.times.vendor_fixed_at),
                vendor_notified_at: t(d.times.vendor_notified_at),
                vendor_notified_how: d.vendor_notified_how.unwrap_or_default(),
                disclosed_at: t(d.times.disclosed_at),
                we_aware_at: local_input(d.we_aware_at, zone),
                affected: d.affected.as_str().to_owned(),
                affected_evidence: d.affected_evidence.unwrap_or_default(),
                personal_data: if d.personal_data {
                    "true".into()
                } else {
                    String::new()
                },
                risk: d.risk.as_str().to_owned(),
            },
            Some(d.title),
        )
    };
    let vendor_name = |v: VendorId| {
        choices
            .vendors
            .iter()
            .find(|n| n.id == v.0)
            .map(|n| n.name.clone())
            .unwrap_or_default()
    };
    Ok(IncidentFormView {
        form,
        title,
        services: choices
            .services
            .iter()
            .map(|(s, v)| ServiceChoice {
                id: ServiceId(s.id),
                name: s.name.clone(),
                vendor: vendor_name(*v),
                receives: choices
                    .receives
                    .iter()
                    .filter(|(x, _)| x.0 == s.id)
                    .map(|(_, c)| *c)
                    .collect(),
            })
            .collect(),
        vendors: choices
            .vendors
            .iter()
            .map(|v| Named {
                id: VendorId(v.id),
                name: v.name.clone(),
            })
            .collect(),
        data_classes: choices
            .data_classes
            .iter()
            .map(|v| Named {
                id: DataClassId(v.id),
                name: v.name.clone(),
            })
            .collect(),
        zone: zone.name().to_owned(),
    })
}

#[server(endpoint = "save_incident")]
pub async fn save_incident(
    #[server(default)] incident_id: String,
    form: IncidentForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id = if incident_id.trim().is_empty() {
        c.services
            .record_incident(a, &form)
            .await
            .map_err(service_error)?
    } else {
        let id: IncidentId = parse_id(&incident_id)?;
        c.services
            .update_incident(a, id, &form)
            .await
            .map_err(service_error)?;
        id
    };
    done(&format!("/incidents/{id}"))
}

#[server(endpoint = "incident_detail")]
pub async fn incident_detail(incident_id: String) -> Result<IncidentView, AppError> {
    use aivet_domain::incident::{disclosure_lag, exposure, notice_check, NoticeCheck};
    use aivet_domain::{msg, Fmt, Msg};
    let c = ctx()?;
    let a = auth(&c)?;
    let id: IncidentId = parse_id(&incident_id)?;
    let can_edit = a.tenant().map_err(service_error)?.role().can_edit();
    let case = c.services.incident(a, id).await.map_err(service_error)?;
    let lang = c.lang;
    let fmt = Fmt::new(lang, case.zone);
    let d = case.detail;
    let i = d.incident;
    let mut lags = Vec::new();
    if let Some(x) = exposure(i.exposure_start, i.exposure_end) {
        lags.push((Msg::LabelExposure, fmt.duration(x)));
    }
    if let Some(x) = disclosure_lag(i.vendor_fixed_at, i.disclosed_at) {
        lags.push((Msg::LabelDisclosureLag, fmt.duration(x)));
    }
    let services = d
        .services
        .iter()
        .map(|s| {
            let service = s.name.as_str();
            let notice = match notice_check(i.vendor_aware_at, i.vendor_notified_at, s.notice_hours)
            {
                NoticeCheck::NoDeadline => msg!(lang, Msg::NoticeNoDeadline, service = service),
                NoticeCheck::NotYet { due: None } => {
                    msg!(lang, Msg::NoticeNotYet, service = service)
                }
                NoticeCheck::NotYet { due: Some(due) } => msg!(
                    lang,
                    Msg::NoticeNotYetDue,
                    service = service,
                    due = &fmt.date_time_zone(due),
                    hours = s.notice_hours.unwrap_or_default()
                ),
                NoticeCheck::Within {
                    took_minutes,
                    hours,
                } => msg!(
                    lang,
                    Msg::NoticeWithin,
                    service = service,
                    took = &fmt.duration(chrono::Duration::minutes(took_minutes)),
                    hours = hours
                ),
                NoticeCheck::Late {
                    took_minutes,
                    hours,
                } => msg!(
                    lang,
                    Msg::NoticeLate,
                    service = service,
                    took = &fmt.duration(chrono::Duration::minutes(took_minutes)),
                    hours = hours
                ),
            };
            LinkedServiceView {
                id: s.id,
                name: s.name.clone(),
                notice,
                vendor_id: s.vendor_id,
            }
        })
        .collect();
    let times = [
        (Msg::FieldExposureStart, i.exposure_start),
        (Msg::FieldExposureEnd, i.exposure_end),
        (Msg::FieldVendorAware, i.vendor_aware_at),
        (Msg::FieldVendorFixed, i.vendor_fixed_at),
        (Msg::FieldVendorNotified, i.vendor_notified_at),
        (Msg::FieldDisclosed, i.disclosed_at),
    ]
    .into_iter()
    .filter_map(|(label, at)| at.map(|at| TimeFact { label, at }))
    .collect();
    Ok(IncidentView {
        id: i.id,
        title: i.title.clone(),
        description: i.description.clone(),
        source_links: i.source_links(),
        vendors: d.vendors.into_iter().map(|v| v.name).collect(),
        services,
        data_classes: d.data_classes.into_iter().map(|v| v.name).collect(),
        times,
        vendor_notified_how: i.vendor_notified_how.clone(),
        we_aware_at: i.we_aware_at,
        lags,
        affected: i.affected,
        affected_evidence: i.affected_evidence.clone(),
        personal_data: i.personal_data,
        risk: i.risk,
        state: i.state,
        clock: clock_view(case.clock, lang, case.zone),
        art33: i.art33_record(),
        art34: i.art34_record(),
        entries: d
            .entries
            .into_iter()
            .map(|e| EntryView {
                text: e.entry.describe(&fmt, lang),
                actor: e.actor,
                at: e.at,
            })
            .collect(),
        can_edit,
    })
}

#[server(endpoint = "decide_art33")]
pub async fn decide_art33(incident_id: String, decision: Art33Form) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: IncidentId = parse_id(&incident_id)?;
    c.services
        .decide_art33(a, id, &decision)
        .await
        .map_err(service_error)?;
    done(&format!("/incidents/{id}#art33"))
}

#[server(endpoint = "decide_art34")]
pub async fn decide_art34(incident_id: String, decision: Art34Form) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: IncidentId = parse_id(&incident_id)?;
    c.services
        .decide_art34(a, id, &decision)
        .await
        .map_err(service_error)?;
    done(&format!("/incidents/{id}#art34"))
}

#[server(endpoint = "add_incident_note")]
pub async fn add_incident_note(incident_id: String, note: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: IncidentId = parse_id(&incident_id)?;
    c.services
        .add_incident_note(a, id, &note)
        .await
        .map_err(service_error)?;
    done(&format!("/incidents/{id}#timeline"))
}

#[server(endpoint = "set_incident_state")]
pub async fn set_incident_state(incident_id: String, state: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: IncidentId = parse_id(&incident_id)?;
    let state: IncidentState =
        state_of(&state)?.ok_or_else(|| service_error(aivet_services::ServiceError::NotFound))?;
    c.services
        .set_incident_state(a, id, state)
        .await
        .map_err(service_error)?;
    done(&format!("/incidents/{id}"))
}
