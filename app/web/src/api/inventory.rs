//! Server functions of the inventory: vendors and contacts, services and
//! findings, data classes, the dashboard figures and the CSV import.

use crate::error::AppError;
use aivet_domain::inventory::{
    AuthorityNotifier, ContactForm, ContactRole, Deployment, FindingForm, FindingStatus,
    FindingTopic, ServiceForm, ServiceStatus, VendorForm, VendorRole,
};
use aivet_domain::{msg, ContactId, DataClassId, Lang, MembershipId, Msg, ServiceId, VendorId};
use chrono::{DateTime, NaiveDate, Utc};
use leptos::prelude::*;
use serde::{Deserialize, Serialize};

#[cfg(feature = "ssr")]
use crate::ssr::{auth, ctx, done, service_error};

/// How many services one page of the list shows.
pub const PAGE_SIZE: i64 = 50;

/// A record named in a select or a list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Named<I> {
    pub id: I,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VendorRowView {
    pub id: VendorId,
    pub name: String,
    pub role: VendorRole,
    pub website: Option<String>,
    pub services: i64,
    pub primary_contact: Option<String>,
    pub archived: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VendorListView {
    pub rows: Vec<VendorRowView>,
    pub can_edit: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ContactView {
    pub id: ContactId,
    pub name: String,
    pub email: String,
    pub lang: Lang,
    pub role: ContactRole,
    pub primary: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct VendorDetailView {
    pub id: VendorId,
    pub form: VendorForm,
    pub role: VendorRole,
    pub archived: bool,
    pub updated_at: DateTime<Utc>,
    pub contacts: Vec<ContactView>,
    pub services: Vec<Named<ServiceId>>,
    pub can_edit: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceRowView {
    pub id: ServiceId,
    pub name: String,
    pub vendor: String,
    pub integrator: Option<String>,
    pub status: ServiceStatus,
    pub owner: Option<String>,
    pub data_classes: Vec<String>,
    pub personal: bool,
    pub known_findings: i64,
    pub archived: bool,
}

/// What the filters of the service list can choose from.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Choices {
    pub vendors: Vec<Named<VendorId>>,
    pub data_classes: Vec<DataClassChoice>,
    pub members: Vec<Named<MembershipId>>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct DataClassChoice {
    pub id: DataClassId,
    pub name: String,
    pub personal: bool,
    pub needs_clearance: bool,
    pub archived: bool,
    pub services: i64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceListView {
    pub rows: Vec<ServiceRowView>,
    pub total: i64,
    pub offset: i64,
    /// With many vendors only the chosen one is listed here, and the
    /// vendor filter is a name to type (see `vendor_search`).
    pub choices: Choices,
    pub can_edit: bool,
    /// The vendor filter is a text field, not a list of every vendor.
    pub vendor_search: bool,
    /// The typed vendor name matched no vendor (or several).
    pub vendor_unknown: bool,
}

/// Up to this many vendors the list's vendor filter lists them all.
pub const VENDOR_SELECT_MAX: usize = 60;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct FindingView {
    pub topic: FindingTopic,
    pub status: FindingStatus,
    pub summary: Option<String>,
    pub source_url: Option<String>,
    pub checked_on: Option<NaiveDate>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceDetailView {
    pub id: ServiceId,
    pub name: String,
    pub purpose: Option<String>,
    pub vendor: Named<VendorId>,
    pub integrator: Option<Named<VendorId>>,
    pub model_provider: Option<Named<VendorId>>,
    pub inference_host: Option<Named<VendorId>>,
    pub model: Option<String>,
    pub engine: Option<String>,
    /// The structured engine: "SGLang 0.5.20 (vendor's answer)".
    pub engine_kind: Option<aivet_domain::advisory::Engine>,
    pub engine_version: Option<String>,
    pub engine_source: Option<aivet_domain::advisory::VersionSource>,
    pub deployment: Deployment,
    pub owner: Option<String>,
    pub status: ServiceStatus,
    pub data_classes: Vec<String>,
    pub dpa_signed_on: Option<NaiveDate>,
    pub dpa_url: Option<String>,
    pub notice_hours: Option<i32>,
    pub notice_channel: Option<String>,
    pub authority_notifier: AuthorityNotifier,
    pub archived: bool,
    pub updated_at: DateTime<Utc>,
    /// One per topic, in the order of the topics.
    pub findings: Vec<FindingView>,
    pub can_edit: bool,
    /// Open incidents that may affect the service: (id, title).
    pub incidents: Vec<(aivet_domain::IncidentId, String)>,
}

/// A service's page: everything on it, read at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServicePageView {
    pub detail: ServiceDetailView,
    pub clearance: super::ClearanceView,
    pub advisories: Vec<super::ServiceAdvisoryView>,
    pub questions: super::QuestionsView,
}

/// The service form: its current values and what its selects offer.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ServiceFormView {
    pub form: ServiceForm,
    pub choices: Choices,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct DashboardView {
    pub in_use: i64,
    pub trial: i64,
    pub retired: i64,
    pub vendors: i64,
    pub personal: i64,
    pub open_findings: i64,
    pub known_findings: i64,
    pub asked_any: i64,
    pub awaiting_answer: i64,
    pub to_review: i64,
    /// Open follow-ups due before today.
    pub overdue: i64,
    /// Services asked that have no open follow-up (step 5 is done at 0).
    pub asked_without_follow_up: i64,
    /// Services in use or on trial receiving data they may not.
    pub conflicts: i64,
    /// Step 4: the policy was checked and every received protected class
    /// has a decision.
    pub clearance_done: bool,
    /// Services in use or on trial whose engine version an advisory hits.
    pub advisory_hits: i64,
    /// Open incidents whose 72-hour clock asks for a decision: (id, title, clock).
    pub clocks: Vec<(aivet_domain::IncidentId, String, crate::api::ClockView)>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportErrorView {
    pub row: usize,
    pub column: String,
    pub msg: Msg,
    /// The message in the page's language.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ImportPlanView {
    pub rows: usize,
    pub errors: Vec<ImportErrorView>,
    pub new_vendors: Vec<String>,
    /// "n problems found" or "all n rows are valid", in the page's language.
    pub summary: String,
}

#[cfg(feature = "ssr")]
use super::parse_id;

#[cfg(feature = "ssr")]
fn opt<T: std::str::FromStr>(s: &str) -> Option<T> {
    let s = s.trim();
    (!s.is_empty()).then(|| s.parse().ok()).flatten()
}

#[cfg(feature = "ssr")]
async fn choices(
    c: &crate::ssr::RequestCtx,
    a: &aivet_services::Auth,
) -> Result<Choices, AppError> {
    let s = &c.services;
    let vendors = s.vendor_names(a).await.map_err(service_error)?;
    let data_classes = s.data_classes(a).await.map_err(service_error)?;
    let members = s.members(a).await.map_err(service_error)?;
    Ok(Choices {
        vendors: vendors
            .into_iter()
            .map(|v| Named {
                id: v.id,
                name: v.name,
            })
            .collect(),
        data_classes: data_classes
            .into_iter()
            .map(|d| DataClassChoice {
                id: d.id,
                name: d.name,
                personal: d.personal,
                needs_clearance: d.needs_clearance,
                archived: d.archived_at.is_some(),
                services: d.services,
            })
            .collect(),
        members: members
            .into_iter()
            .map(|m| Named {
                id: m.id,
                name: m.name,
            })
            .collect(),
    })
}

#[cfg(feature = "ssr")]
fn can_edit(a: &aivet_services::Auth) -> Result<bool, AppError> {
    Ok(a.tenant().map_err(service_error)?.role().can_edit())
}

#[server(endpoint = "dashboard_data")]
pub async fn dashboard_data() -> Result<DashboardView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let d = c.services.dashboard(a).await.map_err(service_error)?;
    let zone = a.tenant().map_err(service_error)?.zone();
    let clocks = d
        .clocks
        .into_iter()
        .map(|(r, clock)| (r.id, r.title, crate::api::clock_view(clock, c.lang, zone)))
        .collect();
    let (n, f, k) = (d.inventory, d.follow_ups, d.clearance);
    Ok(DashboardView {
        advisory_hits: d.advisories.affected,
        clocks,
        conflicts: k.conflicts,
        clearance_done: k.policy_reviewed && k.undecided == 0,
        overdue: f.overdue,
        asked_without_follow_up: f.asked_without,
        in_use: n.in_use,
        trial: n.trial,
        retired: n.retired,
        vendors: n.vendors,
        personal: n.personal,
        open_findings: n.open_findings,
        known_findings: n.known_findings,
        asked_any: n.asked_any,
        awaiting_answer: n.awaiting_answer,
        to_review: n.to_review,
    })
}

// --- vendors ---

#[server(endpoint = "vendor_list")]
pub async fn vendor_list(
    #[server(default)] q: String,
    #[server(default)] role: String,
    #[server(default)] sort: String,
    #[server(default)] archived: String,
) -> Result<VendorListView, AppError> {
    use aivet_store::inventory::{VendorQuery, VendorSort};
    let c = ctx()?;
    let a = auth(&c)?;
    let query = VendorQuery {
        text: super::search_text(&q)?,
        role: opt(&role),
        archived: !archived.is_empty(),
        sort: if sort == "updated" {
            VendorSort::Updated
        } else {
            VendorSort::Name
        },
    };
    let rows = c.services.vendors(a, &query).await.map_err(service_error)?;
    Ok(VendorListView {
        rows: rows
            .into_iter()
            .map(|v| VendorRowView {
                id: v.id,
                name: v.name,
                role: v.role,
                website: v.website,
                services: v.services,
                primary_contact: v.primary_contact,
                archived: v.archived_at.is_some(),
            })
            .collect(),
        can_edit: can_edit(a)?,
    })
}

#[server(endpoint = "vendor_detail")]
pub async fn vendor_detail(vendor_id: String) -> Result<VendorDetailView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let p = c
        .services
        .vendor(a, parse_id(&vendor_id)?)
        .await
        .map_err(service_error)?;
    let v = p.vendor;
    let s = |o: Option<String>| o.unwrap_or_default();
    Ok(VendorDetailView {
        id: v.id,
        role: v.role,
        archived: v.archived_at.is_some(),
        updated_at: v.updated_at,
        form: VendorForm {
            name: v.name,
            website: s(v.website),
            role: v.role.as_str().to_owned(),
            dpa_url: s(v.dpa_url),
            privacy_url: s(v.privacy_url),
            subprocessors_url: s(v.subprocessors_url),
            status_url: s(v.status_url),
            trust_url: s(v.trust_url),
            notes: s(v.notes),
        },
        contacts: p
            .contacts
            .into_iter()
            .map(|c| ContactView {
                id: c.id,
                name: c.name,
                email: c.email,
                lang: c.lang,
                role: c.role,
                primary: c.is_primary,
            })
            .collect(),
        services: p
            .services
            .into_iter()
            .map(|s| Named {
                id: s.id,
                name: s.name,
            })
            .collect(),
        can_edit: can_edit(a)?,
    })
}

/// Creates a vendor (empty `vendor_id`) or saves an existing one.
#[server(endpoint = "save_vendor")]
pub async fn save_vendor(
    #[server(default)] vendor_id: String,
    form: VendorForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id = if vendor_id.trim().is_empty() {
        c.services
            .create_vendor(a, &form)
            .await
            .map_err(service_error)?
    } else {
        let id: VendorId = parse_id(&vendor_id)?;
        c.services
            .update_vendor(a, id, &form)
            .await
            .map_err(service_error)?;
        id
    };
    done(&format!("/vendors/{id}"))
}

#[server(endpoint = "archive_vendor")]
pub async fn archive_vendor(vendor_id: String, archived: bool) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: VendorId = parse_id(&vendor_id)?;
    c.services
        .archive_vendor(a, id, archived)
        .await
        .map_err(service_error)?;
    done(&format!("/vendors/{id}"))
}

#[server(endpoint = "delete_vendor")]
pub async fn delete_vendor(vendor_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .delete_vendor(a, parse_id(&vendor_id)?)
        .await
        .map_err(service_error)?;
    done("/vendors")
}

#[server(endpoint = "add_contact")]
pub async fn add_contact(vendor_id: String, contact: ContactForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: VendorId = parse_id(&vendor_id)?;
    c.services
        .add_contact(a, id, &contact)
        .await
        .map_err(service_error)?;
    done(&format!("/vendors/{id}#contacts"))
}

#[server(endpoint = "set_primary_contact")]
pub async fn set_primary_contact(contact_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let vendor = c
        .services
        .set_primary_contact(a, parse_id(&contact_id)?)
        .await
        .map_err(service_error)?;
    done(&format!("/vendors/{vendor}#contacts"))
}

#[server(endpoint = "remove_contact")]
pub async fn remove_contact(contact_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let vendor = c
        .services
        .remove_contact(a, parse_id(&contact_id)?)
        .await
        .map_err(service_error)?;
    done(&format!("/vendors/{vendor}#contacts"))
}

// --- services ---

/// The service list's filters, as its query string carries them.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default)]
pub struct ServiceFilter {
    pub q: String,
    pub vendor: String,
    /// A vendor's name (or the start of it), for organisations with many.
    pub vendor_name: String,
    pub status: String,
    pub data_class: String,
    pub owner: String,
    pub sort: String,
    pub archived: String,
    /// Only services that receive data they may not (any value).
    pub conflicts: String,
    pub page: String,
}

#[server(endpoint = "service_list")]
pub async fn service_list(
    #[server(default)] filter: ServiceFilter,
) -> Result<ServiceListView, AppError> {
    use aivet_store::inventory::{ServiceQuery, ServiceSort};
    let c = ctx()?;
    let a = auth(&c)?;
    let f = filter;
    let page: i64 = f.page.trim().parse().unwrap_or(1).clamp(1, 100_000);
    let mut choices = choices(&c, a).await?;
    let vendor_search = choices.vendors.len() > VENDOR_SELECT_MAX;
    let mut vendor: Option<VendorId> = opt(&f.vendor);
    let name = f.vendor_name.trim().to_lowercase();
    let mut vendor_unknown = false;
    if vendor.is_none() && !name.is_empty() {
        let exact = choices
            .vendors
            .iter()
            .find(|v| v.name.to_lowercase() == name);
        let starting: Vec<&Named<VendorId>> = choices
            .vendors
            .iter()
            .filter(|v| v.name.to_lowercase().starts_with(&name))
            .collect();
        vendor = exact
            .or(match starting.as_slice() {
                [one] => Some(*one),
                _ => None,
            })
            .map(|v| v.id);
        vendor_unknown = vendor.is_none();
    }
    if vendor_search {
        choices.vendors.retain(|v| Some(v.id) == vendor);
    }
    let query = ServiceQuery {
        text: super::search_text(&f.q)?,
        vendor,
        status: opt(&f.status),
        data_class: opt(&f.data_class),
        owner: opt(&f.owner),
        conflicts_on: if f.conflicts.is_empty() {
            None
        } else {
            Some(c.services.today(a.tenant().map_err(service_error)?))
        },
        archived: !f.archived.is_empty(),
        sort: match f.sort.as_str() {
            "vendor" => ServiceSort::Vendor,
            "status" => ServiceSort::Status,
            "updated" => ServiceSort::Updated,
            _ => ServiceSort::Name,
        },
        offset: (page - 1) * PAGE_SIZE,
        limit: PAGE_SIZE,
    };
    let result = if vendor_unknown {
        aivet_store::inventory::Page {
            rows: Vec::new(),
            total: 0,
        }
    } else {
        c.services
            .services(a, &query)
            .await
            .map_err(service_error)?
    };
    Ok(ServiceListView {
        vendor_search,
        vendor_unknown,
        total: result.total,
        offset: query.offset,
        rows: result
            .rows
            .into_iter()
            .map(|r| ServiceRowView {
                data_classes: r.data_class_names(),
                id: r.id,
                name: r.name,
                vendor: r.vendor_name,
                integrator: r.integrator_name,
                status: r.status,
                owner: r.owner_name,
                personal: r.personal,
                known_findings: r.known_findings.into(),
                archived: r.archived_at.is_some(),
            })
            .collect(),
        choices,
        can_edit: can_edit(a)?,
    })
}

#[server(endpoint = "service_detail")]
pub async fn service_detail(service_id: String) -> Result<ServiceDetailView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let p = c
        .services
        .service_page(a, parse_id(&service_id)?)
        .await
        .map_err(service_error)?;
    detail_view(a, p.detail, &p.names, p.incidents)
}

/// A service's whole page: the record, its clearance matrix, its advisory
/// hits and its questions, from one read.
#[server(endpoint = "service_page")]
pub async fn service_page(service_id: String) -> Result<ServicePageView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let p = c
        .services
        .service_page(a, parse_id(&service_id)?)
        .await
        .map_err(service_error)?;
    let id = p.detail.service.id;
    Ok(ServicePageView {
        clearance: super::clearance_view(a, &p.matrix, c.lang)?,
        advisories: super::service_advisory_views(&p.hits, c.lang),
        questions: super::questions_view(a, id, p.questions, c.services.clock.now(), c.lang),
        detail: detail_view(a, p.detail, &p.names, p.incidents)?,
    })
}

#[cfg(feature = "ssr")]
fn detail_view(
    a: &aivet_services::Auth,
    d: aivet_store::inventory::ServiceDetail,
    names: &aivet_store::inventory::ServiceNames,
    incidents: Vec<(aivet_domain::IncidentId, String)>,
) -> Result<ServiceDetailView, AppError> {
    let vendor = |id: VendorId| Named {
        id,
        name: names.vendor(id).unwrap_or_default().to_owned(),
    };
    let s = d.service;
    Ok(ServiceDetailView {
        incidents,
        id: s.id,
        name: s.name,
        purpose: s.purpose,
        vendor: vendor(s.vendor_id),
        integrator: s.integrator_id.map(vendor),
        model_provider: s.model_provider_id.map(vendor),
        inference_host: s.inference_host_id.map(vendor),
        model: s.model,
        engine: s.engine,
        engine_kind: s.engine_kind,
        engine_version: s.engine_version,
        engine_source: s.engine_source,
        deployment: s.deployment,
        owner: names.owner.clone(),
        status: s.status,
        data_classes: names.data_classes.clone(),
        dpa_signed_on: s.dpa_signed_on,
        dpa_url: s.dpa_url,
        notice_hours: s.notice_hours,
        notice_channel: s.notice_channel,
        authority_notifier: s.authority_notifier,
        archived: s.archived_at.is_some(),
        updated_at: s.updated_at,
        findings: FindingTopic::ALL
            .iter()
            .map(
                |topic| match d.findings.iter().find(|f| f.topic == *topic) {
                    Some(f) => FindingView {
                        topic: *topic,
                        status: f.status,
                        summary: f.summary.clone(),
                        source_url: f.source_url.clone(),
                        checked_on: f.checked_on,
                    },
                    None => FindingView {
                        topic: *topic,
                        status: FindingStatus::Unknown,
                        summary: None,
                        source_url: None,
                        checked_on: None,
                    },
                },
            )
            .collect(),
        can_edit: can_edit(a)?,
    })
}

/// The service form's values: empty for a new service (`service_id` empty),
/// else the service's.
#[server(endpoint = "service_form_data")]
pub async fn service_form_data(
    #[server(default)] service_id: String,
) -> Result<ServiceFormView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let form = if service_id.trim().is_empty() {
        ServiceForm::default()
    } else {
        let d = c
            .services
            .service(a, parse_id(&service_id)?)
            .await
            .map_err(service_error)?;
        let s = d.service;
        let id = |v: Option<VendorId>| v.map(|v| v.to_string()).unwrap_or_default();
        let text = |o: Option<String>| o.unwrap_or_default();
        ServiceForm {
            name: s.name,
            purpose: text(s.purpose),
            vendor_id: s.vendor_id.to_string(),
            integrator_id: id(s.integrator_id),
            model_provider_id: id(s.model_provider_id),
            inference_host_id: id(s.inference_host_id),
            model: text(s.model),
            engine: text(s.engine),
            engine_kind: s
                .engine_kind
                .map(|e| e.as_str().to_owned())
                .unwrap_or_default(),
            engine_version: text(s.engine_version),
            engine_source: s
                .engine_source
                .map(|e| e.as_str().to_owned())
                .unwrap_or_default(),
            deployment: s.deployment.as_str().to_owned(),
            owner_id: s.owner_id.map(|o| o.to_string()).unwrap_or_default(),
            status: s.status.as_str().to_owned(),
            data_classes: d.data_classes.iter().map(|c| c.to_string()).collect(),
            dpa_signed_on: s.dpa_signed_on.map(|d| d.to_string()).unwrap_or_default(),
            dpa_url: text(s.dpa_url),
            notice_hours: s.notice_hours.map(|h| h.to_string()).unwrap_or_default(),
            notice_channel: text(s.notice_channel),
            authority_notifier: s.authority_notifier.as_str().to_owned(),
            ..Default::default()
        }
    };
    Ok(ServiceFormView {
        form,
        choices: choices(&c, a).await?,
    })
}

/// Creates a service (empty `service_id`) or saves an existing one.
#[server(endpoint = "save_service")]
pub async fn save_service(
    #[server(default)] service_id: String,
    form: ServiceForm,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id = if service_id.trim().is_empty() {
        c.services
            .create_service(a, &form)
            .await
            .map_err(service_error)?
    } else {
        let id: ServiceId = parse_id(&service_id)?;
        c.services
            .update_service(a, id, &form)
            .await
            .map_err(service_error)?;
        id
    };
    done(&format!("/services/{id}"))
}

/// One service of the catalogue on the quick-entry page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CatalogueRowView {
    pub id: String,
    pub name: String,
    pub vendor: String,
    /// A service of this name is in the inventory already.
    pub listed: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct QuickEntryView {
    /// In the catalogue's order: a pick's index is its place here.
    pub catalogue: Vec<CatalogueRowView>,
    /// The organisation's vendors and the catalogue's, for typing a row.
    pub vendor_names: Vec<String>,
}

#[server(endpoint = "quick_entry_data")]
pub async fn quick_entry_data() -> Result<QuickEntryView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let d = c
        .services
        .quick_entry_data(a)
        .await
        .map_err(service_error)?;
    let catalogue = aivet_domain::catalogue::catalogue();
    let mut vendor_names = d.vendors;
    for e in catalogue {
        if !vendor_names
            .iter()
            .any(|v| v.eq_ignore_ascii_case(&e.vendor))
        {
            vendor_names.push(e.vendor.clone());
        }
    }
    Ok(QuickEntryView {
        catalogue: catalogue
            .iter()
            .map(|e| CatalogueRowView {
                id: e.id.clone(),
                name: e.name.clone(),
                vendor: e.vendor.clone(),
                listed: d.listed.contains(&e.name.to_lowercase()),
            })
            .collect(),
        vendor_names,
    })
}

/// Adds the services ticked and typed on the quick-entry page.
#[server(endpoint = "save_quick_entry")]
pub async fn save_quick_entry(form: aivet_domain::catalogue::QuickForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .quick_add(a, &form)
        .await
        .map_err(service_error)?;
    done("/services")
}

#[server(endpoint = "archive_service")]
pub async fn archive_service(service_id: String, archived: bool) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    c.services
        .archive_service(a, id, archived)
        .await
        .map_err(service_error)?;
    done(&format!("/services/{id}"))
}

#[server(endpoint = "delete_service")]
pub async fn delete_service(service_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .delete_service(a, parse_id(&service_id)?)
        .await
        .map_err(service_error)?;
    done("/services")
}

#[server(endpoint = "save_finding")]
pub async fn save_finding(service_id: String, finding: FindingForm) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let id: ServiceId = parse_id(&service_id)?;
    let topic = finding.topic.clone();
    c.services
        .save_finding(a, id, &finding)
        .await
        .map_err(service_error)?;
    done(&format!("/services/{id}#finding-{topic}"))
}

// --- data classes ---

#[server(endpoint = "data_classes_data")]
pub async fn data_classes_data() -> Result<Vec<DataClassChoice>, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    Ok(choices(&c, a).await?.data_classes)
}

/// Adds a data class (empty `data_class_id`) or renames / re-marks one.
#[server(endpoint = "save_data_class")]
pub async fn save_data_class(
    #[server(default)] data_class_id: String,
    name: String,
    #[server(default)] personal: bool,
    #[server(default)] needs_clearance: bool,
    #[server(default)] archived: bool,
) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let marks = aivet_domain::inventory::ClassMarks {
        personal,
        needs_clearance,
    };
    if data_class_id.trim().is_empty() {
        c.services
            .create_data_class(a, &name, marks)
            .await
            .map_err(service_error)?;
    } else {
        c.services
            .update_data_class(a, parse_id(&data_class_id)?, &name, marks, archived)
            .await
            .map_err(service_error)?;
    }
    done("/settings#data-classes")
}

#[server(endpoint = "delete_data_class")]
pub async fn delete_data_class(data_class_id: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    c.services
        .delete_data_class(a, parse_id(&data_class_id)?)
        .await
        .map_err(service_error)?;
    done("/settings#data-classes")
}

// --- CSV import ---

#[server(endpoint = "import_preview")]
pub async fn import_preview(csv: String) -> Result<ImportPlanView, AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let plan = c
        .services
        .import_preview(a, &csv)
        .await
        .map_err(service_error)?;
    let l = c.lang;
    let summary = if plan.errors.is_empty() {
        let vendors = if plan.new_vendors.is_empty() {
            "—".to_owned()
        } else {
            plan.new_vendors.join(", ")
        };
        msg!(l, Msg::ImportReady, n = plan.rows, vendors = &vendors)
    } else {
        msg!(l, Msg::ImportHasErrors, n = plan.errors.len())
    };
    Ok(ImportPlanView {
        rows: plan.rows,
        errors: plan
            .errors
            .into_iter()
            .map(|e| ImportErrorView {
                row: e.row,
                column: e.column,
                msg: e.msg,
                text: e.msg.text(l).to_owned(),
            })
            .collect(),
        new_vendors: plan.new_vendors,
        summary,
    })
}

#[server(endpoint = "import_commit")]
pub async fn import_commit(csv: String) -> Result<(), AppError> {
    let c = ctx()?;
    let a = auth(&c)?;
    let n = c
        .services
        .import_commit(a, &csv)
        .await
        .map_err(service_error)?;
    done(&format!("/services?imported={n}"))
}
